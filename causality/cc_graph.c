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
    sg_intern_free(&g->states);
    free(g->head);
    free(g->flags);
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
    uint32_t *head = realloc(g->head, cap * sizeof *head);
    if (head)
        g->head = head;
    uint8_t *flags = realloc(g->flags, cap * sizeof *flags);
    if (flags)
        g->flags = flags;
    if (!head || !flags)
        return -1;
    g->cap = cap;
    return 0;
}

uint32_t cc_graph_state(cc_graph *g, const void *key, size_t len, bool *fresh)
{
    /* Room for a new state first, so that an interned key always has its lists. */
    if (g->n == g->cap && grow_states(g))
        return CC_BAD;
    uint32_t id = sg_intern_put(&g->states, key, len, fresh);
    if (id >= CC_BAD - 1) /* SG_INVALID: out of memory */
        return CC_BAD;
    if (!*fresh)
        return id;
    g->head[id] = CC_NONE;
    g->flags[id] = 0;
    g->n = (size_t)id + 1;
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
    return sg_intern_bytes(&g->states) + g->cap * (4 + 1) + g->ecap * 20;
}
