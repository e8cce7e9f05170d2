/*
 * cc_ac22.c - AC2(2) and the non-occurrence of events (Def. 10, Theorem 3), for all
 * orders of a minimal bad multiset m at once.
 *
 * For one order sigma of m the question is: which good runs tau contain sigma's
 * occurrences in sigma's order (tau restricted to m's occurrences is sigma) plus some
 * extra occurrences Q, with Q minimal?  Their extras are what prevents the hazard,
 * so their non-occurrence is part of the cause, in the gap of sigma where they
 * occurred.  An extra is an occurrence beyond m's count of its event, so an event
 * can only be an extra once sigma's occurrences of it are all past.
 *
 * The orders are the words of the automaton of cc_orders.c (states X; a state fixes
 * the multiset k of the prefix read).  One pass forward over it replaces a search per
 * order, of which BEEM's protocols have up to 10^21.  A node of the pass is (X, R):
 * R, the prefix's configurations, is everything a run tau can have reached while
 * matching that prefix of sigma: a set of (state s, extras Q).  R is closed under
 * silent moves and extra moves (an extra taken there sits in the gap after X's
 * prefix: gap index = how many of sigma's occurrences precede it); a move of sigma's
 * next event is a step of the pass.
 * Within R:
 *   - a configuration at a bad state is dropped (tau never violates);
 *   - (s, Q') with Q' strictly inside Q dominates (s, Q), Q' != {}: every completion
 *     of Q is dominated by the same completion of Q', so Q's extras could never
 *     count (the empty Q dominates nothing: its completion without more extras is
 *     sigma itself, which prevents nothing);
 *   - two configurations (s, Q) merge: same future, same Q;
 *   - a state from which no order can still be finished as a good run (viability
 *     rows, below) is dropped.
 * Two prefixes with equal (X, R) have equal futures, so they are one node: the pass
 * costs (automaton states) x (distinct R per state), and R is mostly trivial,
 * because extras are only possible once an event's occurrences are used up.  At a
 * final X the solutions are the configurations in a settled state with Q != {};
 * those with a minimal Q say which extras prevent the hazard, a configuration with
 * Q = {} in a settled state means a good run has sigma's very trace (ambiguity).
 *
 * The work is split in two passes: pass 1 (above) closes the configurations and
 * finds the Q minimal at some final node; pass 2 ("where the minimal extras sit")
 * goes backward over pass 1's nodes and finds, per node and per set B of its
 * configurations from which the rest of an order leads to a minimal solution, the
 * events whose extras lead into B: the labels (event, gap index) of that gap.  Gaps
 * are named by index because all prefixes of one automaton state are equally long;
 * cc_cause.c follows the paths of pass 2 and names each order's runs of labelled
 * gaps by the occurrences around them.  Pass 1 itself runs in rounds ("rounds of
 * pass 1"): a cheap pass finds candidate minimal Q's, a second drops every Q
 * strictly beyond a candidate and is kept when a check over its graph proves that
 * nothing dropped could have been a minimal solution; otherwise the full pass runs.
 *
 * Invariants: a label is CC_LABEL_BIT | event << 32 | gap, 0 <= gap <= |m|; pass 1's
 * canonical R is its configurations sorted by (s, Q), so equal sets intern to one id;
 * a pass 2 node is (pass 1 node, B), its cc_pnode.r that pass 1 node, its labels all
 * at that node's gap, ascending; every order of m is exactly one path of pass 2 from
 * one of its nstart start nodes to a final node, and pass 2's nodes are numbered so
 * that every edge leads to a later node.
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

/* A label: event type e extra in gap g (g occurrences of the order before it).  The
 * top bit is set so that no label is 0, which pass 2's moves use for "no label". */
static uint64_t label(uint32_t ev, uint32_t gap)
{
    return CC_LABEL_BIT | (uint64_t)ev << 32 | gap;
}

/* ---- configurations during a closure ---- */

typedef struct {
    uint32_t s;
    sg_ms q;
    uint32_t qsize;
    uint32_t next_at; /* next configuration at the same state (dominance lists) */
    bool dead, queued;
} conf;

/* A configuration of a canonical R, s << 32 | q: R is an array of them, ascending,
 * so by (s, q).  One word, so that sorting R is a radix sort of integers (sorting
 * 20-byte structures through qsort's comparator was a fifth of bakery.4's time). */
typedef uint64_t rconf;

static uint32_t rc_s(rconf x)
{
    return (uint32_t)(x >> 32);
}

static sg_ms rc_q(rconf x)
{
    return (sg_ms)x;
}

/* sg_ms_add's results, cached per pass: a closure adds the same few events to the same
 * few Q over and over, and the subset graph's own step table is large enough (10^7
 * entries after krebs.2's history search) that each lookup there missed the cache:
 * 42% of krebs.2's analysis was that lookup.  Direct mapped, a power of two. */
#define MS_CACHE 16384

/* close_set's return when a lazy pass gives up (run_pass) */
#define LAZY_STOP 2

typedef struct {
    cc_ctx *c;
    const cc_oaut *a;
    bool extras;
    uint32_t *mcount; /* per event type: its count in m */
    size_t nevents, nocc;
    bitstr_t *xbits; /* per automaton state a row of xrow bytes: is_extra() */
    size_t xrow;
    bitstr_t *viable;    /* viability rows (all_rows: one per automaton state), or NULL */
    bitstr_t *final_row; /* the final states' row */
    size_t row;          /* bytes per row */
    bool all_rows;
    /* rows_lazy: the automaton is small enough for a row per state (ROW_PASSES), but
     * they are not computed yet; a pass then runs without them until its closures
     * have scanned work_limit moves, a part of what the rows would cost (state_rows) */
    bool rows_lazy;
    size_t work, work_limit;
    size_t ticks0, explored0; /* cc_ctx's counters when a lazy pass began */
    /* the closure's working set */
    conf *cf;
    size_t ncf, cfcap;
    uint32_t *head;    /* cc_heads(): per state, its first configuration */
    uint32_t **bucket; /* configurations to (re)process, by |Q| */
    size_t *nb, *bcap, nbuckets;
    /* solutions known at a final state (for pruning what strictly contains them) */
    sg_ms *sol;
    size_t nsol, solcap;
    uint64_t *ckey; /* MS_CACHE of each */
    sg_ms *cval;
    /* rounds (cc_ac22_pass): round 1 drops every Q beyond `bound`; round 2 drops a Q
     * strictly beyond one of `cand` and notes where, for verify() */
    uint32_t bound;
    const sg_ms *cand;
    size_t ncand;
    rconf *drop; /* round 2: node << 32 | Q dropped (the closure's own: Q alone) */
    size_t ndrop, dropcap, drop0;
    uint8_t *fmask; /* per final node: which minq are its minimal solutions */
    size_t fmaskcap;
    /* the pass */
    u_intern rs;   /* canonical R's (rconf arrays) */
    rconf *tmp;    /* the radix sort's other half (sercap too) */
    u_map node_of; /* (X << 32 | R) -> pass node */
    cc_pass *out;
    rconf *ser; /* the canonical form being built */
    size_t sercap;
} pass;

static uint32_t count_in(const pass *p, sg_ms k, uint32_t e)
{
    return sg_ms_count(p->c->sg, k, e);
}

static sg_ms ms_add(pass *p, sg_ms q, uint32_t e)
{
    uint64_t key = (uint64_t)q << 32 | e; /* never UINT64_MAX: e < 2^28 */
    size_t h = (size_t)(u_hash64(key) & (MS_CACHE - 1));
    if (p->ckey[h] == key)
        return p->cval[h];
    sg_ms r = sg_ms_add(p->c->sg, q, e);
    if (r != SG_INVALID) {
        p->ckey[h] = key;
        p->cval[h] = r;
    }
    return r;
}

/* Whether event type e is an extra at automaton state X: every occurrence of it in
 * m is in X's prefix (events outside m always are). */
static bool is_extra(const pass *p, uint32_t X, uint32_t e)
{
    return bit_test(p->xbits + (size_t)X * p->xrow, (int)e);
}

/* The rows of is_extra, once per automaton state: forward, since a state's row is its
 * predecessor's plus the event read if that was the event's last occurrence in m
 * (all predecessors agree: they share k).  Computing the row per closure from the
 * multisets took a binary search per event type. */
