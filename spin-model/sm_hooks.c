/*
 * sm_hooks.c - what pan's search tells pancause, and what pancause does with it.
 *
 * The instrumented pan calls these hooks (through sm_glue.c.inc).  They record the
 * explored graph: a state when pan enters it (DFS) or takes it from the queue (BFS),
 * an edge for every move out of a state the first time that state is expanded, an
 * edge into CC_BAD or a bad state when pan reports an error, and which moves are
 * events (the move's source location carries a user label).  At pan's exit
 * smh_exit() names the events, runs the analysis and prints the report.
 *
 * Error attribution: an error raised while a move is being tried (between smh_try
 * and smh_tried: an assert, the never claim's check in DFS) makes that move violate;
 * one raised while BFS stores a move's successors (the never claim moves there)
 * makes the whole move violate; any other (invalid end state, end of the claim) is
 * a property of the current state.
 */
#include "spinmodel.h"
#include "causality.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

static struct {
    smh_config cfg;
    int search, flags;
    const char *model;
    const char *const *procnames;
    const sm_label *labels;
    int nlabels;
    int **label_at; /* [proctype][state] -> label index or -1 */
    int *label_at_len;
    int nproc;
    sm_event *ev; /* event types, id k+1 */
    size_t nev, evcap;
    cc_graph *g;
    uint32_t *stack; /* DFS: state id at each depth */
    bool *rec;       /* DFS: moves from this depth are recorded */
    bool *keyless;   /* DFS: the state at this depth came through smh_dfs_down_id */
    sm_sib *sib;     /* DFS: [depth * SM_SIBS + k] the states the parent at depth - 1
                        reached by its claim moves so far (smh_dfs_down_claim) */
    uint8_t *nsib;
    size_t stack_cap;
    long open_top; /* DFS: deepest depth whose state may still be open */
    sm_move try_, last;
    uint32_t cur; /* the state pan is expanding (last entered / popped) */
    bool cur_rec;
    bool in_group, bfs_started;
    uint32_t group_src; /* BFS: the state whose move store_state() completes */
    sm_move group, claim;
    bool group_rec;
    uint32_t mid; /* BFS: the claim's turn after the group's move, or CC_BAD */
    bool mid_rec, claim_moved, claim_end;
    int claim_tid;
    uint8_t *gvec; /* BFS: the pre-claim state vector of the group */
    size_t gvec_cap;
    int gvec_len;
    uint8_t *key;
    size_t key_cap;
    int claim_type, merged; /* trail header (smh_trail_header) */
    char *hazard;           /* the first violation pan reported (fault tree, HTML) */
    bool truncated, oom, stopped;
    double states, transitions;
} H = {.cfg = {.ac2 = 1}, .open_top = -1};

void smh_configure(const smh_config *c)
{
    H.cfg = *c;
}

static void oom(void)
{
    if (!H.oom)
        fprintf(stderr, "pancause: out of memory while recording the state graph; the "
                        "causality result will be incomplete\n");
    H.oom = true;
}

/* ---- labels ---- */

static int proc_index(const char *name)
{
    for (int i = 0; i < H.nproc; i++)
        if (!strcmp(H.procnames[i], name))
            return i;
    return -1;
}

static void index_labels(void)
{
    H.nproc = 0;
    while (H.procnames[H.nproc])
        H.nproc++;
    H.label_at = calloc((size_t)H.nproc + 1, sizeof *H.label_at);
    H.label_at_len = calloc((size_t)H.nproc + 1, sizeof *H.label_at_len);
    if (!H.label_at || !H.label_at_len) {
        oom();
        return;
    }
    for (int i = 0; i < H.nlabels; i++) {
        int p = proc_index(H.labels[i].proc);
        int st = H.labels[i].state;
        if (p < 0 || st < 0)
            continue;
        if (st >= H.label_at_len[p]) {
            int len = st + 16;
            int *a = realloc(H.label_at[p], (size_t)len * sizeof *a);
            if (!a) {
                oom();
                return;
            }
            for (int k = H.label_at_len[p]; k < len; k++)
                a[k] = -1;
            H.label_at[p] = a;
            H.label_at_len[p] = len;
        }
        if (H.label_at[p][st] < 0) /* several labels on one statement: the first names it */
            H.label_at[p][st] = i;
    }
}

