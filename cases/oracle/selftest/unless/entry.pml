/* The escape taken where the process stands at a labelled body statement
   is the escape's move, not that statement's (the sixth probe's P6-3 shape):
   LA is no event of the run that escapes at LA's location.  SPIN refuses a
   label on the escape's guard ("cannot jump to the guard of an escape"), so
   the escape's first move is silent and LX is its second.
   Stock pan (-DNOREDUCE): error (c == 1 with l == 1). */
byte g, l, c;
active proctype A() {
  { l = 1; LA: l = 2 } unless { (g == 1) -> LX: c = 1 }
}
active proctype B() { LB: g = 1 }
ltl h { [] !(c == 1 && l == 1) }
