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

/* Runs the automaton; returns the first index whose prefix leaves no live
 * state, or SIZE_MAX.  On a lasso it continues round the loop. */
static size_t ex_run_nba(const ex_nba *a, const uint64_t *letters, size_t n, long loop)
{
    uint64_t *cur = ex_ev_alloc(a->words * sizeof(uint64_t));
    uint64_t *nxt = ex_ev_alloc(a->words * sizeof(uint64_t));
    uint64_t *seen = NULL; /* sets at successive visits of the loop start */
    size_t nseen = 0, result = SIZE_MAX;
    size_t period = loop >= 0 ? n - (size_t)loop : 0;
    for (size_t i = 0;; i++) {
        if (loop < 0 && i == n)
            break;
        uint64_t letter = ex_letter_at(letters, n, loop, i);
        if (i == 0)
            ex_nba_start(a, letter, cur);
        else {
            ex_nba_step(a, cur, letter, nxt);
            uint64_t *t = cur;
            cur = nxt;
            nxt = t;
        }
        if (ex_nba_set_empty(a, cur)) {
            result = i;
            break;
        }
        if (loop >= 0 && i >= (size_t)loop && (i - (size_t)loop) % period == 0) {
            int again = 0;
            for (size_t s = 0; s < nseen && !again; s++)
                again = memcmp(seen + s * a->words, cur, a->words * sizeof(uint64_t)) == 0;
            if (again)
                break;
            seen = realloc(seen, (nseen + 1) * a->words * sizeof(uint64_t));
            if (!seen)
                abort();
            memcpy(seen + nseen++ * a->words, cur, a->words * sizeof(uint64_t));
        }
    }
    free(seen);
    free(cur);
    free(nxt);
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
