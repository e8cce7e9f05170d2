/* (A) i = j: p and q become true in one state (one d_step). SPIN: error. */
bool a, b;
active proctype P() { d_step { a = 1; b = 1 } }
ltl h { [] ((a) -> [] !(b)) }
