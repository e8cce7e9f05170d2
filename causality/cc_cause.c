/*
 * cc_cause.c - from minimal bad multisets to causes (Def. 10 intervals, grouping,
 * OC1), for all orders of each multiset at once.
 *
 * For every multiset of a red trace (AC1, AC2(1), AC3 hold: cc_explore.c) the orders
 * automaton is built (cc_orders.c) and the AC2(2) pass runs over it (cc_ac22.c).  A
 * final node F of the pass stands for a set of orders whose prohibited gaps are the
 * same gap indices.  Per event the gaps are merged into maximal runs of adjacent gaps
 * and named by the occurrences that bound them (the order's occurrence before the
 * run's first gap and the one after its last), which makes them independent of where
 * those occurrences sit in a particular order.  The names depend on the order only at
 * those few boundary positions, so F's orders are split by a second pass over the
 * nodes that lead to F, which records the occurrences read at the boundary positions
 * (a refined node: pass node + the occurrences recorded so far).  Each refined final
 * node has one set of intervals; orders with the same multiset and the same intervals
 * are one cause.  Of a refined final node, over the refined nodes that lead to it:
 *   - the number of orders: its path count;
 *   - OC1: occurrence x precedes y on every order unless some node on the way has y
 *     and not yet x among its prefix's occurrences (a reachability question, answered
 *     from the nodes' multisets without following any order);
 *   - the witness: the order first by event names, by a greedy walk (all orders are
 *     equally long, so the smallest prefix at each step leads to the smallest order);
 *   - ambiguity (F has a good run with the order's very trace): the orders are listed,
 *     first by names, up to AMBIGUOUS_LISTED per cause.
 * A cause gathers these over its refined final nodes (counts summed, violations of an
 * order united, the smallest witness).
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

#define AMBIGUOUS_LISTED 1000       /* ambiguous orders listed per cause (the count is exact) */
#define NOOCC            UINT32_MAX /* interval bound: the start or the end of the trace */

typedef struct {
    uint32_t event;
    uint32_t after, before; /* occurrence ids (off[e] + i - 1), or NOOCC */
} ivl;

static int ivl_cmp(const void *x, const void *y)
{
    const ivl *a = x, *b = y;
    if (a->event != b->event)
        return a->event < b->event ? -1 : 1;
    if (a->after != b->after)
        return a->after < b->after ? -1 : 1;
    return (a->before > b->before) - (a->before < b->before);
}

/* A cause in the making: the orders of one multiset with equal intervals. */
typedef struct {
    ivl *iv;
    size_t niv;
    double count, nambiguous;
    bool ambiguous;
    bool *viol;        /* nocc x nocc: viol[x * n + y]: y precedes x on some order */
    bitstr_t *xs;      /* the automaton states on the way to its orders (for viol) */
    uint32_t *witness; /* event types, the group's first order by names */
    cc_trace *amb;     /* listed ambiguous orders */
    size_t namb;
} group;

/* The multiset being assembled, and the pass over its orders. */
typedef struct {
    cc_ctx *c;
    size_t nevents, n; /* n = |m| */
    const cc_oaut *a;
    const cc_pass *p;
    uint32_t *off;                  /* per event type: its first occurrence id */
    uint32_t *from, *rhead, *rnext; /* the pass's edges reversed */
    uint8_t *mark;                  /* per pass node: leads to the final node at hand */
    uint32_t *marked;               /* the nodes marked, nmarked of them */
    size_t nmarked;
    uint32_t *work; /* a stack over pass or refined nodes */
    size_t workcap;
    group *g;
    size_t ng, gcap;
    uint32_t *types, ntypes; /* m's event types, numbered compactly */
    uint32_t *tcnt;          /* per compact type: a count (violations) */
    int *best;               /* the OC1 table (violations) */
} asm_t;

/* ---- the refined pass for one final node ---- */

typedef struct {
    uint32_t node, tuple;
    double count;
    uint32_t out; /* first edge */
} rnode;

typedef struct {
    uint32_t to, ev, next;
} redge;

typedef struct {
    rnode *v;
    size_t n, cap;
    redge *e;
    size_t ne, ecap;
    uint32_t *rhead, *rnext, *rfrom; /* edges reversed */
    uint8_t *mark;                   /* leads to the refined final node at hand */
    u_map index;                     /* (node << 32 | tuple) -> refined node */
    u_intern tuples;                 /* occurrences recorded at the boundary positions */
} refined;

static void refined_free(refined *r)
{
    free(r->v);
    free(r->e);
    free(r->rhead);
    free(r->rnext);
    free(r->rfrom);
    free(r->mark);
    u_map_free(&r->index);
    u_intern_free(&r->tuples);
}

