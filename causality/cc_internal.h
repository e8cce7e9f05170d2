/*
 * cc_internal.h - shared between the files of the causality module only.
 *
 * The layout of the recorded graph (cc_graph.c) and the analysis context that the
 * history exploration (cc_explore.c), the non-occurrence search (cc_ac22.c) and the
 * cause assembly (cc_cause.c) pass between them.
 */
#ifndef CC_INTERNAL_H
#define CC_INTERNAL_H

#include "causality.h"
#include "subsetgraph.h"

#include <bsd/bitstring.h>
#include <stdlib.h>

#define CC_NONE     UINT32_MAX /* no edge */
#define CC_EV_CLAIM (1u << 31) /* edge flag: a move of the never claim */
#define CC_EV_LAST  (1u << 30) /* edge flag: the last move of its state's block */
#define CC_EV_MASK  ((1u << 28) - 1)

enum { CC_S_BAD = 1, CC_S_EXPANDED = 2, CC_S_DOOM = 4 };

struct cc_graph {
    unsigned gflags;       /* CC_G_EXACT, CC_G_MOVES */
    u_intern states;       /* CC_G_EXACT: state keys to dense key numbers */
    uint32_t *key_id;      /* CC_G_EXACT: key number -> state id */
    size_t nkeys, key_cap; /* keyed states (the others come from cc_graph_new_state) */
    uint64_t *slot;        /* otherwise: fingerprint table, two words a slot (cc_graph.c) */
    size_t slot_cap;
    uint32_t *first; /* per state: its block of edges (see cc_graph.c) */
    uint8_t *flags;
    size_t n, cap;
    uint32_t *to, *ev; /* edges, one block per state */
    uint32_t *mv;      /* CC_G_MOVES: pan's move per edge (pr << 24 | tid) */
    size_t nedges, ecap;
    size_t ndead;         /* edges of blocks left behind by reopened states */
    struct cc_pend *pool; /* moves of open states */
    size_t npool, pcap;
    uint32_t pfree;
    uint32_t root;
};

/* The edges of state s: for (e = cc_first(g, s); e != CC_NONE; e = cc_next(g, e)).
 * Only on a sealed graph. */
static inline uint32_t cc_first(const cc_graph *g, uint32_t s)
{
    return g->first[s];
}

static inline uint32_t cc_next(const cc_graph *g, uint32_t e)
{
    return (g->ev[e] & CC_EV_LAST) ? CC_NONE : e + 1;
}

/* Reverse edges (cc_explore.c's rev_build), kept for the whole analysis. */
typedef struct {
    uint32_t *start, *src, *ev;
} cc_rev;
void cc_rev_free(cc_rev *rv);

/* The analysis of one graph. */
typedef struct {
    const cc_graph *g;
    const cc_options *o;
    size_t budget;
    uint8_t *sf;   /* derived per-state flags: CC_S_BAD after claim closure, CC_S_DOOM */
    uint32_t sink; /* pseudo-state for "the last move violated" */
    cc_rev rev;    /* every edge not into CC_SINK, reversed */
    /* Bit s: a settled state is reachable from s without passing a bad state (the
     * last row of every AC2(2) search's fin, cc_ac22.c), computed once by
     * cc_assemble; NULL before or when too large. */
    bitstr_t *fin_end;
    sg_graph *sg;
    cc_result *r;
} cc_ctx;

static inline bool cc_bad(const cc_ctx *c, uint32_t s)
{
    return s == c->sink || (c->sf[s] & CC_S_BAD);
}

/* A settled state: no violation is reachable from it by silent moves alone. */
static inline bool cc_settled(const cc_ctx *c, uint32_t s)
{
    return s != c->sink && !(c->sf[s] & (CC_S_BAD | CC_S_DOOM));
}

int cc_derive(cc_ctx *c);
int cc_explore(cc_ctx *c);

/* Result of the non-occurrence search for one red trace. */
typedef struct {
    bitstr_t *gaps;  /* nevents x (n + 1) bits: bit e * (n + 1) + g = e prohibited in gap g */
    bool ambiguous;  /* a good run has exactly this trace */
    bool incomplete; /* budget exhausted */
    uint32_t *good;  /* one minimal good super-trace, or NULL */
    size_t ngood;
} cc_ac22;

int cc_ac22_search(const cc_ctx *c, const uint32_t *sigma, size_t n, size_t nevents, bool extras,
                   cc_ac22 *out);
void cc_ac22_free(cc_ac22 *a);

int cc_assemble(cc_ctx *c, size_t nevents);
/* Computes c->fin_end; -1 when out of memory. */
int cc_ac22_prepare(cc_ctx *c);

#endif
