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
 * b never takes a move into CC_SINK (a violating move) and never enters a bad state,
 * nor one where an --assume fails (q->ok);
 * a node (u, n) with u a good end (settled or a valid end state; with --run-to-end a
 * valid end state only) ends the search.
 * Every successful b with an alignment is a path from (root, 0) to such a node, of
 * cost d, and back, so the first goal taken from the queue is a nearest b.
 *
 * A* with h(u, i) = Wc · max(0, D(u) - (n - i)), where D(u) is the least number of
 * process moves from u to a good end: at most n - i of them can be aligned steps, the
 * rest cost Wc each.  h is consistent (a move changes D by at most its own step), so
 * nodes are final when taken and the first goal is optimal.  States with no good end
 * reachable (D infinite) can be on no successful run and are never entered.
 *
 * Lassos.  When no good end is reachable from the root (D(root) infinite: the model
 * has no finite successful run), successful runs are the lassos stem·loop^ω that never
 * violate, measured as the finite run stem·loop (README).  The same search then runs
 * over nodes (u, i, anchor, phase): phase 0 builds the stem; from a phase-0 node at a
 * state u on a cycle, any move may start the loop (anchor u, phase 1 while it has
 * only claim moves, 2 once it has a process move); a loop stays in its anchor's
 * strongly connected component (it must return); a goal is (anchor, n, anchor, 2).
 * Every lasso and alignment is such a path and back, so the search is as exact as
 * the finite one.  D is then the least number of process moves to a state of a
 * component with a process move inside (a "cyclic" state): a lasso must reach one
 * and the loop's states all are one, so h stays admissible and consistent (the step
 * into phase 1 costs 0 from a cyclic u, where h is 0).  In the loop, h counts the
 * process moves back to the anchor instead (R: a table per anchor over its component,
 * made on first use by a backward search, kept for the whole search so that an
 * anchor's h never changes; anchors beyond BACK_BUDGET get none and h = 0): the same
 * argument makes it admissible and consistent, and it cut brp.2's lasso search under
 * --run-to-end from 26 million expanded nodes to 2.1 million.
 *
 * The budget bounds the nodes expanded, and q->mem_cap the bytes the search holds
 * (checked before each doubling of the nodes or the queue, so that a search that
 * would outgrow the machine stops instead of being killed).  Stopped by either, or
 * by a failed allocation, the search frees its queue and node map and reports the
 * best run it can complete (each expanded node completes by skipping the rest of a
 * and inserting a shortest way to a good end), its distance by the textbook DP, and
 * the least f in the queue as a lower bound: not exact, and said so, with the
 * reason.  (The DP's table takes |a|·|b| bytes; where that is more than the memory
 * allows, the distance is that of the alignment the search made, and said so.)
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
    size_t n;      /* |a| */
    uint32_t *D;   /* to a good end; in the lasso search to a cyclic state */
    bool lasso;    /* the lasso search (no finite successful run) */
    uint32_t *scc; /* lasso search: a state's component if cyclic, else INF_D */
    /* lasso search, the way back: per cyclic state its index in its component (loc)
     * and the component's size; the moves inside components reversed (CSR: rstart,
     * rsrc with the claim bit 31); per anchor (map back: anchor -> slot, NO_TABLE
     * once the tables' budget is spent) a table of the process moves from each state
     * of its component back to it, saturated at UINT16_MAX (R) */
    uint32_t *loc, *csize, *rstart, *rsrc;
    uint32_t *mem, *mstart, *bd, *bcur, *bnxt; /* back_init says */
    u_map back;
    uint16_t **R;
    size_t nR, capR, Rbytes;
    uint64_t span; /* keys: states · (n + 1) */
    /* nodes: (u, i) and, in the lasso search, the loop's anchor and phase */
    uint32_t *u, *i, *parent, *via, *anc;
    long *g;
    uint8_t *how, *closed, *ph;
    size_t nn, cap;
    u_map at;
    /* the queue: a binary heap on (f, node) */
    hent *h;
    size_t nh, hcap;
    bool oom;     /* an allocation failed, or would have passed q->mem_cap */
    bool cap_hit; /* the latter */
} srch;

