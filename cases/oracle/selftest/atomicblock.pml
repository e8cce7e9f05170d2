/* An atomic sequence blocked at a rendezvous send loses atomicity.  A sets b
   and holds atomicity while Q stands at its receive (then the handshake
   completes at once); otherwise P's send has no receive: P is blocked inside
   its sequence, loses atomicity, and the others move (R's E resets b, then
   Q's C passes and P's send goes through: a valid end).  If E came before
   A, nothing resets b: Q waits at C, P inside its atomic sequence (not a
   valid end location): an invalid end state.  So the bad trace is E A (A E
   is good: E then lets C and the handshake happen), and A alone is a good
   trace (the state where P blocked is an ordinary state: runs may end
   there).  The cause is E before A, with C absent before A (C E A and
   E C A are good; were atomicity kept at the blocked send, A alone would be
   bad: the cause would be A). */
chan q = [0] of { byte };
bool b;
active proctype P() { A: atomic { b = true; q!1 } }
active proctype Q() { byte m; C: (!b); q?m }
active proctype R() { E: b = false }
