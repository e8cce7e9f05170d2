/*
 * cc_explore.c - from the recorded graph to coloured traces.
 *
 * cc_derive() computes two facts per state.  BAD: the never claim can reach a
 * violation by its own moves (so the prefix ending here already violates the
 * property: the run's first violation is here, even on branches where the claim
 * chose to wait).  DOOM: a violation is reachable by silent moves only (such a
 * state ends no good run, README "settled runs").  Both are backward closures.
 *
 * cc_explore() then enumerates event histories: nodes (state, trace) in order of
 * trace length, silent moves closing each level.  Every bad run's trace and every
 * settled run's trace goes into the subset graph, which colours it at once; since
 * shorter traces come first, AC3 and AC2(1) are final when a bad trace is added, for
 * DFS- and BFS-recorded graphs alike.  Three prunings keep this finite on cyclic models
 * and small on concurrent ones, and keep every cause (README "Method"): a history
 * whose multiset strictly contains a bad trace's is dropped (no continuation can be
 * minimal); a history at a state where a strictly smaller one was explored is
 * dropped (everything it leads to is dominated); and a history at a state where one
 * with the same multiset was explored is merged into it (same continuations, same
 * multisets).  Merging loses the other orders of the same events, which OC1 and
 * AC2(2) need: for each minimal bad multiset only, cc_orders.c builds an automaton
 * of all its orders and cc_ac22.c runs over it (cc_cause.c assembles the causes).
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether e is the first move of its block into its target: the reverse lists a
 * source once per target.  Blocks are a few moves long, so the scan is short. */
static bool first_into(const cc_graph *g, uint32_t s, uint32_t e)
{
    for (uint32_t f = cc_first(g, s); f != e; f = cc_next(g, f))
        if (g->to[f] == g->to[e])
            return false;
    return true;
}

/* A state with a silent move into CC_SINK (cc_derive's DOOM seeds), marked by
 * rev_build's scan and cleared by cc_derive. */
#define SILENT_SINK 8
_Static_assert((SILENT_SINK & (CC_S_BAD | CC_S_EXPANDED | CC_S_DOOM | CC_S_NOEND)) == 0,
               "a free bit");

/* The reverse of every edge that does not end in CC_SINK, as CSR arrays (cc_rev).
 * Its counting scan over the edges also seeds c->sf (cc_derive): CC_S_BAD for a
 * claim move into CC_SINK, SILENT_SINK for a silent one, so that no other scan
 * reads all 10^7-10^8 edges for them. */
static int rev_build(cc_ctx *c)
{
    const cc_graph *g = c->g;
    cc_rev *rv = &c->rev;
    rv->start = calloc(g->n + 2, sizeof *rv->start);
    if (!rv->start)
        return -1;
    size_t m = 0;
    for (size_t s = 0; s < g->n; s++) {
        c->sf[s] = g->flags[s] & (CC_S_BAD | CC_S_NOEND);
        for (uint32_t e = cc_first(g, s); e != CC_NONE; e = cc_next(g, e))
            if (g->to[e] == CC_SINK)
                c->sf[s] |= (g->ev[e] & CC_EV_CLAIM)               ? CC_S_BAD
                            : (g->ev[e] & CC_EV_MASK) == CC_SILENT ? SILENT_SINK
                                                                   : 0;
            else if (first_into(g, (uint32_t)s, e)) {
                rv->start[g->to[e] + 1]++;
                m++;
            }
    }
    for (size_t s = 0; s < g->n; s++)
        rv->start[s + 1] += rv->start[s];
    rv->src = malloc((m ? m : 1) * sizeof *rv->src);
    uint32_t *fill = malloc((g->n + 1) * sizeof *fill);
    if (!rv->src || !fill) {
        free(fill);
        return -1;
    }
    memcpy(fill, rv->start, (g->n + 1) * sizeof *fill);
    for (size_t s = 0; s < g->n; s++)
        for (uint32_t e = cc_first(g, s); e != CC_NONE; e = cc_next(g, e))
            if (g->to[e] != CC_SINK && first_into(g, (uint32_t)s, e))
                rv->src[fill[g->to[e]]++] = (uint32_t)s;
    free(fill);
    if (c->r)
        c->r->bytes += (g->n + 2) * 4 + m * 4;
    return 0;
}

