/* (A) p only inside an atomic sequence its process holds: never checked. SPIN: no error. */
bool a, b;
active proctype P() { atomic { a = 1; (true); b = 1; (true); a = 0 }; b = 1 }
ltl h { [] ((a) -> [] !(b)) }