static uint32_t event_of(int pid, int proctype, int state)
{
    if (proctype < 0 || proctype >= H.nproc || state < 0 || state >= H.label_at_len[proctype])
        return CC_SILENT;
    int l = H.label_at[proctype][state];
    if (l < 0)
        return CC_SILENT;
    for (size_t i = 0; i < H.nev; i++)
        if (H.ev[i].label == l && H.ev[i].pid == pid)
            return (uint32_t)i + 1;
    if (H.nev == H.evcap) {
        size_t cap = H.evcap ? 2 * H.evcap : 32;
        sm_event *v = realloc(H.ev, cap * sizeof *v);
        if (!v) {
            oom();
            return CC_SILENT;
        }
        H.ev = v;
        H.evcap = cap;
    }
    H.ev[H.nev] = (sm_event){l, pid};
    return (uint32_t)++H.nev;
}

/* ---- recording ---- */

void smh_begin(int search, int flags, const char *const *procnames, const sm_label *labels,
               int nlabels, const char *model)
{
    H.search = search;
    H.flags = flags;
    H.procnames = procnames;
    H.labels = labels;
    H.nlabels = nlabels;
    H.model = model;
    H.g = cc_graph_new((H.cfg.exact ? CC_G_EXACT : 0) | (H.cfg.trails ? CC_G_MOVES : 0));
    if (!H.g)
        oom();
    index_labels();
}

/* H.key = the state's key: its vector and mode.  Returns the key's length, 0 when
 * out of memory. */
static size_t intern_key(const void *vec, int len, unsigned mode)
{
    size_t need = (size_t)len + sizeof mode;
    if (need > H.key_cap) {
        uint8_t *k = realloc(H.key, need);
        if (!k)
            return 0;
        H.key = k;
        H.key_cap = need;
    }
    memcpy(H.key, vec, (size_t)len);
    memcpy(H.key + len, &mode, sizeof mode);
    return need;
}

static uint32_t intern(const void *vec, int len, unsigned mode, bool *fresh)
{
    size_t n = intern_key(vec, len, mode);
    return n ? cc_graph_state(H.g, H.key, n, fresh) : CC_BAD;
}

void smh_trail_header(int claim_type, int merged)
{
    H.claim_type = claim_type;
    H.merged = merged;
}

void smh_try(int pid, int proctype, int state, int is_claim, long depth, int pr, int tid)
{
    H.try_.active = true;
    H.try_.pr = pr;
    H.try_.tid = tid;
    H.try_.violated = false;
    H.try_.claim = is_claim;
    H.try_.event = is_claim ? CC_SILENT : event_of(pid, proctype, state);
    if (H.search == SMH_DFS && depth >= 0 && (size_t)depth < H.stack_cap) {
        H.try_.src = H.stack[depth];
        H.try_.recording = H.rec[depth];
    } else {
        H.try_.src = H.cur;
        H.try_.recording = H.cur_rec;
    }
}

int smh_tried(int m)
{
    if (m) {
        H.last = H.try_;
        /* pan completes a move whose assert failed and searches on from its target;
         * for causality that run ended in the violation (the edge into CC_BAD), so
         * the move must not also be an ordinary edge. */
        if (H.last.violated)
            H.last.recording = false;
    }
    H.try_.active = false;
    return m;
}

static void edge(uint32_t from, uint32_t to, const sm_move *m)
{
    if (H.oom || !H.g)
        return;
    if (cc_graph_move(H.g, from, to, m->event, m->claim, m->pr, m->tid))
        oom();
}

static bool grow_stack(size_t need)
{
    if (need < H.stack_cap)
        return true;
    size_t cap = H.stack_cap ? H.stack_cap : 1024;
    while (cap <= need)
        cap *= 2;
    uint32_t *s = realloc(H.stack, cap * sizeof *s);
    if (s)
        H.stack = s;
    bool *r = realloc(H.rec, cap * sizeof *r);
    if (r)
        H.rec = r;
    bool *k = realloc(H.keyless, cap * sizeof *k);
    if (k)
        H.keyless = k;
    sm_sib *sb = realloc(H.sib, cap * SM_SIBS * sizeof *sb);
    if (sb)
        H.sib = sb;
    uint8_t *ns = realloc(H.nsib, cap * sizeof *ns);
    if (ns)
        H.nsib = ns;
    if (!s || !r || !k || !sb || !ns)
        return false;
    H.stack_cap = cap;
    return true;
}

