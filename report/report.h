/*
 * report.h - everything `./pan -C` writes about a causality result: the text report
 * on stdout and the files the user asks for (JSON, fault trees, trails, HTML).  The
 * whole interface of report/; prefix rp_.
 *
 * The analysis (causality/) produces a cc_result; the recorder (spin-model/) knows
 * the run around it (search, limits, statistics, event names and processes).  Both
 * go into one rp_in, and rp_report() prints the text report and runs every writer
 * the user asked for.  Output formats are rows of one table (rp_writers, in
 * rp_writers.c): an option, the file extensions it accepts, a help line and a write
 * function.  Adding a format is one file with its write function plus one row; the
 * option parser, the help text and the pre-search path check all read the table.
 * Every file goes through u_write_file(): whole or not at all.
 */
#ifndef REPORT_H
#define REPORT_H

#include "causality.h"
#include "util.h"

#include <stdbool.h>
#include <stdio.h>

/* ---- the input of every writer ---- */

#define RP_MAX_WHY 24

/* The run around the result: how pan searched and what it measured. */
typedef struct {
    const char *search;          /* "dfs" or "bfs" */
    const char *why[RP_MAX_WHY]; /* every reason the result is incomplete; none: complete */
    size_t nwhy;
    bool ac2;
    double seconds, peak_mb;
    double search_seconds; /* pan's search with the recording, up to the analysis */
    double graph_mb;       /* the recorded graph (cc_graph_bytes) */
    double states, transitions;
    const char *model;
    const char *hazard; /* the first violation pan reported, or NULL */
} rp_run;

/* Basic-event probabilities (--probabilities FILE, rp_prob.c): `event p` per line,
 * '#' starts a comment, blank lines skipped. */
typedef struct {
    char *name;
    double p;
    int line;
} rp_prob_entry;

typedef struct {
    char *path;
    rp_prob_entry *e;
    size_t n, cap;
} rp_probs;

/* Reads and checks the whole file once (syntax, 0 <= p <= 1, no event twice, text
 * only), in time linear in its size.  0, or -1 with "FILE:LINE: what" in err. */
int rp_prob_read(const char *path, rp_probs *out, u_err *err);
void rp_prob_free(rp_probs *p);

typedef struct rp_ftree rp_ftree;

typedef struct {
    const cc_result *r;
    const char *const *names; /* event names, nevents of them */
    const char *const *lanes; /* per event type: the process that executes it */
    size_t nevents;
    const rp_run *run;
    /* for --trails: the recorded graph and pan's trail header */
    cc_graph *g;
    int claim_type;
    bool merged;
    const rp_probs *probs; /* --probabilities, or NULL */
    /* Filled by rp_report as it goes: the trail files (ncauses entries each, NULL
     * where none was written; the arrays NULL when trails were not asked for) and the
     * fault tree (built once, for whichever writer needs it first). */
    char **trails, **good_trails;
    rp_ftree *tree;
} rp_in;

/* ---- the writers ---- */

typedef struct {
    const char *option; /* "--json"; several rows may share one (formats by extension) */
    const char *exts;   /* accepted extensions, space-separated (".dot .gv"); "/" for a
                           directory; NULL for any name */
    const char *help;   /* one line for --help */
    int (*write)(rp_in *in, const char *path, u_err *err);
} rp_writer;

extern const rp_writer rp_writers[];
extern const size_t rp_nwriters;

/* The row of the trails (--trails DIR), which the recorder must know before the
 * search: trails need pan's move per edge (CC_G_MOVES). */
#define RP_TRAILS 0

/* What the user asked for: per writer row, the path (NULL: not asked). */
typedef struct {
    const char *path[16];
} rp_request;

/* Whether option is some writer's; then the row that takes path (by its
 * extension), its output checked now (directory exists, writable), so that a long
 * search does not end in "cannot write".  Returns the row, -1 when option is no
 * writer's, -2 with err when the path is refused. */
int rp_writer_for(const char *option, const char *path, u_err *err);
/* The help lines of the writer options. */
void rp_help(FILE *f);

/* The text report on out, then every requested file (trails first, since the other
 * outputs name them).  0, or -1 when some output could not be written: each such
 * failure is reported on stderr as it happens, and the other outputs still run. */
int rp_report(rp_in *in, const rp_request *req, FILE *out, bool unicode);
/* Frees what rp_report added to in. */
void rp_in_release(rp_in *in);

/* ---- the pieces, for tests and for each other ---- */

int rp_text(FILE *f, const rp_in *in, bool unicode);
int rp_json(FILE *f, const rp_in *in);

/* The fault tree of section 4.2 (rp_ftree.c): top event -> OR -> per cause an AND or
 * PAND gate over basic events (one per event type, shared by the gates); a causal
 * non-occurrence is a condition on its gate, not a basic event. */
