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

#define CC_NONE UINT32_MAX /* no edge */
/* An edge's event word is 16 bits: the event id (at most CC_MAX_EVENTS) and two
 * flags.  Two bytes where four were: at 5.5 x 10^7 edges (airbag NOISE=32) that is
 * 105 MB of the graph pan's search carries beside its own state table. */
#define CC_EV_CLAIM (1u << 15) /* edge flag: a move of the never claim */
#define CC_EV_LAST  (1u << 14) /* edge flag: the last move of its state's block */
#define CC_EV_MASK  ((1u << 14) - 1)
_Static_assert(CC_MAX_EVENTS <= CC_EV_MASK, "event ids must fit below the edge flags");

/* Recorded (g->flags): BAD, EXPANDED, NOEND; derived (cc_ctx.sf): BAD, DOOM, and
 * NOEND copied from the graph (so that readers of the flags alone, nearest/, see it). */
enum { CC_S_BAD = 1, CC_S_EXPANDED = 2, CC_S_DOOM = 4, CC_S_NOEND = 16 };

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
    uint32_t *to; /* edges, one block per state: target */
    uint16_t *ev; /* and event word (CC_EV_*) */
    uint32_t *mv; /* CC_G_MOVES: pan's move per edge (pr << 24 | tid) */
    size_t nedges, ecap;
    size_t ndead;         /* edges of blocks left behind by reopened states */
    struct cc_pend *pool; /* moves of open states */
    size_t npool, pcap;
    uint32_t pfree;
    uint32_t root;
    bool sealed; /* cc_graph_seal ran: the lookup tables are freed */
    /* cc_graph_det's graph: the recorded graph it was made from (owned), and the
     * members of each state, mem[mem_start[s] .. mem_start[s + 1]) (cc_det.c) */
    struct cc_graph *orig;
    uint32_t *mem_start, *mem;
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

/* Reverse edges (cc_explore.c's rev_build), kept for the whole analysis: the
 * predecessors of state t are src[start[t] .. start[t + 1]), each source once
 * however many of its moves lead to t.  Only the source is kept, 4 bytes where a
 * source and an event word took 8 (at 10^7 states the reverse was a third of the
 * peak): a backward pass reads the moves s -> t, and their events, from s's own
 * block with CC_EACH_INTO. */
typedef struct {
    uint32_t *start, *src;
} cc_rev;
void cc_rev_free(cc_rev *rv);

/* for each move e of s that leads to t: CC_EACH_INTO(g, s, t, e) { ... } */
#define CC_EACH_INTO(g, s, t, e)                                                                   \
    for (uint32_t e = cc_first(g, s); e != CC_NONE; e = cc_next(g, e))                             \
        if ((g)->to[e] == (t))

/* The analysis of one graph. */
typedef struct {
    const cc_graph *g;
    const cc_options *o;
    size_t budget;
    uint8_t *sf;   /* derived per-state flags: CC_S_BAD after claim closure, CC_S_DOOM */
    uint32_t sink; /* pseudo-state for "the last move violated" */
    cc_rev rev;    /* every edge not into CC_SINK, reversed */
    sg_graph *sg;
    cc_result *r;
    const char *phase; /* the phase running now, for progress and budget reports */
    size_t ticks;      /* nodes the phase has explored */
    size_t soft;       /* nonzero: a share of the budget for one pass (cc_cause.c): ticks
                          beyond it stop that pass only (soft_hit), not the phase */
    bool soft_hit;
    uint32_t *heads; /* cc_heads(): one word per state and the sink */
    /* The AC2(2) pass's final viability row, with extras [1] and without [0]: the
     * states that reach a settled one around bad states; the same for every
     * multiset, so computed once (cc_ac22.c's viability) */
    bitstr_t *final_row[2];
    /* The event moves by event id (cc_ac22.c's event_index): those of event id v are
     * (src[i], dst[i]) for start[v] <= i < start[v + 1]; moves into CC_SINK left out.
     * Built once, and only where events are at most a quarter of the moves
     * (evx_tried: asked once) */
    struct {
        uint32_t *start, *src, *dst;
        uint32_t nev;
    } evx;
    bool evx_tried;
    struct cc_ahead *ahead; /* the orders automata built ahead (cc_cause.c), or NULL */
} cc_ctx;

/* A per-state word array (states 0 .. n-1 and the sink n), all CC_NONE between its
 * uses.  The orders and AC2(2) passes chain their (state, multiset) nodes from it:
 * a state holds a handful of them, so a chain walk replaces a hash map lookup and
 * its cache misses on graphs of 10^7 states.  A user sets entries, and resets every
 * entry it set before it returns.  NULL when out of memory. */
uint32_t *cc_heads(cc_ctx *c);

/* The analysis' phases share one budget rule (cc_explore.c): cc_phase() starts a
 * phase; cc_tick() counts one of its search nodes, prints progress now and then, and
 * returns false (result truncated, the phase named) when its budget is spent. */
void cc_phase(cc_ctx *c, const char *name);
bool cc_tick(cc_ctx *c, size_t level);
/* The budget of the phases after the history search (ten times --budget). */
size_t cc_later_budget(const cc_options *o);
/* The result is truncated, in the phase running now (the first such phase is named). */
void cc_truncate(cc_ctx *c);

