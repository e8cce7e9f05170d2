/*
 * spinmodel.h - the SPIN side of pancause: how pan.c gets its hooks.
 *
 * `make pan` compiles SPIN's generated pan.c twice into one ./pan: once untouched
 * (stock pan, entered without -C) and once instrumented (entered with -C).  The
 * instrumented copy is made by sm_instrument(): a checked source transformation that
 * inserts calls at a few anchor points of pan's search and appends sm_glue.c.inc,
 * which reads pan's globals and calls the smh_* hooks below.  The hooks record the
 * explored transition graph into the causality module; at pan's exit the causality
 * analysis runs and reports.  This header is the module's whole interface.
 */
#ifndef SPINMODEL_H
#define SPINMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- source transformation (used by the pancause-instrument program) ---- */

/* Instruments pan.c.  pan_c is the generated source, labels the output of `spin -d`
 * on the same model, glue_path the path of sm_glue.c.inc to #include.  On success
 * returns 0 and a malloc'd *out; on failure returns -1 and a malloc'd *err saying
 * which anchor did not match. */
int sm_instrument(const char *pan_c, const char *labels, const char *glue_path, char **out,
                  char **err);
/* Instruments pan.h into the pan_cause.h that the instrumented pan.c includes: pan's
 * hash table entry gets two words for the recorded state.  Same contract. */
int sm_instrument_header(const char *pan_h, char **out, char **err);

/* ---- event labels (from `spin -d`) ---- */

typedef struct {
    char *proc;  /* proctype name as SPIN prints it */
    int state;   /* state number in that proctype */
    char *label; /* user label (reserved end/progress/accept labels are dropped) */
} sm_label;

/* Parses `spin -d` output; returns the number of labels, *out malloc'd. */
int sm_labels_parse(const char *text, sm_label **out);
void sm_labels_free(sm_label *l, int n);
/* True for SPIN's reserved label prefixes, which never name events. */
int sm_label_reserved(const char *label);

/* ---- hooks called from the instrumented pan.c (through sm_glue.c.inc) ---- */

/* The pan being run: search kind and what pan.c was compiled with. */
enum { SMH_DFS = 0, SMH_BFS = 1 };
enum { SMH_APPROX = 1, SMH_HAS_CLAIM = 2 };
void smh_begin(int search, int flags, const char *const *procnames, const sm_label *labels,
               int nlabels, const char *model);
/* A proctype/state move of process pid is tried; smh_tried gets do_transit's result.
 * pr (pan's process slot) and tid (the transition's t_id) name the move in a trail. */
void smh_try(int pid, int proctype, int state, int is_claim, long depth, int pr, int tid);
/* The header of pan's trails: the never claim's proctype number (-1: no claim) and
 * whether SPIN merged statements. */
void smh_trail_header(int claim_type, int merged);
int smh_tried(int m);
/* DFS: the search entered the state at depth (vector vec of len bytes, mode = pan's
 * search mode bits that change the successor set). */
void smh_dfs_down(long depth, const void *vec, int len, unsigned mode, int truncated);
/* The same for a state whose identity pan's own hash table keeps: id is what
 * smh_new_state() returned when pan first stored it (UINT32_MAX: out of memory). */
void smh_dfs_down_id(long depth, uint32_t id);
uint32_t smh_new_state(void);
/* Whether the state pan entered at depth came through smh_dfs_down_id. */
bool smh_dfs_keyless(long depth);
/* DFS: pan entered, after a claim move of the keyless state at depth - 1, a state it
 * does not store (and so explores in full on every visit): a keyless node too, one
 * per distinct state among that parent's claim moves. */
void smh_dfs_down_claim(long depth, const void *vec, int len, unsigned mode);
/* BFS: a state was taken from the queue; successors of one move are stored. */
void smh_bfs_pop(const void *vec, int len, unsigned mode, int truncated);
void smh_bfs_group_begin(const void *vec, int len);
void smh_bfs_store(const void *vec, int len, unsigned mode);
/* The same for states whose id pan's hash table entry or queue frame keeps. */
void smh_bfs_pop_id(uint32_t id, int truncated);
void smh_bfs_store_id(uint32_t id);
void smh_bfs_group_end(void);
/* BFS: the never claim's move with transition id tid is tried inside store_state. */
void smh_claim_try(int tid);
int smh_claim_tried(int m);
/* pan reports an error (uerror). */
void smh_error(const char *msg);
/* pan's own counts (states stored and matched) and whether its search ran to the
 * end (pan's `done`: not stopped by -DMEMLIM, out of memory, -Q or a signal). */
void smh_stats(double states, double matched, int done);
/* pan is about to exit with *status: run the analysis, report, maybe change status. */
void smh_exit(int *status);

/* ---- pan's main ---- */

/* What `./pan -C` was asked for (set by sm_main before pan's search starts). */
typedef struct {
    const char *json;   /* --json FILE, or NULL */
    const char *trails; /* --trails DIR: one trail per cause, or NULL */
    const char *tree;   /* --fault-tree FILE (.dot, .xml, .json), or NULL */
    const char *html;   /* --html FILE, or NULL */
    const char *prob;   /* --probabilities FILE, or NULL */
    int ac2;            /* AC2(2) non-occurrence test (off with --no-ac2) */
    int color;          /* UTF-8 terminal: also print the Unicode form */
    double budget;      /* --budget N: history nodes per search (0 = no limit, -1 = the
                           default, SMH_BUDGET_MIN or SMH_BUDGET_PER_STATE per state) */
    int exact;          /* --exact-states: full state keys instead of fingerprints */
    unsigned noprune;   /* --no-prune WHAT: CC_NOPRUNE_* bits */
    double start;       /* monotonic seconds at start */
} smh_config;
void smh_configure(const smh_config *c);

/* The default history budget: enough for the airbag family at 10^7 states (about 2
 * history nodes per recorded state) with room to spare, while a history explosion
 * (BEEM bakery.1: millions of nodes over 1,485 states) still ends, INCOMPLETE, before
 * it exhausts the machine.  A node costs some 40 bytes at the peak. */
#define SMH_BUDGET_MIN       5e6
#define SMH_BUDGET_PER_STATE 4

/* ./pan's main: dispatches to stock pan or to causality checking (-C). */
int sm_main(int argc, char **argv, int (*stock_main)(int, char **),
            int (*causal_main)(int, char **));

#endif