static int work_room(asm_t *s, size_t n)
{
    if (n <= s->workcap)
        return 0;
    uint32_t *w = realloc(s->work, n * sizeof *w);
    if (!w)
        return -1;
    s->work = w;
    s->workcap = n;
    return 0;
}

static uint32_t level_of(const asm_t *s, uint32_t node)
{
    return (uint32_t)sg_ms_size(s->c->sg, s->a->k[s->p->node[node].x]);
}

static int reverse_edges(asm_t *s)
{
    const cc_pass *p = s->p;
    s->from = malloc((p->ne + 1) * sizeof *s->from);
    s->rnext = malloc((p->ne + 1) * sizeof *s->rnext);
    s->rhead = malloc((p->n + 1) * sizeof *s->rhead);
    s->mark = calloc(p->n + 1, 1);
    s->marked = malloc((p->n + 1) * sizeof *s->marked);
    if (!s->from || !s->rnext || !s->rhead || !s->mark || !s->marked || work_room(s, p->n + 1))
        return -1;
    for (size_t i = 0; i < p->n; i++)
        s->rhead[i] = CC_NONE;
    for (uint32_t i = 0; i < p->n; i++)
        for (uint32_t e = p->node[i].out; e != CC_NONE; e = p->edge[e].next) {
            s->from[e] = i;
            s->rnext[e] = s->rhead[p->edge[e].to];
            s->rhead[p->edge[e].to] = e;
        }
    return 0;
}

/* s->mark = the pass nodes that lead to one of the final nodes fs[0..nf), which are
 * marked 2. */
static void mark_pass(asm_t *s, const uint32_t *fs, size_t nf)
{
    size_t k = 0;
    for (size_t i = 0; i < s->nmarked; i++) /* the last call's marks (no memset of all) */
        s->mark[s->marked[i]] = 0;
    s->nmarked = 0;
    for (size_t i = 0; i < nf; i++) {
        s->mark[fs[i]] = 2;
        s->work[k++] = s->marked[s->nmarked++] = fs[i];
    }
    while (k) {
        uint32_t t = s->work[--k];
        for (uint32_t e = s->rhead[t]; e != CC_NONE; e = s->rnext[e])
            if (!s->mark[s->from[e]]) {
                s->mark[s->from[e]] = 1;
                s->work[k++] = s->marked[s->nmarked++] = s->from[e];
            }
    }
}

static uint32_t rnode_of(refined *r, uint32_t node, uint32_t tuple)
{
    uint64_t key = (uint64_t)node << 32 | tuple;
    uint32_t i = u_map_get(&r->index, key);
    if (i != U_INVALID)
        return i;
    if (U_GROW(r->v, r->cap, r->n))
        return U_INVALID;
    i = (uint32_t)r->n++;
    r->v[i] = (rnode){node, tuple, 0, CC_NONE};
    return u_map_put(&r->index, key, i) ? U_INVALID : i;
}

static int redge_add(refined *r, uint32_t from, uint32_t ev, uint32_t to)
{
    if (U_GROW(r->e, r->ecap, r->ne))
        return -1;
    r->e[r->ne] = (redge){to, ev, r->v[from].out};
    r->v[from].out = (uint32_t)r->ne++;
    return 0;
}

/* The boundary positions of final node f's runs (sorted, distinct): an order's
 * occurrences there name its intervals.  Returns how many. */
static size_t boundaries(const asm_t *s, const cc_pnode *f, uint32_t *pos)
{
    size_t k = 0;
    for (size_t i = 0; i < f->nlab;) {
        uint32_t e = cc_label_event(f->lab[i]), g1 = cc_label_gap(f->lab[i]), g2 = g1;
        for (i++;
             i < f->nlab && cc_label_event(f->lab[i]) == e && cc_label_gap(f->lab[i]) == g2 + 1;
             i++)
            g2++;
        if (g1 > 0)
            pos[k++] = g1 - 1;
        if (g2 < s->n)
            pos[k++] = g2;
    }
    for (size_t i = 1; i < k; i++) /* insertion sort: few positions */
        for (size_t j = i; j > 0 && pos[j - 1] > pos[j]; j--) {
            uint32_t t = pos[j];
            pos[j] = pos[j - 1];
            pos[j - 1] = t;
        }
    size_t w = 0;
    for (size_t i = 0; i < k; i++)
        if (!w || pos[w - 1] != pos[i])
            pos[w++] = pos[i];
    return w;
}

