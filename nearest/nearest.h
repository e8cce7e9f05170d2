/*
 * nearest.h - the closest successful execution of a SPIN counterexample (Groce, "Error
 * Explanation with Distance Metrics", chapters 3, 4 and 7), computed exactly over the
 * state graph pan explores.  The module's whole interface; prefix nr_.
 *
 * `./pan -C --nearest TRAIL` records the state graph as causality checking does
 * (spin-model/, causality/'s cc_graph) and, for every state it records, the values of
 * the model's variables, which the glue inside pan.c decodes with pan's own printing
 * code and hands to an nr_model.  At pan's exit nr_explain() follows the trail through
 * the graph (the counterexample a), searches the successful run b nearest to it under
 * the alignment distance (README "The closest successful execution: definitions"),
 * computes the differences (Δs) and their slice, and writes the text report, JSON,
 * HTML and b as a SPIN trail.  `pancause nearest model.pml` (nr_main) is the front end
 * that builds such a pan in a scratch directory and runs it.
 */
#ifndef NEAREST_H
#define NEAREST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "causality.h"
#include "util.h"

/* ---- what pan tells about its model (nr_model.c) ---- */

typedef struct nr_model nr_model;

/* One transition as pan.t declares it: proctype, home state (whose source line SPIN
 * prints for the step), t_id, statement text (pan's own string, kept by pointer) and
 * target state (an IF/DO pseudo-transition's: the state of its option's first
 * statement, where that option's real transitions are declared). */
typedef struct {
    int proctype, state, tid;
    const char *text;
    int target;
} nr_trans;

nr_model *nr_model_new(void);
void nr_model_free(nr_model *m);
/* The proctypes (pan's procname[], n of them, the never claim's included) and per
 * proctype the source line of each of its states (src[p][s], s < nstates[p]; src[p]
 * NULL for none).  The arrays are pan's and must outlive m.  0, or -1 out of memory. */
int nr_model_procs(nr_model *m, const char *const *names, int n, const short *const *src,
                   const int *nstates);
/* pan's transitions (pan.t), kept by pointer.  0, or -1 when out of memory.  A row
 * with tid < 0 is a statement SPIN merged into another move (no move of its own). */
int nr_model_trans(nr_model *m, const nr_trans *t, int n);
/* The statements SPIN merged into moves (pan.m; after nr_model_trans): n rows
 * {proctype, state of the move, state of a statement it takes along}, each move's in
 * the order it executes them.  Jumps (`.(goto)`, `goto`, `break`) are left out, as
 * `spin -t -p` leaves them out.  0, or -1 when out of memory. */
int nr_model_merges(nr_model *m, const int (*rows)[3], int n);

/* The variables of one recorded state, as pan's decoder reports them: nr_val_begin,
 * then per scope (the globals first, then each process in pid order) nr_val_scope and
 * the scope's variables in pan's print order, then nr_val_end.  The k-th variable of a
 * scope is the same variable in every state (pan prints a proctype's variables in
 * one fixed order), so a variable is named once, from the text of the print call's
 * arguments (`now.a[l_in]`, `((P0 *)pptr(pid))->x`), when first seen. */
void nr_val_begin(nr_model *m);
/* pid -1: the globals; else process pid (never claim not counted) of proctype, at
 * control state pc. */
void nr_val_scope(nr_model *m, int pid, int proctype, int pc);
/* type: pan's type word ("byte", "mtype", ...); index: the array index, or -1. */
void nr_val_scalar(nr_model *m, const char *args, const char *type, int index, int value);
/* A channel: its name, id and contents: per message in order, its number of fields k,
 * then its k fields (so any field value can be told from a message boundary). */
