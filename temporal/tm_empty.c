/*
 * tm_empty.c - strongly connected components, the emptiness check with an
 * accepted lasso as witness, and membership of a lasso word.  Every inclusion,
 * equivalence and cause-check answer of temporal/ ends in tm_nba_empty, so its
 * witness is what the user sees as a counterexample word.
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

void tm_lasso_free(tm_lasso *w)
{
    free(w->pre);
    free(w->cyc);
    memset(w, 0, sizeof *w);
}

/* The graph Tarjan's search walks: a's states, or (w != NULL) the product of a
 * with the positions of the lasso w, for tm_nba_accepts.  Product node pos * n + q:
 * a in state q about to read letter pos; its successors are the targets of q's
 * edges whose cube holds that letter, at the next position (after the last, the
 * cycle's first, npre). */
typedef struct {
    const tm_nba *a;
    const tm_lasso *w;
    size_t len;
} scc_graph;

static uint32_t out_degree(const scc_graph *g, uint32_t u)
{
    return g->a->s[g->w ? u % g->a->n : u].n; /* no division on a's own states */
}

/* The node u's i-th edge leads to, or U_INVALID when (product) that edge's cube
 * does not hold the letter. */
static uint32_t successor(const scc_graph *g, uint32_t u, uint32_t i)
{
    if (!g->w)
        return g->a->s[u].e[i].dst;
    uint32_t n = g->a->n;
    size_t pos = u / n;
    const tm_edge *e = &g->a->s[u % n].e[i];
    uint64_t letter = pos < g->w->npre ? g->w->pre[pos] : g->w->cyc[pos - g->w->npre];
    if (!tm_cube_has(e->c, letter))
        return U_INVALID;
    size_t next = pos + 1 < g->len ? pos + 1 : g->w->npre;
    return (uint32_t)(next * n + e->dst);
}

/* Called with each SCC's nodes as Tarjan completes it (so in reverse topological
 * order); a nonzero return ends the search with that value. */
typedef int (*scc_fn)(const scc_graph *g, const uint32_t *nodes, uint32_t k, void *ctx);

/* Iterative Tarjan over the nn nodes reachable from the roots (every node when
 * roots is NULL), in one block of memory.  Invariant of the explicit stack: frame
 * k holds a node and the index of the next edge to follow from it.  Returns the
 * callback's nonzero value, 0 when every SCC was visited, -1 out of memory. */
static int tarjan(const scc_graph *g, uint32_t nn, const uint32_t *roots, uint32_t nroots,
                  scc_fn fn, void *ctx)
{
    /* index, low, Tarjan's stack, frame node, frame edge; then on-stack flags */
    uint32_t *mem = malloc((size_t)nn * (5 * sizeof *mem + sizeof(bool)) + 1);
    if (!mem)
        return -1;
    uint32_t *index = mem, *low = mem + nn, *stack = mem + 2 * (size_t)nn,
             *fs = mem + 3 * (size_t)nn, *fe = mem + 4 * (size_t)nn;
    bool *on = (bool *)(mem + 5 * (size_t)nn);
    memset(on, 0, nn * sizeof *on);
    for (uint32_t k = 0; k < nn; k++)
        index[k] = U_INVALID;
    uint32_t counter = 0, sp = 0;
    int stop = 0;
    for (uint32_t r = 0; r < (roots ? nroots : nn) && !stop; r++) {
        uint32_t root = roots ? roots[r] : r;
        if (index[root] != U_INVALID)
            continue;
        index[root] = low[root] = counter++;
        stack[sp++] = root;
        on[root] = true;
        fs[0] = root;
        fe[0] = 0;
        uint32_t depth = 1;
        while (depth > 0 && !stop) {
            uint32_t u = fs[depth - 1];
            if (fe[depth - 1] < out_degree(g, u)) {
                uint32_t v = successor(g, u, fe[depth - 1]++);
                if (v == U_INVALID)
                    continue;
                if (index[v] == U_INVALID) {
                    index[v] = low[v] = counter++;
                    stack[sp++] = v;
                    on[v] = true;
                    fs[depth] = v;
                    fe[depth] = 0;
                    depth++;
                } else if (on[v] && index[v] < low[u]) {
                    low[u] = index[v];
                }
                continue;
            }
            depth--;
            if (depth > 0 && low[u] < low[fs[depth - 1]])
                low[fs[depth - 1]] = low[u];
            if (low[u] != index[u])
                continue;
            uint32_t k = sp; /* u roots an SCC: the nodes from u up on the stack */
            do
                on[stack[--k]] = false;
            while (stack[k] != u);
            stop = fn(g, stack + k, sp - k, ctx);
            sp = k;
        }
    }
    free(mem);
    return stop;
}

