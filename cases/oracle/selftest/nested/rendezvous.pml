/* (A) p = len(q) == 1 holds only between a rendezvous send and its receive: never checked. SPIN: no error. */
chan q = [0] of { byte };
bool b;
active proctype P() { q!1 }
active proctype Q() { byte m; q?m; b = 1 }
ltl h { [] ((len(q) == 1) -> [] !(b)) }
