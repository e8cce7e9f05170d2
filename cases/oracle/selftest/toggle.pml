/* A cycle with an event: X toggles a any number of times.  Minimal bad
   traces: X B and B X.  X X B is good, so for X B the second X between X
   and B is a prohibited (absent) event; for B X no good super-trace keeps
   the order B X (an X before B would be the first X). */
bool a, b;
active proctype P() {
  do
  :: true -> X: a = !a
  :: true -> break
  od
}
active proctype Q() { B: b = true }
ltl h { [] !(a && b) }
