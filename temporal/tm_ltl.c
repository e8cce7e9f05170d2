/*
 * tm_ltl.c - LTL formulas as a hash-consed DAG: construction, negation normal
 * form (the tableau's input, tm_ltl_nba.c), Spot-syntax printing (the cause's
 * description, tm_describe.c) and direct evaluation on lasso words (a check of
 * the translation in the tests, and the description search's cheap filter).
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

void tm_ltl_init(tm_ltl *l)
{
    memset(l, 0, sizeof *l);
}

void tm_ltl_free(tm_ltl *l)
{
    free(l->n);
    free(l->hash);
    memset(l, 0, sizeof *l);
}

static uint64_t node_hash(tm_lop op, int a, int b, int ap)
{
    uint64_t k = (uint64_t)op * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uint32_t)a << 20 ^
                 (uint64_t)(uint32_t)b << 40 ^ (uint64_t)(uint32_t)ap;
    return u_hash64(k);
}

static int rehash(tm_ltl *l, size_t cap)
{
    int *h = malloc(cap * sizeof *h);
    if (!h)
        return -1;
    for (size_t i = 0; i < cap; i++)
        h[i] = -1;
    for (size_t id = 0; id < l->len; id++) {
        const tm_lnode *n = &l->n[id];
        size_t k = node_hash(n->op, n->a, n->b, n->ap) & (cap - 1);
        while (h[k] >= 0)
            k = (k + 1) & (cap - 1);
        h[k] = (int)id;
    }
    free(l->hash);
    l->hash = h;
    l->hcap = cap;
    return 0;
}

int tm_ltl_mk(tm_ltl *l, tm_lop op, int a, int b, int ap)
{
    if (op != TM_L_AP)
        ap = -1;
    if ((l->len + 1) * 2 > l->hcap && rehash(l, l->hcap ? l->hcap * 2 : 64) != 0)
        return -1;
    size_t k = node_hash(op, a, b, ap) & (l->hcap - 1);
    for (; l->hash[k] >= 0; k = (k + 1) & (l->hcap - 1)) {
        const tm_lnode *n = &l->n[l->hash[k]];
        if (n->op == op && n->a == a && n->b == b && n->ap == ap)
            return l->hash[k];
    }
    if (l->len == l->cap && U_GROW(l->n, l->cap, l->len) != 0)
        return -1;
    if (l->len >= 0x7fffffff)
        return -1;
    tm_lnode *n = &l->n[l->len];
    n->op = op, n->a = a, n->b = b, n->ap = ap;
    l->hash[k] = (int)l->len;
    return (int)l->len++;
}

/* ---- negation normal form ---- */

static int mk(tm_ltl *l, tm_lop op, int a, int b)
{
    if (a < 0 || (b < 0 && (op == TM_L_AND || op == TM_L_OR || op == TM_L_U || op == TM_L_R)))
        return -1;
    int t = tm_ltl_mk(l, TM_L_TRUE, -1, -1, -1), f = tm_ltl_mk(l, TM_L_FALSE, -1, -1, -1);
    if (t < 0 || f < 0)
        return -1;
    switch (op) { /* constant folding keeps automata and descriptions small */
    case TM_L_AND:
        if (a == f || b == f)
            return f;
        if (a == t || a == b)
            return b;
        if (b == t)
            return a;
        if (a > b) /* canonical order: a & b and b & a are one node */
            return tm_ltl_mk(l, op, b, a, -1);
        break;
    case TM_L_OR:
        if (a == t || b == t)
            return t;
        if (a == f || a == b)
            return b;
        if (b == f)
            return a;
        if (a > b)
            return tm_ltl_mk(l, op, b, a, -1);
        break;
    case TM_L_X:
        if (a == t || a == f)
            return a;
        break;
    case TM_L_U:
        if (b == t || b == f || a == f || a == b)
            return b;
        break;
    case TM_L_R:
        if (b == t || b == f || a == t || a == b)
            return b;
        break;
    default:
        break;
    }
    return tm_ltl_mk(l, op, a, b, -1);
}

