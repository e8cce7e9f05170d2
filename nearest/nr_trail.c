/*
 * nr_trail.c - the counterexample: a SPIN trail file followed through the recorded
 * graph.
 *
 * A trail is pan's list of moves, `step:slot:t_id` per line, after header lines
 * (`-2:N:-2`: the never claim is proctype N; `-4:-4:-4`: SPIN merged statements;
 * `-1:-1:-1` marks where an acceptance cycle starts).  The recorded graph keeps pan's
 * (slot, t_id) for every edge (CC_G_MOVES), so the run is found by starting at the
 * initial state and taking, at each line, the one edge with that move: no replay, no
 * second interpretation of the model.  A line with no such edge means the trail is of
 * another model (or of states the recording did not reach: a depth limit).  The run
 * must end in a violation (its last move into CC_SINK, or a bad last state); the
 * steps are its process moves, each located by its process's control state in the
 * state before it.  On the subset construction of a guessing never claim's graph
 * (cc_graph_det) a state is a set, and the trail's claim moves are the set's one move
 * of the claim (claim_edge); the model's moves are still found by (slot, t_id).
 */
#include "nr_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void nr_path_free(nr_path *p)
{
    free(p->move);
    free(p->state);
    free(p->step);
    free(p->move_of);
    free(p->pan);
    memset(p, 0, sizeof *p);
}

int nr_path_steps(const cc_graph *g, const nr_model *m, int base, nr_path *p)
{
    size_t n = 0;
    for (size_t k = 0; k < p->nmoves; k++)
        n += !cc_graph_claim(g, p->move[k]);
    free(p->step);
    free(p->move_of);
    free(p->pan);
    p->step = malloc((n ? n : 1) * sizeof *p->step);
    p->move_of = malloc((n ? n : 1) * sizeof *p->move_of);
    p->pan = malloc((n ? n : 1) * sizeof *p->pan);
    if (!p->step || !p->move_of || !p->pan)
        return -1;
    p->n = 0;
    for (size_t k = 0; k < p->nmoves; k++) {
        uint32_t e = p->move[k];
        if (cc_graph_claim(g, e))
            continue;
        int pr, tid, proctype = -1, pc = -1;
        cc_graph_step(g, e, &pr, &tid);
        nr_location(m, p->state[k], pr - base, &proctype, &pc);
        p->step[p->n] = (nr_step){pr - base, proctype, pc, tid, p->state[k]};
        p->pan[p->n] = (cc_step){pr, tid};
        p->move_of[p->n++] = k;
    }
    return 0;
}

/* One trail line: three integers separated by ':'. */
static bool parse_line(const char *l, int v[3])
{
    char *end;
    for (int i = 0; i < 3; i++) {
        errno = 0;
        long x = strtol(l, &end, 10);
        if (end == l || errno || x < -1000000000L || x > 1000000000L)
            return false;
        v[i] = (int)x;
        l = end;
        if (i < 2) {
            if (*l != ':')
                return false;
            l++;
        }
    }
    while (*l == ' ' || *l == '\t' || *l == '\r')
        l++;
    return *l == 0;
}

/* The edge from s that is pan's move (pr, tid), or CC_NONE_EDGE. */
static uint32_t edge_of(const cc_graph *g, uint32_t s, int pr, int tid)
{
    for (uint32_t e = cc_graph_first(g, s); e != CC_NONE_EDGE; e = cc_graph_next(g, e)) {
        int p, t;
        cc_graph_step(g, e, &p, &t);
        if (p == pr && t == tid)
            return e;
    }
    return CC_NONE_EDGE;
}

/* On cc_graph_det's graph (a guessing never claim), the claim's move out of set s: a
 * set has one move of the claim into the set of its targets, and one into CC_SINK when
 * a branch violates by the move itself (cc_det.c), each carrying some member's (slot,
 * t_id) only, so the trail's own t_id names neither.  The trail's claim move is its
 * last when it violates (pan stops there): then the move into the sink, else the
 * other; either ends a's run in a violation when it is the last.  CC_NONE_EDGE: none. */
static uint32_t claim_edge(const cc_graph *g, uint32_t s, bool last)
{
    uint32_t into = CC_NONE_EDGE, sink = CC_NONE_EDGE;
    for (uint32_t e = cc_graph_first(g, s); e != CC_NONE_EDGE; e = cc_graph_next(g, e))
        if (cc_graph_claim(g, e)) {
            if (cc_graph_target(g, e) == CC_SINK)
                sink = e;
            else
                into = e;
        }
    return last && sink != CC_NONE_EDGE ? sink : into;
}

