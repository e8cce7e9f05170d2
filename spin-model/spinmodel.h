/*
 * spinmodel.h - the SPIN side of pancause: how pan.c gets its hooks.
 *
 * `make pan` compiles SPIN's generated pan.c twice into one ./pan: once untouched
 * (stock pan, entered without -C) and once instrumented (entered with -C).  The
 * instrumented copy is made by sm_instrument(): a checked source transformation that
 * inserts calls at a few anchor points of pan's search and appends sm_glue.c.inc,
 * which reads pan's globals and calls the smh_* hooks of sm_pan.h.  The hooks record
 * the explored transition graph into the causality module; at pan's exit the
 * causality analysis runs and report/ writes the result.  This header (with
 * sm_pan.h, the part pan.c sees too) is the module's whole interface.
 */
#ifndef SPINMODEL_H
#define SPINMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nearest.h"
#include "report.h"
#include "sm_pan.h"
#include "util.h"

/* ---- source transformation (used by the pancause-instrument program) ---- */

/* Instruments pan.c.  pan_c is the generated source, labels the output of `spin -d`
 * on the same model, pan_t and pan_m SPIN's pan.t and pan.m beside it (pan.t's
 * transitions become the table sm_pan_trans[], the statements pan.m merges into a
 * move the table sm_pan_merge[]; NULL: an empty table), glue_path the path of
 * sm_glue.c.inc to #include.  On success returns 0 and a malloc'd *out; on failure
 * returns -1 with err saying which anchor did not match (nothing is half-made). */
int sm_instrument(const char *pan_c, const char *labels, const char *pan_t, const char *pan_m,
                  const char *glue_path, char **out, u_err *err);
/* Instruments pan.h into the pan_cause.h that the instrumented pan.c includes: pan's
 * hash table entry and search frame get two words for the recorded state.  Same
 * contract. */
int sm_instrument_header(const char *pan_h, char **out, u_err *err);
/* Whether pan.h declares a hidden variable (a global no statement reads, kept out of
 * the state vector as a C variable) named like a local variable of pan's search, which
 * would hide it where the model's statements run, and pan.m's code assigns it (pan_m
 * NULL: assume so); its name into name (cap bytes). */
bool sm_hidden_clash(const char *pan_h, const char *pan_m, char *name, size_t cap);

/* ---- event labels (from `spin -d`, sm_labels.c) ---- */

/* Parses `spin -d` output; returns the number of labels, *out malloc'd, or -1 when
 * out of memory. */
int sm_labels_parse(const char *text, sm_label **out);
void sm_labels_free(sm_label *l, int n);
/* The name a qualified event (Proc.L, Proc[pid].L) gives proctype proc: "init" for
 * SPIN's ":init:", which is no name an event order formula can hold; proc otherwise. */
const char *sm_event_proc(const char *proc);
/* True for SPIN's reserved label prefixes, which never name events. */
int sm_label_reserved(const char *label);
/* The global channels' names in `spin -d` output (count, *out malloc'd, or -1 when
 * out of memory), and for each whether it is a rendezvous channel ((*zero)[i]: its
 * capacity is 0); *all_global is 0 when some channel is not global (a local, a
 * parameter, a field), whose name may then alias a global one. */
int sm_chans_parse(const char *text, char ***out, unsigned char **zero, int *all_global);
void sm_chans_free(char **c, unsigned char *zero, int n);
/* The global variables' names in `spin -d` output (arrays without their bounds; not
 * channels, proctypes, labels, nor mtype names, which SPIN lists as constants): count,
 * *out malloc'd (free with sm_chans_free(*out, NULL, n)), or -1 out of memory. */
int sm_globals_parse(const char *text, char ***out);

/* The hooks the instrumented pan.c calls (sm_hooks.c) are declared in sm_pan.h. */

/* ---- the nearest search's values (sm_values.c, used by sm_hooks.c) ---- */

/* Starts recording values (procnames: pan's).  -1 when out of memory. */
int sm_values_begin(const char *const *procnames);
/* The glue decodes pan's current state as recorded state id. */
void sm_values_capture(uint32_t id);
nr_model *sm_values_model(void);
/* Why the values could not be recorded, or NULL. */
const char *sm_values_error(void);
void sm_values_end(void);

/* ---- pan's main ---- */

/* What `./pan -C` was asked for (set by sm_main before pan's search starts). */
typedef struct {
    rp_request out;   /* the files the user asked for (report.h's writer table) */
    rp_probs *probs;  /* --probabilities FILE, read and checked before the search;
                         freed by smh_exit */
    int ac2;          /* AC2(2) non-occurrence test (off with --no-ac2) */
    int color;        /* UTF-8 terminal: also print the Unicode form */
    double budget;    /* --budget N: history nodes per search (0 = no limit, -1 = the
                         default, SMH_BUDGET_MIN or SMH_BUDGET_PER_STATE per state) */
    int exact;        /* --exact-states: full state keys instead of fingerprints */
    unsigned noprune; /* --no-prune WHAT: CC_NOPRUNE_* bits */
    int one_thread;   /* --one-thread: the analysis on pan's thread only */
    double start;     /* monotonic seconds at start */
    int nearest_on;   /* --nearest TRAIL: the closest successful execution instead of
                         the causes (nearest/) */
    nr_options nearest;
} smh_config;
void smh_configure(const smh_config *c);

/* The default history budget: enough for the airbag family at 10^7 states (about 2
 * history nodes per recorded state) with room to spare, while a history explosion
 * (BEEM bakery.1: millions of nodes over 1,485 states) still ends, INCOMPLETE, before
 * it exhausts the machine.  A node costs some 40 bytes at the peak. */
#define SMH_BUDGET_MIN       5e6
#define SMH_BUDGET_PER_STATE 4

/* ./pan's main: dispatches to stock pan or to causality checking (-C); model is the
 * model's file as pan.c names it (no output may overwrite it). */
int sm_main(int argc, char **argv, int (*stock_main)(int, char **),
            int (*causal_main)(int, char **), const char *refusal, const char *model);

#endif