/* Common part of entering a state: returns whether its moves are to be recorded. */
static bool enter(uint32_t id, int truncated)
{
    H.cur = id;
    if (truncated) {
        H.truncated = true;
        return false;
    }
    return !cc_graph_expand(H.g, id);
}

static void dfs_enter(long depth, uint32_t id, int truncated, bool keyless)
{
    if (id == CC_BAD || !grow_stack((size_t)depth + 2)) {
        oom();
        return;
    }
    /* Entering depth d: the states pan entered before at depths d and deeper are
     * done, so their moves can be packed (cc_graph_close). */
    for (; H.open_top >= depth; H.open_top--)
        if (H.rec[H.open_top] && cc_graph_close(H.g, H.stack[H.open_top]))
            oom();
    if (depth == 0)
        cc_graph_set_root(H.g, id);
    else if (H.last.recording)
        edge(H.last.src, id, &H.last);
    H.stack[depth] = id;
    H.keyless[depth] = keyless;
    H.nsib[depth + 1] = 0;
    H.rec[depth] = enter(id, truncated);
    H.cur_rec = H.rec[depth];
    H.open_top = depth;
}

void smh_dfs_down(long depth, const void *vec, int len, unsigned mode, int truncated)
{
    if (H.oom || !H.g || depth < 0)
        return;
    bool fresh;
    dfs_enter(depth, intern(vec, len, mode, &fresh), truncated, false);
}

uint32_t smh_new_state(void)
{
    return H.oom || !H.g ? CC_BAD : cc_graph_new_state(H.g);
}

void smh_dfs_down_id(long depth, uint32_t id)
{
    if (H.oom || !H.g || depth < 0)
        return;
    dfs_enter(depth, id, 0, true);
}

void smh_dfs_down_claim(long depth, const void *vec, int len, unsigned mode)
{
    if (H.oom || !H.g || depth <= 0)
        return;
    /* A claim's moves from one state mostly lead to different claim states; when two
     * lead to the same state (pan goes on after a claim move that violates), it is
     * one node.  Only siblings are compared: no table, no cache miss. */
    bool fresh;
    if (H.cfg.exact) { /* no fingerprints at all */
        dfs_enter(depth, intern(vec, len, mode, &fresh), 0, false);
        return;
    }
    uint64_t fp[2];
    size_t n = intern_key(vec, len, mode);
    if (!n) {
        oom();
        return;
    }
    u_fingerprint(H.key, n, fp);
    sm_sib *sib = H.sib + (size_t)depth * SM_SIBS;
    uint8_t *nsib = &H.nsib[depth];
    for (unsigned k = 0; k < *nsib; k++)
        if (sib[k].fp[0] == fp[0] && sib[k].fp[1] == fp[1]) {
            dfs_enter(depth, sib[k].id, 0, true);
            return;
        }
    uint32_t id = cc_graph_new_state(H.g);
    if (id != CC_BAD && *nsib < SM_SIBS)
        sib[(*nsib)++] = (sm_sib){{fp[0], fp[1]}, id};
    dfs_enter(depth, id, 0, true);
}

bool smh_dfs_keyless(long depth)
{
    return depth >= 0 && (size_t)depth < H.stack_cap && H.keyless[depth];
}

void smh_bfs_pop(const void *vec, int len, unsigned mode, int truncated)
{
    if (H.oom || !H.g)
        return;
    bool fresh;
    smh_bfs_pop_id(intern(vec, len, mode, &fresh), truncated);
}

void smh_bfs_pop_id(uint32_t id, int truncated)
{
    if (H.oom || !H.g)
        return;
    if (id == CC_BAD) {
        oom();
        return;
    }
    H.bfs_started = true;
    if (H.cur_rec && cc_graph_close(H.g, H.cur)) /* pan is done with the previous state */
        oom();
    H.cur_rec = enter(id, truncated);
}

/* BFS: pan makes the never claim's moves inside store_state(), after the process
 * move.  They become explicit edges, as in DFS: the process move leads to a state
 * in which it is the claim's turn (interned with the pre-claim vector and mode
 * CLAIM_TURN), and each claim move leads on to the state pan stores.  A claim
 * violation is then a claim edge into CC_BAD, or a stored state marked bad, and the
 * analysis' claim closure treats both searches alike (trails too). */
