/* (B) r between p and q, then p again, then q. SPIN: error. */
bool a, b, c;
active proctype P() { a = 1; a = 0; c = 1; c = 0; b = 1; b = 0; a = 1; a = 0; b = 1 }
ltl h { [] ((a) -> ((!(b) U (c)) || [] !(b))) }
