/* (B) r in the state where q holds releases it. SPIN: no error. */
bool a, b, c;
active proctype P() { a = 1; a = 0; d_step { b = 1; c = 1 } }
ltl h { [] ((a) -> ((!(b) U (c)) || [] !(b))) }
