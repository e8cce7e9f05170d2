/* (A) p in the initial state, q later. SPIN: error. */
bool a = 1, b;
active proctype P() { a = 0; b = 1 }
ltl h { [] ((a) -> [] !(b)) }
