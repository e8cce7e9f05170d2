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
 * matching that prefix of sigma: a set of (state s, extras Q, labels L), where the
 * labels say where Q's extras sit (event, gap index: how many of sigma's occurrences
 * precede it).  Gaps are named by index, not by the occurrences around them, because
 * all prefixes of one automaton state are equally long, so indices mean the same in
 * all of them while the occurrences differ from order to order (named by occurrence,
 * bakery.3's labels split one multiset's pass into 8 x 10^5 nodes; by index, 1.2 x
 * 10^4); cc_cause.c names the gaps by each order's occurrences at the end.  R is
 * closed under silent moves and extra moves; a move of sigma's next event is a step
 * of the pass.
 * Within R:
 *   - a configuration at a bad state is dropped (tau never violates);
 *   - (s, Q') with Q' strictly inside Q dominates (s, Q), Q' != {}: every completion
 *     of Q is dominated by the same completion of Q', so Q's labels could never
 *     count (the empty Q dominates nothing: its completion without more extras is
 *     sigma itself, which prevents nothing);
 *   - two configurations (s, Q) merge, their labels united: same future, same Q;
 *   - a state from which no order can still be finished as a good run (viability
 *     rows, below) is dropped.
 * Two prefixes with equal (X, R) have equal futures and equal labels, so they are one
 * node: the pass costs (automaton states) x (distinct R per state), and R is mostly
 * trivial, because extras are only possible once an event's occurrences are used up.
 * At a final X the solutions are the configurations in a settled state with Q != {};
 * the minimal Q among them and the labels of their configurations give the
 * prohibited gaps (merged into intervals by cc_cause.c), a configuration with Q = {}
 * in a settled state means a good run has sigma's very trace (ambiguity).  A final
 * node stands for all orders that reach it; cc_cause.c groups the final nodes into
 * causes by their intervals and counts, orders and names their orders from the pass's
 * graph.
 *
 * Invariants: a label is CC_LABEL_BIT | event << 32 | gap, 0 <= gap <= |m|; R's canonical form
 * lists configurations by (s, Q) with labels sorted, so equal sets of configurations intern to one
 * id.
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

/* A label: event type e extra in gap g (g occurrences of the order before it).  The
 * top bit is set so that no label is 0, which insert() reads as "no new label". */
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
    uint64_t *lab;
    size_t nlab, labcap;
} conf;

typedef struct {
    cc_ctx *c;
    const cc_oaut *a;
    bool extras;
    const sg_ms *useful; /* labels only where Q lies inside one of these (NULL: none) */
    size_t nuseful;
    uint32_t *off;    /* per event type: its first occurrence id in m */
    uint32_t *mcount; /* per event type: its count in m */
    size_t nevents, nocc;
    bitstr_t *viable;    /* viability rows (all_rows: one per automaton state), or NULL */
    bitstr_t *final_row; /* the final states' row */
    size_t row;          /* bytes per row */
    bool all_rows;
    /* the closure's working set */
    conf *cf;
    size_t ncf, cfcap;
    uint32_t *head;    /* cc_heads(): per state, its first configuration */
    uint32_t **bucket; /* configurations to (re)process, by |Q| */
    size_t *nb, *bcap, nbuckets;
    /* solutions known at a final state (for pruning what strictly contains them) */
    sg_ms *sol;
    size_t nsol, solcap;
    /* the pass */
    u_intern rs;   /* canonical R's */
    u_map node_of; /* (X << 32 | R) -> pass node */
    cc_pass *out;
    uint32_t *ser; /* serialisation buffer */
    size_t nser, sercap;
} pass;

static uint32_t count_in(const pass *p, sg_ms k, uint32_t e)
{
    return sg_ms_count(p->c->sg, k, e);
}

static int lab_add(conf *x, uint64_t l, bool *grew)
{
    for (size_t i = 0; i < x->nlab; i++)
        if (x->lab[i] == l)
            return 0;
    if (U_GROW(x->lab, x->labcap, x->nlab))
        return -1;
    x->lab[x->nlab++] = l;
    *grew = true;
    return 0;
}

