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
 * The sub-multisets k are numbered here (cc_subs: count vectors over m's own event
 * types), not in the subset graph's store: the build then touches no shared
 * structure the passes change, and cc_cause.c runs it on a second thread, ahead of
 * the passes and from the history search on.  cc_oaut_resolve() gives the automaton's states
 * their subset graph multisets afterwards, on the passes' thread.
 *
 * Invariants: D_m's nodes are indexed in creation order (the forward queue); an edge
 * joins (s, k) to (t, k) (silent) or (t, k + e) with k + e inside m.  The automaton's
 * states are numbered by level (|k|), X0 = 0; every state lies on a path to a final.
 */
#include "cc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- m's sub-multisets ---- */

/* Sub-multisets of m as count vectors over m's event types, numbered as they are
 * met.  Invariants: id 0 is {}, `full` is m; size[id] is the vector's total;
 * step memoises k + e per (k, index of e): an id, or OUTSIDE when k already holds
 * all of m's occurrences of e. */
#define OUTSIDE (U_INVALID - 1)
struct cc_subs {
    uint32_t *ev, *cnt; /* m's event types, ascending, and their counts */
    uint32_t n;
    u_intern vecs; /* count vectors (n words) -> id */
    uint32_t *size, *tmp;
    size_t nsize, scap;
    u_map step;
    uint32_t full;
};

static void subs_free(struct cc_subs *u)
{
    if (!u)
        return;
    free(u->ev);
    free(u->cnt);
    free(u->size);
    free(u->tmp);
    u_intern_free(&u->vecs);
    u_map_free(&u->step);
    free(u);
}

static uint32_t subs_intern(struct cc_subs *u, uint32_t size)
{
    bool fresh;
    uint32_t id = u_intern_put(&u->vecs, u->tmp, u->n * sizeof *u->tmp, &fresh);
    if (id == U_INVALID || !fresh)
        return id;
    if (U_GROW(u->size, u->scap, u->nsize))
        return U_INVALID;
    u->size[u->nsize++] = size;
    return id;
}

static struct cc_subs *subs_new(const uint32_t *ev, const uint32_t *cnt, uint32_t n)
{
    struct cc_subs *u = calloc(1, sizeof *u);
    size_t w = n ? n : 1, total = 0;
    if (!u || !(u->ev = malloc(w * sizeof *u->ev)) || !(u->cnt = malloc(w * sizeof *u->cnt)) ||
        !(u->tmp = calloc(w, sizeof *u->tmp))) {
        subs_free(u);
        return NULL;
    }
    u->n = n;
    memcpy(u->ev, ev, n * sizeof *ev);
    memcpy(u->cnt, cnt, n * sizeof *cnt);
    for (uint32_t i = 0; i < n; i++)
        total += cnt[i];
    if (subs_intern(u, 0) != 0) { /* {} is id 0 */
        subs_free(u);
        return NULL;
    }
    memcpy(u->tmp, cnt, n * sizeof *cnt);
    if ((u->full = subs_intern(u, (uint32_t)total)) == U_INVALID) {
        subs_free(u);
        return NULL;
    }
    return u;
}

/* k + one event of type e: an id, OUTSIDE (not inside m), U_INVALID (no memory). */
static uint32_t subs_add(struct cc_subs *u, uint32_t k, uint32_t e)
{
    size_t i = u_lower32(u->ev, u->n, e);
    if (i == u->n || u->ev[i] != e)
        return OUTSIDE;
    uint64_t key = (uint64_t)k << 32 | i;
    uint32_t r = u_map_get(&u->step, key);
    if (r != U_INVALID)
        return r;
    memcpy(u->tmp, u_intern_key(&u->vecs, k), u->n * sizeof *u->tmp);
    if (u->tmp[i] == u->cnt[i])
        r = OUTSIDE;
    else {
        u->tmp[i]++;
        r = subs_intern(u, u->size[k] + 1);
    }
    if (r == U_INVALID || u_map_put(&u->step, key, r))
        return U_INVALID;
    return r;
}

/* ---- step 1 and 2: D_m ---- */

