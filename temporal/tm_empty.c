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

/* Iterative Tarjan.  Invariant of the explicit stack: frame k holds a state and
 * the index of the next edge to follow from it. */
int tm_nba_scc(const tm_nba *a, uint32_t *comp)
{
    uint32_t n = a->n;
    uint32_t *index = malloc(((size_t)n + 1) * sizeof *index);
    uint32_t *low = malloc(((size_t)n + 1) * sizeof *low);
    uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack);
    uint32_t *fs = malloc(((size_t)n + 1) * sizeof *fs); /* frame state */
    uint32_t *fe = malloc(((size_t)n + 1) * sizeof *fe); /* frame edge */
    bool *on = calloc((size_t)n + 1, sizeof *on);
    if (!index || !low || !stack || !fs || !fe || !on) {
        free(index), free(low), free(stack), free(fs), free(fe), free(on);
        return -1;
    }
    for (uint32_t q = 0; q < n; q++)
        index[q] = U_INVALID;
    uint32_t counter = 0, sp = 0, nc = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (index[root] != U_INVALID)
            continue;
        uint32_t depth = 0;
        fs[0] = root;
        fe[0] = 0;
        index[root] = low[root] = counter++;
        stack[sp++] = root;
        on[root] = true;
        depth = 1;
        while (depth > 0) {
            uint32_t u = fs[depth - 1];
            const tm_state *s = &a->s[u];
            if (fe[depth - 1] < s->n) {
                uint32_t v = s->e[fe[depth - 1]++].dst;
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
            if (low[u] == index[u]) {
                uint32_t w;
                do {
                    w = stack[--sp];
                    on[w] = false;
                    comp[w] = nc;
                } while (w != u);
                nc++;
            }
        }
    }
    free(index), free(low), free(stack), free(fs), free(fe), free(on);
    return (int)nc;
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

/* Membership of the lasso u.v^omega: an accepting cycle, reachable from an
 * initial state at position 0, in the product of a with the lasso's positions.
 * Node pos * n + q: a in state q about to read letter pos; its successors are the
 * targets of q's edges whose cube holds that letter, at the next position (after
 * the last, the cycle's first, npre).  The product is searched on the fly by
 * Tarjan's algorithm, as in tm_nba_scc, in one block of memory: the test suites
 * and the cause checks call this for every candidate word, and building the
 * product as a tm_nba cost a malloc per node. */
typedef struct {
    const tm_nba *a;
    const tm_lasso *w;
    size_t len;
} lasso_prod;

static uint64_t letter_at(const tm_lasso *w, size_t pos)
{
    return pos < w->npre ? w->pre[pos] : w->cyc[pos - w->npre];
}

/* The product node reached from node u along q's edge i, or U_INVALID when that
 * edge's cube does not hold the letter. */
static uint32_t prod_succ(const lasso_prod *p, uint32_t u, uint32_t i)
{
    uint32_t n = p->a->n;
    size_t pos = u / n;
    const tm_edge *e = &p->a->s[u % n].e[i];
    if (!tm_cube_has(e->c, letter_at(p->w, pos)))
        return U_INVALID;
    size_t next = pos + 1 < p->len ? pos + 1 : p->w->npre;
    return (uint32_t)(next * n + e->dst);
}

/* Whether the SCC {u} alone lies on a cycle: u is its own successor. */
static bool prod_self_loop(const lasso_prod *p, uint32_t u)
{
    for (uint32_t i = 0; i < p->a->s[u % p->a->n].n; i++)
        if (prod_succ(p, u, i) == u)
            return true;
    return false;
}

int tm_nba_accepts(const tm_nba *a, const tm_lasso *w, u_err *err)
{
    if (w->ncyc == 0)
        return u_errf(err, "internal error: a lasso without a cycle");
    size_t len = w->npre + w->ncyc, n = a->n;
    if (n == 0)
        return 0;
    if (len >= U_INVALID / n)
        return u_errf(err, "a word of %zu letters against %zu states is too large", len, n);
    size_t nn = len * n;
    /* index, low, Tarjan's stack, frame node, frame edge; then on-stack flags. */
    uint32_t *mem = malloc(nn * (5 * sizeof *mem + sizeof(bool)));
    if (!mem)
        return u_oom(err);
    uint32_t *index = mem, *low = mem + nn, *stack = mem + 2 * nn, *fs = mem + 3 * nn,
             *fe = mem + 4 * nn;
    bool *on = (bool *)(mem + 5 * nn);
    memset(on, 0, nn * sizeof *on);
    for (size_t k = 0; k < nn; k++)
        index[k] = U_INVALID;
    lasso_prod p = {a, w, len};
    uint32_t counter = 0, sp = 0;
    int accepted = 0;
    for (uint32_t r = 0; r < a->ninit && !accepted; r++) {
        uint32_t root = a->init[r]; /* position 0 */
        if (index[root] != U_INVALID)
            continue;
        index[root] = low[root] = counter++;
        stack[sp++] = root;
        on[root] = true;
        fs[0] = root;
        fe[0] = 0;
        uint32_t depth = 1;
        while (depth > 0 && !accepted) {
            uint32_t u = fs[depth - 1];
            if (fe[depth - 1] < a->s[u % n].n) {
                uint32_t v = prod_succ(&p, u, fe[depth - 1]++);
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
            /* u roots an SCC: the nodes above it on the stack. */
            bool acc = false, cycle = stack[sp - 1] != u || prod_self_loop(&p, u);
            uint32_t x;
            do {
                x = stack[--sp];
                on[x] = false;
                acc = acc || a->s[x % n].acc;
            } while (x != u);
            accepted = acc && cycle;
        }
    }
    free(mem);
    return accepted;
}