static int enqueue(pass *p, uint32_t i)
{
    conf *x = &p->cf[i];
    if (x->queued || x->dead)
        return 0;
    size_t b = x->qsize;
    if (b >= p->nbuckets) {
        size_t n = b + 8;
        uint32_t **v = realloc(p->bucket, n * sizeof *v);
        if (v)
            p->bucket = v;
        size_t *c1 = realloc(p->nb, n * sizeof *c1);
        if (c1)
            p->nb = c1;
        size_t *c2 = realloc(p->bcap, n * sizeof *c2);
        if (c2)
            p->bcap = c2;
        if (!v || !c1 || !c2)
            return -1;
        for (size_t k = p->nbuckets; k < n; k++) {
            p->bucket[k] = NULL;
            p->nb[k] = p->bcap[k] = 0;
        }
        p->nbuckets = n;
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

/* Whether q's labels may matter: q lies inside a Q that is minimal at some final
 * node (known from the pass without labels).  Q only grows along a run, so a
 * configuration whose Q is outside every such Q never becomes a minimal solution,
 * and carrying its labels would only split nodes that have the same future. */
static bool useful(const pass *p, sg_ms q)
{
    for (size_t i = 0; i < p->nuseful; i++)
        if (sg_ms_subseteq(p->c->sg, q, p->useful[i]))
            return true;
    return false;
}

/* A strictly smaller Q than q is a known solution's (at a final state). */
static bool beyond_solution(const pass *p, sg_ms q)
{
    for (size_t i = 0; i < p->nsol; i++)
        if (sg_ms_subset(p->c->sg, p->sol[i], q))
            return true;
    return false;
}

/* Puts (s, q) with labels lab[0..n) (plus `extra` unless 0) into the working set,
 * keeping it an antichain per state and merging labels of equal (s, q). */
static int insert(pass *p, uint32_t X, uint32_t s, sg_ms q, uint32_t qsize, const uint64_t *lab,
                  size_t nlab, uint64_t extra)
{
    cc_ctx *c = p->c;
    if (cc_bad(c, s) || !viable(p, X, s) || (p->nsol && beyond_solution(p, q)))
        return 0;
    uint32_t h = p->head[s], i = U_INVALID;
    for (uint32_t j = h; j != U_INVALID && i == U_INVALID; j = p->cf[j].next_at)
        if (p->cf[j].q == q)
            i = j;
    bool grew = false;
    if (i == U_INVALID) {
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
        i = (uint32_t)p->ncf++;
        p->cf[i] = (conf){.s = s, .q = q, .qsize = qsize, .next_at = h};
        p->head[s] = i;
        grew = true;
    } else if (p->cf[i].dead)
        return 0;
    conf *x = &p->cf[i];
    if (q && useful(p, q)) {
        for (size_t k = 0; k < nlab; k++)
            if (lab_add(x, lab[k], &grew))
                return -1;
        if (extra && lab_add(x, extra, &grew))
            return -1;
    }
    return grew ? enqueue(p, i) : 0;
}

static void reset_closure(pass *p)
{
    for (size_t i = 0; i < p->ncf; i++) {
        free(p->cf[i].lab);
        p->head[p->cf[i].s] = U_INVALID; /* cc_heads' rule */
    }
    p->ncf = 0;
    for (size_t b = 0; b < p->nbuckets; b++)
        p->nb[b] = 0;
    p->nsol = 0;
}

/* Closes the working set at automaton state X under silent and extra moves (extras
 * in the gap after X's prefix).  At a final state, solutions found prune
 * configurations strictly beyond them. */
static int close_set(pass *p, uint32_t X)
{
    cc_ctx *c = p->c;
    const cc_graph *g = c->g;
    sg_ms k = p->a->k[X];
    bool final = p->a->final[X];
    for (size_t b = 0; b < p->nbuckets; b++) {
        for (size_t n = 0; n < p->nb[b]; n++) {
            uint32_t i = p->bucket[b][n];
            p->cf[i].queued = false;
            if (p->cf[i].dead)
                continue;
            if (!cc_tick(c, sg_ms_size(c->sg, k)))
                return 1;
            conf x = p->cf[i]; /* p->cf may move while inserting */
            if (final && x.q && cc_settled(c, x.s)) {
                if (U_GROW(p->sol, p->solcap, p->nsol))
                    return -1;
                p->sol[p->nsol++] = x.q;
            }
            for (uint32_t e = cc_first(g, x.s); e != CC_NONE; e = cc_next(g, e)) {
                if (g->to[e] == CC_SINK)
                    continue;
                uint32_t ev = g->ev[e] & CC_EV_MASK;
                int rc = 0;
                if (ev == CC_SILENT)
                    rc = insert(p, X, g->to[e], x.q, x.qsize, p->cf[i].lab, p->cf[i].nlab, 0);
                else if (p->extras && count_in(p, k, ev - 1) == p->mcount[ev - 1]) {
                    sg_ms q2 = sg_ms_add(c->sg, x.q, ev - 1);
                    if (q2 == SG_INVALID)
                        return -1;
                    rc = insert(p, X, g->to[e], q2, x.qsize + 1, p->cf[i].lab, p->cf[i].nlab,
                                label(ev - 1, (uint32_t)sg_ms_size(c->sg, k)));
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

static int cmp_conf(const void *x, const void *y)
{
    const conf *a = x, *b = y;
    if (a->s != b->s)
        return a->s < b->s ? -1 : 1;
    return (a->q > b->q) - (a->q < b->q);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static int ser(pass *p, uint32_t w)
{
    if (U_GROW(p->ser, p->sercap, p->nser))
        return -1;
    p->ser[p->nser++] = w;
    return 0;
}

/* The working set's live configurations as a canonical R id. */
static uint32_t canonical(pass *p)
{
    size_t live = 0;
    for (size_t i = 0; i < p->ncf; i++)
        if (!p->cf[i].dead)
            p->cf[live++] = p->cf[i];
        else
            free(p->cf[i].lab);
    p->ncf = live;
    if (live > 1)
        qsort(p->cf, live, sizeof *p->cf, cmp_conf);
    p->nser = 0;
    int rc = ser(p, (uint32_t)live);
    for (size_t i = 0; i < live && !rc; i++) {
        conf *x = &p->cf[i];
        if (x->nlab > 1)
            qsort(x->lab, x->nlab, sizeof *x->lab, cmp_u64);
        rc = ser(p, x->s) || ser(p, x->q) || ser(p, x->qsize) || ser(p, (uint32_t)x->nlab);
        for (size_t k = 0; k < x->nlab && !rc; k++)
            rc = ser(p, (uint32_t)(x->lab[k] >> 32)) || ser(p, (uint32_t)x->lab[k]);
    }
    bool fresh;
    return rc ? U_INVALID : u_intern_put(&p->rs, p->ser, p->nser * sizeof *p->ser, &fresh);
}

/* Loads R (a canonical id) into the working set as (state, q, labels) entries: the
 * input of a step. */
typedef struct {
    uint32_t s, q, qsize;
    const uint64_t *lab; /* unaligned-safe copies made by the reader */
    size_t nlab;
} rconf;

static const uint32_t *r_words(const pass *p, uint32_t r, uint32_t *nconf)
{
    const uint32_t *w = u_intern_key(&p->rs, r);
    *nconf = w[0];
    return w + 1;
}

/* ---- the pass's nodes ---- */

static uint32_t pass_node(pass *p, uint32_t X, uint32_t r, double count)
{
    uint64_t key = (uint64_t)X << 32 | r;
    uint32_t i = u_map_get(&p->node_of, key);
    cc_pass *o = p->out;
    if (i == U_INVALID) {
        if (o->n == o->cap) {
            size_t cap = o->cap ? 2 * o->cap : 256;
            cc_pnode *v = realloc(o->node, cap * sizeof *v);
            if (!v)
                return U_INVALID;
            o->node = v;
            o->cap = cap;
        }
        i = (uint32_t)o->n++;
        o->node[i] = (cc_pnode){.x = X, .r = r, .count = 0, .out = CC_NONE};
        if (u_map_put(&p->node_of, key, i))
            return U_INVALID;
    }
    o->node[i].count += count;
    if (o->node[i].count > 1e300)
        o->node[i].count = 1e300;
    return i;
}

static int pass_edge(pass *p, uint32_t from, uint32_t ev, uint32_t to)
{
    cc_pass *o = p->out;
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
    cc_ctx *c = p->c;
    const cc_graph *g = c->g;
    uint32_t nconf;
    const uint32_t *w = r_words(p, p->out->node[i].r, &nconf);
    double count = p->out->node[i].count;
    reset_closure(p);
    uint64_t *lab = NULL;
    size_t labcap = 0;
    int rc = 0;
    for (uint32_t k = 0; k < nconf && !rc; k++) {
        uint32_t s = w[0], q = w[1], qsize = w[2], nlab = w[3];
        w += 4;
        if (nlab > labcap) {
            uint64_t *v = realloc(lab, nlab * sizeof *v);
            if (!v) {
                rc = -1;
                break;
            }
            lab = v;
            labcap = nlab;
        }
        for (uint32_t j = 0; j < nlab; j++, w += 2) {
            uint64_t l = (uint64_t)w[0] << 32 | w[1];
            lab[j] = l;
        }
        for (uint32_t ed = cc_first(g, s); ed != CC_NONE && !rc; ed = cc_next(g, ed))
            if ((g->ev[ed] & CC_EV_MASK) == ev && g->to[ed] != CC_SINK)
                rc = insert(p, X2, g->to[ed], q, qsize, lab, nlab, 0);
    }
    free(lab);
    if (!rc)
        rc = close_set(p, X2);
    uint32_t r = rc ? U_INVALID : canonical(p);
    if (r == U_INVALID)
        return rc ? rc : -1;
    *to = pass_node(p, X2, r, count);
    return *to == U_INVALID ? -1 : 0;
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
 * the closures they save.  So all rows are computed for automata of at most
 * ROW_PASSES states, otherwise only the final row. */
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

static int viability(pass *p)
{
    cc_ctx *c = p->c;
    const cc_graph *g = c->g;
    const cc_oaut *a = p->a;
    size_t N = g->n + 1, k = 0;
    if (!c->rev.start)
        return 0; /* no reverse edges: no pruning */
    p->row = (N + 7) / 8;
    p->all_rows = a->nx <= ROW_PASSES;
    size_t nrows = p->all_rows ? a->nx : 1;
    p->viable = calloc(nrows * p->row + 1, 1);
    p->final_row = calloc(p->row + 1, 1);
    uint32_t *work = malloc(N * sizeof *work);
    if (!p->viable || !p->final_row || !work) {
        free(work);
        free(p->viable);
        free(p->final_row);
        p->viable = p->final_row = NULL;
        return 0; /* only a pruning */
    }
    for (uint32_t s = 0; s < g->n; s++)
        if (cc_settled(c, s)) {
            bit_set(p->final_row, (int)s);
            work[k++] = s;
        }
    uint32_t fx = 0;
    while (fx < a->nx && !a->final[fx])
        fx++;
    close_row(p, fx < a->nx ? fx : 0, p->final_row, work, k);
    for (size_t x = a->nx; p->all_rows && x-- > 0;) {
        bitstr_t *row = p->viable + x * p->row;
        if (a->final[x]) {
            memcpy(row, p->final_row, p->row);
            continue;
        }
        k = 0;
        for (uint32_t m = a->first[x]; m < a->first[x + 1]; m++) {
            const bitstr_t *next = p->viable + (size_t)a->mto[m] * p->row;
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
                            by_event |= (g->ev[e] & CC_EV_MASK) == a->mev[m];
                        }
                        if (by_event) {
                            bit_set(row, (int)s);
                            work[k++] = s;
                        }
                    }
                }
        }
        close_row(p, (uint32_t)x, row, work, k);
    }
    free(work);
    return 0;
}

/* ---- the pass ---- */

/* Evaluates the final node i: solutions, minimal Q, their labels, ambiguity. */
static int evaluate(pass *p, uint32_t i)
{
    cc_pnode *nd = &p->out->node[i];
    uint32_t nconf;
    const uint32_t *w = r_words(p, nd->r, &nconf);
    sg_ms *qs = malloc((nconf + 1) * sizeof *qs);
    if (!qs)
        return -1;
    size_t nq = 0;
    const uint32_t *scan = w;
    for (uint32_t k = 0; k < nconf; k++) {
        uint32_t s = scan[0], q = scan[1], nlab = scan[3];
        if (cc_settled(p->c, s)) {
            if (q == 0)
                nd->ambiguous = true;
            else
                qs[nq++] = q;
        }
        scan += 4 + 2 * nlab;
    }
    /* the minimal Q among the solutions (configurations at different states may have
     * comparable Q) and the labels of their configurations */
    int rc = 0;
    for (uint32_t k = 0; k < nconf && !rc; k++) {
        uint32_t s = w[0], q = w[1], nlab = w[3];
        const uint32_t *l = w + 4;
        w += 4 + 2 * nlab;
        if (!q || !cc_settled(p->c, s))
            continue;
        bool minimal = true;
        for (size_t j = 0; j < nq && minimal; j++)
            minimal = !sg_ms_subset(p->c->sg, qs[j], q);
        if (!minimal)
            continue;
        for (uint32_t j = 0; j < nlab && !rc; j++) {
            uint64_t lb = (uint64_t)l[2 * j] << 32 | l[2 * j + 1];
            bool seen = false;
            for (size_t t = 0; t < nd->nlab && !seen; t++)
                seen = nd->lab[t] == lb;
            if (!seen) {
                if (U_GROW(nd->lab, nd->labcap, nd->nlab))
                    rc = -1;
                else
                    nd->lab[nd->nlab++] = lb;
            }
        }
    }
    if (!rc && nd->nlab > 1)
        qsort(nd->lab, nd->nlab, sizeof *nd->lab, cmp_u64);
    for (size_t j = 0; j < nq && !rc; j++) { /* the minimal Q's, for the labelled pass */
        bool minimal = true, known = false;
        for (size_t t = 0; t < nq && minimal; t++)
            minimal = !sg_ms_subset(p->c->sg, qs[t], qs[j]);
        for (size_t t = 0; t < p->out->nminq && !known; t++)
            known = p->out->minq[t] == qs[j];
        if (minimal && !known) {
            if (U_GROW(p->out->minq, p->out->minqcap, p->out->nminq))
                rc = -1;
            else
                p->out->minq[p->out->nminq++] = qs[j];
        }
    }
    free(qs);
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
    free(p->off);
    free(p->mcount);
    free(p->viable);
    free(p->final_row);
    free(p->ser);
    u_intern_free(&p->rs);
    u_map_free(&p->node_of);
}

static int run_pass(cc_ctx *c, const cc_oaut *a, size_t nevents, bool extras, const sg_ms *useful,
                    size_t nuseful, cc_pass *out)
{
    memset(out, 0, sizeof *out);
    pass p = {.c = c,
              .a = a,
              .extras = extras,
              .useful = useful,
              .nuseful = nuseful,
              .out = out,
              .nevents = nevents};
    p.off = calloc(nevents + 1, sizeof *p.off);
    p.mcount = calloc(nevents + 1, sizeof *p.mcount);
    p.head = cc_heads(c);
    if (!p.off || !p.mcount || !p.head) {
        pass_free(&p);
        return -1;
    }
    for (uint32_t e = 0; e < nevents; e++) {
        p.off[e] = (uint32_t)p.nocc;
        p.mcount[e] = sg_ms_count(c->sg, a->m, e);
        p.nocc += p.mcount[e];
    }
    out->nocc = p.nocc;
    int rc = viability(&p);
    /* the start: the root, closed at gap 0 */
    uint32_t r = U_INVALID;
    if (!rc && a->nx) {
        reset_closure(&p);
        rc = insert(&p, 0, c->g->root, 0, 0, NULL, 0, 0) || close_set(&p, 0);
        r = rc ? U_INVALID : canonical(&p);
        if (!rc && (r == U_INVALID || pass_node(&p, 0, r, 1) == U_INVALID))
            rc = -1;
    }
    /* nodes are made in order of their automaton state, which is by level, so one
     * sweep over the node list in creation order visits predecessors first */
    for (uint32_t i = 0; !rc && i < out->n; i++) {
        uint32_t X = out->node[i].x;
        if (a->final[X]) {
            rc = evaluate(&p, i);
            continue;
        }
        for (uint32_t m = a->first[X]; m < a->first[X + 1] && !rc; m++) {
            uint32_t to;
            rc = step(&p, i, a->mev[m], a->mto[m], &to);
            if (!rc)
                rc = pass_edge(&p, i, a->mev[m], to);
        }
    }
    size_t b = u_intern_bytes(&p.rs) + u_map_bytes(&p.node_of) + out->cap * sizeof *out->node +
               out->ecap * sizeof *out->edge +
               (p.viable ? (p.all_rows ? a->nx + 1 : 2) * p.row : 0);
    if (b > c->r->bytes)
        c->r->bytes = b;
    pass_free(&p);
    return rc;
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

/* Two passes: without labels first, which is cheap (R then mostly equals over the
 * prefixes of an automaton state) and tells which Q are minimal somewhere; then with
 * labels only on configurations whose Q lies inside one of those.  Labels name the
 * occurrences around a gap, so they differ from prefix to prefix: carried on every
 * configuration they split nodes without end (bakery.3: 8 x 10^5 nodes instead of
 * 1,737 for 1,557 automaton states), carried on the ones that can still matter they
 * rarely do. */
int cc_ac22_pass(cc_ctx *c, const cc_oaut *a, size_t nevents, bool extras, cc_pass *out)
{
    cc_pass first;
    int rc = run_pass(c, a, nevents, extras, NULL, 0, &first);
    if (rc || !extras || !first.nminq) { /* no extra is ever minimal: no labels at all */
        *out = first;
        return rc;
    }
    rc = run_pass(c, a, nevents, extras, first.minq, first.nminq, out);
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
