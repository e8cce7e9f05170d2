/*
 * causality.h - causality checking on the transition graph pan explores.
 *
 * While pan searches (DFS or BFS), the spin-model hooks record every state it
 * expands and every move it takes into a cc_graph: states interned by their state
 * vector, moves labelled with the event they are (or silent), violations as moves
 * into the sink CC_SINK or as bad states.  When the search ends, cc_analyse() explores
 * event histories over that graph, feeds every good and bad trace into the coloured
 * subset graph, and decides AC1, AC2(1), AC3, AC2(2) with non-occurrence, and OC1
 * (README "Method").  The result lists the causes; cc_formula.c turns each into an
 * EOL formula, and report/ writes them (text, JSON, fault trees, trails, HTML).
 * This header is the module's whole interface.
 */
#ifndef CAUSALITY_H
#define CAUSALITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "eol.h"
#include "util.h"

/* ---- the recorded transition graph (cc_graph.c) ---- */

/* Four values that are no state id (ids stay below 2^31). */
#define CC_SINK       UINT32_MAX       /* edge target: the move itself violates */
#define CC_OOM        (UINT32_MAX - 1) /* a state could not be made: out of memory */
#define CC_NOROOT     (UINT32_MAX - 2) /* cc_graph.root before cc_graph_set_root */
#define CC_NOSTATE    (UINT32_MAX - 3) /* the recorder's "no state" (no source of a move) */
#define CC_SILENT     0                /* event id of a silent move; event type k has id k + 1 */
#define CC_MAX_EVENTS 16383            /* event ids fit in an edge's 14-bit event field */

static inline bool cc_is_state(uint32_t s)
{
    return s < CC_NOSTATE;
}

typedef struct cc_graph cc_graph;

/* CC_G_EXACT: identify states by their full key instead of a 96-bit fingerprint.
 * CC_G_MOVES: keep pan's move (process slot, transition id) per edge, for trails. */
enum { CC_G_EXACT = 1, CC_G_MOVES = 2 };

cc_graph *cc_graph_new(unsigned flags);
void cc_graph_free(cc_graph *g);
/* Interns a state by its key bytes.  *fresh tells whether it is new.  Returns
 * CC_OOM when out of memory. */
uint32_t cc_graph_state(cc_graph *g, const void *key, size_t len, bool *fresh);
/* Makes key name the existing state id when it names none yet, and returns the state
 * it names (id, or the one it named before); CC_OOM when out of memory.  For a state
 * that pan reaches in two search modes with the same moves (an atomic sequence that
 * blocked: spin-model/sm_glue.c.inc). */
uint32_t cc_graph_alias(cc_graph *g, const void *key, size_t len, uint32_t id);
/* A new state without a key: its identity is kept by the caller (pan's own hash
 * table entry holds the id, sm_glue.c.inc), so it is never looked up here.  Returns
 * CC_OOM when out of memory. */
uint32_t cc_graph_new_state(cc_graph *g);
void cc_graph_set_root(cc_graph *g, uint32_t s);
/* A move from -> to (to may be CC_SINK: the move itself violates).  claim marks a
 * move of the never claim.  Returns -1 when out of memory. */
int cc_graph_edge(cc_graph *g, uint32_t from, uint32_t to, uint32_t event, bool claim);
/* The same, naming pan's move: pr is pan's process slot (its trail's second column:
 * the never claim is 0 when there is one) and tid the transition's t_id; -1 when the
 * edge is no move of pan (hand-built graphs).  cc_graph_edge() passes -1, -1. */
int cc_graph_move(cc_graph *g, uint32_t from, uint32_t to, uint32_t event, bool claim, int pr,
                  int tid);
/* Takes back the move from -> to when it is from's newest move and from is still
 * open (a rendezvous send pan undid: its receive could not follow); 1 when it was,
 * else 0 and nothing changes. */
int cc_graph_unmove(cc_graph *g, uint32_t from, uint32_t to);
/* Makes the move from -> to a move from -> to2 when it is from's newest move and from
 * is still open (a state found to be another, sm_hooks.c's smh_dfs_rejoin); 1 when it
 * was, else 0 and nothing changes. */
int cc_graph_retarget(cc_graph *g, uint32_t from, uint32_t to, uint32_t to2);
/* All moves out of s have been added: they are packed into s's block.  Adding moves
 * later still works, by copying the block back (slow).  0, or -1 when out of memory. */
int cc_graph_close(cc_graph *g, uint32_t s);
/* Closes every state and frees the lookup tables (no state can be interned after
 * it); the analysis and trail search seal the graph themselves. */
int cc_graph_seal(cc_graph *g);
/* pan's move of edge e (CC_G_MOVES), -1, -1 when unknown. */
void cc_graph_step(const cc_graph *g, uint32_t e, int *pr, int *tid);
/* Every run reaching s has violated the property there (invalid end state, end of
 * the never claim). */
