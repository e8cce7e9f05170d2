/*
 * tm_nba.c - the Buchi automaton container every other part of temporal/ builds
 * and reads: states with cube-labelled edges, initial states, AP names, letter
 * enumeration, and the two clean-ups every construction ends with (trimming to
 * the useful states, merging edges).
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

/* ---- APs ---- */

int tm_aps_find(const tm_aps *a, const char *name, size_t len)
{
    for (int i = 0; i < a->n; i++)
        if (strlen(a->name[i]) == len && !memcmp(a->name[i], name, len))
            return i;
    return -1;
}

int tm_aps_add(tm_aps *a, const char *name, size_t len, u_err *err)
{
    int i = tm_aps_find(a, name, len);
    if (i >= 0)
        return i;
    if (a->n >= TM_MAX_APS)
        return u_errf(err, "more than %d atomic propositions", TM_MAX_APS);
    char *s = malloc(len + 1);
    if (!s)
        return u_oom(err);
    memcpy(s, name, len);
    s[len] = 0;
    a->name[a->n] = s;
    return a->n++;
}

int tm_aps_copy(tm_aps *dst, const tm_aps *src)
{
    memset(dst, 0, sizeof *dst);
    for (int i = 0; i < src->n; i++) {
        if (tm_aps_add(dst, src->name[i], strlen(src->name[i]), NULL) < 0) {
            tm_aps_free(dst);
            return -1;
        }
    }
    return 0;
}

void tm_aps_free(tm_aps *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->name[i]);
    memset(a, 0, sizeof *a);
}

/* ---- letters ---- */

int tm_popcount(uint64_t m)
{
    return __builtin_popcountll(m);
}

uint64_t tm_spread(uint64_t k, uint64_t mask)
{
    uint64_t out = 0;
    for (uint64_t bit = 1; mask; bit <<= 1) {
        uint64_t low = mask & -mask;
        if (k & bit)
            out |= low;
        mask &= mask - 1;
    }
    return out;
}

/* ---- the container ---- */

void tm_nba_init(tm_nba *a, uint64_t apmask)
{
    memset(a, 0, sizeof *a);
    a->apmask = apmask;
}

void tm_nba_free(tm_nba *a)
{
    for (uint32_t q = 0; q < a->n; q++)
        free(a->s[q].e);
    free(a->s);
    free(a->init);
    uint64_t m = a->apmask;
    memset(a, 0, sizeof *a);
    a->apmask = m;
}

uint32_t tm_nba_add_state(tm_nba *a, bool acc)
{
    if (a->n >= U_INVALID - 1)
        return U_INVALID;
    if (a->n == a->cap) {
        size_t cap = a->cap;
        if (u_grow((void **)&a->s, &cap, a->n, sizeof *a->s, 16) != 0)
            return U_INVALID;
        a->cap = (uint32_t)(cap > UINT32_MAX ? UINT32_MAX : cap);
    }
    tm_state *s = &a->s[a->n];
    memset(s, 0, sizeof *s);
    s->acc = acc;
    return a->n++;
}

int tm_nba_add_edge(tm_nba *a, uint32_t src, uint32_t dst, tm_cube c)
{
    c.mask &= a->apmask;
    c.val &= c.mask;
    tm_state *s = &a->s[src];
    if (s->n == s->cap) {
        size_t cap = s->cap;
        if (u_grow((void **)&s->e, &cap, s->n, sizeof *s->e, 4) != 0)
            return -1;
        s->cap = (uint32_t)cap;
    }
    s->e[s->n].dst = dst;
    s->e[s->n].c = c;
    s->n++;
    return 0;
}

int tm_nba_add_init(tm_nba *a, uint32_t q)
{
    for (uint32_t i = 0; i < a->ninit; i++)
        if (a->init[i] == q)
            return 0;
    if (a->ninit == a->init_cap) {
        size_t cap = a->init_cap;
        if (u_grow((void **)&a->init, &cap, a->ninit, sizeof *a->init, 4) != 0)
            return -1;
        a->init_cap = (uint32_t)cap;
    }
    a->init[a->ninit++] = q;
    return 0;
}

int tm_nba_copy(tm_nba *dst, const tm_nba *src)
{
    tm_nba_init(dst, src->apmask);
    for (uint32_t q = 0; q < src->n; q++)
        if (tm_nba_add_state(dst, src->s[q].acc) == U_INVALID)
            goto oom;
    for (uint32_t q = 0; q < src->n; q++)
        for (uint32_t i = 0; i < src->s[q].n; i++)
            if (tm_nba_add_edge(dst, q, src->s[q].e[i].dst, src->s[q].e[i].c) != 0)
                goto oom;
    for (uint32_t i = 0; i < src->ninit; i++)
        if (tm_nba_add_init(dst, src->init[i]) != 0)
            goto oom;
    return 0;
oom:
    tm_nba_free(dst);
    return -1;
}

