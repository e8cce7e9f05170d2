/* Not input-enabled: without an `end` label every pan move is a step, and the
 * move that chooses r0 cannot choose r1 too. */
bool r0, r1, g0;

active proctype arbiter()
{
    do
    :: atomic { if :: r0 = true :: r0 = false fi; if :: r1 = true :: r1 = false fi; g0 = r0 && !r1 }
    od
}

ltl granted0 { <> g0 }
