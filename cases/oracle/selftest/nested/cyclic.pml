/* (B) a loop: p, q, r in any order; a run is bad iff q follows p without r in between. SPIN: error. */
bool a, b, c;
active proctype P() { do :: a = !a :: c = !c :: true -> break od }
active proctype Q() { do :: b = !b :: true -> break od }
ltl h { [] ((a) -> ((!(b) U (c)) || [] !(b))) }
