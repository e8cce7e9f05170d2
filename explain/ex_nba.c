/* ex_nba: GPVW tableau, liveness pruning, and state-set simulation.
 *
 * Formula sets are bit sets over the closure (the subformulas reachable
 * from the root).  Expansion uses an explicit stack instead of recursion,
 * and the liveness analysis uses an iterative Tarjan, so nothing here
 * recurses at all.  The state budget protects the caller from the
 * exponential worst case; the caller then falls back to a sound
 * approximation and says so.
 */
#include "ex_nba.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int *v;
    int n, cap;
} ex_ivec;

static void ex_ivec_push(ex_ivec *x, int v)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? x->cap * 2 : 4;
        x->v = realloc(x->v, (size_t)x->cap * sizeof *x->v);
        if (!x->v)
            abort();
    }
    x->v[x->n++] = v;
}

typedef struct {
    ex_ivec inc;    /* predecessors; -1 is the start */
    uint64_t *bits; /* new | old | next, each `w` words */
} ex_tnode;

typedef struct {
    const ex_ltl *l;
    int m;          /* closure size */
    size_t w;       /* words per set */
    int *node_of;   /* closure index -> formula node */
    int *idx_of;    /* formula node -> closure index, -1 if absent */
    int * compl ;   /* closure index of the complementary literal, -1 */
    ex_tnode *done; /* completed states */
    int ndone, capdone;
    int *dhash; /* completed states by (old, next) */
    size_t dhcap;
} ex_tab;

#define NEWS(t, n)  ((n)->bits)
#define OLDS(t, n)  ((n)->bits + (t)->w)
#define NEXTS(t, n) ((n)->bits + 2 * (t)->w)

static int ex_bit(const uint64_t *s, int i)
{
    return (int)((s[i >> 6] >> (i & 63)) & 1);
}

static void ex_setbit(uint64_t *s, int i)
{
    s[i >> 6] |= 1ull << (i & 63);
}

static ex_tnode ex_tnode_new(const ex_tab *t)
{
    ex_tnode n = {{0}, calloc(3 * t->w, sizeof(uint64_t))};
    if (!n.bits)
        abort();
    return n;
}

static ex_tnode ex_tnode_copy(const ex_tab *t, const ex_tnode *o)
{
    ex_tnode n = ex_tnode_new(t);
    memcpy(n.bits, o->bits, 3 * t->w * sizeof(uint64_t));
    for (int i = 0; i < o->inc.n; i++)
        ex_ivec_push(&n.inc, o->inc.v[i]);
    return n;
}

static void ex_tnode_free(ex_tnode *n)
{
    free(n->inc.v);
    free(n->bits);
}

static void ex_closure(ex_tab *t, int f)
{
    const ex_ltl *l = t->l;
    t->idx_of = malloc(((size_t)f + 1) * sizeof(int));
    t->node_of = malloc(((size_t)f + 1) * sizeof(int));
    if (!t->idx_of || !t->node_of)
        abort();
    for (int i = 0; i <= f; i++)
        t->idx_of[i] = -1;
    /* Children have smaller ids, so a downward sweep from f finds all. */
    char *reach = calloc((size_t)f + 1, 1);
    if (!reach)
        abort();
    reach[f] = 1;
    for (int i = f; i >= 0; i--) {
        if (!reach[i])
            continue;
        if (l->n[i].a >= 0)
            reach[l->n[i].a] = 1;
        if (l->n[i].b >= 0)
            reach[l->n[i].b] = 1;
    }
    t->m = 0;
    for (int i = 0; i <= f; i++)
        if (reach[i]) {
            t->idx_of[i] = t->m;
            t->node_of[t->m++] = i;
        }
    free(reach);
    t->w = ((size_t)t->m + 63) / 64;
    t->compl = malloc((size_t)t->m * sizeof(int));
    if (!t->compl )
        abort();
    for (int c = 0; c < t->m; c++) {
        const ex_lnode *n = &l->n[t->node_of[c]];
        t->compl [c] = -1;
        if (n->op == EX_L_NOT)
            t->compl [c] = t->idx_of[n->a];
    }
    for (int c = 0; c < t->m; c++)
        if (t->compl [c] >= 0)
            t->compl [t->compl [c]] = c;
}