void cc_rev_free(cc_rev *rv)
{
    free(rv->start);
    free(rv->src);
    memset(rv, 0, sizeof *rv);
}

/* Marks `bit` on every state that reaches a marked state through edges whose event
 * word has `flag` (CC_EV_CLAIM), or through silent edges (flag 0). */
static int close_backwards(const cc_ctx *c, uint8_t *sf, uint8_t bit, uint32_t flag)
{
    const cc_rev *rv = &c->rev;
    size_t n = c->g->n, k = 0;
    uint32_t *work = malloc((n + 1) * sizeof *work);
    if (!work)
        return -1;
    for (size_t s = 0; s < n; s++)
        if (sf[s] & bit)
            work[k++] = (uint32_t)s;
    const cc_graph *g = c->g;
    while (k) {
        uint32_t t = work[--k];
        for (uint32_t i = rv->start[t]; i < rv->start[t + 1]; i++) {
            uint32_t s = rv->src[i];
            if (sf[s] & bit)
                continue;
            bool ok = false;
            CC_EACH_INTO(g, s, t, e)
            {
                ok |= flag ? (g->ev[e] & flag) != 0 : (g->ev[e] & CC_EV_MASK) == CC_SILENT;
            }
            if (ok) {
                sf[s] |= bit;
                work[k++] = s;
            }
        }
    }
    free(work);
    return 0;
}

int cc_derive(cc_ctx *c)
{
    const cc_graph *g = c->g;
    c->sf = calloc(g->n + 1, 1);
    if (!c->sf || rev_build(c)) /* seeds CC_S_BAD and SILENT_SINK */
        return -1;
    if (close_backwards(c, c->sf, CC_S_BAD, CC_EV_CLAIM))
        return -1;
    for (size_t s = 0; s < g->n; s++)
        if (c->sf[s] & (CC_S_BAD | SILENT_SINK))
            c->sf[s] = (uint8_t)((c->sf[s] & ~SILENT_SINK) | CC_S_DOOM);
    c->sink = (uint32_t)g->n;
    return close_backwards(c, c->sf, CC_S_DOOM, 0);
}

uint32_t *cc_heads(cc_ctx *c)
{
    if (!c->heads) {
        c->heads = malloc((c->g->n + 1) * sizeof *c->heads);
        if (c->heads)
            memset(c->heads, 0xff, (c->g->n + 1) * sizeof *c->heads); /* CC_NONE */
    }
    return c->heads;
}

/* ---- the level-by-level history exploration ---- */

/* A level's queue of (state, trace node) pairs, each pair at most once.  Most states
 * are reached with one history per level, from several predecessors, so the pairs
 * of a state with a single entry are known from an array read; only states with
 * two or more entries go through the hash map (on airbag NOISE=32 the map's probes
 * were a tenth of the analysis).
 * Invariant: per state s, q holds no pair at s (one[s] == CC_NONE), exactly the pair
 * (s, one[s]) (many clear), or two or more pairs, all of them in `seen` (many set). */
typedef struct {
    uint32_t *s, *h; /* pairs (state, trace node) */
    size_t n, cap;
    uint32_t *one;  /* per state: the trace node of its first pair, CC_NONE */
    bitstr_t *many; /* per state: two or more pairs */
    u_map seen;     /* state << 32 | node of the states with `many` */
} pairq;

static int q_init(pairq *q, size_t nstates)
{
    q->one = malloc(nstates * sizeof *q->one);
    q->many = bit_alloc((int)nstates);
    if (!q->one || !q->many)
        return -1;
    memset(q->one, 0xff, nstates * sizeof *q->one); /* CC_NONE */
    return 0;
}

