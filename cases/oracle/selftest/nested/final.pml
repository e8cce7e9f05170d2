/* (A) q only in the final state, a blocked one. SPIN: error. */
bool a, b;
active proctype P() { a = 1; a = 0; b = 1; (false) }
ltl h { [] ((a) -> [] !(b)) }
