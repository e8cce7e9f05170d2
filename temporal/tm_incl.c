/*
 * tm_incl.c - language inclusion and equivalence: L(a) is a subset of L(b) iff
 * a times the complement of b is empty, and the emptiness check's lasso is the
 * counterexample.  Cause checking knows both complements it needs without
 * complementing (the cause's is the upward closure, a formula's is its
 * negation's translation), hence the _cb variant.
 */
#include "temporal.h"

#include <string.h>

int tm_nba_included_cb(const tm_nba *a, const tm_nba *comp_b, uint32_t budget, tm_lasso *cex,
                       u_err *err)
{
    tm_nba prod;
    if (cex)
        memset(cex, 0, sizeof *cex);
    if (tm_nba_intersect(a, comp_b, budget, &prod, err) != 0)
        return -1;
    int e = tm_nba_empty(&prod, cex, err);
    tm_nba_free(&prod);
    if (e < 0)
        return -1;
    return e;
}

int tm_nba_included(const tm_nba *a, const tm_nba *b, uint32_t budget, tm_lasso *cex, u_err *err)
{
    tm_nba comp;
    if (tm_nba_complement(b, TM_COMP_AUTO, budget, "an automaton", &comp, NULL, err) != 0)
        return -1;
    int r = tm_nba_included_cb(a, &comp, budget, cex, err);
    tm_nba_free(&comp);
    return r;
}
