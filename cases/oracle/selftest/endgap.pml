/* After A the silent step b = true brings the hazard, unless C (and its
   silent a = false) gets in between: "not C after A" (interval to the end). */
bool a, b;
active proctype P() { A: a = true; b = true }
active proctype Q() { C: (a && !b) -> a = false }
ltl h { [] !(a && b) }
