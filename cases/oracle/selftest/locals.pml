/* Process-local variables: P and Q each have their own x.  P counts its x
   to 2 silently and A copies it into a; Q's x stays 0 until B sets it, and
   C waits on Q's own x.  The hazard needs A and C, C needs B before it: one
   cause A, B, C with B before C.  (Were the two x one variable, P's first
   increment would open Q's guard and {A, C} would be a smaller cause.) */
byte a;
bool c;
active proctype P() {
  byte x;
  x++;
  x++;
  A: a = x
}
active proctype Q() {
  byte x;
  B: x = 1;
  (x == 1) -> C: c = true
}
ltl h { [] !(a == 2 && c) }