/* Empties q for the next level but one: only the states it holds are reset. */
static void q_reset(pairq *q)
{
    for (size_t i = 0; i < q->n; i++) {
        q->one[q->s[i]] = CC_NONE;
        bit_clear(q->many, (int)q->s[i]);
    }
    q->n = 0;
    u_map_free(&q->seen);
}

static void q_free(pairq *q)
{
    free(q->s);
    free(q->h);
    free(q->one);
    free(q->many);
    u_map_free(&q->seen);
}

static size_t q_bytes(const pairq *q, size_t nstates)
{
    return q->cap * 8 + nstates * 4 + bitstr_size((int)nstates) + u_map_bytes(&q->seen);
}

/* Adds (s, h) to q unless it is there. */
static int push(pairq *q, uint32_t s, uint32_t h)
{
    if (q->one[s] == h)
        return 0;
    if (q->one[s] != CC_NONE) {
        uint64_t key = (uint64_t)s << 32 | h;
        if (!bit_test(q->many, (int)s)) {
            if (u_map_put(&q->seen, (uint64_t)s << 32 | q->one[s], 1))
                return -1;
            bit_set(q->many, (int)s);
        } else if (u_map_get(&q->seen, key) != U_INVALID)
            return 0;
        if (u_map_put(&q->seen, key, 1))
            return -1;
    } else
        q->one[s] = h;
    if (U_GROW_ALL(q->cap, q->n, 1024, U_ARR(q->s), U_ARR(q->h)))
        return -1;
    q->s[q->n] = s;
    q->h[q->n++] = h;
    return 0;
}

typedef struct {
    cc_ctx *c;
    uint32_t *hist; /* per state: first entry of its list of explored multisets */
    uint32_t *hms, *hnext;
    size_t nh, hcap;
    pairq cur, next; /* a node's trace length is its level: older levels are never
                        asked again */
} cc_walk;

/* True when a history with a strictly smaller multiset was explored at s;
 * otherwise records m at s. */
static int dominated(cc_walk *w, uint32_t s, sg_ms m)
{
    unsigned off = w->c->o->noprune;
    if ((off & CC_NOPRUNE_MERGE) && (off & CC_NOPRUNE_DOMINANCE))
        return 0;
    for (uint32_t i = w->hist[s]; i != CC_NONE; i = w->hnext[i]) {
        if (w->hms[i] == m && !(off & CC_NOPRUNE_MERGE))
            return 1; /* same events in another order: merged, cc_orders.c finds them */
        if (!(off & CC_NOPRUNE_DOMINANCE) && sg_ms_subset(w->c->sg, w->hms[i], m))
            return 1;
    }
    if (U_GROW_ALL(w->hcap, w->nh, 1024, U_ARR(w->hms), U_ARR(w->hnext)))
        return -1;
    w->hms[w->nh] = m;
    w->hnext[w->nh] = w->hist[s];
    w->hist[s] = (uint32_t)w->nh++;
    return 0;
}

static int add(cc_ctx *c, uint32_t node, bool bad)
{
    return sg_add(c->sg, node, bad) == SG_NONE ? -1 : 0;
}

/* The process's resident memory now (Linux /proc), 0 when unknown. */
static double resident_mb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size = 0, rss = 0;
    if (f) {
        if (fscanf(f, "%lu %lu", &size, &rss) != 2)
            rss = 0;
        fclose(f);
    }
    return (double)rss * (double)sysconf(_SC_PAGESIZE) / (1 << 20);
}

void cc_phase(cc_ctx *c, const char *name)
{
    c->phase = name;
    c->ticks = 0;
    /* The history search keeps what it explores (some 40 bytes a node); the later
     * phases (orders, AC2(2)) mostly visit configurations they do not keep, at a
     * fraction of a microsecond each, so they may take ten times as many steps. */
    c->budget = strcmp(name, "history search") ? cc_later_budget(c->o)
                : c->o->search_budget          ? c->o->search_budget
                                               : SIZE_MAX;
}

size_t cc_later_budget(const cc_options *o)
{
    size_t b = o->search_budget;
    return !b ? SIZE_MAX : b > SIZE_MAX / 10 ? b : 10 * b;
}

