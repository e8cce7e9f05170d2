/*
 * nr_search.c - the nearest successful run: a shortest-path search over pairs (state
 * of b, number of a's steps consumed).
 *
 * From node (u, i) (b is at recorded state u, a's steps 0 .. i-1 are aligned or
 * skipped) there are four kinds of move (README "The closest successful execution:
 * definitions"):
 *   skip     (u, i+1)  cost Wc       a's step i stays unaligned;
 *   insert   (t, i)    cost Wc       b takes a process move u -> t, unaligned;
 *   align    (t, i+1)  cost Wp·Δp + Wα·Δα, when the move u -> t is made by a's step
 *                      i's process from a's step i's control location (Δp between u and
 *                      the state before a's step i, Δα when the transition differs);
 *   claim    (t, i)    cost 0        the never claim moves (not a step).
 * b never takes a move into CC_SINK (a violating move) and never enters a bad state;
 * a node (u, n) with u a good end (settled or a valid end state) ends the search.
 * Every successful b with an alignment is a path from (root, 0) to such a node, of
 * cost d, and back, so the first goal taken from the queue is a nearest b.
 *
 * A* with h(u, i) = Wc · max(0, D(u) - (n - i)), where D(u) is the least number of
 * process moves from u to a good end: at most n - i of them can be aligned steps, the
 * rest cost Wc each.  h is consistent (a move changes D by at most its own step), so
 * nodes are final when taken and the first goal is optimal.  States with no good end
 * reachable (D infinite) can be on no successful run and are never entered.
 *
 * The budget bounds the nodes expanded.  Stopped there, the search reports the best
 * run it can complete (each expanded node completes by skipping the rest of a and
 * inserting a shortest way to a good end), its distance by the textbook DP, and the
 * least f in the queue as a lower bound: not exact, and said so.
 *
 * Invariants: node x's key (u[x], i[x]) is unique (the map); g[x] only falls while x
 * is open; a heap entry whose f differs from g + h of its node is stale and skipped.
 */
#include "nr_internal.h"

#include <stdlib.h>
#include <string.h>

#define INF_D UINT32_MAX

enum { H_ROOT, H_CLAIM, H_INSERT, H_ALIGN, H_SKIP };

typedef struct {
    long f;
    uint32_t x;
} hent;

typedef struct {
    const nr_query *q;
    size_t n; /* |a| */
    uint32_t *D;
    /* nodes */
    uint32_t *u, *i, *parent, *via;
    long *g;
    uint8_t *how, *closed;
    size_t nn, cap;
    u_map at;
    /* the queue: a binary heap on (f, node) */
    hent *h;
    size_t nh, hcap;
    bool oom;
} srch;

bool nr_good_end(const nr_query *q, uint32_t s)
{
    if (!cc_is_state(s) || !nr_model_has(q->m, s) || (q->sf[s] & CC_SF_BAD))
        return false;
    if (q->m->vend[s] == NR_END_NEVER)
        return false;
    return !(q->sf[s] & CC_SF_DOOM) || q->m->vend[s] == NR_END_VALID;
}

static bool usable(const nr_query *q, uint32_t t)
{
    return cc_is_state(t) && !(q->sf[t] & CC_SF_BAD) && nr_model_has(q->m, t);
}

/* D: the least number of process moves from each state to a good end, through usable
 * states (a 0-1 breadth-first search backwards: claim moves cost 0). */