static int extra_rows(pass *p)
{
    const cc_oaut *a = p->a;
    p->xrow = bitstr_size((int)p->nevents + 1);
    p->xbits = calloc(a->nx * p->xrow + 1, 1);
    uint8_t *done = calloc(a->nx + 1, 1);
    if (!p->xbits || !done) {
        free(done);
        return -1;
    }
    for (uint32_t e = 0; p->extras && a->nx && e <= p->nevents; e++)
        if (!p->mcount[e])
            bit_set(p->xbits, (int)e);
    for (uint32_t x = 0; p->extras && x < a->nx; x++)
        for (uint32_t m = a->first[x]; m < a->first[x + 1]; m++) {
            uint32_t x2 = a->mto[m], e = a->mev[m] - 1;
            if (done[x2])
                continue;
            done[x2] = 1;
            memcpy(p->xbits + (size_t)x2 * p->xrow, p->xbits + (size_t)x * p->xrow, p->xrow);
            if (count_in(p, a->k[x2], e) == p->mcount[e])
                bit_set(p->xbits + (size_t)x2 * p->xrow, (int)e);
        }
    free(done);
    return 0;
}

static int enqueue(pass *p, uint32_t i)
{
    conf *x = &p->cf[i];
    if (x->queued || x->dead)
        return 0;
    size_t b = x->qsize;
    if (b >= p->nbuckets) {
        size_t old = p->nbuckets;
        if (U_GROW_ALL(p->nbuckets, b, 8, U_ARR(p->bucket), U_ARR(p->nb), U_ARR(p->bcap)))
            return -1;
        for (size_t k = old; k < p->nbuckets; k++) {
            p->bucket[k] = NULL;
            p->nb[k] = p->bcap[k] = 0;
        }
    }
    if (U_GROW(p->bucket[b], p->bcap[b], p->nb[b]))
        return -1;
    p->bucket[b][p->nb[b]++] = i;
    x->queued = true;
    return 0;
}

static bool viable(const pass *p, uint32_t X, uint32_t s)
{
    if (!p->viable)
        return true;
    if (p->all_rows)
        return bit_test(p->viable + (size_t)X * p->row, (int)s);
    return !p->a->final[X] || bit_test(p->final_row, (int)s);
}

/* A strictly smaller Q than q is a known solution's (at a final state). */
static bool beyond_solution(const pass *p, sg_ms q)
{
    for (size_t i = 0; i < p->nsol; i++)
        if (sg_ms_subset(p->c->sg, p->sol[i], q))
            return true;
    return false;
}

/* q strictly beyond a candidate (round 2). */
static bool beyond_candidate(const pass *p, sg_ms q, uint32_t qsize)
{
    for (size_t i = 0; i < p->ncand; i++)
        if (sg_ms_size(p->c->sg, p->cand[i]) < qsize && sg_ms_subset(p->c->sg, p->cand[i], q))
            return true;
    return false;
}

/* Puts (s, q) into the working set, keeping it an antichain per state. */
static int insert(pass *p, uint32_t X, uint32_t s, sg_ms q, uint32_t qsize)
{
    cc_ctx *c = p->c;
    if (cc_bad(c, s) || !viable(p, X, s) || (p->nsol && beyond_solution(p, q)))
        return 0;
    if (q && p->bound && qsize > p->bound)
        return 0;
    if (q && p->ncand && beyond_candidate(p, q, qsize)) {
        if (U_GROW(p->drop, p->dropcap, p->ndrop))
            return -1;
        p->drop[p->ndrop++] = q;
        return 0;
    }
    uint32_t h = p->head[s];
    for (uint32_t j = h; j != U_INVALID; j = p->cf[j].next_at)
        if (p->cf[j].q == q)
            return 0; /* known, or dominated before (dead) */
    for (uint32_t j = h; q && j != U_INVALID; j = p->cf[j].next_at) {
        /* The empty Q dominates nothing: its completion without further extras
         * is sigma itself, which prevents nothing, while q's is a solution. */
        if (p->cf[j].dead || !p->cf[j].q)
            continue;
        if (sg_ms_subset(c->sg, p->cf[j].q, q))
            return 0; /* dominated */
        if (sg_ms_subset(c->sg, q, p->cf[j].q))
            p->cf[j].dead = true; /* the new one dominates it */
    }
    if (U_GROW(p->cf, p->cfcap, p->ncf))
        return -1;
    uint32_t i = (uint32_t)p->ncf++;
    p->cf[i] = (conf){.s = s, .q = q, .qsize = qsize, .next_at = h};
    p->head[s] = i;
    return enqueue(p, i);
}

static void reset_closure(pass *p)
{
    for (size_t i = 0; i < p->ncf; i++)
        p->head[p->cf[i].s] = U_INVALID; /* cc_heads' rule */
    p->ncf = 0;
    for (size_t b = 0; b < p->nbuckets; b++)
        p->nb[b] = 0;
    p->nsol = 0;
    p->drop0 = p->ndrop;
}

/* Closes the working set at automaton state X under silent and extra moves (extras
 * in the gap after X's prefix).  At a final state, solutions found prune
 * configurations strictly beyond them. */
static int close_set(pass *p, uint32_t X)
{
    cc_ctx *c = p->c;
    const cc_graph *g = c->g;
    size_t level = sg_ms_size(c->sg, p->a->k[X]);
    bool final = p->a->final[X];
    for (size_t b = 0; b < p->nbuckets; b++) {
        for (size_t n = 0; n < p->nb[b]; n++) {
            uint32_t i = p->bucket[b][n];
            p->cf[i].queued = false;
            if (p->cf[i].dead)
                continue;
            /* a lazy pass gives up before it costs more than the rows, or before it
             * would spend the budget that a pass with rows might not need */
            if (p->rows_lazy && (p->work > p->work_limit || c->ticks + 1 > c->budget ||
                                 (c->soft && c->ticks + 1 > c->soft)))
                return LAZY_STOP;
            if (!cc_tick(c, level))
                return 1;
            conf x = p->cf[i]; /* p->cf may move while inserting */
            if (final && x.q && cc_settled(c, x.s)) {
                if (U_GROW(p->sol, p->solcap, p->nsol))
                    return -1;
                p->sol[p->nsol++] = x.q;
            }
            for (uint32_t e = cc_first(g, x.s); e != CC_NONE; e = cc_next(g, e)) {
                p->work++;
                if (g->to[e] == CC_SINK)
                    continue;
                uint32_t ev = g->ev[e] & CC_EV_MASK;
                int rc = 0;
                if (ev == CC_SILENT)
                    rc = insert(p, X, g->to[e], x.q, x.qsize);
                else if (is_extra(p, X, ev - 1)) {
                    sg_ms q2 = ms_add(p, x.q, ev - 1);
                    if (q2 == SG_INVALID)
                        return -1;
                    rc = insert(p, X, g->to[e], q2, x.qsize + 1);
                }
                if (rc)
                    return -1;
            }
        }
        p->nb[b] = 0;
    }
    return 0;
}

/* ---- canonical R ---- */

/* v[0..n) ascending: least significant byte first, only over the bytes in which
 * the keys differ (few: the states and multisets of one R are close together);
 * insertion sort for few keys. */
