/*
 * causality.h - causality checking on the transition graph pan explores.
 *
 * While pan searches (DFS or BFS), the spin-model hooks record every state it
 * expands and every move it takes into a cc_graph: states interned by their state
 * vector, moves labelled with the event they are (or silent), violations as moves
 * into the sink CC_BAD or as bad states.  When the search ends, cc_analyse() explores
 * event histories over that graph, feeds every good and bad trace into the coloured
 * subset graph, and decides AC1, AC2(1), AC3, AC2(2) with non-occurrence, and OC1
 * (README "Method").  The result lists the causes; cc_report.c prints them as text
 * and JSON and cc_formula.c turns each into an EOL formula.  This header is the
 * module's whole interface.
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

#define CC_BAD    UINT32_MAX /* the violation sink, as an edge target */
#define CC_SILENT 0          /* event id of a silent move; event type k has id k + 1 */

typedef struct cc_graph cc_graph;

/* CC_G_EXACT: identify states by their full key instead of a 96-bit fingerprint.
 * CC_G_MOVES: keep pan's move (process slot, transition id) per edge, for trails. */
enum { CC_G_EXACT = 1, CC_G_MOVES = 2 };

cc_graph *cc_graph_new(unsigned flags);
void cc_graph_free(cc_graph *g);
/* Interns a state by its key bytes.  *fresh tells whether it is new.  Returns
 * CC_BAD when out of memory. */
uint32_t cc_graph_state(cc_graph *g, const void *key, size_t len, bool *fresh);
/* A new state without a key: its identity is kept by the caller (pan's own hash
 * table entry holds the id, sm_glue.c.inc), so it is never looked up here.  Returns
 * CC_BAD when out of memory. */
uint32_t cc_graph_new_state(cc_graph *g);
void cc_graph_set_root(cc_graph *g, uint32_t s);
/* A move from -> to (to may be CC_BAD: the move itself violates).  claim marks a
 * move of the never claim.  Returns -1 when out of memory. */
int cc_graph_edge(cc_graph *g, uint32_t from, uint32_t to, uint32_t event, bool claim);
/* The same, naming pan's move: pr is pan's process slot (its trail's second column:
 * the never claim is 0 when there is one) and tid the transition's t_id; -1 when the
 * edge is no move of pan (hand-built graphs).  cc_graph_edge() passes -1, -1. */
int cc_graph_move(cc_graph *g, uint32_t from, uint32_t to, uint32_t event, bool claim, int pr,
                  int tid);
/* All moves out of s have been added: they are packed into s's block.  Adding moves
 * later still works, by copying the block back (slow).  0, or -1 when out of memory. */
int cc_graph_close(cc_graph *g, uint32_t s);
/* Closes every state; the analysis and trail search seal the graph themselves. */
int cc_graph_seal(cc_graph *g);
/* pan's move of edge e (CC_G_MOVES), -1, -1 when unknown. */
void cc_graph_step(const cc_graph *g, uint32_t e, int *pr, int *tid);
/* Every run reaching s has violated the property there (invalid end state, end of
 * the never claim). */
void cc_graph_bad_state(cc_graph *g, uint32_t s);
/* Marks s as expanded; returns whether it already was. */
bool cc_graph_expand(cc_graph *g, uint32_t s);
size_t cc_graph_states(const cc_graph *g);
size_t cc_graph_edges(const cc_graph *g);
size_t cc_graph_bytes(const cc_graph *g);

/* ---- the analysis (cc_explore.c, cc_ac22.c, cc_cause.c) ---- */

/* The history search's prunings (README "Method"), each of which keeps every cause;
 * they can be switched off to check exactly that. */
enum {
    CC_NOPRUNE_SUPERSET = 1,  /* keep histories whose multiset contains a bad trace's */
    CC_NOPRUNE_DOMINANCE = 2, /* keep histories dominated by a smaller one at a state */
    CC_NOPRUNE_MERGE = 4      /* keep every order of equal multisets (no cc_orders pass) */
};