void nr_val_chan(nr_model *m, const char *name, int qid, const int *fields, int n);
void nr_val_mtype(nr_model *m, const char *name, int value);
/* Stores the state's variables as those of recorded state s; end: NR_END_VALID when
 * SPIN's endstate() holds there and it is not between a rendezvous' send and its
 * receive (that no run ends there is the graph's: CC_SF_NOEND), else NR_END_NO;
 * bad: the decoder met a line it could not read.  0, or -1 with err (out of memory,
 * or unreadable variables). */
enum { NR_END_NO = 0, NR_END_VALID = 1 };
int nr_val_end(nr_model *m, uint32_t s, int end, bool bad, u_err *err);
/* Whether state s has its variables (pan expanded it). */
bool nr_model_has(const nr_model *m, uint32_t s);
size_t nr_model_bytes(const nr_model *m);
/* Re-indexes the values by the states of d, cc_graph_det's subset construction of the
 * recorded graph they were stored for (a guessing never claim): state s of d gets the
 * values of a member that has them.  After it no recorded state can be stored.  0, or
 * -1 when out of memory (m then unchanged). */
int nr_model_det(nr_model *m, const cc_graph *d);

/* ---- the search and its reports (nr_pan.c) ---- */

#define NR_MAX_ASSUME 16
/* How the reports name a trail pancause nearest made itself (--trail-not-kept) */
#define NR_NOT_KEPT "stock pan's counterexample (made by pancause nearest, not kept)"

typedef struct {
    const char *trail;                    /* the counterexample's trail file */
    bool trail_not_kept;                  /* --trail-not-kept: pancause nearest made
                                             it in a scratch directory, deleted after:
                                             the reports do not name its path */
    const char *json, *html, *good_trail; /* outputs, NULL when not asked for */
    const char *model_name;               /* --model-name: how the reports name the
                                             model (pancause nearest's: the user's path;
                                             NULL: pan's own name for it) */
    const char *graph;                    /* --nearest-graph: write the recorded graph
                                             and values there instead of searching */
    long wp, wa, wc;                      /* weights; wc < 0: |V| + 2 (the thesis' default) */
    double budget;                        /* search nodes before giving up on exactness;
                                             < 0: the default (NR_BUDGET_*), 0: none */
    double memlim;                        /* --memlim: the search's memory in MB; < 0:
                                             the default (NR_MEMLIM_SHARE), 0: none */
    bool unicode;                         /* UTF-8 terminal: Δ, α in the text report */
    bool run_to_end;                      /* --run-to-end: a finite b ends only in a valid
                                             end state, never at a merely settled one */
    const char *assume[NR_MAX_ASSUME];    /* --assume EXPR, each: every state of b
                                             satisfies them all (nr_assume.c) */
    int nassume;
} nr_options;

/* Checks one --assume expression's syntax (nr_assume.c); 0, or -1 with err naming the
 * column.  Both front ends call it before any work; the names are checked against
 * the model's variables after pan's search. */
int nr_assume_check(const char *text, u_err *err);
/* One --assume option of either front end: text (NULL when the option had no value)
 * checked and appended to list[*n]; -1 with err when it is missing, the list is full
 * (NR_MAX_ASSUME) or its syntax is bad. */
int nr_assume_add(const char **list, int *n, const char *text, u_err *err);

/* The default budget: room for the product of the graph with a long trail, without
 * letting a pathological case exhaust the machine (a node costs about 40 bytes). */
#define NR_BUDGET_MIN       5e7
#define NR_BUDGET_PER_STATE 50
/* The default memory limit of the search: this share of the memory the system has
 * available when the search starts (MemAvailable), so that a search that would
 * outgrow the machine stops with its best run instead of being killed. */
#define NR_MEMLIM_SHARE 0.75

