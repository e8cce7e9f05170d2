/* ex_cause: Algorithm 6, memoised over (subformula, step) pairs.
 *
 * First val is labelled backwards for every reachable subformula (one pass
 * each, children first).  Then the causes of the root are collected by a
 * depth-first walk over the pairs whose val is 0, following exactly the
 * cases of Algorithm 6; each pair is visited once, so the whole run is
 * linear in |path| * |phi|, and the walk uses an explicit stack so that a
 * long trace cannot exhaust the C stack.
 */
#include "ex_cause.h"

#include "util.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const ex_ltl *l;
    int cnt;
    int *list; /* slot -> node */
    int *slot; /* node -> slot */
    size_t len;
    unsigned char *val; /* [slot * len + i] */
    uint64_t *seen;     /* visited bits, same indexing */
    uint64_t *stack;    /* (slot * len + i) */
    size_t sp, cap;
    int oom; /* sticky: an allocation failed */
} ex_a6;

static void *ex_ca_alloc(ex_a6 *c, size_t n)
{
    void *p = c->oom ? NULL : calloc(n ? n : 1, 1);
    if (!p)
        c->oom = 1;
    return p;
}

static void ex_a6_val(ex_a6 *c, const uint64_t *path)
{
    size_t n = c->len, k = n - 1;
    for (int s = 0; s < c->cnt; s++) {
        const ex_lnode *nd = &c->l->n[c->list[s]];
        unsigned char *v = c->val + (size_t)s * n;
        const unsigned char *a = nd->a >= 0 ? c->val + (size_t)c->slot[nd->a] * n : NULL;
        const unsigned char *b = nd->b >= 0 ? c->val + (size_t)c->slot[nd->b] * n : NULL;
        for (size_t i = n; i-- > 0;) {
            switch (nd->op) {
            case EX_L_TRUE:
                v[i] = 1;
                break;
            case EX_L_FALSE:
                v[i] = 0;
                break;
            case EX_L_PROP:
                v[i] = (path[i] >> nd->prop) & 1;
                break;
            case EX_L_NOT:
                v[i] = !a[i];
                break;
            case EX_L_AND:
                v[i] = a[i] & b[i];
                break;
            case EX_L_OR:
                v[i] = a[i] | b[i];
                break;
            case EX_L_X:
                v[i] = i < k ? a[i + 1] : 1;
                break;
            case EX_L_G:
                v[i] = a[i] & (i == k || v[i + 1]);
                break;
            case EX_L_U:
                v[i] = b[i] | (a[i] & (i < k && v[i + 1]));
                break;
            default: /* not Algorithm 6 normal form: the caller's error */
                v[i] = 1;
                break;
            }
        }
    }
}

/* Schedules C(pi[i..k], node) unless it is empty (val 1) or already done. */
static void ex_a6_push(ex_a6 *c, int node, size_t i)
{
    size_t at = (size_t)c->slot[node] * c->len + i;
    if (c->val[at] || (c->seen[at >> 6] >> (at & 63)) & 1)
        return;
    c->seen[at >> 6] |= 1ull << (at & 63);
    if (U_GROW(c->stack, c->cap, c->sp)) {
        c->oom = 1;
        return;
    }
    c->stack[c->sp++] = at;
}

static int ex_a6_v(const ex_a6 *c, int node, size_t i)
{
    return c->val[(size_t)c->slot[node] * c->len + i];
}

/* One case of Algorithm 6 for a pair whose val is 0. */
static void ex_a6_case(ex_a6 *c, int node, size_t i, ex_pdot **dots, size_t *nd, size_t *cap)
{
    const ex_lnode *f = &c->l->n[node];
    size_t k = c->len - 1;
    switch (f->op) {
    case EX_L_PROP:
    case EX_L_NOT:
        if (U_GROW(*dots, *cap, *nd)) {
            c->oom = 1;
            break;
        }
        (*dots)[(*nd)++] = (ex_pdot){i, f->op == EX_L_PROP ? f->prop : c->l->n[f->a].prop};
        break;
    case EX_L_X:
        if (i < k)
            ex_a6_push(c, f->a, i + 1);
        break;
    case EX_L_AND:
    case EX_L_OR: /* val 0 of an or means both operands are 0 */
        ex_a6_push(c, f->a, i);
        ex_a6_push(c, f->b, i);
        break;
    case EX_L_G:
        if (!ex_a6_v(c, f->a, i))
            ex_a6_push(c, f->a, i);
        else if (i < k)
            ex_a6_push(c, node, i + 1);
        break;
    case EX_L_U:
        ex_a6_push(c, f->b, i);
        if (!ex_a6_v(c, f->a, i))
            ex_a6_push(c, f->a, i);
        else if (i < k)
            ex_a6_push(c, node, i + 1);
        break;
    default: /* true and false have no causes */
        break;
    }
}

static int ex_pdot_cmp(const void *x, const void *y)
{
    const ex_pdot *a = x, *b = y;
    if (a->step != b->step)
        return a->step < b->step ? -1 : 1;
    return a->prop - b->prop;
}

size_t ex_cause_alg6(const ex_ltl *l, int f, const uint64_t *path, size_t len, ex_pdot **dots,
                     int *fails)
{
    *dots = NULL;
    *fails = 0;
    if (len == 0 || f < 0)
        return 0;
    ex_a6 c = {0};
    c.l = l;
    c.len = len;
    char *reach = ex_ca_alloc(&c, (size_t)f + 1);
    c.list = ex_ca_alloc(&c, ((size_t)f + 1) * sizeof(int));
    c.slot = ex_ca_alloc(&c, ((size_t)f + 1) * sizeof(int));
    if (c.oom) {
        free(reach);
        free(c.list);
        free(c.slot);
        return SIZE_MAX;
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
        if (reach[i]) {
            c.slot[i] = c.cnt;
            c.list[c.cnt++] = i;
        }
    free(reach);
    size_t cells = (size_t)c.cnt * len;
    c.val = ex_ca_alloc(&c, cells);
    c.seen = ex_ca_alloc(&c, (cells / 64 + 1) * sizeof(uint64_t));
    size_t nd = 0, cap = 0;
    if (!c.oom) {
        ex_a6_val(&c, path);
        *fails = !ex_a6_v(&c, f, 0);
        ex_a6_push(&c, f, 0);
    }
    while (c.sp && !c.oom) {
        size_t at = c.stack[--c.sp];
        ex_a6_case(&c, c.list[at / len], at % len, dots, &nd, &cap);
    }
    if (c.oom) {
        free(*dots);
        *dots = NULL;
        nd = SIZE_MAX;
    } else if (nd)
        qsort(*dots, nd, sizeof **dots, ex_pdot_cmp);
    free(c.list);
    free(c.slot);
    free(c.val);
    free(c.seen);
    free(c.stack);
    return nd;
}