static int push_move(nr_path *a, size_t *cap, uint32_t e, uint32_t to)
{
    size_t c = *cap;
    if (U_GROW(a->move, c, a->nmoves))
        return -1;
    if (c != *cap) {
        uint32_t *s = realloc(a->state, (c + 1) * sizeof *s);
        if (!s)
            return -1;
        a->state = s;
        *cap = c;
    }
    a->move[a->nmoves++] = e;
    a->state[a->nmoves] = to;
    return 0;
}

/* The header lines against this pan: the same never claim, the same merging. */
static int header(const char *path, int line, const int v[3], const nr_context *c, bool *claim,
                  bool *merged, u_err *err)
{
    if (v[0] == -1)
        return u_errf(err,
                      "%s:%d: this trail is an acceptance cycle (a liveness counterexample: a "
                      "run that never ends); the nearest successful execution is defined for "
                      "finite counterexamples (assertions, invalid end states, safety claims)",
                      path, line);
    if (v[0] == -2) {
        if (c->claim_type < 0)
            return u_errf(err,
                          "%s:%d: the trail was written for a model with a never claim; this "
                          "model has none (a non-progress cycle's trail, pan -l with -DNP, "
                          "reads so too: that is a liveness counterexample, a run that never "
                          "ends, for which the nearest successful execution is not defined)",
                          path, line);
        if (v[1] != c->claim_type)
            return u_errf(err,
                          "%s:%d: the trail was written for another never claim (proctype %d, "
                          "this model's is %d)",
                          path, line, v[1], c->claim_type);
        *claim = true;
        return 0;
    }
    if (v[0] == -4) {
        *merged = true;
        return 0;
    }
    return u_errf(err, "%s:%d: unknown trail header line %d:%d:%d", path, line, v[0], v[1], v[2]);
}

/* The trail's moves, read and checked against this pan's header. */
typedef struct {
    int *pr, *tid, *num, *line; /* per move: slot, t_id, step number, line of the file */
    size_t n, cap;
} moves;

static void moves_free(moves *mv)
{
    free(mv->pr);
    free(mv->tid);
    free(mv->num);
    free(mv->line);
}

static int moves_push(moves *mv, const int v[3], int line)
{
    size_t c = mv->cap;
    if (U_GROW(mv->pr, c, mv->n))
        return -1;
    if (c != mv->cap) {
        int *a = realloc(mv->tid, c * sizeof *a), *b = NULL, *d = NULL;
        if (a)
            mv->tid = a;
        if (a && (b = realloc(mv->num, c * sizeof *b)))
            mv->num = b;
        if (b && (d = realloc(mv->line, c * sizeof *d)))
            mv->line = d;
        if (!d)
            return -1;
        mv->cap = c;
    }
    mv->pr[mv->n] = v[1];
    mv->tid[mv->n] = v[2];
    mv->num[mv->n] = v[0];
    mv->line[mv->n++] = line;
    return 0;
}

static int read_moves(char *text, const char *path, const nr_context *c, moves *mv, u_err *err)
{
    bool claim = false, merged = false;
    int line = 0;
    for (char *l = text, *nl; l && *l; l = nl) {
        nl = strchr(l, '\n');
        if (nl)
            *nl++ = 0;
        line++;
        if (!*l || !strcmp(l, "\r"))
            continue;
        int v[3];
        if (!parse_line(l, v))
            return u_errf(err, "%s:%d: not a trail line (step:process:transition): '%.40s'", path,
                          line, l);
        if (v[0] < 0) {
            /* pan -a writes its cycle mark -1:-1:-1 among the moves, where the cycle
             * starts: header() names it as a liveness trail (the third probe found the
             * "header line" message for it, 2026-11-28) */
            if (mv->n > 0 && v[0] != -1)
                return u_errf(err, "%s:%d: a header line after the moves", path, line);
            if (header(path, line, v, c, &claim, &merged, err))
                return -1;
            continue;
        }
        if (mv->n == 0 && claim != (c->claim_type >= 0))
            return u_errf(err,
                          "%s:%d: the trail has no never claim header, but this model has a "
                          "never claim",
                          path, line);
        if (mv->n == 0 && merged != c->merged)
            return u_errf(err,
                          "%s:%d: the trail was written by a pan %s statement merging, this "
                          "one is %s it (regenerate the trail with this pan.c)",
                          path, line, merged ? "with" : "without", c->merged ? "with" : "without");
        if (moves_push(mv, v, line))
            return u_oom(err);
    }
    if (mv->n == 0 && claim != (c->claim_type >= 0))
        return u_errf(err, "%s: the trail has no moves and another never claim header", path);
    return 0;
}

/* Why stock pan may have written a trail of a run that does not exist (the note
 * sm_hooks.c prints says more). */
static const char *spurious(const nr_context *c)
{
    return c->unrecv_restored ? "; stock pan's own search of this model is wrong after "
                                "receives into narrower variables (see the note above), "
                                "and its trail may be of a run that does not exist"
                              : "";
}