void cc_truncate(cc_ctx *c)
{
    if (!c->r->truncated)
        c->r->truncated_phase = c->phase;
    c->r->truncated = true;
}

/* Every phase (the history exploration, the orders, the AC2(2) pass) may take its
 * budget of steps (cc_phase); the first to run out names itself in the result.
 * Long phases print a progress line every 2^20 nodes, like pan's own during its
 * search: phase, nodes, trace length reached, subset graph size, red traces. */
bool cc_tick(cc_ctx *c, size_t level)
{
    c->r->explored++;
    if (c->soft && c->ticks + 1 > c->soft) {
        c->soft_hit = true;
        return false;
    }
    if (++c->ticks > c->budget) {
        cc_truncate(c);
        return false;
    }
    if (c->o->progress && !(c->ticks & ((1u << 20) - 1)))
        fprintf(c->o->progress,
                "pancause: %s: nodes %zu, trace length %zu, subset graph nodes %zu, causes "
                "(red traces) so far %zu, memory %.1f MB\n",
                c->phase, c->ticks, level, sg_nodes(c->sg), sg_count(c->sg, SG_RED), resident_mb());
    return true;
}

/* Expands one (state, history) node; returns -1 on no memory. */
static int expand(cc_walk *w, uint32_t s, uint32_t h)
{
    cc_ctx *c = w->c;
    const cc_graph *g = c->g;
    if (cc_bad(c, s))
        return add(c, h, true);
    sg_ms m = sg_multiset(c->sg, h);
    if (!(c->o->noprune & CC_NOPRUNE_SUPERSET) && sg_has_bad_below(c->sg, m))
        return 0;
    int d = dominated(w, s, m);
    if (d)
        return d < 0 ? -1 : 0;
    if (cc_settled(c, s) && add(c, h, false))
        return -1;
    for (uint32_t e = cc_first(g, s); e != CC_NONE; e = cc_next(g, e)) {
        uint32_t ev = g->ev[e] & CC_EV_MASK;
        uint32_t t = g->to[e] == CC_SINK ? c->sink : g->to[e];
        if (ev == CC_SILENT) {
            if (push(&w->cur, t, h))
                return -1;
            continue;
        }
        uint32_t k = sg_child(c->sg, h, ev - 1);
        if (k == SG_INVALID || push(&w->next, t, k))
            return -1;
    }
    return 0;
}

int cc_explore(cc_ctx *c)
{
    cc_walk w = {.c = c};
    cc_phase(c, "history search");
    int rc = 0;
    size_t ns = c->g->n + 1;
    w.hist = malloc(ns * sizeof *w.hist);
    if (!w.hist || q_init(&w.cur, ns) || q_init(&w.next, ns))
        rc = -1;
    else if (cc_is_state(c->g->root)) {
        memset(w.hist, 0xff, ns * sizeof *w.hist); /* CC_NONE */
        rc = push(&w.cur, c->g->root, 0);
    }
    for (size_t level = 0; !rc && w.cur.n; level++) {
        for (size_t i = 0; i < w.cur.n && !rc; i++) {
            if (!cc_tick(c, level))
                break;
            rc = expand(&w, w.cur.s[i], w.cur.h[i]);
        }
        if (c->r->truncated)
            break;
        if (c->ahead && cc_ahead_offer(c)) /* the builds of the level's causes may start */
            rc = -1;
        size_t b = q_bytes(&w.cur, ns) + q_bytes(&w.next, ns) + w.hcap * 8 + ns * 4;
        if (b > c->r->bytes)
            c->r->bytes = b;
        pairq t = w.cur;
        w.cur = w.next;
        w.next = t;
        q_reset(&w.next);
    }
    free(w.hist);
    free(w.hms);
    free(w.hnext);
    q_free(&w.cur);
    q_free(&w.next);
    return rc;
}

/* Whether some run from the root reaches a violation: a bad state or a violating
 * move.  A forward search over the recorded graph; true when out of memory (then the
 * analysis goes on as usual). */
