/*
 * cc_trail.c - a cause's witness as a run of pan (report/rp_trail.c writes it as a
 * SPIN trail).
 *
 * The analysis knows a cause's witness only as a sequence of events.  To let the user
 * replay it (`spin -t -p model.pml`, `./pan -r`), this file finds a concrete run in
 * the recorded graph whose trace is that sequence: a breadth-first search over pairs
 * (state, number of witness events matched), following silent moves (the position
 * stays) and moves of the next witness event (the position advances).  A bad run must
 * not violate before its last event and then ends in a violation (a move into the
 * sink, or a bad state); a good run never violates and ends in a settled state, the
 * same notion of good run as the analysis, whose derived per-state flags the result
 * keeps (cc_result.sf), so no trail derives them again.  Breadth-first, so the trail
 * is a shortest such run.  Every edge remembers pan's process slot and transition id
 * (CC_G_MOVES), which is all pan's trail format needs.
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t state, pos;
    uint32_t parent; /* node index, CC_NONE at the root */
    uint32_t edge;   /* edge taken from the parent */
} tr_node;

typedef struct {
    tr_node *v;
    size_t n, cap;
} tr_queue;

static int tq_push(tr_queue *q, tr_node x)
{
    if (U_GROW(q->v, q->cap, q->n))
        return -1;
    q->v[q->n++] = x;
    return 0;
}

/* The moves from the root to node k (then last_edge, unless CC_NONE), pan's moves
 * only, in order.  On a determinised graph (cc_det.c) the path is one of sets, and
 * cc_det_steps picks the recorded run, the never claim's moves included, that
 * follows it. */
static int unwind(const cc_graph *g, const tr_queue *q, uint32_t k, uint32_t last_edge,
                  cc_step **out, size_t *nout)
{
    size_t len = last_edge != CC_NONE;
    for (uint32_t i = k; q->v[i].parent != CC_NONE; i = q->v[i].parent)
        len++;
    uint32_t *path = malloc((len ? len : 1) * sizeof *path);
    cc_step *s = malloc((len ? len : 1) * sizeof *s);
    if (!path || !s) {
        free(path);
        free(s);
        return -1;
    }
    size_t n = len, m = 0;
    if (last_edge != CC_NONE)
        path[--n] = last_edge;
    for (uint32_t i = k; q->v[i].parent != CC_NONE; i = q->v[i].parent)
        path[--n] = q->v[i].edge;
    if (g->orig) {
        free(s);
        bool bad_end = last_edge == CC_NONE && (g->flags[q->v[k].state] & CC_S_BAD);
        int rc = cc_det_steps(g, g->root, path, len, bad_end, out, nout);
        free(path);
        return rc;
    }
    for (size_t i = 0; i < len; i++) {
        cc_graph_step(g, path[i], &s[m].pr, &s[m].tid);
        if (s[m].pr >= 0)
            m++;
    }
    free(path);
    *out = s;
    *nout = m;
    return 0;
}

/* Does the run that reached node x end here?  For a bad run: all events matched and
 * the state itself violates; for a good run: all events matched and settled. */
static bool ends_at(const cc_ctx *c, const tr_node *x, size_t n, bool bad)
{
    if (x->pos != n)
        return false;
    if (bad)
        return c->g->flags[x->state] & CC_S_BAD;
    return cc_settled(c, x->state);
}

/* May the run continue over edge e from node x?  Sets *next. */
static bool step_ok(const cc_ctx *c, const tr_node *x, uint32_t e, const uint32_t *ev, size_t n,
                    bool bad, tr_node *next)
{
    const cc_graph *g = c->g;
    uint32_t event = g->ev[e] & CC_EV_MASK;
    uint32_t pos = x->pos;
    if (event != CC_SILENT) {
        if (pos == n || event != ev[pos] + 1)
            return false;
        pos++;
    }
    uint32_t to = g->to[e];
    if (to == CC_SINK)
        return false;
    /* A bad run may pass the claim-closed bad states only after its last event (the
     * claim then moves into the violation); a good run never. */
    if ((c->sf[to] & CC_S_BAD) && (!bad || pos < n))
        return false;
    *next = (tr_node){to, pos, 0, e};
    return true;
}

static int search(const cc_ctx *c, const uint32_t *ev, size_t n, bool bad, cc_step **out,
                  size_t *nout)
{
    const cc_graph *g = c->g;
    size_t width = n + 1;
    bitstr_t *seen = bit_alloc((int)(g->n * width));
    tr_queue q = {0};
    int rc = 1;
    if (!seen || tq_push(&q, (tr_node){g->root, 0, CC_NONE, CC_NONE})) {
        rc = -1;
        goto done;
    }
    bit_set(seen, (int)(g->root * width));
    for (size_t k = 0; k < q.n && rc == 1; k++) {
        tr_node x = q.v[k];
        if (ends_at(c, &x, n, bad)) {
            rc = unwind(g, &q, (uint32_t)k, CC_NONE, out, nout);
            break;
        }
        for (uint32_t e = cc_first(g, x.state); e != CC_NONE && rc == 1; e = cc_next(g, e)) {
            uint32_t event = g->ev[e] & CC_EV_MASK;
            if (bad && g->to[e] == CC_SINK &&
                (x.pos + (event != CC_SILENT) == n &&
                 (event == CC_SILENT || event == ev[x.pos] + 1))) {
                rc = unwind(g, &q, (uint32_t)k, e, out, nout);
                break;
            }
            tr_node y;
            if (!step_ok(c, &x, e, ev, n, bad, &y) ||
                bit_test(seen, (int)(y.state * width + y.pos)))
                continue;
            bit_set(seen, (int)(y.state * width + y.pos));
            y.parent = (uint32_t)k;
            if (tq_push(&q, y))
                rc = -1;
        }
    }
done:
    free(seen);
    free(q.v);
    return rc;
}

int cc_trail_find(const cc_graph *g, const cc_result *r, const uint32_t *ev, size_t n, bool bad,
                  cc_step **steps, size_t *nsteps)
{
    *steps = NULL;
    *nsteps = 0;
    if (!r->sf || !cc_is_state(g->root) || g->n == 0)
        return 1;
    if (g->n * (n + 1) > (size_t)1 << 31)
        return -1; /* the visited set would not fit libbsd's int bit indices */
    cc_ctx c = {.g = g, .sf = r->sf, .sink = (uint32_t)g->n};
    if (!bad && !cc_settled(&c, g->root) && n == 0)
        return 1;
    return search(&c, ev, n, bad, steps, nsteps);
}