typedef struct {
    bool ac2;                 /* AC2(2) non-occurrence test (the paper's CC2; off = CC1) */
    unsigned noprune;         /* CC_NOPRUNE_* bits */
    size_t search_budget;     /* max (state, history) nodes per search; 0 = default */
    FILE *progress;           /* progress lines every 2^20 history nodes, or NULL */
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
    cc_absent *absent; /* sorted by (event, after, before) */
    size_t nabsent;
    bool *ordered;        /* nocc x nocc: ordered[i * nocc + j] = i before j on every trace */
    size_t ntraces;       /* red traces of this cause */
    bool ambiguous;       /* a good run has the same trace as a red one */
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
    size_t colours[6]; /* node counts by sg_colour */
    size_t good, bad;  /* distinct good / bad traces seen */
    size_t explored;   /* (state, history) nodes explored */
    size_t bytes;      /* peak bytes of the analysis' own structures */
    bool hazard;       /* some run violates the property */
    bool unreachable;  /* no violation is reachable in the recorded graph at all, so the
                          histories (and good traces: good stays 0) were not enumerated */
    bool truncated;    /* a search hit its budget: results may be incomplete */
    bool oom;          /* out of memory during the analysis */
} cc_result;

cc_result *cc_analyse(cc_graph *g, size_t nevents, const cc_options *o);
void cc_result_free(cc_result *r);

/* ---- formulas and reports (cc_formula.c, cc_report.c) ---- */

/* The cause as an EOL formula over the event names. */
eol_node *cc_formula(const cc_cause *c, const char *const *names);
/* Display name of the cause's i-th occurrence: E, or E_k when the cause has more
 * than one occurrence of E.  Malloc'd. */
char *cc_occ_name(const cc_cause *c, size_t i, const char *const *names);

typedef struct {
    const char *search; /* "dfs" or "bfs" */
    bool complete;      /* false: depth limit, bitstate, memory, budget */
    const char *why_incomplete;
    bool ac2;
    double seconds, peak_mb;
    double graph_mb; /* the recorded graph (cc_graph_bytes) */
    double states, transitions;
    const char *model;
    /* --trails: per cause the written trail of its witness and of its good execution
     * (NULL entries: none); NULL arrays when trails were not asked for. */
    const char *const *trails, *const *good_trails;
} cc_run;

int cc_report_text(FILE *f, const cc_result *r, const char *const *names, size_t nevents,
                   const cc_run *run, bool unicode);
int cc_report_json(FILE *f, const cc_result *r, const char *const *names, size_t nevents,
                   const cc_run *run);

/* ==== fault trees, trails, HTML report, probabilities (issue 5) ====
 * cc_trail.c: a cause's witness as a replayable SPIN trail; cc_faulttree.c: the
 * causes as a fault tree (.dot, Open-PSA MEF .xml, .json); cc_prob.c: basic-event
 * probabilities and the top event's probability from the minimal cut sets;
 * cc_html.c: one self-contained HTML report.  Every writer goes through
 * cc_write_file(): a temporary file renamed on success, nothing half-written. */

/* Writes path by put(f, arg) into a temporary file beside it, renamed to path when
 * put and every write succeeded.  On failure prints "pancause: cannot write PATH:
 * reason" to stderr, removes the temporary file and returns -1. */
int cc_write_file(const char *path, int (*put)(FILE *, const void *), const void *arg);

/* One move of pan: process slot (0 = the never claim when there is one) and the
 * transition's id, as the two last columns of pan's trail lines. */
typedef struct {
    int pr, tid;
} cc_step;

/* Finds a shortest run of the recorded graph from its root whose trace is the event
 * types ev[0..n): bad = the run's first violation ends it; otherwise a good run that
 * never violates and ends settled.  Returns 0 with malloc'd *steps (pan's moves in
 * order), 1 when the graph holds no such run, -1 when out of memory. */
int cc_trail_find(cc_graph *g, const uint32_t *ev, size_t n, bool bad, cc_step **steps,
                  size_t *nsteps);
/* Writes steps in pan's trail format: claim_type >= 0 is the never claim's proctype
 * number (the "-2:N:-2" header), merged SPIN's statement merging ("-4:-4:-4"). */
int cc_trail_write(const char *path, const cc_step *s, size_t n, int claim_type, bool merged);

/* Where and how --trails writes: DIR/<model>N.trail for cause N's witness and
 * DIR/<model>N.good.trail for its good execution (README "Fault trees, trails and the
 * HTML report"). */
typedef struct {
    const char *dir, *model;
    int claim_type;
    bool merged;
} cc_trail_opts;
/* Writes every cause's trails; *bad and *good (malloc'd, ncauses entries, NULL where
 * no run was found) name the files.  Returns -1 when a file cannot be written. */
