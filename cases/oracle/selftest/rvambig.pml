/* No run ends in the middle of a rendezvous (cases/oracle/README.md,
   "Channels"; since 2026-11-27).  P hands 0 to R (R's event Rj), sets c,
   which lets M fail by silent steps, then offers 2 to R (silent send).
   After that send only R's receive Rk can move, and it is an event, so the
   mid-rendezvous state has no silent step; were it an end, the run with
   trace Rj that stops there would be good although M is about to fail, and
   Rj ambiguous (pan -C before 2026-11-27; ORACLE_RV_END=1).  As it is no
   end, every run with trace Rj ends doomed or fails: cause Rj, not
   ambiguous, nothing absent (no good trace contains Rj).  pan -C agrees. */
chan q = [0] of { byte };
bool c;
active proctype P() { q!0; c = true; q!2 }
active proctype R() { byte m; Rj: q?m; Rk: q?2 }
active proctype M() { end_m: (c) -> assert(false) }
