/*
 * cc_ac22.c - AC2(2) and the non-occurrence of events (Def. 10, Theorem 3).
 *
 * For a red trace sigma the question is: which good runs contain sigma's occurrences
 * in sigma's order plus some extra occurrences Q, with Q minimal?  Their extra events
 * are what prevents the hazard, so their non-occurrence is part of the cause, in the
 * gap of sigma where they occurred.  The search walks the recorded graph with a
 * cursor into sigma: nodes (state, matched prefix length, Q).  An event move either
 * is sigma's next occurrence (the cursor advances), or an occurrence beyond sigma's
 * count of that type (it joins Q with the current gap), or an occurrence of sigma out
 * of order (the run cannot restrict to sigma: dropped).  Nodes are taken in order of
 * |Q|, so the first solutions are the minimal ones, and a Q that strictly contains a
 * solution's, or a Q explored at the same (state, cursor) with a strictly smaller Q,
 * is dropped.  Q = {} at the end of sigma in a settled state means a good run has
 * sigma's very trace: the ambiguity of README "Method".
 * Invariant: Q records are a persistent list (parent links), so a node carries one id.
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t parent, event, gap, size;
} qrec;

typedef struct {
    uint32_t s, pos, q;
} qnode;

typedef struct {
    qnode *v;
    size_t n, cap;
} qqueue;

typedef struct {
    const cc_ctx *c;
    const uint32_t *sigma;
    size_t n, nevents;
    uint32_t *prefix; /* prefix[pos * nevents + e] = occurrences of e in sigma[0..pos) */
    qrec *q;
    size_t nq, qcap;
    u_map qkids;     /* (q << 32 | event << 12 | gap) -> q */
    u_map slot;      /* (pos << 32 | q) -> slot id */
    u_map seen;      /* (state << 32 | slot) -> 1, for Q != {} */
    bitstr_t *seen0; /* Q = {}: bit pos * nstates + state; most nodes have no extras */
    bitstr_t *fin;   /* row pos (row_bytes each), bit state: sigma[pos..] can still end well */
    size_t nstates;
    u_map domhead; /* (state << 32 | pos) -> first list entry */
    uint32_t *dq, *dnext;
    size_t nd, dcap;
    uint32_t *sol;
    size_t nsol, solcap;
    qqueue cur, next;
    size_t steps;
} qsearch;

static int qq_push(qqueue *q, qnode x)
{
    if (U_GROW(q->v, q->cap, q->n))
        return -1;
    q->v[q->n++] = x;
    return 0;
}

static uint32_t q_count(const qsearch *w, uint32_t q, uint32_t e)
{
    uint32_t k = 0;
    for (; q; q = w->q[q].parent)
        k += w->q[q].event == e;
    return k;
}

/* a's event multiset is contained in b's. */
static bool q_le(const qsearch *w, uint32_t a, uint32_t b)
{
    if (w->q[a].size > w->q[b].size)
        return false;
    for (uint32_t x = a; x; x = w->q[x].parent)
        if (q_count(w, a, w->q[x].event) > q_count(w, b, w->q[x].event))
            return false;
    return true;
}

static bool q_strict(const qsearch *w, uint32_t a, uint32_t b)
{
    return w->q[a].size < w->q[b].size && q_le(w, a, b);
}

static uint32_t q_extend(qsearch *w, uint32_t q, uint32_t e, uint32_t gap)
{
    uint64_t key = (uint64_t)q << 32 | (uint64_t)e << 12 | gap;
    uint32_t k = u_map_get(&w->qkids, key);
    if (k != U_INVALID)
        return k;
    if (w->nq == w->qcap) {
        size_t cap = 2 * w->qcap;
        qrec *v = realloc(w->q, cap * sizeof *v);
        if (!v)
            return U_INVALID;
        w->q = v;
        w->qcap = cap;
    }
    k = (uint32_t)w->nq++;
    w->q[k] = (qrec){q, e, gap, w->q[q].size + 1};
    return u_map_put(&w->qkids, key, k) ? U_INVALID : k;
}

