/*
 * sg_graph.c - the trie of traces and its colouring (paper section 3.2).
 *
 * A node is an event sequence: its parent is the sequence without its last event.
 * The paper's levels are trie depths; its sub/superset edges are not stored, because
 * every question the colouring asks ("is there a bad / good / red trace whose
 * multiset lies strictly inside this one?") is answered from three small lists of
 * multisets: the minimal bad ones, the good ones and the red ones.  A node carries
 * its colour and whether good and/or bad executions have it as their trace.
 * Invariants: see subsetgraph.h (bad traces arrive by non-decreasing length); a
 * node's colour only changes from a good colour (GREEN/BLACK) to a bad one.
 */
#include "sg_internal.h"

#include <stdlib.h>
#include <string.h>

enum { F_GOOD = 1, F_BAD = 2 };

typedef struct {
    uint32_t *v;
    size_t n, cap;
} u32vec;

static int vec_push(u32vec *v, uint32_t x)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 64;
        uint32_t *p = realloc(v->v, cap * sizeof *p);
        if (!p)
            return -1;
        v->v = p;
        v->cap = cap;
    }
    v->v[v->n++] = x;
    return 0;
}

struct sg_graph {
    /* per node */
    uint32_t *parent, *event, *level, *ms, *occ;
    uint8_t *flags, *colour;
    size_t n, cap;
    u_map kids; /* (parent << 32 | event) -> child */
    sg_msstore mss;
    u32vec bad_min;   /* multisets of bad traces with no bad strict subset */
    u32vec good_ms;   /* distinct multisets of good traces */
    u32vec red_ms;    /* distinct multisets of red traces */
    uint8_t *ms_seen; /* per multiset: 1 good listed, 2 red listed, 4 bad_min listed */
    size_t ms_seen_cap;
    u32vec lists[SG_NCOLOURS];
    size_t count[SG_NCOLOURS];
};

static sg_node new_node(sg_graph *g, uint32_t parent, uint32_t event, uint32_t ms, uint32_t occ)
{
    if (U_GROW_ALL(g->cap, g->n, 1024, U_ARR(g->parent), U_ARR(g->event), U_ARR(g->level),
                   U_ARR(g->ms), U_ARR(g->occ), U_ARR(g->flags), U_ARR(g->colour)))
        return SG_INVALID;
    sg_node n = (sg_node)g->n++;
    g->parent[n] = parent;
    g->event[n] = event;
    g->level[n] = parent == SG_INVALID ? 0 : g->level[parent] + 1;
    g->ms[n] = ms;
    g->occ[n] = occ;
    g->flags[n] = 0;
    g->colour[n] = SG_NONE;
    return n;
}

sg_graph *sg_new(void)
{
    sg_graph *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    if (sg_ms_init(&g->mss) || new_node(g, SG_INVALID, 0, 0, 0) != 0) {
        sg_free(g);
        return NULL;
    }
    return g;
}

void sg_free(sg_graph *g)
{
    if (!g)
        return;
    free(g->parent);
    free(g->event);
    free(g->level);
    free(g->ms);
    free(g->occ);
    free(g->flags);
    free(g->colour);
    u_map_free(&g->kids);
    sg_ms_free(&g->mss);
    free(g->bad_min.v);
    free(g->good_ms.v);
    free(g->red_ms.v);
    free(g->ms_seen);
    for (int c = 0; c < SG_NCOLOURS; c++)
        free(g->lists[c].v);
    free(g);
}

/* The number of occurrences of event among the multiset's events: a binary search
 * of its pairs, which are sorted by event. */
static uint32_t ms_count(const sg_msstore *s, sg_ms m, uint32_t event)
{
    uint32_t n;
    const uint32_t *p = sg_ms_pairs(s, m, &n);
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p[2 * mid] < event)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && p[2 * lo] == event ? p[2 * lo + 1] : 0;
}

sg_node sg_child(sg_graph *g, sg_node n, uint32_t event)
{
    uint64_t key = (uint64_t)n << 32 | event;
    sg_node c = u_map_get(&g->kids, key);
    if (c != U_INVALID)
        return c;
    sg_ms m = sg_ms_step(&g->mss, g->ms[n], event);
    if (m == SG_INVALID)
        return SG_INVALID;
    c = new_node(g, n, event, m, ms_count(&g->mss, m, event));
    if (c == SG_INVALID || u_map_put(&g->kids, key, c))
        return SG_INVALID;
    return c;
}

/* Per-multiset marks, so that each multiset enters each list once. */
static int ms_mark(sg_graph *g, sg_ms m, uint8_t bit, u32vec *list)
{
    if (m >= g->ms_seen_cap) {
        size_t cap = g->ms_seen_cap ? g->ms_seen_cap : 256;
        while (cap <= m)
            cap *= 2;
        uint8_t *p = realloc(g->ms_seen, cap);
        if (!p)
            return -1;
        memset(p + g->ms_seen_cap, 0, cap - g->ms_seen_cap);
        g->ms_seen = p;
        g->ms_seen_cap = cap;
    }
    if (g->ms_seen[m] & bit)
        return 0;
    g->ms_seen[m] |= bit;
    return vec_push(list, m);
}