void cc_graph_bad_state(cc_graph *g, uint32_t s);
/* Whether a run may end at s.  noend: it may not, s is no settled end of a good run:
 * s is between a rendezvous' send and its receive, which SPIN executes as one
 * handshake (pan as two moves), or inside an atomic sequence whose process holds
 * atomicity (SPIN executes the sequence as one step; the never claim does not look
 * at s).  An atomic sequence that blocks there loses atomicity, and then a run may
 * end there after all: noend false. */
void cc_graph_noend_state(cc_graph *g, uint32_t s, bool noend);
/* Marks s as expanded; returns whether it already was. */
bool cc_graph_expand(cc_graph *g, uint32_t s);
/* Reading a sealed graph (nearest/ searches it): the initial state (CC_NOROOT when
 * none), the moves of s as for (e = cc_graph_first(g, s); e != CC_NONE_EDGE; e =
 * cc_graph_next(g, e)), a move's target (a state or CC_SINK) and whether it is the
 * never claim's. */
#define CC_NONE_EDGE UINT32_MAX
uint32_t cc_graph_root(const cc_graph *g);
uint32_t cc_graph_first(const cc_graph *g, uint32_t s);
uint32_t cc_graph_next(const cc_graph *g, uint32_t e);
uint32_t cc_graph_target(const cc_graph *g, uint32_t e);
bool cc_graph_claim(const cc_graph *g, uint32_t e);
size_t cc_graph_states(const cc_graph *g);
/* The subset construction of recorded graph g for a never claim that can be in two
 * states at once (cc_det.c): a state is the set of g's states one run of the model
 * reaches, one per branch of the claim.  Seals g; the result owns it (freed with it)
 * and names pan's moves for trails; every reader of a graph reads it as any other.
 * NULL when out of memory (or g has no root), g then still the caller's.  g must name
 * pan's moves (CC_G_MOVES) and hold every move of every state pan reached. */
cc_graph *cc_graph_det(cc_graph *g);
/* The members of all its states, when d is cc_graph_det's, else 0. */
size_t cc_graph_det_members(const cc_graph *d);
/* The members of d's state s (d cc_graph_det's): recorded state ids, sorted, *n of
 * them (at least one).  Members share the model's state and differ in the claim's,
 * so a reader of per-state data of the model (nearest/'s values) reads any one. */
const uint32_t *cc_graph_det_state(const cc_graph *d, uint32_t s, size_t *n);
size_t cc_graph_edges(const cc_graph *g);
size_t cc_graph_bytes(const cc_graph *g);

/* ---- the analysis (cc_explore.c, cc_ac22.c, cc_cause.c) ---- */

/* The history search's prunings (README "Method"), each of which keeps every cause;
 * they can be switched off to check exactly that. */
enum {
    CC_NOPRUNE_SUPERSET = 1,  /* keep histories whose multiset contains a bad trace's */
    CC_NOPRUNE_DOMINANCE = 2, /* keep histories dominated by a smaller one at a state */
    CC_NOPRUNE_MERGE = 4,     /* keep every order of equal multisets (no cc_orders pass) */
    CC_NOPRUNE_ROWS = 8       /* AC2(2) without viability rows (cc_ac22.c) */
};

typedef struct {
    bool ac2;                 /* AC2(2) non-occurrence test (the paper's CC2; off = CC1) */
    unsigned noprune;         /* CC_NOPRUNE_* bits */
    size_t search_budget;     /* max nodes of the history search; the later phases may take
                                 10 times as many steps (cc_phase); 0 = no limit */
    FILE *progress;           /* progress lines every 2^20 history nodes, or NULL */
    bool one_thread;          /* build the orders automata on this thread too (cc_cause.c
                                 builds them ahead on a second one) */
    const char *const *names; /* event names: each cause's witness is its red trace
                                 that is first by names, so DFS and BFS print alike */
} cc_options;

typedef struct {
    uint32_t event; /* event type (0-based) */
    uint32_t occ;   /* occurrence index, 1-based */
} cc_occ;

/* A prohibited interval: event type `event` must not occur after occurrence
 * index `after` and before occurrence index `before` of the cause (indices into
 * cc_cause.occ; -1 = the start / the end of the trace). */
typedef struct {
    uint32_t event;
    int after, before;
} cc_absent;

typedef struct {
    cc_occ *occ; /* the cause's occurrences, in the order of its witness */
    size_t nocc;
    cc_absent *absent; /* sorted by (event's name, after, before); by event id without
                          cc_options.names */
    size_t nabsent;
    bool *ordered;        /* nocc x nocc: ordered[i * nocc + j] = i before j on every trace */
    double ntraces;       /* red traces (orders) of this cause: can exceed 2^64 */
    bool ambiguous;       /* a good run has the same trace as a red one */
    double nambiguous;    /* how many of its orders are traces of good runs (the first
                             1000 by names are listed in cc_result.ambiguous) */
    bool ac22_incomplete; /* the non-occurrence search hit its budget */
    uint32_t *good;       /* a good super-trace showing the non-occurrence, or NULL */
    size_t ngood;
} cc_cause;