/* The rows of fin are whole bytes, so that the shared last row is one memcpy. */
static size_t row_bytes(const cc_ctx *c)
{
    return (c->g->n + 1 + 7) / 8;
}

static int push(qsearch *w, qqueue *to, uint32_t s, uint32_t pos, uint32_t q)
{
    if (w->fin && !bit_test(w->fin + pos * row_bytes(w->c), s))
        return 0;
    if (!q && w->seen0) {
        size_t bit = pos * w->nstates + s;
        if (bit_test(w->seen0, bit))
            return 0;
        bit_set(w->seen0, bit);
        return qq_push(to, (qnode){s, pos, q});
    }
    uint64_t k1 = (uint64_t)pos << 32 | q;
    uint32_t slot = u_map_get(&w->slot, k1);
    if (slot == U_INVALID) {
        slot = (uint32_t)w->slot.len;
        if (u_map_put(&w->slot, k1, slot))
            return -1;
    }
    uint64_t k2 = (uint64_t)s << 32 | slot;
    if (u_map_get(&w->seen, k2) != U_INVALID)
        return 0;
    if (u_map_put(&w->seen, k2, 1))
        return -1;
    return qq_push(to, (qnode){s, pos, q});
}

/* 1: a strictly smaller Q was explored at (s, pos); else records q there.  The
 * empty Q dominates nothing: its completion without further extras is sigma itself,
 * which is no member of G(sigma), while q's is. */
static int dominated(qsearch *w, uint32_t s, uint32_t pos, uint32_t q)
{
    if (!q) /* nothing is smaller, and {} dominates nothing: no need to record it */
        return 0;
    uint64_t key = (uint64_t)s << 32 | pos;
    uint32_t head = u_map_get(&w->domhead, key);
    for (uint32_t i = head; i != U_INVALID; i = w->dnext[i])
        if (w->dq[i] && q_strict(w, w->dq[i], q))
            return 1;
    if (w->nd == w->dcap) {
        size_t cap = w->dcap ? 2 * w->dcap : 256;
        uint32_t *a = realloc(w->dq, cap * sizeof *a);
        if (!a)
            return -1;
        w->dq = a;
        uint32_t *b = realloc(w->dnext, cap * sizeof *b);
        if (!b)
            return -1;
        w->dnext = b;
        w->dcap = cap;
    }
    w->dq[w->nd] = q;
    w->dnext[w->nd] = head;
    return u_map_put(&w->domhead, key, (uint32_t)w->nd++);
}

static bool beyond_solution(const qsearch *w, uint32_t q)
{
    if (!q)
        return false;
    for (size_t i = 0; i < w->nsol; i++)
        if (q_strict(w, w->sol[i], q))
            return true;
    return false;
}

static int add_solution(qsearch *w, uint32_t q)
{
    for (size_t i = 0; i < w->nsol; i++)
        if (w->sol[i] == q)
            return 0;
    if (U_GROW(w->sol, w->solcap, w->nsol))
        return -1;
    w->sol[w->nsol++] = q;
    return 0;
}

/* An event move from node x to state t. */
static int step_event(qsearch *w, qnode x, uint32_t t, uint32_t e, bool extras)
{
    uint32_t have = w->prefix[x.pos * w->nevents + e] + q_count(w, x.q, e);
    uint32_t total = w->prefix[w->n * w->nevents + e];
    if (have < total) /* an occurrence of sigma: must be the next one */
        return (x.pos < w->n && w->sigma[x.pos] == e) ? push(w, &w->cur, t, x.pos + 1, x.q) : 0;
    if (!extras)
        return 0;
    uint32_t q = q_extend(w, x.q, e, x.pos);
    return q == U_INVALID ? -1 : push(w, &w->next, t, x.pos, q);
}