/* The run around the graph, from the recorder. */
#define NR_MAX_WHY 12
typedef struct {
    const char *model;  /* the model as the reports name it (--model-name, else source) */
    const char *source; /* the model's source file (pan.h's PanSource), read for d_steps */
    int claim_type;     /* the never claim's proctype (-1: none): the trail header */
    bool merged;        /* SPIN merged statements (the trail's -4:-4:-4) */
    int base;           /* process slots before the first process: 1 with a claim */
    const char *search;
    const char *why[NR_MAX_WHY]; /* why the recorded graph may be incomplete */
    size_t nwhy;
    double states, transitions, seconds; /* pan's counts, time so far */
    /* the recorder put back messages SPIN's unrecv would have truncated: stock pan's
     * trails may be of runs that do not exist (sm_glue.c.inc's sm_pan_unrecv) */
    bool unrecv_restored;
} nr_context;

/* Everything at pan's exit: follows the trail, searches, explains, reports on out and
 * writes the files asked for (each whole or not at all).  Returns the exit status: 0,
 * or 1 for bad input (a trail that does not fit or ends in no violation, an
 * acceptance cycle), no successful run, out of memory, or an output that could not
 * be written (said on stderr). */
int nr_explain(cc_graph *g, nr_model *m, const nr_options *o, const nr_context *c, FILE *out);

/* Writes the recorded graph with every expanded state's values as text to path
 * (nr_graph.c gives the format), whole or not at all; 0, or -1 with err. */
int nr_graph_write(cc_graph *g, const nr_model *m, const char *path, u_err *err);

/* --weights WP,WA[,WC]: two or three decimal integers 0 .. NR_WEIGHT_MAX separated by
 * single commas, nothing else (no sign, space, empty or fourth field).  0 with the
 * weights (*wc = -1 when not given: the default), or -1 leaving them untouched. */
#define NR_WEIGHT_MAX 1000000
int nr_parse_weights(const char *v, long *wp, long *wa, long *wc);

/* --budget N and --memlim MB: a decimal number 0 .. max (a fraction allowed; no sign,
 * space, hex, inf or nan, nothing after it).  0 with *out, or -1 leaving it untouched. */
#define NR_BUDGET_MAX 1e15
#define NR_MEMLIM_MAX 1e9
int nr_parse_amount(const char *v, double max, double *out);

/* Checks the nearest options' output paths before the search; 0, or -1 with err. */
int nr_check_outputs(const nr_options *o, u_err *err);

/* ---- the alignment distance of two given runs (nr_align.c) ---- */

/* One step for the distance: its location (pid, proctype, pc), action (tid) and the
 * recorded state before it. */
typedef struct {
    int pid, proctype, pc, tid;
    uint32_t state;
} nr_step;

/* d(a, b) by the textbook dynamic programme over a's and b's steps, and one optimal
 * alignment: pair[j] = the a step aligned with b step j, or -1.  -1 when out of
 * memory (pair may be NULL). */
long nr_distance(const nr_model *m, const nr_step *a, size_t n, const nr_step *b, size_t k, long wp,
                 long wa, long wc, int32_t *pair);
/* The cost of the given alignment pair (as nr_distance's) of a and b: no minimum,
 * linear time and no memory; -1 if pair is no alignment (crossing, out of range or
 * at different locations). */
long nr_alignment_cost(const nr_model *m, const nr_step *a, size_t n, const nr_step *b, size_t k,
                       long wp, long wa, long wc, const int32_t *pair);
/* nr_distance's table beyond which a search stopped short measures its b by its own
 * alignment instead (the table takes a byte per pair of steps). */
#define NR_DP_MAX_BYTES ((size_t)1 << 30)

/* The number of variables that differ between two recorded states (Δp of a pair). */
size_t nr_diff(const nr_model *m, uint32_t s, uint32_t t);
/* |V(s)|. */
size_t nr_nvars(const nr_model *m, uint32_t s);
/* Process pid's proctype and control state in s; false when pid is not alive there. */
bool nr_location(const nr_model *m, uint32_t s, int pid, int *proctype, int *pc);

/* ---- pancause nearest (nr_cli.c) ---- */

int nr_main(int argc, char **argv);

#endif