static void sort_keys(rconf *v, rconf *tmp, size_t n)
{
    if (n <= 24) {
        for (size_t i = 1; i < n; i++) {
            rconf x = v[i];
            size_t j = i;
            for (; j > 0 && v[j - 1] > x; j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    rconf diff = 0;
    for (size_t i = 1; i < n; i++)
        diff |= v[i] ^ v[0];
    for (unsigned sh = 0; sh < 64; sh += 8) {
        if (!((diff >> sh) & 0xff))
            continue;
        uint32_t cnt[257] = {0};
        for (size_t i = 0; i < n; i++)
            cnt[((v[i] >> sh) & 0xff) + 1]++;
        for (size_t d = 1; d <= 256; d++)
            cnt[d] += cnt[d - 1];
        for (size_t i = 0; i < n; i++)
            tmp[cnt[(v[i] >> sh) & 0xff]++] = v[i];
        memcpy(v, tmp, n * sizeof *v);
    }
}

/* The working set's live configurations as a canonical R id. */
static uint32_t canonical(pass *p)
{
    size_t live = 0;
    for (size_t i = 0; i < p->ncf; i++)
        if (!p->cf[i].dead)
            live++;
    if (live > p->sercap) {
        rconf *v = realloc(p->ser, live * sizeof *v);
        if (v)
            p->ser = v;
        rconf *t = realloc(p->tmp, live * sizeof *t);
        if (t)
            p->tmp = t;
        if (!v || !t)
            return U_INVALID;
        p->sercap = live;
    }
    live = 0;
    for (size_t i = 0; i < p->ncf; i++)
        if (!p->cf[i].dead)
            p->ser[live++] = (rconf)p->cf[i].s << 32 | p->cf[i].q;
    sort_keys(p->ser, p->tmp, live);
    bool fresh;
    return u_intern_put(&p->rs, p->ser, live * sizeof *p->ser, &fresh);
}

static const rconf *r_confs(const pass *p, uint32_t r, uint32_t *nconf)
{
    *nconf = (uint32_t)(u_intern_len(&p->rs, r) / sizeof(rconf));
    return u_intern_key(&p->rs, r);
}

/* The index of (s, q) in R's sorted array, U_INVALID when it is not there. */
static uint32_t r_find(const rconf *v, uint32_t n, uint32_t s, sg_ms q)
{
    rconf key = (rconf)s << 32 | q;
    size_t lo = u_lower64(v, n, key);
    return lo < n && v[lo] == key ? (uint32_t)lo : U_INVALID;
}

/* Round 2: the Q's the closure dropped, made distinct and noted against the node
 * it made (node << 32 | Q). */
static int note_drops(pass *p, uint32_t node)
{
    size_t n = p->ndrop - p->drop0, w = 0;
    rconf *v = p->drop + p->drop0, *tmp = n > 24 ? malloc(n * sizeof *tmp) : NULL;
    if (n > 24 && !tmp)
        return -1;
    sort_keys(v, tmp, n);
    free(tmp);
    for (size_t i = 0; i < n; i++)
        if (!w || v[w - 1] != v[i])
            v[w++] = v[i];
    for (size_t i = 0; i < w; i++)
        v[i] |= (rconf)node << 32;
    p->ndrop = p->drop0 = p->drop0 + w;
    return 0;
}

/* ---- the pass's nodes ---- */

static uint32_t new_node(cc_pass *o, uint32_t X, uint32_t r)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 256;
        cc_pnode *v = realloc(o->node, cap * sizeof *v);
        if (!v)
            return U_INVALID;
        o->node = v;
        o->cap = cap;
    }
    o->node[o->n] = (cc_pnode){.x = X, .r = r, .count = 0, .out = CC_NONE};
    return (uint32_t)o->n++;
}

static void add_count(cc_pnode *nd, double count)
{
    nd->count += count;
    if (nd->count > 1e300)
        nd->count = 1e300;
}

static uint32_t pass_node(pass *p, uint32_t X, uint32_t r, double count)
{
    uint64_t key = (uint64_t)X << 32 | r;
    uint32_t i = u_map_get(&p->node_of, key);
    if (i == U_INVALID) {
        i = new_node(p->out, X, r);
        if (i == U_INVALID || u_map_put(&p->node_of, key, i))
            return U_INVALID;
    }
    add_count(&p->out->node[i], count);
    return i;
}

static int pass_edge(cc_pass *o, uint32_t from, uint32_t ev, uint32_t to)
{
    if (o->ne == o->ecap) {
        size_t cap = o->ecap ? 2 * o->ecap : 256;
        cc_pedge *v = realloc(o->edge, cap * sizeof *v);
        if (!v)
            return -1;
        o->edge = v;
        o->ecap = cap;
    }
    o->edge[o->ne] = (cc_pedge){ev, to, o->node[from].out};
    o->node[from].out = (uint32_t)o->ne++;
    return 0;
}

/* From node i by event ev to automaton state X2: the successor R, closed. */
static int step(pass *p, uint32_t i, uint32_t ev, uint32_t X2, uint32_t *to)
{
    const cc_graph *g = p->c->g;
    uint32_t nconf;
    const rconf *v = r_confs(p, p->out->node[i].r, &nconf);
    double count = p->out->node[i].count;
    reset_closure(p);
    int rc = 0;
    for (uint32_t k = 0; k < nconf && !rc; k++)
        for (uint32_t ed = cc_first(g, rc_s(v[k])); ed != CC_NONE && !rc; ed = cc_next(g, ed))
            if ((g->ev[ed] & CC_EV_MASK) == ev && g->to[ed] != CC_SINK)
                rc = insert(p, X2, g->to[ed], rc_q(v[k]),
                            (uint32_t)sg_ms_size(p->c->sg, rc_q(v[k])));
    if (!rc)
        rc = close_set(p, X2);
    uint32_t r = rc ? U_INVALID : canonical(p);
    if (r == U_INVALID)
        return rc ? rc : -1;
    *to = pass_node(p, X2, r, count);
    return *to == U_INVALID || note_drops(p, *to) ? -1 : 0;
}
/* ---- viability rows ---- */

/* Row x: from which recorded states can a run that has read a prefix of state x
 * still read a rest of an order and end settled, moving freely by silent moves and
 * x's extras?  Rows are computed backward over the automaton, each seeded through
 * its successors' rows by their event; a configuration outside its row can reach no
 * solution and no ambiguity, and is dropped.  All final states share one row (they
 * all have k = m, where every event is an extra).  The rows cost a backward pass
 * over the graph per automaton state: for an automaton of a few states over a large
 * graph (airbag: 5 states, 10^7 recorded states, where a σ's last event makes the
 * hazard inevitable from nearly everywhere) they remove most of each closure; for a
 * long automaton over a small graph (bakery.3: 1,557 states) they cost more than
 * the closures they save, and so they do for a short automaton whose closures stay
 * small (bakery.4 with [] ((number[0] == 2) -> [] !(number[1] == 3)): 2.3 s of rows
 * for closures of 0.1 s).  So rows per state are considered for automata of at most
 * ROW_PASSES states only, and made only when a pass without them has scanned as many
 * moves as the rows would (run_pass: the pass then starts again with them, so a
 * multiset costs at most about twice its cost with rows); otherwise only the final
 * row is used.  Rows only drop configurations that reach no solution, so the result
 * is the same either way.  The final row lets every move (at k = m every event is an
 * extra), so it is the same for all multisets: it is computed once per analysis and
 * kept in cc_ctx.final_row. */
#define ROW_PASSES 64

/* Backward over edges allowed at x (silent, extras) from the seeds in work[0..k). */
static void close_row(const pass *p, uint32_t x, bitstr_t *row, uint32_t *work, size_t k)
{
    const cc_ctx *c = p->c;
    sg_ms kx = p->a->k[x];
    bool final = p->a->final[x];
    const cc_graph *g = c->g;
    while (k) {
        uint32_t t = work[--k];
        for (uint32_t i = c->rev.start[t]; i < c->rev.start[t + 1]; i++) {
            uint32_t s = c->rev.src[i];
            if (bit_test(row, (int)s) || cc_bad(c, s))
                continue;
            bool free_move = false;
            CC_EACH_INTO(g, s, t, e)
            {
                uint32_t ev = g->ev[e] & CC_EV_MASK;
                free_move |= ev == CC_SILENT ||
                             (p->extras && (final || count_in(p, kx, ev - 1) == p->mcount[ev - 1]));
            }
            if (free_move) {
                bit_set(row, (int)s);
                work[k++] = s;
            }
        }
    }
}

/* A move that event_index() keeps: an event, not into CC_SINK. */
static bool indexed(const cc_graph *g, uint32_t e)
{
    return (g->ev[e] & CC_EV_MASK) != CC_SILENT && g->to[e] != CC_SINK;
}

/* The event moves of the graph by event id (cc_ctx.evx), for seeding viability rows:
 * a row's seeds are the sources of its successor row's moves by one event, and
 * finding them from the successor row's states and all their predecessors read
 * every reverse edge once per automaton move (three quarters of the AC2(2) pass on
 * airbag NOISE=32, where one move in six is an event).  Not built where events are
 * more than a quarter of the moves (BEEM labels every step): there the index would be
 * as large as the reverse edges.  False when there is none. */
static bool event_index(cc_ctx *c)
{
    const cc_graph *g = c->g;
    if (c->evx_tried)
        return c->evx.start != NULL;
    c->evx_tried = true;
    /* per event id v, start[v + 1] counts its moves first (ids are at most
     * CC_MAX_EVENTS), then the prefix sums make it the CSR start */
    uint32_t *start = calloc(CC_MAX_EVENTS + 2, sizeof *start);
    if (!start)
        return false; /* the rows are seeded the slow way */
    size_t nev = 0, all = 0;
    uint32_t top = 0;
    for (size_t s = 0; s < g->n; s++)
        for (uint32_t e = cc_first(g, s); e != CC_NONE; e = cc_next(g, e), all++)
            if (indexed(g, e)) {
                uint32_t v = g->ev[e] & CC_EV_MASK;
                start[v + 1]++;
                nev++;
                top = v > top ? v : top;
            }
    uint32_t *src = NULL, *dst = NULL, *fill = NULL;
    if (nev && nev <= all / 4) {
        src = malloc(nev * sizeof *src);
        dst = malloc(nev * sizeof *dst);
        fill = malloc(((size_t)top + 1) * sizeof *fill);
    }
    if (!src || !dst || !fill) { /* no events, too many, or no memory */
        free(start);
        free(src);
        free(dst);
        free(fill);
        return false;
    }
    for (uint32_t v = 0; v <= top; v++)
        start[v + 1] += start[v];
    memcpy(fill, start, ((size_t)top + 1) * sizeof *fill);
    for (size_t s = 0; s < g->n; s++)
        for (uint32_t e = cc_first(g, s); e != CC_NONE; e = cc_next(g, e))
            if (indexed(g, e)) {
                uint32_t i = fill[g->ev[e] & CC_EV_MASK]++;
                src[i] = (uint32_t)s;
                dst[i] = g->to[e];
            }
    free(fill);
    c->evx.start = start;
    c->evx.src = src;
    c->evx.dst = dst;
    c->evx.nev = top;
    c->r->bytes += (CC_MAX_EVENTS + 2) * 4 + nev * 8;
    return true;
}

/* Seeds row from `next` through automaton move m (event a->mev[m]): the states not in
 * row and not bad with a move of that event into next; appended to work. */
static size_t seed_row(pass *p, uint32_t m, const bitstr_t *next, bitstr_t *row, uint32_t *work,
                       size_t k)
{
    cc_ctx *c = p->c;
    const cc_graph *g = c->g;
    uint32_t v = p->a->mev[m];
    if (c->evx.start) {
        if (v > c->evx.nev)
            return k;
        for (uint32_t i = c->evx.start[v]; i < c->evx.start[v + 1]; i++) {
            uint32_t s = c->evx.src[i];
            if (bit_test(next, (int)c->evx.dst[i]) && !bit_test(row, (int)s) && !cc_bad(c, s)) {
                bit_set(row, (int)s);
                work[k++] = s;
            }
        }
        return k;
    }
    for (size_t b = 0; b < p->row; b++)
        for (unsigned bits = next[b]; bits; bits &= bits - 1) {
            uint32_t t = (uint32_t)(8 * b + (size_t)__builtin_ctz(bits));
            for (uint32_t i = c->rev.start[t]; i < c->rev.start[t + 1]; i++) {
                uint32_t s = c->rev.src[i];
                if (bit_test(row, (int)s) || cc_bad(c, s))
                    continue;
                bool by_event = false;
                CC_EACH_INTO(g, s, t, e)
                {
                    by_event |= (g->ev[e] & CC_EV_MASK) == v;
                }
                if (by_event) {
                    bit_set(row, (int)s);
                    work[k++] = s;
                }
            }
        }
    return k;
}

static int viability(pass *p)
{
    cc_ctx *c = p->c;
    const cc_graph *g = c->g;
    const cc_oaut *a = p->a;
    size_t N = g->n + 1, k = 0;
    if (!c->rev.start || (c->o->noprune & CC_NOPRUNE_ROWS))
        return 0; /* no reverse edges (or --no-prune rows): no pruning */
    p->row = (N + 7) / 8;
    /* rows per state are made only once a pass without them has cost as much
     * (state_rows); the final row is always made, and cached */
    p->all_rows = false;
    p->rows_lazy = a->nx <= ROW_PASSES;
    p->viable = calloc(p->row + 1, 1);
    p->final_row = calloc(p->row + 1, 1);
    uint32_t *work = malloc(N * sizeof *work);
    if (!p->viable || !p->final_row || !work) {
        free(work);
        free(p->viable);
        free(p->final_row);
        p->viable = p->final_row = NULL;
        return 0; /* only a pruning */
    }
    uint32_t fx = 0;
    while (fx < a->nx && !a->final[fx])
        fx++;
    bitstr_t **cached = &c->final_row[p->extras];
    if (fx < a->nx && *cached) /* a final row does not depend on m (close_row) */
        memcpy(p->final_row, *cached, p->row);
    else {
        for (uint32_t s = 0; s < g->n; s++)
            if (cc_settled(c, s)) {
                bit_set(p->final_row, (int)s);
                work[k++] = s;
            }
        close_row(p, fx < a->nx ? fx : 0, p->final_row, work, k);
        if (fx < a->nx && (*cached = malloc(p->row + 1)))
            memcpy(*cached, p->final_row, p->row + 1);
    }
    free(work);
    return 0;
}

/* The rows of every automaton state (rows_lazy: a pass without them cost as much).
 * 0, or -1 when out of memory (then the pass goes on with the final row only). */
static int state_rows(pass *p)
{
    cc_ctx *c = p->c;
    const cc_oaut *a = p->a;
    p->rows_lazy = false;
    uint32_t *work = malloc((c->g->n + 1) * sizeof *work);
    bitstr_t *v = calloc(a->nx * p->row + 1, 1);
    if (!work || !v) {
        free(work);
        free(v);
        return -1;
    }
    event_index(c);
    for (size_t x = a->nx; x-- > 0;) {
        bitstr_t *row = v + x * p->row;
        if (a->final[x]) {
            memcpy(row, p->final_row, p->row);
            continue;
        }
        size_t k = 0;
        for (uint32_t m = a->first[x]; m < a->first[x + 1]; m++)
            k = seed_row(p, m, v + (size_t)a->mto[m] * p->row, row, work, k);
        close_row(p, (uint32_t)x, row, work, k);
    }
    free(work);
    free(p->viable);
    p->viable = v;
    p->all_rows = true;
    return 0;
}

/* ---- pass 1: configurations ---- */

/* The solutions of final R (configurations in a settled state with Q != {}) whose Q
 * is minimal among them (configurations at different states may have comparable
 * Q), as indices into R in *idx (room for nconf), their number returned;
 * *ambiguous when a settled configuration has Q = {}. */
static size_t solutions(const pass *p, const rconf *v, uint32_t nconf, uint32_t *idx,
                        bool *ambiguous)
{
    size_t n = 0;
    *ambiguous = false;
    for (uint32_t k = 0; k < nconf; k++)
        if (cc_settled(p->c, rc_s(v[k]))) {
            if (rc_q(v[k]))
                idx[n++] = k;
            else
                *ambiguous = true;
        }
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        bool minimal = true;
        for (size_t j = 0; j < n && minimal; j++)
            minimal = !sg_ms_subset(p->c->sg, rc_q(v[idx[j]]), rc_q(v[idx[i]]));
        if (minimal)
            idx[w++] = idx[i];
    }
    return w;
}

