/* ex_nba: a Buchi automaton for an LTL formula, used to decide Definition 2.
 *
 * Built by the on-the-fly tableau of Gerth, Peled, Vardi and Wolper from
 * the tableau-style negation normal form (ex_ltl_nnf), then pruned to the
 * states from which some accepting run exists.  A finite prefix finitely
 * falsifies the formula exactly when no pruned state survives reading it:
 * surviving states are those with an infinite continuation that satisfies
 * the formula.  Each state carries the literals it requires of the letter
 * read on entering it.
 */
#ifndef EX_NBA_H
#define EX_NBA_H

#include "ex_ltl.h"

typedef struct {
    int nstates;
    uint64_t *pos, *neg;  /* literal labels */
    int *succ_off, *succ; /* successors, CSR */
    unsigned char *init;  /* entered from the start */
    unsigned char *live;  /* an accepting run exists from here */
    size_t words;         /* uint64_t words in a state set */
} ex_nba;

/* Returns 0, or -1 when more than max_states states would be needed. */
int ex_nba_build(const ex_ltl *l, int f, int max_states, ex_nba *a);
void ex_nba_free(ex_nba *a);

/* State sets (a->words words).  start: states entered by the first letter;
 * step: states entered from `from` by the next letter.  Only live states. */
void ex_nba_start(const ex_nba *a, uint64_t letter, uint64_t *set);
void ex_nba_step(const ex_nba *a, const uint64_t *from, uint64_t letter, uint64_t *to);
int ex_nba_set_empty(const ex_nba *a, const uint64_t *set);

#endif