/* The refined nodes of the orders that reach the final pass nodes fs[0..nf) (equal
 * labels: one set of boundary positions): forward from the start over the pass nodes
 * that lead to them, recording the occurrence read at each of the npos boundary
 * positions.  The final nodes are one refined node per record, named fs[0]: their
 * orders' intervals depend on the labels and the record only. */
static int refine(asm_t *s, const uint32_t *fs, size_t nf, const uint32_t *pos, size_t npos,
                  refined *r)
{
    const cc_pass *p = s->p;
    uint32_t *t = malloc((npos + 1) * sizeof *t);
    bool fresh;
    uint32_t empty = u_intern_put(&r->tuples, NULL, 0, &fresh);
    int rc = t && empty != U_INVALID ? 0 : -1;
    mark_pass(s, fs, nf);
    uint32_t start = rc || !s->mark[0] ? U_INVALID : rnode_of(r, 0, empty);
    if (!rc && s->mark[0] && start == U_INVALID)
        rc = -1;
    if (start != U_INVALID)
        r->v[start].count = 1;
    for (uint32_t i = 0; !rc && i < r->n; i++) { /* creation order is by level */
        uint32_t v = r->v[i].node, lvl = level_of(s, v);
        if (!cc_tick(s->c, lvl)) {
            free(t);
            return 1;
        }
        size_t len = u_intern_len(&r->tuples, r->v[i].tuple) / sizeof *t;
        memcpy(t, u_intern_key(&r->tuples, r->v[i].tuple), len * sizeof *t);
        bool record = len < npos && pos[len] == lvl;
        for (uint32_t e = p->node[v].out; e != CC_NONE && !rc; e = p->edge[e].next) {
            uint32_t w = p->edge[e].to, ev = p->edge[e].ev;
            if (!s->mark[w])
                continue;
            uint32_t tuple = r->v[i].tuple;
            if (record) {
                uint32_t k = s->a->k[p->node[w].x];
                t[len] = s->off[ev - 1] + sg_ms_count(s->c->sg, k, ev - 1) - 1;
                tuple = u_intern_put(&r->tuples, t, (len + 1) * sizeof *t, &fresh);
            }
            uint32_t j =
                tuple == U_INVALID ? U_INVALID : rnode_of(r, s->mark[w] == 2 ? fs[0] : w, tuple);
            if (j == U_INVALID || redge_add(r, i, ev, j))
                rc = -1;
            else {
                r->v[j].count += r->v[i].count;
                if (r->v[j].count > 1e300)
                    r->v[j].count = 1e300;
            }
        }
    }
    free(t);
    if (rc)
        return rc;
    r->rhead = malloc((r->n + 1) * sizeof *r->rhead);
    r->rnext = malloc((r->ne + 1) * sizeof *r->rnext);
    r->rfrom = malloc((r->ne + 1) * sizeof *r->rfrom);
    r->mark = malloc(r->n + 1);
    if (!r->rhead || !r->rnext || !r->rfrom || !r->mark || work_room(s, r->n + 1))
        return -1;
    for (size_t i = 0; i < r->n; i++)
        r->rhead[i] = CC_NONE;
    for (uint32_t i = 0; i < r->n; i++)
        for (uint32_t e = r->v[i].out; e != CC_NONE; e = r->e[e].next) {
            r->rfrom[e] = i;
            r->rnext[e] = r->rhead[r->e[e].to];
            r->rhead[r->e[e].to] = e;
        }
    return 0;
}

/* r->mark = the refined nodes that lead to refined node f. */
static void mark_refined(asm_t *s, refined *r, uint32_t f)
{
    size_t k = 0;
    memset(r->mark, 0, r->n);
    r->mark[f] = 1;
    s->work[k++] = f;
    while (k) {
        uint32_t t = s->work[--k];
        for (uint32_t e = r->rhead[t]; e != CC_NONE; e = r->rnext[e])
            if (!r->mark[r->rfrom[e]]) {
                r->mark[r->rfrom[e]] = 1;
                s->work[k++] = r->rfrom[e];
            }
    }
}

/* ---- what a refined final node contributes to its cause ---- */

static int name_cmp(const cc_ctx *c, uint32_t a, uint32_t b)
{
    const char *const *names = c->o->names;
    return names ? strcmp(names[a], names[b]) : (a > b) - (a < b);
}

static int trace_cmp(const cc_ctx *c, const uint32_t *a, const uint32_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int d = name_cmp(c, a[i], b[i]);
        if (d)
            return d;
    }
    return 0;
}