/* Why a real counterexample may not end in an error state of this pan: pan's
 * breadth-first search with rendezvous does not see every invalid end state (its own
 * warning; the eighth probe's P8-7e called such a trail "not a counterexample"). */
static const char *bfs_blind(const nr_context *c)
{
    bool rv = false;
    for (size_t i = 0; i < c->nwhy; i++)
        rv |= c->why[i] && strstr(c->why[i], "rendezvous") != NULL;
    return c->search && !strcmp(c->search, "bfs") && rv
               ? "; or this breadth-first build does not see its end as one (pan's "
                 "breadth-first search with rendezvous channels misses invalid end states, "
                 "as its warning says): run without --bfs"
               : "";
}

static int no_move(const char *path, const moves *mv, size_t k, const nr_context *c, u_err *err)
{
    return u_errf(err,
                  "%s:%d: step %d (process slot %d, transition %d) is no move of this model "
                  "from the state the trail has reached: the trail is not of this model%s%s",
                  path, mv->line[k], mv->num[k], mv->pr[k], mv->tid[k],
                  c->nwhy ? " (or of states the limited search did not reach)" : "", spurious(c));
}

/* A trail that lists every move, the claim's too (pan's depth-first trails): each line
 * is the one edge with its move. */
static int walk_strict(const cc_graph *g, const nr_model *m, const moves *mv, const char *path,
                       const nr_context *c, nr_path *a, u_err *err)
{
    size_t cap = 0;
    uint32_t cur = cc_graph_root(g);
    bool det = cc_graph_det_members(g) > 0;
    for (size_t k = 0; k < mv->n; k++) {
        if (cur == CC_SINK)
            return u_errf(err, "%s:%d: the trail goes on after its violation", path, mv->line[k]);
        if (!nr_model_has(m, cur))
            return u_errf(err,
                          "%s:%d: step %d starts from a state the search did not expand (a "
                          "depth limit? raise -m)",
                          path, mv->line[k], mv->num[k]);
        uint32_t e = det && c->claim_type >= 0 && mv->pr[k] == 0
                         ? claim_edge(g, cur, k + 1 == mv->n)
                         : edge_of(g, cur, mv->pr[k], mv->tid[k]);
        if (e == CC_NONE_EDGE)
            return no_move(path, mv, k, c, err);
        cur = cc_graph_target(g, e);
        if (push_move(a, &cap, e, cur == CC_SINK ? NR_NONE : cur))
            return u_oom(err);
    }
    return 0;
}

/* A trail without the never claim's moves (pan's breadth-first search makes them
 * inside store_state and does not list them): a breadth-first search over (state,
 * moves matched) in which the claim's moves are free finds the run, ending where the
 * last move violated or in a bad state. */
static int walk_free_claim(const cc_graph *g, const uint8_t *sf, const moves *mv, const char *path,
                           const nr_context *c, nr_path *a, u_err *err)
{
    typedef struct {
        uint32_t s, k, parent, edge;
    } node;
    node *q = NULL;
    size_t nq = 0, qcap = 0, best = 0;
    u_map seen = {0};
    uint32_t goal = U_INVALID, goal_edge = CC_NONE_EDGE;
    int rc = 0;
    if (U_GROW(q, qcap, nq))
        return u_oom(err);
    q[nq++] = (node){cc_graph_root(g), 0, U_INVALID, CC_NONE_EDGE};
    for (size_t x = 0; x < nq && goal == U_INVALID && !rc; x++) {
        node cur = q[x];
        if (cur.k > q[best].k)
            best = x;
        if (cur.k == mv->n && (sf[cur.s] & CC_SF_BAD)) {
            goal = (uint32_t)x;
            break;
        }
        for (uint32_t e = cc_graph_first(g, cur.s); e != CC_NONE_EDGE; e = cc_graph_next(g, e)) {
            int pr, tid;
            cc_graph_step(g, e, &pr, &tid);
            bool claim = cc_graph_claim(g, e);
            uint32_t k = cur.k;
            if (!claim) {
                if (k == mv->n || pr != mv->pr[k] || tid != mv->tid[k])
                    continue;
                k++;
            }
            uint32_t t = cc_graph_target(g, e);
            if (t == CC_SINK) {
                if (k == mv->n) {
                    goal = (uint32_t)x;
                    goal_edge = e;
                    break;
                }
                continue;
            }
            uint64_t key = (uint64_t)t * (mv->n + 1) + k;
            if (u_map_get(&seen, key) != U_INVALID)
                continue;
            if (u_map_put(&seen, key, 1) || U_GROW(q, qcap, nq)) {
                rc = u_oom(err);
                break;
            }
            q[nq++] = (node){t, k, (uint32_t)x, e};
        }
    }
    if (!rc && goal == U_INVALID)
        rc = q[best].k < mv->n ? no_move(path, mv, q[best].k, c, err)
                               : u_errf(err,
                                        "%s: the trail does not end in a violation of the "
                                        "property this pan checks: not a counterexample",
                                        path);
    if (!rc) {
        size_t len = goal_edge != CC_NONE_EDGE;
        for (uint32_t y = goal; q[y].parent != U_INVALID; y = q[y].parent)
            len++;
        a->move = malloc((len ? len : 1) * sizeof *a->move);
        uint32_t *st = realloc(a->state, (len + 1) * sizeof *a->state);
        if (st)
            a->state = st;
        if (!a->move || !st)
            rc = u_oom(err);
        else {
            a->nmoves = len;
            size_t k = len;
            if (goal_edge != CC_NONE_EDGE) {
                a->move[--k] = goal_edge;
                a->state[len] = NR_NONE;
            } else
                a->state[len] = q[goal].s;
            for (uint32_t y = goal; q[y].parent != U_INVALID; y = q[y].parent) {
                a->move[--k] = q[y].edge;
                if (k + 1 < len || goal_edge != CC_NONE_EDGE)
                    a->state[k + 1] = q[y].s;
            }
            a->state[0] = cc_graph_root(g);
        }
    }
    free(q);
    u_map_free(&seen);
    return rc;
}

