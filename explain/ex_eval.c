/* ex_eval: backward labelling, and the first-failure search.
 *
 * Labelling visits each (subformula, position) pair a constant number of
 * times: two passes round the loop settle the fixpoints of U and R because
 * from the loop start every loop position is seen without wrapping.
 * The first-failure search runs the pruned automaton over the trace; on a
 * lasso it keeps going round the loop until the set of automaton states at
 * the loop start repeats, which must happen because the sets are finite.
 */
#include "ex_eval.h"

#include "ex_nba.h"

#include <stdlib.h>
#include <string.h>

static void *ex_ev_alloc(size_t n)
{
    void *p = calloc(n ? n : 1, 1);
    if (!p)
        abort();
    return p;
}

/* Sub-formulas reachable from f, ascending (children first). */
static int *ex_reach_list(const ex_ltl *l, int f, int *count)
{
    char *reach = ex_ev_alloc((size_t)f + 1);
    reach[f] = 1;
    for (int i = f; i >= 0; i--)
        if (reach[i]) {
            if (l->n[i].a >= 0)
                reach[l->n[i].a] = 1;
            if (l->n[i].b >= 0)
                reach[l->n[i].b] = 1;
        }
    int *list = ex_ev_alloc(((size_t)f + 1) * sizeof(int)), c = 0;
    for (int i = 0; i <= f; i++)
        if (reach[i])
            list[c++] = i;
    free(reach);
    *count = c;
    return list;
}

static void ex_label_fix(unsigned char *v, const unsigned char *a, const unsigned char *b, size_t n,
                         long loop, int is_until, int end)
{
    /* U: v = b | (a & next); R: v = b & (a | next).  `end` is the value
     * assumed past a finite word; on a lasso the first pass assumes the
     * fixpoint's extreme and the second uses what the first found. */
    size_t lo = loop >= 0 ? (size_t)loop : 0;
    int passes = loop >= 0 ? 2 : 1;
    int nxt0 = loop >= 0 ? !is_until : end;
    for (int pass = 0; pass < passes; pass++) {
        int nxt = pass == 0 ? nxt0 : v[lo];
        for (size_t i = n; i-- > lo;) {
            v[i] = is_until ? (b[i] | (a[i] & nxt)) : (b[i] & (a[i] | nxt));
            nxt = v[i];
        }
    }
    for (size_t i = lo; i-- > 0;)
        v[i] = is_until ? (b[i] | (a[i] & v[i + 1])) : (b[i] & (a[i] | v[i + 1]));
}

int ex_eval_trace(const ex_ltl *l, int f, const uint64_t *letters, size_t n, long loop, int weak)
{
    if (n == 0 || f < 0)
        return 1;
    int cnt;
    int *list = ex_reach_list(l, f, &cnt);
    int *slot = ex_ev_alloc(((size_t)f + 1) * sizeof(int));
    unsigned char *val = ex_ev_alloc((size_t)cnt * n);
    for (int s = 0; s < cnt; s++) {
        int id = list[s];
        slot[id] = s;
        const ex_lnode *nd = &l->n[id];
        unsigned char *v = val + (size_t)s * n;
        const unsigned char *a = nd->a >= 0 ? val + (size_t)slot[nd->a] * n : NULL;
        const unsigned char *b = nd->b >= 0 ? val + (size_t)slot[nd->b] * n : NULL;
        switch (nd->op) {
        case EX_L_TRUE:
        case EX_L_FALSE:
            memset(v, nd->op == EX_L_TRUE, n);
            break;
        case EX_L_PROP:
            for (size_t i = 0; i < n; i++)
                v[i] = (letters[i] >> nd->prop) & 1;
            break;
        case EX_L_NOT:
        case EX_L_AND:
        case EX_L_OR:
            for (size_t i = 0; i < n; i++)
                v[i] = nd->op == EX_L_NOT   ? !a[i]
                       : nd->op == EX_L_AND ? (a[i] & b[i])
                                            : (a[i] | b[i]);
            break;
        case EX_L_X:
            for (size_t i = 0; i + 1 < n; i++)
                v[i] = a[i + 1];
            v[n - 1] = loop >= 0 ? a[loop] : (unsigned char)weak;
            break;
        case EX_L_U:
        case EX_L_R:
            ex_label_fix(v, a, b, n, loop, nd->op == EX_L_U, weak);
            break;
        default:
            abort();
        }
    }
    int r = val[(size_t)slot[f] * n];
    free(list);
    free(slot);
    free(val);
    return r;
}