typedef struct {
    cc_obuild *b;
    const cc_ctx *c;
    struct cc_subs *u;
    uint32_t *head;    /* the builder's heads: per state, its first node */
    uint32_t *ns, *nk; /* per node: state, sub-multiset (u's id) */
    uint32_t *nnext;   /* per node: the next node of the same state */
    uint32_t *out;     /* per node: its first out-edge; its edges are out[i] ..
                          out[i + 1] (forward() expands the nodes in order and ends
                          with out[n] = ne) */
    uint8_t *keep;     /* per node: on some path to an end (trimmed D_m) */
    uint32_t *stamp;   /* per node: the generation of the set it was last added to */
    uint32_t gen;
    size_t n, ncap;  /* ns, nk, nnext and out share ncap */
    uint32_t *eto;   /* edges: target */
    uint16_t *eev;   /* and event id (at most CC_MAX_EVENTS) */
    size_t ne, ecap; /* eto and eev share ecap */
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
}

static bool is_end(const dag *d, uint32_t i)
{
    return cc_bad(d->c, d->ns[i]) && d->nk[i] == d->u->full;
}

/* One node of the build (the builder's budget); prints progress as cc_tick does,
 * without the subset graph's figures, which another thread may be changing. */
static bool tick(dag *d, uint32_t k)
{
    cc_obuild *b = d->b;
    if (++b->ticks > b->budget)
        return false;
    FILE *f = d->c->o ? d->c->o->progress : NULL;
    if (f && !(b->ticks & ((1u << 20) - 1)))
        fprintf(f,
                "pancause: orders automata: nodes %zu, multiset of %u events, prefix length %u\n",
                b->ticks, d->u->size[d->u->full], d->u->size[k]);
    return true;
}

/* Room for node index d->n in every per-node array. */
static int node_room(dag *d)
{
    return U_GROW_ALL(d->ncap, d->n, 16, U_ARR(d->ns), U_ARR(d->nk), U_ARR(d->nnext),
                      U_ARR(d->out));
}

/* The node (s, k), made if new; U_INVALID when out of memory. */
static uint32_t node(dag *d, uint32_t s, uint32_t k)
{
    for (uint32_t i = d->head[s]; i != CC_NONE; i = d->nnext[i])
        if (d->nk[i] == k)
            return i;
    if (node_room(d))
        return U_INVALID;
    uint32_t i = (uint32_t)d->n++;
    d->ns[i] = s;
    d->nk[i] = k;
    d->nnext[i] = d->head[s];
    d->head[s] = i;
    return i;
}

/* An edge of the node being expanded (forward): a node's edges are contiguous. */
static int add_edge(dag *d, uint32_t to, uint32_t ev)
{
    if (U_GROW_ALL(d->ecap, d->ne, 16, U_ARR(d->eto), U_ARR(d->eev)))
        return -1;
    d->eto[d->ne] = to;
    d->eev[d->ne++] = (uint16_t)ev;
    return 0;
}

/* Step 1: every (state, k) with k inside m reachable from the root.  1 when the
 * budget ran out. */
static int forward(dag *d)
{
    const cc_ctx *c = d->c;
    const cc_graph *g = c->g;
    d->head = d->b->heads;
    if (node(d, g->root, 0) == U_INVALID)
        return -1;
    for (uint32_t i = 0; i < d->n; i++) {
        uint32_t s = d->ns[i];
        uint32_t k = d->nk[i];
        if (!tick(d, k))
            return 1;
        d->out[i] = (uint32_t)d->ne;
        if (cc_bad(c, s)) /* a run ends at its first violation */
            continue;
        for (uint32_t e = cc_first(g, s); e != CC_NONE; e = cc_next(g, e)) {
            uint32_t ev = g->ev[e] & CC_EV_MASK;
            uint32_t t = g->to[e] == CC_SINK ? c->sink : g->to[e];
            uint32_t k2 = ev == CC_SILENT ? k : subs_add(d->u, k, ev - 1);
            if (k2 == U_INVALID)
                return -1;
            if (k2 == OUTSIDE)
                continue;
            uint32_t j = node(d, t, k2);
            if (j == U_INVALID || add_edge(d, j, ev))
                return -1;
        }
    }
    if (node_room(d))
        return -1;
    d->out[d->n] = (uint32_t)d->ne; /* the end of the last node's edges */
    return 0;
}