/* The undeveloped input of the top OR where runs reach the hazard without a cause */
#define RP_UNCAUSED_ID "pancause_uncaused" /* rp_ftree.c make_id keeps events off it */
#define RP_UNCAUSED_TEXT                                                                           \
    "runs that reach the hazard without a cause (undeveloped: label more statements)"

typedef struct {
    char *name;  /* the event's name as in the report */
    char *id;    /* identifier for MEF and Graphviz (unique, [A-Za-z_][A-Za-z0-9_]*) */
    double prob; /* from --probabilities, -1 when not given */
} rp_ft_event;

typedef struct {
    bool pand;               /* some order of the cause's events is causal */
    char *eol, *eol_unicode; /* the cause's EOL formula */
    char *order;             /* PAND: "A < B, B < C" (covering pairs), else NULL */
    size_t *inputs, ninputs; /* basic events (event types), in witness order */
    char **conditions;       /* causal non-occurrences: "Cl between Cc and Tc" */
    size_t nconditions;
} rp_ft_gate;

struct rp_ftree {
    char *model, *hazard;
    /* why the gates may not be every cause (rp_every_cause_caveat: the result is
     * incomplete, or a run without a cause reaches the hazard), NULL when they are;
     * why[0 .. nwhy): the result's reasons to be incomplete (the run's, borrowed).
     * The writers say so, and call the top probability an upper bound only without */
    const char *caveat;
    const char *const *why;
    size_t nwhy;
    /* a run reaches the hazard with events no cause explains: an undeveloped input
     * "uncaused" of the top OR, without a probability (the fourth probe's P4-9: with
     * no cause the tree's top was the constant false, for a hazard that is reached) */
    bool uncaused;
    rp_ft_event *ev; /* one per event type (index = event type) */
    size_t nev;
    rp_ft_gate *gate; /* one per cause, in the report's order */
    size_t ngate;
};

rp_ftree *rp_ftree_build(const cc_result *r, const char *const *names, size_t nevents,
                         const char *model, const char *hazard);
void rp_ftree_free(rp_ftree *t);
/* Whether event type e is an input of some gate (is a basic event of the tree). */
bool rp_ftree_used(const rp_ftree *t, size_t e);
/* Puts the probabilities into the basic events; warns (stderr, FILE:LINE) about
 * names that are no event of the model.  Returns the number of such names. */
size_t rp_prob_apply(rp_ftree *t, const rp_probs *p);

/* The top event's probability from the minimal cut sets (each gate's set of basic
 * events, supersets and duplicates dropped), PAND order and non-occurrence conditions
 * ignored: the rare-event approximation (sum of the cut sets' products, capped at 1)
 * and, for at most RP_EXACT_MAX cut sets, the exact value by inclusion-exclusion. */
#define RP_EXACT_MAX 20
typedef struct {
    double rare, exact;
    bool has_exact;
    size_t ncuts;
    const char *missing; /* when 1 is returned: a basic event without probability */
} rp_topprob;
/* 0 when computed; 1 when some basic event has no probability (or no gate); -1 OOM. */
int rp_prob_top(const rp_ftree *t, rp_topprob *out);
/* The minimal cut sets themselves: each a list of basic events (event types, in
 * increasing order).  0 with fresh *out (n sets), or -1 when out of memory. */
typedef struct {
    size_t *ev, n;
} rp_cut;
int rp_cut_sets(const rp_ftree *t, rp_cut **out, size_t *n);
void rp_cut_sets_free(rp_cut *c, size_t n);

/* The fault tree of in (built on first use, probabilities applied); NULL when out
 * of memory. */
rp_ftree *rp_tree(rp_in *in);

/* Writes steps in pan's trail format (rp_trail.c): claim_type >= 0 is the never
 * claim's proctype number (the "-2:N:-2" header), merged SPIN's statement merging
 * ("-4:-4:-4"). */
int rp_trail_write(const char *path, const cc_step *s, size_t n, int claim_type, bool merged,
                   u_err *err);

/* The event types in every cause (rp_common.c): in_all[e] for e < nevents (all false
 * without causes).  Returns how many, or -1 when out of memory.  Where
 * rp_every_cause_sure() (a complete result without uncaused traces), every run that
 * reaches the hazard has each of them, and no other event is in all such runs. */
int rp_every_cause(const cc_result *r, size_t nevents, bool *in_all);
bool rp_every_cause_sure(const rp_in *in);
/* Why the list is no guarantee ("the result is incomplete", ...), for the text and HTML
 * reports to say; NULL when nothing withdraws it. */
const char *rp_every_cause_caveat(const rp_in *in);

/* Display text of a cause's pieces, shared by the writers (rp_ftree.c). Fresh
 * memory, NULL when out of memory. */
char *rp_formula(const cc_cause *c, const char *const *names, eol_style st);
char *rp_order_text(const cc_cause *c, const char *const *names);
char *rp_absent_text(const cc_cause *c, const cc_absent *a, const char *const *names);

#endif
