/* The loop forces two occurrences of I before D: occurrences I_1, I_2, D,
   totally ordered. */
byte n;
bool done;
active proctype P() {
  do
  :: (n < 2) -> I: n = n + 1
  :: else -> break
  od;
  D: done = true
}
ltl h { [] !done }
