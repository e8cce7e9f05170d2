/* Either K1 or K2 before A prevents the hazard: two minimal Q, both
   contribute (K1 K2 A is good too, but not minimal). */
bool a, k1, k2;
active proctype P() { A: a = true }
active proctype Q() { K1: k1 = true }
active proctype R() { K2: k2 = true }
ltl h { [] !(a && !k1 && !k2) }
