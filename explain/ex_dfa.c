/* ex_dfa: the lazily determinised automaton (interface and invariants in
 * ex_dfa.h).  Both tables are util's u_intern: sets by their words,
 * transitions by the 12 bytes (from, letter). */
#include "ex_dfa.h"

#include <stdlib.h>
#include <string.h>

/* Keeps only the states no other member subsumes: q2 goes when some q1 in
 * the set promises no more (Next(q1) within Next(q2); of equal promises the
 * lowest id stays).  Every continuation q2 survives, q1 survives, so the
 * set is empty after a suffix exactly when the full set is; and sets that
 * differ only in redundant states become one DFA state. */
static void reduce(const ex_nba *a, uint64_t *set)
{
    for (int q2 = 0; q2 < a->nstates; q2++) {
        if (!ex_set_has(set, q2))
            continue;
        for (int q1 = 0; q1 < a->nstates; q1++)
            if (q1 != q2 && ex_set_has(set, q1) && ex_nba_promises_less(a, q1, q2) &&
                (q1 < q2 || !ex_nba_promises_less(a, q2, q1))) {
                set[q2 >> 6] &= ~(1ull << (q2 & 63));
                break;
            }
    }
}

/* Does every member of y have a member of x that promises no more?  Then
 * x survives every suffix y survives (ex_dfa.h). */
int ex_dfa_covers(const ex_dfa *d, uint32_t x, uint32_t y)
{
    const ex_nba *a = d->a;
    const uint64_t *sx = ex_dfa_set(d, x), *sy = ex_dfa_set(d, y);
    for (int q2 = 0; q2 < a->nstates; q2++) {
        if (!ex_set_has(sy, q2))
            continue;
        int ok = ex_set_has(sx, q2);
        for (int q1 = 0; q1 < a->nstates && !ok; q1++)
            ok = ex_set_has(sx, q1) && ex_nba_promises_less(a, q1, q2);
        if (!ok)
            return 0;
    }
    return 1;
}

int ex_dfa_init(ex_dfa *d, const ex_nba *a)
{
    memset(d, 0, sizeof *d);
    d->a = a;
    d->scratch = calloc(a->words, sizeof *d->scratch);
    bool fresh;
    if (!d->scratch ||
        u_intern_put(&d->sets, d->scratch, a->words * sizeof *d->scratch, &fresh) != EX_DFA_EMPTY) {
        ex_dfa_free(d);
        return -1;
    }
    return 0;
}

void ex_dfa_free(ex_dfa *d)
{
    u_intern_free(&d->sets);
    u_intern_free(&d->keys);
    free(d->to);
    free(d->scratch);
    memset(d, 0, sizeof *d);
}

uint32_t ex_dfa_next(ex_dfa *d, uint32_t from, uint64_t letter)
{
    struct {
        uint32_t from, pad;
        uint64_t letter;
    } key = {from, 0, letter};
    bool fresh;
    uint32_t k = u_intern_put(&d->keys, &key, sizeof key, &fresh);
    if (k == U_INVALID)
        return U_INVALID;
    if (!fresh)
        return d->to[k];
    if (from == EX_DFA_INIT)
        ex_nba_start(d->a, letter, d->scratch);
    else
        ex_nba_step(d->a, ex_dfa_set(d, from), letter, d->scratch);
    reduce(d->a, d->scratch);
    d->work++;
    uint32_t to = u_intern_put(&d->sets, d->scratch, d->a->words * sizeof *d->scratch, &fresh);
    if (to == U_INVALID || u_grow((void **)&d->to, &d->tocap, k, sizeof *d->to, 64))
        return U_INVALID;
    d->to[k] = to;
    return to;
}

const uint64_t *ex_dfa_set(const ex_dfa *d, uint32_t id)
{
    return u_intern_key(&d->sets, id);
}

size_t ex_dfa_count(const ex_dfa *d)
{
    return d->sets.n;
}