static size_t ex_done_hash(const ex_tab *t, const uint64_t *old)
{
    size_t h = 1469598103934665603ull;
    for (size_t i = 0; i < 2 * t->w; i++)
        h = (h ^ old[i]) * 1099511628211ull;
    return h;
}

static void ex_dhash_grow(ex_tab *t)
{
    free(t->dhash);
    t->dhcap = t->dhcap ? t->dhcap * 2 : 256;
    t->dhash = malloc(t->dhcap * sizeof(int));
    if (!t->dhash)
        abort();
    for (size_t i = 0; i < t->dhcap; i++)
        t->dhash[i] = -1;
    for (int d = 0; d < t->ndone; d++) {
        size_t h = ex_done_hash(t, OLDS(t, &t->done[d])) & (t->dhcap - 1);
        while (t->dhash[h] >= 0)
            h = (h + 1) & (t->dhcap - 1);
        t->dhash[h] = d;
    }
}

/* Either merges nd into an equal completed state or completes it; returns
 * the id of a new completed state (whose successor must be expanded) or -1. */
static int ex_complete(ex_tab *t, ex_tnode *nd)
{
    if ((size_t)(t->ndone + 1) * 2 > t->dhcap)
        ex_dhash_grow(t);
    const uint64_t *key = OLDS(t, nd); /* old and next are contiguous */
    size_t h = ex_done_hash(t, key) & (t->dhcap - 1);
    for (; t->dhash[h] >= 0; h = (h + 1) & (t->dhcap - 1)) {
        ex_tnode *d = &t->done[t->dhash[h]];
        if (memcmp(OLDS(t, d), key, 2 * t->w * sizeof(uint64_t)) == 0) {
            for (int i = 0; i < nd->inc.n; i++)
                ex_ivec_push(&d->inc, nd->inc.v[i]);
            ex_tnode_free(nd);
            return -1;
        }
    }
    if (t->ndone == t->capdone) {
        t->capdone = t->capdone ? t->capdone * 2 : 64;
        t->done = realloc(t->done, (size_t)t->capdone * sizeof *t->done);
        if (!t->done)
            abort();
    }
    t->done[t->ndone] = *nd;
    t->dhash[h] = t->ndone;
    return t->ndone++;
}

static void ex_add_new(const ex_tab *t, ex_tnode *n, int node)
{
    int c = t->idx_of[node];
    if (!ex_bit(OLDS(t, n), c))
        ex_setbit(NEWS(t, n), c);
}

static int ex_take_new(const ex_tab *t, ex_tnode *n)
{
    uint64_t *s = NEWS(t, n);
    for (size_t i = 0; i < t->w; i++)
        if (s[i]) {
            int b = __builtin_ctzll(s[i]);
            s[i] &= s[i] - 1;
            return (int)i * 64 + b;
        }
    return -1;
}

