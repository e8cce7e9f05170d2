/* The hazard holds in the initial state: the empty trace is bad and no
   good trace is smaller, so it is uncaused; A's trace is not minimal. */
bool a = true;
active proctype P() { A: a = false }
ltl h { [] !a }
