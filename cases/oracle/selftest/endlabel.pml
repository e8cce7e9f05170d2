/* P waits at an end label: after A (Q terminated, P blocked at end_w)
   the state is a valid end state, not a hazard; only B (the assert fails)
   is bad. */
bool go;
active proctype P() { end_w: (go) }
active proctype Q() {
  if
  :: true -> A: skip
  :: true -> B: go = true
  fi;
  assert(!go)
}
