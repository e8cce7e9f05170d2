/*
 * cc_cause.c - from minimal bad multisets to causes (Def. 10 intervals, grouping,
 * OC1), for all orders of each multiset at once.
 *
 * For every multiset of a red trace (AC1, AC2(1), AC3 hold: cc_explore.c) the orders
 * automaton is built (cc_orders.c) and the AC2(2) pass runs over it (cc_ac22.c).
 * Every order is one path of the pass, and each node of the pass carries the
 * prohibited gaps of its gap (labels).  Per event an order's labelled gaps are
 * merged into maximal runs of adjacent gaps and named by the occurrences that bound
 * them (the order's occurrence before the run's first gap and the one after its
 * last), which makes them independent of where those occurrences sit in a
 * particular order.  A refined pass follows the pass's paths forward and keeps, per
 * path, its runs so far (a refined node: pass node + the intervals so far, the open
 * ones named by their first bound only); a path's intervals are its cause's, so a
 * pass node has at most as many refined nodes as causes its orders end in.  Each
 * refined final node has one set of intervals; orders with the same multiset and
 * the same intervals are one cause.  Of a cause, over the refined nodes that lead to
 * its refined final nodes:
 *   - the number of orders: the path counts of those final nodes, summed (an order
 *     is exactly one path);
 *   - OC1: occurrence x precedes y on every order unless some node on the way has y
 *     and not yet x among its prefix's occurrences (a reachability question, answered
 *     from the nodes' multisets without following any order);
 *   - the witness: the order first by event names, by a greedy walk (all orders are
 *     equally long, so the smallest prefix at each step leads to the smallest order);
 *     the pass is not deterministic, so the walk follows the set of nodes a prefix
 *     reaches;
 *   - ambiguity (a final node has a good run with the order's very trace): the
 *     orders through such final nodes are listed, first by names, up to
 *     AMBIGUOUS_LISTED per cause.
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>
#include <pthread.h>

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
    uint32_t *off;  /* per event type: its first occurrence id */
    uint32_t *work; /* a stack over refined nodes */
    size_t workcap;
    group *g;
    size_t ng, gcap;
    uint32_t *types, ntypes; /* m's event types, numbered compactly */
    uint32_t *tcnt;          /* per compact type: a count (violations) */
    int *best;               /* the OC1 table (violations) */
} asm_t;

/* ---- the refined pass: the pass's paths with their intervals so far ---- */

#define OPEN (UINT32_MAX - 1) /* interval bound: the run of gaps goes on */

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
    size_t n, cap, nstart; /* nodes 0 .. nstart - 1: over the pass's start nodes */
    redge *e;
    size_t ne, ecap;
    uint32_t *rhead, *rnext, *rfrom; /* edges reversed */
    uint8_t *mark;                   /* leads to the refined final nodes at hand */
    u_map index;                     /* (node << 32 | tuple) -> refined node */
    u_intern tuples;                 /* the intervals so far: ivl arrays, sorted */
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

/* Whether pass node v has a label of event e (its labels are all at its gap, so
 * ascending by event). */
static bool has_label(const cc_pnode *v, uint32_t e)
{
    /* the smallest label word of event e (gap 0) is below every other label of e */
    size_t lo = u_lower64(v->lab, v->nlab, CC_LABEL_BIT | (uint64_t)e << 32);
    return lo < v->nlab && cc_label_event(v->lab[lo]) == e;
}

/* The intervals after moving from pass node v (intervals t[0..n)) to w by reading
 * occurrence o: a run of v's gaps that w's gap does not continue ends before o, a
 * label of w that v lacks starts a run after o.  Into out (room for n + w's labels),
 * sorted; returns how many.  v NULL: the start, before any occurrence. */
static size_t advance(const cc_pnode *v, const ivl *t, size_t n, const cc_pnode *w, uint32_t o,
                      ivl *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        out[k] = t[i];
        if (t[i].before == OPEN && !has_label(w, t[i].event))
            out[k].before = o;
        k++;
    }
    for (size_t i = 0; i < w->nlab; i++) {
        uint32_t e = cc_label_event(w->lab[i]);
        if (!v || !has_label(v, e))
            out[k++] = (ivl){e, o, OPEN};
    }
    qsort(out, k, sizeof *out, ivl_cmp);
    return k;
}