static int nnf_node(tm_ltl *l, int f, bool neg, int *memo, size_t lim);

/* The NNF of node f under negation neg, once per (f, neg): formulas are
 * hash-consed DAGs, and <-> / xor use both polarities of both operands, so a
 * tree walk is exponential in their nesting (found by fz_tltl: a chain of
 * <-> took minutes).  memo covers the lim nodes that existed at the start;
 * nodes made since are results, never operands. */
static int nnf(tm_ltl *l, int f, bool neg, int *memo, size_t lim)
{
    if (f < 0)
        return -1;
    size_t k = 2 * (size_t)f + neg;
    if ((size_t)f < lim && memo[k] != -2)
        return memo[k];
    int r = nnf_node(l, f, neg, memo, lim);
    if ((size_t)f < lim)
        memo[k] = r;
    return r;
}

int tm_ltl_nnf(tm_ltl *l, int f, bool neg)
{
    size_t lim = l->len;
    int *memo = malloc((2 * lim + 1) * sizeof *memo);
    if (!memo)
        return -1;
    for (size_t i = 0; i < 2 * lim; i++)
        memo[i] = -2; /* not yet computed */
    int r = nnf(l, f, neg, memo, lim);
    free(memo);
    return r;
}

static int nnf_node(tm_ltl *l, int f, bool neg, int *memo, size_t lim)
{
    tm_lnode n = l->n[f];
    int t = tm_ltl_mk(l, TM_L_TRUE, -1, -1, -1), ff = tm_ltl_mk(l, TM_L_FALSE, -1, -1, -1);
    if (t < 0 || ff < 0)
        return -1;
    int a, b, na, nb;
    switch (n.op) {
    case TM_L_TRUE:
        return neg ? ff : t;
    case TM_L_FALSE:
        return neg ? t : ff;
    case TM_L_AP:
        return neg ? tm_ltl_mk(l, TM_L_NOT, f, -1, -1) : f;
    case TM_L_NOT:
        return nnf(l, n.a, !neg, memo, lim);
    case TM_L_AND:
    case TM_L_OR: {
        bool and = (n.op == TM_L_AND) != neg;
        return mk(l, and? TM_L_AND : TM_L_OR, nnf(l, n.a, neg, memo, lim),
                  nnf(l, n.b, neg, memo, lim));
    }
    case TM_L_IMPL: /* !a | b;  negated: a & !b */
        a = nnf(l, n.a, !neg, memo, lim);
        b = nnf(l, n.b, neg, memo, lim);
        return mk(l, neg ? TM_L_AND : TM_L_OR, a, b);
    case TM_L_EQUIV:
    case TM_L_XOR: {
        /* a <-> b = (a & b) | (!a & !b); xor and negation swap the sides */
        bool eq = (n.op == TM_L_EQUIV) != neg;
        a = nnf(l, n.a, false, memo, lim), na = nnf(l, n.a, true, memo, lim);
        b = nnf(l, n.b, false, memo, lim), nb = nnf(l, n.b, true, memo, lim);
        if (eq)
            return mk(l, TM_L_OR, mk(l, TM_L_AND, a, b), mk(l, TM_L_AND, na, nb));
        return mk(l, TM_L_OR, mk(l, TM_L_AND, a, nb), mk(l, TM_L_AND, na, b));
    }
    case TM_L_X:
        return mk(l, TM_L_X, nnf(l, n.a, neg, memo, lim), -1);
    case TM_L_F: /* true U a;  negated: false R !a */
        return neg ? mk(l, TM_L_R, ff, nnf(l, n.a, true, memo, lim))
                   : mk(l, TM_L_U, t, nnf(l, n.a, false, memo, lim));
    case TM_L_G:
        return neg ? mk(l, TM_L_U, t, nnf(l, n.a, true, memo, lim))
                   : mk(l, TM_L_R, ff, nnf(l, n.a, false, memo, lim));
    case TM_L_U: /* negated: !a R !b */
        return mk(l, neg ? TM_L_R : TM_L_U, nnf(l, n.a, neg, memo, lim),
                  nnf(l, n.b, neg, memo, lim));
    case TM_L_R:
        return mk(l, neg ? TM_L_U : TM_L_R, nnf(l, n.a, neg, memo, lim),
                  nnf(l, n.b, neg, memo, lim));
    case TM_L_W: /* a W b = b R (a | b);  negated: !b U (!a & !b) */
        a = nnf(l, n.a, neg, memo, lim), b = nnf(l, n.b, neg, memo, lim);
        return neg ? mk(l, TM_L_U, b, mk(l, TM_L_AND, a, b))
                   : mk(l, TM_L_R, b, mk(l, TM_L_OR, a, b));
    case TM_L_M: /* a M b = b U (a & b);  negated: !b R (!a | !b) */
        a = nnf(l, n.a, neg, memo, lim), b = nnf(l, n.b, neg, memo, lim);
        return neg ? mk(l, TM_L_R, b, mk(l, TM_L_OR, a, b))
                   : mk(l, TM_L_U, b, mk(l, TM_L_AND, a, b));
    }
    return -1;
}