static bool any_strictly_below(const sg_graph *g, const u32vec *list, sg_ms m)
{
    for (size_t i = 0; i < list->n; i++)
        if (list->v[i] != m && sg_ms_le(&g->mss, list->v[i], m))
            return true;
    return false;
}

bool sg_has_bad_below(const sg_graph *g, sg_ms m)
{
    return any_strictly_below(g, &g->bad_min, m);
}

static int set_colour(sg_graph *g, sg_node n, sg_colour c)
{
    if (g->colour[n] != SG_NONE)
        g->count[g->colour[n]]--;
    g->colour[n] = (uint8_t)c;
    g->count[c]++;
    return vec_push(&g->lists[c], n);
}

static sg_colour add_bad(sg_graph *g, sg_node n)
{
    sg_ms m = g->ms[n];
    sg_colour c;
    if (any_strictly_below(g, &g->bad_min, m))
        c = SG_ORANGE;
    else
        c = any_strictly_below(g, &g->good_ms, m) ? SG_RED : SG_GREY;
    int rc = set_colour(g, n, c);
    if (c != SG_ORANGE)
        rc |= ms_mark(g, m, 4, &g->bad_min);
    if (c == SG_RED)
        rc |= ms_mark(g, m, 2, &g->red_ms);
    return rc ? SG_NONE : c;
}

static sg_colour add_good(sg_graph *g, sg_node n)
{
    sg_ms m = g->ms[n];
    int rc = ms_mark(g, m, 1, &g->good_ms);
    if (g->flags[n] & F_BAD)
        return rc ? SG_NONE : (sg_colour)g->colour[n];
    sg_colour c = any_strictly_below(g, &g->red_ms, m) ? SG_BLACK : SG_GREEN;
    if (g->colour[n] != c)
        rc |= set_colour(g, n, c);
    return rc ? SG_NONE : c;
}

sg_colour sg_add(sg_graph *g, sg_node n, bool bad)
{
    uint8_t f = bad ? F_BAD : F_GOOD;
    if (g->flags[n] & f)
        return (sg_colour)g->colour[n];
    g->flags[n] |= f;
    return bad ? add_bad(g, n) : add_good(g, n);
}

sg_colour sg_colour_of(const sg_graph *g, sg_node n)
{
    return (sg_colour)g->colour[n];
}

bool sg_is_good(const sg_graph *g, sg_node n)
{
    return g->flags[n] & F_GOOD;
}

bool sg_is_bad(const sg_graph *g, sg_node n)
{
    return g->flags[n] & F_BAD;
}

size_t sg_level(const sg_graph *g, sg_node n)
{
    return g->level[n];
}

sg_ms sg_multiset(const sg_graph *g, sg_node n)
{
    return g->ms[n];
}

uint32_t sg_last_occ(const sg_graph *g, sg_node n)
{
    return g->occ[n];
}

void sg_trace(const sg_graph *g, sg_node n, uint32_t *out)
{
    for (size_t i = g->level[n]; i > 0; i--, n = g->parent[n])
        out[i - 1] = g->event[n];
}

sg_ms sg_ms_add(sg_graph *g, sg_ms m, uint32_t event)
{
    return sg_ms_step(&g->mss, m, event);
}

uint32_t sg_ms_count(const sg_graph *g, sg_ms m, uint32_t event)
{
    return ms_count(&g->mss, m, event);
}

uint32_t sg_ms_events(const sg_graph *g, sg_ms m, uint32_t *ev, uint32_t *cnt)
{
    uint32_t n;
    const uint32_t *p = sg_ms_pairs(&g->mss, m, &n);
    for (uint32_t i = 0; i < n; i++) {
        ev[i] = p[2 * i];
        cnt[i] = p[2 * i + 1];
    }
    return n;
}

bool sg_ms_subseteq(const sg_graph *g, sg_ms a, sg_ms b)
{
    return sg_ms_le(&g->mss, a, b);
}

bool sg_ms_subset(const sg_graph *g, sg_ms a, sg_ms b)
{
    return a != b && sg_ms_le(&g->mss, a, b);
}

size_t sg_ms_size(const sg_graph *g, sg_ms a)
{
    return g->mss.size[a];
}

size_t sg_count(const sg_graph *g, sg_colour c)
{
    return g->count[c];
}

size_t sg_nodes(const sg_graph *g)
{
    return g->n;
}

size_t sg_list(const sg_graph *g, sg_colour c, const sg_node **out)
{
    /* Drop nodes recoloured since they were listed (good -> bad only). */
    u32vec *l = (u32vec *)&g->lists[c];
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++)
        if (g->colour[l->v[i]] == c)
            l->v[k++] = l->v[i];
    l->n = k;
    *out = l->v;
    return k;
}

size_t sg_bytes(const sg_graph *g)
{
    size_t b = g->cap * (5 * sizeof(uint32_t) + 2) + u_map_bytes(&g->kids) + sg_ms_bytes(&g->mss);
    for (int c = 0; c < SG_NCOLOURS; c++)
        b += g->lists[c].cap * sizeof(uint32_t);
    return b + (g->bad_min.cap + g->good_ms.cap + g->red_ms.cap) * sizeof(uint32_t);
}