/* The order first by names among the marked refined nodes' paths. */
static void witness(const asm_t *s, const refined *r, uint32_t *w)
{
    uint32_t i = 0;
    for (size_t k = 0; k < s->n; k++) {
        uint32_t best = CC_NONE, to = CC_NONE;
        for (uint32_t e = r->v[i].out; e != CC_NONE; e = r->e[e].next)
            if (r->mark[r->e[e].to] &&
                (best == CC_NONE || name_cmp(s->c, r->e[e].ev - 1, best - 1) < 0)) {
                best = r->e[e].ev;
                to = r->e[e].to;
            }
        w[k] = best - 1; /* marked nodes lead on to the final node: best exists */
        i = to;
    }
}

/* The automaton states of the marked refined nodes into g->xs: OC1 depends on the
 * prefixes' multisets only, which are their automaton states'. */
static void note_states(const asm_t *s, const refined *r, group *g)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->mark[i])
            bit_set(g->xs, (int)s->p->node[r->v[i].node].x);
}

/* g->viol: y precedes x on some order of the group iff some automaton state on the
 * way (g->xs, gathered over the group's refined final nodes) has y among its
 * prefix's occurrences and not x.  Per pair of m's event types (e, f) and count a of
 * e, best = the most f among those states with a of e; then viol((e, i), (f, j)) iff
 * some a < i has best >= j.  Once per group over the union of its states: computed
 * per refined final node this was a third of bakery.4's run. */
static void violations(asm_t *s, group *g)
{
    size_t n = s->n, nt = s->ntypes;
    int *best = s->best;
    bool *viol = g->viol;
    for (size_t i = 0; i < nt * nt * (n + 1); i++)
        best[i] = -1;
    uint32_t *cnt = s->tcnt;
    for (uint32_t x = 0; x < s->a->nx; x++) {
        if (!bit_test(g->xs, (int)x))
            continue;
        sg_ms k = s->a->k[x];
        for (size_t e = 0; e < nt; e++)
            cnt[e] = sg_ms_count(s->c->sg, k, s->types[e]);
        for (size_t e = 0; e < nt; e++)
            for (size_t f = 0; f < nt; f++) {
                int *b = &best[(e * nt + f) * (n + 1) + cnt[e]];
                if ((int)cnt[f] > *b)
                    *b = (int)cnt[f];
            }
    }
    for (size_t e = 0; e < nt; e++)
        for (size_t f = 0; f < nt; f++) {
            uint32_t ce = sg_ms_count(s->c->sg, s->a->m, s->types[e]);
            uint32_t cf = sg_ms_count(s->c->sg, s->a->m, s->types[f]);
            int most = -1; /* over a < i */
            for (uint32_t i = 1; i <= ce; i++) {
                int b = best[(e * nt + f) * (n + 1) + i - 1];
                if (b > most)
                    most = b;
                for (uint32_t j = 1; j <= cf && (int)j <= most; j++)
                    viol[(s->off[s->types[e]] + i - 1) * n + s->off[s->types[f]] + j - 1] = true;
            }
        }
}

static int trace_list_add(cc_trace **list, size_t *n, const uint32_t *ev, size_t len)
{
    cc_trace *v = realloc(*list, (*n + 1) * sizeof *v);
    if (!v)
        return -1;
    *list = v;
    v[*n].ev = malloc((len ? len : 1) * sizeof *ev);
    if (!v[*n].ev)
        return -1;
    if (len)
        memcpy(v[*n].ev, ev, len * sizeof *ev);
    v[*n].n = len;
    (*n)++;
    return 0;
}

/* The first orders by names through the marked refined nodes, depth first, into
 * the group's list (at most *left more). */
static int list_orders(asm_t *s, const refined *r, group *g, uint32_t *path, uint32_t at,
                       size_t depth, size_t *left)
{
    if (!*left)
        return 0;
    if (depth == s->n) {
        (*left)--;
        return trace_list_add(&g->amb, &g->namb, path, depth);
    }
    uint32_t prev = CC_NONE; /* events in name order: repeatedly the next smallest */
    for (;;) {
        uint32_t best = CC_NONE, to = CC_NONE;
        for (uint32_t e = r->v[at].out; e != CC_NONE; e = r->e[e].next) {
            uint32_t ev = r->e[e].ev;
            if (!r->mark[r->e[e].to] || (prev != CC_NONE && name_cmp(s->c, ev - 1, prev - 1) <= 0))
                continue;
            if (best == CC_NONE || name_cmp(s->c, ev - 1, best - 1) < 0) {
                best = ev;
                to = r->e[e].to;
            }
        }
        if (best == CC_NONE)
            return 0;
        path[depth] = best - 1;
        if (list_orders(s, r, g, path, to, depth + 1, left))
            return -1;
        prev = best;
    }
}

