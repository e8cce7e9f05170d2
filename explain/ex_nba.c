/* ex_nba: GPVW tableau, liveness pruning, and state-set simulation.
 *
 * Formula sets are bit sets over the closure (the subformulas reachable
 * from the root).  Expansion uses an explicit stack instead of recursion,
 * and the liveness analysis uses an iterative Tarjan, so nothing here
 * recurses at all.  The state budget protects the caller from the
 * exponential worst case; the caller then falls back to a sound
 * approximation and says so.  Out of memory sets the tableau's sticky
 * `oom` flag: every step after it does nothing, and the build returns
 * EX_NBA_OOM (the project's rule: library code never aborts).
 */
#include "ex_nba.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int *v;
    int n, cap;
} ex_ivec;

static int ex_ivec_push(ex_ivec *x, int v)
{
    if (x->n == x->cap) {
        int cap = x->cap ? x->cap * 2 : 4;
        int *p = realloc(x->v, (size_t)cap * sizeof *x->v);
        if (!p)
            return -1;
        x->v = p;
        x->cap = cap;
    }
    x->v[x->n++] = v;
    return 0;
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
    u_intern dones; /* completed states by (old, next) */
    int oom;        /* sticky: an allocation failed */
} ex_tab;

#define NEWS(t, n)  ((n)->bits)
#define OLDS(t, n)  ((n)->bits + (t)->w)
#define NEXTS(t, n) ((n)->bits + 2 * (t)->w)

#define ex_bit    ex_set_has
#define ex_setbit ex_set_add

/* calloc that records a failure in t (and then returns NULL). */
static void *ex_zalloc(ex_tab *t, size_t n)
{
    void *p = t->oom ? NULL : calloc(n ? n : 1, 1);
    if (!p)
        t->oom = 1;
    return p;
}

static void ex_push(ex_tab *t, ex_ivec *x, int v)
{
    if (!t->oom && ex_ivec_push(x, v))
        t->oom = 1;
}

/* A node whose bits are all zero; on failure t->oom and bits NULL. */
static ex_tnode ex_tnode_new(ex_tab *t)
{
    ex_tnode n = {{0}, ex_zalloc(t, 3 * t->w * sizeof(uint64_t))};
    return n;
}

static ex_tnode ex_tnode_copy(ex_tab *t, const ex_tnode *o)
{
    ex_tnode n = ex_tnode_new(t);
    if (n.bits)
        memcpy(n.bits, o->bits, 3 * t->w * sizeof(uint64_t));
    for (int i = 0; i < o->inc.n; i++)
        ex_push(t, &n.inc, o->inc.v[i]);
    return n;
}

static void ex_tnode_free(ex_tnode *n)
{
    free(n->inc.v);
    free(n->bits);
}

static int ex_closure(ex_tab *t, int f)
{
    const ex_ltl *l = t->l;
    t->idx_of = ex_zalloc(t, ((size_t)f + 1) * sizeof(int));
    t->node_of = ex_zalloc(t, ((size_t)f + 1) * sizeof(int));
    /* Children have smaller ids, so a downward sweep from f finds all. */
    char *reach = ex_zalloc(t, (size_t)f + 1);
    if (t->oom) {
        free(reach);
        return -1;
    }
    for (int i = 0; i <= f; i++)
        t->idx_of[i] = -1;
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
    t->compl = ex_zalloc(t, (size_t)t->m * sizeof(int));
    if (!t->compl )
        return -1;
    for (int c = 0; c < t->m; c++) {
        const ex_lnode *n = &l->n[t->node_of[c]];
        t->compl [c] = -1;
        if (n->op == EX_L_NOT)
            t->compl [c] = t->idx_of[n->a];
    }
    for (int c = 0; c < t->m; c++)
        if (t->compl [c] >= 0)
            t->compl [t->compl [c]] = c;
    return 0;
}

/* Either merges nd into an equal completed state or completes it; returns
 * the id of a new completed state (whose successor must be expanded) or -1.
 * Completed states are interned by their (old, next) bits, which lie back
 * to back: util's u_intern numbers them densely, as done[] is. */
static int ex_complete(ex_tab *t, ex_tnode *nd)
{
    bool fresh;
    uint32_t id = t->oom
                      ? U_INVALID
                      : u_intern_put(&t->dones, OLDS(t, nd), 2 * t->w * sizeof(uint64_t), &fresh);
    if (id == U_INVALID) {
        t->oom = 1;
        ex_tnode_free(nd);
        return -1;
    }
    if (!fresh) {
        ex_tnode *d = &t->done[id];
        for (int i = 0; i < nd->inc.n; i++)
            ex_push(t, &d->inc, nd->inc.v[i]);
        ex_tnode_free(nd);
        return -1;
    }
    if (t->ndone == t->capdone) {
        int cap = t->capdone ? t->capdone * 2 : 64;
        ex_tnode *d = realloc(t->done, (size_t)cap * sizeof *t->done);
        if (!d) {
            t->oom = 1;
            ex_tnode_free(nd);
            return -1;
        }
        t->done = d;
        t->capdone = cap;
    }
    t->done[t->ndone] = *nd;
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
        if (t->oom) {
            ex_tnode_free(&two);
            return 1;
        }
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
    default: /* not tableau normal form: a caller's error */
        t->oom = 1;
        return 1;
    }
    ex_setbit(OLDS(t, n), c);
    return 0;
}

