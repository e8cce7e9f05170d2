/*
 * sm_hooks.c - what pan's search tells pancause, and what pancause does with it.
 *
 * The instrumented pan calls these hooks (sm_pan.h, through sm_glue.c.inc).  They
 * record the explored graph: a state when pan enters it (DFS) or takes it from the
 * queue (BFS), an edge for every move out of a state the first time that state is
 * expanded, an edge into CC_SINK or a bad state when pan reports an error, and which
 * moves are events (the move's source location carries a user label).  At pan's
 * exit smh_exit() names the events, runs the analysis and hands the result to
 * report/.
 *
 * The recorder is the project's one state machine.  Its state is spread over the
 * parts below (run, rec, mv, dfs, bfs); the states, the hook that enters each, and
 * what holds there:
 *
 *   state        entered by                 invariant
 *   -----------  -------------------------  ---------------------------------------------
 *   IDLE         (start)                    rec.g == NULL; every hook returns at once
 *   EXPANDING    smh_dfs_down*, smh_bfs_pop  mv.cur is the state pan expands; mv.cur_rec
 *                                           says whether its moves are recorded (first
 *                                           expansion, not cut off by -m)
 *   TRYING       smh_try                    mv.try.active; mv.try.src is the state at
 *                                           pan's depth (DFS) or mv.cur (BFS); an error
 *                                           now makes this move violate
 *   TRIED        smh_tried(m != 0)          mv.last is the completed move (recording
 *                                           off if it violated); the next state entered
 *                                           or stored is its target
 *   GROUP        smh_bfs_group_begin        bfs.in_group: store_state() runs for the
 *                                           move mv.last (bfs.src, bfs.move); a stored
 *                                           state is its target, or the claim's
 *   CLAIM TURN   first smh_claim_try        bfs.mid != CC_NOSTATE: the state after the
 *                  of a group               process move, at the never claim's turn;
 *                                           stores are targets of claim moves from it.
 *                                           Folding (rec.fold, after a process move):
 *                                           bfs.turn instead, no node; stores are
 *                                           collected in bfs.tgt and become the process
 *                                           move's targets at the group's end
 *                                           (bfs_fold_end)
 *   CLAIM TRYING smh_claim_try              bfs.claim.active: an error now makes the
 *                                           claim's move violate
 *   (GROUP ends) smh_bfs_group_end          back to EXPANDING
 *   DONE         smh_exit                   the graph analysed, reported and freed
 *   STOPPED      any hook out of memory     rec.oom: every hook returns at once; the
 *                                           report says incomplete
 * The transitions are asserted (assert.h: on unless the build sets NDEBUG).
 *
 * Error attribution: an error raised while a move is being tried (an assert, the
 * never claim's check in DFS) makes that move violate; one raised while BFS stores a
 * move's successors (the never claim moves there) makes the claim's move violate or
 * marks the stored state bad (the claim reached its end); one raised while pan undoes
 * a move (an array index out of range, checked again) is none; any other (invalid end
 * state) is a property of the current state.
 */
#include "spinmodel.h"

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int label; /* index into the label table */
    int pid;
} sm_event;

/* A state reached by a claim move, for smh_dfs_down_claim's sibling check. */
typedef struct {
    uint64_t fp[2];
    uint32_t id;
} sm_sib;
#define SM_SIBS 4

typedef struct {
    bool active;
    uint32_t src, event;
    bool claim, recording;
    bool violated; /* pan reported an error during the move */
    int pr, tid;   /* pan's process slot and transition id (for trails) */
} sm_move;

/* What is being checked: the configuration, the model, its labels and events. */
static struct {
    smh_config cfg;
    bool configured; /* smh_configure ran: this pan runs -C */
    int search, flags;
    const char *model;
    const char *const *procnames;
    int nproc;
    const sm_label *labels;
    int nlabels;
    int **label_at; /* [proctype][state] -> label index or -1 */
    int *label_at_len;
    int **evid; /* [label][pid] -> event id (k + 1), 0 = not yet an event */
    int *evid_len;
    sm_event *ev; /* event types, id k + 1 */
    size_t nev, evcap;
    int claim_type, merged; /* trail header (smh_trail_header) */
} run = {.cfg = {.ac2 = 1}};

/* The recording and what limited it. */
static struct {
    cc_graph *g;
    uint8_t *key; /* a state's key: vector and mode (intern_key) */
    size_t key_cap;
    char *hazard;   /* the first violation pan reported (fault tree, HTML) */
    u_intern shown; /* the error messages pan has printed (smh_error_shown) */
    bool truncated, oom, stopped;
    bool mode_lost;      /* BFS matched a state stored in another mode: a node without moves */
    bool claim_skipped;  /* BFS: a blocked atomic state the claim never checked */
    bool begun;          /* smh_begin ran: pan entered its first state */
    bool fold;           /* DFS folds the system's turn after a claim move (dfs_fold) */
    bool det;            /* rec.g is the subset construction of the recorded graph (det_claim) */
    const char *por_off; /* why the glue switched the reduction off (smh_por_off) */
    char *fatal;         /* pan's fatal error (smh_fatal), or NULL */
    bool por_invalid;    /* pan: "partial order reduction invalid" (an xr/xs breach) */
    /* smh_unrecv_restored: times SPIN's unrecv would have put back another message */
    double unrecv_restored;
    double states, transitions;
} rec;

/* The move being tried, the last one completed, the state being expanded. */
static struct {
    sm_move try, last;
    uint32_t cur;
    bool cur_rec;
} mv;

/* DFS: per depth of pan's stack. */
static struct {
    uint32_t *state; /* state id at each depth */
    uint32_t *src;   /* the state whose recorded move entered state[d] (its newest
                        move then), or CC_NOSTATE: smh_dfs_rejoin moves that move */
    bool *rec;       /* moves from this depth are recorded */
    bool *keyless;   /* the state at this depth came through smh_dfs_down_id */
    bool *folded;    /* the system's turn folded into the state at depth - 1: state[d]
                        is state[d - 1], closed with it (smh_dfs_down_claim) */
    sm_sib *sib;     /* [depth * SM_SIBS + k]: the states the parent at depth - 1
                        reached by its claim moves so far (smh_dfs_down_claim) */
    uint8_t *nsib;
    size_t cap;
    long open_top; /* deepest depth whose state may still be open */
} dfs = {.open_top = -1};

/* BFS: one call of store_state() (a group). */
static struct {
    bool in_group, started;
    uint32_t src; /* the state whose move store_state() completes, or CC_NOSTATE */
    sm_move move, claim;
    bool src_rec;
    uint32_t mid; /* the claim's turn after the group's move, or CC_NOSTATE */
    bool mid_rec, claim_moved, claim_end;
    int claim_tid;
    uint8_t *vec; /* the pre-claim state vector of the group */
    size_t vec_cap;
    int vec_len;
    /* the fold (bfs_fold_end): the group's claim moves are kept here, not as a node;
     * a group folds when rec.fold and a process move leads to it (src, not the start) */
    bool turn;      /* folding, and the claim has tried a move */
    bool group_bad; /* folding: a claim move violated or ended the claim */
    uint32_t *tgt;  /* folding: the states the claim's moves led to, each once */
    size_t ntgt, tgtcap;
} bfs;