static uint32_t *dist_to_good(const nr_query *q)
{
    size_t n = cc_graph_states(q->g);
    uint32_t *D = malloc((n + 1) * sizeof *D);
    uint32_t *start = calloc(n + 2, sizeof *start);
    uint32_t *src = NULL, *cur = NULL, *nxt = NULL;
    if (!D || !start)
        goto fail;
    for (size_t s = 0; s < n; s++) {
        D[s] = INF_D;
        if (!usable(q, (uint32_t)s))
            continue;
        for (uint32_t e = cc_graph_first(q->g, (uint32_t)s); e != CC_NONE_EDGE;
             e = cc_graph_next(q->g, e))
            if (usable(q, cc_graph_target(q->g, e)))
                start[cc_graph_target(q->g, e) + 1]++;
    }
    for (size_t s = 0; s < n; s++)
        start[s + 1] += start[s];
    src = malloc((start[n] + 1) * sizeof *src);
    cur = malloc((n + 1) * sizeof *cur);
    nxt = malloc((n + 1) * sizeof *nxt);
    if (!src || !cur || !nxt)
        goto fail;
    memcpy(cur, start, n * sizeof *cur);
    for (size_t s = 0; s < n; s++) {
        if (!usable(q, (uint32_t)s))
            continue;
        for (uint32_t e = cc_graph_first(q->g, (uint32_t)s); e != CC_NONE_EDGE;
             e = cc_graph_next(q->g, e)) {
            uint32_t t = cc_graph_target(q->g, e);
            if (usable(q, t))
                src[cur[t]++] = (uint32_t)s | (cc_graph_claim(q->g, e) ? 1u << 31 : 0);
        }
    }
    /* level by level: a level's claim moves keep it, process moves make the next */
    size_t nc = 0, nx = 0;
    for (size_t s = 0; s < n; s++)
        if (nr_good_end(q, (uint32_t)s)) {
            D[s] = 0;
            cur[nc++] = (uint32_t)s;
        }
    for (uint32_t d = 0; nc; d++) {
        nx = 0;
        for (size_t k = 0; k < nc; k++) {
            uint32_t t = cur[k];
            if (D[t] != d)
                continue;
            for (uint32_t r = start[t]; r < start[t + 1]; r++) {
                uint32_t s = src[r] & ~(1u << 31);
                bool claim = src[r] >> 31;
                uint32_t ds = d + !claim;
                if (ds < D[s]) {
                    D[s] = ds;
                    if (claim)
                        cur[nc++] = s; /* same level: nc grows; each state once per level */
                    else
                        nxt[nx++] = s;
                }
            }
        }
        uint32_t *t = cur;
        cur = nxt;
        nxt = t;
        nc = nx;
    }
    free(start);
    free(src);
    free(cur);
    free(nxt);
    return D;
fail:
    free(D);
    free(start);
    free(src);
    free(cur);
    free(nxt);
    return NULL;
}

static long heur(const srch *S, uint32_t u, uint32_t i)
{
    long rest = (long)S->D[u] - (long)(S->n - i);
    return rest > 0 ? S->q->wc * rest : 0;
}

static void heap_push(srch *S, long f, uint32_t x)
{
    if (U_GROW(S->h, S->hcap, S->nh)) {
        S->oom = true;
        return;
    }
    size_t k = S->nh++;
    while (k > 0) {
        size_t p = (k - 1) / 2;
        if (S->h[p].f < f || (S->h[p].f == f && S->h[p].x <= x))
            break;
        S->h[k] = S->h[p];
        k = p;
    }
    S->h[k] = (hent){f, x};
}

static hent heap_pop(srch *S)
{
    hent top = S->h[0], last = S->h[--S->nh];
    size_t k = 0;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= S->nh)
            break;
        if (c + 1 < S->nh && (S->h[c + 1].f < S->h[c].f ||
                              (S->h[c + 1].f == S->h[c].f && S->h[c + 1].x < S->h[c].x)))
            c++;
        if (last.f < S->h[c].f || (last.f == S->h[c].f && last.x <= S->h[c].x))
            break;
        S->h[k] = S->h[c];
        k = c;
    }
    if (S->nh)
        S->h[k] = last;
    return top;
}

static int grow_nodes(srch *S)
{
    if (S->nn < S->cap)
        return 0;
    size_t cap = S->cap ? 2 * S->cap : 1 << 12;
#define RE(a)                                                                                      \
    do {                                                                                           \
        void *p_ = realloc(S->a, cap * sizeof *S->a);                                              \
        if (!p_)                                                                                   \
            return -1;                                                                             \
        S->a = p_;                                                                                 \
    } while (0)
    RE(u);
    RE(i);
    RE(parent);
    RE(via);
    RE(g);
    RE(how);
    RE(closed);
#undef RE
    S->cap = cap;
    return 0;
}

