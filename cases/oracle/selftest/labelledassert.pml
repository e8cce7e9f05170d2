/* The failing assert is itself an event: the bad trace is A F (the assert
   step is the last step of the bad run, and it is labelled). */
bool a;
active proctype P() { A: a = true }
active proctype Q() { F: assert(!a) }