void smh_configure(const smh_config *c)
{
    run.cfg = *c;
    run.configured = true;
}

static void oom(void)
{
    if (!rec.oom)
        fprintf(stderr, "pancause: out of memory while recording the state graph; the "
                        "causality result will be incomplete\n");
    rec.oom = true;
}

/* The recorder runs: not IDLE, not DONE, not STOPPED. */
static bool live(void)
{
    return rec.g && !rec.oom;
}

/* ---- labels and events ---- */

static int proc_index(const char *name)
{
    for (int i = 0; i < run.nproc; i++)
        if (!strcmp(run.procnames[i], name))
            return i;
    return -1;
}

/* Grows a row of ints to hold index i, new cells set to fill; false when out of
 * memory. */
static bool fit(int **row, int *len, int i, int fill)
{
    if (i < *len)
        return true;
    int n = i + 16;
    int *a = realloc(*row, (size_t)n * sizeof *a);
    if (!a)
        return false;
    for (int k = *len; k < n; k++)
        a[k] = fill;
    *row = a;
    *len = n;
    return true;
}

static void index_labels(void)
{
    run.nproc = 0;
    while (run.procnames[run.nproc])
        run.nproc++;
    run.label_at = calloc((size_t)run.nproc + 1, sizeof *run.label_at);
    run.label_at_len = calloc((size_t)run.nproc + 1, sizeof *run.label_at_len);
    run.evid = calloc((size_t)run.nlabels + 1, sizeof *run.evid);
    run.evid_len = calloc((size_t)run.nlabels + 1, sizeof *run.evid_len);
    if (!run.label_at || !run.label_at_len || !run.evid || !run.evid_len) {
        oom();
        return;
    }
    for (int i = 0; i < run.nlabels; i++) {
        int p = proc_index(run.labels[i].proc);
        int st = run.labels[i].state;
        if (p < 0 || st < 0)
            continue;
        if (!fit(&run.label_at[p], &run.label_at_len[p], st, -1)) {
            oom();
            return;
        }
        if (run.label_at[p][st] < 0) /* several labels on one statement: the first names it */
            run.label_at[p][st] = i;
    }
}

/* The event of process pid's move from (proctype, state), or CC_SILENT.  One table
 * lookup per move: models label every location, and pan tries millions of moves. */
static uint32_t event_of(int pid, int proctype, int state)
{
    if (proctype < 0 || proctype >= run.nproc || state < 0 || state >= run.label_at_len[proctype] ||
        pid < 0)
        return CC_SILENT;
    int l = run.label_at[proctype][state];
    if (l < 0)
        return CC_SILENT;
    if (pid < run.evid_len[l] && run.evid[l][pid])
        return (uint32_t)run.evid[l][pid];
    if (run.nev == CC_MAX_EVENTS) {
        /* An edge keeps its event in 14 bits (cc_internal.h).  Far more event types
         * than any cause could be read with: refuse before anything is written. */
        fprintf(stderr,
                "pancause: more than %d events (a labelled statement per process instance "
                "that executes it); label fewer statements\n",
                CC_MAX_EVENTS);
        exit(1);
    }
    if (!fit(&run.evid[l], &run.evid_len[l], pid, 0) || U_GROW(run.ev, run.evcap, run.nev)) {
        oom();
        return CC_SILENT;
    }
    run.ev[run.nev] = (sm_event){l, pid};
    run.evid[l][pid] = (int)++run.nev;
    return (uint32_t)run.nev;
}

/* ---- recording ---- */

void smh_begin(int search, int flags, const char *const *procnames, const sm_label *labels,
               int nlabels, const char *model)
{
    assert(!rec.g); /* IDLE -> EXPANDING */
    rec.begun = true;
    if ((flags & SMH_POR) && run.cfg.nearest_on) {
        /* the reduction drops interleavings, and the nearest run may be one of them */
        fprintf(stderr, "pan: -C --nearest: this pan was built with partial order reduction, "
                        "which drops runs the nearest search must see; rebuild it with "
                        "'make pan POR=0'\n");
        exit(2);
    }
    run.search = search;
    run.flags = flags;
    run.procnames = procnames;
    run.labels = labels;
    run.nlabels = nlabels;
    run.model = model;
    unsigned gflags = (run.cfg.exact ? CC_G_EXACT : 0);
    /* a nondeterministic never claim: the analysis reads the graph's subset
     * construction (causality/cc_det.c), whose groups are pan's moves */
    if (run.cfg.out.path[RP_TRAILS] || run.cfg.nearest_on || (flags & SMH_NONDET_CLAIM))
        gflags |= CC_G_MOVES;
    rec.g = cc_graph_new(gflags);
    rec.fold = !(gflags & CC_G_MOVES); /* edges that name pan's moves need every turn */
    if (!rec.g || (run.cfg.nearest_on && sm_values_begin(procnames)))
        oom();
    index_labels();
}

/* rec.key = the state's key: its vector and mode.  Returns the key's length, 0 when
 * out of memory. */
static size_t intern_key(const void *vec, int len, unsigned mode)
{
    size_t need = (size_t)len + sizeof mode;
    if (need > rec.key_cap) {
        uint8_t *k = realloc(rec.key, need);
        if (!k)
            return 0;
        rec.key = k;
        rec.key_cap = need;
    }
    memcpy(rec.key, vec, (size_t)len);
    memcpy(rec.key + len, &mode, sizeof mode);
    return need;
}

/* The state's id (CC_OOM when out of memory); *fresh: new to the recorder. */
static uint32_t intern_fresh(const void *vec, int len, unsigned mode, bool *fresh)
{
    size_t n = intern_key(vec, len, mode);
    *fresh = false;
    return n ? cc_graph_state(rec.g, rec.key, n, fresh) : CC_OOM;
}

static uint32_t intern(const void *vec, int len, unsigned mode)
{
    bool fresh;
    return intern_fresh(vec, len, mode, &fresh);
}

void smh_trail_header(int claim_type, int merged)
{
    run.claim_type = claim_type;
    run.merged = merged;
}

void smh_try(int pid, int proctype, int state, int is_claim, long depth, int pr, int tid)
{
    mv.try.active = true; /* -> TRYING */
    mv.try.pr = pr;
    mv.try.tid = tid;
    mv.try.violated = false;
    mv.try.claim = is_claim;
    mv.try.event = is_claim ? CC_SILENT : event_of(pid, proctype, state);
    if (run.search == SMH_DFS && depth >= 0 && (size_t)depth < dfs.cap) {
        mv.try.src = dfs.state[depth];
        mv.try.recording = dfs.rec[depth];
    } else {
        mv.try.src = mv.cur;
        mv.try.recording = mv.cur_rec;
    }
}

int smh_tried(int m)
{
    assert(mv.try.active || !live()); /* TRYING -> TRIED or back to EXPANDING */
    if (m) {
        mv.last = mv.try;
        /* pan completes a move whose assert failed and searches on from its target;
         * for causality that run ended in the violation (the edge into CC_SINK), so
         * the move must not also be an ordinary edge. */
        if (mv.last.violated)
            mv.last.recording = false;
    }
    mv.try.active = false;
    return m;
}

