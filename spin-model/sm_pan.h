/*
 * sm_pan.h - the calls between the instrumented pan.c and the pancause library.
 *
 * Included twice over: by the library (through spinmodel.h), and by the instrumented
 * pan.c, right after its pan.h (sm_instrument.c puts `#define SM_PAN_GLUE` and this
 * include there).  So every hook has exactly one prototype, checked by the compiler
 * on both sides.  With SM_PAN_GLUE the second part declares the glue functions that
 * pan's edited code calls (defined in sm_glue.c.inc, which reads pan's globals and
 * types, and therefore only exists inside pan.c) and the macros the edits use.
 * This header depends on nothing of the project, because pan.c is compiled with
 * nothing but spin-model/ on its include path.
 */
#ifndef SM_PAN_H
#define SM_PAN_H

#include <stdbool.h>
#include <stdint.h>

/* An event label, from `spin -d`: the label of a statement at (proctype, state). */
typedef struct {
    char *proc;  /* proctype name as SPIN prints it */
    int state;   /* state number in that proctype (pan's program counter) */
    char *label; /* user label (reserved end/progress/accept labels are dropped) */
} sm_label;

/* ---- hooks: implemented in sm_hooks.c, called by the glue ---- */

/* The pan being run: search kind and what pan.c was compiled with. */
enum { SMH_DFS = 0, SMH_BFS = 1 };
enum {
    SMH_APPROX = 1,
    SMH_HAS_CLAIM = 2,
    SMH_BFS_RENDEZVOUS = 4,
    SMH_POR = 8,
    SMH_LIVE_CLAIM = 16,      /* an accepting state of the claim on a cycle (sm_pan_claim_shape) */
    SMH_NONDET_CLAIM = 32,    /* the claim may be in two states at once (sm_pan_claim_shape) */
    SMH_CLAIM_UNCHECKED = 64, /* -A, and the claim checks its property with an assert */
    SMH_XRXS = 128,           /* the model declares xr/xs channels (sm_pan_reduction) */
    SMH_HIDDEN = 256,         /* data pan keeps out of its states: hidden, unmatched c_track */
    SMH_CLAIM_BLOCKS = 512,   /* the never claim can block on a run (sm_pan_claim_shape) */
    SMH_CLAIM_SPLIT = 1024,   /* the claim's check is split: its assert a move after its guard */
    SMH_C_UNTRACKED = 2048,   /* C data outside pan's state: c_decl untracked, c_state Hidden */
    SMH_NOBOUNDCHECK = 4096,  /* -DNOBOUNDCHECK: array indices unchecked */
    SMH_NP_CLAIM = 8192,      /* the claim reads np_ (pan: of the move, not the state) */
    SMH_LOCAL_MERGED = 16384  /* SPIN merged on a `local` global another proctype uses */
};
/* The global of SMH_LOCAL_MERGED, for the reason's text (pan's string, kept). */
void smh_local_merged(const char *global);
void smh_begin(int search, int flags, const char *const *procnames, const sm_label *labels,
               int nlabels, const char *model);
/* A proctype/state move of process pid is tried; smh_tried gets do_transit's result.
 * pr (pan's process slot) and tid (the transition's t_id) name the move in a trail. */
void smh_try(int pid, int proctype, int state, int is_claim, long depth, int pr, int tid);
int smh_tried(int m);
/* The header of pan's trails: the never claim's proctype number (-1: no claim) and
 * whether SPIN merged statements. */
void smh_trail_header(int claim_type, int merged);
/* DFS: the search entered the state at depth (vector vec of len bytes, mode = pan's
 * search mode bits that change the successor set). */
void smh_dfs_down(long depth, const void *vec, int len, unsigned mode, int truncated);
/* The same for a state whose identity pan's own hash table keeps: id is what
 * smh_new_state() returned when pan first stored it. */
void smh_dfs_down_id(long depth, uint32_t id);
/* A fresh recorded state for pan's hash table entry; UINT32_MAX when out of memory. */
uint32_t smh_new_state(void);
/* Whether the state pan entered at depth came through smh_dfs_down_id. */
bool smh_dfs_keyless(long depth);
/* The node pan entered at depth, and whether this is its first expansion (its moves
 * are being recorded); UINT32_MAX when there is none. */
uint32_t smh_dfs_node(long depth, bool *fresh);
/* Makes the state vector in search mode `mode` name the node pan entered at depth
 * (when it names none yet): cc_graph_alias.  Returns the node it names (UINT32_MAX
 * when out of memory). */