static int visit(qsearch *w, qnode x, bool extras, cc_ac22 *out)
{
    const cc_ctx *c = w->c;
    if (cc_bad(c, x.s) || beyond_solution(w, x.q))
        return 0;
    int d = dominated(w, x.s, x.pos, x.q);
    if (d)
        return d < 0 ? -1 : 0;
    if (x.pos == w->n && cc_settled(c, x.s)) {
        if (!x.q)
            out->ambiguous = true;
        else if (add_solution(w, x.q))
            return -1;
    }
    const cc_graph *g = c->g;
    for (uint32_t e = cc_first(g, x.s); e != CC_NONE; e = cc_next(g, e)) {
        if (g->to[e] == CC_SINK)
            continue;
        uint32_t ev = g->ev[e] & CC_EV_MASK;
        int rc = ev == CC_SILENT ? push(w, &w->cur, g->to[e], x.pos, x.q)
                                 : step_event(w, x, g->to[e], ev - 1, extras);
        if (rc)
            return -1;
    }
    return 0;
}

/* Marks, in the row `row` of bits, every state that reaches one of work[0..k)
 * (already marked) backwards over any edge, skipping bad states. */
static void close_row(const cc_ctx *c, bitstr_t *row, uint32_t *work, size_t k)
{
    while (k) {
        uint32_t t = work[--k];
        for (uint32_t i = c->rev.start[t]; i < c->rev.start[t + 1]; i++) {
            uint32_t s = c->rev.src[i];
            if (!bit_test(row, s) && !cc_bad(c, s)) {
                bit_set(row, s);
                work[k++] = s;
            }
        }
    }
}

int cc_ac22_prepare(cc_ctx *c)
{
    size_t N = c->g->n + 1, k = 0;
    if (c->fin_end || N > (size_t)1 << 30)
        return 0;
    uint32_t *work = malloc(N * sizeof *work);
    c->fin_end = calloc(row_bytes(c), 1);
    if (!work || !c->fin_end) {
        free(work);
        free(c->fin_end);
        c->fin_end = NULL;
        return -1;
    }
    for (uint32_t s = 0; s < c->g->n; s++)
        if (cc_settled(c, s)) {
            bit_set(c->fin_end, s);
            work[k++] = s;
        }
    close_row(c, c->fin_end, work, k);
    free(work);
    return 0;
}

/* fin: from which states can the rest of sigma, sigma[pos..], still be matched by a
 * run that ends settled?  Backwards per pos over every edge (any event may be an
 * extra, which only over-approximates).  A node outside fin can reach no solution
 * and no ambiguity, so push() drops it: most of the graph, for a sigma whose last
 * event makes the hazard inevitable.  Row n is the same for every sigma (computed
 * once, cc_ac22_prepare); row pos is seeded by the sigma[pos] moves into row
 * pos + 1, found over the reverse edges of row pos + 1's states.  An empty row
 * leaves every earlier row empty: then the search ends at the root at once. */
static int finishable(qsearch *w)
{
    const cc_ctx *c = w->c;
    size_t R = row_bytes(c), N = c->g->n + 1;
    uint32_t *work = malloc(N * sizeof *work);
    if (!work)
        return -1;
    memcpy(w->fin + w->n * R, c->fin_end, R);
    for (size_t pos = w->n; pos-- > 0;) {
        bitstr_t *row = w->fin + pos * R;
        const bitstr_t *next = row + R;
        uint32_t want = w->sigma[pos] + 1;
        size_t k = 0;
        for (size_t b = 0; b < R; b++) {
            for (unsigned bits = next[b]; bits; bits &= bits - 1) {
                uint32_t t = (uint32_t)(8 * b + (size_t)__builtin_ctz(bits));
                for (uint32_t i = c->rev.start[t]; i < c->rev.start[t + 1]; i++) {
                    uint32_t s = c->rev.src[i];
                    if ((c->rev.ev[i] & CC_EV_MASK) == want && !bit_test(row, s) && !cc_bad(c, s)) {
                        bit_set(row, s);
                        work[k++] = s;
                    }
                }
            }
        }
        if (!k)
            break;
        close_row(c, row, work, k);
    }
    free(work);
    return 0;
}