static void edge(uint32_t from, uint32_t to, const sm_move *m)
{
    if (!live())
        return;
    if (cc_graph_move(rec.g, from, to, m->event, m->claim, m->pr, m->tid))
        oom();
}

static bool grow_stack(size_t need)
{
    if (need < dfs.cap) /* every state pan enters asks (u_grow_all: cap > need) */
        return true;
    /* dfs.sib holds SM_SIBS entries per depth: an element of SM_SIBS of them */
    return !u_grow_all(&dfs.cap, need, 1024,
                       (const u_arr[]){U_ARR(dfs.state),
                                       U_ARR(dfs.src),
                                       U_ARR(dfs.rec),
                                       U_ARR(dfs.keyless),
                                       U_ARR(dfs.folded),
                                       U_ARR(dfs.nsib),
                                       {(void **)&dfs.sib, SM_SIBS * sizeof *dfs.sib}},
                       7);
}

/* Common part of entering a state (-> EXPANDING): returns whether its moves are to
 * be recorded. */
static bool enter(uint32_t id, int truncated)
{
    mv.cur = id;
    if (truncated) {
        rec.truncated = true;
        return false;
    }
    bool fresh = !cc_graph_expand(rec.g, id);
    if (fresh && run.cfg.nearest_on) /* pan's `now` is this state: its variables */
        sm_values_capture(id);
    return fresh;
}

/* Entering depth d: the states pan entered before at depths d and deeper are done,
 * so their moves can be packed (cc_graph_close).  A folded depth's state is its
 * parent's, which is still open. */
static void close_from(long depth)
{
    for (; dfs.open_top >= depth; dfs.open_top--)
        if (dfs.rec[dfs.open_top] && !dfs.folded[dfs.open_top] &&
            cc_graph_close(rec.g, dfs.state[dfs.open_top]))
            oom();
}

/* Depth `depth` now holds state id, whose moves are recorded when `recording`. */
static void dfs_set(long depth, uint32_t id, bool keyless, bool folded, bool recording)
{
    dfs.state[depth] = id;
    dfs.keyless[depth] = keyless;
    dfs.folded[depth] = folded;
    dfs.nsib[depth + 1] = 0;
    dfs.rec[depth] = recording;
    mv.cur = id;
    mv.cur_rec = recording;
    dfs.open_top = depth;
}

static void dfs_enter(long depth, uint32_t id, int truncated, bool keyless)
{
    if (id == CC_OOM || !grow_stack((size_t)depth + 2)) {
        oom();
        return;
    }
    assert(cc_is_state(id));
    close_from(depth);
    dfs.src[depth] = CC_NOSTATE;
    if (depth == 0)
        cc_graph_set_root(rec.g, id);
    else if (mv.last.recording) {
        edge(mv.last.src, id, &mv.last);
        dfs.src[depth] = mv.last.src;
    }
    dfs_set(depth, id, keyless, false, enter(id, truncated));
}

void smh_dfs_down(long depth, const void *vec, int len, unsigned mode, int truncated)
{
    if (!live() || depth < 0)
        return;
    dfs_enter(depth, intern(vec, len, mode), truncated, false);
}

uint32_t smh_new_state(void)
{
    uint32_t id = live() ? cc_graph_new_state(rec.g) : CC_OOM;
    return id == CC_OOM ? UINT32_MAX : id; /* the glue's "no id" */
}

void smh_dfs_down_id(long depth, uint32_t id)
{
    if (!live() || depth < 0)
        return;
    dfs_enter(depth, id, 0, true);
}

/* The system's turn after a claim move of the state S at depth - 1, folded into S:
 * no node of its own and no edge for the claim's (silent) move; the system's moves
 * from here become S's moves, so S's block holds, for every claim move of S, the
 * moves of the system after it (README "Memory").  Causes cannot change: the claim's
 * moves are silent and every path S -> (claim) -> S_c -> (system) -> T becomes S -> T
 * with the same event; BAD and DOOM of S (cc_explore.c) see the same violations; a
 * run no longer ends between the claim's move and the system's, which is the
 * property's own reading (the claim has read the prefix when S is reached; the
 * brute-force oracle never had such ends).  After a claim move that violated, pan
 * searches on from its target: that run ended in the violation, so nothing from there
 * is recorded.  Only where edges need not name pan's moves: trails and nearest replay
 * the claim's moves one by one, so they keep the system's turn as a node. */
static void dfs_fold(long depth)
{
    if (!grow_stack((size_t)depth + 2)) {
        oom();
        return;
    }
    close_from(depth);
    dfs.src[depth] = CC_NOSTATE; /* no edge of its own (never an atomic state either) */
    dfs_set(depth, dfs.state[depth - 1], true, true, dfs.rec[depth - 1] && mv.last.recording);
}

void smh_dfs_down_claim(long depth, const void *vec, int len, unsigned mode)
{
    if (!live() || depth <= 0)
        return;
    if (rec.fold) {
        dfs_fold(depth);
        return;
    }
    /* A claim's moves from one state mostly lead to different claim states; when two
     * lead to the same state (pan goes on after a claim move that violates), it is
     * one node.  Only siblings are compared: no table, no cache miss. */
    /* A claim that guesses: its branches are combined into sets of these nodes
     * (cc_det.c), and a set found again on a run must be the same set, or a loop of the
     * nearest lasso search could close only where the claim's states before its move
     * agree too (the nearest oracle's nested family: a lasso 4 longer, "exact").  So
     * the system's turn is keyed as any other state there. */
    if (run.cfg.exact || (run.flags & SMH_NONDET_CLAIM)) { /* exact: no fingerprints */
        dfs_enter(depth, intern(vec, len, mode), 0, false);
        return;
    }
    uint64_t fp[2];
    size_t n = intern_key(vec, len, mode);
    if (!n) {
        oom();
        return;
    }
    u_fingerprint(rec.key, n, fp);
    sm_sib *sib = dfs.sib + (size_t)depth * SM_SIBS;
    uint8_t *nsib = &dfs.nsib[depth];
    for (unsigned k = 0; k < *nsib; k++)
        if (sib[k].fp[0] == fp[0] && sib[k].fp[1] == fp[1]) {
            dfs_enter(depth, sib[k].id, 0, true);
            return;
        }
    uint32_t id = cc_graph_new_state(rec.g);
    if (id != CC_OOM && *nsib < SM_SIBS)
        sib[(*nsib)++] = (sm_sib){{fp[0], fp[1]}, id};
    dfs_enter(depth, id, 0, true);
}

/* The send into the state at depth was no move for pan: the handshake failed, pan
 * undoes it and is back at depth - 1, where an invalid end state (nothing else could
 * move) is that state's.  The edge goes (when it is the parent's newest: recorded
 * there), and the state pan is in is the parent again.  Without this the graph kept a
 * run ending in the middle of a rendezvous, which SPIN has not, and the invalid end
 * state was put on the dead mid-rendezvous state (found by the nearest oracle's
 * channel models, cases/nearest-oracle NEAREST_GEN_RICH). */