typedef struct {
    uint32_t *comp, nc;
} numbering;

static int number_scc(const scc_graph *g, const uint32_t *nodes, uint32_t k, void *ctx)
{
    (void)g;
    numbering *x = ctx;
    for (uint32_t i = 0; i < k; i++)
        x->comp[nodes[i]] = x->nc;
    x->nc++;
    return 0;
}

int tm_nba_scc(const tm_nba *a, uint32_t *comp)
{
    scc_graph g = {a, NULL, 0};
    numbering x = {comp, 0};
    return tarjan(&g, a->n, NULL, 0, number_scc, &x) < 0 ? -1 : (int)x.nc;
}

/* Breadth-first search from the sources to the first state with target[q],
 * staying inside component `only` unless it is U_INVALID.  The path is written
 * as letters into *out (fresh), its length into *len, the state it ends in into
 * *end.  A source that is a target ends an empty path unless nonempty is set
 * (then a target counts only when reached by an edge).  0, 1 (no path), -1. */
static int bfs_path(const tm_nba *a, const uint32_t *src, uint32_t nsrc, const bool *target,
                    const uint32_t *comp, uint32_t only, bool nonempty, uint64_t **out, size_t *len,
                    uint32_t *end)
{
    uint32_t n = a->n;
    uint32_t *pred = malloc(((size_t)n + 1) * sizeof *pred);
    uint64_t *plet = malloc(((size_t)n + 1) * sizeof *plet);
    uint32_t *queue = malloc(((size_t)n + 1) * sizeof *queue);
    bool *seen = calloc((size_t)n + 1, sizeof *seen);
    if (!pred || !plet || !queue || !seen)
        goto oom;
    uint32_t head = 0, tail = 0, found = U_INVALID, first_from = U_INVALID;
    uint64_t first_letter = 0;
    for (uint32_t i = 0; i < nsrc; i++) {
        uint32_t q = src[i];
        if (seen[q])
            continue;
        seen[q] = true;
        pred[q] = U_INVALID;
        queue[tail++] = q;
        if (!nonempty && target[q] && found == U_INVALID)
            found = q;
    }
    while (found == U_INVALID && head < tail) {
        uint32_t q = queue[head++];
        for (uint32_t i = 0; i < a->s[q].n && found == U_INVALID; i++) {
            uint32_t d = a->s[q].e[i].dst;
            if (only != U_INVALID && comp[d] != only)
                continue;
            if (nonempty && target[d]) {
                /* reached a target by at least one step */
                found = d;
                first_from = q;
                first_letter = a->s[q].e[i].c.val;
                break;
            }
            if (seen[d])
                continue;
            seen[d] = true;
            pred[d] = q;
            plet[d] = a->s[q].e[i].c.val;
            queue[tail++] = d;
            if (target[d])
                found = d;
        }
    }
    if (found == U_INVALID) {
        free(pred), free(plet), free(queue), free(seen);
        *out = NULL;
        *len = 0;
        return 1; /* no path */
    }
    size_t k = 0;
    uint32_t q = nonempty ? first_from : found;
    if (nonempty)
        k = 1;
    for (uint32_t p = q; pred[p] != U_INVALID; p = pred[p])
        k++;
    uint64_t *path = malloc((k + 1) * sizeof *path);
    if (!path)
        goto oom;
    size_t i = k;
    if (nonempty)
        path[--i] = first_letter;
    for (uint32_t p = q; pred[p] != U_INVALID; p = pred[p])
        path[--i] = plet[p];
    *out = path;
    *len = k;
    *end = found;
    free(pred), free(plet), free(queue), free(seen);
    return 0;
oom:
    free(pred), free(plet), free(queue), free(seen);
    return -1;
}

