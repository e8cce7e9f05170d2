/* (B) p and q in one state, r false. SPIN: error. */
bool a, b, c;
active proctype P() { d_step { a = 1; b = 1 } }
ltl h { [] ((a) -> ((!(b) U (c)) || [] !(b))) }
