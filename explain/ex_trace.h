/* ex_trace: a counterexample as a matrix of values, steps by variables.
 *
 * Readers (SPIN replay, NuSMV) add steps that start as copies of the
 * previous one and then set what the tool printed, so tools that print only
 * changes (NuSMV) and tools that print only the moving process's locals
 * (SPIN) both yield complete states.  A trace with loop_start >= 0 is a
 * lasso: as the tools print it, the last state repeats the loop start state
 * (ex_trace_lasso says how many states form the lasso proper).  Symbolic
 * values (mtype names, NuSMV enums) are interned as codes EX_SYM_BASE + i.
 * Readers see input of any size, so every lookup is a hash lookup (a trace
 * with millions of distinct symbols is read in linear time) and out of memory
 * is a return value (-1), which the readers turn into a message.
 */
#ifndef EX_TRACE_H
#define EX_TRACE_H

#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EX_SYM_BASE ((int64_t)1 << 52)
#define EX_NO_VALUE INT64_MIN

/* A variable is undefined (shown `-`, evaluated as the 0 stored there) before
 * defined_from and in its gaps: a SPIN local after its process ended, until a new
 * process with the same pid prints it again (pan zeroes an ended process's slot). */
typedef struct {
    char *name;
    int64_t *v;          /* v[step] */
    size_t defined_from; /* steps before this had no printed value */
    size_t (*gaps)[2];   /* [from, to): undefined steps after defined_from, ascending */
    size_t ngaps, capgaps;
    size_t gap_open; /* undefined from this step on (SIZE_MAX: defined) */
} ex_var;

/* Where each process is, per step (SPIN traces; ex_loc.c). */
typedef struct ex_locs ex_locs;

typedef struct {
    ex_var *vars;
    size_t nvars, capvars;
    size_t nsteps, capsteps;
    long loop_start; /* -1: finite trace */
    char **syms;     /* syms[i]: the name of symbol code EX_SYM_BASE + i */
    size_t nsyms, capsyms;
    /* NULL, or symval[i] (i < nsymval, its allocated length): the value the tool
     * computes with for symbol i, SPIN's number of an mtype name; EX_NO_VALUE for none
     * (NuSMV's enums) */
    int64_t *symval;
    size_t nsymval;
    u_intern symtab; /* name -> i */
    int *vhash;      /* name -> var index, open addressing */
    size_t vhcap;
    ex_locs *locs; /* NULL: the reader gave no process locations */
    /* NULL, or per step: a state inside an atomic sequence, which the never claim the
     * trail was made with does not observe (SPIN traces) */
    bool *unseen;
} ex_trace;

void ex_trace_init(ex_trace *t);
void ex_trace_free(ex_trace *t);

/* Index of the named variable, creating it (value 0, undefined so far); -1
 * when out of memory. */
int ex_trace_var(ex_trace *t, const char *name);
int ex_trace_find(const ex_trace *t, const char *name);

/* Appends a step equal to the previous one (all zero for the first); 0, or -1
 * when out of memory (the trace is unchanged). */
int ex_trace_add_step(ex_trace *t);
/* Sets a value in the last step (adding the first step if there is none);
 * 0, or -1 when out of memory. */
int ex_trace_set(ex_trace *t, int var, int64_t v);

/* From the last step on the variable is undefined with value 0, until ex_trace_set
 * sets it again; 0, or -1 when out of memory. */
int ex_trace_undefine(ex_trace *t, int var);
/* Whether the variable has a value at step (not before defined_from, not in a gap). */
bool ex_trace_defined(const ex_trace *t, int var, size_t step);

/* Code of the symbol, interning it; -1 when out of memory. */
int64_t ex_trace_sym(ex_trace *t, const char *name);
/* Gives symbol `code` the value the tool computes with (SPIN's number of an mtype
 * name): formulas compare and compute with it, the table shows the name.  0, or -1
 * when out of memory. */
int ex_trace_sym_set_value(ex_trace *t, int64_t code, int64_t value);
/* What a formula computes with for the stored value x: a symbol's value when it has
 * one, else x itself. */
int64_t ex_trace_eval_value(const ex_trace *t, int64_t x);
/* Code of a known symbol, or -1. */
int64_t ex_trace_find_sym(const ex_trace *t, const char *name);
/* Writes the value as the tool printed it. */
void ex_trace_value_text(const ex_trace *t, int var, size_t step, char *buf, size_t n);

/* States of the lasso proper: nsteps, or nsteps - 1 when the last state
 * repeats the loop start state. */
size_t ex_trace_lasso_len(const ex_trace *t);

/* ---- process locations (ex_loc.c), for SPIN's remote label references P[k]@L ----
 * A reader reports, in the order of the replay, for trace position `step`: a listing of
 * every running process (ex_locs_begin, then each listed line; or a dump's whole text,
 * ex_locs_listing, from its "#processes:" line), and each step line (a move, or "proc N
 * terminates").  Lines of another shape are skipped.  0, or -1 when out of memory. */
int ex_locs_begin(ex_trace *t, size_t step);
int ex_locs_line(ex_trace *t, size_t step, const char *line, bool listed);
int ex_locs_listing(ex_trace *t, size_t step, const char *text);
/* The labels' states from `spin -d`'s symbol table; 0, or -1 out of memory. */
int ex_locs_labels(ex_trace *t, const char *symtab);
/* The 0/1 column of `P[k]@L` or `P@L` (as the formula parser writes the name): its
 * variable index, or -1 with a message in err (no such label, no locations, pid k
 * running another proctype, out of memory). */
int ex_locs_column(ex_trace *t, const char *name, char *err, size_t errlen);
void ex_locs_free(ex_locs *l);

#endif
