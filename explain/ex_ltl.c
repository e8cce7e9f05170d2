/* ex_ltl: the formula DAG, negation normal forms, size, printing, polarity.
 *
 * Everything downstream (tableau, evaluators, Algorithm 6) indexes arrays by
 * node id, relying on the invariant that a node's children are created
 * before it.  Constant simplification happens only while building normal
 * forms, so the formula as written still prints as written.
 */
#include "ex_ltl.h"

#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ex_ltl_init(ex_ltl *l)
{
    memset(l, 0, sizeof *l);
}

void ex_ltl_free(ex_ltl *l)
{
    for (int i = 0; i < l->nprops; i++) {
        ex_expr_free(l->props[i].expr);
        free(l->props[i].text);
    }
    free(l->n);
    u_intern_free(&l->nodes);
    memset(l, 0, sizeof *l);
}

/* The node (op, a, b, prop), made if new; -1 when out of memory (then
 * l->oom stays set and every later call fails too).  util's u_intern gives
 * dense ids in order of creation: exactly the node ids, children first. */
static int ex_ltl_intern(ex_ltl *l, ex_lop op, int a, int b, int prop)
{
    if (l->oom)
        return -1;
    ex_lnode key = {op, a, b, prop};
    bool fresh;
    uint32_t id = u_intern_put(&l->nodes, &key, sizeof key, &fresh);
    if (id == U_INVALID || (fresh && U_GROW(l->n, l->cap, l->len))) {
        l->oom = 1;
        return -1;
    }
    if (fresh)
        l->n[l->len++] = key;
    return (int)id;
}

int ex_ltl_mk(ex_ltl *l, ex_lop op, int a, int b)
{
    return ex_ltl_intern(l, op, a, b, -1);
}

int ex_ltl_prop(ex_ltl *l, ex_expr *e)
{
    char *text = ex_expr_text(e);
    if (!text) {
        ex_expr_free(e);
        l->oom = 1;
        return -1;
    }
    for (int p = 0; p < l->nprops; p++) {
        if (strcmp(l->props[p].text, text) == 0) {
            free(text);
            ex_expr_free(e);
            return ex_ltl_intern(l, EX_L_PROP, -1, -1, p);
        }
    }
    if (l->nprops == EX_MAX_PROPS) {
        free(text);
        ex_expr_free(e);
        return -1;
    }
    l->props[l->nprops] = (ex_prop){e, text};
    return ex_ltl_intern(l, EX_L_PROP, -1, -1, l->nprops++);
}

/* ---- normal forms -------------------------------------------------------- */

typedef struct {
    ex_ltl *l;
    int style;
    const signed char *consts;
    int *memo; /* [2 * node + neg], -1 unknown; covers nodes below `limit` */
    size_t limit;
} ex_nnf_ctx;

/* f < 0 is a node that could not be made (out of memory): it is nothing. */
static int ex_is(const ex_ltl *l, int f, ex_lop op)
{
    return f >= 0 && l->n[f].op == op;
}

static int ex_mk_and(ex_ltl *l, int a, int b)
{
    if (ex_is(l, a, EX_L_FALSE) || ex_is(l, b, EX_L_FALSE))
        return ex_ltl_mk(l, EX_L_FALSE, -1, -1);
    if (ex_is(l, a, EX_L_TRUE) || a == b)
        return b;
    if (ex_is(l, b, EX_L_TRUE))
        return a;
    return ex_ltl_mk(l, EX_L_AND, a, b);
}

static int ex_mk_or(ex_ltl *l, int a, int b)
{
    if (ex_is(l, a, EX_L_TRUE) || ex_is(l, b, EX_L_TRUE))
        return ex_ltl_mk(l, EX_L_TRUE, -1, -1);
    if (ex_is(l, a, EX_L_FALSE) || a == b)
        return b;
    if (ex_is(l, b, EX_L_FALSE))
        return a;
    return ex_ltl_mk(l, EX_L_OR, a, b);
}

static int ex_is_const(const ex_ltl *l, int f)
{
    return ex_is(l, f, EX_L_TRUE) || ex_is(l, f, EX_L_FALSE);
}

static int ex_mk_x(ex_ltl *l, int a)
{
    return ex_is_const(l, a) ? a : ex_ltl_mk(l, EX_L_X, a, -1);
}

static int ex_mk_u(ex_ltl *l, int a, int b)
{
    if (ex_is_const(l, b) || ex_is(l, a, EX_L_FALSE))
        return b;
    return ex_ltl_mk(l, EX_L_U, a, b);
}

static int ex_mk_g(ex_nnf_ctx *c, int a)
{
    if (ex_is_const(c->l, a))
        return a;
    if (c->style == EX_NNF_ALG6)
        return ex_ltl_mk(c->l, EX_L_G, a, -1);
    return ex_ltl_mk(c->l, EX_L_R, ex_ltl_mk(c->l, EX_L_FALSE, -1, -1), a);
}

