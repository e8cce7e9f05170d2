/*
 * nr_internal.h - shared between the files of nearest/ only: the model's variables and
 * per-state values (nr_model.c), the runs a and b, the search's result and the
 * explanation (Δs and slice) that the writers print.
 */
#ifndef NR_INTERNAL_H
#define NR_INTERNAL_H

#include "nearest.h"

#define NR_NONE UINT32_MAX

/* ---- variables and values (nr_model.c) ---- */

enum { NR_V_INT, NR_V_MTYPE, NR_V_CHAN, NR_V_PC };

typedef struct {
    char *name;   /* "x", "a[2]", "r.f", "P(1):x", a channel's name; "P(1):pc" */
    char *base;   /* the declared name the statements use ("a" for "a[2]") */
    int pid;      /* owner process, -1 for a global */
    int proctype; /* its proctype, -1 for a global */
    uint8_t kind; /* NR_V_* */
} nr_var;

/* The variables a scope prints, by position (position 0 of a process: its pc). */
typedef struct {
    int pid, proctype;
    uint32_t *var;
    size_t n, cap;
} nr_scope;

/* The variables of a set of states, sorted: regular variables by id, then the pcs by
 * id.  Invariant: var[0 .. nreg) are no NR_V_PC, var[nreg .. n) are. */
typedef struct {
    const uint32_t *var; /* the interned key */
    uint32_t n, nreg;
} nr_layout;

struct nr_model {
    const char *const *procnames;
    int nprocs;
    const short *const *src;
    const int *nstates;
    const nr_trans *trans;
    size_t ntrans;
    int **tid_at; /* [proctype][tid] -> index into trans, -1 */
    int *tid_len;
    /* the statements merged into transition t (nr_model_merges): the trans indices
     * mhop[mfirst[t] .. mfirst[t + 1]), in execution order; mfirst NULL: none */
    int *mfirst, *mhop;
    nr_var *var;
    size_t nvars, varcap;
    nr_scope *scope;
    size_t nscopes, scopecap;
    u_map scope_of; /* (pid + 1) << 32 | (proctype + 1) -> scope index */
    struct {
        char *name;
        int value;
    } * mtype;
    size_t nmtypes, mtypecap;
    u_intern chans; /* a channel's value: the id of (qid, fields...) */
    /* per variable id: 1 + the chans id its channel had in the state decoded last
     * (0: none yet), tried before the table: most channels do not change per move */
    uint32_t *chan_last;
    size_t chan_lastcap;
    u_intern layouts;
    nr_layout *lay;
    size_t nlay, laycap;
    /* per recorded state: layout (NR_NONE: no values), offset of its values, valid end */
    uint32_t *lay_of, *off;
    uint8_t *vend; /* per state: NR_END_* */
    size_t statecap;
    int32_t *val;
    size_t nval, valcap;
    /* the state being decoded */
    uint32_t *cur_var;
    int32_t *cur_val;
    size_t ncur, curcap;
    /* the previous state's variables as they arrived (unsorted), its layout, and where
     * sorting put each (perm): a state whose variables arrive in the same sequence, as
     * nearly every one does, is stored through perm without sorting or interning */
    uint32_t *prev_var, *perm;
    size_t nprev, prevcap;
    uint32_t prev_lay;
    size_t cur_scope;
    size_t cur_k;
    bool cur_bad, oom;
    const char *bad_what;    /* the first variable the decoder could not place */
    const char *source_path; /* the model's source file (d_step bodies) */
    char *source;            /* its text, loaded on demand */
    bool source_tried;
};

/* The values of state s: *lay and the array (nr_model_has(s) must hold). */
const nr_layout *nr_layout_of(const nr_model *m, uint32_t s, const int32_t **val);
/* Display text of value v of variable id (mtype names, channel contents); fresh. */
char *nr_value_text(const nr_model *m, uint32_t var, int32_t v);
/* The value of var in s, false when it does not exist there. */
bool nr_value(const nr_model *m, uint32_t s, uint32_t var, int32_t *v);
/* The transition (proctype, tid): its index in m->trans, or -1. */
int nr_trans_of(const nr_model *m, int proctype, int tid);
/* Source line of (proctype, tid) (0 unknown) and its text ("?" unknown). */
int nr_line(const nr_model *m, int proctype, int tid);
const char *nr_text(const nr_model *m, int proctype, int tid);
/* The statements SPIN merged into the move (proctype, tid) (`spin -t -p` prints each
 * on a line of its own under the move's step number): their number, and *hops their
 * indices in m->trans, in execution order. */
size_t nr_merged(const nr_model *m, int proctype, int tid, const int **hops);
/* Source line of m->trans[t] (0 unknown). */
int nr_trans_line(const nr_model *m, int t);
/* The variables a statement reads, as far as its text tells (identifiers resolved in
 * process pid's scope, then the globals; a d_step's body from the model's source):
 * appended to *out (each once, in the order the text names them).  -1 when out of
 * memory.  The move's first statement only: what its decision (the condition that
 * let it run) read. */