void smh_dfs_rv_failed(long depth)
{
    if (!live() || depth <= 0 || (size_t)depth >= dfs.cap)
        return;
    cc_graph_unmove(rec.g, dfs.state[depth - 1], dfs.state[depth]);
    mv.cur = dfs.state[depth - 1];
    mv.cur_rec = dfs.rec[depth - 1];
}

void smh_unrecv_restored(void)
{
    rec.unrecv_restored++;
}

void smh_noend(bool noend)
{
    if (live() && cc_is_state(mv.cur))
        cc_graph_noend_state(rec.g, mv.cur, noend);
}

uint32_t smh_dfs_node(long depth, bool *fresh)
{
    *fresh = false;
    if (!live() || depth < 0 || (size_t)depth >= dfs.cap)
        return UINT32_MAX;
    *fresh = dfs.rec[depth];
    return dfs.state[depth];
}

uint32_t smh_dfs_alias(long depth, const void *vec, int len, unsigned mode)
{
    if (!live() || depth < 0 || (size_t)depth >= dfs.cap)
        return UINT32_MAX;
    size_t n = intern_key(vec, len, mode);
    uint32_t id = n ? cc_graph_alias(rec.g, rec.key, n, dfs.state[depth]) : CC_OOM;
    if (id == CC_OOM) {
        oom();
        return UINT32_MAX;
    }
    return id;
}

/* The state at depth was entered inside an atomic sequence that has lost atomicity
 * there, and pan has stored that state vector before, in the mode it is in now, as
 * node n: the two are one state of the model (the blocked process has no move in
 * either, so both have the same moves), and pan will not expand it again.  The move
 * into depth is made a move into n, and n is the state pan is in.  Without this the
 * node stayed a copy of n (re-expanded), so a loop of the model through it closed at
 * n and never at the copy: a lasso whose stem enters the blocked sequence was missed
 * (nearest oracle, NEAREST_GEN_MERGE seed 264).  The move into depth is its source's
 * newest (nothing moved since pan entered depth: the blocked process had no move, and
 * a failed rendezvous send is taken back, smh_dfs_rv_failed); false when it is not,
 * and then nothing changes. */
bool smh_dfs_rejoin(long depth, uint32_t n)
{
    if (!live() || depth <= 0 || (size_t)depth >= dfs.cap || !cc_is_state(n))
        return false;
    uint32_t a = dfs.state[depth], src = dfs.src[depth];
    if (a == n)
        return true;
    if (src != CC_NOSTATE && !cc_graph_retarget(rec.g, src, a, n))
        return false;
    if (dfs.rec[depth] && cc_graph_close(rec.g, a)) /* a keeps no moves: it is unreachable */
        oom();
    dfs_set(depth, n, dfs.keyless[depth], false, false);
    return true;
}

bool smh_dfs_keyless(long depth)
{
    return depth >= 0 && (size_t)depth < dfs.cap && dfs.keyless[depth];
}

void smh_bfs_pop(const void *vec, int len, unsigned mode, int truncated)
{
    if (!live())
        return;
    smh_bfs_pop_id(intern(vec, len, mode), truncated);
}

void smh_bfs_pop_id(uint32_t id, int truncated)
{
    if (!live())
        return;
    if (id == CC_OOM) {
        oom();
        return;
    }
    assert(!bfs.in_group && cc_is_state(id));
    bfs.started = true;
    if (mv.cur_rec && cc_graph_close(rec.g, mv.cur)) /* pan is done with the previous state */
        oom();
    mv.cur_rec = enter(id, truncated);
}

/* BFS: pan makes the never claim's moves inside store_state(), after the process
 * move.  They become explicit edges, as in DFS: the process move leads to a state
 * in which it is the claim's turn (interned with the pre-claim vector and mode
 * CLAIM_TURN), and each claim move leads on to the state pan stores.  A claim
 * violation is then a claim edge into CC_SINK, or a stored state marked bad, and the
 * analysis' claim closure treats both searches alike (trails too). */
#define CLAIM_TURN 0xffffffffu

static bool keep_vec(const void *vec, int len)
{
    if ((size_t)len > bfs.vec_cap) {
        uint8_t *v = realloc(bfs.vec, (size_t)len);
        if (!v)
            return false;
        bfs.vec = v;
        bfs.vec_cap = (size_t)len;
    }
    memcpy(bfs.vec, vec, (size_t)len);
    bfs.vec_len = len;
    return true;
}

void smh_bfs_group_begin(const void *vec, int len)
{
    if (!live())
        return;
    assert(!bfs.in_group); /* EXPANDING/TRIED -> GROUP */
    if (!keep_vec(vec, len)) {
        oom();
        return;
    }
    bfs.in_group = true;
    bfs.mid = CC_NOSTATE;
    bfs.claim_moved = bfs.claim_end = false;
    bfs.turn = bfs.group_bad = false;
    bfs.ntgt = 0;
    if (!bfs.started) { /* the initial state: no process move leads here */
        bfs.src = CC_NOSTATE;
        bfs.src_rec = false;
        return;
    }
    bfs.src = mv.last.src;
    bfs.move = mv.last;
    bfs.src_rec = mv.last.recording; /* false after a violating move, see smh_tried */
}

/* The claim's turn after the group's process move, interned on its first claim move
 * (GROUP -> CLAIM TURN). */
static void enter_claim_turn(void)
{
    if (bfs.mid != CC_NOSTATE)
        return;
    bfs.mid = intern(bfs.vec, bfs.vec_len, CLAIM_TURN);
    if (bfs.mid == CC_OOM) {
        oom();
        return;
    }
    bfs.mid_rec = !cc_graph_expand(rec.g, bfs.mid);
    if (bfs.mid_rec && run.cfg.nearest_on) /* `now`: the claim has not moved yet */
        sm_values_capture(bfs.mid);
    if (bfs.src == CC_NOSTATE)
        cc_graph_set_root(rec.g, bfs.mid);
    else if (bfs.src_rec)
        edge(bfs.src, bfs.mid, &bfs.move);
}

void smh_claim_try(int tid)
{
    if (!live() || !bfs.in_group)
        return;
    if (rec.fold && bfs.src != CC_NOSTATE)
        bfs.turn = true; /* CLAIM TURN without a node: bfs_fold_end */
    else
        enter_claim_turn();
    bfs.claim = (sm_move){.active = true, .claim = true, .event = CC_SILENT, .pr = 0, .tid = tid};
}

int smh_claim_tried(int m)
{
    if (m && bfs.claim.active) {
        bfs.claim_moved = !bfs.claim.violated;
        bfs.claim_tid = bfs.claim.tid;
    }
    bfs.claim.active = false;
    return m;
}

void smh_bfs_store(const void *vec, int len, unsigned mode)
{
    if (!live() || !bfs.in_group)
        return;
    smh_bfs_store_id(intern(vec, len, mode));
}

