/* (B) r in the state where p holds releases it. SPIN: no error. */
bool a, b, c;
active proctype P() { d_step { a = 1; c = 1 }; d_step { a = 0; c = 0 }; b = 1 }
ltl h { [] ((a) -> ((!(b) U (c)) || [] !(b))) }