/* ---- first failure ---------------------------------------------------------- */

/* The automaton's state sets, determinised lazily: each distinct set is
 * interned once, and (set, letter) -> set is cached, so a long trace that
 * repeats letters costs one hash lookup per step. */
typedef struct {
    const ex_nba *a;
    uint64_t *sets; /* nsets * words */
    size_t nsets, capsets;
    long *shash; /* set id by content */
    size_t shcap;
    struct ex_tc {
        long from, to;
        uint64_t letter;
    } * tc;
    size_t tccap, tcn;
} ex_dfa;

static size_t ex_set_hash(const uint64_t *s, size_t w)
{
    size_t h = 1469598103934665603ull;
    for (size_t i = 0; i < w; i++)
        h = (h ^ s[i]) * 1099511628211ull;
    return h;
}

static void ex_dfa_rehash(ex_dfa *d)
{
    free(d->shash);
    d->shcap = d->shcap ? d->shcap * 2 : 256;
    d->shash = malloc(d->shcap * sizeof *d->shash);
    if (!d->shash)
        abort();
    for (size_t i = 0; i < d->shcap; i++)
        d->shash[i] = -1;
    for (size_t id = 0; id < d->nsets; id++) {
        size_t h = ex_set_hash(d->sets + id * d->a->words, d->a->words) & (d->shcap - 1);
        while (d->shash[h] >= 0)
            h = (h + 1) & (d->shcap - 1);
        d->shash[h] = (long)id;
    }
}

static long ex_dfa_intern(ex_dfa *d, const uint64_t *set)
{
    size_t w = d->a->words;
    if ((d->nsets + 1) * 2 > d->shcap)
        ex_dfa_rehash(d);
    size_t h = ex_set_hash(set, w) & (d->shcap - 1);
    for (; d->shash[h] >= 0; h = (h + 1) & (d->shcap - 1))
        if (memcmp(d->sets + (size_t)d->shash[h] * w, set, w * sizeof *set) == 0)
            return d->shash[h];
    if (d->nsets == d->capsets) {
        d->capsets = d->capsets ? d->capsets * 2 : 64;
        d->sets = realloc(d->sets, d->capsets * w * sizeof *d->sets);
        if (!d->sets)
            abort();
    }
    memcpy(d->sets + d->nsets * w, set, w * sizeof *set);
    d->shash[h] = (long)d->nsets;
    return (long)d->nsets++;
}

static size_t ex_tc_slot(const ex_dfa *d, long from, uint64_t letter)
{
    size_t h = ((size_t)from * 0x9E3779B97F4A7C15ull) ^ (letter * 0xC2B2AE3D27D4EB4Full);
    return (h ^ (h >> 29)) & (d->tccap - 1);
}

static void ex_tc_put(ex_dfa *d, long from, uint64_t letter, long to)
{
    if ((d->tcn + 1) * 2 > d->tccap) {
        struct ex_tc *old = d->tc;
        size_t oldcap = d->tccap;
        d->tccap = d->tccap ? d->tccap * 2 : 1024;
        d->tc = malloc(d->tccap * sizeof *d->tc);
        if (!d->tc)
            abort();
        for (size_t i = 0; i < d->tccap; i++)
            d->tc[i].from = -1;
        d->tcn = 0;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].from >= 0)
                ex_tc_put(d, old[i].from, old[i].letter, old[i].to);
        free(old);
    }
    size_t h = ex_tc_slot(d, from, letter);
    while (d->tc[h].from >= 0)
        h = (h + 1) & (d->tccap - 1);
    d->tc[h] = (struct ex_tc){from, to, letter};
    d->tcn++;
}