/* BFS: pan matched the stored state (h_store found it) in a search mode its entry
 * does not name (stored inside an atomic sequence, reached again outside it, or the
 * reverse).  pan will not expand it again; when the state is new to the recorder in
 * this mode, its node keeps no moves although the state has some, so the result is
 * incomplete (rich nearest oracle's seeds 51, 103, 303: the DFS build re-expands such
 * a state, sm_glue.c.inc's sm_pan_atomic_break). */
void smh_bfs_store_seen(const void *vec, int len, unsigned mode)
{
    if (!live() || !bfs.in_group)
        return;
    bool fresh;
    uint32_t id = intern_fresh(vec, len, mode, &fresh);
    if (id != CC_OOM && fresh)
        rec.mode_lost = true;
    smh_bfs_store_id(id);
}

void smh_bfs_claim_skipped(void)
{
    if (live())
        rec.claim_skipped = true;
}

void smh_bfs_store_id(uint32_t id)
{
    if (!live() || !bfs.in_group)
        return;
    if (id == CC_OOM) {
        oom();
        return;
    }
    if (bfs.turn) { /* after a claim move, folding */
        if (bfs.claim_end) {
            cc_graph_bad_state(rec.g, id);
            bfs.group_bad = true;
        } else if (bfs.claim_moved && bfs.src_rec) {
            size_t k = 0;
            while (k < bfs.ntgt && bfs.tgt[k] != id)
                k++;
            if (k == bfs.ntgt) {
                if (U_GROW(bfs.tgt, bfs.tgtcap, bfs.ntgt)) {
                    oom();
                    return;
                }
                bfs.tgt[bfs.ntgt++] = id;
            }
        }
        bfs.claim_moved = bfs.claim_end = false;
    } else if (bfs.mid != CC_NOSTATE) { /* after a claim move */
        sm_move m = {.claim = true, .event = CC_SILENT, .pr = 0, .tid = bfs.claim_tid};
        if (bfs.claim_moved && bfs.mid_rec)
            edge(bfs.mid, id, &m);
        if (bfs.claim_end)
            cc_graph_bad_state(rec.g, id);
        bfs.claim_moved = bfs.claim_end = false;
    } else if (bfs.src == CC_NOSTATE) {
        cc_graph_set_root(rec.g, id); /* no never claim: the initial state itself */
    } else if (bfs.src_rec) {
        edge(bfs.src, id, &bfs.move);
    }
}

/* The end of a folded group.  BFS runs the claim *after* the process move, so the
 * claim's turn is BAD as soon as one of its claim moves violates or ends the claim
 * (cc_explore.c: BAD closes backward over claim moves), whatever its other claim moves
 * do.  Folding the turn S -> (process, e) -> M -> (claim) -> T_i into S's moves keeps
 * every trace and every first violation (README "Memory"):
 *   - M would be BAD: one move S -> CC_SINK with e (the move violates: the run ends
 *     at its first violation, in M, with the same trace);
 *   - the claim moved: S -> T_i with e for each state it reached;
 *   - the claim could not move (it blocks after this move): M is kept as a node
 *     without moves, where a run may end, as before the fold.
 * S's BAD and DOOM are unchanged: e's edge is no claim move, and a silent e reaches
 * a violation in both graphs. */
static void bfs_fold_end(void)
{
    if (bfs.group_bad) {
        edge(bfs.src, CC_SINK, &bfs.move);
        return;
    }
    for (size_t k = 0; k < bfs.ntgt; k++)
        edge(bfs.src, bfs.tgt[k], &bfs.move);
    if (bfs.ntgt)
        return;
    enter_claim_turn(); /* the claim blocks: a node with no moves */
    if (live() && bfs.mid_rec && cc_graph_close(rec.g, bfs.mid))
        oom();
}

void smh_bfs_group_end(void)
{
    bfs.in_group = false; /* -> EXPANDING */
    if (!live())
        return;
    if (bfs.turn) {
        if (bfs.src_rec)
            bfs_fold_end();
        return;
    }
    if (bfs.mid != CC_NOSTATE && bfs.mid_rec && cc_graph_close(rec.g, bfs.mid))
        oom();
}

/* Remembers the first violation pan reports, named as pan names it. */
/* The never claim's proctype name, NULL when the model has none. */
static const char *claim_name(void)
{
    return run.claim_type >= 0 && run.claim_type < run.nproc ? run.procnames[run.claim_type] : NULL;
}

static void note_hazard(const char *msg)
{
    if (rec.hazard)
        return;
    const char *claim = mv.try.active && mv.try.claim ? claim_name() : NULL;
    rec.hazard = claim ? u_fmt("never claim %s: %s", claim, msg) : u_fmt("%s", msg);
}

int smh_label_used(int i)
{
    if (!live() || run.cfg.nearest_on || i < 0 || i >= run.nlabels || !run.evid)
        return 1;
    /* a search cut short (pan's fatal error, a stop, the depth limit, memory) may not
     * have reached the label: no note blaming it (the fourth probe's P4-2: fifteen notes
     * after pan aborted at depth 0 for -DMA too small) */
    if (rec.fatal || rec.stopped || rec.truncated || rec.oom)
        return 1;
    int p = proc_index(run.labels[i].proc);
    if (p < 0 || p == run.claim_type)
        return 1; /* not a process of the model: the never claim's own labels */
    for (int pid = 0; pid < run.evid_len[i]; pid++)
        if (run.evid[i][pid])
            return 1;
    return 0;
}

void smh_por_off(const char *why)
{
    rec.por_off = why;
}

int smh_depth_cut(void)
{
    rec.truncated = true;
    return 1;
}

void smh_fatal(const char *msg)
{
    if (!live() || rec.fatal)
        return;
    rec.fatal = u_fmt("%s", msg);
    if (!rec.fatal)
        oom();
}

void smh_error(const char *msg, int undoing)
{
    if (!live())
        return;
    /* An undo restores the state the move left, and what it checks the move checked:
     * pan.b's `a[ Index(now.i, 3) ] = trpt->bup.oval` reports the forward move's
     * index error again.  Taken for a property of the current state (EXPANDING) it
     * made the state pan had last entered bad, a state where no run violates (DFS:
     * two spurious causes; BFS: the state before the violating move, so the cause
     * lacked it; fourth probe P4-7).  pan still counts it, as stock pan does. */
    if (undoing)
        return;
    if (rec.fatal && !strcmp(msg, rec.fatal))
        return; /* pan gave up (smh_fatal): no violation, the reason says so */
    /* pan's own checks of xr/xs declarations ("partial order reduction invalid", and
     * "sorted send on xr channel violates po reduction" and the like: the sixth probe's
     * P6-2, which -C had taken for the hazard, complete) */
    if (strstr(msg, "partial order reduction invalid") || strstr(msg, "violates po reduction"))
        rec.por_invalid = true;                 /* and a violation, as for stock pan */
    if (strncmp(msg, "depth limit", 11) == 0) { /* pan's "depth limit reached" */
        rec.truncated = true;
        return;
    }
    note_hazard(msg);
    if (mv.try.active) { /* TRYING: the move violates */
        if (mv.try.recording && !mv.try.violated)
            edge(mv.try.src, CC_SINK, &mv.try);
        mv.try.violated = true;
    } else if (bfs.claim.active) { /* CLAIM TRYING: the claim's move violates */
        if (bfs.turn)
            bfs.group_bad = true; /* folding: bfs_fold_end */
        else if (bfs.mid_rec && !bfs.claim.violated)
            edge(bfs.mid, CC_SINK, &bfs.claim);
        bfs.claim.violated = true;
    } else if (bfs.in_group) { /* GROUP: the claim reached its end: the stored state is bad */
        bfs.claim_end = true;
    } else { /* EXPANDING: a property of the state (invalid end state) */
        cc_graph_bad_state(rec.g, mv.cur);
    }
}

