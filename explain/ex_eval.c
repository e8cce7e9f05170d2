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

#include "ex_dfa.h"
#include "ex_nba.h"

#include <stdlib.h>
#include <string.h>

static void *ex_ev_alloc(size_t n)
{
    return calloc(n ? n : 1, 1);
}

/* Sub-formulas reachable from f, ascending (children first); NULL when out
 * of memory. */
static int *ex_reach_list(const ex_ltl *l, int f, int *count)
{
    char *reach = ex_ev_alloc((size_t)f + 1);
    int *list = ex_ev_alloc(((size_t)f + 1) * sizeof(int)), c = 0;
    if (!reach || !list) {
        free(reach);
        free(list);
        return NULL;
    }
    reach[f] = 1;
    for (int i = f; i >= 0; i--)
        if (reach[i]) {
            if (l->n[i].a >= 0)
                reach[l->n[i].a] = 1;
            if (l->n[i].b >= 0)
                reach[l->n[i].b] = 1;
        }
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
    int cnt = 0, r = -1;
    int *list = ex_reach_list(l, f, &cnt);
    int *slot = ex_ev_alloc(((size_t)f + 1) * sizeof(int));
    unsigned char *val = list ? ex_ev_alloc((size_t)cnt * n) : NULL;
    for (int s = 0; s < cnt && val && slot; s++) {
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
        default: /* not tableau normal form: the caller's error */
            memset(v, 0, n);
            break;
        }
    }
    if (val && slot)
        r = val[(size_t)slot[f] * n];
    free(list);
    free(slot);
    free(val);
    return r;
}

/* ---- first failure ---------------------------------------------------------- */

/* Runs the automaton; the first index whose prefix leaves no live state in
 * *k (SIZE_MAX if none).  On a lasso it continues round the loop until the
 * set at the loop start repeats.  0, or -1 when out of memory. */
static int ex_run_nba(const ex_nba *a, const uint64_t *letters, size_t n, long loop, size_t *k)
{
    ex_dfa d;
    if (ex_dfa_init(&d, a))
        return -1;
    u_map seen = {0}; /* set ids met at the loop start */
    size_t period = loop >= 0 ? n - (size_t)loop : 0;
    uint32_t cur = EX_DFA_INIT;
    int rc = 0;
    *k = SIZE_MAX;
    for (size_t i = 0; loop >= 0 || i < n; i++) {
        cur = ex_dfa_next(&d, cur, ex_letter_at(letters, n, loop, i));
        if (cur == U_INVALID) {
            rc = -1;
            break;
        }
        if (cur == EX_DFA_EMPTY) {
            *k = i;
            break;
        }
        if (loop >= 0 && i >= (size_t)loop && (i - (size_t)loop) % period == 0) {
            if (u_map_get(&seen, cur) != U_INVALID)
                break;
            if (u_map_put(&seen, cur, 1)) {
                rc = -1;
                break;
            }
        }
    }
    u_map_free(&seen);
    ex_dfa_free(&d);
    return rc;
}

/* Weak-view falsity is monotone in the prefix length, so binary search finds
 * the first weakly falsified prefix of the first `len` positions. */
static int ex_weak_search(const ex_ltl *l, int f, const uint64_t *letters, size_t n, long loop,
                          size_t len, size_t *k)
{
    uint64_t *w = ex_ev_alloc(len * sizeof(uint64_t));
    if (!w)
        return -1;
    for (size_t i = 0; i < len; i++)
        w[i] = ex_letter_at(letters, n, loop, i);
    *k = SIZE_MAX;
    int v = ex_eval_trace(l, f, w, len, -1, 1);
    if (v == 0) {
        size_t lo = 0, hi = len - 1; /* prefix [0..hi] fails */
        while (lo < hi && v >= 0) {
            size_t mid = lo + (hi - lo) / 2;
            v = ex_eval_trace(l, f, w, mid + 1, -1, 1);
            if (v == 0)
                hi = mid;
            else
                lo = mid + 1;
        }
        *k = hi;
    }
    free(w);
    return v < 0 ? -1 : 0;
}

int ex_first_failure(const ex_ltl *l, int pos, int neg, const uint64_t *letters, size_t n,
                     long loop, int max_states, size_t unroll, ex_first *out)
{
    memset(out, 0, sizeof *out);
    ex_nba a;
    size_t k;
    int rc = ex_nba_build(l, pos, max_states, &a);
    if (rc == EX_NBA_OOM)
        return -1;
    if (rc == EX_NBA_OK) {
        out->nba_states = a.nstates;
        rc = ex_run_nba(&a, letters, n, loop, &k);
        ex_nba_free(&a);
    } else {
        out->approximated = 1;
        size_t len = loop >= 0 ? n + unroll * (n - (size_t)loop) : n;
        rc = ex_weak_search(l, pos, letters, n, loop, len, &k);
    }
    if (rc)
        return -1;
    if (k != SIZE_MAX) {
        out->status = EX_FF_FAILS;
        out->k = k;
        return 0;
    }
    if (loop >= 0) {
        int v = ex_eval_trace(l, pos, letters, n, loop, 0);
        out->status = v ? EX_FF_HOLDS : EX_FF_INF;
        return v < 0 ? -1 : 0;
    }
    /* Finite and not falsified: finitely true iff the negation is falsified. */
    out->status = EX_FF_UNKNOWN;
    if (out->approximated)
        return 0;
    rc = ex_nba_build(l, neg, max_states, &a);
    if (rc == EX_NBA_OOM)
        return -1;
    if (rc == EX_NBA_OK) {
        rc = ex_run_nba(&a, letters, n, -1, &k);
        ex_nba_free(&a);
        if (rc)
            return -1;
        if (k != SIZE_MAX)
            out->status = EX_FF_HOLDS;
    }
    return 0;
}
