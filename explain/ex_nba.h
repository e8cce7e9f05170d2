/* ex_nba: a Buchi automaton for an LTL formula, the base of every decision
 * explain makes (Definition 2, the candidates, exact mode).
 *
 * Built by the on-the-fly tableau of Gerth, Peled, Vardi and Wolper from
 * the tableau-style negation normal form (ex_ltl_nnf), then pruned to the
 * states from which some accepting run exists.  A finite prefix finitely
 * falsifies the formula exactly when no pruned state survives reading it:
 * surviving states are those with an infinite continuation that satisfies
 * the formula.  Each state carries the literals it requires of the letter
 * read on entering it (pos: must be true, neg: must be false).
 *
 * Acceptance is generalised: one set per until subformula ψ U χ of the
 * closure, holding the states that do not promise it or fulfil it now; an
 * accepting run meets every set infinitely often (acc, below).
 *
 * Invariants: states 0 .. nstates-1; succ[succ_off[q] .. succ_off[q+1]) are
 * q's successors; a state set is `words` uint64_t words; live states are
 * exactly those on a path to a non-trivial SCC meeting every acceptance set.
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
    int nacc;             /* acceptance sets */
    size_t acc_words;     /* words per state in acc */
    uint64_t *acc;        /* state q is in set j: bit j of acc[q * acc_words ..] */
    size_t next_words;    /* words per state in next */
    uint64_t *next;       /* the subformulas q promises for the next position (its
                             tableau Next set, over the closure): the words read
                             from q's successors on are the models of their
                             conjunction, so a subset promises less */
} ex_nba;

enum { EX_NBA_OK = 0, EX_NBA_TOO_BIG = -1, EX_NBA_OOM = -2 };

/* EX_NBA_OK, EX_NBA_TOO_BIG when more than max_states states would be
 * needed, EX_NBA_OOM when out of memory (a is then empty either way). */
int ex_nba_build(const ex_ltl *l, int f, int max_states, ex_nba *a);
void ex_nba_free(ex_nba *a);

/* Whether live state q may be entered by a letter (bit set of true
 * propositions). */
static inline int ex_nba_fits(const ex_nba *a, int q, uint64_t letter)
{
    return a->live[q] && (a->pos[q] & ~letter) == 0 && (a->neg[q] & letter) == 0;
}

/* State sets (a->words words).  start: states entered by the first letter;
 * step: states entered from `from` by the next letter.  Only live states. */
void ex_nba_start(const ex_nba *a, uint64_t letter, uint64_t *set);
void ex_nba_step(const ex_nba *a, const uint64_t *from, uint64_t letter, uint64_t *to);
int ex_nba_set_empty(const ex_nba *a, const uint64_t *set);

static inline int ex_set_has(const uint64_t *s, int i)
{
    return (int)((s[i >> 6] >> (i & 63)) & 1);
}

static inline void ex_set_add(uint64_t *s, int i)
{
    s[i >> 6] |= 1ull << (i & 63);
}

/* Does q' promise at most what q promises (Next(q') within Next(q))?  Then
 * every continuation q can survive, q' can. */
static inline int ex_nba_promises_less(const ex_nba *a, int q2, int q)
{
    const uint64_t *x = a->next + (size_t)q2 * a->next_words,
                   *y = a->next + (size_t)q * a->next_words;
    for (size_t i = 0; i < a->next_words; i++)
        if (x[i] & ~y[i])
            return 0;
    return 1;
}

#endif