typedef struct {
    uint32_t *ev; /* event types of the trace */
    size_t n;
} cc_trace;

typedef struct {
    cc_cause *causes;
    size_t ncauses;
    cc_trace *uncaused; /* minimal bad traces without AC2(1) (GREY) */
    size_t nuncaused;
    cc_trace *ambiguous; /* red traces that are also traces of good runs */
    size_t nambiguous;
    size_t colours[6];           /* node counts by sg_colour */
    size_t good, bad;            /* distinct good / bad traces seen */
    size_t explored;             /* (state, history) nodes explored */
    size_t bytes;                /* peak bytes of the analysis' own structures */
    bool hazard;                 /* some run violates the property: a violation is reachable in the
                                    recorded graph (whether or not a limit stopped the analysis) */
    bool unreachable;            /* no violation is reachable in the recorded graph at all, so the
                                    histories (and good traces: good stays 0) were not enumerated */
    bool truncated;              /* a search hit its budget: results may be incomplete */
    const char *truncated_phase; /* which: "history search", "orders", "AC2(2) and causes" */
    double max_orders;           /* the most orders of one minimal bad multiset that was too many to
                                    list (0: none was) */
    size_t ac22_cut;             /* causes whose non-occurrence search used up its share of the
                                    budget: their events and orders are complete, their
                                    non-occurrences undecided (cc_cause.ac22_incomplete) */

    bool oom;          /* out of memory during the analysis */
    double seconds[3]; /* wall time of the phases: CC_T_DERIVE, CC_T_HISTORIES,
                          CC_T_CAUSES (orders, AC2(2), OC1, assembly) */
    uint8_t *sf;       /* per recorded state: the derived flags (claim-closed BAD, DOOM),
                          kept for the witness-run search of trails */
} cc_result;

enum { CC_T_DERIVE, CC_T_HISTORIES, CC_T_CAUSES };

cc_result *cc_analyse(cc_graph *g, size_t nevents, const cc_options *o);

/* The derived per-state flags alone, without the history search (nearest/ needs only
 * which runs are good): seals g and returns a fresh array of cc_graph_states(g) + 1
 * flag bytes, or NULL when out of memory.  CC_SF_BAD: every run reaching the state has
 * violated (invalid end state, or the never claim alone reaches a violation);
 * CC_SF_DOOM: a violation is reachable by silent moves alone (no good run ends there:
 * a state without it is *settled*); CC_SF_NOEND: between a rendezvous' send and its
 * receive or inside an atomic sequence (cc_graph_noend_state): no run ends there,
 * settled or not.  cc_result.sf holds the same flags. */
enum { CC_SF_BAD = 1, CC_SF_DOOM = 4, CC_SF_NOEND = 16 };
uint8_t *cc_derive_flags(cc_graph *g);
void cc_result_free(cc_result *r);

/* ---- formulas (cc_formula.c) and witness runs (cc_trail.c) ---- */

/* The cause as an EOL formula over the event names. */
eol_node *cc_formula(const cc_cause *c, const char *const *names);
/* Display name of the cause's i-th occurrence: E, or E_k when the cause has more
 * than one occurrence of E.  Malloc'd. */
char *cc_occ_name(const cc_cause *c, size_t i, const char *const *names);

/* One move of pan: process slot (0 = the never claim when there is one) and the
 * transition's id, as the two last columns of pan's trail lines. */
typedef struct {
    int pr, tid;
} cc_step;

/* Finds a shortest run of the recorded graph (analysed into r) from its root whose
 * trace is the event types ev[0..n): bad = the run's first violation ends it;
 * otherwise a good run that never violates and ends settled.  Returns 0 with
 * malloc'd *steps (pan's moves in order), 1 when the graph holds no such run, -1
 * when out of memory.  report/rp_trail.c writes the result as a SPIN trail. */
int cc_trail_find(const cc_graph *g, const cc_result *r, const uint32_t *ev, size_t n, bool bad,
                  cc_step **steps, size_t *nsteps);

/* A path of cc_graph_det's graph d from its state root (edges path[0..len), the last
 * may lead into CC_SINK) as pan's moves of one recorded run that follows it, the
 * never claim's included; bad_end: the run ends in a bad state (a recorded one:
 * CC_S_BAD), unless its last move violates.  0 with malloc'd *out, 1 when no recorded
 * run follows it, -1 when out of memory.  cc_trail.c's trails, and nearest/'s trail of
 * its good run (a run of the model only, that spin -t must replay with the claim's
 * real moves). */
int cc_det_steps(const cc_graph *d, uint32_t root, const uint32_t *path, size_t len, bool bad_end,
                 cc_step **out, size_t *nout);

#endif
