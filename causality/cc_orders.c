/*
 * cc_orders.c - the orders of a minimal bad multiset, as an automaton.
 *
 * The history exploration (cc_explore.c) merges histories that reach a state with
 * the same multiset, so it keeps one order of each.  OC1 and AC2(2) concern all of
 * them: the bad traces whose multiset is exactly a minimal bad multiset m.  There
 * can be astronomically many (BEEM's bakery.1: 3.4e19 orders of an 87-event
 * multiset), so they are never listed; they are the words of a small deterministic
 * automaton, built in three steps:
 *
 *   1. D_m, forward from (root, {}): nodes (state, k) for the sub-multisets k of m;
 *      a silent move keeps k, an event move adds its event while k stays inside m
 *      (nodes interned by (state, k): reachability, no path is enumerated);
 *   2. backward from the ends, the bad states reached with k = m: a node that can
 *      reach no end starts no order of m and is dropped (in bakery.1, 378 of 9686);
 *   3. the subset construction of the trimmed D_m: an automaton state X is the set
 *      of D_m nodes one event sequence reaches (closed under silent moves), so each
 *      order is exactly one path from X0 to a final X, and all of X's nodes share
 *      the prefix's multiset.
 * The AC2(2) pass (cc_ac22.c) runs over this automaton, for all orders at once.
 *
 * Invariants: D_m's nodes are indexed in creation order (the forward queue); an edge
 * joins (s, k) to (t, k) (silent) or (t, k + e) with k + e inside m.  The automaton's
 * states are numbered by level (|k|), X0 = 0; every state lies on a path to a final.
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    cc_ctx *c;
    sg_ms m;
    uint32_t *head;    /* cc_heads(): per state, its first node */
    uint32_t *ns, *nk; /* per node: state, multiset */
    uint32_t *nnext;   /* per node: the next node of the same state */
    uint32_t *out;     /* per node: first out-edge, CC_NONE */
    uint8_t *keep;     /* per node: on some path to an end (trimmed D_m) */
    uint32_t *stamp;   /* per node: the generation of the set it was last added to */
    uint32_t gen;
    size_t n, ncap;              /* ns, nk, nnext and out share ncap */
    uint32_t *eto, *eev, *enext; /* edges: target, event id, next out-edge */
    size_t ne, ecap;             /* eto, eev and enext share ecap */
} dag;

static void dag_free(dag *d)
{
    for (size_t i = 0; d->head && i < d->n; i++)
        d->head[d->ns[i]] = CC_NONE;
    free(d->nnext);
    free(d->ns);
    free(d->nk);
    free(d->out);
    free(d->keep);
    free(d->stamp);
    free(d->eto);
    free(d->eev);
    free(d->enext);
}

static bool is_end(const dag *d, uint32_t i)
{
    return cc_bad(d->c, d->ns[i]) && d->nk[i] == d->m;
}

/* The node (s, k), made if new; U_INVALID when out of memory. */
static uint32_t node(dag *d, uint32_t s, sg_ms k)
{
    for (uint32_t i = d->head[s]; i != CC_NONE; i = d->nnext[i])
        if (d->nk[i] == k)
            return i;
    if (U_GROW_ALL(d->ncap, d->n, 16, U_ARR(d->ns), U_ARR(d->nk), U_ARR(d->nnext), U_ARR(d->out)))
        return U_INVALID;
    uint32_t i = (uint32_t)d->n++;
    d->ns[i] = s;
    d->nk[i] = k;
    d->out[i] = CC_NONE;
    d->nnext[i] = d->head[s];
    d->head[s] = i;
    return i;
}

static int add_edge(dag *d, uint32_t from, uint32_t to, uint32_t ev)
{
    if (U_GROW_ALL(d->ecap, d->ne, 16, U_ARR(d->eto), U_ARR(d->eev), U_ARR(d->enext)))
        return -1;
    d->eto[d->ne] = to;
    d->eev[d->ne] = ev;
    d->enext[d->ne] = d->out[from];
    d->out[from] = (uint32_t)d->ne++;
    return 0;
}

/* Step 1: every (state, k) with k inside m reachable from the root.  1 when the
 * budget ran out. */
