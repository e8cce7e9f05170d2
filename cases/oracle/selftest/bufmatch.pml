/* A buffered channel of capacity 1 and receives that match constants.  Q
   waits for a 2 (R2), then silently sets a, the hazard; M takes the 1 (R1).
   S2 cannot send while the 1 is still in the channel (full), and R2 cannot
   take the 1 (its constant does not match the head), so the one bad trace is
   S1 R1 S2 R2, totally ordered; nothing can be added to it (every statement
   runs once), so nothing is absent. */
chan q = [1] of { byte };
byte a;
active proctype P() { S1: q!1; S2: q!2 }
active proctype Q() { R2: q?2; a = 1 }
active proctype M() { R1: q?1 }
ltl h { [] !(a == 1) }