/* verify() represents the minimal solutions of a final node as a bit mask over the
 * pass's minimal Q's and the finals a node reaches as a set of masks in one word:
 * so it verifies passes with at most 6 minimal Q's (BEEM's have 1 or 2). */
#define VERIFY_MINQ 6

/* Evaluates the final node i of pass 1: ambiguity, and the minimal Q's for pass 2. */
static int evaluate(pass *p, uint32_t i)
{
    cc_pnode *nd = &p->out->node[i];
    uint32_t nconf;
    const rconf *v = r_confs(p, nd->r, &nconf);
    uint32_t *idx = malloc((nconf + 1) * sizeof *idx);
    if (!idx)
        return -1;
    size_t n = solutions(p, v, nconf, idx, &nd->ambiguous), t;
    int rc = U_GROW(p->fmask, p->fmaskcap, i);
    if (!rc)
        p->fmask[i] = 0;
    for (size_t j = 0; j < n && !rc; j++) {
        for (t = 0; t < p->out->nminq && p->out->minq[t] != rc_q(v[idx[j]]); t++)
            ;
        if (t == p->out->nminq) {
            if (U_GROW(p->out->minq, p->out->minqcap, p->out->nminq))
                rc = -1;
            else
                p->out->minq[p->out->nminq++] = rc_q(v[idx[j]]);
        }
        if (t < VERIFY_MINQ)
            p->fmask[i] |= (uint8_t)(1u << t);
    }
    free(idx);
    return rc;
}

static void pass_free(pass *p)
{
    reset_closure(p);
    free(p->cf);
    for (size_t b = 0; b < p->nbuckets; b++)
        free(p->bucket[b]);
    free(p->bucket);
    free(p->nb);
    free(p->bcap);
    free(p->sol);
    free(p->mcount);
    free(p->xbits);
    free(p->ckey);
    free(p->cval);
    free(p->drop);
    free(p->fmask);
    free(p->viable);
    free(p->final_row);
    free(p->ser);
    free(p->tmp);
    u_intern_free(&p->rs);
    u_map_free(&p->node_of);
}

/* Moves the per-automaton-state rows (extras, viability) from one pass to another:
 * they depend only on the graph and the automaton, so the rounds compute them once
 * (a viability row is a backward pass over the whole graph). */