static int ex_expand(ex_tab *t, int f, int max_states)
{
    /* Each pending node splits at most once per closure formula. */
    size_t cap = 64;
    ex_tnode *stack = ex_zalloc(t, cap * sizeof *stack);
    ex_tnode start = ex_tnode_new(t);
    ex_push(t, &start.inc, -1);
    if (t->oom) {
        free(stack);
        ex_tnode_free(&start);
        return EX_NBA_OOM;
    }
    int sp = 0, rc = 0;
    ex_setbit(NEWS(t, &start), t->idx_of[f]);
    stack[sp++] = start;
    while (sp && !t->oom) {
        if ((size_t)sp + (size_t)t->m + 2 > cap) {
            size_t ncap = cap * 2 + (size_t)t->m;
            ex_tnode *ns = realloc(stack, ncap * sizeof *stack);
            if (!ns) {
                t->oom = 1;
                break;
            }
            stack = ns;
            cap = ncap;
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
            rc = EX_NBA_TOO_BIG;
            break;
        }
        ex_tnode succ = ex_tnode_new(t);
        ex_push(t, &succ.inc, id);
        if (t->oom) {
            ex_tnode_free(&succ);
            break;
        }
        memcpy(NEWS(t, &succ), NEXTS(t, &t->done[id]), t->w * sizeof(uint64_t));
        stack[sp++] = succ;
    }
    while (sp)
        ex_tnode_free(&stack[--sp]);
    free(stack);
    return t->oom ? EX_NBA_OOM : rc;
}

/* ---- automaton from the tableau ------------------------------------------- */

