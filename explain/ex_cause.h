/* ex_cause: Algorithm 6 of Beer et al., the linear over-approximation of
 * the causes of a formula's failure on a finite path.
 *
 * The path is pi[0..k] (the prefix up to the first failure, or a lasso
 * unwrapped |phi|+1 times); the formula is in Algorithm 6 normal form
 * (ex_ltl_nnf EX_NNF_ALG6: literals, and, or, X, G, U).  val is the
 * paper's: X and G hold at the end of the path, U must be fulfilled on it.
 * The result is the set of bottom-valued <step, proposition> pairs from
 * which a failure path leads to the root.
 */
#ifndef EX_CAUSE_H
#define EX_CAUSE_H

#include "ex_ltl.h"

#include <stddef.h>

typedef struct {
    size_t step;
    int prop;
} ex_pdot;

/* Returns the number of dots, sorted by step then proposition, in *dots
 * (caller frees), or SIZE_MAX when out of memory.  *fails tells whether val
 * of f at 0 is false. */
size_t ex_cause_alg6(const ex_ltl *l, int f, const uint64_t *path, size_t len, ex_pdot **dots,
                     int *fails);

#endif
