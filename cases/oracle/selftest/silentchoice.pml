/* After the event A a silent choice decides: the trace "A" is bad (x = 2,
   the assert fails) and good (x stays 1, P terminates): ambiguous. */
byte x;
active proctype P() {
  A: x = 1;
  if
  :: true -> x = 2
  :: true -> skip
  fi;
  assert(x != 2)
}