uint64_t tm_ltl_apmask(const tm_ltl *l, int f)
{
    const tm_lnode *n = &l->n[f];
    uint64_t m = n->op == TM_L_AP ? (uint64_t)1 << n->ap : 0;
    if (n->a >= 0)
        m |= tm_ltl_apmask(l, n->a);
    if (n->b >= 0)
        m |= tm_ltl_apmask(l, n->b);
    return m;
}

size_t tm_ltl_size(const tm_ltl *l, int f)
{
    const tm_lnode *n = &l->n[f];
    return 1 + (n->a >= 0 ? tm_ltl_size(l, n->a) : 0) + (n->b >= 0 ? tm_ltl_size(l, n->b) : 0);
}

/* ---- printing ---- */

/* Spot's binding strength: 1 -> <->, 2 |, 3 xor, 4 &, 5 U R W M, 6 unary and
 * atoms. */
static int level(tm_lop op)
{
    switch (op) {
    case TM_L_IMPL:
    case TM_L_EQUIV:
        return 1;
    case TM_L_OR:
        return 2;
    case TM_L_XOR:
        return 3;
    case TM_L_AND:
        return 4;
    case TM_L_U:
    case TM_L_R:
    case TM_L_W:
    case TM_L_M:
        return 5;
    default:
        return 6;
    }
}

static const char *op_text(tm_lop op)
{
    static const char *t[] = {"true", "false", "",  "!", "&", "|", "->", "<->",
                              "xor",  "X",     "F", "G", "U", "R", "W",  "M"};
    return t[op];
}

typedef struct {
    char *s;
    size_t len, cap;
    bool oom;
} sbuf;

static void put(sbuf *b, const char *s)
{
    size_t k = strlen(s);
    if (b->oom)
        return;
    if (b->len + k + 1 > b->cap) {
        size_t cap = (b->len + k + 1) * 2;
        char *x = realloc(b->s, cap);
        if (!x) {
            b->oom = true;
            return;
        }
        b->s = x;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, k + 1);
    b->len += k;
}

static bool plain_name(const char *s)
{
    static const char *kw[] = {"X", "F", "G", "U", "R", "V", "W", "M", "true", "false", "xor"};
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '.'))
            return false;
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (!strcmp(s, kw[i]))
            return false;
    return true;
}

