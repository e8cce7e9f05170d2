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

int tm_nba_accepts(const tm_nba *a, const tm_lasso *w, u_err *err)
{
    size_t len = w->npre + w->ncyc;
    if (w->ncyc == 0)
        return u_errf(err, "internal error: a lasso without a cycle");
    tm_nba p;
    tm_nba_init(&p, 0);
    /* state (pos, q) = pos * n + q */
    for (size_t pos = 0; pos < len; pos++)
        for (uint32_t q = 0; q < a->n; q++)
            if (tm_nba_add_state(&p, a->s[q].acc) == U_INVALID)
                goto oom;
    tm_cube top = {0, 0};
    for (size_t pos = 0; pos < len; pos++) {
        uint64_t letter = pos < w->npre ? w->pre[pos] : w->cyc[pos - w->npre];
        size_t next = pos + 1 < len ? pos + 1 : w->npre;
        for (uint32_t q = 0; q < a->n; q++)
            for (uint32_t i = 0; i < a->s[q].n; i++)
                if (tm_cube_has(a->s[q].e[i].c, letter) &&
                    tm_nba_add_edge(&p, (uint32_t)(pos * a->n + q),
                                    (uint32_t)(next * a->n + a->s[q].e[i].dst), top) != 0)
                    goto oom;
    }
    for (uint32_t i = 0; i < a->ninit; i++)
        if (tm_nba_add_init(&p, a->init[i]) != 0)
            goto oom;
    int r = tm_nba_empty(&p, NULL, err);
    tm_nba_free(&p);
    return r < 0 ? -1 : !r;
oom:
    tm_nba_free(&p);
    return u_oom(err);
}