#define CLAIM_TURN 0xffffffffu

static bool keep_vec(const void *vec, int len)
{
    if ((size_t)len > H.gvec_cap) {
        uint8_t *v = realloc(H.gvec, (size_t)len);
        if (!v)
            return false;
        H.gvec = v;
        H.gvec_cap = (size_t)len;
    }
    memcpy(H.gvec, vec, (size_t)len);
    H.gvec_len = len;
    return true;
}

void smh_bfs_group_begin(const void *vec, int len)
{
    if (H.oom || !H.g)
        return;
    if (!keep_vec(vec, len)) {
        oom();
        return;
    }
    H.in_group = true;
    H.mid = CC_BAD;
    H.claim_moved = H.claim_end = false;
    if (!H.bfs_started) { /* the initial state: no process move leads here */
        H.group_src = CC_BAD;
        H.group_rec = false;
        return;
    }
    H.group_src = H.last.src;
    H.group = H.last;
    H.group_rec = H.last.recording; /* false after a violating move, see smh_tried */
}

/* The claim's turn after the group's process move, interned on its first claim move. */
static void enter_claim_turn(void)
{
    if (H.mid != CC_BAD)
        return;
    bool fresh;
    H.mid = intern(H.gvec, H.gvec_len, CLAIM_TURN, &fresh);
    if (H.mid == CC_BAD) {
        oom();
        return;
    }
    H.mid_rec = !cc_graph_expand(H.g, H.mid);
    if (H.group_src == CC_BAD)
        cc_graph_set_root(H.g, H.mid);
    else if (H.group_rec)
        edge(H.group_src, H.mid, &H.group);
}

void smh_claim_try(int tid)
{
    if (H.oom || !H.g || !H.in_group)
        return;
    enter_claim_turn();
    H.claim = (sm_move){.active = true, .claim = true, .event = CC_SILENT, .pr = 0, .tid = tid};
}

int smh_claim_tried(int m)
{
    if (m && H.claim.active) {
        H.claim_moved = !H.claim.violated;
        H.claim_tid = H.claim.tid;
    }
    H.claim.active = false;
    return m;
}

void smh_bfs_store(const void *vec, int len, unsigned mode)
{
    if (H.oom || !H.g || !H.in_group)
        return;
    bool fresh;
    smh_bfs_store_id(intern(vec, len, mode, &fresh));
}

void smh_bfs_store_id(uint32_t id)
{
    if (H.oom || !H.g || !H.in_group)
        return;
    if (id == CC_BAD) {
        oom();
        return;
    }
    if (H.mid != CC_BAD) { /* after a claim move */
        sm_move m = {.claim = true, .event = CC_SILENT, .pr = 0, .tid = H.claim_tid};
        if (H.claim_moved && H.mid_rec)
            edge(H.mid, id, &m);
        if (H.claim_end)
            cc_graph_bad_state(H.g, id);
        H.claim_moved = H.claim_end = false;
    } else if (H.group_src == CC_BAD) {
        cc_graph_set_root(H.g, id); /* no never claim: the initial state itself */
    } else if (H.group_rec) {
        edge(H.group_src, id, &H.group);
    }
}

void smh_bfs_group_end(void)
{
    H.in_group = false;
    if (!H.oom && H.g && H.mid != CC_BAD && H.mid_rec && cc_graph_close(H.g, H.mid))
        oom();
}

void smh_error(const char *msg)
{
    if (H.oom || !H.g)
        return;
    if (strncmp(msg, "depth limit", 11) == 0) { /* pan's "depth limit reached" */
        H.truncated = true;
        return;
    }
    if (!H.hazard) {
        const char *claim =
            H.try_.active && H.try_.claim && H.claim_type >= 0 && H.claim_type < H.nproc
                ? H.procnames[H.claim_type]
                : NULL;
        size_t n = strlen(msg) + (claim ? strlen(claim) : 0) + 32;
        if ((H.hazard = malloc(n)))
            snprintf(H.hazard, n, "%s%s%s", claim ? "never claim " : "", claim ? claim : "",
                     claim ? ": " : "");
        if (H.hazard)
            strcat(H.hazard, msg);
    }
    if (H.try_.active) {
        if (H.try_.recording && !H.try_.violated)
            edge(H.try_.src, CC_BAD, &H.try_);
        H.try_.violated = true;
    } else if (H.claim.active) { /* BFS: the claim's move violates */
        if (H.mid_rec && !H.claim.violated)
            edge(H.mid, CC_BAD, &H.claim);
        H.claim.violated = true;
    } else if (H.in_group) { /* BFS: the claim reached its end: the stored state is bad */
        H.claim_end = true;
    } else {
        cc_graph_bad_state(H.g, H.cur);
    }
}