/* -C adds -c0, and pan's uerror prints a line whenever the message differs from the
 * last one: a model with two assertions that fail in turn printed one line per
 * violation (readers_writers1 of bench/faults: 103,296 lines before its causes).
 * Under -C each message is printed the first time only; pan's "errors:" line still
 * counts them all.  Out of memory, pan prints as stock pan does. */
int smh_error_shown(const char *msg)
{
    if (!live())
        return 1;
    bool fresh = true;
    size_t n = strnlen(msg, 254); /* pan compares the first 254 characters */
    if (u_intern_put(&rec.shown, msg, n, &fresh) == U_INVALID)
        return 1;
    return fresh;
}

void smh_stats(double states, double matched, int done)
{
    rec.states = states;
    rec.transitions = states + matched;
    rec.stopped = !done;
}

/* ---- the report at exit ---- */

/* A name made from SPIN's identifiers is one a formula can hold; NULL stays NULL (out
 * of memory). */
static char *checked_name(char *name)
{
    assert(!name || eol_name_valid(name));
    return name;
}

/* Label text L alone when unambiguous; Proc.L when L exists in several proctypes;
 * Proc[pid].L when several instances of Proc executed L.  Proc is the name events use
 * (sm_event_proc: init for SPIN's ":init:", which no formula could name: the seventh
 * probe's P7-1 printed every cause with an event of init as "out of memory"). */
static char *event_name(size_t k)
{
    const sm_label *l = &run.labels[run.ev[k].label];
    const char *proc = sm_event_proc(l->proc);
    bool other_proc = false, other_pid = false;
    for (int i = 0; i < run.nlabels; i++)
        other_proc |= !strcmp(run.labels[i].label, l->label) && strcmp(run.labels[i].proc, l->proc);
    for (size_t i = 0; i < run.nev; i++)
        other_pid |= run.ev[i].label == run.ev[k].label && run.ev[i].pid != run.ev[k].pid;
    if (other_pid)
        return checked_name(u_fmt("%s[%d].%s", proc, run.ev[k].pid, l->label));
    if (other_proc)
        return checked_name(u_fmt("%s.%s", proc, l->label));
    return checked_name(u_fmt("%s", l->label));
}

static const char *local_merged_global; /* smh_local_merged's */

void smh_local_merged(const char *global)
{
    local_merged_global = global;
}

/* One more reason; RP_MAX_WHY has room for every reason below at once. */
static void add_why(rp_run *out, size_t *n, const char *why)
{
    assert(*n < RP_MAX_WHY);
    if (*n < RP_MAX_WHY)
        out->why[(*n)++] = why;
}

