/*
 * cc_graph.c - the transition graph recorded during pan's search.
 *
 * pan keeps its visited states in its own hash table and forgets how it got there.
 * Causality needs the paths: every trace through a revisited state (the paper's
 * match lists).  Instead of storing traces per state, pancause stores the graph once
 * (states and the moves between them) and enumerates histories over it afterwards;
 * a trace is then a path, and no path is lost whichever order pan searched in.
 * States are interned by the bytes pan hands over (state vector plus search mode);
 * edges form one singly linked list per source state.  Each edge also keeps which
 * of pan's moves it was (process slot, transition id), so that a path through the
 * graph can be written as a SPIN trail (cc_trail.c).
 * Invariants: state ids are dense from 0; an edge's target is a state id or CC_BAD;
 * event ids fit in 28 bits (the top bits of the edge's event word are flags).
 */
#include "causality.h"
#include "cc_internal.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 32);
}

cc_graph *cc_graph_new(void)
{
    cc_graph *g = calloc(1, sizeof *g);
    if (g)
        g->root = CC_BAD;
    return g;
}

void cc_graph_free(cc_graph *g)
{
    if (!g)
        return;
    free(g->keys);
    free(g->key_off);
    free(g->key_len);
    free(g->hash);
    free(g->head);
    free(g->flags);
    free(g->slots);
    free(g->to);
    free(g->ev);
    free(g->next);
    free(g->pr);
    free(g->tid);
    free(g);
}

static int grow_states(cc_graph *g)
{
    size_t cap = g->cap ? 2 * g->cap : 4096;
    void *p;
    if (!(p = realloc(g->key_off, cap * sizeof *g->key_off)))
        return -1;
    g->key_off = p;
    if (!(p = realloc(g->key_len, cap * sizeof *g->key_len)))
        return -1;
    g->key_len = p;
    if (!(p = realloc(g->hash, cap * sizeof *g->hash)))
        return -1;
    g->hash = p;
    if (!(p = realloc(g->head, cap * sizeof *g->head)))
        return -1;
    g->head = p;
    if (!(p = realloc(g->flags, cap * sizeof *g->flags)))
        return -1;
    g->flags = p;
    g->cap = cap;
    return 0;
}

static void slot_put(uint32_t *slots, size_t n, uint64_t h, uint32_t id)
{
    size_t j = h & (n - 1);
    while (slots[j])
        j = (j + 1) & (n - 1);
    slots[j] = id + 1;
}

static int grow_slots(cc_graph *g)
{
    size_t n = g->nslots ? 2 * g->nslots : 8192;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < g->n; i++)
        slot_put(s, n, g->hash[i], (uint32_t)i);
    free(g->slots);
    g->slots = s;
    g->nslots = n;
    return 0;
}

static int reserve_keys(cc_graph *g, size_t len)
{
    if (g->nkeys + len <= g->keys_cap)
        return 0;
    size_t cap = g->keys_cap ? g->keys_cap : 1 << 16;
    while (cap < g->nkeys + len)
        cap *= 2;
    uint8_t *k = realloc(g->keys, cap);
    if (!k)
        return -1;
    g->keys = k;
    g->keys_cap = cap;
    return 0;
}

uint32_t cc_graph_state(cc_graph *g, const void *key, size_t len, bool *fresh)
{
    uint64_t h = hash_bytes(key, len);
    *fresh = false;
    for (size_t j = g->nslots ? h & (g->nslots - 1) : 0; g->nslots && g->slots[j];
         j = (j + 1) & (g->nslots - 1)) {
        uint32_t id = g->slots[j] - 1;
        if (g->hash[id] == h && g->key_len[id] == len &&
            !memcmp(g->keys + g->key_off[id], key, len))
            return id;
    }
    if (g->n >= CC_BAD - 1 || (g->n == g->cap && grow_states(g)) || reserve_keys(g, len) ||
        (2 * (g->n + 1) > g->nslots && grow_slots(g)))
        return CC_BAD;
    uint32_t id = (uint32_t)g->n++;
    memcpy(g->keys + g->nkeys, key, len);
    g->key_off[id] = g->nkeys;
    g->key_len[id] = (uint32_t)len;
    g->nkeys += len;
    g->hash[id] = h;
    g->head[id] = CC_NONE;
    g->flags[id] = 0;
    slot_put(g->slots, g->nslots, h, id);
    *fresh = true;
    return id;
}

void cc_graph_set_root(cc_graph *g, uint32_t s)
{
    g->root = s;
}

int cc_graph_edge(cc_graph *g, uint32_t from, uint32_t to, uint32_t event, bool claim)
{
    return cc_graph_move(g, from, to, event, claim, -1, -1);
}

/* The per-edge move identity arrays grow with the edge arrays. */
static int grow_moves(cc_graph *g, size_t cap)
{
    void *p;
    if (!(p = realloc(g->pr, cap * sizeof *g->pr)))
        return -1;
    g->pr = p;
    if (!(p = realloc(g->tid, cap * sizeof *g->tid)))
        return -1;
    g->tid = p;
    return 0;
}

int cc_graph_move(cc_graph *g, uint32_t from, uint32_t to, uint32_t event, bool claim, int pr,
                  int tid)
{
    if (g->nedges == g->ecap) {
        size_t cap = g->ecap ? 2 * g->ecap : 1 << 14;
        void *p;
        if (!(p = realloc(g->to, cap * sizeof *g->to)))
            return -1;
        g->to = p;
        if (!(p = realloc(g->ev, cap * sizeof *g->ev)))
            return -1;
        g->ev = p;
        if (!(p = realloc(g->next, cap * sizeof *g->next)))
            return -1;
        g->next = p;
        if (grow_moves(g, cap))
            return -1;
        g->ecap = cap;
    }
    uint32_t e = (uint32_t)g->nedges++;
    g->to[e] = to;
    g->ev[e] = event | (claim ? CC_EV_CLAIM : 0);
    g->pr[e] = pr;
    g->tid[e] = tid;
    g->next[e] = g->head[from];
    g->head[from] = e;
    return 0;
}

void cc_graph_bad_state(cc_graph *g, uint32_t s)
{
    g->flags[s] |= CC_S_BAD;
}

bool cc_graph_expand(cc_graph *g, uint32_t s)
{
    bool was = g->flags[s] & CC_S_EXPANDED;
    g->flags[s] |= CC_S_EXPANDED;
    return was;
}

size_t cc_graph_states(const cc_graph *g)
{
    return g->n;
}

size_t cc_graph_edges(const cc_graph *g)
{
    return g->nedges;
}

size_t cc_graph_bytes(const cc_graph *g)
{
    return g->keys_cap + g->cap * (8 + 4 + 8 + 4 + 1) + g->nslots * 4 + g->ecap * 20;
}