void smh_stats(double states, double matched, int done)
{
    H.states = states;
    H.transitions = states + matched;
    H.stopped = !done;
}

/* ---- the report at exit ---- */

/* Label text L alone when unambiguous; Proc.L when L exists in several proctypes;
 * Proc[pid].L when several instances of Proc executed L. */
static char *event_name(size_t k)
{
    const sm_label *l = &H.labels[H.ev[k].label];
    bool other_proc = false, other_pid = false;
    for (int i = 0; i < H.nlabels; i++)
        other_proc |= !strcmp(H.labels[i].label, l->label) && strcmp(H.labels[i].proc, l->proc);
    for (size_t i = 0; i < H.nev; i++)
        other_pid |= H.ev[i].label == H.ev[k].label && H.ev[i].pid != H.ev[k].pid;
    size_t len = strlen(l->proc) + strlen(l->label) + 32;
    char *s = malloc(len);
    if (!s)
        return NULL;
    if (other_pid)
        snprintf(s, len, "%s[%d].%s", l->proc, H.ev[k].pid, l->label);
    else if (other_proc)
        snprintf(s, len, "%s.%s", l->proc, l->label);
    else
        snprintf(s, len, "%s", l->label);
    return s;
}

static double peak_mb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6))
            kb = atof(line + 6);
    if (f)
        fclose(f);
    return kb / 1024.0;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Writes the JSON report to path through a temporary file, so that a failed run
 * leaves no half-written report behind. */