/* Every reason the result is incomplete, in text for people (README "Limits"). */
static void incomplete_reasons(const cc_result *r, rp_run *out)
{
    size_t n = 0;
    if (rec.oom || !r || r->oom)
        add_why(out, &n, "out of memory");
    static char fatal_why[600];
    if (rec.fatal && strstr(rec.fatal, "d_step")) {
        /* an error of the model, not a limit of pan's (the fifth probe's P5-4) */
        snprintf(fatal_why, sizeof fatal_why,
                 "a d_step of the model blocked after its first statement (pan's error \"%.100s\" "
                 "above; a d_step may block only at its first statement): pan stops its search "
                 "at this model error, so the rest is unexplored and it is no hazard pancause "
                 "explains; stock pan's trail shows the run (make the d_step's later statements "
                 "executable, or use atomic)",
                 rec.fatal);
        add_why(out, &n, fatal_why);
    } else if (rec.fatal) {
        snprintf(fatal_why, sizeof fatal_why,
                 "pan gave up its search with the error \"%.100s\" (its message above says "
                 "why: \"VECTORSZ too small\" asks for PANFLAGS=-DVECTORSZ=N, \"MA too "
                 "small\" for PANFLAGS=-DMA=N): a limit of pan's, not a violation of the "
                 "model, so it is no hazard",
                 rec.fatal);
        add_why(out, &n, fatal_why);
    } else if (rec.stopped)
        add_why(out, &n,
                "pan stopped its search early (memory limit, time limit -Q, or an interrupt)");
    if (run.flags & SMH_HIDDEN)
        add_why(out, &n,
                "the model keeps data out of pan's states (a variable declared hidden, or "
                "c_track data marked UnMatched): runs that differ only there are one state "
                "to pan, so a cause may join a run that violates with one that does not; "
                "drop 'hidden' (or track the data Matched) for causality checking");
    static char local_why[600];
    if (run.flags & SMH_LOCAL_MERGED) {
        snprintf(local_why, sizeof local_why,
                 "the model declares the global %s local (SPIN's promise that one process "
                 "alone uses it) and another proctype uses it: SPIN merged statements on "
                 "that promise, so runs that interleave inside a merged move are missing "
                 "from pan's search (stock pan's too) and causes may be wrong; drop "
                 "'local', or build from spin -o3 -a (no statement merging)",
                 local_merged_global ? local_merged_global : "?");
        add_why(out, &n, local_why);
    }
    if (run.flags & SMH_NOBOUNDCHECK)
        add_why(out, &n,
                "this pan was built with -DNOBOUNDCHECK: an array index out of range is "
                "neither reported nor stopped, so a move may write outside its array and pan "
                "search states no run reaches; rebuild without it (a model without arrays "
                "makes this reason too cautious)");
    if (run.flags & SMH_C_UNTRACKED)
        add_why(out, &n,
                "the model's C code may keep data out of pan's states (a c_state declared "
                "\"Hidden\", or a c_decl or top-level c_code block and no c_track): pan "
                "neither stores nor restores such data, so runs that differ only there are "
                "one state to pan and a cause may join a run that violates with one that does "
                "not; declare the data with c_state ... \"Global\" (or \"Local\"), or "
                "register it with c_track ... \"Matched\" (a c_decl block that declares only "
                "types makes this reason too cautious)");
    if (run.flags & SMH_BFS_RENDEZVOUS)
        add_why(out, &n,
                "pan's breadth-first search does not explore every interleaving "
                "around rendezvous channels (SPIN warns of it too); the depth-first "
                "build (make pan without BFS=1) gives the complete result");
    if (rec.mode_lost)
        add_why(out, &n,
                "pan's breadth-first search matched a state it had stored in another "
                "search mode (inside an atomic sequence and outside it) and did not "
                "expand it again, so it has no moves in the recorded graph; the "
                "depth-first build (make pan without BFS=1) gives the complete result");
    if (rec.por_invalid)
        add_why(out, &n,
                "pan found a channel declared xr or xs used by another process (its "
                "\"partial order reduction invalid\" above names the channel): the "
                "reduction SPIN builds on that declaration is invalid on this model, and "
                "that error ends runs before the model's own violations; correct the "
                "declaration, or build with POR=0");
    if (rec.claim_skipped)
        add_why(out, &n,
                "pan's breadth-first search does not let the never claim check a "
                "state where an atomic sequence blocks (it skips the claim inside "
                "atomic sequences, then checks only the states after the next move), "
                "so a violation there may be missed; the depth-first build (make pan "
                "without BFS=1) gives the complete result");
    /* the never claim's shape (sm_glue.c.inc's sm_pan_claim_shape): a reason per flag,
     * each naming the claim; a guessing claim's only where the graph was not
     * determinised (rec.det): the causes and --nearest both combine the branches, so
     * that is left for out of memory before it, which ends the run anyway */
    static const struct {
        int flag;
        const char *fmt;
    } claim_whys[] = {
        {SMH_LIVE_CLAIM,
         "the never claim %s has an accepting state on a cycle (a liveness property): its "
         "violations include acceptance cycles, which a safety search does not look for "
         "(stock pan needs -a), and a run on which its guess blocks ends looking settled "
         "although the system goes on; for the model's assertions and end states alone build "
         "without the claim (PANFLAGS=-DNOCLAIM); pancause temporal explains an acceptance "
         "cycle"},
        {SMH_NONDET_CLAIM,
         "the never claim %s can be in two states at once on one run (a nondeterministic "
         "claim, as SPIN writes for [] (p -> [] !q)), and its branches were not combined: "
         "read path by path, a run on which one branch of the claim waited while another "
         "reports the violation looks good; an assert in the model, or a deterministic "
         "never claim, gives the exact answer (README \"Never claims\")"},
        {SMH_CLAIM_SPLIT,
         "the never claim %s checks its property in two steps (SPIN does not merge a claim's "
         "statements in a model with remote references such as P:x): its assert comes at its "
         "next turn, after a move of the system, so a run can leave the violating state before "
         "the claim reports it and causes may gain non-occurrences or be marked AMBIGUOUS; "
         "state the property over global variables, or as an assert in the model"},
        {SMH_NP_CLAIM,
         "the never claim %s reads np_, which pan computes from the move just taken (whether "
         "it passed a progress label, or was the end's stutter), not from the state it stores: "
         "a state reached by two moves is one state to pan with either value, and pan's "
         "depth-first and breadth-first searches set it differently, so violations may be "
         "missed or wrongly found (the seventh probe's P7-3); np_ is meant for non-progress "
         "cycles (spin -a, gcc -DNP, ./pan -l), a liveness check pancause does not explain"},
        {SMH_CLAIM_BLOCKS,
         "the never claim %s can block on a run (a state of it has no move that is always "
         "possible; SPIN's claims for properties such as (!a U b) || [] !a do): there the "
         "property holds for ever, but pan does not explore the model beyond, so the good runs "
         "that go on are missing, and with them non-occurrences of causes; a claim that never "
         "blocks (a state that loops on true once the property is settled) gives the exact "
         "result (README \"Never claims\")"}};
    enum { NCLAIM_WHY = sizeof claim_whys / sizeof claim_whys[0] };
    static char claim_why[NCLAIM_WHY][800];
    const char *claim = claim_name() ? claim_name() : "?";
    for (size_t k = 0; k < NCLAIM_WHY; k++)
        if ((run.flags & claim_whys[k].flag) &&
            !(claim_whys[k].flag == SMH_NONDET_CLAIM && rec.det)) {
            snprintf(claim_why[k], sizeof claim_why[k], claim_whys[k].fmt, claim);
            add_why(out, &n, claim_why[k]);
        }
    if (run.flags & SMH_APPROX)
        add_why(out, &n,
                "pan was compiled with bitstate hashing or hash compaction, which may "
                "drop states");
    if (rec.truncated)
        add_why(out, &n, "the search depth limit (-m) was reached; increase it with -mN");
    static char budget_why[160];
    if (r && r->truncated && r->max_orders > 0)
        snprintf(budget_why, sizeof budget_why,
                 "a minimal bad multiset has %.3g orders, too many to list and test one by "
                 "one (README \"Known limits\")",
                 r->max_orders);
    else if (r && r->truncated)
        snprintf(budget_why, sizeof budget_why,
                 "the analysis hit its budget (--budget) in phase '%s'",
                 r->truncated_phase ? r->truncated_phase : "history search");
    if (r && r->truncated)
        add_why(out, &n, budget_why);
    static char cut_why[200];
    if (r && r->ac22_cut) {
        snprintf(cut_why, sizeof cut_why,
                 "the non-occurrence search (AC2(2)) used up its share of --budget for %zu "
                 "cause(s): their events and orders are complete, their non-occurrences "
                 "undecided",
                 r->ac22_cut);
        add_why(out, &n, cut_why);
    }
    out->nwhy = n;
}

/* Per event type the process that executes it: the timeline lanes of the HTML. */
static char **lane_names(void)
{
    char **l = calloc(run.nev + 1, sizeof *l);
    for (size_t k = 0; l && k < run.nev; k++) {
        const sm_label *lab = &run.labels[run.ev[k].label];
        if (!(l[k] = u_fmt("%s (pid %d)", lab->proc, run.ev[k].pid))) {
            for (size_t i = 0; i < k; i++)
                free(l[i]);
            free(l);
            return NULL;
        }
    }
    return l;
}

static int report(const cc_result *r, char **names, double search_seconds)
{
    rp_run out = {.search = run.search == SMH_BFS ? "bfs" : "dfs",
                  .ac2 = run.cfg.ac2,
                  .seconds = u_seconds() - run.cfg.start,
                  .search_seconds = search_seconds,
                  .peak_mb = u_peak_mb(),
                  .graph_mb = (double)cc_graph_bytes(rec.g) / (1 << 20),
                  .states = rec.states,
                  .transitions = rec.transitions,
                  .model = run.model,
                  .hazard = rec.hazard};
    incomplete_reasons(r, &out);
    char **lanes = lane_names();
    rp_in in = {.r = r,
                .names = (const char *const *)names,
                .lanes = (const char *const *)lanes,
                .nevents = run.nev,
                .run = &out,
                .g = rec.g,
                .claim_type = run.claim_type,
                .merged = run.merged,
                .probs = run.cfg.probs};
    int rc = rp_report(&in, &run.cfg.out, stdout, run.cfg.color);
    rp_in_release(&in);
    for (size_t k = 0; lanes && k < run.nev; k++)
        free(lanes[k]);
    free(lanes);
    return rc;
}

