/* explain: red dots on a counterexample (Beer et al., "Explaining
 * Counterexamples Using Causality") -- the interface of `pancause explain`.
 *
 * A counterexample is read into an ex_trace (from SPIN's replay of a trail,
 * or from a NuSMV/nuXmv counterexample), then ex_explain finds the first
 * failure of the LTL formula on it (Definition 2), the causes of that
 * failure by Algorithm 6, and optionally decides each cause exactly
 * (Definition 4).  The renderers print the result as a terminal table,
 * JSON, or a self-contained HTML waveform viewer.
 */
#ifndef EXPLAIN_H
#define EXPLAIN_H

#include "ex_ltl.h" /* EX_DIALECT_SPIN, EX_DIALECT_SMV */
#include "ex_trace.h"
#include "util.h"

#include <stddef.h>
#include <stdio.h>

/* ---- the command ------------------------------------------------------------- */

/* `pancause explain ARGS...` (argv without the command words); returns the exit
 * status (ex_cli.c). */
int ex_main(int argc, char **argv);

/* ---- explaining ------------------------------------------------------------ */

typedef struct {
    int exact;          /* decide Definition 4 for every dot, and show how */
    long exact_budget;  /* search steps for --exact (ex_exact.h's units) */
    long refine_budget; /* search steps the default mode spends removing
                           candidates that are proven not to be causes */
    int algorithm6;     /* the paper's Algorithm 6 instead (not sound) */
    int max_nba_states; /* automaton budget for Definition 2 */
} ex_options;

#define EX_DEFAULT_EXACT_BUDGET  10000000L
#define EX_DEFAULT_REFINE_BUDGET 200000L
#define EX_DEFAULT_NBA_STATES    20000

typedef enum {
    EX_RESULT_FAILS,   /* explained: first_failure is k */
    EX_RESULT_INF,     /* explained: fails only on the infinite lasso */
    EX_RESULT_HOLDS,   /* nothing to explain: the formula holds */
    EX_RESULT_UNKNOWN, /* nothing to explain: finite trace does not decide it */
    EX_RESULT_SKIPPED  /* not explained (a CTL specification); note says why */
} ex_result;

typedef struct {
    size_t pos;  /* position in the (infinite) word, numbered from 0 */
    size_t step; /* the displayed trace step showing it (pos folded into the loop) */
    int var;     /* trace column */
    int exact;   /* 1 cause, 0 not a cause, -1 not decided (or not run) */
} ex_dot;

typedef struct {
    char *formula; /* as given */
    ex_result result;
    long first_failure; /* position in the word, -1 when none (infinite failure) */
    long first_shown;   /* the displayed step showing it, -1 when none */
    long loop_start;    /* -1 for a finite trace */
    ex_dot *dots;
    size_t ndots;
    int exact_ran;
    int *vars; /* trace columns the formula reads, in formula order */
    size_t nvars;
    char **props; /* the propositions, as text */
    size_t nprops;
    char note[1024]; /* what was approximated or remapped, empty if nothing */
} ex_explanation;

void ex_options_default(ex_options *o);

/* dialect: EX_DIALECT_SPIN or EX_DIALECT_SMV (see ex_ltl.h).  Returns 0 and
 * fills out (also for HOLDS/UNKNOWN), or -1 with a message in err (bad
 * formula, or out of memory). */
int ex_explain(ex_trace *t, const char *formula, int dialect, const ex_options *o,
               ex_explanation *out, char *err, size_t errlen);
void ex_explanation_free(ex_explanation *e);

/* ---- reading counterexamples ---------------------------------------------- */

/* Replays `trail` (NULL: MODEL.trail as pan names it) of `model` with the
 * spin executable `spin`.  Fills t and, unless formula is NULL, *formula:
 * ltl_name's formula, or the model's only ltl formula, or the claim the
 * trail was made with.  -1 with a message naming file and line. */
int ex_spin_load(const char *spin, const char *model, const char *trail, const char *ltl_name,
                 ex_trace *t, char **formula, char *err, size_t errlen);

/* Parses SPIN's `spin -t -p -g -l -w` output (initial: the `-u1` dump of
 * the initial state, may be NULL; dumps: the states right after the steps
 * that create a process, sorted by depth, may be none); 0, or -1 when out of
 * memory.  Exposed for tests and the fuzzer. */
typedef struct {
    char **ltl_names, **ltl_texts; /* ltl blocks as spin printed them */
    size_t nltl;
    char *claim;   /* name of the claim process in the final dump */
    long replayed; /* "trail ends after N steps", -1 if absent */
    int failed_transition;
    long failed_after; /* steps spin replayed before "transition failed" */
    char *error;       /* first error line spin printed, or NULL */
} ex_spin_info;
/* spin -t -u(depth+1): the whole state after the step of that depth, as
 * SPIN's final dump prints it (every process's locals, including those of a
 * process that has not moved yet, which the replay never prints). */