static int write_json(const char *path, const cc_result *r, const char *const *names,
                      const cc_run *run)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp)
        return -1;
    snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int rc = -1;
    if (f) {
        rc = cc_report_json(f, r, names, H.nev, run);
        rc |= fclose(f);
        if (!rc)
            rc = rename(tmp, path);
    }
    if (rc) {
        fprintf(stderr, "pancause: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return rc;
}

static const char *incomplete_reason(const cc_result *r)
{
    if (H.oom || (r && r->oom))
        return "out of memory";
    if (H.stopped)
        return "pan stopped its search early (memory limit, time limit -Q, or an interrupt)";
    if (H.flags & SMH_APPROX)
        return "pan was compiled with bitstate hashing or hash compaction, which may "
               "drop states";
    if (H.truncated)
        return "the search depth limit (-m) was reached; increase it with -mN";
    if (r && r->truncated)
        return "the history search hit its budget (--budget)";
    return NULL;
}

/* --trails: one per cause (and per non-occurrence its good run). */
static int trails(const cc_result *r, char ***bad, char ***good)
{
    cc_trail_opts o = {H.cfg.trails, H.model, H.claim_type, H.merged};
    return cc_write_trails(H.g, r, &o, bad, good);
}

/* Per event type the process that executes it: the timeline lanes of the HTML. */
static char **lane_names(void)
{
    char **l = calloc(H.nev + 1, sizeof *l);
    for (size_t k = 0; l && k < H.nev; k++) {
        const char *proc = H.labels[H.ev[k].label].proc;
        size_t n = strlen(proc) + 32;
        if ((l[k] = malloc(n)))
            snprintf(l[k], n, "%s (pid %d)", proc, H.ev[k].pid);
        else
            return l; /* cc_trails_free frees what there is; caller sees the NULL */
    }
    return l;
}

/* --fault-tree, --html (with --probabilities): the tree built from the causes. */
static int exports(const cc_result *r, char **names, const cc_run *run)
{
    if (!H.cfg.tree && !H.cfg.html)
        return 0;
    cc_ftree *t = cc_ftree_build(r, (const char *const *)names, H.nev, H.model,
                                 H.hazard ? H.hazard : "the hazard (not reached)");
    cc_probs p = {0};
    char *err = NULL;
    int rc = t ? 0 : -1;
    if (t && H.cfg.prob) {
        if (cc_prob_read(H.cfg.prob, &p, &err)) {
            fprintf(stderr, "pancause: %s\n", err ? err : "out of memory");
            rc = -1;
        } else
            cc_prob_apply(t, &p);
    }
    if (!rc && H.cfg.tree)
        rc = cc_ftree_write(t, H.cfg.tree);
    char **lanes = H.cfg.html ? lane_names() : NULL;
    bool lanes_ok = lanes && (H.nev == 0 || lanes[H.nev - 1]);
    if (!rc && H.cfg.html) {
        cc_html_in in = {r, (const char *const *)names, (const char *const *)lanes, H.nev, run, t};
        rc = lanes_ok ? cc_html_write(H.cfg.html, &in) : -1;
    }
    if (!t || (H.cfg.html && !lanes_ok))
        fprintf(stderr, "pancause: out of memory while building the fault tree\n");
    cc_trails_free(lanes, H.nev);
    cc_prob_free(&p);
    free(err);
    cc_ftree_free(t);
    return rc;
}

static int report(const cc_result *r, char **names)
{
    char **bad = NULL, **good = NULL;
    int trc = H.cfg.trails ? trails(r, &bad, &good) : 0;
    const char *why = incomplete_reason(r);
    cc_run run = {.search = H.search == SMH_BFS ? "bfs" : "dfs",
                  .complete = why == NULL,
                  .why_incomplete = why,
                  .ac2 = H.cfg.ac2,
                  .seconds = now_seconds() - H.cfg.start,
                  .peak_mb = peak_mb(),
                  .graph_mb = (double)cc_graph_bytes(H.g) / (1 << 20),
                  .states = H.states,
                  .transitions = H.transitions,
                  .model = H.model,
                  .trails = H.cfg.trails ? (const char *const *)bad : NULL,
                  .good_trails = (const char *const *)good};
    if (!bad)
        run.trails = NULL;
    fflush(stdout);
    int rc = cc_report_text(stdout, r, (const char *const *)names, H.nev, &run, H.cfg.color);
    fflush(stdout);
    if (H.cfg.json && write_json(H.cfg.json, r, (const char *const *)names, &run))
        rc = -1;
    if (exports(r, names, &run))
        rc = -1;
    cc_trails_free(bad, r->ncauses);
    cc_trails_free(good, r->ncauses);
    return rc | trc;
}

static void release(void)
{
    cc_graph_free(H.g);
    H.g = NULL;
    for (int i = 0; i < H.nproc; i++)
        free(H.label_at[i]);
    free(H.label_at);
    free(H.label_at_len);
    free(H.ev);
    free(H.stack);
    free(H.rec);
    free(H.gvec);
    free(H.key);
    free(H.hazard);
}

static size_t budget(void)
{
    if (H.cfg.budget >= 0)
        return (size_t)H.cfg.budget; /* 0: no limit */
    double b = SMH_BUDGET_PER_STATE * (double)cc_graph_states(H.g);
    return (size_t)(b > SMH_BUDGET_MIN ? b : SMH_BUDGET_MIN);
}

void smh_exit(int *status)
{
    if (!H.g) {
        release();
        return;
    }
    if (H.nev == 0 && H.nlabels == 0) {
        fprintf(stderr,
                "pancause: %s has no events. Label the statements whose occurrence "
                "may cause the hazard, e.g.\n    Gf: gate_failed = true\nSPIN's "
                "reserved labels (end*, progress*, accept*) are not events.\n",
                H.model);
        release();
        *status = 1;
        return;
    }
    char **names = calloc(H.nev + 1, sizeof *names);
    for (size_t k = 0; names && k < H.nev; k++)
        names[k] = event_name(k);
    cc_options o = {.ac2 = H.cfg.ac2,
                    .noprune = H.cfg.noprune,
                    .search_budget = budget(),
                    .progress = stdout,
                    .names = (const char *const *)names};
    cc_result *r = names ? cc_analyse(H.g, H.nev, &o) : NULL;
    if (!r || report(r, names))
        *status = 1;
    if (!r)
        fprintf(stderr, "pancause: out of memory in the causality analysis\n");
    cc_result_free(r);
    for (size_t k = 0; names && k < H.nev; k++)
        free(names[k]);
    free(names);
    release();
}
