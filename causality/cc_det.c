/*
 * cc_det.c - the recorded graph with a nondeterministic never claim, determinised.
 *
 * pan searches the product of the model and the never claim.  Where the claim can be
 * in two states at once on one run (SPIN's claim for [] (p -> [] !q) guesses when p
 * held), one run of the model is several paths of the recorded graph: on one the
 * claim reaches its end (the run violates), on another it waited and never does.
 * The analysis reads every path as a run, so the second counted as a good run with
 * the same trace as the bad one (README "Never claims").  The property speaks of runs
 * of the model: a run violates when *some* branch of the claim reaches its end.
 *
 * cc_graph_det() therefore builds the subset construction of the recorded graph: a
 * state of the new graph is the set of recorded states that one run of the model
 * reaches, one per branch of the claim, all with the same model state and differing
 * in the claim's.  From a set, the moves with the same key lead to the set of their
 * targets, where the key of a move is
 *   - a move of the claim (into a state, or into CC_SINK when it violates): all the
 *     claim's moves from the set are one move (the claim's choice is no choice of the
 *     run: it is the set);
 *   - otherwise pan's move (process slot, transition id) and the event: a move of the
 *     model is a function of the model state, so it leads every member the same way,
 *     to one model state with the claims' states as they were.
 * A set's flags are the union of its members' (a member that violated is a branch of
 * the claim that did: the run did).  Every other part of the analysis then reads the
 * new graph as it reads a deterministic claim's, unchanged: the claim-closed BAD
 * states, the settled ends, the histories.
 *
 * The recorded graph must name pan's moves (CC_G_MOVES) and hold every move of every
 * product state pan reached, which partial order reduction does not promise (it may
 * expand two states with the same model state differently); spin-model/ switches the
 * reduction off for such claims (sm_glue.c.inc).  A move without pan's name (none in
 * pan's graphs) keys by its target too, so it stays one branch.
 *
 * Trails (cc_trail.c) need pan's moves, the claim's included, of one concrete run:
 * cc_det_steps() maps a path of the new graph back to a path of the recorded one,
 * backward over the sets (which members can still reach the chosen end) and then
 * forward from the root.
 *
 * Invariants: the new graph owns the recorded one (g->orig, freed with it); its state
 * s has the members mem[mem_start[s] .. mem_start[s + 1]), sorted, non-empty, every
 * one a state of orig; its root is the set {orig's root}; every new edge carries the
 * pan move of its group's first recorded edge (a claim move's is a representative
 * only: cc_det_steps picks the real one).
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

#define K_CLAIM (1ULL << 63)
#define K_SINK  (1ULL << 62)
#define K_NOMV  (1ULL << 61)

/* The key of recorded edge e (above). */
static uint64_t edge_key(const cc_graph *g, uint32_t e)
{
    uint64_t sink = g->to[e] == CC_SINK ? K_SINK : 0;
    if (g->ev[e] & CC_EV_CLAIM)
        return K_CLAIM | sink;
    uint64_t ev = g->ev[e] & CC_EV_MASK;
    uint32_t mv = g->mv ? g->mv[e] : UINT32_MAX;
    if (mv == UINT32_MAX) /* no pan move: its own branch */
        return K_NOMV | sink | ev << 32 | (sink ? 0 : g->to[e]);
    return sink | ev << 32 | mv;
}

typedef struct {
    uint64_t key;
    uint32_t to, e; /* target, recorded edge (its index orders the groups) */
} gathered;