/* The bytes a search node takes in the node arrays. */
#define NODE_BYTES (5 * sizeof(uint32_t) + sizeof(long) + 3)

/* The bytes the search holds now (nr_found.bytes). */
static size_t search_bytes(const srch *S)
{
    size_t n = cc_graph_states(S->q->g) + 1;
    return S->cap * NODE_BYTES + S->hcap * sizeof(hent) + u_map_bytes(&S->at) +
           n * (S->lasso ? 36 : 4) + S->Rbytes + (S->rsrc ? S->rstart[n - 1] * 4 : 0) +
           u_map_bytes(&S->back);
}

/* Whether `more` bytes than the search holds now would pass q->mem_cap. */
static bool over_cap(const srch *S, size_t more)
{
    return S->q->mem_cap && search_bytes(S) + more > S->q->mem_cap;
}

/* Whether growing by about `more` bytes keeps within q->mem_cap; when not, the search
 * stops as if out of memory (S->oom). */
static bool room(srch *S, size_t more)
{
    if (more && over_cap(S, more))
        S->oom = S->cap_hit = true;
    return !S->oom;
}

/* A state b may be in: recorded with its values, not bad, keeping to every --assume. */
static bool usable(const nr_query *q, uint32_t t)
{
    return cc_is_state(t) && !(q->sf[t] & CC_SF_BAD) && nr_model_has(q->m, t) &&
           (!q->ok || q->ok[t]);
}

bool nr_good_end(const nr_query *q, uint32_t s)
{
    if (!usable(q, s) || (q->sf[s] & CC_SF_NOEND))
        return false;
    if (q->run_to_end)
        return q->m->vend[s] == NR_END_VALID;
    return !(q->sf[s] & CC_SF_DOOM) || q->m->vend[s] == NR_END_VALID;
}

/* The usable moves reversed, as CSR: the sources of the moves into t are
 * src[start[t] .. start[t+1]-1], bit 31 set for a claim move; with comp, only moves
 * inside a component (comp[s] == comp[t] != INF_D).  0, or -1 out of memory. */
static int reverse_moves(const nr_query *q, const uint32_t *comp, uint32_t **startp,
                         uint32_t **srcp)
{
    size_t n = cc_graph_states(q->g);
    uint32_t *start = calloc(n + 2, sizeof *start), *src = NULL, *at = NULL;
    for (int pass = 0; start && pass < 2; pass++) {
        if (pass) {
            for (size_t s = 0; s < n; s++)
                start[s + 1] += start[s];
            src = malloc((start[n] + 1) * sizeof *src);
            at = malloc((n + 1) * sizeof *at);
            if (!src || !at)
                break;
            memcpy(at, start, n * sizeof *at);
        }
        for (size_t s = 0; s < n; s++) {
            if (!usable(q, (uint32_t)s) || (comp && comp[s] == INF_D))
                continue;
            for (uint32_t e = cc_graph_first(q->g, (uint32_t)s); e != CC_NONE_EDGE;
                 e = cc_graph_next(q->g, e)) {
                uint32_t t = cc_graph_target(q->g, e);
                if (!usable(q, t) || (comp && comp[t] != comp[s]))
                    continue;
                if (pass)
                    src[at[t]++] = (uint32_t)s | (cc_graph_claim(q->g, e) ? 1u << 31 : 0);
                else
                    start[t + 1]++;
            }
        }
    }
    free(at);
    if (!start || !src) {
        free(start);
        free(src);
        return -1;
    }
    *startp = start;
    *srcp = src;
    return 0;
}

/* Level by level from the nc states in cur (D 0 there, INF_D or more elsewhere):
 * D[s] becomes the least number of process moves from s to one of them along the
 * reversed moves (claim moves cost 0, so a level's claim moves keep it).  cur and
 * nxt have room for every state: each enters a level's list at most once. */
