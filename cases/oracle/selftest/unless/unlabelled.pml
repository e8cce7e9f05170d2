/* labelled.pml without its label: stock pan (-DNOREDUCE) finds no error, the
   outermost executable escape moves everywhere. */
byte b, x, a;
active proctype P() {
  { a = 1; { { a = 2; a = 3 } unless { d_step { (b == 1) -> x = 1 } }; a = 4 } unless { d_step { (b == 1) -> x = 2 } }; a = 5 } unless { d_step { (b == 1) -> x = 3 } }
}
active proctype Q() { b = 1 }
ltl h { [] !(x == 1) }