uint32_t smh_dfs_alias(long depth, const void *vec, int len, unsigned mode);
/* The state pan entered at depth (in an atomic sequence that lost atomicity there) is
 * node n: the move into it becomes a move into n, and n is the state pan is in.
 * False when that move cannot be moved (nothing changes then). */
bool smh_dfs_rejoin(long depth, uint32_t n);
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
/* The same for a state pan matched (h_store found it) and will not expand again. */
void smh_bfs_store_seen(const void *vec, int len, unsigned mode);
void smh_bfs_group_end(void);
/* BFS with a never claim: the atomic sequence of the state taken from the queue
 * blocks.  pan stored that state without the claim's move (store_state's shortcut
 * inside atomic sequences) and now lets every process move, each move followed by the
 * claim's: the claim never looks at the state itself, and a violation there may go
 * unseen (pan's DFS lets the claim move first).  The result is incomplete. */
void smh_bfs_claim_skipped(void);
/* BFS: the never claim's move with transition id tid is tried inside store_state. */
void smh_claim_try(int tid);
int smh_claim_tried(int m);
/* DFS: the state at depth is mid-rendezvous and no receive can take the message:
 * pan undoes the send (it was no move) and goes back to the state at depth - 1. */
void smh_dfs_rv_failed(long depth);
/* pan undid a receive, and the message SPIN's unrecv() would have put back
 * differs from the one the receive took (sm_glue.c.inc's sm_pan_unrecv put the
 * right one back). */
void smh_unrecv_restored(void);
/* Whether a run may end in the state pan is in (DFS: just entered; BFS: just taken
 * from the queue): noend between a rendezvous' send and its receive (pan's boq) and
 * inside an atomic sequence whose process holds atomicity; may end again once that
 * sequence blocks and loses atomicity there (cc_graph_noend_state).  For the causes
 * and the nearest run alike. */
void smh_noend(bool noend);
/* pan reports an error (uerror); undoing: while it undoes a move (do_reverse). */
void smh_error(const char *msg, int undoing);
/* pan reports a fatal error (Uerror: it stops the search; uerror follows with the same
 * message): pan's own limit, not a violation of the model. */
void smh_fatal(const char *msg);
/* DFS: pan leaves a state at depth maxdepth-1 that has no move without checking it
 * for an end state: the search is cut there as beyond the depth limit.  Returns 1. */
int smh_depth_cut(void);
/* Whether label i of smh_begin's table named a move pan took (an event); true too
 * when this pan does not run -C, or its search was cut short (no note then). */
int smh_label_used(int i);
/* The glue switched pan's partial order reduction off for this model, and why
 * (sm_glue.c.inc's sm_pan_reduction; a note at the exit). */
void smh_por_off(const char *why);
/* Whether pan prints its line for the error msg (it prints only when the message
 * differs from the last): under -C the first time each message is met. */
int smh_error_shown(const char *msg);
/* pan's own counts (states stored and matched) and whether its search ran to the
 * end (pan's `done`: not stopped by -DMEMLIM, out of memory, -Q or a signal). */
void smh_stats(double states, double matched, int done);
/* pan is about to exit with *status: run the analysis, report, maybe change status. */
void smh_exit(int *status);

/* ---- the closest successful execution (./pan -C --nearest, nearest/) ---- */

/* One of pan's transitions as `spin -a` declared it in pan.t (the instrumenter copies
 * them into sm_pan_trans[]): proctype, the state whose list declares it (its home:
 * `spin -t -p` prints that state's source line for the step), t_id, statement text and
 * target state (for an IF/DO pseudo-transition: its option's first state). */
typedef struct {
    int proctype, state, tid;
    const char *text;
    int target;
} sm_trans;
/* The model's transitions and per proctype its states' source lines (src[p][state],
 * nstates[p] of them; NULL for a proctype without), named once before the search;
 * merge[k] = {proctype, state of a move, state of a statement SPIN merged into that
 * move}, nmerge rows, each move's in execution order (the instrumenter's
 * sm_pan_merge[] from pan.m). */
void smh_transitions(const sm_trans *t, int n, const short *const *src, const int *nstates,
                     int nproctypes, const int (*merge)[3], int nmerge);