static void relax(srch *S, uint32_t from, uint32_t t, uint32_t i, long g, uint8_t how, uint32_t via)
{
    uint64_t key = (uint64_t)t * (S->n + 1) + i;
    uint32_t x = u_map_get(&S->at, key);
    if (x == U_INVALID) {
        if (grow_nodes(S) || S->nn >= UINT32_MAX - 1 || u_map_put(&S->at, key, (uint32_t)S->nn)) {
            S->oom = true;
            return;
        }
        x = (uint32_t)S->nn++;
        S->u[x] = t;
        S->i[x] = i;
        S->closed[x] = 0;
    } else if (S->closed[x] || g >= S->g[x])
        return;
    S->g[x] = g;
    S->parent[x] = from;
    S->how[x] = how;
    S->via[x] = via;
    heap_push(S, g + heur(S, t, i), x);
}

/* Expands node x. */
static void expand(srch *S, uint32_t x)
{
    const nr_query *q = S->q;
    uint32_t u = S->u[x], i = S->i[x];
    long g = S->g[x];
    const nr_step *ai = i < S->n ? &q->a->step[i] : NULL;
    long dp = -1;
    if (ai)
        relax(S, x, u, i + 1, g + q->wc, H_SKIP, CC_NONE_EDGE);
    for (uint32_t e = cc_graph_first(q->g, u); e != CC_NONE_EDGE && !S->oom;
         e = cc_graph_next(q->g, e)) {
        uint32_t t = cc_graph_target(q->g, e);
        if (!usable(q, t) || S->D[t] == INF_D)
            continue;
        if (cc_graph_claim(q->g, e)) {
            relax(S, x, t, i, g, H_CLAIM, e);
            continue;
        }
        relax(S, x, t, i, g + q->wc, H_INSERT, e);
        if (!ai)
            continue;
        int pr, tid, proctype, pc;
        cc_graph_step(q->g, e, &pr, &tid);
        if (pr - q->base != ai->pid || !nr_location(q->m, u, ai->pid, &proctype, &pc) ||
            proctype != ai->proctype || pc != ai->pc)
            continue;
        if (dp < 0)
            dp = (long)nr_diff(q->m, u, ai->state);
        relax(S, x, t, i + 1, g + q->wp * dp + q->wa * (tid != ai->tid), H_ALIGN, e);
    }
}

static int push_b(nr_path *b, size_t *cap, uint32_t e, uint32_t to)
{
    size_t c = *cap;
    if (U_GROW(b->move, c, b->nmoves))
        return -1;
    if (c != *cap) {
        uint32_t *s = realloc(b->state, (c + 1) * sizeof *s);
        if (!s)
            return -1;
        b->state = s;
        *cap = c;
    }
    b->move[b->nmoves++] = e;
    b->state[b->nmoves] = to;
    return 0;
}

/* b from the root to node x: its moves; pair[j] for its steps (aligned a step or -1).
 * With complete, also b's way from x's state to a good end along D (inserted steps). */
static int unwind(srch *S, uint32_t x, bool complete, nr_found *f)
{
    const nr_query *q = S->q;
    size_t len = 0;
    for (uint32_t y = x; S->how[y] != H_ROOT; y = S->parent[y])
        len += S->how[y] != H_SKIP;
    uint32_t *mv = malloc((len ? len : 1) * sizeof *mv);
    int32_t *al = malloc((len ? len : 1) * sizeof *al);
    if (!mv || !al) {
        free(mv);
        free(al);
        return -1;
    }
    size_t k = len;
    for (uint32_t y = x; S->how[y] != H_ROOT; y = S->parent[y])
        if (S->how[y] != H_SKIP) {
            k--;
            mv[k] = S->via[y];
            al[k] = S->how[y] == H_ALIGN ? (int32_t)S->i[S->parent[y]] : -1;
        }
    nr_path *b = &f->b;
    size_t cap = 0;
    int rc = 0;
    b->state = malloc(sizeof *b->state);
    if (!b->state)
        rc = -1;
    else
        b->state[0] = cc_graph_root(q->g);
    int32_t *pm = malloc((len + 1) * sizeof *pm); /* per move: aligned a step */
    size_t npm = 0, pcap = len + 1;
    if (!pm)
        rc = -1;
    for (size_t j = 0; j < len && !rc; j++) {
        rc = push_b(b, &cap, mv[j], cc_graph_target(q->g, mv[j]));
        pm[npm++] = al[j];
    }
    /* completion: a shortest way on to a good end (not exact; budget only) */
    uint32_t s = S->u[x];
    while (complete && !rc && !nr_good_end(q, s)) {
        uint32_t best = CC_NONE_EDGE;
        for (uint32_t e = cc_graph_first(q->g, s); e != CC_NONE_EDGE; e = cc_graph_next(q->g, e)) {
            uint32_t t = cc_graph_target(q->g, e);
            if (usable(q, t) && S->D[t] != INF_D && S->D[t] + !cc_graph_claim(q->g, e) == S->D[s]) {
                best = e;
                break;
            }
        }
        if (best == CC_NONE_EDGE || U_GROW(pm, pcap, npm)) {
            rc = -1;
            break;
        }
        rc = push_b(b, &cap, best, cc_graph_target(q->g, best));
        pm[npm++] = -1;
        s = cc_graph_target(q->g, best);
    }
    if (!rc)
        rc = nr_path_steps(q->g, q->m, q->base, b);
    if (!rc && !(f->pair = malloc((b->n ? b->n : 1) * sizeof *f->pair)))
        rc = -1;
    for (size_t j = 0; !rc && j < b->n; j++)
        f->pair[j] = pm[b->move_of[j]];
    free(pm);
    free(mv);
    free(al);
    return rc;
}

