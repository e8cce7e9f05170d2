/* ex_exact: Definition 4 decided for the candidate dots (ex_cand.h).
 *
 * <i,p> is a cause when some set A of bottom-valued pairs without it leaves
 * the formula failing on pi^A while switching <i,p> as well makes it not
 * fail.  For a finite failure at k, "failing" is Definition 2's finite
 * falsification of pi^A[0..k]; for an infinite failure on a lasso it is
 * violation of the lasso pi^A, where A switches displayed positions (a loop
 * position in every round).
 *
 * Finite failure: a search over pairs of automaton states (ex_dfa), one per
 * world, which read the same letters except p at i: A is every choice of
 * relaxed letters, so the pairs reachable at k cover exactly all sets A.
 * Pairs whose second state cannot survive to k are dropped (ex_alive), and
 * so are equal pairs, whose futures agree; a first state that is already
 * empty while the second can survive settles the candidate at once.
 * Lasso: every subset of the bottom-valued displayed pairs, each switched
 * lasso evaluated exactly (ex_eval_trace), when there are at most
 * 2^budget subsets; otherwise sets A by increasing size until the budget
 * runs out, which can prove causes but not their absence.
 *
 * Budgets count automaton steps (finite) or lasso evaluations (lasso), an
 * evaluation of an n-step lasso counting 1 + n/64 so that the budget bounds
 * the time also on long lassos with few bottom-valued pairs; what the budget
 * cut short is EX_EXACT_UNDECIDED.
 */
#ifndef EX_EXACT_H
#define EX_EXACT_H

#include "ex_cand.h"
#include "ex_cause.h"
#include "ex_dfa.h"

enum { EX_EXACT_NO = 0, EX_EXACT_YES = 1, EX_EXACT_UNDECIDED = -1 };

/* A cheap test every cause passes, for a finite failure at k: <i,p> can be
 * a cause only if from some DFA state reachable before i (under any
 * relaxed letters) some relaxed letter at i gives a first world (p as it
 * is) that does not survive everything the second (p switched) survives,
 * and the second can survive to k.  Clears from need[0..k] the bits that
 * fail it; positions where the reachable states or letters exceed a bound
 * are left as they are (and the test stops there).  *budget is decreased.
 * 0, or -1 when out of memory. */
int ex_screen_finite(ex_dfa *d, const ex_word *w, size_t k, const ex_alive *alive, uint64_t *need,
                     long *budget);

/* Finite failure at k; alive from ex_cand_finite.  Writes verdict[c] for
 * each candidate; *budget is decreased.  0, or -1 when out of memory. */
int ex_exact_finite(ex_dfa *d, const ex_word *w, size_t k, const ex_alive *alive,
                    const ex_pdot *cand, size_t ncand, int *verdict, long *budget);

/* Infinite failure on the lasso w; tab: the formula in tableau normal form.
 * 0, or -1 when out of memory. */
int ex_exact_lasso(const ex_ltl *l, int tab, const ex_word *w, const ex_pdot *cand, size_t ncand,
                   int *verdict, long *budget);

#endif