static int ex_mk_f(ex_nnf_ctx *c, int a)
{
    return ex_mk_u(c->l, ex_ltl_mk(c->l, EX_L_TRUE, -1, -1), a);
}

static int ex_mk_r(ex_nnf_ctx *c, int a, int b)
{
    ex_ltl *l = c->l;
    if (ex_is_const(l, b) || ex_is(l, a, EX_L_TRUE))
        return b;
    if (ex_is(l, a, EX_L_FALSE))
        return ex_mk_g(c, b);
    if (c->style == EX_NNF_TABLEAU)
        return ex_ltl_mk(l, EX_L_R, a, b);
    return ex_mk_or(l, ex_mk_u(l, b, ex_mk_and(l, a, b)), ex_mk_g(c, b));
}

static int ex_mk_w(ex_nnf_ctx *c, int a, int b)
{
    if (c->style == EX_NNF_TABLEAU)
        return ex_mk_r(c, b, ex_mk_or(c->l, a, b));
    return ex_mk_or(c->l, ex_mk_u(c->l, a, b), ex_mk_g(c, a));
}

static int ex_nnf_rec(ex_nnf_ctx *c, int f, int neg)
{
    int *slot = (size_t)f < c->limit ? &c->memo[2 * f + neg] : NULL;
    if (slot && *slot >= 0)
        return *slot;
    ex_ltl *l = c->l;
    ex_lnode n = l->n[f];
    int r, a, b;
    switch (n.op) {
    case EX_L_TRUE:
    case EX_L_FALSE:
        r = ex_ltl_mk(l, (n.op == EX_L_TRUE) != neg ? EX_L_TRUE : EX_L_FALSE, -1, -1);
        break;
    case EX_L_PROP:
        if (c->consts && c->consts[n.prop] >= 0)
            r = ex_ltl_mk(l, (c->consts[n.prop] == 1) != neg ? EX_L_TRUE : EX_L_FALSE, -1, -1);
        else
            r = neg ? ex_ltl_mk(l, EX_L_NOT, f, -1) : f;
        break;
    case EX_L_NOT:
        r = ex_nnf_rec(c, n.a, !neg);
        break;
    case EX_L_AND:
    case EX_L_OR:
        a = ex_nnf_rec(c, n.a, neg);
        b = ex_nnf_rec(c, n.b, neg);
        r = (n.op == EX_L_AND) != neg ? ex_mk_and(l, a, b) : ex_mk_or(l, a, b);
        break;
    case EX_L_IMPL:
        a = ex_nnf_rec(c, n.a, !neg);
        b = ex_nnf_rec(c, n.b, neg);
        r = neg ? ex_mk_and(l, a, b) : ex_mk_or(l, a, b);
        break;
    case EX_L_EQUIV: {
        int pa = ex_nnf_rec(c, n.a, 0), na = ex_nnf_rec(c, n.a, 1);
        int pb = ex_nnf_rec(c, n.b, 0), nb = ex_nnf_rec(c, n.b, 1);
        r = neg ? ex_mk_or(l, ex_mk_and(l, pa, nb), ex_mk_and(l, na, pb))
                : ex_mk_or(l, ex_mk_and(l, pa, pb), ex_mk_and(l, na, nb));
        break;
    }
    case EX_L_X:
        r = ex_mk_x(l, ex_nnf_rec(c, n.a, neg));
        break;
    case EX_L_F:
    case EX_L_G:
        a = ex_nnf_rec(c, n.a, neg);
        r = (n.op == EX_L_G) != neg ? ex_mk_g(c, a) : ex_mk_f(c, a);
        break;
    case EX_L_U:
    case EX_L_R:
        a = ex_nnf_rec(c, n.a, neg);
        b = ex_nnf_rec(c, n.b, neg);
        r = (n.op == EX_L_U) != neg ? ex_mk_u(l, a, b) : ex_mk_r(c, a, b);
        break;
    case EX_L_W:
        if (!neg) {
            r = ex_mk_w(c, ex_nnf_rec(c, n.a, 0), ex_nnf_rec(c, n.b, 0));
        } else { /* !(a W b) = !b U (!a & !b) */
            a = ex_nnf_rec(c, n.a, 1);
            b = ex_nnf_rec(c, n.b, 1);
            r = ex_mk_u(l, b, ex_mk_and(l, a, b));
        }
        break;
    default: /* a parser produced an operator this file does not know */
        l->oom = 1;
        r = -1;
        break;
    }
    if (slot)
        *slot = r;
    return r;
}