int nr_reads(nr_model *m, int pid, int proctype, int tid, uint32_t **out, size_t *n);
/* What the statements merged into the move read, appended alike: with nr_reads', what
 * the values the move writes, and an assert merged into it, depend on. */
int nr_reads_merged(nr_model *m, int pid, int proctype, int tid, uint32_t **out, size_t *n);
/* The line of the last statement of the move (proctype, tid), its first or one merged
 * into it, whose text writes variable var (an assignment's target, a receive's field,
 * the channel of a send or receive); 0 when no text says so (a d_step, a channel
 * reached through a parameter): then the move's every line stands for it. */
int nr_writer_line(const nr_model *m, int proctype, int tid, uint32_t var);
const char *nr_proc_name(const nr_model *m, int proctype);

/* ---- --assume (nr_assume.c) ---- */

typedef struct nr_assume nr_assume;
/* The expression's tree; 0, or -1 with err (its column) and *out NULL. */
int nr_assume_parse(const char *text, nr_assume **out, u_err *err);
/* Its names resolved against m's variables (m must outlive A); 0, or -1 with err (a
 * name the model lacks, an ambiguous process, a channel used as a number). */
int nr_assume_bind(nr_assume *A, const nr_model *m, u_err *err);
/* Whether it holds in recorded state s: 1, 0, or -1 where it is unknown there (a
 * variable it needs does not exist; then it does not restrict s: the file's comment). */
int nr_assume_holds(const nr_assume *A, uint32_t s);
void nr_assume_free(nr_assume *A);

/* ---- the runs (nr_trail.c) ---- */

/* A run through the recorded graph: every move of pan (claim moves included) and
 * its system steps.  Invariant: state[k] is the state before move[k]; state[nmoves]
 * is the last state, NR_NONE when the last move violated (an edge into CC_SINK). */
typedef struct {
    uint32_t *move;  /* graph edges */
    uint32_t *state; /* nmoves + 1 */
    size_t nmoves;
    nr_step *step;   /* the system steps */
    size_t *move_of; /* per step: its index in move[] */
    cc_step *pan;    /* per step: pan's (slot, t_id) */
    size_t n;
    const char *end; /* how it ends: the violation, or "settled"/"valid end state" */
} nr_path;

void nr_path_free(nr_path *p);
/* Fills steps from moves (locations from the states' values). -1 out of memory. */
int nr_path_steps(const cc_graph *g, const nr_model *m, int base, nr_path *p);
/* Follows the trail file through g: 0 with *a, or -1 with err naming the file and
 * line (a move that is no move of the recorded graph, a header of another claim, an
 * acceptance cycle, a run that does not end in a violation). */
int nr_follow(const cc_graph *g, const uint8_t *sf, const nr_model *m, const char *path,
              const nr_context *c, nr_path *a, u_err *err);

/* ---- the search (nr_search.c) ---- */

typedef struct {
    const cc_graph *g;
    const uint8_t *sf; /* cc_derive_flags */
    const nr_model *m;
    const nr_path *a;
    long wp, wa, wc;
    int base;
    size_t budget;     /* expansions; 0 none */
    size_t mem_cap;    /* bytes the search may hold (--memlim); 0 none */
    bool run_to_end;   /* good ends are valid end states only (--run-to-end) */
    const uint8_t *ok; /* per state: 0 where --assume fails (b may not enter it); NULL:
                          no assumption */
} nr_query;

/* Why a search that found some b is not exact. */
enum { NR_STOP_NONE, NR_STOP_BUDGET, NR_STOP_MEMORY };

typedef struct {
    bool found;         /* some successful run exists (and b is one) */
    bool exact;         /* b is nearest: the search ended, or it stopped with a b no
                           farther than its lower bound */
    int stop;           /* NR_STOP_*: what stopped the search before its end (with exact:
                           after it had found b and proved it nearest) */
    bool cap_hit;       /* NR_STOP_MEMORY by q->mem_cap (else an allocation failed) */
    bool own_alignment; /* not exact, and b too long for the DP within the memory: the
                           distance is that of the search's own alignment of b */
    long distance;      /* d(a, b) */
    long lower;         /* no successful run is nearer than this (exact: the distance) */
    nr_path b;
    int32_t *pair; /* per b step: the a step aligned with it, or -1 */
    /* b is a lasso (README "The closest successful execution: definitions"): the model
     * has no finite successful run, and b is an infinite run stem·loop^ω, given as its
     * stem and one pass of the loop: moves loop_move .. nmoves-1 lead from
     * state[loop_move] back to it (state[nmoves] == state[loop_move]); loop_step is
     * the first step of b in the loop (there is one). */
    bool lasso;
    size_t loop_move, loop_step;
    bool lasso_too_big; /* no finite run, and the lasso search's keys would not fit */
    size_t expanded;    /* search nodes expanded */
    size_t nodes;       /* search nodes made */
    size_t bytes;       /* the search's peak memory */
} nr_found;