/* Processes one formula of n; returns 0 to continue, 1 if n was discarded. */
static int ex_expand_one(ex_tab *t, ex_tnode *n, int c, ex_tnode *stack, int *sp)
{
    const ex_lnode *f = &t->l->n[t->node_of[c]];
    if (ex_bit(OLDS(t, n), c))
        return 0;
    switch (f->op) {
    case EX_L_FALSE:
        return 1;
    case EX_L_TRUE:
    case EX_L_PROP:
    case EX_L_NOT:
        if (t->compl [c] >= 0 && ex_bit(OLDS(t, n), t->compl [c]))
            return 1;
        break;
    case EX_L_AND:
        ex_add_new(t, n, f->a);
        ex_add_new(t, n, f->b);
        break;
    case EX_L_X:
        ex_setbit(NEXTS(t, n), t->idx_of[f->a]);
        break;
    case EX_L_OR:
    case EX_L_U:
    case EX_L_R: {
        ex_tnode two = ex_tnode_copy(t, n);
        ex_setbit(OLDS(t, &two), c);
        if (f->op == EX_L_OR) {
            ex_add_new(t, n, f->a);
            ex_add_new(t, &two, f->b);
        } else if (f->op == EX_L_U) {
            ex_add_new(t, n, f->a);
            ex_setbit(NEXTS(t, n), c);
            ex_add_new(t, &two, f->b);
        } else {
            ex_add_new(t, n, f->b);
            ex_setbit(NEXTS(t, n), c);
            ex_add_new(t, &two, f->a);
            ex_add_new(t, &two, f->b);
        }
        stack[(*sp)++] = two;
        break;
    }
    default:
        abort(); /* not tableau normal form */
    }
    ex_setbit(OLDS(t, n), c);
    return 0;
}

static int ex_expand(ex_tab *t, int f, int max_states)
{
    /* Each pending node splits at most once per closure formula. */
    size_t cap = 64;
    ex_tnode *stack = malloc(cap * sizeof *stack);
    if (!stack)
        abort();
    int sp = 0, rc = 0;
    ex_tnode start = ex_tnode_new(t);
    ex_ivec_push(&start.inc, -1);
    ex_setbit(NEWS(t, &start), t->idx_of[f]);
    stack[sp++] = start;
    while (sp) {
        if ((size_t)sp + (size_t)t->m + 2 > cap) {
            cap = cap * 2 + (size_t)t->m;
            stack = realloc(stack, cap * sizeof *stack);
            if (!stack)
                abort();
        }
        ex_tnode n = stack[--sp];
        int c, dropped = 0;
        while (!dropped && (c = ex_take_new(t, &n)) >= 0) {
            if ((size_t)sp + 2 > cap)
                break;
            dropped = ex_expand_one(t, &n, c, stack, &sp);
        }
        if (dropped) {
            ex_tnode_free(&n);
            continue;
        }
        if (c >= 0) { /* stack full: put back and grow */
            ex_setbit(NEWS(t, &n), c);
            stack[sp++] = n;
            continue;
        }
        int id = ex_complete(t, &n);
        if (id < 0)
            continue;
        if (t->ndone > max_states) {
            rc = -1;
            break;
        }
        ex_tnode succ = ex_tnode_new(t);
        ex_ivec_push(&succ.inc, id);
        memcpy(NEWS(t, &succ), NEXTS(t, &t->done[id]), t->w * sizeof(uint64_t));
        stack[sp++] = succ;
    }
    while (sp)
        ex_tnode_free(&stack[--sp]);
    free(stack);
    return rc;
}

/* ---- automaton from the tableau ------------------------------------------- */

static void ex_labels_edges(ex_tab *t, ex_nba *a)
{
    int ns = t->ndone;
    a->nstates = ns;
    a->words = ((size_t)ns + 63) / 64 + 1;
    a->pos = calloc((size_t)ns + 1, sizeof(uint64_t));
    a->neg = calloc((size_t)ns + 1, sizeof(uint64_t));
    a->init = calloc((size_t)ns + 1, 1);
    a->succ_off = calloc((size_t)ns + 2, sizeof(int));
    if (!a->pos || !a->neg || !a->init || !a->succ_off)
        abort();
    for (int q = 0; q < ns; q++) {
        const uint64_t *old = OLDS(t, &t->done[q]);
        for (int c = 0; c < t->m; c++) {
            if (!ex_bit(old, c))
                continue;
            const ex_lnode *f = &t->l->n[t->node_of[c]];
            if (f->op == EX_L_PROP)
                a->pos[q] |= 1ull << f->prop;
            else if (f->op == EX_L_NOT)
                a->neg[q] |= 1ull << t->l->n[f->a].prop;
        }
        for (int i = 0; i < t->done[q].inc.n; i++) {
            int p = t->done[q].inc.v[i];
            if (p < 0)
                a->init[q] = 1;
            else
                a->succ_off[p + 1]++;
        }
    }
    for (int q = 0; q < ns; q++)
        a->succ_off[q + 1] += a->succ_off[q];
    a->succ = malloc(((size_t)a->succ_off[ns] + 1) * sizeof(int));
    int *fill = calloc((size_t)ns + 1, sizeof(int));
    if (!a->succ || !fill)
        abort();
    for (int q = 0; q < ns; q++)
        for (int i = 0; i < t->done[q].inc.n; i++) {
            int p = t->done[q].inc.v[i];
            if (p >= 0)
                a->succ[a->succ_off[p] + fill[p]++] = q;
        }
    free(fill);
}