int ex_ltl_nnf(ex_ltl *l, int f, int style, const signed char *consts)
{
    if (f < 0 || l->oom)
        return -1;
    ex_nnf_ctx c = {l, style, consts, NULL, l->len};
    c.memo = malloc((2 * c.limit + 1) * sizeof *c.memo);
    if (!c.memo) {
        l->oom = 1;
        return -1;
    }
    for (size_t i = 0; i < 2 * c.limit; i++)
        c.memo[i] = -1;
    int r = ex_nnf_rec(&c, f, 0);
    free(c.memo);
    return l->oom ? -1 : r;
}

/* ---- size, text, polarity ----------------------------------------------- */

size_t ex_ltl_size(const ex_ltl *l, int f)
{
    size_t *sz = malloc(((size_t)f + 1) * sizeof *sz);
    if (!sz)
        return 1; /* only sizes the weak view's unwinding: one copy is safe */
    for (int i = 0; i <= f; i++) {
        const ex_lnode *n = &l->n[i];
        size_t s = 1;
        if (n->a >= 0)
            s += sz[n->a];
        if (n->b >= 0)
            s += sz[n->b];
        sz[i] = s > ((size_t)1 << 40) ? ((size_t)1 << 40) : s;
    }
    size_t r = sz[f];
    free(sz);
    return r;
}

static void ex_ltl_print(FILE *o, const ex_ltl *l, int f)
{
    static const char *const bin[] = {
        [EX_L_AND] = "&&", [EX_L_OR] = "||", [EX_L_IMPL] = "->", [EX_L_EQUIV] = "<->",
        [EX_L_U] = "U",    [EX_L_W] = "W",   [EX_L_R] = "V"};
    const ex_lnode *n = &l->n[f];
    switch (n->op) {
    case EX_L_TRUE:
        fputs("true", o);
        return;
    case EX_L_FALSE:
        fputs("false", o);
        return;
    case EX_L_PROP:
        fprintf(o, "(%s)", l->props[n->prop].text);
        return;
    case EX_L_NOT:
    case EX_L_X:
    case EX_L_F:
    case EX_L_G:
        fputs(n->op == EX_L_NOT ? "!"
              : n->op == EX_L_X ? "X "
              : n->op == EX_L_F ? "<> "
                                : "[] ",
              o);
        ex_ltl_print(o, l, n->a);
        return;
    default:
        fputc('(', o);
        ex_ltl_print(o, l, n->a);
        fprintf(o, " %s ", bin[n->op]);
        ex_ltl_print(o, l, n->b);
        fputc(')', o);
    }
}

char *ex_ltl_text(const ex_ltl *l, int f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    if (!o)
        return NULL;
    ex_ltl_print(o, l, f);
    if (fclose(o)) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Walks the (node, polarity) pairs reachable from the root, each once: NOT
 * flips, an implication's antecedent flips, both operands of <-> (and of
 * xor, xnor, which the parsers write with it) take both polarities; every
 * other operator keeps its operands' polarity. */
int ex_ltl_polarity(const ex_ltl *l, int f, const signed char *consts, uint64_t *pos, uint64_t *neg)
{
    *pos = *neg = 0;
    if (f < 0)
        return 0;
    uint8_t *seen = calloc((size_t)f + 1, 1); /* bit 0: met positive, bit 1: negative */
    int *stack = malloc(2 * ((size_t)f + 1) * sizeof *stack);
    if (!seen || !stack) {
        free(seen);
        free(stack);
        return -1;
    }
    size_t sp = 0;
    stack[sp++] = 2 * f;
    seen[f] = 1;
    while (sp) {
        int top = stack[--sp], g = top / 2, negd = top % 2;
        const ex_lnode *n = &l->n[g];
        if (n->op == EX_L_PROP) {
            if (!consts || consts[n->prop] < 0)
                *(negd ? neg : pos) |= 1ull << n->prop;
            continue;
        }
        int kid[4], kneg[4], nk = 0;
        if (n->op == EX_L_EQUIV) {
            for (int b = 0; b < 2; b++) {
                kid[nk] = n->a, kneg[nk++] = b;
                kid[nk] = n->b, kneg[nk++] = b;
            }
        } else {
            if (n->a >= 0)
                kid[nk] = n->a, kneg[nk++] = negd ^ (n->op == EX_L_NOT || n->op == EX_L_IMPL);
            if (n->b >= 0)
                kid[nk] = n->b, kneg[nk++] = negd;
        }
        for (int k = 0; k < nk; k++)
            if (!(seen[kid[k]] & (1 << kneg[k]))) {
                seen[kid[k]] |= (uint8_t)(1 << kneg[k]);
                stack[sp++] = 2 * kid[k] + kneg[k];
            }
    }
    free(seen);
    free(stack);
    return 0;
}