static int forward(dag *d)
{
    cc_ctx *c = d->c;
    const cc_graph *g = c->g;
    if (!(d->head = cc_heads(c)) || node(d, g->root, 0) == U_INVALID)
        return -1;
    for (uint32_t i = 0; i < d->n; i++) {
        uint32_t s = d->ns[i];
        sg_ms k = d->nk[i];
        if (!cc_tick(c, sg_ms_size(c->sg, k)))
            return 1;
        if (cc_bad(c, s)) /* a run ends at its first violation */
            continue;
        for (uint32_t e = cc_first(g, s); e != CC_NONE; e = cc_next(g, e)) {
            uint32_t ev = g->ev[e] & CC_EV_MASK;
            uint32_t t = g->to[e] == CC_SINK ? c->sink : g->to[e];
            sg_ms k2 = ev == CC_SILENT ? k : sg_ms_add(c->sg, k, ev - 1);
            if (k2 == SG_INVALID)
                return -1;
            if (ev != CC_SILENT && !sg_ms_subseteq(c->sg, k2, d->m))
                continue;
            uint32_t j = node(d, t, k2);
            if (j == U_INVALID || add_edge(d, i, j, ev))
                return -1;
        }
    }
    return 0;
}

/* Step 2: keep[i] when node i reaches an end. */
static int trim(dag *d)
{
    uint32_t *rhead = malloc((d->n + 1) * sizeof *rhead);
    uint32_t *rnext = malloc((d->ne + 1) * sizeof *rnext);
    uint32_t *rfrom = malloc((d->ne + 1) * sizeof *rfrom);
    uint32_t *work = malloc((d->n + 1) * sizeof *work);
    d->keep = calloc(d->n + 1, 1);
    int rc = rhead && rnext && rfrom && work && d->keep ? 0 : -1;
    size_t k = 0;
    for (size_t i = 0; !rc && i < d->n; i++)
        rhead[i] = CC_NONE;
    for (uint32_t i = 0; !rc && i < d->n; i++)
        for (uint32_t e = d->out[i]; e != CC_NONE; e = d->enext[e]) {
            rfrom[e] = i;
            rnext[e] = rhead[d->eto[e]];
            rhead[d->eto[e]] = e;
        }
    for (uint32_t i = 0; !rc && i < d->n; i++)
        if (is_end(d, i)) {
            d->keep[i] = 1;
            work[k++] = i;
        }
    while (!rc && k) {
        uint32_t t = work[--k];
        for (uint32_t e = rhead[t]; e != CC_NONE; e = rnext[e])
            if (!d->keep[rfrom[e]]) {
                d->keep[rfrom[e]] = 1;
                work[k++] = rfrom[e];
            }
    }
    free(rhead);
    free(rnext);
    free(rfrom);
    free(work);
    return rc;
}

/* ---- step 3: the subset construction ---- */

/* A set of D_m nodes.  Membership is a stamp per node (dag.stamp): a set being
 * built gets a fresh generation, so adding is O(1) however large the silent closure
 * (airbag's sets hold thousands of nodes). */
typedef struct {
    uint32_t *v;
    size_t n, cap;
    uint32_t gen;
} nodeset;

static void set_clear(dag *d, nodeset *s)
{
    s->n = 0;
    s->gen = ++d->gen;
}

static int set_add(dag *d, nodeset *s, uint32_t x)
{
    if (d->stamp[x] == s->gen)
        return 0;
    if (U_GROW(s->v, s->cap, s->n))
        return -1;
    d->stamp[x] = s->gen;
    s->v[s->n++] = x;
    return 0;
}

