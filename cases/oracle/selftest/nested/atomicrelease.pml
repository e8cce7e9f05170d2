/* (B) r only inside an atomic sequence its process holds: never checked. SPIN: error. */
bool a, b, c;
active proctype P() { a = 1; atomic { c = 1; (true); b = 1; (true); c = 0 } }
ltl h { [] ((a) -> ((!(b) U (c)) || [] !(b))) }