size_t tm_nba_edges(const tm_nba *a)
{
    size_t n = 0;
    for (uint32_t q = 0; q < a->n; q++)
        n += a->s[q].n;
    return n;
}

uint64_t tm_nba_letters(const tm_nba *a)
{
    return (uint64_t)1 << tm_popcount(a->apmask);
}

bool tm_nba_deterministic(const tm_nba *a)
{
    if (a->ninit > 1)
        return false;
    for (uint32_t q = 0; q < a->n; q++) {
        const tm_state *s = &a->s[q];
        for (uint32_t i = 0; i < s->n; i++)
            for (uint32_t j = i + 1; j < s->n; j++)
                if (s->e[i].dst != s->e[j].dst && tm_cube_meets(s->e[i].c, s->e[j].c))
                    return false;
    }
    return true;
}

/* Splits on the lowest AP some cube still constrains (Shannon expansion), so
 * the cost is bounded by the cubes' literals, not by 2^|mask|. */
static bool covers(const tm_cube *c, uint32_t n, tm_cube ctx, uint64_t mask, int depth)
{
    uint64_t open = 0;
    bool any = false;
    for (uint32_t i = 0; i < n; i++) {
        if (!tm_cube_meets(c[i], ctx))
            continue;
        uint64_t rest = c[i].mask & ~ctx.mask & mask;
        if (!rest)
            return true; /* this cube holds everywhere in ctx */
        open |= rest;
        any = true;
    }
    if (!any || depth > 64)
        return false;
    uint64_t bit = open & -open;
    tm_cube lo = {ctx.mask | bit, ctx.val}, hi = {ctx.mask | bit, ctx.val | bit};
    return covers(c, n, lo, mask, depth + 1) && covers(c, n, hi, mask, depth + 1);
}

bool tm_cubes_cover(const tm_cube *c, uint32_t n, tm_cube ctx, uint64_t mask)
{
    return covers(c, n, ctx, mask, 0);
}

bool tm_nba_complete(const tm_nba *a)
{
    if (a->ninit == 0)
        return false;
    for (uint32_t q = 0; q < a->n; q++) {
        const tm_state *s = &a->s[q];
        tm_cube *c = malloc((s->n + 1) * sizeof *c);
        if (!c)
            return false;
        for (uint32_t i = 0; i < s->n; i++)
            c[i] = s->e[i].c;
        tm_cube top = {0, 0};
        bool ok = covers(c, s->n, top, a->apmask, 0);
        free(c);
        if (!ok)
            return false;
    }
    return true;
}

/* ---- trimming ---- */

/* Marks the states from which an accepting cycle is reachable: the states of
 * nontrivial SCCs with an accepting state, then everything that reaches them
 * (backward closure over the reversed edges). */
static int productive(const tm_nba *a, bool *good)
{
    uint32_t *comp = malloc((a->n + 1) * sizeof *comp);
    if (!comp)
        return -1;
    int nc = tm_nba_scc(a, comp);
    if (nc < 0) {
        free(comp);
        return -1;
    }
    bool *cgood = calloc((size_t)nc + 1, sizeof *cgood);
    if (!cgood) {
        free(comp);
        return -1;
    }
    /* a component is good when it has an internal edge and an accepting state */
    bool *cacc = calloc((size_t)nc + 1, sizeof *cacc);
    bool *ccyc = calloc((size_t)nc + 1, sizeof *ccyc);
    if (!cacc || !ccyc) {
        free(comp), free(cgood), free(cacc), free(ccyc);
        return -1;
    }
    for (uint32_t q = 0; q < a->n; q++) {
        if (a->s[q].acc)
            cacc[comp[q]] = true;
        for (uint32_t i = 0; i < a->s[q].n; i++)
            if (comp[a->s[q].e[i].dst] == comp[q])
                ccyc[comp[q]] = true;
    }
    /* components are in reverse topological order: successors first */
    for (int c = 0; c < nc; c++)
        cgood[c] = cacc[c] && ccyc[c];
    /* propagate: a component is useful when it is good or reaches a useful one;
     * visiting components in increasing number sees successors first, but
     * states of one component are scattered, so iterate per state in component
     * order via buckets */
    uint32_t *order = malloc((a->n + 1) * sizeof *order);
    uint32_t *start = calloc((size_t)nc + 2, sizeof *start);
    if (!order || !start) {
        free(comp), free(cgood), free(cacc), free(ccyc), free(order), free(start);
        return -1;
    }
    for (uint32_t q = 0; q < a->n; q++)
        start[comp[q] + 1]++;
    for (int c = 0; c < nc; c++)
        start[c + 1] += start[c];
    for (uint32_t q = 0; q < a->n; q++)
        order[start[comp[q]]++] = q;
    /* start[c] now is the end of component c; recompute beginnings */
    uint32_t pos = 0;
    for (int c = 0; c < nc; c++) {
        uint32_t end = start[c];
        bool useful = cgood[c];
        for (uint32_t k = pos; k < end && !useful; k++) {
            uint32_t q = order[k];
            for (uint32_t i = 0; i < a->s[q].n; i++) {
                uint32_t d = a->s[q].e[i].dst;
                if ((int)comp[d] != c && cgood[comp[d]]) {
                    useful = true;
                    break;
                }
            }
        }
        cgood[c] = useful;
        pos = end;
    }
    for (uint32_t q = 0; q < a->n; q++)
        good[q] = cgood[comp[q]];
    free(comp), free(cgood), free(cacc), free(ccyc), free(order), free(start);
    return 0;
}

