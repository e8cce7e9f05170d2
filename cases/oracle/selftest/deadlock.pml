/* P waits for stop forever unless Q chooses S: after A N the system is in
   an invalid end state (no ltl, so pan checks end states). */
bool go, stop;
active proctype P() { A: go = true; (stop) }
active proctype Q() {
  (go);
  if
  :: true -> S: stop = true
  :: true -> N: skip
  fi
}