static const cc_ctx *sort_ctx; /* qsort has no context argument in C11 */
static size_t sort_len;

static int amb_cmp(const void *x, const void *y)
{
    const cc_trace *a = x, *b = y;
    return trace_cmp(sort_ctx, a->ev, b->ev, sort_len);
}

/* g's listed ambiguous orders: sorted by names, the first AMBIGUOUS_LISTED kept.
 * Each refined final node lists its own first AMBIGUOUS_LISTED, so what is kept is
 * the first of all the group's orders, however its orders were split into nodes
 * (which depends on the pass: before, the group's later nodes listed only what was
 * left and the list depended on the order of the nodes). */
static void amb_trim(const asm_t *s, group *g)
{
    sort_ctx = s->c;
    sort_len = s->n;
    qsort(g->amb, g->namb, sizeof *g->amb, amb_cmp);
    sort_ctx = NULL;
    for (; g->namb > AMBIGUOUS_LISTED; g->namb--)
        free(g->amb[g->namb - 1].ev);
}

/* The group with these intervals (made if new); NULL when out of memory. */
static group *group_of(asm_t *s, ivl *iv, size_t niv)
{
    for (size_t i = 0; i < s->ng; i++)
        if (s->g[i].niv == niv && (!niv || !memcmp(s->g[i].iv, iv, niv * sizeof *iv))) {
            free(iv);
            return &s->g[i];
        }
    if (U_GROW(s->g, s->gcap, s->ng)) {
        free(iv);
        return NULL;
    }
    group *g = &s->g[s->ng++];
    memset(g, 0, sizeof *g);
    g->iv = iv;
    g->niv = niv;
    g->viol = calloc(s->n * s->n + 1, sizeof *g->viol);
    g->xs = bit_alloc((int)s->a->nx + 1);
    return g->viol && g->xs ? g : NULL;
}

/* The intervals of refined final node i: the runs of f's gaps, named by the
 * occurrences recorded at their boundary positions. */
static ivl *intervals_of(const asm_t *s, const refined *r, uint32_t i, const cc_pnode *f,
                         const uint32_t *pos, size_t npos, size_t *niv)
{
    const uint32_t *t = u_intern_key(&r->tuples, r->v[i].tuple);
    ivl *v = malloc((f->nlab + 1) * sizeof *v);
    size_t k = 0;
    for (size_t a = 0; v && a < f->nlab;) {
        uint32_t e = cc_label_event(f->lab[a]), g1 = cc_label_gap(f->lab[a]), g2 = g1;
        for (a++;
             a < f->nlab && cc_label_event(f->lab[a]) == e && cc_label_gap(f->lab[a]) == g2 + 1;
             a++)
            g2++;
        uint32_t after = NOOCC, before = NOOCC;
        for (size_t j = 0; j < npos; j++) {
            if (g1 > 0 && pos[j] == g1 - 1)
                after = t[j];
            if (g2 < s->n && pos[j] == g2)
                before = t[j];
        }
        v[k++] = (ivl){e, after, before};
    }
    if (v)
        qsort(v, k, sizeof *v, ivl_cmp);
    *niv = k;
    return v;
}

/* Final pass nodes fs[0..nf) with equal labels and ambiguity:
 * their orders, split by their intervals, into the groups. */
static int place_final(asm_t *s, const uint32_t *fs, size_t nf)
{
    uint32_t f = fs[0];
    const cc_pnode *fn = &s->p->node[f];
    uint32_t *pos = malloc((2 * fn->nlab + 1) * sizeof *pos);
    uint32_t *w = malloc((s->n + 1) * sizeof *w);
    refined r = {0};
    int rc = pos && w ? 0 : -1;
    size_t npos = rc ? 0 : boundaries(s, fn, pos);
    if (!rc)
        rc = refine(s, fs, nf, pos, npos, &r);
    for (uint32_t i = 0; !rc && i < r.n; i++) {
        if (r.v[i].node != f)
            continue;
        size_t niv;
        ivl *iv = intervals_of(s, &r, i, fn, pos, npos, &niv);
        group *g = iv ? group_of(s, iv, niv) : NULL;
        if (!g) {
            rc = -1;
            break;
        }
        mark_refined(s, &r, i);
        g->count += r.v[i].count;
        note_states(s, &r, g);
        witness(s, &r, w);
        if (!g->witness || trace_cmp(s->c, w, g->witness, s->n) < 0) {
            if (!g->witness && !(g->witness = malloc((s->n + 1) * sizeof *w))) {
                rc = -1;
                break;
            }
            memcpy(g->witness, w, s->n * sizeof *w);
        }
        if (fn->ambiguous) {
            size_t left = AMBIGUOUS_LISTED;
            g->ambiguous = true;
            g->nambiguous += r.v[i].count;
            rc = list_orders(s, &r, g, w, 0, 0, &left);
            if (!rc && g->namb > AMBIGUOUS_LISTED)
                amb_trim(s, g);
        }
    }
    refined_free(&r);
    free(pos);
    free(w);
    return rc;
}

