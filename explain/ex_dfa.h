/* ex_dfa: the formula's automaton determinised lazily, for Definition 2.
 *
 * A DFA state is the set of live automaton states a prefix can be in; the
 * prefix finitely falsifies the formula exactly when that set is empty
 * (ex_nba.h).  Sets are kept reduced: a state that another member
 * subsumes (promises no less, ex_nba_promises_less) is dropped, which keeps
 * emptiness after every suffix and lets sets that differ only in redundant
 * states meet.  Sets are interned once (ids dense from 0; the empty set is
 * id 0) and each (set, letter) transition is computed once and cached, so
 * a long trace that repeats letters costs one table lookup per step, and
 * the exact search, which walks the same sets under many letters, shares
 * the work.  The state before the first letter is EX_DFA_INIT.
 *
 * Invariants: sets are a->words words each; to[i] is the target of the
 * transition interned as key i; `work` counts transitions computed (not
 * cached), the unit of every budget that uses this automaton.
 */
#ifndef EX_DFA_H
#define EX_DFA_H

#include "ex_nba.h"
#include "util.h"

#define EX_DFA_INIT  (U_INVALID - 1)
#define EX_DFA_EMPTY 0u

typedef struct {
    const ex_nba *a;
    u_intern sets; /* state sets -> ids */
    u_intern keys; /* (from, letter) -> transition ids */
    uint32_t *to;  /* per transition id: target set id */
    size_t tocap;
    uint64_t *scratch;
    size_t work;
} ex_dfa;

/* 0, or -1 when out of memory. */
int ex_dfa_init(ex_dfa *d, const ex_nba *a);
void ex_dfa_free(ex_dfa *d);

/* The set reached from `from` (a set id or EX_DFA_INIT) by `letter`;
 * U_INVALID when out of memory. */
uint32_t ex_dfa_next(ex_dfa *d, uint32_t from, uint64_t letter);

/* Whether set x survives every suffix set y survives: each member of y has
 * a member of x that promises no more. */
int ex_dfa_covers(const ex_dfa *d, uint32_t x, uint32_t y);

/* The members of set `id` (a->words words). */
const uint64_t *ex_dfa_set(const ex_dfa *d, uint32_t id);
size_t ex_dfa_count(const ex_dfa *d);

#endif
