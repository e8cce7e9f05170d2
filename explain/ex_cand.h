/* ex_cand: the candidate dots, a sound over-approximation of Definition 4.
 *
 * A pair <i,p> is bottom-valued when p's value at i works against the
 * formula (Definition 1: false under a positive occurrence, true under a
 * negative one; both for a proposition of mixed polarity).  A contingency
 * may switch any bottom-valued pairs, so the letters a position can take
 * are its own with any subset of its bottom-valued propositions switched:
 * the *relaxed* letters.  If <i,p> is a cause, then in the world A + <i,p>
 * some run of the formula's automaton survives (finite failure at k: all
 * of pi[0..k]; infinite failure: accepting on the lasso) that does not
 * survive in A, so its state at i requires p's switched value.  That run
 * reads relaxed letters only.  So the candidates are: the pairs some
 * surviving run over relaxed letters requires switched.  Every cause is a
 * candidate; the exact search (ex_exact.h) then decides the candidates.
 *
 * Finite failure at k: forward reachable automaton states per position over
 * relaxed letters, then backward to those that survive to k.  Infinite
 * failure: the product of the automaton with the lasso's positions, whose
 * nodes on a path from the start to an accepting cycle are the surviving
 * ones.  Both are linear in the trace: the set steps are interned and
 * cached like ex_dfa's, so a trace that repeats letters repeats lookups.
 */
#ifndef EX_CAND_H
#define EX_CAND_H

#include "ex_nba.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>

/* The word the formula fails on: letters[0..n), a lasso from `loop` when
 * loop >= 0; signals: the propositions that are not constant; pos/neg: the
 * polarity masks of the formula as written (Definition 1). */
typedef struct {
    const uint64_t *letters;
    size_t n;
    long loop;
    uint64_t signals, pos, neg;
} ex_word;

/* The bottom-valued propositions of a letter. */
static inline uint64_t ex_bottom(const ex_word *w, uint64_t letter)
{
    return ((~letter & w->pos) | (letter & w->neg)) & w->signals;
}

/* need[i] for i in 0..k: the propositions some surviving run requires
 * switched at position i of the (unrolled) word, for a finite failure at k.
 * *need is allocated (k + 1 entries).  alive, if not NULL, receives per
 * position the set ids (in *sets) of the states that survive to k, for the
 * exact search's pruning.  0, or -1 when out of memory. */
typedef struct {
    u_intern sets;   /* automaton state sets (a->words words) -> ids */
    uint32_t *alive; /* per position 0..k: the surviving states' set id */
    size_t k;
} ex_alive;
int ex_cand_finite(const ex_nba *a, const ex_word *w, size_t k, uint64_t **need, ex_alive *alive);
void ex_alive_free(ex_alive *al);

/* need[j] for the lasso's positions j in 0..n-1: the propositions some
 * accepting run over relaxed letters requires switched at j (in any round).
 * 0, or -1 when out of memory. */
int ex_cand_lasso(const ex_nba *a, const ex_word *w, uint64_t **need);

#endif