static void levels(const uint32_t *start, const uint32_t *src, uint32_t *D, uint32_t *cur,
                   size_t nc, uint32_t *nxt)
{
    for (uint32_t d = 0; nc; d++) {
        size_t nx = 0;
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
                        cur[nc++] = s; /* same level: nc grows */
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
}

/* D: the least number of process moves from each state to a target (tgt[s] !=
 * INF_D; NULL: the good ends), through usable states (a 0-1 breadth-first search
 * backwards: claim moves cost 0). */
static uint32_t *dist_to(const nr_query *q, const uint32_t *tgt)
{
    size_t n = cc_graph_states(q->g);
    uint32_t *D = malloc((n + 1) * sizeof *D), *start = NULL, *src = NULL;
    uint32_t *cur = malloc((n + 1) * sizeof *cur), *nxt = malloc((n + 1) * sizeof *nxt);
    if (!D || !cur || !nxt || reverse_moves(q, NULL, &start, &src)) {
        free(D);
        free(cur);
        free(nxt);
        return NULL;
    }
    size_t nc = 0;
    for (size_t s = 0; s < n; s++) {
        D[s] = INF_D;
        if (usable(q, (uint32_t)s) && (tgt ? tgt[s] != INF_D : nr_good_end(q, (uint32_t)s))) {
            D[s] = 0;
            cur[nc++] = (uint32_t)s;
        }
    }
    levels(start, src, D, cur, nc, nxt);
    free(start);
    free(src);
    free(cur);
    free(nxt);
    return D;
}

/* Per usable state, the id of its strongly connected component (over usable states
 * and moves) when a process move joins two states of it, else INF_D: the states a
 * loop of a lasso can pass (Tarjan's algorithm, iterative). */
static uint32_t *cyclic_sccs(const nr_query *q)
{
    size_t n = cc_graph_states(q->g);
    uint32_t *idx = malloc((n + 1) * sizeof *idx), *low = malloc((n + 1) * sizeof *low);
    uint32_t *stk = malloc((n + 1) * sizeof *stk), *cs = malloc((n + 1) * sizeof *cs);
    uint32_t *ce = malloc((n + 1) * sizeof *ce), *comp = malloc((n + 1) * sizeof *comp);
    uint8_t *on = calloc(n + 1, 1), *inner = calloc(n + 1, 1);
    if (!idx || !low || !stk || !cs || !ce || !comp || !on || !inner) {
        free(comp);
        comp = NULL;
        goto done;
    }
    for (size_t s = 0; s < n; s++)
        idx[s] = comp[s] = INF_D;
    uint32_t counter = 0, ncomp = 0;
    size_t nstk = 0, ncs = 0;
    for (size_t r = 0; r < n; r++) {
        if (idx[r] != INF_D || !usable(q, (uint32_t)r))
            continue;
        idx[r] = low[r] = counter++;
        stk[nstk++] = (uint32_t)r;
        on[r] = 1;
        cs[ncs] = (uint32_t)r;
        ce[ncs++] = cc_graph_first(q->g, (uint32_t)r);
        while (ncs) {
            uint32_t v = cs[ncs - 1], e = ce[ncs - 1];
            if (e != CC_NONE_EDGE) {
                ce[ncs - 1] = cc_graph_next(q->g, e);
                uint32_t t = cc_graph_target(q->g, e);
                if (!usable(q, t))
                    continue;
                if (idx[t] == INF_D) {
                    idx[t] = low[t] = counter++;
                    stk[nstk++] = t;
                    on[t] = 1;
                    cs[ncs] = t;
                    ce[ncs++] = cc_graph_first(q->g, t);
                } else if (on[t] && idx[t] < low[v])
                    low[v] = idx[t];
                continue;
            }
            if (low[v] == idx[v]) {
                uint32_t w;
                do {
                    w = stk[--nstk];
                    on[w] = 0;
                    comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
            if (--ncs && low[v] < low[cs[ncs - 1]])
                low[cs[ncs - 1]] = low[v];
        }
    }
    for (size_t s = 0; s < n; s++) {
        if (comp[s] == INF_D)
            continue;
        for (uint32_t e = cc_graph_first(q->g, (uint32_t)s); e != CC_NONE_EDGE;
             e = cc_graph_next(q->g, e)) {
            uint32_t t = cc_graph_target(q->g, e);
            if (!cc_graph_claim(q->g, e) && usable(q, t) && comp[t] == comp[s])
                inner[comp[s]] = 1;
        }
    }
    for (size_t s = 0; s < n; s++)
        if (comp[s] != INF_D && !inner[comp[s]])
            comp[s] = INF_D;
done:
    free(idx);
    free(low);
    free(stk);
    free(cs);
    free(ce);
    free(on);
    free(inner);
    return comp;
}

/* The tables of the way back to the anchors may take this much memory (and no more
 * than q->mem_cap leaves); an anchor first used after that gets none and h = 0 in
 * its loops (still admissible). */
#define BACK_BUDGET ((size_t)256 << 20)
#define NO_TABLE    (U_INVALID - 1)

/* Prepares the way back: loc, csize, the members of each component (mem from
 * mstart[c]), the reversed moves inside components, and the level search's arrays
 * (bd all INF_D between two tables). */
static int back_init(srch *S)
{
    size_t n = cc_graph_states(S->q->g);
    S->loc = malloc((n + 1) * sizeof *S->loc);
    S->csize = calloc(n + 2, sizeof *S->csize);
    S->mem = malloc((n + 1) * sizeof *S->mem);
    S->bd = malloc((n + 1) * sizeof *S->bd);
    S->bcur = malloc((n + 1) * sizeof *S->bcur);
    S->bnxt = malloc((n + 1) * sizeof *S->bnxt);
    if (!S->loc || !S->csize || !S->mem || !S->bd || !S->bcur || !S->bnxt)
        return -1;
    for (size_t s = 0; s < n; s++) {
        S->bd[s] = INF_D;
        S->loc[s] = S->scc[s] == INF_D ? INF_D : S->csize[S->scc[s]]++;
    }
    /* mem: the states of component c at mem[mstart[c] + loc] */
    uint32_t *first = calloc(n + 2, sizeof *first);
    if (!first)
        return -1;
    for (size_t c = 0; c < n; c++)
        first[c + 1] = first[c] + S->csize[c];
    for (size_t s = 0; s < n; s++)
        if (S->scc[s] != INF_D)
            S->mem[first[S->scc[s]] + S->loc[s]] = (uint32_t)s;
    S->mstart = first;
    return reverse_moves(S->q, S->scc, &S->rstart, &S->rsrc);
}

/* The table of anchor anc (made on first use by levels() from the anchor over the
 * moves inside its component), or NULL when it has none (out of budget, or out of
 * memory: S->oom). */
static const uint16_t *back_table(srch *S, uint32_t anc)
{
    uint32_t slot = u_map_get(&S->back, anc);
    if (slot == NO_TABLE)
        return NULL;
    if (slot != U_INVALID)
        return S->R[slot];
    uint32_t c = S->scc[anc];
    size_t m = S->csize[c];
    uint16_t *r = NULL;
    if (S->Rbytes + m * sizeof *r > BACK_BUDGET || over_cap(S, m * sizeof *r)) {
        if (u_map_put(&S->back, anc, NO_TABLE))
            S->oom = true;
        return NULL;
    }
    if (U_GROW(S->R, S->capR, S->nR) || !(r = malloc(m * sizeof *r)) ||
        u_map_put(&S->back, anc, (uint32_t)S->nR)) {
        free(r);
        S->oom = true;
        return NULL;
    }
    S->bd[anc] = 0;
    S->bcur[0] = anc;
    levels(S->rstart, S->rsrc, S->bd, S->bcur, 1, S->bnxt);
    for (size_t k = 0; k < m; k++) {
        uint32_t s = S->mem[S->mstart[c] + k];
        r[k] = (uint16_t)(S->bd[s] < UINT16_MAX ? S->bd[s] : UINT16_MAX);
        S->bd[s] = INF_D; /* ready for the next table */
    }
    S->R[S->nR++] = r;
    S->Rbytes += m * sizeof *r;
    return r;
}

/* h: Wc for each move b must still make beyond the steps of a left to align with
 * them: to a good end (phase 0 of a lasso: to a cyclic state), and in a loop back to
 * its anchor.  Both counts fall by at most one per process move and not at all by a
 * claim move, so h stays consistent; per anchor the table is fixed once made. */
static long heur(srch *S, uint32_t u, uint32_t i, uint32_t anc, uint8_t ph)
{
    uint32_t need = S->D[u];
    if (ph) {
        const uint16_t *r = back_table(S, anc);
        need = r ? r[S->loc[u]] : 0;
    }
    long rest = (long)need - (long)(S->n - i);
    return rest > 0 ? S->q->wc * rest : 0;
}

static void heap_push(srch *S, long f, uint32_t x)
{
    if ((S->nh == S->hcap && !room(S, (S->hcap ? S->hcap : 16) * sizeof(hent))) ||
        U_GROW(S->h, S->hcap, S->nh)) {
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
    if (!room(S, (cap - S->cap) * NODE_BYTES))
        return -1;
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
    RE(anc);
    RE(g);
    RE(how);
    RE(closed);
    RE(ph);
#undef RE
    S->cap = cap;
    return 0;
}

/* A node's key: (t, i) in phase 0; the anchor and phase above them in a loop. */
static uint64_t key_of(const srch *S, uint32_t t, uint32_t i, uint32_t anc, uint8_t ph)
{
    uint64_t k = (uint64_t)t * (S->n + 1) + i;
    return ph ? k + S->span * (2 * (uint64_t)anc + ph) : k;
}

static void relax(srch *S, uint32_t from, uint32_t t, uint32_t i, uint32_t anc, uint8_t ph, long g,
                  uint8_t how, uint32_t via)
{
    uint64_t key = key_of(S, t, i, anc, ph);
    uint32_t x = u_map_get(&S->at, key);
    if (x == U_INVALID) {
        if (!room(S, u_map_grow_bytes(&S->at)) || grow_nodes(S) || S->nn >= UINT32_MAX - 1 ||
            u_map_put(&S->at, key, (uint32_t)S->nn)) {
            S->oom = true;
            return;
        }
        x = (uint32_t)S->nn++;
        S->u[x] = t;
        S->i[x] = i;
        S->anc[x] = ph ? anc : NR_NONE;
        S->ph[x] = ph;
        S->closed[x] = 0;
    } else if (S->closed[x] || g >= S->g[x])
        return;
    S->g[x] = g;
    S->parent[x] = from;
    S->how[x] = how;
    S->via[x] = via;
    heap_push(S, g + heur(S, t, i, anc, ph), x);
}

/* The moves of node x along edge e to t, in a loop anchored at anc when ph > 0:
 * the claim's move, or b's step inserted and, from a's step i's location, aligned. */
static void moves(srch *S, uint32_t x, uint32_t e, uint32_t t, uint32_t anc, uint8_t ph, long *dp)
{
    const nr_query *q = S->q;
    uint32_t u = S->u[x], i = S->i[x];
    long g = S->g[x];
    if (cc_graph_claim(q->g, e)) {
        relax(S, x, t, i, anc, ph, g, H_CLAIM, e);
        return;
    }
    uint8_t np = ph ? 2 : 0; /* a process move: the loop is no longer empty */
    relax(S, x, t, i, anc, np, g + q->wc, H_INSERT, e);
    const nr_step *ai = i < S->n ? &q->a->step[i] : NULL;
    if (!ai)
        return;
    int pr, tid, proctype, pc;
    cc_graph_step(q->g, e, &pr, &tid);
    if (pr - q->base != ai->pid || !nr_location(q->m, u, ai->pid, &proctype, &pc) ||
        proctype != ai->proctype || pc != ai->pc)
        return;
    if (*dp < 0)
        *dp = (long)nr_diff(q->m, u, ai->state);
    relax(S, x, t, i + 1, anc, np, g + q->wp * *dp + q->wa * (tid != ai->tid), H_ALIGN, e);
}

/* Expands node x. */
static void expand(srch *S, uint32_t x)
{
    const nr_query *q = S->q;
    uint32_t u = S->u[x], i = S->i[x], anc = S->anc[x];
    uint8_t ph = S->ph[x];
    long dp = -1;
    if (i < S->n)
        relax(S, x, u, i + 1, anc, ph, S->g[x] + q->wc, H_SKIP, CC_NONE_EDGE);
    for (uint32_t e = cc_graph_first(q->g, u); e != CC_NONE_EDGE && !S->oom;
         e = cc_graph_next(q->g, e)) {
        uint32_t t = cc_graph_target(q->g, e);
        if (!usable(q, t) || S->D[t] == INF_D)
            continue;
        /* a loop keeps to its anchor's component: it has to come back */
        if (!ph || S->scc[t] == S->scc[anc])
            moves(S, x, e, t, anc, ph, &dp);
        /* a loop may start at any state of the stem on a cycle */
        if (S->lasso && !ph && S->scc[u] != INF_D && S->scc[t] == S->scc[u])
            moves(S, x, e, t, u, 1, &dp);
    }
}

static bool is_goal(const srch *S, uint32_t x)
{
    if (S->i[x] != S->n)
        return false;
    if (S->lasso)
        return S->ph[x] == 2 && S->u[x] == S->anc[x];
    return nr_good_end(S->q, S->u[x]);
}

/* A shortest way (fewest moves) inside the anchor's component from (s, moved) back to
 * the anchor with a process move taken, for a loop the budget left open: its edges,
 * fresh, in *out (NULL for none needed).  -1 when out of memory or there is none
 * (cannot happen in a component with a process move inside). */
static int close_loop(const srch *S, uint32_t s, bool moved, uint32_t anc, uint32_t **out,
                      size_t *nout)
{
    const nr_query *q = S->q;
    *out = NULL;
    *nout = 0;
    if (moved && s == anc)
        return 0;
    size_t n = 2 * (cc_graph_states(q->g) + 1);
    uint32_t *pnode = malloc(n * sizeof *pnode), *pedge = malloc(n * sizeof *pedge);
    uint32_t *queue = malloc(n * sizeof *queue);
    int rc = -1;
    if (!pnode || !pedge || !queue)
        goto done;
    for (size_t k = 0; k < n; k++)
        pnode[k] = INF_D;
    size_t head = 0, tail = 0;
    uint32_t start = 2 * s + moved, goal = 2 * anc + 1;
    queue[tail++] = start;
    pnode[start] = start;
    while (head < tail && pnode[goal] == INF_D) {
        uint32_t v = queue[head++];
        for (uint32_t e = cc_graph_first(q->g, v / 2); e != CC_NONE_EDGE;
             e = cc_graph_next(q->g, e)) {
            uint32_t t = cc_graph_target(q->g, e);
            if (!usable(q, t) || S->scc[t] != S->scc[anc])
                continue;
            uint32_t w = 2 * t + ((v & 1) | !cc_graph_claim(q->g, e));
            if (pnode[w] == INF_D) {
                pnode[w] = v;
                pedge[w] = e;
                queue[tail++] = w;
            }
        }
    }
    if (pnode[goal] == INF_D)
        goto done;
    size_t len = 0;
    for (uint32_t v = goal; v != start; v = pnode[v])
        len++;
    if (!(*out = malloc(len * sizeof **out)))
        goto done;
    *nout = len;
    for (uint32_t v = goal; v != start; v = pnode[v])
        (*out)[--len] = pedge[v];
    rc = 0;
done:
    free(pnode);
    free(pedge);
    free(queue);
    return rc;
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

/* b from the root to node x: its moves; pair[j] for its steps (aligned a step or -1);
 * in the lasso search where its loop starts.  With complete, also b's way on from
 * x's state along D (inserted steps): to a good end, or in the lasso search to a
 * cyclic state and round a loop back to its anchor. */
static int unwind(srch *S, uint32_t x, bool complete, nr_found *f)
{
    const nr_query *q = S->q;
    size_t len = 0;
    for (uint32_t y = x; S->how[y] != H_ROOT; y = S->parent[y])
        len += S->how[y] != H_SKIP;
    uint32_t *mv = malloc((len ? len : 1) * sizeof *mv);
    int32_t *al = malloc((len ? len : 1) * sizeof *al);
    uint8_t *inloop = malloc(len ? len : 1);
    if (!mv || !al || !inloop) {
        free(mv);
        free(al);
        free(inloop);
        return -1;
    }
    size_t k = len;
    for (uint32_t y = x; S->how[y] != H_ROOT; y = S->parent[y])
        if (S->how[y] != H_SKIP) {
            k--;
            mv[k] = S->via[y];
            al[k] = S->how[y] == H_ALIGN ? (int32_t)S->i[S->parent[y]] : -1;
            inloop[k] = S->ph[y] != 0;
        }
    nr_path *b = &f->b;
    size_t cap = 0;
    int rc = 0;
    f->lasso = S->lasso;
    f->loop_move = SIZE_MAX;
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
        if (inloop[j] && f->loop_move == SIZE_MAX)
            f->loop_move = j;
        pm[npm++] = al[j];
    }
    /* completion: a shortest way on (not exact; budget only) */
    uint32_t s = S->u[x];
    while (complete && !rc && (S->lasso ? !S->ph[x] && S->D[s] : !nr_good_end(q, s))) {
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
    if (complete && !rc && S->lasso) {
        /* round the loop: the open one, or a new one from the cyclic state reached */
        uint32_t anc = S->ph[x] ? S->anc[x] : s, *lp;
        size_t nlp;
        if (!S->ph[x])
            f->loop_move = b->nmoves;
        rc = close_loop(S, s, S->ph[x] == 2, anc, &lp, &nlp);
        for (size_t j = 0; j < nlp && !rc; j++) {
            if (U_GROW(pm, pcap, npm))
                rc = -1;
            else {
                rc = push_b(b, &cap, lp[j], cc_graph_target(q->g, lp[j]));
                pm[npm++] = -1;
            }
        }
        free(lp);
    }
    if (!rc)
        rc = nr_path_steps(q->g, q->m, q->base, b);
    if (!rc && !(f->pair = malloc((b->n ? b->n : 1) * sizeof *f->pair)))
        rc = -1;
    for (size_t j = 0; !rc && j < b->n; j++)
        f->pair[j] = pm[b->move_of[j]];
    if (!rc && f->lasso) {
        for (f->loop_step = 0; f->loop_step < b->n && b->move_of[f->loop_step] < f->loop_move;)
            f->loop_step++;
        if (f->loop_move >= b->nmoves || f->loop_step >= b->n ||
            b->state[f->loop_move] != b->state[b->nmoves])
            rc = -1; /* no loop: cannot happen */
    }
    free(pm);
    free(mv);
    free(al);
    free(inloop);
    return rc;
}

static void release(srch *S)
{
    free(S->D);
    free(S->u);
    free(S->i);
    free(S->parent);
    free(S->via);
    free(S->anc);
    free(S->g);
    free(S->how);
    free(S->closed);
    free(S->ph);
    free(S->scc);
    free(S->h);
    u_map_free(&S->at);
    free(S->loc);
    free(S->csize);
    free(S->rstart);
    free(S->rsrc);
    free(S->mem);
    free(S->mstart);
    free(S->bd);
    free(S->bcur);
    free(S->bnxt);
    for (size_t k = 0; k < S->nR; k++)
        free(S->R[k]);
    free(S->R);
    u_map_free(&S->back);
}

int nr_search(const nr_query *q, nr_found *f)
{
    memset(f, 0, sizeof *f);
    srch S = {.q = q, .n = q->a->n};
    uint32_t root = cc_graph_root(q->g);
    if (!(S.D = dist_to(q, NULL)))
        return -1;
    if (usable(q, root) && S.D[root] == INF_D) {
        /* no finite successful run: the lassos (README) */
        S.lasso = true;
        free(S.D);
        S.D = NULL;
        uint64_t states = cc_graph_states(q->g), top;
        if (__builtin_mul_overflow(states, (uint64_t)S.n + 1, &S.span) ||
            __builtin_mul_overflow(S.span, 2 * states + 3, &top)) {
            f->lasso_too_big = true;
            release(&S);
            return 0;
        }
        if (!(S.scc = cyclic_sccs(q)) || !(S.D = dist_to(q, S.scc)) || back_init(&S)) {
            release(&S);
            return -1;
        }
    }
    if (!usable(q, root) || S.D[root] == INF_D) {
        release(&S);
        return 0; /* no successful run at all */
    }
    relax(&S, U_INVALID, root, 0, NR_NONE, 0, 0, H_ROOT, CC_NONE_EDGE);
    uint32_t goal = U_INVALID, cand = U_INVALID;
    long cand_ub = 0, lower = 0;
    bool stopped = false;
    while (S.nh && !S.oom) {
        hent top = heap_pop(&S);
        uint32_t x = top.x;
        if (S.closed[x] || top.f != S.g[x] + heur(&S, S.u[x], S.i[x], S.anc[x], S.ph[x]))
            continue;
        lower = top.f;
        if (is_goal(&S, x)) {
            goal = x;
            break;
        }
        /* completing x: the rest of a skipped, a shortest way on inserted (for a
         * lasso, plus its loop: not counted; this only picks the run completed) */
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
    f->bytes = search_bytes(&S);
    if (S.oom && goal == U_INVALID) {
        f->stop = NR_STOP_MEMORY;
        f->cap_hit = S.cap_hit;
        /* the completion needs only the nodes' parents: give back the rest first */
        free(S.h);
        S.h = NULL;
        S.nh = S.hcap = 0;
        u_map_free(&S.at);
    }
    if (S.oom && goal == U_INVALID && cand == U_INVALID)
        rc = -1;
    else if (goal != U_INVALID) {
        f->found = f->exact = true;
        f->distance = f->lower = S.g[goal];
        rc = unwind(&S, goal, false, f);
    } else if (cand != U_INVALID && (stopped || S.oom)) {
        /* the budget (or memory) ran out: the best completion found, by the DP */
        f->found = true;
        if (!S.oom)
            f->stop = NR_STOP_BUDGET; /* else NR_STOP_MEMORY, above */
        f->lower = lower;
        rc = unwind(&S, cand, true, f);
        if (!rc) {
            /* the DP's table is |a|·|b| bytes: beyond what the memory allows, the
             * distance of the alignment the search itself made */
            size_t cells = (S.n + 1) * (f->b.n + 1);
            f->own_alignment = cells > NR_DP_MAX_BYTES || over_cap(&S, cells);
            long d = f->own_alignment ? nr_alignment_cost(q->m, q->a->step, q->a->n, f->b.step,
                                                          f->b.n, q->wp, q->wa, q->wc, f->pair)
                                      : nr_distance(q->m, q->a->step, q->a->n, f->b.step, f->b.n,
                                                    q->wp, q->wa, q->wc, f->pair);
            if (d < 0)
                rc = -1;
            f->distance = d;
            /* no successful run is nearer than lower, and b is that near: b is nearest
             * after all, and its alignment the least (third probe H6: "NOT EXACT ... no
             * run is nearer than 12" for a b at 12).  f->stop stays: the reports say
             * that the search stopped after it had proved this. */
            if (d >= 0 && d <= f->lower) {
                f->exact = true;
                f->own_alignment = false;
                f->lower = d;
            }
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