int tm_nba_empty(const tm_nba *a, tm_lasso *w, u_err *err)
{
    if (w)
        memset(w, 0, sizeof *w);
    uint32_t n = a->n;
    uint32_t *comp = malloc(((size_t)n + 1) * sizeof *comp);
    bool *target = calloc((size_t)n + 1, sizeof *target);
    bool *reach = calloc((size_t)n + 1, sizeof *reach);
    uint32_t *queue = malloc(((size_t)n + 1) * sizeof *queue);
    int nc = comp ? tm_nba_scc(a, comp) : -1;
    bool *cyc = nc >= 0 ? calloc((size_t)nc + 1, sizeof *cyc) : NULL;
    if (!comp || !target || !reach || !queue || !cyc)
        goto oom;
    for (uint32_t q = 0; q < n; q++)
        for (uint32_t i = 0; i < a->s[q].n; i++)
            if (comp[a->s[q].e[i].dst] == comp[q])
                cyc[comp[q]] = true;
    /* reachable accepting states on a cycle */
    uint32_t tail = 0;
    for (uint32_t i = 0; i < a->ninit; i++)
        if (!reach[a->init[i]]) {
            reach[a->init[i]] = true;
            queue[tail++] = a->init[i];
        }
    for (uint32_t head = 0; head < tail; head++) {
        uint32_t q = queue[head];
        for (uint32_t i = 0; i < a->s[q].n; i++) {
            uint32_t d = a->s[q].e[i].dst;
            if (!reach[d]) {
                reach[d] = true;
                queue[tail++] = d;
            }
        }
    }
    bool any = false;
    for (uint32_t q = 0; q < n; q++) {
        target[q] = reach[q] && a->s[q].acc && cyc[comp[q]];
        any |= target[q];
    }
    if (!any) {
        free(comp), free(target), free(reach), free(queue), free(cyc);
        return 1;
    }
    if (w) {
        uint32_t f;
        int r =
            bfs_path(a, a->init, a->ninit, target, comp, U_INVALID, false, &w->pre, &w->npre, &f);
        if (r != 0)
            goto oom; /* r == 1 cannot happen: a target is reachable */
        bool *only = calloc((size_t)n + 1, sizeof *only);
        if (!only)
            goto oom;
        only[f] = true;
        uint32_t g;
        r = bfs_path(a, &f, 1, only, comp, comp[f], true, &w->cyc, &w->ncyc, &g);
        free(only);
        if (r != 0)
            goto oom; /* r == 1 cannot happen: f is on a cycle of its component */
    }
    free(comp), free(target), free(reach), free(queue), free(cyc);
    return 0;
oom:
    free(comp), free(target), free(reach), free(queue), free(cyc);
    if (w)
        tm_lasso_free(w);
    return u_oom(err);
}

/* An SCC of the product that lies on a cycle (more than one node, or one that is
 * its own successor) and holds an accepting state: the lasso is accepted. */
static int accepting_scc(const scc_graph *g, const uint32_t *nodes, uint32_t k, void *ctx)
{
    (void)ctx;
    bool acc = false, cycle = k > 1;
    for (uint32_t i = 0; i < k; i++)
        acc = acc || g->a->s[nodes[i] % g->a->n].acc;
    for (uint32_t i = 0; acc && !cycle && i < out_degree(g, nodes[0]); i++)
        cycle = successor(g, nodes[0], i) == nodes[0];
    return acc && cycle;
}

/* Membership of the lasso u.v^omega: an accepting cycle, reachable from an
 * initial state at position 0, in the product of a with the lasso's positions,
 * searched on the fly (scc_graph): the test suites and the cause checks call this
 * for every candidate word, and building the product as a tm_nba cost a malloc
 * per node. */
int tm_nba_accepts(const tm_nba *a, const tm_lasso *w, u_err *err)
{
    if (w->ncyc == 0)
        return u_errf(err, "internal error: a lasso without a cycle");
    size_t len = w->npre + w->ncyc, n = a->n;
    if (n == 0)
        return 0;
    if (len >= U_INVALID / n)
        return u_errf(err, "a word of %zu letters against %zu states is too large", len, n);
    scc_graph g = {a, w, len};
    /* the initial states at position 0 are the product's roots */
    int r = tarjan(&g, (uint32_t)(len * n), a->init, a->ninit, accepting_scc, NULL);
    return r < 0 ? u_oom(err) : r;
}