static bool violation_reachable(const cc_ctx *c)
{
    const cc_graph *g = c->g;
    if (!cc_is_state(g->root))
        return false;
    uint8_t *seen = calloc(g->n, 1);
    uint32_t *work = malloc(g->n * sizeof *work);
    bool found = !seen || !work;
    size_t k = 0;
    if (!found) {
        seen[g->root] = 1;
        work[k++] = g->root;
    }
    while (k && !found) {
        uint32_t s = work[--k];
        found = cc_bad(c, s);
        for (uint32_t e = cc_first(g, s); e != CC_NONE && !found; e = cc_next(g, e)) {
            uint32_t t = g->to[e];
            if (t == CC_SINK)
                found = true;
            else if (!seen[t]) {
                seen[t] = 1;
                work[k++] = t;
            }
        }
    }
    free(seen);
    free(work);
    return found;
}

cc_result *cc_analyse(cc_graph *g, size_t nevents, const cc_options *o)
{
    double t0 = u_seconds(), t1 = t0, t2 = t0;
    cc_result *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (cc_graph_seal(g)) {
        r->oom = true;
        return r;
    }
    cc_ctx c = {.g = g, .o = o, .r = r};
    c.sg = sg_new();
    /* Out of memory while exploring still yields the causes found so far: their
     * traces are final when added (README "Method"); the report says incomplete. */
    int rc = !c.sg || cc_derive(&c);
    r->hazard = !rc && violation_reachable(&c);
    t1 = u_seconds();
    if (!rc && !r->hazard) {
        /* Nothing to explain, and a model without a reachable hazard can have more
         * good histories than any budget (BEEM's hanoi.1): do not enumerate them. */
        r->unreachable = true;
    } else if (!rc) {
        if (cc_ahead_start(&c)) /* then cc_assemble tries again, after the search */
            cc_ahead_end(&c);
        if (cc_explore(&c))
            r->oom = true;
    }
    t2 = u_seconds();
    if (rc || cc_assemble(&c, nevents))
        r->oom = true;
    cc_ahead_end(&c);
    r->seconds[CC_T_DERIVE] = t1 - t0;
    r->seconds[CC_T_HISTORIES] = t2 - t1;
    r->seconds[CC_T_CAUSES] = u_seconds() - t2;
    if (c.sg) {
        for (int k = 0; k < SG_NCOLOURS; k++)
            r->colours[k] = sg_count(c.sg, (sg_colour)k);
        r->bad = r->colours[SG_RED] + r->colours[SG_ORANGE] + r->colours[SG_GREY];
        r->good = r->colours[SG_GREEN] + r->colours[SG_BLACK];
        r->bytes += sg_bytes(c.sg) + g->n;
    }
    sg_free(c.sg);
    r->sf = c.sf; /* the trails' run search needs the same notion of bad and settled */
    cc_rev_free(&c.rev);
    free(c.heads);
    free(c.final_row[0]);
    free(c.final_row[1]);
    free(c.evx.start);
    free(c.evx.src);
    free(c.evx.dst);
    return r;
}

_Static_assert((int)CC_SF_BAD == (int)CC_S_BAD && (int)CC_SF_DOOM == (int)CC_S_DOOM &&
                   (int)CC_SF_NOEND == (int)CC_S_NOEND,
               "the public derived flags are the analysis' own");

uint8_t *cc_derive_flags(cc_graph *g)
{
    if (cc_graph_seal(g))
        return NULL;
    cc_ctx c = {.g = g};
    uint8_t *sf = cc_derive(&c) ? NULL : c.sf;
    if (!sf)
        free(c.sf);
    cc_rev_free(&c.rev);
    return sf;
}

static void free_traces(cc_trace *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(t[i].ev);
    free(t);
}

void cc_result_free(cc_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->ncauses; i++) {
        free(r->causes[i].occ);
        free(r->causes[i].absent);
        free(r->causes[i].ordered);
        free(r->causes[i].good);
    }
    free(r->causes);
    free_traces(r->uncaused, r->nuncaused);
    free_traces(r->ambiguous, r->nambiguous);
    free(r->sf);
    free(r);
}