static long ex_dfa_next(ex_dfa *d, long from, uint64_t letter, uint64_t *scratch)
{
    if (d->tccap) {
        for (size_t h = ex_tc_slot(d, from, letter); d->tc[h].from >= 0;
             h = (h + 1) & (d->tccap - 1))
            if (d->tc[h].from == from && d->tc[h].letter == letter)
                return d->tc[h].to;
    }
    if (from < 0)
        ex_nba_start(d->a, letter, scratch);
    else
        ex_nba_step(d->a, d->sets + (size_t)from * d->a->words, letter, scratch);
    long to = ex_dfa_intern(d, scratch);
    ex_tc_put(d, from, letter, to);
    return to;
}

/* Runs the automaton; returns the first index whose prefix leaves no live
 * state, or SIZE_MAX.  On a lasso it continues round the loop until the set
 * at the loop start repeats. */
static size_t ex_run_nba(const ex_nba *a, const uint64_t *letters, size_t n, long loop)
{
    ex_dfa d = {0};
    d.a = a;
    uint64_t *scratch = calloc(a->words, sizeof *scratch);
    if (!scratch)
        abort();
    long empty = ex_dfa_intern(&d, scratch); /* the empty set */
    char *seen = NULL;                       /* set ids met at the loop start */
    size_t seencap = 0;
    size_t result = SIZE_MAX, period = loop >= 0 ? n - (size_t)loop : 0;
    long cur = -1; /* -1: before the first letter */
    for (size_t i = 0;; i++) {
        if (loop < 0 && i == n)
            break;
        cur = ex_dfa_next(&d, cur, ex_letter_at(letters, n, loop, i), scratch);
        if (cur == empty) {
            result = i;
            break;
        }
        if (loop >= 0 && i >= (size_t)loop && (i - (size_t)loop) % period == 0) {
            if (seencap < d.nsets) {
                seen = realloc(seen, d.nsets);
                if (!seen)
                    abort();
                memset(seen + seencap, 0, d.nsets - seencap);
                seencap = d.nsets;
            }
            if (seen[cur])
                break;
            seen[cur] = 1;
        }
    }
    free(seen);
    free(scratch);
    free(d.sets);
    free(d.shash);
    free(d.tc);
    return result;
}

/* Weak-view falsity is monotone in the prefix length, so binary search finds
 * the first weakly falsified prefix of the first `len` positions. */
static size_t ex_weak_search(const ex_ltl *l, int f, const uint64_t *letters, size_t n, long loop,
                             size_t len)
{
    uint64_t *w = ex_ev_alloc(len * sizeof(uint64_t));
    for (size_t i = 0; i < len; i++)
        w[i] = ex_letter_at(letters, n, loop, i);
    size_t r = SIZE_MAX;
    if (!ex_eval_trace(l, f, w, len, -1, 1)) {
        size_t lo = 0, hi = len - 1; /* prefix [0..hi] fails */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (!ex_eval_trace(l, f, w, mid + 1, -1, 1))
                hi = mid;
            else
                lo = mid + 1;
        }
        r = hi;
    }
    free(w);
    return r;
}

void ex_first_failure(const ex_ltl *l, int pos, int neg, const uint64_t *letters, size_t n,
                      long loop, int max_states, size_t unroll, ex_first *out)
{
    memset(out, 0, sizeof *out);
    ex_nba a;
    size_t k;
    if (ex_nba_build(l, pos, max_states, &a) == 0) {
        out->nba_states = a.nstates;
        k = ex_run_nba(&a, letters, n, loop);
        ex_nba_free(&a);
    } else {
        out->approximated = 1;
        size_t len = loop >= 0 ? n + unroll * (n - (size_t)loop) : n;
        k = ex_weak_search(l, pos, letters, n, loop, len);
    }
    if (k != SIZE_MAX) {
        out->status = EX_FF_FAILS;
        out->k = k;
        return;
    }
    if (loop >= 0) {
        out->status = ex_eval_trace(l, pos, letters, n, loop, 0) ? EX_FF_HOLDS : EX_FF_INF;
        return;
    }
    /* Finite and not falsified: finitely true iff the negation is falsified. */
    out->status = EX_FF_UNKNOWN;
    if (!out->approximated && ex_nba_build(l, neg, max_states, &a) == 0) {
        if (ex_run_nba(&a, letters, n, -1) != SIZE_MAX)
            out->status = EX_FF_HOLDS;
        ex_nba_free(&a);
    }
}