/* Every final pass node into the groups.  Final nodes with equal labels and
 * ambiguity are placed together, one refined pass for all (bakery.4: thousands of
 * final nodes share a handful of label sets, and a refined pass per final node
 * walked the pass graph each time). */
static int place_finals(asm_t *s, bool *partial)
{
    const cc_pass *p = s->p;
    u_intern sets = {0};
    uint32_t *gid = malloc((p->n + 1) * sizeof *gid), *start = NULL, *list = NULL;
    uint64_t *key = NULL;
    size_t keycap = 0, ngid = 0;
    int rc = gid ? 0 : -1;
    for (uint32_t i = 0; !rc && i < p->n; i++) {
        gid[i] = U_INVALID;
        const cc_pnode *f = &p->node[i];
        if (!s->a->final[f->x])
            continue;
        size_t n = f->nlab + 1;
        if (n > keycap) {
            uint64_t *v = realloc(key, n * sizeof *v);
            if (!v) {
                rc = -1;
                break;
            }
            key = v;
            keycap = n;
        }
        key[0] = f->ambiguous;
        if (f->nlab)
            memcpy(key + 1, f->lab, f->nlab * sizeof *key);
        bool fresh;
        gid[i] = u_intern_put(&sets, key, n * sizeof *key, &fresh);
        if (gid[i] == U_INVALID)
            rc = -1;
        else if (fresh)
            ngid++;
    }
    start = calloc(ngid + 2, sizeof *start); /* finals grouped by set, in node order */
    list = malloc((p->n + 1) * sizeof *list);
    if (!rc && (!start || !list))
        rc = -1;
    for (uint32_t i = 0; !rc && i < p->n; i++)
        if (gid[i] != U_INVALID)
            start[gid[i] + 2]++;
    for (size_t g = 2; !rc && g < ngid + 2; g++)
        start[g] += start[g - 1];
    for (uint32_t i = 0; !rc && i < p->n; i++)
        if (gid[i] != U_INVALID)
            list[start[gid[i] + 1]++] = i;
    for (size_t g = 0; !rc && g < ngid; g++) { /* sets in order of their first node */
        rc = place_final(s, list + start[g], start[g + 1] - start[g]);
        *partial |= rc == 1;
        if (rc == 1)
            rc = 0;
    }
    free(gid);
    free(start);
    free(list);
    free(key);
    u_intern_free(&sets);
    return rc;
}

/* ---- from a group to a cause ---- */

/* The good witness of a non-occurrence is a black node of the subset graph. */
static int add_black(cc_ctx *c, const uint32_t *ev, size_t n)
{
    sg_node node = 0;
    for (size_t i = 0; i < n && node != SG_INVALID; i++)
        node = sg_child(c->sg, node, ev[i]);
    return node == SG_INVALID || sg_add(c->sg, node, false) == SG_NONE ? -1 : 0;
}

