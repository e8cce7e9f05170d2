/* The spurious arbiter of Table 1 for two clients: it grants 0 and 1 in turn
 * whatever the requests, so no input behaviour causes client 0's grant (the
 * cause is `true`).  Each step is one d_step per request valuation. */
bool r0, r1, g0, g1, turn;

inline react() { g0 = !turn; g1 = turn; turn = !turn }

active proctype arbiter()
{
    do
    :: d_step { r0 = 0; r1 = 0; react() }
    :: d_step { r0 = 0; r1 = 1; react() }
    :: d_step { r0 = 1; r1 = 0; react() }
    :: d_step { r0 = 1; r1 = 1; react() }
    od
}

ltl never0 { [] !g0 }