int cc_write_trails(cc_graph *g, const cc_result *r, const cc_trail_opts *o, char ***bad,
                    char ***good);
void cc_trails_free(char **paths, size_t n);

/* The fault tree of section 4.2: top event -> OR -> per cause an AND or PAND gate
 * over basic events (one per event type, shared by the gates). */
typedef struct {
    char *name;  /* the event's name as in the report */
    char *id;    /* identifier for MEF and Graphviz (unique, [A-Za-z_][A-Za-z0-9_]*) */
    double prob; /* probability from --probabilities, -1 when not given */
} cc_ft_event;

typedef struct {
    bool pand;               /* some order of the cause's events is causal */
    char *eol, *eol_unicode; /* the cause's EOL formula */
    char *order;             /* PAND: "A < B, B < C" (covering pairs), else NULL */
    size_t *inputs, ninputs; /* basic events (event types), in witness order */
    char **conditions;       /* causal non-occurrences: "Cl between Cc and Tc" */
    size_t nconditions;
} cc_ft_gate;

typedef struct {
    char *model, *hazard;
    cc_ft_event *ev; /* one per event type (index = event type) */
    size_t nev;
    cc_ft_gate *gate; /* one per cause, in the report's order */
    size_t ngate;
} cc_ftree;

enum { CC_FT_DOT, CC_FT_MEF, CC_FT_JSON };

cc_ftree *cc_ftree_build(const cc_result *r, const char *const *names, size_t nevents,
                         const char *model, const char *hazard);
void cc_ftree_free(cc_ftree *t);
/* Whether event type e is an input of some gate (is a basic event of the tree). */
bool cc_ftree_used(const cc_ftree *t, size_t e);
/* CC_FT_DOT (.dot, .gv), CC_FT_MEF (.xml), CC_FT_JSON (.json) by path's extension;
 * -1 for anything else. */
int cc_ftree_format(const char *path);
/* Writes the tree in the format of path's extension (through cc_write_file). */
int cc_ftree_write(const cc_ftree *t, const char *path);
/* Writes s escaped for 'x' XML/HTML text and attributes, 'd' a Graphviz string, 'j' a
 * JSON string (quotes not included). */
void cc_put_escaped(FILE *f, const char *s, char what);

/* Basic-event probabilities (cc_prob.c).  The file has one `event probability` per
 * line; '#' starts a comment; blank lines are skipped. */
typedef struct {
    char *name;
    double p;
    int line;
} cc_prob_entry;

typedef struct {
    char *path;
    cc_prob_entry *e;
    size_t n;
} cc_probs;

/* Reads and checks the file (syntax, 0 <= p <= 1, no event twice).  On error returns
 * -1 and a malloc'd *err "FILE:LINE: what is wrong". */
int cc_prob_read(const char *path, cc_probs *out, char **err);
void cc_prob_free(cc_probs *p);
/* Puts the probabilities into the tree's basic events; warns (stderr, FILE:LINE) about
 * names that are no event of the model.  Returns the number of such names. */
size_t cc_prob_apply(cc_ftree *t, const cc_probs *p);

/* The top event's probability from the minimal cut sets (each gate's set of basic
 * events, supersets and duplicates dropped), PAND order and non-occurrence conditions
 * ignored: the rare-event approximation (sum of the cut sets' products, capped at 1)
 * and, for at most CC_EXACT_MAX cut sets, the exact value by inclusion-exclusion. */
#define CC_EXACT_MAX 20
typedef struct {
    double rare, exact;
    bool has_exact;
    size_t ncuts;
    const char *missing; /* when 1 is returned: a basic event without probability */
} cc_topprob;
/* 0 when computed; 1 when some basic event has no probability (or no gate); -1 OOM. */
int cc_prob_top(const cc_ftree *t, cc_topprob *out);

/* The HTML report (cc_html.c). */
typedef struct {
    const cc_result *r;
    const char *const *names; /* event names */
    const char *const *lanes; /* per event type: the process that executes it */
    size_t nevents;
    const cc_run *run;
    const cc_ftree *tree; /* built from r, with probabilities if given */
} cc_html_in;
int cc_html_write(const char *path, const cc_html_in *in);

#endif
