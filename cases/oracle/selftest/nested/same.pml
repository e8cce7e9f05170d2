/* (A) i = j: p and q hold together in one state only (d_steps), then neither,
   and the run goes on (no final-state stutter). SPIN: error. */
bool a, b;
active proctype P() { d_step { a = 1; b = 1 }; d_step { a = 0; b = 0 }; (false) }
ltl h { [] ((a) -> [] !(b)) }