static int ex_labels_edges(ex_tab *t, ex_nba *a)
{
    int ns = t->ndone;
    a->nstates = ns;
    a->words = ((size_t)ns + 63) / 64 + 1;
    a->pos = ex_zalloc(t, ((size_t)ns + 1) * sizeof(uint64_t));
    a->neg = ex_zalloc(t, ((size_t)ns + 1) * sizeof(uint64_t));
    a->init = ex_zalloc(t, (size_t)ns + 1);
    a->succ_off = ex_zalloc(t, ((size_t)ns + 2) * sizeof(int));
    a->nacc = 0;
    for (int c = 0; c < t->m; c++)
        a->nacc += t->l->n[t->node_of[c]].op == EX_L_U;
    a->acc_words = ((size_t)a->nacc + 63) / 64 + 1;
    a->acc = ex_zalloc(t, ((size_t)ns + 1) * a->acc_words * sizeof(uint64_t));
    a->next_words = t->w;
    a->next = ex_zalloc(t, ((size_t)ns + 1) * t->w * sizeof(uint64_t));
    if (t->oom)
        return -1;
    for (int q = 0; q < ns; q++) {
        const uint64_t *old = OLDS(t, &t->done[q]);
        memcpy(a->next + (size_t)q * t->w, NEXTS(t, &t->done[q]), t->w * sizeof(uint64_t));
        int u = 0;
        for (int c = 0; c < t->m; c++) {
            const ex_lnode *f = &t->l->n[t->node_of[c]];
            if (f->op == EX_L_U) { /* q is in u's set: no promise of c, or c's goal now */
                if (!ex_bit(old, c) || ex_bit(old, t->idx_of[f->b]))
                    ex_setbit(a->acc + (size_t)q * a->acc_words, u);
                u++;
            }
            if (!ex_bit(old, c))
                continue;
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
    a->succ = ex_zalloc(t, ((size_t)a->succ_off[ns] + 1) * sizeof(int));
    int *fill = ex_zalloc(t, ((size_t)ns + 1) * sizeof(int));
    if (t->oom) {
        free(fill);
        return -1;
    }
    for (int q = 0; q < ns; q++)
        for (int i = 0; i < t->done[q].inc.n; i++) {
            int p = t->done[q].inc.v[i];
            if (p >= 0)
                a->succ[a->succ_off[p] + fill[p]++] = q;
        }
    free(fill);
    return 0;
}

/* Does the SCC (members comp[] == id) meet every acceptance set? */
static int ex_scc_accepting(const ex_nba *a, const int *comp, int id)
{
    for (int u = 0; u < a->nacc; u++) {
        int met = 0;
        for (int q = 0; q < a->nstates && !met; q++)
            met = comp[q] == id && ex_bit(a->acc + (size_t)q * a->acc_words, u);
        if (!met)
            return 0;
    }
    return 1;
}

/* Iterative Tarjan over the automaton: comp[q] is q's SCC, numbered in
 * reverse topological order (successors first); returns the count. */
static int ex_sccs(const ex_nba *a, int *comp, int *index, int *low, int *stk, int *cs, int *ci,
                   char *on)
{
    int ns = a->nstates, idx = 0, ncomp = 0, sp = 0;
    for (int q = 0; q < ns; q++)
        index[q] = -1;
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
    return ncomp;
}

/* Marks states in accepting non-trivial SCCs, then everything that reaches
 * them. */
static int ex_liveness(ex_tab *t, ex_nba *a)
{
    size_t ns = (size_t)a->nstates + 1;
    int *index = ex_zalloc(t, ns * sizeof(int)), *low = ex_zalloc(t, ns * sizeof(int));
    int *comp = ex_zalloc(t, ns * sizeof(int)), *stk = ex_zalloc(t, ns * sizeof(int));
    int *cs = ex_zalloc(t, ns * sizeof(int)), *ci = ex_zalloc(t, ns * sizeof(int));
    char *on = ex_zalloc(t, ns);
    a->live = ex_zalloc(t, ns);
    char *good = NULL, *cyc = NULL;
    int ncomp = 0;
    if (!t->oom) {
        ncomp = ex_sccs(a, comp, index, low, stk, cs, ci, on);
        good = ex_zalloc(t, (size_t)ncomp + 1);
        cyc = ex_zalloc(t, (size_t)ncomp + 1);
    }
    if (!t->oom) {
        /* Good SCCs: a cycle inside, and every acceptance set met. */
        for (int v = 0; v < a->nstates; v++)
            for (int e = a->succ_off[v]; e < a->succ_off[v + 1]; e++)
                if (comp[a->succ[e]] == comp[v])
                    cyc[comp[v]] = 1;
        for (int c = 0; c < ncomp; c++)
            good[c] = cyc[c] && ex_scc_accepting(a, comp, c);
        /* SCCs come successors first, so one sweep in SCC order settles
         * which reach a good one (good[] now means "live"). */
        int *order = index, *cnt = low; /* reused: Tarjan is done with them */
        memset(cnt, 0, ns * sizeof(int));
        for (int v = 0; v < a->nstates; v++)
            if (comp[v] + 1 < (int)ns)
                cnt[comp[v] + 1]++;
        for (int c = 0; c + 1 < (int)ns && c < ncomp; c++)
            cnt[c + 1] += cnt[c];
        for (int v = 0; v < a->nstates; v++)
            order[cnt[comp[v]]++] = v;
        for (int i = 0; i < a->nstates; i++) {
            int v = order[i];
            for (int e = a->succ_off[v]; e < a->succ_off[v + 1]; e++)
                if (good[comp[a->succ[e]]])
                    good[comp[v]] = 1;
        }
        for (int v = 0; v < a->nstates; v++)
            a->live[v] = (unsigned char)good[comp[v]];
    }
    free(good);
    free(cyc);
    free(index);
    free(low);
    free(comp);
    free(stk);
    free(cs);
    free(ci);
    free(on);
    return t->oom ? -1 : 0;
}

int ex_nba_build(const ex_ltl *l, int f, int max_states, ex_nba *a)
{
    memset(a, 0, sizeof *a);
    if (f < 0)
        return EX_NBA_TOO_BIG;
    ex_tab t = {0};
    t.l = l;
    int rc = ex_closure(&t, f) ? EX_NBA_OOM : ex_expand(&t, f, max_states);
    if (rc == EX_NBA_OK && (ex_labels_edges(&t, a) || ex_liveness(&t, a)))
        rc = EX_NBA_OOM;
    for (int d = 0; d < t.ndone; d++)
        ex_tnode_free(&t.done[d]);
    free(t.done);
    u_intern_free(&t.dones);
    free(t.idx_of);
    free(t.node_of);
    free(t.compl );
    if (rc != EX_NBA_OK)
        ex_nba_free(a);
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
    free(a->acc);
    free(a->next);
    memset(a, 0, sizeof *a);
}

void ex_nba_start(const ex_nba *a, uint64_t letter, uint64_t *set)
{
    memset(set, 0, a->words * sizeof *set);
    for (int q = 0; q < a->nstates; q++)
        if (a->init[q] && ex_nba_fits(a, q, letter))
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
                if (!ex_bit(to, q) && ex_nba_fits(a, q, letter))
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