static int by_key(const void *a, const void *b)
{
    const gathered *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->e < y->e ? -1 : x->e > y->e;
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Edges of one set with one key: ga[first .. first + n), e the first recorded one. */
typedef struct {
    uint32_t first, e;
    size_t n;
} group;

static int by_first(const void *a, const void *b)
{
    const group *x = a, *y = b;
    return x->e < y->e ? -1 : x->e > y->e;
}

/* The construction's working state. */
typedef struct {
    const cc_graph *g; /* recorded */
    cc_graph *d;       /* being built */
    u_intern sets;     /* member lists (bytes) -> set id = d's state id */
    gathered *ga;      /* one set's edges */
    size_t nga, gacap;
    uint32_t *tmp; /* one group's targets */
    size_t tcap;
    group *grp;
    size_t ngrp, grpcap;
} det_ctx;

/* The state of d for the sorted member list m[0..n), made when new. */
static uint32_t set_of(det_ctx *x, const uint32_t *m, size_t n)
{
    bool fresh;
    uint32_t id = u_intern_put(&x->sets, m, n * sizeof *m, &fresh);
    if (id == U_INVALID)
        return CC_OOM;
    if (!fresh)
        return id;
    uint32_t s = cc_graph_new_state(x->d);
    if (s != id) /* sets and states are made together, one for one */
        return CC_OOM;
    for (size_t i = 0; i < n; i++)
        x->d->flags[s] |= x->g->flags[m[i]] & (CC_S_BAD | CC_S_NOEND | CC_S_EXPANDED);
    return s;
}

/* The moves of set s (its members m[0..n)), grouped by key, each group one move of d
 * in the order of the group's first recorded edge. */
static int expand(det_ctx *x, uint32_t s, const uint32_t *m, size_t n)
{
    const cc_graph *g = x->g;
    x->nga = 0;
    for (size_t i = 0; i < n; i++)
        for (uint32_t e = cc_first(g, m[i]); e != CC_NONE; e = cc_next(g, e)) {
            if (U_GROW(x->ga, x->gacap, x->nga))
                return -1;
            x->ga[x->nga++] = (gathered){edge_key(g, e), g->to[e], e};
        }
    qsort(x->ga, x->nga, sizeof *x->ga, by_key);
    x->ngrp = 0;
    for (size_t i = 0; i < x->nga; i++) {
        if (i && x->ga[i].key == x->ga[i - 1].key) {
            x->grp[x->ngrp - 1].n++;
            continue;
        }
        if (U_GROW(x->grp, x->grpcap, x->ngrp))
            return -1;
        x->grp[x->ngrp].first = (uint32_t)i;
        x->grp[x->ngrp].e = x->ga[i].e; /* the smallest edge of the group (sorted) */
        x->grp[x->ngrp++].n = 1;
    }
    qsort(x->grp, x->ngrp, sizeof *x->grp, by_first);
    for (size_t k = 0; k < x->ngrp; k++) {
        const gathered *a = x->ga + x->grp[k].first;
        size_t na = x->grp[k].n, nt = 0;
        uint32_t e = x->grp[k].e, to = CC_SINK;
        if (!(a->key & K_SINK)) {
            if (na > x->tcap) {
                uint32_t *t = realloc(x->tmp, na * sizeof *t);
                if (!t)
                    return -1;
                x->tmp = t;
                x->tcap = na;
            }
            for (size_t i = 0; i < na; i++)
                x->tmp[i] = a[i].to;
            qsort(x->tmp, na, sizeof *x->tmp, by_u32);
            for (size_t i = 0; i < na; i++)
                if (!nt || x->tmp[nt - 1] != x->tmp[i])
                    x->tmp[nt++] = x->tmp[i];
            to = set_of(x, x->tmp, nt);
            if (to == CC_OOM)
                return -1;
        }
        int pr, tid;
        cc_graph_step(g, e, &pr, &tid);
        if (cc_graph_move(x->d, s, to, g->ev[e] & CC_EV_MASK, g->ev[e] & CC_EV_CLAIM, pr, tid))
            return -1;
    }
    return cc_graph_close(x->d, s);
}

cc_graph *cc_graph_det(cc_graph *g)
{
    if (cc_graph_seal(g) || !cc_is_state(g->root))
        return NULL;
    det_ctx x = {.g = g, .d = cc_graph_new(CC_G_MOVES)};
    cc_graph *d = x.d;
    bool ok = d != NULL;
    if (ok) {
        uint32_t root = set_of(&x, &g->root, 1);
        ok = root == 0;
        cc_graph_set_root(d, root);
    }
    /* Sets are numbered as they are found, so d's states are a queue. */
    for (uint32_t s = 0; ok && s < d->n; s++) {
        size_t n = u_intern_len(&x.sets, s) / sizeof(uint32_t);
        uint32_t *m = malloc(n * sizeof *m);
        ok = m != NULL;
        if (ok) {
            memcpy(m, u_intern_key(&x.sets, s), n * sizeof *m);
            ok = !expand(&x, s, m, n);
        }
        free(m);
    }
    /* The member lists move into d (CSR), for cc_det_steps. */
    if (ok) {
        size_t total = 0;
        for (uint32_t s = 0; s < d->n; s++)
            total += u_intern_len(&x.sets, s) / sizeof(uint32_t);
        d->mem_start = malloc((d->n + 1) * sizeof *d->mem_start);
        d->mem = malloc((total ? total : 1) * sizeof *d->mem);
        ok = d->mem_start && d->mem;
        for (uint32_t s = 0, k = 0; ok && s < d->n; s++) {
            size_t n = u_intern_len(&x.sets, s) / sizeof(uint32_t);
            d->mem_start[s] = k;
            memcpy(d->mem + k, u_intern_key(&x.sets, s), n * sizeof *d->mem);
            k += (uint32_t)n;
            d->mem_start[s + 1] = k;
        }
    }
    ok = ok && !cc_graph_seal(d);
    u_intern_free(&x.sets);
    free(x.ga);
    free(x.tmp);
    free(x.grp);
    if (!ok) {
        cc_graph_free(d);
        return NULL;
    }
    d->orig = g;
    return d;
}

size_t cc_graph_det_members(const cc_graph *d)
{
    return d->orig ? d->mem_start[d->n] : 0;
}

/* Whether recorded edge key rk is a move of d's edge key dk: any move of the claim
 * for the claim's (into the sink or not, as dk), the same move otherwise (a move
 * without pan's name: the same event, its target being d's target's member). */
static bool same_move(uint64_t dk, uint64_t rk)
{
    if (dk & (K_CLAIM | K_NOMV))
        return (rk & (K_CLAIM | K_NOMV | K_SINK | 0xffff00000000ULL)) ==
               (dk & (K_CLAIM | K_NOMV | K_SINK | 0xffff00000000ULL));
    return rk == dk;
}

/* The members of d's state s, sorted. */
static const uint32_t *members(const cc_graph *d, uint32_t s, size_t *n)
{
    *n = d->mem_start[s + 1] - d->mem_start[s];
    return d->mem + d->mem_start[s];
}

const uint32_t *cc_graph_det_state(const cc_graph *d, uint32_t s, size_t *n)
{
    return members(d, s, n);
}

int cc_det_steps(const cc_graph *d, uint32_t root, const uint32_t *path, size_t len, bool bad_end,
                 cc_step **out, size_t *nout)
{
    const cc_graph *g = d->orig;
    *out = NULL;
    *nout = 0;
    /* at[i]: d's state before path[i]; at[len] the state the path ends in (CC_SINK
     * when its last move violates) */
    uint32_t *at = malloc((len + 1) * sizeof *at);
    /* live[i]: per member of at[i], whether a recorded path from it follows
     * path[i..len) to an end the path allows */
    uint8_t **live = calloc(len + 1, sizeof *live);
    cc_step *s = malloc((len ? len : 1) * sizeof *s);
    int rc = -1;
    if (!at || !live || !s)
        goto done;
    at[0] = root;
    for (size_t i = 0; i < len; i++)
        at[i + 1] = d->to[path[i]];
    for (size_t i = len + 1; i-- > 0;) {
        if (at[i] == CC_SINK)
            continue;
        size_t n;
        const uint32_t *m = members(d, at[i], &n);
        if (!(live[i] = calloc(n ? n : 1, 1)))
            goto done;
        for (size_t j = 0; j < n; j++) {
            if (i == len) {
                live[i][j] = !bad_end || (g->flags[m[j]] & CC_S_BAD);
                continue;
            }
            uint64_t key = edge_key(d, path[i]);
            for (uint32_t e = cc_first(g, m[j]); e != CC_NONE && !live[i][j]; e = cc_next(g, e)) {
                if (!same_move(key, edge_key(g, e)))
                    continue;
                if (g->to[e] == CC_SINK) {
                    live[i][j] = at[i + 1] == CC_SINK;
                    continue;
                }
                size_t nt;
                const uint32_t *mt = members(d, at[i + 1], &nt);
                const uint32_t *hit = bsearch(&g->to[e], mt, nt, sizeof *mt, by_u32);
                live[i][j] = hit && live[i + 1][hit - mt];
            }
        }
    }
    /* forward: from the root, each step a recorded move into a live member */
    size_t n0;
    const uint32_t *m0 = members(d, root, &n0);
    if (!n0 || !live[0][0]) {
        rc = 1; /* no recorded run follows the path: a bug, reported as no run */
        goto done;
    }
    uint32_t cur = m0[0];
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        uint64_t key = edge_key(d, path[i]);
        uint32_t pick = CC_NONE;
        for (uint32_t e = cc_first(g, cur); e != CC_NONE && pick == CC_NONE; e = cc_next(g, e)) {
            if (!same_move(key, edge_key(g, e)))
                continue;
            if (g->to[e] == CC_SINK) {
                if (at[i + 1] == CC_SINK)
                    pick = e;
                continue;
            }
            size_t nt;
            const uint32_t *mt = members(d, at[i + 1], &nt);
            const uint32_t *hit = bsearch(&g->to[e], mt, nt, sizeof *mt, by_u32);
            if (hit && live[i + 1][hit - mt])
                pick = e;
        }
        if (pick == CC_NONE) {
            rc = 1;
            goto done;
        }
        cc_graph_step(g, pick, &s[k].pr, &s[k].tid);
        if (s[k].pr >= 0)
            k++;
        cur = g->to[pick];
    }
    *out = s;
    *nout = k;
    s = NULL;
    rc = 0;
done:
    for (size_t i = 0; live && i <= len; i++)
        free(live[i]);
    free(live);
    free(at);
    free(s);
    return rc;
}
