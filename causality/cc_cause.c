/*
 * cc_cause.c - from red traces to causes (Def. 10 intervals, grouping, OC1).
 *
 * Each red trace gets its non-occurrence search (cc_ac22.c).  The prohibited gaps of
 * each event type are merged into maximal runs of adjacent gaps and named by the
 * occurrences that bound them, which makes them independent of where the bounding
 * occurrences sit in one particular trace.  Red traces with the same multiset and the
 * same prohibited intervals are one cause.  OC1 then keeps the order of a pair of
 * occurrences when it is the same on all of the cause's traces.
 */
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

#define START UINT32_MAX /* interval bound: the start or the end of the trace */

/* An interval with bounds as occurrences (event, occ), START for open ends. */
typedef struct {
    uint32_t event;
    cc_occ after, before;
} ivl;

typedef struct {
    sg_ms ms;
    ivl *iv;
    size_t niv;
    uint32_t **traces; /* red traces of this group */
    uint32_t **goods;  /* per trace: a good super-trace showing its non-occurrences */
    size_t *ngoods;
    size_t ntraces, cap;
    bool ambiguous, incomplete;
    size_t len;
} group;

static int ivl_cmp(const void *x, const void *y)
{
    const ivl *a = x, *b = y;
    uint32_t ka[5] = {a->event, a->after.event, a->after.occ, a->before.event, a->before.occ};
    uint32_t kb[5] = {b->event, b->after.event, b->after.occ, b->before.event, b->before.occ};
    for (int i = 0; i < 5; i++)
        if (ka[i] != kb[i])
            return ka[i] < kb[i] ? -1 : 1;
    return 0;
}

/* occs[p] = (event, occurrence index) of sigma[p]. */
static cc_occ *occurrences(const uint32_t *sigma, size_t n, size_t nevents)
{
    cc_occ *o = malloc((n ? n : 1) * sizeof *o);
    uint32_t *cnt = calloc(nevents ? nevents : 1, sizeof *cnt);
    if (o && cnt)
        for (size_t p = 0; p < n; p++)
            o[p] = (cc_occ){sigma[p], ++cnt[sigma[p]]};
    free(cnt);
    if (!cnt) {
        free(o);
        return NULL;
    }
    return o;
}

/* Merges the prohibited gaps into intervals. */
static ivl *intervals(const cc_ac22 *a, const cc_occ *occ, size_t n, size_t nevents, size_t *niv)
{
    size_t cap = 8, k = 0;
    ivl *v = malloc(cap * sizeof *v);
    for (uint32_t e = 0; v && e < nevents; e++) {
        int base = (int)(e * (n + 1));
        for (size_t p = 0; p <= n;) {
            if (!bit_test(a->gaps, base + (int)p)) {
                p++;
                continue;
            }
            size_t q = p;
            while (q + 1 <= n && bit_test(a->gaps, base + (int)q + 1))
                q++;
            if (k == cap) {
                ivl *w = realloc(v, (cap *= 2) * sizeof *v);
                if (!w) {
                    free(v);
                    return NULL;
                }
                v = w;
            }
            v[k].event = e;
            v[k].after = p == 0 ? (cc_occ){START, START} : occ[p - 1];
            v[k].before = q == n ? (cc_occ){START, START} : occ[q];
            k++;
            p = q + 1;
        }
    }
    if (v)
        qsort(v, k, sizeof *v, ivl_cmp);
    *niv = k;
    return v;
}

typedef struct {
    group *g;
    size_t n, cap;
} groups;

static group *find_group(groups *gs, sg_ms ms, const ivl *iv, size_t niv)
{
    for (size_t i = 0; i < gs->n; i++) {
        group *g = &gs->g[i];
        if (g->ms == ms && g->niv == niv && (!niv || !memcmp(g->iv, iv, niv * sizeof *iv)))
            return g;
    }
    if (gs->n == gs->cap) {
        size_t cap = gs->cap ? 2 * gs->cap : 16;
        group *v = realloc(gs->g, cap * sizeof *v);
        if (!v)
            return NULL;
        gs->g = v;
        gs->cap = cap;
    }
    group *g = &gs->g[gs->n];
    memset(g, 0, sizeof *g);
    g->ms = ms;
    g->iv = malloc((niv ? niv : 1) * sizeof *iv);
    if (!g->iv)
        return NULL;
    if (niv)
        memcpy(g->iv, iv, niv * sizeof *iv);
    g->niv = niv;
    gs->n++;
    return g;
}

static int group_add(group *g, uint32_t *sigma, size_t n)
{
    if (g->ntraces == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 8;
        uint32_t **v = realloc(g->traces, cap * sizeof *v);
        if (v)
            g->traces = v;
        uint32_t **w = realloc(g->goods, cap * sizeof *w);
        if (w)
            g->goods = w;
        size_t *k = realloc(g->ngoods, cap * sizeof *k);
        if (k)
            g->ngoods = k;
        if (!v || !w || !k)
            return -1;
        g->cap = cap;
    }
    g->goods[g->ntraces] = NULL;
    g->ngoods[g->ntraces] = 0;
    g->traces[g->ntraces++] = sigma;
    g->len = n;
    return 0;
}

