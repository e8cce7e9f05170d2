/* Both events are needed, in either order; nothing else happens. */
bool a, b;
active proctype P() { A: a = true }
active proctype Q() { B: b = true }
ltl h { [] !(a && b) }