static int init(qsearch *w)
{
    w->prefix = calloc((w->n + 1) * w->nevents, sizeof *w->prefix);
    w->qcap = 64;
    w->q = malloc(w->qcap * sizeof *w->q);
    if (!w->prefix || !w->q)
        return -1;
    /* The visited set of Q = {} as a bitmap while it stays small (128 MB); the hash
     * map takes over beyond that. */
    w->nstates = w->c->g->n + 1;
    if (w->c->fin_end && (w->n + 1) * w->nstates <= (size_t)1 << 30) {
        int bits = (int)((w->n + 1) * w->nstates);
        w->fin = calloc((w->n + 1) * row_bytes(w->c), 1);
        if (!(w->seen0 = bit_alloc(bits)) || !w->fin || finishable(w))
            return -1;
    }
    w->q[0] = (qrec){0, 0, 0, 0};
    w->nq = 1;
    for (size_t p = 0; p < w->n; p++) {
        memcpy(w->prefix + (p + 1) * w->nevents, w->prefix + p * w->nevents,
               w->nevents * sizeof *w->prefix);
        w->prefix[(p + 1) * w->nevents + w->sigma[p]]++;
    }
    return 0;
}

static void release(qsearch *w)
{
    free(w->prefix);
    free(w->q);
    u_map_free(&w->qkids);
    u_map_free(&w->slot);
    u_map_free(&w->seen);
    free(w->seen0);
    free(w->fin);
    u_map_free(&w->domhead);
    free(w->dq);
    free(w->dnext);
    free(w->sol);
    free(w->cur.v);
    free(w->next.v);
}

/* The good super-trace of solution q: sigma with Q's events in their gaps. */
static int witness(const qsearch *w, uint32_t q, cc_ac22 *out)
{
    size_t m = w->q[q].size;
    uint32_t *ev = malloc((w->n + m) * sizeof *ev), *qe = malloc(m * sizeof *qe);
    uint32_t *qg = malloc(m * sizeof *qg);
    if (!ev || !qe || !qg) {
        free(ev);
        free(qe);
        free(qg);
        return -1;
    }
    for (size_t i = m; q; q = w->q[q].parent) {
        qe[--i] = w->q[q].event;
        qg[i] = w->q[q].gap;
    }
    size_t k = 0, j = 0;
    for (size_t p = 0; p <= w->n; p++) {
        while (j < m && qg[j] == p)
            ev[k++] = qe[j++];
        if (p < w->n)
            ev[k++] = w->sigma[p];
    }
    free(qe);
    free(qg);
    out->good = ev;
    out->ngood = k;
    return 0;
}

static int collect(const qsearch *w, cc_ac22 *out)
{
    out->gaps = bit_alloc((int)(w->nevents * (w->n + 1)));
    if (!out->gaps)
        return -1;
    for (size_t i = 0; i < w->nsol; i++)
        for (uint32_t q = w->sol[i]; q; q = w->q[q].parent)
            bit_set(out->gaps, (int)(w->q[q].event * (w->n + 1) + w->q[q].gap));
    return w->nsol ? witness(w, w->sol[0], out) : 0;
}

int cc_ac22_search(const cc_ctx *c, const uint32_t *sigma, size_t n, size_t nevents, bool extras,
                   cc_ac22 *out)
{
    memset(out, 0, sizeof *out);
    qsearch w = {.c = c, .sigma = sigma, .n = n, .nevents = nevents ? nevents : 1};
    if (n >= 4095) { /* gaps are packed into 12 bits of a map key */
        out->incomplete = true;
        return collect(&w, out);
    }
    int rc = init(&w) || push(&w, &w.cur, c->g->root, 0, 0);
    while (!rc && w.cur.n) {
        for (size_t i = 0; i < w.cur.n && !rc; i++) {
            if (++w.steps > c->budget) {
                out->incomplete = true;
                break;
            }
            rc = visit(&w, w.cur.v[i], extras, out);
        }
        if (out->incomplete)
            break;
        qqueue t = w.cur;
        w.cur = w.next;
        w.next = t;
        w.next.n = 0;
    }
    if (!rc)
        rc = collect(&w, out);
    release(&w);
    return rc;
}

void cc_ac22_free(cc_ac22 *a)
{
    free(a->gaps);
    free(a->good);
    memset(a, 0, sizeof *a);
}
