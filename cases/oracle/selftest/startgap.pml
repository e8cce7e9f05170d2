/* K before A prevents the hazard: "not K before A" (interval from the
   start of the trace to A).  K after A comes too late. */
bool a, k;
active proctype P() { A: a = true }
active proctype Q() { K: k = true }
ltl h { [] !(a && !k) }
