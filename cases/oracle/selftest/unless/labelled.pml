/* A labelled unless nested in others: at its entry (the state L labels) pan.t
   gives every escape copy one escape tag, so pan explores each executable
   escape of every level there; at the body's other locations the outermost
   executable escape alone moves.  So x == 1 (the inner escape) is reachable
   only at L's location, when Q has set b before P gets there.
   Stock pan (-DNOREDUCE): error (x == 1 reached); without the label L: none
   (unlabelled.pml). */
byte b, x, a;
active proctype P() {
  { a = 1; L: { { a = 2; a = 3 } unless { d_step { (b == 1) -> x = 1 } }; a = 4 } unless { d_step { (b == 1) -> x = 2 } }; a = 5 } unless { d_step { (b == 1) -> x = 3 } }
}
active proctype Q() { b = 1 }
ltl h { [] !(x == 1) }