typedef struct {
    long depth;
    const char *text;
} ex_spin_dump;
int ex_spin_parse(FILE *initial, FILE *replay, const ex_spin_dump *dumps, size_t ndumps,
                  ex_trace *t, ex_spin_info *info);
/* The depths (ascending, distinct) of the replay's steps that start a
 * process (`run`): a "Starting" line before their step line.  0, or -1 when
 * out of memory; *depths is malloc'd (NULL when none). */
int ex_spin_creations(const char *replay_text, long **depths, size_t *n);
/* The step number SPIN printed (`spin -t -p`'s "  12:\tproc ...") for each
 * position p >= 1 of the trace ex_spin_parse makes of the same replay text:
 * (*nums)[p - 1].  A tool that puts explain's positions on a trail's steps
 * (pancause nearest --with-explain) counts them so, a process's termination
 * ("  4: proc 1 terminates") and the statements of one d_step included.  A
 * rendezvous and its receive are one position, numbered by the receive, when the
 * text is of a replay with -s (its "Sent" line tells a rendezvous; without -s each
 * is a position, and the count differs from explain's).  0, or -1 when out of
 * memory; *nums is malloc'd (NULL when none). */
int ex_spin_positions(const char *replay_text, long **nums, size_t *n);
/* The text after "proc " of a step line of `spin -t -p` ("  12:\tproc  1 (P:1) ...",
 * or a dump's process line, or "  8: proc 1 terminates"), or NULL for another line. */
const char *ex_spin_step_proc(const char *line);
/* Such a line's process: its pid, and for a step or dump line its proctype as SPIN
 * prints it (type, ntype: "B", ":init:", the name before the instance number) with rest
 * at its closing parenthesis.  1 for "proc  1 (B:1) ...", 2 for "proc 1 terminates"
 * (type NULL), 0 for another line (the never claim's "proc  -"). */
typedef struct {
    long pid;
    const char *type;
    size_t ntype;
    const char *rest;
} ex_spin_proc;
int ex_spin_proc_line(const char *line, ex_spin_proc *p);
/* Global channels of `spin -d`'s symbol table: each gets its column len(c)
 * (len(c[i]) for an array), 0 from the first state up to where the replay
 * first printed it (SPIN creates a global queue at its first use and prints
 * none before; a rendezvous channel is never printed and is always empty).
 * 0, or -1 when out of memory. */
int ex_spin_channels(const char *symtab_text, ex_trace *t);
void ex_spin_info_free(ex_spin_info *info);
/* Adds the model's mtype names as symbols, in the order of SPIN's numbers and with
 * them as their values (ex_trace_sym_set_value); -1 when out of memory. */
int ex_spin_mtypes(const char *model_text, ex_trace *t);
/* Checks a trail's text (pan's `depth:process:transition` lines; FILE:LINE
 * for any other line) and counts its moves into *steps; *line_of gets the
 * line of move number `which` (from 0), or 0.  0, or -1 with the message. */
int ex_trail_read(const char *text, const char *name, long which, long *steps, long *line_of,
                  char *err, size_t errlen);

/* One LTL specification of a NuSMV/nuXmv output: a false one with its
 * trace, or a true one (holds, empty trace) so that every specification of
 * the file gets its JSON record. */
typedef struct {
    char *formula;
    int line;         /* of the "-- specification" line */
    int holds;        /* NuSMV says it is true; trace is empty */
    const char *skip; /* why it cannot be explained (CTL), or NULL */
    ex_trace trace;
} ex_smv_cex;

/* Returns 0 with *out (n entries, possibly 0), or -1 with "FILE:LINE: ..." */
int ex_nusmv_load(FILE *in, const char *name, ex_smv_cex **out, size_t *n, char *err,
                  size_t errlen);
void ex_nusmv_free(ex_smv_cex *c, size_t n);

/* ---- output ----------------------------------------------------------------- */

/* Table: one row per step.  color: ANSI red dots; else a '*' marks a dot.
 * all_vars: every trace variable, not only the formula's. */
/* 0, or -1 when out of memory. */
int ex_render_table(FILE *o, const ex_trace *t, const ex_explanation *e, int color, int all_vars);
/* One JSON line per explanation, for every specification (README Output). */
void ex_render_json(FILE *o, const ex_trace *t, const ex_explanation *e);
/* Self-contained HTML page with one waveform view per explanation. */
void ex_render_html(FILE *o, const ex_trace *const *traces, const ex_explanation *const *ex,
                    size_t n, int all_vars);

#endif