static void release(srch *S)
{
    free(S->D);
    free(S->u);
    free(S->i);
    free(S->parent);
    free(S->via);
    free(S->g);
    free(S->how);
    free(S->closed);
    free(S->h);
    u_map_free(&S->at);
}

int nr_search(const nr_query *q, nr_found *f)
{
    memset(f, 0, sizeof *f);
    srch S = {.q = q, .n = q->a->n};
    uint32_t root = cc_graph_root(q->g);
    if (!(S.D = dist_to_good(q)))
        return -1;
    if (!usable(q, root) || S.D[root] == INF_D) {
        release(&S);
        return 0; /* no successful run at all */
    }
    relax(&S, U_INVALID, root, 0, 0, H_ROOT, CC_NONE_EDGE);
    uint32_t goal = U_INVALID, cand = U_INVALID;
    long cand_ub = 0, lower = 0;
    bool stopped = false;
    while (S.nh && !S.oom) {
        hent top = heap_pop(&S);
        uint32_t x = top.x;
        if (S.closed[x] || top.f != S.g[x] + heur(&S, S.u[x], S.i[x]))
            continue;
        lower = top.f;
        if (S.i[x] == S.n && nr_good_end(q, S.u[x])) {
            goal = x;
            break;
        }
        long ub = S.g[x] + q->wc * (long)(S.n - S.i[x] + S.D[S.u[x]]);
        if (cand == U_INVALID || ub < cand_ub) {
            cand = x;
            cand_ub = ub;
        }
        if (q->budget && f->expanded >= q->budget) {
            stopped = true;
            break;
        }
        S.closed[x] = 1;
        f->expanded++;
        expand(&S, x);
    }
    int rc = 0;
    f->nodes = S.nn;
    f->bytes = S.cap * (5 * 4 + 8 + 2) + S.hcap * sizeof(hent) + u_map_bytes(&S.at) +
               (cc_graph_states(q->g) + 1) * 4;
    if (S.oom && goal == U_INVALID && cand == U_INVALID)
        rc = -1;
    else if (goal != U_INVALID) {
        f->found = f->exact = true;
        f->distance = f->lower = S.g[goal];
        rc = unwind(&S, goal, false, f);
    } else if (cand != U_INVALID && (stopped || S.oom)) {
        /* the budget (or memory) ran out: the best completion found, by the DP */
        f->found = true;
        f->lower = lower;
        rc = unwind(&S, cand, true, f);
        if (!rc) {
            long d = nr_distance(q->m, q->a->step, q->a->n, f->b.step, f->b.n, q->wp, q->wa, q->wc,
                                 f->pair);
            if (d < 0)
                rc = -1;
            f->distance = d;
        }
    }
    release(&S);
    return rc;
}

void nr_found_free(nr_found *f)
{
    nr_path_free(&f->b);
    free(f->pair);
    f->pair = NULL;
}