/* The recorder asks the glue for the variables of the state pan is in (`now`) by
 * calling decode(); decode() reports them, in pan's own print order (c_globals(),
 * then c_locals() per process), through the calls below.  smh_decoder() is called
 * once, at the start, with the glue's decoder. */
void smh_decoder(void (*decode)(void));
/* The next scope: pid -1 for the globals, else process pid (pan's slot minus the
 * never claim's) of proctype at control state pc. */
void smh_val_scope(int pid, int proctype, int pc);
/* The next variable of the scope: args is the text of pan's printf() arguments that
 * printed it (the name comes from there), index its array index or -1, type pan's
 * type word ("byte", "mtype", ...). */
void smh_val(const char *args, const char *type, int index, int value);
/* The next variable is a channel: its name, id (qid) and contents, n ints: per
 * message its number of fields, then the fields (nr_val_chan). */
void smh_val_chan(const char *name, int qid, const int *fields, int n);
/* An mtype constant (for printing values by name). */
void smh_val_mtype(const char *name, int value);
/* The state's variables are complete; end: 1 when pan's endstate() holds there, 2 in
 * a mid-rendezvous state (no run ends there), else 0 (nearest.h's NR_END_*).  bad
 * != 0: the glue could not read them (an unexpected line of pan's printing). */
void smh_val_done(int end, int bad);

/* Defined by the glue, called by pan_main.c: why this pan cannot run -C (NULL: it
 * can). */
const char *sm_pan_refusal(void);
/* The model's file as pan.c names it (SPIN's PanSource). */
const char *sm_pan_model(void);

/* ---- inside the instrumented pan.c only ---- */
#ifdef SM_PAN_GLUE

/* pan's search-mode bits (Trail.tau) that the glue reads, named once here. */
#define SM_TAU_CLAIM   4   /* the never claim's turn (VERI's alternation) */
#define SM_TAU_ATOMIC  8   /* inside an atomic sequence: only process pr may move */
#define SM_TAU_STUTTER 128 /* the previous move was the never claim's stutter */

/* The glue (sm_glue.c.inc), called from the anchors sm_instrument.c edits. */
void sm_pan_try(int II, int ot, int tt, int tid);
void sm_pan_down(void);
void sm_pan_stored(int r);
/* Set by sm_pan_stored(): pan must expand the state although h_store() matched it
 * (an atomic sequence that blocked, see sm_glue.c.inc); read by new_state(). */
extern int sm_pan_reexplore;
void sm_pan_rv_failed(void);
/* BFS: whether -q's empty channels fail in a state where every process has ended. */
int sm_pan_bfs_strict_end(void);
int sm_pan_recv(int fld, int value);
int sm_pan_unrecv(int fld, int value);
void sm_pan_bfs_pop(void);
void sm_pan_bfs_atomic_lost(void);
void sm_pan_bfs_group_begin(void);
void sm_pan_bfs_store(void *successor);
int sm_pan_bfs_stored(Trail *f, int r);
void sm_pan_bfs_group_end(void);
void sm_pan_exit(int *val);
void *sm_pan_malloc(unsigned long n);
static H_el *sm_pan_hel;   /* the entry h_store() found or made */
static int sm_pan_undoing; /* pan is in do_reverse(), undoing a move (smh_error) */

/* A move tried in pan's search (both do_transit calls), and the never claim's move
 * tried inside BFS's store_state(). */
#ifdef HAS_UNLESS
/* The state whose label names move t: an unless escape is the escape statement's own
 * move (pan.t prepends copies of it, marked e_trans, to every state of the body), not
 * a move of the statement the process stands at (the sixth probe's P6-3). */
#define SM_EVENT_STATE(t) ((t)->e_trans ? (t)->e_trans : tt)
#else
#define SM_EVENT_STATE(t) tt
#endif
#define SM_TRANSIT(t, II)                                                                          \
    (sm_pan_try((II), ot, SM_EVENT_STATE(t), (t)->t_id), smh_tried(do_transit((t), (II))))
#define SM_CLAIM_TRANSIT(t2) (smh_claim_try((t2)->t_id), smh_claim_tried(do_transit((t2), 0)))

/* pan's own printing of the variables (c_globals, c_locals, c_chandump), with printf
 * and Printf turned into this capture (sm_instrument.c's anchors): args is the text of
 * the call's arguments, fmt the format.  It prints as printf does unless the glue's
 * decoder is running. */
int sm_pan_cap(const char *args, const char *fmt, ...);

#endif /* SM_PAN_GLUE */
#endif