static void text(sbuf *b, const tm_ltl *l, int f, const tm_aps *aps)
{
    const tm_lnode *n = &l->n[f];
    int lv = level(n->op);
    switch (n->op) {
    case TM_L_TRUE:
    case TM_L_FALSE:
        put(b, op_text(n->op));
        return;
    case TM_L_AP:
        if (plain_name(aps->name[n->ap])) {
            put(b, aps->name[n->ap]);
        } else {
            put(b, "\"");
            put(b, aps->name[n->ap]);
            put(b, "\"");
        }
        return;
    case TM_L_NOT:
    case TM_L_X:
    case TM_L_F:
    case TM_L_G: {
        put(b, op_text(n->op));
        if (n->op != TM_L_NOT)
            put(b, " ");
        bool par = level(l->n[n->a].op) < 6;
        put(b, par ? "(" : "");
        text(b, l, n->a, aps);
        put(b, par ? ")" : "");
        return;
    }
    default: {
        /* right-associative levels (1, 5) parenthesise an equal-level left
         * operand; the associative | & xor never need to */
        bool right_assoc = lv == 1 || lv == 5;
        int la = level(l->n[n->a].op), lb = level(l->n[n->b].op);
        bool pa = la < lv || (right_assoc && la == lv);
        bool pb = lb < lv;
        put(b, pa ? "(" : "");
        text(b, l, n->a, aps);
        put(b, pa ? ") " : " ");
        put(b, op_text(n->op));
        put(b, pb ? " (" : " ");
        text(b, l, n->b, aps);
        put(b, pb ? ")" : "");
    }
    }
}

char *tm_ltl_text(const tm_ltl *l, int f, const tm_aps *aps)
{
    sbuf b = {NULL, 0, 0, false};
    put(&b, "");
    text(&b, l, f, aps);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* ---- evaluation on lassos ---- */

/* val[f * N + i]: truth of node f at position i (NNF nodes only), computed
 * children first; U and R as least and greatest fixpoints along the lasso. */
static void eval(const tm_ltl *l, int f, const tm_lasso *w, size_t N, bool *val, bool *done)
{
    if (done[f])
        return;
    const tm_lnode *n = &l->n[f];
    if (n->a >= 0)
        eval(l, n->a, w, N, val, done);
    if (n->b >= 0)
        eval(l, n->b, w, N, val, done);
    bool *v = val + (size_t)f * N;
    const bool *va = n->a >= 0 ? val + (size_t)n->a * N : NULL;
    const bool *vb = n->b >= 0 ? val + (size_t)n->b * N : NULL;
    for (size_t i = 0; i < N; i++) {
        uint64_t letter = i < w->npre ? w->pre[i] : w->cyc[i - w->npre];
        size_t nx = i + 1 < N ? i + 1 : w->npre;
        switch (n->op) {
        case TM_L_TRUE:
            v[i] = true;
            break;
        case TM_L_AP:
            v[i] = letter >> n->ap & 1;
            break;
        case TM_L_NOT:
            v[i] = !va[i];
            break;
        case TM_L_AND:
            v[i] = va[i] && vb[i];
            break;
        case TM_L_OR:
            v[i] = va[i] || vb[i];
            break;
        case TM_L_X:
            v[i] = va[nx];
            break;
        case TM_L_U:
            v[i] = false;
            break;
        case TM_L_R:
            v[i] = true;
            break;
        default:
            v[i] = false; /* FALSE; other operators do not occur in NNF */
        }
    }
    if (n->op == TM_L_U || n->op == TM_L_R) {
        /* N + 1 rounds backwards reach the fixpoint on a lasso of N positions */
        for (size_t round = 0; round <= N; round++)
            for (size_t k = N; k-- > 0;) {
                size_t nx = k + 1 < N ? k + 1 : w->npre;
                v[k] = n->op == TM_L_U ? vb[k] || (va[k] && v[nx]) : vb[k] && (va[k] || v[nx]);
            }
    }
    done[f] = true;
}

int tm_ltl_holds(tm_ltl *l, int f, const tm_lasso *w)
{
    tm_ltl *m = l; /* NNF nodes are added to the same DAG */
    int g = tm_ltl_nnf(m, f, false);
    if (g < 0)
        return -1;
    size_t N = w->npre + w->ncyc, nodes = m->len;
    bool *val = calloc(nodes * N + 1, sizeof *val), *done = calloc(nodes + 1, sizeof *done);
    if (!val || !done) {
        free(val), free(done);
        return -1;
    }
    eval(m, g, w, N, val, done);
    int r = val[(size_t)g * N];
    free(val), free(done);
    return r;
}
