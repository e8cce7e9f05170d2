/*
 * subsetgraph.h - the coloured subset graph of section 3.2 of the paper.
 *
 * Every execution trace the causality search meets is a node.  Traces are stored as
 * a trie over event types, so a node is also every trace's prefix and two runs with
 * the same event sequence share one node.  A node's level is its length; its event
 * multiset (its set of occurrence variables, Def. 4) is hash-consed, so sub- and
 * superset relations between traces are relations between multiset ids.
 *
 * Colours (decided when a trace is added; see README "Method"):
 *   GREEN  a good trace that is no strict superset of a red one;
 *   BLACK  a good trace that is a strict superset of a red one (the candidates of the
 *          AC2(2) test);
 *   RED    a bad trace with no bad strict subset (AC3) and a good strict subset
 *          (AC2(1)): a causal trace;
 *   ORANGE a bad trace with a bad strict subset (not minimal, fails AC3);
 *   GREY   a bad trace that passes AC3 but has no good strict subset (fails AC2(1),
 *          e.g. a hazard reached without any event).
 * Invariant the caller keeps: bad traces are added in order of non-decreasing length,
 * and every good trace that is a strict subset of a bad trace is added before it.
 * Then AC3 and AC2(1) are final when the bad trace is added (the paper's BFS case).
 * The causality module's exploration is ordered that way for DFS and BFS alike.
 */
#ifndef SUBSETGRAPH_H
#define SUBSETGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

typedef struct sg_graph sg_graph;
typedef uint32_t sg_node; /* 0 is the empty trace */
typedef uint32_t sg_ms;   /* multiset id; 0 is the empty multiset */

#define SG_INVALID UINT32_MAX

typedef enum { SG_NONE, SG_GREEN, SG_BLACK, SG_RED, SG_ORANGE, SG_GREY } sg_colour;
#define SG_NCOLOURS 6

sg_graph *sg_new(void);
void sg_free(sg_graph *g);

/* The trace n followed by event e (created if new).  SG_INVALID when out of memory. */
sg_node sg_child(sg_graph *g, sg_node n, uint32_t event);
/* Records that a good (bad == false) or bad execution has trace n; returns its colour
 * (SG_NONE when out of memory). */
sg_colour sg_add(sg_graph *g, sg_node n, bool bad);

sg_colour sg_colour_of(const sg_graph *g, sg_node n);
bool sg_is_good(const sg_graph *g, sg_node n);
bool sg_is_bad(const sg_graph *g, sg_node n);
size_t sg_level(const sg_graph *g, sg_node n);
sg_ms sg_multiset(const sg_graph *g, sg_node n);
/* Writes the trace's n events into out[0..level-1] (event ids). */
void sg_trace(const sg_graph *g, sg_node n, uint32_t *out);
/* Occurrence index (1-based) of the last event of n among n's events of its type. */
uint32_t sg_last_occ(const sg_graph *g, sg_node n);

/* The multiset m plus one event (hash-consed like every multiset); SG_INVALID when
 * out of memory.  No trie node is made: searches over (state, multiset) use it. */
sg_ms sg_ms_add(sg_graph *g, sg_ms m, uint32_t event);

/* How often event occurs in multiset m. */
uint32_t sg_ms_count(const sg_graph *g, sg_ms m, uint32_t event);
/* m's distinct events, ascending, into ev and their counts into cnt (room for
 * sg_ms_size(g, m) each); returns how many. */
uint32_t sg_ms_events(const sg_graph *g, sg_ms m, uint32_t *ev, uint32_t *cnt);

/* Multiset relations: a ⊆ b, and a ⊂ b (strict). */
bool sg_ms_subseteq(const sg_graph *g, sg_ms a, sg_ms b);
bool sg_ms_subset(const sg_graph *g, sg_ms a, sg_ms b);
size_t sg_ms_size(const sg_graph *g, sg_ms a);
/* True when some bad trace added so far has a multiset strictly inside m. */
bool sg_has_bad_below(const sg_graph *g, sg_ms m);

/* Counts of nodes by colour, and of distinct good / bad traces. */
size_t sg_count(const sg_graph *g, sg_colour c);
size_t sg_nodes(const sg_graph *g);
/* The nodes of one colour, in the order they were coloured; returns how many. */
size_t sg_list(const sg_graph *g, sg_colour c, const sg_node **out);
size_t sg_bytes(const sg_graph *g);

#endif