/* Step 2: keep[i] when node i reaches an end. */
static int trim(dag *d)
{
    /* the reverse edges as CSR: the sources of node t's in-edges are rsrc[rstart[t] ..
     * rstart[t + 1]) */
    uint32_t *rstart = calloc(d->n + 2, sizeof *rstart);
    uint32_t *rsrc = malloc((d->ne + 1) * sizeof *rsrc);
    uint32_t *work = malloc((d->n + 1) * sizeof *work);
    d->keep = calloc(d->n + 1, 1);
    int rc = rstart && rsrc && work && d->keep ? 0 : -1;
    size_t k = 0;
    for (size_t e = 0; !rc && e < d->ne; e++)
        rstart[d->eto[e] + 1]++;
    for (size_t i = 0; !rc && i < d->n; i++)
        rstart[i + 1] += rstart[i];
    for (uint32_t i = 0; !rc && i < d->n; i++) /* work[t]: rstart[t]'s fill position */
        work[i] = rstart[i];
    for (uint32_t i = 0; !rc && i < d->n; i++)
        for (uint32_t e = d->out[i]; e < d->out[i + 1]; e++)
            rsrc[work[d->eto[e]]++] = i;
    for (uint32_t i = 0; !rc && i < d->n; i++)
        if (is_end(d, i)) {
            d->keep[i] = 1;
            work[k++] = i;
        }
    while (!rc && k) {
        uint32_t t = work[--k];
        for (uint32_t j = rstart[t]; j < rstart[t + 1]; j++)
            if (!d->keep[rsrc[j]]) {
                d->keep[rsrc[j]] = 1;
                work[k++] = rsrc[j];
            }
    }
    free(rstart);
    free(rsrc);
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
        for (uint32_t e = d->out[s->v[i]]; e < d->out[s->v[i] + 1]; e++)
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
        if (!tick(d, a->k[x])) {
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
                for (uint32_t e = d->out[cur.v[i]]; e < d->out[cur.v[i] + 1]; e++)
                    if (d->eev[e] != CC_SILENT && d->eev[e] > after && d->eev[e] < ev &&
                        d->keep[d->eto[e]])
                        ev = d->eev[e];
            if (ev == CC_NONE)
                break;
            set_clear(d, &next);
            for (size_t i = 0; i < cur.n && !rc; i++)
                for (uint32_t e = d->out[cur.v[i]]; e < d->out[cur.v[i] + 1] && !rc; e++)
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

int cc_oaut_make(cc_obuild *b, sg_ms m, const uint32_t *ev, const uint32_t *cnt, uint32_t n,
                 cc_oaut *a)
{
    memset(a, 0, sizeof *a);
    a->m = m;
    dag d = {.b = b, .c = b->c, .u = subs_new(ev, cnt, n)};
    int rc = d.u ? forward(&d) : -1;
    if (!rc)
        rc = trim(&d);
    if (!rc && d.keep[0])
        rc = determinise(&d, a);
    size_t bytes = d.n * 25 + d.ne * 10 + a->nx * 12 + a->nm * 8; /* with trim's reverse */
    if (bytes > b->bytes)
        b->bytes = bytes;
    dag_free(&d);
    a->subs = d.u;
    return rc;
}

int cc_oaut_resolve(cc_ctx *c, cc_oaut *a)
{
    struct cc_subs *u = a->subs;
    for (size_t x = 0; u && x < a->nx; x++) {
        const uint32_t *v = u_intern_key(&u->vecs, a->k[x]);
        sg_ms k = 0;
        for (uint32_t i = 0; i < u->n && k != SG_INVALID; i++)
            for (uint32_t j = 0; j < v[i] && k != SG_INVALID; j++)
                k = sg_ms_add(c->sg, k, u->ev[i]);
        if (k == SG_INVALID)
            return -1;
        a->k[x] = k;
    }
    subs_free(u);
    a->subs = NULL;
    return 0;
}

void cc_oaut_free(cc_oaut *a)
{
    subs_free(a->subs);
    free(a->k);
    free(a->final);
    free(a->first);
    free(a->mev);
    free(a->mto);
    memset(a, 0, sizeof *a);
}
