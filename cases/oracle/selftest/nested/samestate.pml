/* (B) i = j: p and q in one state, r false, then none of them. SPIN: error. */
bool a, b, c;
active proctype P() { d_step { a = 1; b = 1 }; d_step { a = 0; b = 0 }; (false) }
ltl h { [] ((a) -> ((!(b) U (c)) || [] !(b))) }
