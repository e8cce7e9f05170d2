/* No run ends in the middle of a rendezvous (cases/oracle/README.md,
   "Channels"; since 2026-11-27).  E leads by silent steps to the failing
   assert unless c = 1 first, which takes the handshake S (send) then R
   (receive) and Q's silent c = 1.  Once S has happened only R can move, so
   E never comes between S and R.  Good runs with E: S R (c = 1) E, and
   E S R (c = 1) ending after c = 1; the run E S, stopped between send and
   receive, is no end.  So the minimal extras of E are {S, R}, before E or
   after it: cause E with S and R absent everywhere.  (Were runs to end
   mid-rendezvous, ORACLE_RV_END=1 and pan -C before 2026-11-27, E S would be
   good, {S} the minimal extra: cause E with no S after E.)  pan -C agrees. */
chan r = [0] of { byte };
byte c;
active proctype P() { S: r!1 }
active proctype Q() { byte x; R: r?x; c = 1 }
active proctype M() { E: skip; if :: c == 0 -> assert(false) :: else -> skip fi }
