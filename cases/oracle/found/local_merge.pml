/* Found by ORACLE_GEN_LOCALS2=1 ORACLE_POR=1 run.sh 60 41000 (seed 41038, the
   generator before local_merges), shrunk by hand.  a and c are globals
   declared `local`, and R writes a: the hint is wrong, as SPIN allows.

   Promela, statement by statement (the oracle; and pan -C built from
   `spin -o3 -a`, no statement merging):  1 cause  Qe .& Qf, Rp absent after Qe
   (R may reset a after Qf, before the assert).
   pan -C as `make pan` builds it (plain `spin -a`), POR on and POR=0, DFS and
   BFS alike:  1 cause  Qe &< !Rp >& Qf, Rp absent only between Qe and Qf,
   complete.  pan.m has "merge: assert((a!=1))": SPIN believes the `local` tag
   and merges the assert into Qf's move, so no run has Rp between them.

   pancause distrusts the tag for its reduction (README "Partial order
   reduction", P5-9) but not for SPIN's statement merging, which trusts it the
   same way; the answer is pan's merged model's, not the model's.  Not fixed
   here (the C is not the oracle's to change).  Since 2026-11-28 pan -C says
   INCOMPLETE with that reason (spin-model/tests/fixtures/local_merge.pml). */
local byte a;
local bool c;
active proctype Q() { Qe: a = 1; Qf: (!c); assert(a != 1) }
active proctype R() { Rp: a = 0 }
