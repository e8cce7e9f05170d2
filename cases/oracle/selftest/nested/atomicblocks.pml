/* (A) the atomic sequence blocks at (c) with p true: that state is checked. SPIN: error. */
bool a, b, c;
active proctype P() { atomic { a = 1; (c); a = 0 }; b = 1 }
active proctype Q() { c = 1 }
ltl h { [] ((a) -> [] !(b)) }