static inline bool cc_bad(const cc_ctx *c, uint32_t s)
{
    return s == c->sink || (c->sf[s] & CC_S_BAD);
}

/* A settled state: no violation is reachable from it by silent moves alone, and a
 * run may end there (not between a rendezvous' send and its receive). */
static inline bool cc_settled(const cc_ctx *c, uint32_t s)
{
    return s != c->sink && !(c->sf[s] & (CC_S_BAD | CC_S_DOOM | CC_S_NOEND));
}

int cc_derive(cc_ctx *c);
int cc_explore(cc_ctx *c);

/* The orders of a minimal bad multiset m as a deterministic automaton over events
 * (cc_orders.c): each order is one path from state 0 to a final state.  States are
 * numbered by level (the length of their prefixes); state x's moves are the range
 * first[x] .. first[x + 1], events ascending. */
struct cc_subs;
typedef struct {
    sg_ms m;
    size_t nx, xcap;
    sg_ms *k;            /* per state: the multiset of its prefixes (after cc_oaut_resolve;
                            before it, m's own numbering of its sub-multisets, in subs) */
    uint8_t *final;      /* per state: an order of m ends here */
    uint32_t *first;     /* per state: its first move (nx + 1 entries) */
    uint32_t *mev, *mto; /* per move: event id (type + 1), target state */
    size_t nm, mcap;
    struct cc_subs *subs; /* until cc_oaut_resolve: m's sub-multisets */
} cc_oaut;

/* One builder of orders automata.  A build reads the sealed graph and the derived
 * flags (c->g, c->sf, c->sink, c->o) and never the subset graph, whose store the
 * passes grow, so a builder may run on a second thread beside them (cc_cause.c).
 * It counts its own nodes against its own budget. */
typedef struct {
    const cc_ctx *c;
    uint32_t *heads;      /* a per-state word array of its own (cc_heads' rule) */
    size_t ticks, budget; /* nodes built, and the limit (SIZE_MAX: none) */
    size_t bytes;         /* the largest build's memory */
} cc_obuild;

/* The automaton of the multiset with event types ev[0..n) (ascending) of counts
 * cnt[0..n), m's id being m: 0, 1 when b's budget ran out, -1 when out of memory.
 * Its k are m's own numbering until cc_oaut_resolve (on the subset graph's thread)
 * turns them into the subset graph's multisets. */
int cc_oaut_make(cc_obuild *b, sg_ms m, const uint32_t *ev, const uint32_t *cnt, uint32_t n,
                 cc_oaut *a);
int cc_oaut_resolve(cc_ctx *c, cc_oaut *a);
void cc_oaut_free(cc_oaut *a);

/* The AC2(2) pass over the orders automaton (cc_ac22.c): every order of m is one path
 * from a start node (0 .. nstart - 1) to a final node; count is how many paths from
 * the start nodes reach a node; a node carries the prohibited gaps at its own gap as
 * labels (CC_LABEL_BIT | event << 32 | gap index, sorted), of the orders whose path
 * passes it, and a final node whether a good run has their very trace.  Without
 * extras (or without a minimal Q) the pass is deterministic, one start node, no
 * labels. */
#define CC_LABEL_BIT ((uint64_t)1 << 63)
static inline uint32_t cc_label_event(uint64_t l)
{
    return (uint32_t)(l >> 32) & 0x7fffffffu;
}
static inline uint32_t cc_label_gap(uint64_t l)
{
    return (uint32_t)l;
}
typedef struct {
    uint32_t x, r;
    double count;
    uint32_t out; /* first edge, CC_NONE */
    bool ambiguous;
    uint64_t *lab;
    size_t nlab, labcap;
} cc_pnode;

typedef struct {
    uint32_t ev, to, next;
} cc_pedge;

typedef struct {
    cc_pnode *node; /* in order of their automaton state: predecessors first */
    size_t n, cap;
    size_t nstart; /* orders start at nodes 0 .. nstart - 1 (pass 2 has several) */
    cc_pedge *edge;
    size_t ne, ecap;
    size_t nocc; /* |m| */
    sg_ms *minq; /* the Q minimal at some final node */
    size_t nminq, minqcap;
} cc_pass;

/* 0, 1 when the budget ran out (the pass is then partial), -1 when out of memory. */
int cc_ac22_pass(cc_ctx *c, const cc_oaut *a, size_t nevents, bool extras, cc_pass *out);
void cc_pass_free(cc_pass *p);
/* For one order sigma: a good run containing it with a minimal nonempty set of extra
 * occurrences (the "prevented in" of a cause); *good NULL when there is none. */
int cc_good_witness(cc_ctx *c, const uint32_t *sigma, size_t n, size_t nevents, uint32_t **good,
                    size_t *ngood);

/* The orders automata of the minimal bad multisets, built ahead on a second thread
 * (cc_cause.c): started before the history search, offered the multisets of the red
 * traces found so far after each of its levels; cc_assemble takes them.  0, or -1
 * when out of memory. */
int cc_ahead_start(cc_ctx *c);
int cc_ahead_offer(cc_ctx *c);
void cc_ahead_end(cc_ctx *c);

int cc_assemble(cc_ctx *c, size_t nevents);

#endif
