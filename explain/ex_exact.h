/* ex_exact: Definition 4 decided by search, for small instances.
 *
 * A candidate pair c is a cause when some set A of bottom-valued pairs
 * (c not in A) leaves the formula false on pi^A while switching c as well
 * makes it true or unknown.  The search tries sets A by increasing size
 * until one works (cause), all have failed (not a cause), or the budget of
 * tried sets runs out (undecided).  "False" is Definition 2's finite
 * falsification on the prefix pi[0..k], decided with the automaton; for a
 * lasso whose failure is infinite it is falsity on the lasso itself.
 */
#ifndef EX_EXACT_H
#define EX_EXACT_H

#include "ex_cause.h"
#include "ex_nba.h"

enum { EX_EXACT_NO = 0, EX_EXACT_YES = 1, EX_EXACT_UNDECIDED = -1 };

typedef struct {
    const ex_ltl *l;
    int tab;           /* tableau normal form of the formula */
    const ex_nba *nba; /* its automaton (finite mode) */
    long loop;         /* >= 0: lasso mode, path continues from loop forever */
    uint64_t pos, neg; /* polarity masks (Definition 1) */
    long budget;       /* sets left to try, shared by all candidates */
} ex_exact_ctx;

/* Decides each candidate on `path` (len letters); writes EX_EXACT_* to
 * verdict[i] for cand[i]. */
void ex_exact_decide(ex_exact_ctx *c, const uint64_t *path, size_t len, const ex_pdot *cand,
                     size_t ncand, int *verdict);

#endif