int nr_search(const nr_query *q, nr_found *f);
void nr_found_free(nr_found *f);
/* A good end of a finite b: settled or a valid end state (with run_to_end: a valid end
 * state only), with values, not bad. */
bool nr_good_end(const nr_query *q, uint32_t s);

/* ---- rows: the alignment as one sequence (nr_align.c) ---- */

/* A row: a's step i and b's step j aligned, or one of them alone (-1 for the other).
 * Per aligned pair, a's unaligned steps before it come first, then b's. */
typedef struct {
    long i, j;
} nr_row;

int nr_rows(size_t na, size_t nb, const int32_t *pair, nr_row **rows, size_t *n);

/* ---- the explanation (nr_delta.c) ---- */

enum { NR_D_VALUE, NR_D_ACTION, NR_D_DELETED, NR_D_INSERTED };

typedef struct {
    int kind;
    long step_a, step_b; /* 0-based steps, -1 none */
    uint32_t var;        /* NR_D_VALUE */
    int32_t value_a, value_b;
    bool has_a, has_b; /* the variable exists in a's / b's state */
    size_t steps;      /* NR_D_VALUE: consecutive aligned pairs it lasts (sums to Δp) */
    int line, line_b;  /* the source line (a's step, or the step that made the values
                          differ); line_b: b's line of a changed action */
    int pt, tid;       /* the move whose line `line` is (-1: none): its merged statements'
                          lines are the Δ's too (slice_lines) */
    int pt_b, tid_b;   /* the same for line_b */
    uint32_t *dep;     /* the Δs it depends on (indices) */
    size_t ndep, depcap;
    bool in_slice;
} nr_delta;

typedef struct {
    nr_delta *d;
    size_t n, cap;
    size_t dp, da, dc_a, dc_b; /* the distance's terms */
    size_t nslice;
    size_t nvia; /* aligned pairs with equal actions a dependence of the slice passes */
    int *lines;  /* the slice's source lines (its Δs' and those pairs', each move's with
                    the statements SPIN merged into it), sorted, unique */
    size_t nlines;
} nr_deltas;

int nr_deltas_build(const cc_graph *g, nr_model *m, const nr_path *a, const nr_found *f,
                    const nr_context *c, nr_deltas *d);
void nr_deltas_free(nr_deltas *d);

/* ---- the reports (nr_text.c, nr_json.c, nr_html.c) ---- */

typedef struct {
    const nr_model *m;
    const nr_options *o;
    const nr_context *c;
    const cc_graph *g;
    const nr_path *a;
    const nr_found *f;
    const nr_deltas *d;
    char *a_end; /* how a ends (the violation) */
    long wp, wa, wc;
    char *trail_text;     /* b as a SPIN trail */
    size_t assume_broken; /* 0: a keeps to every --assume; else a's first state where one
                             fails: the one before its step k (from 1), or, k = its
                             length + 1, its last state */
    double seconds, peak_mb, search_seconds;
} nr_report;

int nr_text_report(FILE *f, const nr_report *r);
int nr_json_write(FILE *f, const void *r);
int nr_html_write(FILE *f, const void *r);
/* b's trail text (pan's format); NULL with *why when out of memory (or, on a guessing
 * claim's graph, when no recorded run follows b: a bug). */
char *nr_trail_text(const nr_report *r, const char **why);
/* Adds `pancause explain`'s dots (explain) and `./pan -C`'s causes (causes: pan run
 * in w with options pan) for the trail of model to the nearest page html (nr_marks.c);
 * 0, or -1 with err (the page is then unchanged). */
int nr_marks_add(const char *html, const char *w, const char *model, const char *trail,
                 bool explain, bool causes, char *const *pan, int npan, u_err *err);
/* One-line display of step k of run p: "P(0) line 13: x = 1". */
char *nr_step_text(const nr_model *m, const nr_path *p, size_t k);
/* How b ends: "a valid end state" or "a settled state". */
const char *nr_b_end(const nr_report *r);
/* Whether the result can be vouched for: the search ran to its end, on a recorded
 * graph that pan's search did not leave incomplete.  On an incomplete graph the search
 * is exact over the graph only: a nearer successful run may exist, and b may end
 * where the graph lost moves (nearest oracle, RICH seed 51 with pan's BFS). */
bool nr_exact(const nr_report *r);
/* Whether b is only a with its last steps cut, ending at a merely settled state (the
 * reports then point at --run-to-end). */
bool nr_cut_short(const nr_report *r);
/* The note that a breaks --assume (fresh), NULL when it keeps to it. */
char *nr_assume_note(const nr_report *r);
/* Display text of a value of a Δ ("absent" when the variable does not exist). */
char *nr_delta_value(const nr_model *m, const nr_delta *d, bool b);

#endif