/* Every path of the pass, split by its intervals so far: forward from the start
 * nodes, a refined node is (pass node, the intervals of the path's runs of labelled
 * gaps, closed ones named by the occurrences around them, open ones by the one
 * before).  Each order is one path of the pass, so one path here, and its intervals
 * at its final node are the cause's.  Refined nodes over one pass node are at most
 * the causes its orders end in: a path's closed intervals and the starts of its open
 * ones all stay in its cause. */
static int refine(asm_t *s, refined *r)
{
    const cc_pass *p = s->p;
    size_t cap = 0;
    ivl *t = NULL, *u = NULL;
    bool fresh;
    int rc = 0;
    for (uint32_t v = 0; !rc && v < p->nstart && v < p->n; v++) {
        const cc_pnode *nd = &p->node[v];
        ivl *w = malloc((nd->nlab + 1) * sizeof *w);
        size_t k = w ? advance(NULL, NULL, 0, nd, NOOCC, w) : 0;
        uint32_t tuple = w ? u_intern_put(&r->tuples, w, k * sizeof *w, &fresh) : U_INVALID;
        uint32_t j = tuple == U_INVALID ? U_INVALID : rnode_of(r, v, tuple);
        free(w);
        if (j == U_INVALID)
            rc = -1;
        else
            r->v[j].count += 1;
    }
    r->nstart = r->n;
    for (uint32_t i = 0; !rc && i < r->n; i++) { /* creation order is by level */
        uint32_t v = r->v[i].node;
        if (!cc_tick(s->c, level_of(s, v))) {
            rc = 1;
            break;
        }
        size_t len = u_intern_len(&r->tuples, r->v[i].tuple) / sizeof *t;
        for (uint32_t e = p->node[v].out; e != CC_NONE && !rc; e = p->edge[e].next) {
            uint32_t w = p->edge[e].to, ev = p->edge[e].ev;
            size_t need = len + p->node[w].nlab + 1;
            if (need > cap) {
                ivl *a = realloc(t, need * sizeof *a), *b = a ? realloc(u, need * sizeof *b) : NULL;
                if (a)
                    t = a;
                if (b)
                    u = b;
                if (!a || !b) {
                    rc = -1;
                    break;
                }
                cap = need;
            }
            memcpy(t, u_intern_key(&r->tuples, r->v[i].tuple), len * sizeof *t);
            uint32_t o = s->off[ev - 1] + sg_ms_count(s->c->sg, s->a->k[p->node[w].x], ev - 1) - 1;
            size_t k = advance(&p->node[v], t, len, &p->node[w], o, u);
            uint32_t tuple = u_intern_put(&r->tuples, u, k * sizeof *u, &fresh);
            uint32_t j = tuple == U_INVALID ? U_INVALID : rnode_of(r, w, tuple);
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
    free(u);
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

/* r->mark = the refined nodes that lead to one of fs[0..nf). */
static void mark_refined(asm_t *s, refined *r, const uint32_t *fs, size_t nf)
{
    size_t k = 0;
    memset(r->mark, 0, r->n);
    for (size_t i = 0; i < nf; i++) {
        r->mark[fs[i]] = 1;
        s->work[k++] = fs[i];
    }
    while (k) {
        uint32_t t = s->work[--k];
        for (uint32_t e = r->rhead[t]; e != CC_NONE; e = r->rnext[e])
            if (!r->mark[r->rfrom[e]]) {
                r->mark[r->rfrom[e]] = 1;
                s->work[k++] = r->rfrom[e];
            }
    }
}

/* ---- what a cause's refined final nodes contribute ---- */

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

/* The pass is not deterministic (a prefix may be on its way to several nodes over
 * one pass 1 node, told apart by what follows), so the walks over orders below
 * follow sets of marked refined nodes: the nodes one prefix reaches. */

/* The marked targets of set[0..n)'s moves by event ev into out (distinct; seen is
 * all 0 before and after); returns how many. */
static size_t successors(const refined *r, const uint32_t *set, size_t n, uint32_t ev,
                         uint32_t *out, uint8_t *seen)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (uint32_t e = r->v[set[i]].out; e != CC_NONE; e = r->e[e].next)
            if (r->e[e].ev == ev && r->mark[r->e[e].to] && !seen[r->e[e].to]) {
                seen[r->e[e].to] = 1;
                out[k++] = r->e[e].to;
            }
    for (size_t i = 0; i < k; i++)
        seen[out[i]] = 0;
    return k;
}

/* The smallest event by names after `prev` (CC_NONE: any) on a marked move of
 * set[0..n); CC_NONE when there is none. */
static uint32_t next_event(const asm_t *s, const refined *r, const uint32_t *set, size_t n,
                           uint32_t prev)
{
    uint32_t best = CC_NONE;
    for (size_t i = 0; i < n; i++)
        for (uint32_t e = r->v[set[i]].out; e != CC_NONE; e = r->e[e].next) {
            uint32_t ev = r->e[e].ev;
            if (!r->mark[r->e[e].to] || (prev != CC_NONE && name_cmp(s->c, ev - 1, prev - 1) <= 0))
                continue;
            if (best == CC_NONE || name_cmp(s->c, ev - 1, best - 1) < 0)
                best = ev;
        }
    return best;
}

/* The marked start nodes into set; returns how many. */
static size_t starts(const refined *r, uint32_t *set)
{
    size_t k = 0;
    for (uint32_t i = 0; i < r->nstart; i++)
        if (r->mark[i])
            set[k++] = i;
    return k;
}

/* The order first by names among the marked refined nodes' paths (all orders are
 * equally long and every marked node leads on, so the smallest event at each step
 * leads to the smallest order). */
static int witness(const asm_t *s, const refined *r, uint32_t *w)
{
    uint32_t *a = malloc((r->n + 1) * sizeof *a), *b = malloc((r->n + 1) * sizeof *b);
    uint8_t *seen = calloc(r->n + 1, 1);
    int rc = a && b && seen ? 0 : -1;
    size_t n = rc ? 0 : starts(r, a);
    for (size_t k = 0; !rc && k < s->n; k++) {
        uint32_t best = next_event(s, r, a, n, CC_NONE);
        w[k] = best - 1; /* marked nodes lead on to a marked final node: best exists */
        n = successors(r, a, n, best, b, seen);
        uint32_t *t = a;
        a = b;
        b = t;
    }
    free(a);
    free(b);
    free(seen);
    return rc;
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

/* The first orders by names through the marked refined nodes, depth first from the
 * prefix's nodes set[0..n), into the group's list (at most *left more). */
static int list_orders(asm_t *s, const refined *r, group *g, uint32_t *path, const uint32_t *set,
                       size_t n, size_t depth, size_t *left, uint8_t *seen)
{
    if (!*left)
        return 0;
    if (depth == s->n) {
        (*left)--;
        return trace_list_add(&g->amb, &g->namb, path, depth);
    }
    uint32_t *next = malloc((r->n + 1) * sizeof *next);
    if (!next)
        return -1;
    int rc = 0;
    for (uint32_t ev = next_event(s, r, set, n, CC_NONE); ev != CC_NONE && !rc && *left;
         ev = next_event(s, r, set, n, ev)) { /* events in name order */
        path[depth] = ev - 1;
        size_t k = successors(r, set, n, ev, next, seen);
        rc = list_orders(s, r, g, path, next, k, depth + 1, left, seen);
    }
    free(next);
    return rc;
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

/* The intervals of refined final node i: its runs, the open ones ending with the
 * trace. */
static ivl *intervals_of(const refined *r, uint32_t i, size_t *niv)
{
    size_t n = u_intern_len(&r->tuples, r->v[i].tuple) / sizeof(ivl);
    ivl *v = malloc((n + 1) * sizeof *v);
    if (!v)
        return NULL;
    if (n)
        memcpy(v, u_intern_key(&r->tuples, r->v[i].tuple), n * sizeof *v);
    for (size_t k = 0; k < n; k++)
        if (v[k].before == OPEN)
            v[k].before = NOOCC;
    qsort(v, n, sizeof *v, ivl_cmp);
    *niv = n;
    return v;
}

/* One group's refined final nodes fs[0..nf), of which those over an ambiguous final
 * pass node are amb[0..na): count, states, witness, ambiguous orders. */
static int place_group(asm_t *s, refined *r, group *g, const uint32_t *fs, size_t nf,
                       const uint32_t *amb, size_t na)
{
    uint32_t *w = malloc((s->n + 1) * sizeof *w), *set = malloc((r->n + 1) * sizeof *set);
    uint8_t *seen = calloc(r->n + 1, 1);
    int rc = w && set && seen ? 0 : -1;
    if (!rc) {
        mark_refined(s, r, fs, nf);
        for (size_t i = 0; i < nf; i++)
            g->count += r->v[fs[i]].count;
        note_states(s, r, g);
        rc = witness(s, r, w);
    }
    if (!rc) {
        if (!(g->witness = malloc((s->n + 1) * sizeof *w)))
            rc = -1;
        else
            memcpy(g->witness, w, s->n * sizeof *w);
    }
    if (!rc && na) {
        size_t left = AMBIGUOUS_LISTED;
        g->ambiguous = true;
        for (size_t i = 0; i < na; i++)
            g->nambiguous += r->v[amb[i]].count;
        mark_refined(s, r, amb, na);
        rc = list_orders(s, r, g, w, set, starts(r, set), 0, &left, seen);
    }
    free(w);
    free(set);
    free(seen);
    return rc;
}

/* Every order of the pass into the groups: the refined pass, then per group (the
 * intervals of a refined final node) its refined final nodes at once. */
static int place_all(asm_t *s, bool *partial)
{
    refined r = {0};
    int rc = work_room(s, 1) ? -1 : refine(s, &r);
    uint32_t *gid = NULL, *start = NULL, *list = NULL, *amb = NULL;
    size_t nfin = 0;
    if (rc == 1) { /* the budget ran out: nothing is placed */
        *partial = true;
        refined_free(&r);
        return 0;
    }
    if (!rc && !(gid = malloc((r.n + 1) * sizeof *gid)))
        rc = -1;
    for (uint32_t i = 0; !rc && i < r.n; i++) {
        gid[i] = U_INVALID;
        if (!s->a->final[s->p->node[r.v[i].node].x])
            continue;
        size_t niv;
        ivl *iv = intervals_of(&r, i, &niv);
        group *g = iv ? group_of(s, iv, niv) : NULL;
        if (!g)
            rc = -1;
        else
            gid[i] = (uint32_t)(g - s->g), nfin++;
    }
    start = rc ? NULL : calloc(s->ng + 2, sizeof *start); /* finals by group */
    list = rc ? NULL : malloc((nfin + 1) * sizeof *list);
    amb = rc ? NULL : malloc((nfin + 1) * sizeof *amb);
    if (!rc && (!start || !list || !amb))
        rc = -1;
    for (uint32_t i = 0; !rc && i < r.n; i++)
        if (gid[i] != U_INVALID)
            start[gid[i] + 2]++;
    for (size_t g = 2; !rc && g < s->ng + 2; g++)
        start[g] += start[g - 1];
    for (uint32_t i = 0; !rc && i < r.n; i++)
        if (gid[i] != U_INVALID)
            list[start[gid[i] + 1]++] = i;
    for (size_t g = 0; !rc && g < s->ng; g++) {
        const uint32_t *fs = list + start[g];
        size_t nf = start[g + 1] - start[g], na = 0;
        for (size_t i = 0; i < nf; i++)
            if (s->p->node[r.v[fs[i]].node].ambiguous)
                amb[na++] = fs[i];
        rc = place_group(s, &r, &s->g[g], fs, nf, amb, na);
    }
    if (!rc)
        for (size_t g = 0; g < s->ng; g++)
            if (s->g[g].namb > AMBIGUOUS_LISTED)
                amb_trim(s, &s->g[g]);
    refined_free(&r);
    free(gid);
    free(start);
    free(list);
    free(amb);
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
    free(s->work);
    *s = (asm_t){.c = s->c, .nevents = s->nevents, .n = s->n, .a = s->a, .p = s->p};
}

/* The pass's final nodes into groups. */
static int place(asm_t *s, sg_ms m, bool *partial)
{
    int rc = 0;
    if (s->p->n)
        rc = layout(s, m);
    if (!rc && s->p->n)
        rc = place_all(s, partial);
    return rc;
}

static const cc_ctx *group_ctx; /* qsort has no context argument in C11 */
static size_t group_len;

/* A multiset's groups by their witnesses' names (distinct: a group's witness is
 * one of its own orders), those without a witness last.  The groups are made in
 * the order the refined pass meets them, which depends on the pass's numbering;
 * the causes are sorted in the end anyway, but the list of ambiguous orders
 * follows the groups. */
static int group_cmp(const void *x, const void *y)
{
    const group *a = x, *b = y;
    if (!a->witness || !b->witness)
        return !a->witness - !b->witness;
    return trace_cmp(group_ctx, a->witness, b->witness, group_len);
}

/* The causes of one minimal bad multiset m from its orders automaton *a (freed
 * here), which its build left with status rc (cc_oaut_make); `left` multisets (m
 * included) are still to do. */
static int causes_of(cc_ctx *c, sg_ms m, cc_oaut *a, int rc, size_t nevents, size_t *cap,
                     size_t left)
{
    cc_pass p = {0};
    asm_t s = {.c = c, .nevents = nevents, .n = sg_ms_size(c->sg, m), .a = a, .p = &p};
    if (rc == 1)
        cc_truncate(c);
    if (!rc)
        rc = cc_oaut_resolve(c, a);
    bool partial = rc == 1, cut = false;
    if (!rc)
        rc = pass_with_share(c, a, nevents, left, &p, &cut);
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
        rc = cc_ac22_pass(c, a, nevents, false, &p);
        if (rc == 1)
            rc = 0;
        if (!rc)
            rc = place(&s, m, &partial);
    }
    c->soft = 0;
    if (s.ng > 1) { /* the ambiguous orders are listed in this order */
        group_ctx = c;
        group_len = s.n;
        qsort(s.g, s.ng, sizeof *s.g, group_cmp);
        group_ctx = NULL;
    }
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
    cc_oaut_free(a);
    return rc;
}

/* ---- the orders automata, built ahead on a second thread ---- */

/* While this thread runs the history search and then the AC2(2) passes, a second
 * one builds the minimal bad multisets' orders automata (cc_orders.c), in the order
 * the multisets are found: they need nothing a pass computes, and a multiset is
 * final once the history search finds it (its red trace is final when added), so
 * the builds can start during that search.  cc_ahead_offer() hands over the
 * multisets found so far (the history search calls it after each level), and the
 * passes take the automata in turn.  At most LOOKAHEAD automata wait beyond the one
 * in use; one D_m is being built at a time.  The builder reads only what no pass
 * writes (cc_obuild: the sealed graph and the derived flags; the multisets' events
 * are copied when offered), has its own per-state heads, and counts its nodes
 * against its own budget (ten times --budget, as the later phases), so nothing
 * depends on the threads' timing.  With one_thread (`./pan -C --one-thread`), or when
 * no thread can be started, each automaton is built here when its turn comes, with
 * the same results.
 *
 *   cc_ahead_start --> builder: for i: wait until a[i] is offered and i <= taken +
 *                      LOOKAHEAD (or stop, or closed with no a[i]); build it; done = i + 1
 *   cc_ahead_offer --> appends the new red multisets (k grows), signals
 *   take(i)        --> closed, taken = i, signals, waits until done > i: a[i], status
 *   cc_ahead_end   --> stop, signal, join, free; the builder's figures into the result
 * Invariants: the arrays hold k multisets, in the order sg_list(SG_RED) first shows
 * them; they grow only on this thread and only under mu; a[i] and rc[i] are written
 * under mu by whoever built them (i < done), read under mu by take. */
#define LOOKAHEAD 4

struct cc_ahead {
    cc_ctx *c;
    cc_obuild b;
    sg_ms *ms;
    uint32_t **ev, **cnt, *n; /* per multiset: its events (sg_ms_events) */
    cc_oaut *a;
    int *rc;
    size_t k, cap;
    size_t seen;        /* red trace nodes looked at by cc_ahead_offer */
    size_t done, taken; /* a[0 .. done) are built; the passes work on a[taken] */
    bool closed, stop, threaded;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t th;
};

static void *builder(void *arg)
{
    struct cc_ahead *h = arg;
    for (size_t i = 0;; i++) {
        pthread_mutex_lock(&h->mu);
        while (!h->stop && (i < h->k ? i > h->taken + LOOKAHEAD : !h->closed))
            pthread_cond_wait(&h->cv, &h->mu);
        bool go = !h->stop && i < h->k;
        sg_ms m = go ? h->ms[i] : 0;
        const uint32_t *ev = go ? h->ev[i] : NULL, *cnt = go ? h->cnt[i] : NULL;
        uint32_t n = go ? h->n[i] : 0;
        pthread_mutex_unlock(&h->mu);
        if (!go)
            break;
        cc_oaut a;
        int rc = cc_oaut_make(&h->b, m, ev, cnt, n, &a);
        pthread_mutex_lock(&h->mu);
        h->a[i] = a;
        h->rc[i] = rc;
        h->done = i + 1;
        pthread_cond_broadcast(&h->cv);
        pthread_mutex_unlock(&h->mu);
    }
    return NULL;
}

int cc_ahead_start(cc_ctx *c)
{
    struct cc_ahead *h = calloc(1, sizeof *h);
    if (!h)
        return -1;
    c->ahead = h;
    h->c = c;
    h->b = (cc_obuild){.c = c, .budget = cc_later_budget(c->o)};
    if (c->o->one_thread)
        return (h->b.heads = cc_heads(c)) ? 0 : -1;
    size_t words = c->g->n + 1;
    if (!(h->b.heads = malloc(words * sizeof *h->b.heads)))
        return -1;
    memset(h->b.heads, 0xff, words * sizeof *h->b.heads); /* CC_NONE */
    if (pthread_mutex_init(&h->mu, NULL))
        return 0;
    if (pthread_cond_init(&h->cv, NULL)) {
        pthread_mutex_destroy(&h->mu);
        return 0;
    }
    h->threaded = !pthread_create(&h->th, NULL, builder, h);
    if (!h->threaded) {
        pthread_cond_destroy(&h->cv);
        pthread_mutex_destroy(&h->mu);
    }
    return 0;
}

/* Room for one more multiset; under mu when threaded. */
static int room(struct cc_ahead *h)
{
    return U_GROW_ALL(h->cap, h->k, 16, U_ARR(h->ms), U_ARR(h->ev), U_ARR(h->cnt), U_ARR(h->n),
                      U_ARR(h->a), U_ARR(h->rc));
}

int cc_ahead_offer(cc_ctx *c)
{
    struct cc_ahead *h = c->ahead;
    const sg_node *reds;
    size_t nred = sg_list(c->sg, SG_RED, &reds);
    int rc = 0;
    for (; h->seen < nred && !rc; h->seen++) {
        sg_ms m = sg_multiset(c->sg, reds[h->seen]);
        bool dup = false;
        for (size_t j = 0; j < h->k && !dup; j++)
            dup = h->ms[j] == m;
        if (dup)
            continue;
        size_t size = sg_ms_size(c->sg, m);
        uint32_t *ev = malloc((size ? size : 1) * sizeof *ev);
        uint32_t *cnt = malloc((size ? size : 1) * sizeof *cnt);
        uint32_t n = ev && cnt ? sg_ms_events(c->sg, m, ev, cnt) : 0;
        if (h->threaded)
            pthread_mutex_lock(&h->mu);
        rc = !ev || !cnt || room(h) ? -1 : 0;
        if (!rc) {
            h->ms[h->k] = m;
            h->ev[h->k] = ev;
            h->cnt[h->k] = cnt;
            h->n[h->k] = n;
            memset(&h->a[h->k], 0, sizeof h->a[h->k]);
            h->rc[h->k++] = 0;
            ev = cnt = NULL;
        }
        if (h->threaded) {
            pthread_cond_broadcast(&h->cv);
            pthread_mutex_unlock(&h->mu);
        }
        free(ev);
        free(cnt);
    }
    return rc;
}

/* a[i], built and handed over (*a; the caller frees it): its status (cc_oaut_make).
 * Closes the list: no more multisets are offered once the passes begin. */
static int take(struct cc_ahead *h, size_t i, cc_oaut *a)
{
    if (!h->threaded)
        return cc_oaut_make(&h->b, h->ms[i], h->ev[i], h->cnt[i], h->n[i], a);
    pthread_mutex_lock(&h->mu);
    h->closed = true;
    h->taken = i;
    pthread_cond_broadcast(&h->cv);
    while (h->done <= i)
        pthread_cond_wait(&h->cv, &h->mu);
    *a = h->a[i];
    memset(&h->a[i], 0, sizeof h->a[i]);
    int rc = h->rc[i];
    pthread_mutex_unlock(&h->mu);
    return rc;
}

void cc_ahead_end(cc_ctx *c)
{
    struct cc_ahead *h = c->ahead;
    if (!h)
        return;
    if (h->threaded) {
        pthread_mutex_lock(&h->mu);
        h->stop = true;
        pthread_cond_broadcast(&h->cv);
        pthread_mutex_unlock(&h->mu);
        pthread_join(h->th, NULL);
        pthread_cond_destroy(&h->cv);
        pthread_mutex_destroy(&h->mu);
    }
    if (h->b.heads != c->heads)
        free(h->b.heads);
    for (size_t i = 0; i < h->k; i++) {
        cc_oaut_free(&h->a[i]);
        free(h->ev[i]);
        free(h->cnt[i]);
    }
    free(h->ms);
    free(h->ev);
    free(h->cnt);
    free(h->n);
    free(h->a);
    free(h->rc);
    c->r->explored += h->b.ticks;
    if (h->b.bytes > c->r->bytes)
        c->r->bytes = h->b.bytes;
    free(h);
    c->ahead = NULL;
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

/* A cause's prohibited intervals by event name, then occurrence indices (which follow
 * the witness, itself first by names): event ids are numbered in the order pan met the
 * events, so DFS and BFS listed the same clauses in different orders (the fourth
 * probe's P4-10). */
static int absent_cmp(const void *x, const void *y)
{
    const cc_absent *a = x, *b = y;
    int d = a->event == b->event ? 0
                                 : (sort_names ? strcmp(sort_names[a->event], sort_names[b->event])
                                               : (a->event > b->event) - (a->event < b->event));
    if (d)
        return d;
    if (a->after != b->after)
        return a->after < b->after ? -1 : 1;
    return (a->before > b->before) - (a->before < b->before);
}

int cc_assemble(cc_ctx *c, size_t nevents)
{
    size_t cap = 0;
    int rc = c->ahead || !cc_ahead_start(c) ? 0 : -1;
    if (!rc) /* the red traces' multisets the history search has not offered yet */
        rc = cc_ahead_offer(c);
    cc_phase(c, "AC2(2) and causes");
    struct cc_ahead *h = c->ahead;
    for (size_t i = 0; h && i < h->k && !rc; i++) {
        cc_oaut a;
        int built = take(h, i, &a);
        rc = causes_of(c, h->ms[i], &a, built, nevents, &cap, h->k - i);
    }
    sort_names = c->o->names;
    for (size_t i = 0; !rc && i < c->r->ncauses; i++) {
        cc_cause *k = &c->r->causes[i];
        if (k->nabsent > 1)
            qsort(k->absent, k->nabsent, sizeof *k->absent, absent_cmp);
    }
    if (!rc && c->r->ncauses > 1)
        qsort(c->r->causes, c->r->ncauses, sizeof *c->r->causes, cause_cmp);
    sort_names = NULL;
    if (!rc)
        rc = list_uncaused(c);
    return rc;
}