static int follow_lines(const cc_graph *g, const uint8_t *sf, const nr_model *m, char *text,
                        const char *path, const nr_context *c, nr_path *a, u_err *err)
{
    moves mv = {0};
    int rc = read_moves(text, path, c, &mv, err);
    bool claim_moves = c->claim_type < 0;
    for (size_t k = 0; k < mv.n && !claim_moves; k++)
        claim_moves = mv.pr[k] == 0;
    a->state = malloc(sizeof *a->state);
    if (!rc && !a->state)
        rc = u_oom(err);
    if (!rc) {
        a->state[0] = cc_graph_root(g);
        rc = claim_moves ? walk_strict(g, m, &mv, path, c, a, err)
                         : walk_free_claim(g, sf, &mv, path, c, a, err);
    }
    moves_free(&mv);
    return rc;
}

/* The half-move of a rendezvous send out of s into a bad dead end, or CC_NONE_EDGE.
 * pan runs a rendezvous send as a move into a mid-rendezvous state where only the
 * receive may follow; when no process can receive, pan reports the invalid end state
 * there (the recorder marks that state bad), but its trail stops before the send. */
static uint32_t blocked_send(const cc_graph *g, const uint8_t *sf, uint32_t s)
{
    for (uint32_t e = cc_graph_first(g, s); e != CC_NONE_EDGE; e = cc_graph_next(g, e)) {
        uint32_t t = cc_graph_target(g, e);
        if (!cc_graph_claim(g, e) && cc_is_state(t) && (sf[t] & CC_SF_BAD) &&
            cc_graph_first(g, t) == CC_NONE_EDGE)
            return e;
    }
    return CC_NONE_EDGE;
}

int nr_follow(const cc_graph *g, const uint8_t *sf, const nr_model *m, const char *path,
              const nr_context *c, nr_path *a, u_err *err)
{
    memset(a, 0, sizeof *a);
    if (!cc_is_state(cc_graph_root(g)))
        return u_errf(err, "the search recorded no initial state");
    char *text = u_read_file(path, NULL, err);
    if (!text)
        return -1;
    int rc = follow_lines(g, sf, m, text, path, c, a, err);
    free(text);
    if (rc) {
        nr_path_free(a);
        return -1;
    }
    uint32_t last = a->state[a->nmoves];
    uint32_t send =
        last != NR_NONE && !(sf[last] & CC_SF_BAD) ? blocked_send(g, sf, last) : CC_NONE_EDGE;
    if (send != CC_NONE_EDGE) { /* a ends with the blocked send's half-move */
        uint32_t *mv = realloc(a->move, (a->nmoves + 1) * sizeof *mv);
        if (mv)
            a->move = mv;
        uint32_t *st = mv ? realloc(a->state, (a->nmoves + 2) * sizeof *st) : NULL;
        if (!st) {
            nr_path_free(a);
            return u_oom(err);
        }
        a->state = st;
        a->move[a->nmoves++] = send;
        last = a->state[a->nmoves] = cc_graph_target(g, send);
    }
    if (last != NR_NONE && !(sf[last] & CC_SF_BAD)) {
        nr_path_free(a);
        return u_errf(err,
                      "%s: the trail does not end in a violation of the property this pan "
                      "checks (its last state is no error state and its last move violates "
                      "nothing): not a counterexample%s%s%s",
                      path, c->claim_type >= 0 ? "" : " (or one of another property: -E, -A?)",
                      spurious(c), bfs_blind(c));
    }
    if (nr_path_steps(g, m, c->base, a)) {
        nr_path_free(a);
        return u_oom(err);
    }
    return 0;
}