static void rows_move(pass *to, pass *from)
{
    to->xbits = from->xbits;
    to->xrow = from->xrow;
    to->viable = from->viable;
    to->final_row = from->final_row;
    to->row = from->row;
    to->all_rows = from->all_rows;
    to->rows_lazy = from->rows_lazy;
    from->xbits = from->viable = from->final_row = NULL;
}

/* Pass 1 into *out; p keeps its canonical R's for pass 2 (pass_free).  The rows are
 * taken from *rows when it has them.  LAZY_STOP: a pass without the rows of each
 * automaton state gave up (close_set); the rows are then in *p. */
static int run_pass_once(pass *p, cc_ctx *c, const cc_oaut *a, size_t nevents, bool extras,
                         uint32_t bound, const sg_ms *cand, size_t ncand, pass *rows, cc_pass *out)
{
    memset(out, 0, sizeof *out);
    memset(p, 0, sizeof *p);
    p->bound = bound;
    p->cand = cand;
    p->ncand = ncand;
    p->c = c;
    p->a = a;
    p->extras = extras;
    p->out = out;
    p->nevents = nevents;
    p->ckey = malloc(MS_CACHE * sizeof *p->ckey);
    p->cval = malloc(MS_CACHE * sizeof *p->cval);
    p->mcount = calloc(nevents + 1, sizeof *p->mcount);
    p->head = cc_heads(c);
    if (!p->ckey || !p->cval || !p->mcount || !p->head)
        return -1;
    for (size_t h = 0; h < MS_CACHE; h++)
        p->ckey[h] = UINT64_MAX;
    for (uint32_t e = 0; e < nevents; e++) {
        p->mcount[e] = sg_ms_count(c->sg, a->m, e);
        p->nocc += p->mcount[e];
    }
    out->nocc = p->nocc;
    int rc = 0;
    if (rows->xbits)
        rows_move(p, rows);
    else
        rc = extra_rows(p) ? -1 : viability(p);
    if (!rc && p->rows_lazy) { /* viability() sets it only with reverse edges */
        p->work_limit = (size_t)a->nx * c->rev.start[c->g->n] / 16;
        p->ticks0 = c->ticks;
        p->explored0 = c->r->explored;
    }
    /* the start: the root, closed at gap 0 */
    uint32_t r = U_INVALID;
    if (!rc && a->nx) {
        reset_closure(p);
        rc = insert(p, 0, c->g->root, 0, 0);
        if (!rc)
            rc = close_set(p, 0);
        r = rc ? U_INVALID : canonical(p);
        if (!rc && (r == U_INVALID || pass_node(p, 0, r, 1) == U_INVALID || note_drops(p, 0)))
            rc = -1;
        out->nstart = 1;
    }
    /* nodes are made in order of their automaton state, which is by level, so one
     * sweep over the node list in creation order visits predecessors first */
    for (uint32_t i = 0; !rc && i < out->n; i++) {
        uint32_t X = out->node[i].x;
        if (a->final[X]) {
            rc = evaluate(p, i);
            continue;
        }
        for (uint32_t m = a->first[X]; m < a->first[X + 1] && !rc; m++) {
            uint32_t to;
            rc = step(p, i, a->mev[m], a->mto[m], &to);
            if (!rc)
                rc = pass_edge(out, i, a->mev[m], to);
        }
    }
    size_t b = u_intern_bytes(&p->rs) + u_map_bytes(&p->node_of) + out->cap * sizeof *out->node +
               out->ecap * sizeof *out->edge +
               (p->viable ? (p->all_rows ? a->nx + 1 : 2) * p->row : 0);
    if (b > c->r->bytes)
        c->r->bytes = b;
    return rc;
}

/* run_pass_once; where it runs lazily and gives up, again with every state's row.
 * The counters of the attempt given up are taken back: the result does not depend on
 * whether a pass ran lazily first. */
static int run_pass(pass *p, cc_ctx *c, const cc_oaut *a, size_t nevents, bool extras,
                    uint32_t bound, const sg_ms *cand, size_t ncand, pass *rows, cc_pass *out)
{
    int rc = run_pass_once(p, c, a, nevents, extras, bound, cand, ncand, rows, out);
    if (rc != LAZY_STOP)
        return rc;
    c->ticks = p->ticks0;
    c->r->explored = p->explored0;
    state_rows(p); /* clears rows_lazy; out of memory: the pass without rows, to its end */
    rows_move(rows, p);
    pass_free(p);
    cc_pass_free(out);
    return run_pass_once(p, c, a, nevents, extras, bound, cand, ncand, rows, out);
}

void cc_pass_free(cc_pass *o)
{
    for (size_t i = 0; i < o->n; i++)
        free(o->node[i].lab);
    free(o->node);
    free(o->edge);
    free(o->minq);
    memset(o, 0, sizeof *o);
}

/* ---- pass 2: where the minimal extras sit, backward ---- */

/* The labels of one order sigma are the gaps g and events e such that some good run
 * matching sigma takes an extra e in gap g and ends in a minimal solution of sigma's
 * final node.  sigma passes one pass 1 node n_g per gap, and every configuration of
 * R(n_g) is reached by every prefix that reaches n_g (that is what R is), so whether
 * such an extra exists depends on sigma only through its suffix: the extra must lead
 * into a configuration of B_g, those of n_g's useful configurations from which the
 * rest of sigma leads on to a minimal solution.  B_g is a function of B_(g+1) and the
 * move between them, so pass 2 goes backward: a node is (pass 1 node n, B), B a set
 * of n's useful configurations, seeded at a final node by its minimal solutions and
 * closed backward over the moves among n's useful configurations; the events that
 * lead into B (fresh extras and extras among useful configurations) are the node's
 * labels, all at n's gap.  Every order has exactly one path of such nodes (its B's
 * are fixed by its suffix), from one of the nodes over pass 1's start to the node
 * (final node, its solutions' B), so the orders are the paths, and the graph does
 * not split by order: what a forward pass carried as label sets per order (bakery.4:
 * 10^5-10^6 nodes per multiset over 10^3-10^4 pass 1 nodes) is here a few B's per
 * pass 1 node.  cc_cause.c turns the labels along each path into intervals named by
 * occurrences.  Why pass 1's R's serve:
 *   - which configurations a closure keeps does not depend on labels: dropping (bad
 *     state, viability, beyond a solution) and dominance look at (s, Q) only;
 *   - a kept configuration was never reached only through one that was dropped: the
 *     dominated configuration's moves lead to configurations dominated by the
 *     dominator's same moves, so they are dropped too; a configuration on the way to
 *     a minimal solution has Q inside the solution's, so it is never beyond a
 *     solution, and it is viable.
 * "Useful" configurations have a nonempty Q inside a Q minimal at some final node:
 * Q only grows along a run, so only they can be on the way to a minimal solution
 * after its first extra.  Per pass 1 node the useful configurations and their moves,
 * and per pass 1 edge the moves between its ends' useful configurations, are found
 * once and shared by every B that passes there. */

typedef struct {
    uint32_t from, to; /* indices into a pass 1 node's useful configurations */
    uint64_t lab;      /* the extra's label; 0: a silent move or a move of sigma */
} lmove;

typedef struct {
    bool built;
    uint32_t *u; /* indices into R of the useful configurations, ascending */
    uint32_t nu;
    lmove *fresh; /* extras from Q = {} (from unused) into u */
    size_t nfresh;
    lmove *inner;     /* moves among u, by from */
    uint32_t *ifirst; /* nu + 1: u[i]'s moves are inner[ifirst[i] .. ifirst[i + 1]) */
    uint32_t *sol;    /* final: the minimal solutions among u, ascending */
    size_t nsol;
    bool ambiguous;
} lnode;

typedef struct {
    bool built;
    lmove *mv; /* the event's moves from the source's u to the target's */
    size_t n;
} ledge;

typedef struct {
    uint32_t from, ev, to; /* pass 2 nodes, in creation order */
} bedge;

typedef struct {
    pass *p;           /* pass 1, with its R's */
    const cc_pass *in; /* pass 1's nodes */
    const sg_ms *useful;
    size_t nuseful;
    lnode *ln;
    ledge *le;
    cc_pass tmp;     /* pass 2's nodes in creation order (backward) */
    uint32_t *chain; /* per pass 2 node: the next one over the same pass 1 node */
    uint32_t *head;  /* per pass 1 node: its last pass 2 node made */
    uint32_t *bid;   /* per pass 2 node: its B */
    size_t chaincap, bidcap;
    bedge *e;
    size_t ne, ecap;
    u_intern bs;    /* B's: ascending indices into the pass 1 node's u */
    u_map node_of;  /* (pass 1 node << 32 | B) -> pass 2 node */
    uint8_t *inb;   /* scratch: per useful configuration of the node at hand, in B */
    uint32_t *list; /* scratch: B as a list */
    uint64_t *labs; /* scratch: the labels of B */
    size_t scratch;
} lpass;

