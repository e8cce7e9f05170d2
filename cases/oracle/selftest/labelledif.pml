/* The label is on the if: both options leave the labelled location, so
   both are the event L; the silent assignment after it decides. */
byte x;
active proctype P() {
  L: if
  :: true -> x = 1
  :: true -> x = 2
  fi
}
ltl h { [] !(x == 2) }