static void release(void)
{
    cc_graph_free(rec.g);
    rec.g = NULL;
    for (int i = 0; run.label_at && i < run.nproc; i++)
        free(run.label_at[i]);
    free(run.label_at);
    free(run.label_at_len);
    for (int i = 0; run.evid && i < run.nlabels; i++)
        free(run.evid[i]);
    free(run.evid);
    free(run.evid_len);
    free(run.ev);
    free(dfs.state);
    free(dfs.rec);
    free(dfs.keyless);
    free(dfs.folded);
    free(dfs.sib);
    free(dfs.nsib);
    free(bfs.vec);
    free(bfs.tgt);
    if (run.cfg.probs)
        rp_prob_free(run.cfg.probs);
    free(rec.key);
    free(rec.hazard);
    free(rec.fatal);
    rec.fatal = NULL;
    u_intern_free(&rec.shown);
    sm_values_end();
}

static int det_claim(void);

/* --nearest: the closest successful execution instead of the causes (nearest/).  A
 * guessing never claim's graph is determinised first (det_claim), as for the causes:
 * read path by path, a run on which one branch of the claim waited while another
 * reported the violation looked good, and b could violate the property.  The values
 * follow the graph's new state ids (nr_model_det).  Not for --nearest-graph, whose
 * reader (pancause temporal) refuses never claims and wants pan's own states. */
static void nearest_exit(int *status)
{
    const char *bad = sm_values_error();
    if (bad) {
        fprintf(stderr, "pancause: nearest: %s\n", bad);
        *status = 1;
        return;
    }
    if ((run.flags & SMH_NONDET_CLAIM) && !run.cfg.nearest.graph &&
        (det_claim() || nr_model_det(sm_values_model(), rec.g))) {
        fprintf(stderr, "pancause: out of memory combining the never claim's branches\n");
        *status = 1;
        return;
    }
    rp_run why = {0};
    incomplete_reasons(NULL, &why);
    nr_context c = {.model = run.cfg.nearest.model_name ? run.cfg.nearest.model_name : run.model,
                    .source = run.model,
                    .claim_type = run.claim_type,
                    .merged = run.merged != 0,
                    .base = run.claim_type >= 0 ? 1 : 0,
                    .search = run.search == SMH_BFS ? "bfs" : "dfs",
                    .states = rec.states,
                    .transitions = rec.transitions,
                    .unrecv_restored = rec.unrecv_restored > 0,
                    .seconds = u_seconds() - run.cfg.start};
    /* incomplete_reasons(NULL) names "out of memory" for the missing analysis result:
     * here only the recorder's own shortage counts */
    for (size_t k = 0; k < why.nwhy && c.nwhy < NR_MAX_WHY; k++)
        if (strcmp(why.why[k], "out of memory") || rec.oom)
            c.why[c.nwhy++] = why.why[k];
    *status = nr_explain(rec.g, sm_values_model(), &run.cfg.nearest, &c, stdout);
}

static size_t budget(void)
{
    if (run.cfg.budget >= 0)
        return (size_t)run.cfg.budget; /* 0: no limit */
    double b = SMH_BUDGET_PER_STATE * (double)cc_graph_states(rec.g);
    return (size_t)(b > SMH_BUDGET_MIN ? b : SMH_BUDGET_MIN);
}

/* A never claim that can be in two states at once on one run (sm_glue.c.inc's
 * sm_pan_claim_shape): the analysis reads runs of the model, each with the set of
 * states its claim can be in (causality/cc_det.c), so that a run violates when one
 * branch of the claim does, and counts once.  0, or -1 when out of memory. */
static int det_claim(void)
{
    size_t n = cc_graph_states(rec.g);
    cc_graph *d = cc_graph_det(rec.g);
    if (!d)
        return -1;
    rec.g = d;
    rec.det = true;
    fprintf(stderr,
            "pancause: note: the never claim %s can be in two states at once on one run; "
            "its branches were combined: %zu recorded states became %zu (a state of the "
            "model with every state the claim can be in there), so a run violates when "
            "one branch of the claim does (README \"Never claims\")\n",
            claim_name() ? claim_name() : "?", n, cc_graph_states(d));
    return 0;
}

void smh_exit(int *status)
{
    /* pan's statistics are on stdout, which is fully buffered into a file or a pipe:
     * flushed first, our messages on stderr follow them there as on a terminal */
    fflush(stdout);
    if (!rec.g) {
        /* pan stopped before it entered its first state (e.g. "VECTORSZ too small"):
         * there is no graph, so no result; stock pan exits 0 there, -C must not. */
        if (run.configured && !rec.begun) {
            fprintf(stderr, "pancause: pan stopped before its search began (pan's "
                            "message says why); no causality result\n");
            *status = 1;
        }
        release();
        return;
    }
    if (rec.unrecv_restored > 0)
        fprintf(stderr,
                "pancause: note: SPIN's pan undoes a receive by putting the receiving "
                "variable's value back into the channel; on this model that value was "
                "truncated (a variable narrower than the message field) %.0f time(s), so "
                "stock pan searches states that no run reaches and may report errors that "
                "spin -t cannot replay. pancause put the message taken back instead: this "
                "result follows SPIN's semantics (README \"Known limits\").\n",
                rec.unrecv_restored);
    if (rec.por_off)
        fprintf(stderr,
                "pancause: note: pan's partial order reduction is off for this model: %s "
                "(README \"Partial order reduction\")\n",
                rec.por_off);
    if (run.flags & SMH_CLAIM_UNCHECKED)
        fprintf(stderr,
                "pancause: note: -A turns off assertions, and the never claim %s checks its "
                "property with one (SPIN's form for [] p), so pan checks that property no "
                "more than stock pan -A does: the result concerns the model's other "
                "violations only\n",
                claim_name() ? claim_name() : "?");
    if (run.cfg.nearest_on) {
        nearest_exit(status);
        release(); /* -> DONE */
        return;
    }
    if (run.nev == 0 && run.nlabels == 0) {
        fprintf(stderr,
                "pancause: %s has no events. Label the statements whose occurrence "
                "may cause the hazard, e.g.\n    Gf: gate_failed = true\nSPIN's "
                "reserved labels (end*, progress*, accept*) are not events.\n",
                run.model);
        release();
        *status = 1;
        return;
    }
    char **names = calloc(run.nev + 1, sizeof *names);
    for (size_t k = 0; names && k < run.nev; k++)
        if (!(names[k] = event_name(k))) {
            for (size_t i = 0; i < k; i++)
                free(names[i]);
            free(names);
            names = NULL;
        }
    cc_options o = {.ac2 = run.cfg.ac2,
                    .noprune = run.cfg.noprune,
                    .search_budget = budget(),
                    .progress = stdout,
                    .one_thread = run.cfg.one_thread,
                    .names = (const char *const *)names};
    if (names && (run.flags & SMH_NONDET_CLAIM) && det_claim()) {
        fprintf(stderr, "pancause: out of memory combining the never claim's branches\n");
        release();
        *status = 1;
        return;
    }
    /* the claim's branches combined (det_claim) count with the search and recording */
    double searched = u_seconds() - run.cfg.start;
    cc_result *r = names ? cc_analyse(rec.g, run.nev, &o) : NULL;
    if (!r || report(r, names, searched))
        *status = 1;
    if (!r)
        fprintf(stderr, "pancause: out of memory in the causality analysis\n");
    cc_result_free(r);
    for (size_t k = 0; names && k < run.nev; k++)
        free(names[k]);
    free(names);
    release(); /* -> DONE */
}