static bool useful(const lpass *l, sg_ms q)
{
    for (size_t i = 0; i < l->nuseful; i++)
        if (sg_ms_subseteq(l->p->c->sg, q, l->useful[i]))
            return true;
    return false;
}

static int lmove_add(lmove **v, size_t *n, size_t *cap, lmove m)
{
    if (U_GROW(*v, *cap, *n))
        return -1;
    (*v)[(*n)++] = m;
    return 0;
}

static uint32_t u_find(const lnode *x, uint32_t k)
{
    size_t lo = u_lower32(x->u, x->nu, k);
    return lo < x->nu && x->u[lo] == k ? (uint32_t)lo : U_INVALID;
}

/* The useful configuration (t, q) of R as an index into x->u, U_INVALID if none. */
static uint32_t u_of(const lnode *x, const rconf *v, uint32_t n, uint32_t t, sg_ms q)
{
    uint32_t k = r_find(v, n, t, q);
    return k == U_INVALID ? U_INVALID : u_find(x, k);
}

/* Pass 1 node i's useful configurations and their moves. */
static int lnode_build(lpass *l, uint32_t i)
{
    lnode *x = &l->ln[i];
    if (x->built)
        return 0;
    pass *p = l->p;
    cc_ctx *c = p->c;
    const cc_graph *g = c->g;
    uint32_t X = l->in->node[i].x, n;
    const rconf *v = r_confs(p, l->in->node[i].r, &n);
    size_t level = sg_ms_size(c->sg, p->a->k[X]);
    x->u = malloc((n + 1) * sizeof *x->u);
    x->ifirst = malloc((n + 2) * sizeof *x->ifirst);
    if (!x->u || !x->ifirst)
        return -1;
    for (uint32_t k = 0; k < n; k++)
        if (rc_q(v[k]) && useful(l, rc_q(v[k])))
            x->u[x->nu++] = k;
    uint64_t gap = level;
    size_t fcap = 0, icap = 0, ni = 0;
    for (uint32_t k = 0; k < n; k++) { /* fresh extras from the Q = {} configurations */
        if (rc_q(v[k]))
            continue;
        if (!cc_tick(c, level))
            return 1;
        for (uint32_t e = cc_first(g, rc_s(v[k])); e != CC_NONE; e = cc_next(g, e)) {
            uint32_t ev = g->ev[e] & CC_EV_MASK;
            if (g->to[e] == CC_SINK || ev == CC_SILENT || !is_extra(p, X, ev - 1))
                continue;
            sg_ms q2 = ms_add(p, 0, ev - 1);
            if (q2 == SG_INVALID)
                return -1;
            uint32_t j = useful(l, q2) ? u_of(x, v, n, g->to[e], q2) : U_INVALID;
            if (j != U_INVALID && lmove_add(&x->fresh, &x->nfresh, &fcap,
                                            (lmove){U_INVALID, j, label(ev - 1, (uint32_t)gap)}))
                return -1;
        }
    }
    for (uint32_t a = 0; a < x->nu; a++) { /* moves among the useful ones */
        x->ifirst[a] = (uint32_t)ni;
        if (!cc_tick(c, level))
            return 1;
        rconf y = v[x->u[a]];
        uint32_t ys = rc_s(y);
        sg_ms yq = rc_q(y);
        for (uint32_t e = cc_first(g, ys); e != CC_NONE; e = cc_next(g, e)) {
            uint32_t ev = g->ev[e] & CC_EV_MASK, j = U_INVALID;
            uint64_t lb = 0;
            if (g->to[e] == CC_SINK)
                continue;
            if (ev == CC_SILENT)
                j = u_of(x, v, n, g->to[e], yq);
            else if (is_extra(p, X, ev - 1)) {
                sg_ms q2 = ms_add(p, yq, ev - 1);
                if (q2 == SG_INVALID)
                    return -1;
                j = useful(l, q2) ? u_of(x, v, n, g->to[e], q2) : U_INVALID;
                lb = label(ev - 1, (uint32_t)gap);
            }
            if (j != U_INVALID && lmove_add(&x->inner, &ni, &icap, (lmove){a, j, lb}))
                return -1;
        }
    }
    x->ifirst[x->nu] = (uint32_t)ni;
    if (p->a->final[X]) {
        uint32_t *idx = malloc((n + 1) * sizeof *idx);
        if (!idx)
            return -1;
        size_t ns = solutions(p, v, n, idx, &x->ambiguous);
        x->sol = malloc((ns + 1) * sizeof *x->sol);
        for (size_t s = 0; x->sol && s < ns; s++)
            if ((x->sol[x->nsol] = u_find(x, idx[s])) != U_INVALID)
                x->nsol++;
        free(idx);
        if (!x->sol)
            return -1;
    }
    x->built = true;
    return 0;
}

/* Pass 1 edge ed (from node i): the moves of its event between the useful
 * configurations of its ends. */
static int ledge_build(lpass *l, uint32_t i, uint32_t ed)
{
    ledge *y = &l->le[ed];
    if (y->built)
        return 0;
    const cc_graph *g = l->p->c->g;
    uint32_t j = l->in->edge[ed].to, ev = l->in->edge[ed].ev, n1, n2;
    const rconf *v1 = r_confs(l->p, l->in->node[i].r, &n1);
    const rconf *v2 = r_confs(l->p, l->in->node[j].r, &n2);
    const lnode *a = &l->ln[i], *b = &l->ln[j];
    size_t cap = 0;
    for (uint32_t k = 0; k < a->nu; k++) {
        if (!cc_tick(l->p->c, sg_ms_size(l->p->c->sg, l->p->a->k[l->in->node[i].x])))
            return 1;
        uint32_t xs = rc_s(v1[a->u[k]]);
        sg_ms xq = rc_q(v1[a->u[k]]);
        for (uint32_t e = cc_first(g, xs); e != CC_NONE; e = cc_next(g, e)) {
            if ((g->ev[e] & CC_EV_MASK) != ev || g->to[e] == CC_SINK)
                continue;
            uint32_t t = u_of(b, v2, n2, g->to[e], xq);
            if (t != U_INVALID && lmove_add(&y->mv, &y->n, &cap, (lmove){k, t, 0}))
                return -1;
        }
    }
    y->built = true;
    return 0;
}

static void lpass_free(lpass *l)
{
    for (size_t i = 0; l->ln && i < l->in->n; i++) {
        free(l->ln[i].u);
        free(l->ln[i].fresh);
        free(l->ln[i].inner);
        free(l->ln[i].ifirst);
        free(l->ln[i].sol);
    }
    for (size_t e = 0; l->le && e < l->in->ne; e++)
        free(l->le[e].mv);
    free(l->ln);
    free(l->le);
    cc_pass_free(&l->tmp);
    free(l->chain);
    free(l->head);
    free(l->bid);
    free(l->e);
    u_intern_free(&l->bs);
    u_map_free(&l->node_of);
    free(l->inb);
    free(l->list);
    free(l->labs);
}

static int u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* l->inb (seeded) closed backward over pass 1 node i's moves among its useful
 * configurations, then the pass 2 node (i, that B), made with its labels if new. */
static uint32_t bnode_of(lpass *l, uint32_t i)
{
    const lnode *x = &l->ln[i];
    for (bool grew = true; grew;) { /* few configurations, short chains */
        grew = false;
        for (uint32_t a = 0; a < x->nu; a++)
            for (uint32_t m = x->ifirst[a]; !l->inb[a] && m < x->ifirst[a + 1]; m++)
                if (l->inb[x->inner[m].to])
                    l->inb[a] = 1, grew = true;
    }
    size_t nb = 0, nl = 0;
    for (uint32_t a = 0; a < x->nu; a++)
        if (l->inb[a])
            l->list[nb++] = a;
    for (size_t m = 0; m < x->nfresh; m++)
        if (l->inb[x->fresh[m].to])
            l->labs[nl++] = x->fresh[m].lab;
    for (uint32_t m = 0; m < x->ifirst[x->nu]; m++)
        if (x->inner[m].lab && l->inb[x->inner[m].to])
            l->labs[nl++] = x->inner[m].lab;
    memset(l->inb, 0, x->nu);
    bool fresh;
    uint32_t b = u_intern_put(&l->bs, l->list, nb * sizeof *l->list, &fresh);
    if (b == U_INVALID)
        return U_INVALID;
    uint64_t key = (uint64_t)i << 32 | b;
    uint32_t k = u_map_get(&l->node_of, key);
    if (k != U_INVALID)
        return k;
    k = new_node(&l->tmp, l->in->node[i].x, i);
    size_t n = k;
    if (k == U_INVALID || u_map_put(&l->node_of, key, k) || U_GROW(l->chain, l->chaincap, n))
        return U_INVALID;
    n = k;
    if (U_GROW(l->bid, l->bidcap, n))
        return U_INVALID;
    l->bid[k] = b;
    l->chain[k] = l->head[i];
    l->head[i] = k;
    cc_pnode *nd = &l->tmp.node[k];
    nd->ambiguous = x->ambiguous;
    if (nl) {
        qsort(l->labs, nl, sizeof *l->labs, u64_cmp);
        size_t w = 0;
        for (size_t t = 0; t < nl; t++)
            if (!w || l->labs[w - 1] != l->labs[t])
                l->labs[w++] = l->labs[t];
        if (!(nd->lab = malloc(w * sizeof *nd->lab)))
            return U_INVALID;
        memcpy(nd->lab, l->labs, w * sizeof *nd->lab);
        nd->nlab = nd->labcap = w;
    }
    return k;
}

