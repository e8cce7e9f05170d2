/* A rendezvous send that no receive can take is no step (pan tries it, finds
   no receive and undoes it).  P offers 1, Q takes only 2: S never moves, and
   once A has happened neither process can: an invalid end state, reached by
   A alone.  The cause is A, with nothing absent: no good run has A and more
   events (a send that failed is not an event of any run, and no run ends in
   the middle of a handshake that cannot complete). */
chan r = [0] of { byte };
byte a;
active proctype P() { S: r!1 }
active proctype Q() { A: a = 1; R: r?2 }
