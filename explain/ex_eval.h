/* ex_eval: LTL on finite and lasso traces of letters; the first failure.
 *
 * Letters are bit sets of true propositions (ex_bind).  Formulas here are
 * in tableau normal form (ex_ltl_nnf EX_NNF_TABLEAU: literals, and, or, X,
 * U, R).  ex_eval_trace is the classic backward labelling: exact on a lasso
 * (loop >= 0), and on a finite word either strong (obligations pending at
 * the end fail) or weak (they hold: Eisner et al.'s weak view, whose
 * falsity proves every continuation fails).  ex_first_failure decides
 * Definition 2 with the Buchi automaton of ex_nba.
 */
#ifndef EX_EVAL_H
#define EX_EVAL_H

#include "ex_ltl.h"

#include <stddef.h>

/* Truth of f at position 0 (1 or 0; -1 when out of memory).  loop < 0:
 * finite word, weak selects the view. */
int ex_eval_trace(const ex_ltl *l, int f, const uint64_t *letters, size_t n, long loop, int weak);

typedef enum {
    EX_FF_FAILS,  /* finitely falsified at k */
    EX_FF_INF,    /* lasso: fails, but no finite prefix falsifies (k = inf) */
    EX_FF_HOLDS,  /* lasso satisfies it, or finite trace finitely satisfies */
    EX_FF_UNKNOWN /* finite trace: some continuations satisfy, some do not */
} ex_ff_status;

typedef struct {
    ex_ff_status status;
    size_t k;         /* EX_FF_FAILS: index in the (unrolled) path */
    int approximated; /* the automaton was too big: k is the first prefix
                         falsified in the weak view, a sound upper bound */
    int nba_states;   /* size of the automaton used, 0 if none */
} ex_first;

/* pos/neg: tableau normal forms of the formula and of its negation.
 * unroll: copies of the loop searched by the weak-view fallback.  0, or -1
 * when out of memory.  On a lasso k is a position of the infinite word: a
 * failure in a later round of the loop is reported there. */
int ex_first_failure(const ex_ltl *l, int pos, int neg, const uint64_t *letters, size_t n,
                     long loop, int max_states, size_t unroll, ex_first *out);

/* Letter at position i of the infinite path given by a lasso. */
static inline uint64_t ex_letter_at(const uint64_t *letters, size_t n, long loop, size_t i)
{
    if (i < n || loop < 0)
        return letters[i < n ? i : n - 1];
    return letters[(size_t)loop + (i - (size_t)loop) % (n - (size_t)loop)];
}

#endif