static int build_cause(asm_t *s, group *g, bool incomplete, cc_cause *k)
{
    cc_ctx *c = s->c;
    size_t n = s->n;
    memset(k, 0, sizeof *k);
    uint32_t *pos_of = malloc((n + 1) * sizeof *pos_of), *cnt = calloc(s->nevents + 1, 4);
    k->occ = malloc((n + 1) * sizeof *k->occ);
    k->ordered = calloc(n * n + 1, sizeof *k->ordered);
    k->absent = malloc((g->niv + 1) * sizeof *k->absent);
    int rc = pos_of && cnt && k->occ && k->ordered && k->absent ? 0 : -1;
    for (size_t i = 0; !rc && i < n; i++) { /* occurrences in witness order */
        uint32_t e = g->witness[i];
        k->occ[i] = (cc_occ){e, ++cnt[e]};
        pos_of[s->off[e] + k->occ[i].occ - 1] = (uint32_t)i;
    }
    for (size_t i = 0; !rc && i < n; i++)
        for (size_t j = 0; j < n; j++) {
            uint32_t x = s->off[k->occ[i].event] + k->occ[i].occ - 1;
            uint32_t y = s->off[k->occ[j].event] + k->occ[j].occ - 1;
            k->ordered[i * n + j] = i != j && !g->viol[x * n + y];
        }
    for (size_t i = 0; !rc && i < g->niv; i++)
        k->absent[i] =
            (cc_absent){g->iv[i].event, g->iv[i].after == NOOCC ? -1 : (int)pos_of[g->iv[i].after],
                        g->iv[i].before == NOOCC ? -1 : (int)pos_of[g->iv[i].before]};
    if (!rc) {
        k->nocc = n;
        k->nabsent = g->niv;
        k->ntraces = g->count;
        k->ambiguous = g->ambiguous;
        k->nambiguous = g->nambiguous;
        k->ac22_incomplete = incomplete;
        if (g->niv) /* a non-occurrence is causal: show the good run that has it */
            rc = cc_good_witness(c, g->witness, n, s->nevents, &k->good, &k->ngood);
        if (!rc && k->good)
            rc = add_black(c, k->good, k->ngood);
    }
    if (!rc && g->namb) { /* the first listed by names */
        amb_trim(s, g);
        for (size_t i = 0; i < g->namb && !rc; i++)
            rc = trace_list_add(&c->r->ambiguous, &c->r->nambiguous, g->amb[i].ev, n);
    }
    free(pos_of);
    free(cnt);
    return rc;
}

static void free_groups(group *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(g[i].iv);
        free(g[i].viol);
        free(g[i].xs);
        free(g[i].witness);
        for (size_t t = 0; t < g[i].namb; t++)
            free(g[i].amb[t].ev);
        free(g[i].amb);
    }
    free(g);
}