static int close_silent(dag *d, nodeset *s)
{
    for (size_t i = 0; i < s->n; i++)
        for (uint32_t e = d->out[s->v[i]]; e != CC_NONE; e = d->enext[e])
            if (d->eev[e] == CC_SILENT && d->keep[d->eto[e]] && set_add(d, s, d->eto[e]))
                return -1;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The automaton state of a closed set (made if new): its id, U_INVALID on OOM. */
static uint32_t intern_set(dag *d, u_intern *sets, nodeset *s, cc_oaut *a)
{
    qsort(s->v, s->n, sizeof *s->v, cmp_u32);
    bool fresh;
    uint32_t id = u_intern_put(sets, s->v, s->n * sizeof *s->v, &fresh);
    if (id == U_INVALID || !fresh)
        return id;
    /* room for the state and for the end marker first[nx + 1] */
    if (U_GROW_ALL(a->xcap, a->nx + 1, 64, U_ARR(a->k), U_ARR(a->final), U_ARR(a->first)))
        return U_INVALID;
    a->k[id] = d->nk[s->v[0]];
    a->final[id] = 0;
    for (size_t i = 0; i < s->n && !a->final[id]; i++)
        a->final[id] = is_end(d, s->v[i]);
    a->nx++;
    return id;
}

static int add_move(cc_oaut *a, uint32_t ev, uint32_t to)
{
    if (U_GROW_ALL(a->mcap, a->nm, 64, U_ARR(a->mev), U_ARR(a->mto)))
        return -1;
    a->mev[a->nm] = ev;
    a->mto[a->nm++] = to;
    return 0;
}

/* States are numbered in breadth-first order, so by level; a state's moves are the
 * contiguous range first[x] .. first[x + 1], events ascending. */
static int determinise(dag *d, cc_oaut *a)
{
    u_intern sets = {0};
    nodeset cur = {0}, next = {0};
    d->stamp = calloc(d->n + 1, sizeof *d->stamp);
    if (!d->stamp)
        return -1;
    set_clear(d, &cur);
    int rc = set_add(d, &cur, 0) || close_silent(d, &cur) ? -1 : 0;
    if (!rc && intern_set(d, &sets, &cur, a) == U_INVALID)
        rc = -1;
    for (uint32_t x = 0; !rc && x < a->nx; x++) {
        if (!cc_tick(d->c, sg_ms_size(d->c->sg, a->k[x]))) {
            rc = 1;
            break;
        }
        a->first[x] = (uint32_t)a->nm;
        set_clear(d, &cur);
        size_t len = u_intern_len(&sets, x) / sizeof(uint32_t);
        const uint32_t *members = u_intern_key(&sets, x);
        for (size_t i = 0; i < len && !rc; i++)
            rc = set_add(d, &cur, members[i]);
        for (uint32_t after = CC_SILENT; !rc;) {
            uint32_t ev = CC_NONE; /* the smallest event above `after` */
            for (size_t i = 0; i < cur.n; i++)
                for (uint32_t e = d->out[cur.v[i]]; e != CC_NONE; e = d->enext[e])
                    if (d->eev[e] != CC_SILENT && d->eev[e] > after && d->eev[e] < ev &&
                        d->keep[d->eto[e]])
                        ev = d->eev[e];
            if (ev == CC_NONE)
                break;
            set_clear(d, &next);
            for (size_t i = 0; i < cur.n && !rc; i++)
                for (uint32_t e = d->out[cur.v[i]]; e != CC_NONE && !rc; e = d->enext[e])
                    if (d->eev[e] == ev && d->keep[d->eto[e]])
                        rc = set_add(d, &next, d->eto[e]);
            uint32_t to = rc || close_silent(d, &next) ? U_INVALID : intern_set(d, &sets, &next, a);
            if (to == U_INVALID || add_move(a, ev, to))
                rc = -1;
            after = ev;
        }
    }
    if (!rc)
        a->first[a->nx] = (uint32_t)a->nm; /* intern_set keeps room for it */
    free(cur.v);
    free(next.v);
    u_intern_free(&sets);
    return rc;
}

int cc_oaut_build(cc_ctx *c, sg_ms m, cc_oaut *a)
{
    memset(a, 0, sizeof *a);
    a->m = m;
    dag d = {.c = c, .m = m};
    int rc = forward(&d);
    if (!rc)
        rc = trim(&d);
    if (!rc && d.keep[0])
        rc = determinise(&d, a);
    size_t b = d.n * 17 + d.ne * 12 + a->nx * 12 + a->nm * 8;
    if (b > c->r->bytes)
        c->r->bytes = b;
    dag_free(&d);
    return rc;
}

void cc_oaut_free(cc_oaut *a)
{
    free(a->k);
    free(a->final);
    free(a->first);
    free(a->mev);
    free(a->mto);
    memset(a, 0, sizeof *a);
}
