/* The unfair arbiter of Table 1 (Finkbeiner et al.) for two clients as a
 * Promela model: client 1 has priority, so a permanent request of client 1
 * starves client 0.  One reaction per step: the step starts at the `end`
 * label, chooses the requests (the inputs) and sets the grants (outputs) in
 * one atomic sequence, so every request valuation is possible at every step. */
bool r0, r1, g0, g1;

active proctype arbiter()
{
end:
    do
    :: atomic {
           if :: r0 = true :: r0 = false fi;
           if :: r1 = true :: r1 = false fi;
           g1 = r1;
           g0 = r0 && !r1
       }
    od
}

ltl granted0 { <> g0 }      /* its violation: client 0 is never granted */
ltl granted1 { [] <> g1 }   /* holds on a run where client 1 always requests */