int tm_nba_trim(tm_nba *a, u_err *err)
{
    bool *good = calloc((size_t)a->n + 1, sizeof *good);
    uint32_t *id = malloc(((size_t)a->n + 1) * sizeof *id);
    uint32_t *queue = malloc(((size_t)a->n + 1) * sizeof *queue);
    tm_nba b;
    tm_nba_init(&b, a->apmask);
    if (!good || !id || !queue || productive(a, good) != 0)
        goto oom;
    for (uint32_t q = 0; q < a->n; q++)
        id[q] = U_INVALID;
    uint32_t head = 0, tail = 0;
    for (uint32_t i = 0; i < a->ninit; i++) {
        uint32_t q = a->init[i];
        if (good[q] && id[q] == U_INVALID) {
            id[q] = tail;
            queue[tail++] = q;
        }
    }
    while (head < tail) {
        uint32_t q = queue[head++];
        for (uint32_t i = 0; i < a->s[q].n; i++) {
            uint32_t d = a->s[q].e[i].dst;
            if (good[d] && id[d] == U_INVALID) {
                id[d] = tail;
                queue[tail++] = d;
            }
        }
    }
    for (uint32_t k = 0; k < tail; k++)
        if (tm_nba_add_state(&b, a->s[queue[k]].acc) == U_INVALID)
            goto oom;
    for (uint32_t k = 0; k < tail; k++) {
        const tm_state *s = &a->s[queue[k]];
        for (uint32_t i = 0; i < s->n; i++)
            if (id[s->e[i].dst] != U_INVALID &&
                tm_nba_add_edge(&b, k, id[s->e[i].dst], s->e[i].c) != 0)
                goto oom;
    }
    for (uint32_t i = 0; i < a->ninit; i++)
        if (id[a->init[i]] != U_INVALID && tm_nba_add_init(&b, id[a->init[i]]) != 0)
            goto oom;
    free(good), free(id), free(queue);
    tm_nba_free(a);
    *a = b;
    return 0;
oom:
    free(good), free(id), free(queue);
    tm_nba_free(&b);
    return u_oom(err);
}

/* ---- merging edges ---- */

static bool cube_implies(tm_cube a, tm_cube b) /* every letter of a is in b */
{
    return (b.mask & ~a.mask) == 0 && ((a.val ^ b.val) & b.mask) == 0;
}

/* One pass over one state's edges: combine two edges with the same target whose
 * cubes differ in exactly one literal, drop an edge implied by another with the
 * same target.  Returns whether anything changed. */
static bool merge_pass(tm_state *s)
{
    bool changed = false;
    for (uint32_t i = 0; i < s->n; i++) {
        for (uint32_t j = 0; j < s->n; j++) {
            if (i == j || s->e[i].dst != s->e[j].dst)
                continue;
            tm_cube x = s->e[i].c, y = s->e[j].c;
            bool drop = false;
            if (cube_implies(y, x)) {
                drop = true;
            } else if (x.mask == y.mask) {
                uint64_t d = (x.val ^ y.val);
                if (d && !(d & (d - 1))) {
                    s->e[i].c.mask &= ~d;
                    s->e[i].c.val &= ~d;
                    drop = true;
                }
            }
            if (drop) {
                s->e[j] = s->e[--s->n];
                changed = true;
                if (i == s->n)
                    i = j; /* e[i] was moved into slot j */
                j = (uint32_t)-1;
            }
        }
    }
    return changed;
}

int tm_nba_merge_edges(tm_nba *a, u_err *err)
{
    (void)err;
    for (uint32_t q = 0; q < a->n; q++)
        while (merge_pass(&a->s[q]))
            ;
    return 0;
}
