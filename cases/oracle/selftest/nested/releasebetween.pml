/* (B) r between p and q. SPIN: no error. */
bool a, b, c;
active proctype P() { a = 1; a = 0; c = 1; c = 0; b = 1 }
ltl h { [] ((a) -> ((!(b) U (c)) || [] !(b))) }