static int trace_list_add(cc_trace **list, size_t *n, const uint32_t *ev, size_t len)
{
    cc_trace *v = realloc(*list, (*n + 1) * sizeof *v);
    if (!v)
        return -1;
    *list = v;
    v[*n].ev = malloc((len ? len : 1) * sizeof *ev);
    if (!v[*n].ev)
        return -1;
    if (len)
        memcpy(v[*n].ev, ev, len * sizeof *ev);
    v[*n].n = len;
    (*n)++;
    return 0;
}

/* The good super-trace that shows a non-occurrence is a black node. */
static int add_black(cc_ctx *c, const uint32_t *ev, size_t n)
{
    sg_node node = 0;
    for (size_t i = 0; i < n && node != SG_INVALID; i++)
        node = sg_child(c->sg, node, ev[i]);
    return node == SG_INVALID || sg_add(c->sg, node, false) == SG_NONE ? -1 : 0;
}

/* Runs the non-occurrence search for one red trace and files it into its group. */
static int place_red(cc_ctx *c, groups *gs, sg_node node, size_t nevents)
{
    size_t n = sg_level(c->sg, node);
    uint32_t *sigma = malloc((n ? n : 1) * sizeof *sigma);
    if (!sigma)
        return -1;
    sg_trace(c->sg, node, sigma);
    cc_ac22 a = {0};
    cc_occ *occ = occurrences(sigma, n, nevents);
    if (occ && cc_ac22_search(c, sigma, n, nevents, c->o->ac2, &a)) {
        /* Out of memory in the non-occurrence search: keep the cause without its
         * non-occurrences, marked incomplete, rather than lose every cause. */
        cc_ac22_free(&a);
        a.incomplete = true;
        a.gaps = bit_alloc((int)(nevents * (n + 1)));
        c->r->oom = true;
    }
    if (!occ || !a.gaps) {
        cc_ac22_free(&a);
        free(occ);
        free(sigma);
        return -1;
    }
    size_t niv = 0;
    ivl *iv = intervals(&a, occ, n, nevents, &niv);
    group *g = iv ? find_group(gs, sg_multiset(c->sg, node), iv, niv) : NULL;
    int rc = !g || group_add(g, sigma, n);
    if (!rc) {
        g->incomplete |= a.incomplete;
        if (a.ambiguous) {
            g->ambiguous = true;
            rc = trace_list_add(&c->r->ambiguous, &c->r->nambiguous, sigma, n);
        }
        if (!rc && a.good) /* keeps an out-of-memory failure above */
            rc = add_black(c, a.good, a.ngood);
        if (!rc && a.good) {
            g->goods[g->ntraces - 1] = a.good;
            g->ngoods[g->ntraces - 1] = a.ngood;
            a.good = NULL;
        }
    } else
        free(sigma);
    c->r->truncated |= a.incomplete;
    free(iv);
    free(occ);
    cc_ac22_free(&a);
    return rc ? -1 : 0;
}

static int find_occ(const cc_occ *o, size_t n, cc_occ x)
{
    for (size_t i = 0; i < n; i++)
        if (o[i].event == x.event && o[i].occ == x.occ)
            return (int)i;
    return -1;
}

/* Orders traces by their event names, so the witness does not depend on the order
 * pan happened to search in. */
static int trace_cmp(const uint32_t *a, const uint32_t *b, size_t n, const char *const *names)
{
    for (size_t i = 0; i < n; i++) {
        int d = names ? strcmp(names[a[i]], names[b[i]]) : (a[i] > b[i]) - (a[i] < b[i]);
        if (d)
            return d;
    }
    return 0;
}

static void pick_witness(group *g, const char *const *names)
{
    for (size_t t = 1; t < g->ntraces; t++)
        if (trace_cmp(g->traces[t], g->traces[0], g->len, names) < 0) {
            uint32_t *x = g->traces[0], *y = g->goods[0];
            size_t ny = g->ngoods[0];
            g->traces[0] = g->traces[t];
            g->goods[0] = g->goods[t];
            g->ngoods[0] = g->ngoods[t];
            g->traces[t] = x;
            g->goods[t] = y;
            g->ngoods[t] = ny;
        }
}