static int add_cause(cc_result *r, size_t *cap)
{
    if (r->ncauses < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 16;
    cc_cause *v = realloc(r->causes, c * sizeof *v);
    if (!v)
        return -1;
    r->causes = v;
    *cap = c;
    return 0;
}

/* m's event types, compactly numbered, and its occurrence ids. */
static int layout(asm_t *s, sg_ms m)
{
    s->off = calloc(s->nevents + 1, sizeof *s->off);
    s->types = malloc((s->nevents + 1) * sizeof *s->types);
    s->tcnt = malloc((s->nevents + 1) * sizeof *s->tcnt);
    if (!s->off || !s->types || !s->tcnt)
        return -1;
    for (uint32_t e = 0, o = 0; e < s->nevents; e++) {
        uint32_t k = sg_ms_count(s->c->sg, m, e);
        s->off[e] = o;
        o += k;
        if (k)
            s->types[s->ntypes++] = e;
    }
    s->best = malloc(((size_t)s->ntypes * s->ntypes * (s->n + 1) + 1) * sizeof *s->best);
    return s->best ? 0 : -1;
}

/* The AC2(2) pass over m's orders with a share of what is left of the phase's
 * budget; the share stays set (c->soft) for placing the pass's final nodes, which
 * ticks too (causes_of).  A pass that uses up its share is replaced by the pass
 * without extras (orders, counts and OC1 only, as --no-ac2): the cause is still
 * reported, its non-occurrences marked undecided, and the other multisets get their
 * turn.  The share is room / (left + 1), not room / left: the last multiset's share
 * must not be the whole rest, or its pass meets the phase's own budget first and no
 * room is left for the replacement (BEEM krebs.2, one multiset, listed no cause). */
static int pass_with_share(cc_ctx *c, const cc_oaut *a, size_t nevents, size_t left, cc_pass *p,
                           bool *cut)
{
    *cut = false;
    if (!c->o->ac2)
        return cc_ac22_pass(c, a, nevents, false, p);
    size_t room = c->budget > c->ticks ? c->budget - c->ticks : 0;
    c->soft = c->budget == SIZE_MAX ? 0 : c->ticks + room / (left + 1) + 1;
    c->soft_hit = false;
    int rc = cc_ac22_pass(c, a, nevents, true, p);
    if (c->soft_hit) {
        cc_pass_free(p);
        *cut = true;
        c->soft = 0;
        c->soft_hit = false;
        rc = cc_ac22_pass(c, a, nevents, false, p);
    }
    return rc;
}

static void asm_free(asm_t *s)
{
    free_groups(s->g, s->ng);
    free(s->off);
    free(s->types);
    free(s->tcnt);
    free(s->best);
    free(s->from);
    free(s->rnext);
    free(s->rhead);
    free(s->mark);
    free(s->marked);
    free(s->work);
    *s = (asm_t){.c = s->c, .nevents = s->nevents, .n = s->n, .a = s->a, .p = s->p};
}

/* The pass's final nodes into groups. */
static int place(asm_t *s, sg_ms m, bool *partial)
{
    int rc = 0;
    if (s->p->n)
        rc = layout(s, m) || reverse_edges(s);
    if (!rc && s->p->n)
        rc = place_finals(s, partial);
    return rc;
}

/* The causes of one minimal bad multiset m; `left` multisets (m included) are
 * still to do. */
static int causes_of(cc_ctx *c, sg_ms m, size_t nevents, size_t *cap, size_t left)
{
    cc_oaut a;
    cc_pass p = {0};
    asm_t s = {.c = c, .nevents = nevents, .n = sg_ms_size(c->sg, m), .a = &a, .p = &p};
    int rc = cc_oaut_build(c, m, &a);
    bool partial = rc == 1, cut = false;
    if (!rc)
        rc = pass_with_share(c, &a, nevents, left, &p, &cut);
    partial |= rc == 1 || cut;
    size_t before = c->r->ncauses;
    if (rc == 1)
        rc = 0; /* the budget ran out: the causes of the part the pass covered */
    if (!rc)
        rc = place(&s, m, &partial);
    if (!rc && c->soft_hit) { /* placing used up the share: as if the pass had */
        asm_free(&s);
        cc_pass_free(&p);
        c->soft = 0;
        c->soft_hit = false;
        cut = partial = true;
        rc = cc_ac22_pass(c, &a, nevents, false, &p);
        if (rc == 1)
            rc = 0;
        if (!rc)
            rc = place(&s, m, &partial);
    }
    c->soft = 0;
    for (size_t i = 0; i < s.ng && !rc; i++) {
        if (!s.g[i].witness || (rc = add_cause(c->r, cap)))
            continue;
        violations(&s, &s.g[i]);
        rc = build_cause(&s, &s.g[i], partial, &c->r->causes[c->r->ncauses++]);
    }
    if (cut)
        c->r->ac22_cut += c->r->ncauses - before;
    asm_free(&s);
    cc_pass_free(&p);
    cc_oaut_free(&a);
    return rc;
}

static int list_uncaused(cc_ctx *c)
{
    const sg_node *nodes;
    size_t n = sg_list(c->sg, SG_GREY, &nodes);
    for (size_t i = 0; i < n; i++) {
        size_t len = sg_level(c->sg, nodes[i]);
        uint32_t *ev = malloc((len ? len : 1) * sizeof *ev);
        if (!ev)
            return -1;
        sg_trace(c->sg, nodes[i], ev);
        int rc = trace_list_add(&c->r->uncaused, &c->r->nuncaused, ev, len);
        free(ev);
        if (rc)
            return -1;
    }
    return 0;
}

static const char *const *sort_names;

/* Causes by size, then by their witness's event names. */
static int cause_cmp(const void *x, const void *y)
{
    const cc_cause *a = x, *b = y;
    if (a->nocc != b->nocc)
        return a->nocc < b->nocc ? -1 : 1;
    for (size_t i = 0; i < a->nocc; i++) {
        uint32_t ea = a->occ[i].event, eb = b->occ[i].event;
        int d = sort_names ? strcmp(sort_names[ea], sort_names[eb]) : (ea > eb) - (ea < eb);
        if (d)
            return d;
    }
    return (a->nabsent > b->nabsent) - (a->nabsent < b->nabsent);
}

int cc_assemble(cc_ctx *c, size_t nevents)
{
    const sg_node *reds;
    size_t nred = sg_list(c->sg, SG_RED, &reds), k = 0, cap = 0;
    sg_ms *ms = malloc((nred ? nred : 1) * sizeof *ms);
    int rc = ms ? 0 : -1;
    for (size_t i = 0; i < nred && !rc; i++) { /* the list moves as causes add nodes: copy */
        sg_ms m = sg_multiset(c->sg, reds[i]);
        bool seen = false;
        for (size_t j = 0; j < k && !seen; j++)
            seen = ms[j] == m;
        if (!seen)
            ms[k++] = m;
    }
    cc_phase(c, "AC2(2) and causes");
    for (size_t i = 0; i < k && !rc; i++)
        rc = causes_of(c, ms[i], nevents, &cap, k - i);
    free(ms);
    if (!rc && c->r->ncauses > 1) {
        sort_names = c->o->names;
        qsort(c->r->causes, c->r->ncauses, sizeof *c->r->causes, cause_cmp);
        sort_names = NULL;
    }
    if (!rc)
        rc = list_uncaused(c);
    return rc;
}