/* Room in the scratch arrays for pass 1 node i's useful configurations and labels. */
static int scratch_room(lpass *l, uint32_t i)
{
    const lnode *x = &l->ln[i];
    size_t need = x->nu + x->nfresh + x->ifirst[x->nu] + 1;
    if (need <= l->scratch)
        return 0;
    size_t old = l->scratch;
    if (U_GROW_ALL(l->scratch, need - 1, 64, U_ARR(l->inb), U_ARR(l->list), U_ARR(l->labs)))
        return -1;
    memset(l->inb + old, 0, l->scratch - old); /* inb: membership flags, all clear */
    return 0;
}

/* Pass 2 backward over pass 1's nodes (successors were made after their
 * predecessors, so from the last to the first), then renumbered forward: by pass 1
 * node, so that the nodes over pass 1's start come first (out->nstart of them) and
 * every edge leads to a later node. */
static int label_pass(pass *p, const cc_pass *in, cc_pass *out)
{
    memset(out, 0, sizeof *out);
    out->nocc = in->nocc;
    lpass l = {.p = p, .in = in, .useful = in->minq, .nuseful = in->nminq};
    l.ln = calloc(in->n + 1, sizeof *l.ln);
    l.le = calloc(in->ne + 1, sizeof *l.le);
    l.head = malloc((in->n + 1) * sizeof *l.head);
    uint32_t *renum = NULL;
    int rc = l.ln && l.le && l.head ? 0 : -1;
    for (uint32_t i = 0; !rc && i < in->n; i++) {
        l.head[i] = U_INVALID;
        rc = lnode_build(&l, i);
        for (uint32_t e = in->node[i].out; e != CC_NONE && !rc; e = in->edge[e].next)
            rc = lnode_build(&l, in->edge[e].to) || ledge_build(&l, i, e);
    }
    for (uint32_t i = (uint32_t)in->n; !rc && i-- > 0;) {
        const lnode *x = &l.ln[i];
        size_t level = sg_ms_size(p->c->sg, p->a->k[in->node[i].x]);
        if ((rc = scratch_room(&l, i)))
            break;
        if (p->a->final[in->node[i].x]) {
            for (size_t t = 0; t < x->nsol; t++)
                l.inb[x->sol[t]] = 1;
            if (bnode_of(&l, i) == U_INVALID)
                rc = -1;
            continue;
        }
        for (uint32_t ed = in->node[i].out; ed != CC_NONE && !rc; ed = in->edge[ed].next) {
            const ledge *y = &l.le[ed];
            for (uint32_t w = l.head[in->edge[ed].to]; w != U_INVALID && !rc; w = l.chain[w]) {
                if (!cc_tick(p->c, level)) {
                    rc = 1;
                    break;
                }
                size_t nb = u_intern_len(&l.bs, l.bid[w]) / sizeof(uint32_t);
                const uint32_t *bw = u_intern_key(&l.bs, l.bid[w]);
                for (size_t m = 0; m < y->n; m++) { /* seeds: moves into w's B */
                    size_t at = u_lower32(bw, nb, y->mv[m].to);
                    if (at < nb && bw[at] == y->mv[m].to)
                        l.inb[y->mv[m].from] = 1;
                }
                uint32_t v = bnode_of(&l, i);
                if (v == U_INVALID || U_GROW(l.e, l.ecap, l.ne))
                    rc = -1;
                else
                    l.e[l.ne++] = (bedge){v, in->edge[ed].ev, w};
            }
        }
    }
    renum = rc ? NULL : malloc((l.tmp.n + 1) * sizeof *renum);
    if (!rc && !renum)
        rc = -1;
    for (uint32_t i = 0; !rc && i < in->n; i++) /* forward, by pass 1 node */
        for (uint32_t k = l.head[i]; k != U_INVALID && !rc; k = l.chain[k]) {
            cc_pnode *nd = &l.tmp.node[k];
            renum[k] = new_node(out, nd->x, nd->r);
            if (renum[k] == U_INVALID)
                rc = -1;
            else {
                cc_pnode *o = &out->node[renum[k]];
                o->ambiguous = nd->ambiguous;
                o->lab = nd->lab;
                o->nlab = nd->nlab;
                o->labcap = nd->labcap;
                nd->lab = NULL;
                if (i == 0)
                    out->nstart++, o->count = 1;
            }
        }
    for (size_t m = 0; !rc && m < l.ne; m++)
        rc = pass_edge(out, renum[l.e[m].from], l.e[m].ev, renum[l.e[m].to]);
    for (uint32_t k = 0; !rc && k < out->n; k++) /* path counts: predecessors first */
        for (uint32_t e = out->node[k].out; e != CC_NONE; e = out->edge[e].next)
            add_count(&out->node[out->edge[e].to], out->node[k].count);
    free(renum);
    size_t b = u_intern_bytes(&l.bs) + u_map_bytes(&l.node_of) + out->cap * sizeof *out->node +
               out->ecap * sizeof *out->edge;
    if (b > p->c->r->bytes)
        p->c->r->bytes = b;
    lpass_free(&l);
    return rc;
}

/* ---- rounds of pass 1 ---- */

/* Round 2 is exact when no configuration it dropped could have become a minimal
 * solution: for every Q dropped at node n, every final node reachable from n has a
 * minimal solution inside Q (every completion of Q, at every final it reaches,
 * then strictly contains a solution: no dropped Q ever was a solution, as it lies
 * strictly beyond a candidate, which a kept solution does not).  Then nothing on a
 * path to a minimal solution was dropped either (its Q lies inside the solution's),
 * so the minimal solutions, their labels and ambiguity are those of the full pass.
 * *ok false when some dropped Q fails, or when there are too many minimal Q's to
 * check this way. */
static int verify(const pass *p, bool *ok)
{
    const cc_pass *o = p->out;
    *ok = false;
    if (o->nminq > VERIFY_MINQ)
        return 0;
    uint64_t *reach = malloc((o->n + 1) * sizeof *reach); /* bit M: a final with mask M */
    if (!reach)
        return -1;
    for (size_t i = o->n; i-- > 0;) { /* successors are made after their predecessors */
        uint64_t r = p->a->final[o->node[i].x] ? (uint64_t)1 << p->fmask[i] : 0;
        for (uint32_t e = o->node[i].out; e != CC_NONE; e = o->edge[e].next)
            r |= reach[o->edge[e].to];
        reach[i] = r;
    }
    *ok = true;
    for (size_t k = 0; k < p->ndrop && *ok; k++) {
        uint64_t r = reach[rc_s(p->drop[k])];
        unsigned hits = 0;
        for (size_t j = 0; j < o->nminq; j++)
            if (sg_ms_subseteq(p->c->sg, o->minq[j], rc_q(p->drop[k])))
                hits |= 1u << j;
        for (unsigned M = 0; M < 64 && *ok; M++)
            *ok = !(r >> M & 1) || (M & hits);
    }
    free(reach);
    return 0;
}

/* Round 1 keeps |Q| <= ROUND1_BOUND.  With 1, a multiset whose minimal Q's are one
 * event and a pair (bakery.4 has such) found only the event, and round 2, which drops
 * nothing beyond the pair, kept the other processes' whole loop rounds as extras:
 * 3 x 10^7 steps on one multiset, where with 2 both are candidates and round 2 costs
 * about what round 1 does. */
#define ROUND1_BOUND 2

