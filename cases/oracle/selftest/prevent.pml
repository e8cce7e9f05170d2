/* C between A and B prevents the hazard; after B A it cannot (P has done
   A last, C would come after the violation).  With AC2(2) the two orders
   are two causes: A <¬C> B, and B before A without absent events.
   Without AC2(2) one cause, unordered. */
bool a, b;
active proctype P() { A: a = true; C: a = false }
active proctype Q() { B: b = true }
ltl h { [] !(a && b) }