/* Fills one cause from a group: occurrences in witness order, OC1, intervals. */
static int build_cause(const group *g, size_t nevents, cc_cause *k)
{
    memset(k, 0, sizeof *k);
    size_t n = g->len;
    k->occ = occurrences(g->traces[0], n, nevents);
    k->ordered = malloc((n ? n * n : 1) * sizeof *k->ordered);
    k->absent = malloc((g->niv ? g->niv : 1) * sizeof *k->absent);
    int *pos = malloc((n ? n : 1) * sizeof *pos);
    if (!k->occ || !k->ordered || !k->absent || !pos) {
        free(pos);
        return -1;
    }
    k->nocc = n;
    for (size_t i = 0; i < n * n; i++)
        k->ordered[i] = (i / n) < (i % n);
    for (size_t t = 1; t < g->ntraces; t++) {
        cc_occ *o = occurrences(g->traces[t], n, nevents);
        if (!o) {
            free(pos);
            return -1;
        }
        for (size_t p = 0; p < n; p++)
            pos[find_occ(k->occ, n, o[p])] = (int)p;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                k->ordered[i * n + j] &= pos[i] < pos[j];
        free(o);
    }
    free(pos);
    for (size_t i = 0; i < g->niv; i++) {
        k->absent[i].event = g->iv[i].event;
        k->absent[i].after =
            g->iv[i].after.event == START ? -1 : find_occ(k->occ, n, g->iv[i].after);
        k->absent[i].before =
            g->iv[i].before.event == START ? -1 : find_occ(k->occ, n, g->iv[i].before);
    }
    k->nabsent = g->niv;
    k->ntraces = g->ntraces;
    k->ambiguous = g->ambiguous;
    k->ac22_incomplete = g->incomplete;
    return 0;
}

static void free_groups(groups *gs)
{
    for (size_t i = 0; i < gs->n; i++) {
        for (size_t t = 0; t < gs->g[i].ntraces; t++) {
            free(gs->g[i].traces[t]);
            free(gs->g[i].goods[t]);
        }
        free(gs->g[i].traces);
        free(gs->g[i].goods);
        free(gs->g[i].ngoods);
        free(gs->g[i].iv);
    }
    free(gs->g);
}

static int list_uncaused(cc_ctx *c)
{
    const sg_node *nodes;
    size_t n = sg_list(c->sg, SG_GREY, &nodes);
    for (size_t i = 0; i < n; i++) {
        size_t len = sg_level(c->sg, nodes[i]);
        uint32_t *ev = malloc((len ? len : 1) * sizeof *ev);
        if (!ev)
            return -1;
        sg_trace(c->sg, nodes[i], ev);
        int rc = trace_list_add(&c->r->uncaused, &c->r->nuncaused, ev, len);
        free(ev);
        if (rc)
            return -1;
    }
    return 0;
}

static const char *const *sort_names;

/* Causes by size, then by their witness's event names. */
static int cause_cmp(const void *x, const void *y)
{
    const cc_cause *a = x, *b = y;
    if (a->nocc != b->nocc)
        return a->nocc < b->nocc ? -1 : 1;
    for (size_t i = 0; i < a->nocc; i++) {
        uint32_t ea = a->occ[i].event, eb = b->occ[i].event;
        int d = sort_names ? strcmp(sort_names[ea], sort_names[eb]) : (ea > eb) - (ea < eb);
        if (d)
            return d;
    }
    return (a->nabsent > b->nabsent) - (a->nabsent < b->nabsent);
}

int cc_assemble(cc_ctx *c, size_t nevents)
{
    groups gs = {0};
    const sg_node *reds;
    size_t nred = sg_list(c->sg, SG_RED, &reds);
    /* place_red adds black nodes, which may move the list: copy it first */
    sg_node *copy = malloc((nred ? nred : 1) * sizeof *copy);
    int rc = copy ? 0 : -1;
    if (nred)
        (void)cc_ac22_prepare(c); /* without it (no memory) the searches only lack fin */
    if (copy && nred)
        memcpy(copy, reds, nred * sizeof *copy);
    for (size_t i = 0; i < nred && !rc; i++)
        rc = place_red(c, &gs, copy[i], nevents);
    free(copy);
    if (!rc && gs.n) {
        c->r->causes = calloc(gs.n, sizeof *c->r->causes);
        rc = c->r->causes ? 0 : -1;
        for (size_t i = 0; i < gs.n && !rc; i++) {
            pick_witness(&gs.g[i], c->o->names);
            rc = build_cause(&gs.g[i], nevents, &c->r->causes[i]);
            c->r->ncauses = i + 1;
            c->r->causes[i].good = gs.g[i].goods[0]; /* the witness's own */
            c->r->causes[i].ngood = gs.g[i].ngoods[0];
            gs.g[i].goods[0] = NULL;
        }
    }
    if (!rc && c->r->ncauses > 1) {
        sort_names = c->o->names; /* qsort has no context argument in C11 */
        qsort(c->r->causes, c->r->ncauses, sizeof *c->r->causes, cause_cmp);
        sort_names = NULL;
    }
    if (!rc)
        rc = list_uncaused(c);
    free_groups(&gs);
    return rc;
}