/* Pass 1 in rounds, because most of a full pass's configurations carry Q's far beyond
 * any minimal solution (bakery.4: other processes run whole rounds of their loops as
 * extras, |Q| up to 46, while its minimal Q's have one or two events):
 *   1. a pass that keeps only |Q| <= ROUND1_BOUND, cheap, whose minimal Q's are
 *      candidates;
 *   2. a pass that drops every Q strictly beyond a candidate and notes where, then
 *      verify(): if it holds, round 2 is pass 1;
 *   3. otherwise (or without candidates) the full pass, as before the rounds.
 * Rounds 1 and 2 each cost at most what the full pass costs (their R's are parts of
 * its R's, their nodes unions of its nodes).  *exact: round 2 is pass 1 (in *p,
 * *first).  A round that runs out of budget returns 1 with nothing kept: its nodes are
 * not known to be exact. */
static int rounds(cc_ctx *c, const cc_oaut *a, size_t nevents, pass *rows, pass *p, cc_pass *first,
                  bool *exact)
{
    cc_pass r1;
    pass p1;
    *exact = false;
    int rc = run_pass(&p1, c, a, nevents, true, ROUND1_BOUND, NULL, 0, rows, &r1);
    rows_move(rows, &p1);
    size_t ncand = rc ? 0 : r1.nminq;
    sg_ms *cand = ncand ? malloc(ncand * sizeof *cand) : NULL;
    if (ncand && !cand)
        rc = -1;
    else if (ncand)
        memcpy(cand, r1.minq, ncand * sizeof *cand);
    pass_free(&p1);
    cc_pass_free(&r1);
    if (rc || !ncand)
        return rc;
    rc = run_pass(p, c, a, nevents, true, 0, cand, ncand, rows, first);
    if (!rc)
        rc = verify(p, exact);
    p->cand = NULL; /* freed below; pass 2 does not insert */
    p->ncand = 0;
    free(cand);
    if (rc || !*exact) {
        rows_move(rows, p);
        pass_free(p);
        cc_pass_free(first);
        *exact = false;
    }
    return rc;
}

/* Pass 1 (in rounds) finds which Q are minimal somewhere (R then mostly equals over
 * the prefixes of an automaton state); pass 2 finds where their extras sit, backward
 * over pass 1's nodes (above).  Without extras, or when no Q is ever minimal, pass 1
 * is the result: its nodes carry no labels. */
int cc_ac22_pass(cc_ctx *c, const cc_oaut *a, size_t nevents, bool extras, cc_pass *out)
{
    cc_pass first;
    pass p, rows = {0}; /* rows: the rounds' shared rows, between passes */
    bool exact = false;
    int rc = extras ? rounds(c, a, nevents, &rows, &p, &first, &exact) : 0;
    if (rc) { /* a round ran out (or memory did): nothing is kept */
        free(rows.xbits);
        free(rows.viable);
        free(rows.final_row);
        memset(out, 0, sizeof *out);
        return rc;
    }
    if (!exact)
        rc = run_pass(&p, c, a, nevents, extras, 0, NULL, 0, &rows, &first);
    free(rows.xbits);
    free(rows.viable);
    free(rows.final_row);
    if (rc || !extras || !first.nminq) { /* no extra is ever minimal: no labels at all */
        pass_free(&p);
        *out = first;
        return rc;
    }
    rc = label_pass(&p, &first, out);
    pass_free(&p);
    cc_pass_free(&first);
    return rc;
}

/* ---- one order: a good run with a minimal Q, for the cause's "prevented in" ---- */

/* Breadth-first over (state, position in sigma, Q), one queue per |Q|, so the first
 * good end with Q != {} has a minimal Q; parent links give its events. */
typedef struct {
    uint32_t s, pos;
    sg_ms q;
    uint32_t parent, ev; /* ev: event id of the move from the parent, or CC_SILENT */
} wnode;

typedef struct {
    cc_ctx *c;
    const uint32_t *sigma;
    size_t n, nevents;
    uint32_t *mc, *pre; /* sigma's counts; pre[pos * nevents + e]: e in sigma[0..pos) */
    wnode *v;           /* every node made, in order; cur and next index into it */
    size_t nv, vcap;
    uint32_t *cur, *next;
    size_t ncur, nnext, ccap, ncap;
    u_intern seen;
} wsearch;

static int wpush(wsearch *w, bool later, wnode y)
{
    uint32_t key[3] = {y.s, y.pos, y.q};
    bool fresh;
    uint32_t id = u_intern_put(&w->seen, key, sizeof key, &fresh);
    if (id == U_INVALID)
        return -1;
    if (!fresh)
        return 0;
    if (U_GROW(w->v, w->vcap, w->nv))
        return -1;
    w->v[w->nv] = y;
    uint32_t i = (uint32_t)w->nv++;
    if (later) {
        if (U_GROW(w->next, w->ncap, w->nnext))
            return -1;
        w->next[w->nnext++] = i;
    } else {
        if (U_GROW(w->cur, w->ccap, w->ncur))
            return -1;
        w->cur[w->ncur++] = i;
    }
    return 0;
}

/* Expands node i; *found is set when it is a good end with extras. */
static int wvisit(wsearch *w, uint32_t i, uint32_t *found)
{
    cc_ctx *c = w->c;
    wnode x = w->v[i];
    if (x.pos == w->n && x.q && cc_settled(c, x.s)) {
        *found = i;
        return 0;
    }
    for (uint32_t e = cc_first(c->g, x.s); e != CC_NONE; e = cc_next(c->g, e)) {
        uint32_t t = c->g->to[e], ev = c->g->ev[e] & CC_EV_MASK;
        if (t == CC_SINK || cc_bad(c, t))
            continue;
        wnode y = {t, x.pos, x.q, i, ev};
        bool extra = false;
        if (ev != CC_SILENT) {
            if (w->pre[x.pos * w->nevents + ev - 1] < w->mc[ev - 1]) {
                if (x.pos == w->n || w->sigma[x.pos] != ev - 1)
                    continue; /* an occurrence of sigma out of order */
                y.pos++;
            } else {
                extra = true;
                if ((y.q = sg_ms_add(c->sg, x.q, ev - 1)) == SG_INVALID)
                    return -1;
            }
        }
        if (wpush(w, extra, y))
            return -1;
    }
    return 0;
}

int cc_good_witness(cc_ctx *c, const uint32_t *sigma, size_t n, size_t nevents, uint32_t **good,
                    size_t *ngood)
{
    *good = NULL;
    *ngood = 0;
    size_t ne = nevents ? nevents : 1;
    wsearch w = {.c = c, .sigma = sigma, .n = n, .nevents = ne};
    w.mc = calloc(ne, sizeof *w.mc);
    w.pre = calloc((n + 1) * ne, sizeof *w.pre);
    int rc = w.mc && w.pre ? 0 : -1;
    for (size_t i = 0; !rc && i < n; i++) {
        w.mc[sigma[i]]++;
        memcpy(w.pre + (i + 1) * ne, w.pre + i * ne, ne * sizeof *w.pre);
        w.pre[(i + 1) * ne + sigma[i]]++;
    }
    uint32_t found = CC_NONE;
    if (!rc && !cc_bad(c, c->g->root))
        rc = wpush(&w, false, (wnode){c->g->root, 0, 0, CC_NONE, CC_SILENT});
    while (!rc && found == CC_NONE && w.ncur) {
        for (size_t k = 0; k < w.ncur && !rc && found == CC_NONE; k++) {
            if (!cc_tick(c, n)) {
                rc = 1;
                break;
            }
            rc = wvisit(&w, w.cur[k], &found);
        }
        uint32_t *t = w.cur; /* the next |Q| */
        size_t tc = w.ccap;
        w.cur = w.next;
        w.ccap = w.ncap;
        w.ncur = w.nnext;
        w.next = t;
        w.ncap = tc;
        w.nnext = 0;
    }
    if (!rc && found != CC_NONE) {
        size_t len = 0;
        for (uint32_t i = found; w.v[i].parent != CC_NONE; i = w.v[i].parent)
            len += w.v[i].ev != CC_SILENT;
        uint32_t *ev = malloc((len + 1) * sizeof *ev);
        if (!ev)
            rc = -1;
        else {
            size_t k = len;
            for (uint32_t i = found; w.v[i].parent != CC_NONE; i = w.v[i].parent)
                if (w.v[i].ev != CC_SILENT)
                    ev[--k] = w.v[i].ev - 1;
            *good = ev;
            *ngood = len;
        }
    }
    free(w.mc);
    free(w.pre);
    free(w.v);
    free(w.cur);
    free(w.next);
    u_intern_free(&w.seen);
    return rc < 0 ? -1 : 0;
}