/* Does the SCC (members comp[] == id) meet every acceptance set? */
static int ex_scc_accepting(ex_tab *t, const ex_nba *a, const int *comp, int id)
{
    for (int c = 0; c < t->m; c++) {
        const ex_lnode *f = &t->l->n[t->node_of[c]];
        if (f->op != EX_L_U)
            continue;
        int met = 0, cb = t->idx_of[f->b];
        for (int q = 0; q < a->nstates && !met; q++) {
            if (comp[q] != id)
                continue;
            const uint64_t *old = OLDS(t, &t->done[q]);
            met = !ex_bit(old, c) || ex_bit(old, cb);
        }
        if (!met)
            return 0;
    }
    return 1;
}

/* Iterative Tarjan; marks states in accepting non-trivial SCCs, then
 * everything that reaches them. */
static void ex_liveness(ex_tab *t, ex_nba *a)
{
    int ns = a->nstates, idx = 0, ncomp = 0;
    int *index = malloc(((size_t)ns + 1) * sizeof(int)),
        *low = malloc(((size_t)ns + 1) * sizeof(int));
    int *comp = malloc(((size_t)ns + 1) * sizeof(int)),
        *stk = malloc(((size_t)ns + 1) * sizeof(int));
    int *cs = malloc(((size_t)ns + 1) * sizeof(int)), *ci = malloc(((size_t)ns + 1) * sizeof(int));
    char *on = calloc((size_t)ns + 1, 1);
    a->live = calloc((size_t)ns + 1, 1);
    if (!index || !low || !comp || !stk || !cs || !ci || !on || !a->live)
        abort();
    for (int q = 0; q < ns; q++)
        index[q] = -1;
    int sp = 0;
    for (int root = 0; root < ns; root++) {
        if (index[root] >= 0)
            continue;
        int csp = 0;
        cs[csp] = root;
        ci[csp++] = a->succ_off[root];
        index[root] = low[root] = idx++;
        stk[sp++] = root;
        on[root] = 1;
        while (csp) {
            int v = cs[csp - 1];
            if (ci[csp - 1] < a->succ_off[v + 1]) {
                int w = a->succ[ci[csp - 1]++];
                if (index[w] < 0) {
                    index[w] = low[w] = idx++;
                    stk[sp++] = w;
                    on[w] = 1;
                    cs[csp] = w;
                    ci[csp++] = a->succ_off[w];
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) {
                int w;
                do {
                    w = stk[--sp];
                    on[w] = 0;
                    comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
            csp--;
            if (csp && low[v] < low[cs[csp - 1]])
                low[cs[csp - 1]] = low[v];
        }
    }
    /* Good SCCs: a cycle exists inside and all acceptance sets are met. */
    char *good = calloc((size_t)ncomp + 1, 1), *cyc = calloc((size_t)ncomp + 1, 1);
    if (!good || !cyc)
        abort();
    for (int v = 0; v < ns; v++)
        for (int e = a->succ_off[v]; e < a->succ_off[v + 1]; e++)
            if (comp[a->succ[e]] == comp[v])
                cyc[comp[v]] = 1;
    for (int c = 0; c < ncomp; c++)
        good[c] = cyc[c] && ex_scc_accepting(t, a, comp, c);
    /* Tarjan numbers SCCs in reverse topological order: successors first. */
    char *clive = calloc((size_t)ncomp + 1, 1);
    if (!clive)
        abort();
    int *order = malloc(((size_t)ns + 1) * sizeof(int)),
        *cnt = calloc((size_t)ncomp + 2, sizeof(int));
    if (!order || !cnt)
        abort();
    for (int v = 0; v < ns; v++)
        cnt[comp[v] + 1]++;
    for (int c = 0; c < ncomp; c++)
        cnt[c + 1] += cnt[c];
    for (int v = 0; v < ns; v++)
        order[cnt[comp[v]]++] = v;
    for (int i = 0; i < ns; i++) {
        int v = order[i];
        if (good[comp[v]])
            clive[comp[v]] = 1;
        for (int e = a->succ_off[v]; e < a->succ_off[v + 1]; e++)
            if (clive[comp[a->succ[e]]])
                clive[comp[v]] = 1;
    }
    /* A component is processed after all components it reaches, but its own
     * members may be visited before a member that reaches a live successor. */
    for (int i = 0; i < ns; i++) {
        int v = order[i];
        a->live[v] = clive[comp[v]];
    }
    free(order);
    free(cnt);
    free(clive);
    free(good);
    free(cyc);
    free(index);
    free(low);
    free(comp);
    free(stk);
    free(cs);
    free(ci);
    free(on);
}

int ex_nba_build(const ex_ltl *l, int f, int max_states, ex_nba *a)
{
    memset(a, 0, sizeof *a);
    if (f < 0)
        return -1;
    ex_tab t = {0};
    t.l = l;
    ex_closure(&t, f);
    int rc = ex_expand(&t, f, max_states);
    if (rc == 0) {
        ex_labels_edges(&t, a);
        ex_liveness(&t, a);
    }
    for (int d = 0; d < t.ndone; d++)
        ex_tnode_free(&t.done[d]);
    free(t.done);
    free(t.dhash);
    free(t.idx_of);
    free(t.node_of);
    free(t.compl );
    return rc;
}

void ex_nba_free(ex_nba *a)
{
    free(a->pos);
    free(a->neg);
    free(a->succ_off);
    free(a->succ);
    free(a->init);
    free(a->live);
    memset(a, 0, sizeof *a);
}

static int ex_fits(const ex_nba *a, int q, uint64_t letter)
{
    return a->live[q] && (a->pos[q] & ~letter) == 0 && (a->neg[q] & letter) == 0;
}

void ex_nba_start(const ex_nba *a, uint64_t letter, uint64_t *set)
{
    memset(set, 0, a->words * sizeof *set);
    for (int q = 0; q < a->nstates; q++)
        if (a->init[q] && ex_fits(a, q, letter))
            ex_setbit(set, q);
}

void ex_nba_step(const ex_nba *a, const uint64_t *from, uint64_t letter, uint64_t *to)
{
    memset(to, 0, a->words * sizeof *to);
    for (size_t w = 0; w < a->words; w++)
        for (uint64_t bits = from[w]; bits; bits &= bits - 1) {
            int p = (int)w * 64 + __builtin_ctzll(bits);
            for (int e = a->succ_off[p]; e < a->succ_off[p + 1]; e++) {
                int q = a->succ[e];
                if (!ex_bit(to, q) && ex_fits(a, q, letter))
                    ex_setbit(to, q);
            }
        }
}

int ex_nba_set_empty(const ex_nba *a, const uint64_t *set)
{
    for (size_t w = 0; w < a->words; w++)
        if (set[w])
            return 0;
    return 1;
}
