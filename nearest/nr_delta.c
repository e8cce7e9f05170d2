/*
 * nr_delta.c - the differences (Δs) between the counterexample a and the nearest run
 * b, and their slice (README "The closest successful execution": Δs and the Δ-slice).
 *
 * The alignment is walked as one merged sequence: aligned pairs in order, a's
 * unaligned steps (deleted) and b's (inserted) in the gaps between them.  The Δs:
 *   action   an aligned pair whose transitions differ (another option, else, select);
 *   deleted  a step of a in no pair;  inserted  a step of b in no pair;
 *   value    a variable that differs at an aligned pair (the states before the two
 *            steps): one Δ per stretch of consecutive pairs with the same two values,
 *            `steps` long, so the stretches' lengths sum to Δp.
 * Each Δ records what it depends on, walking forward:
 *   - a value Δ on the step that last wrote the variable in either run (its origin):
 *     a deleted or inserted step, a changed action, or an aligned pair with the same
 *     action whose read variables differed (data dependence: the value Δs of those);
 *   - a changed action on the value Δs of the variables its two transitions read (the
 *     guards saw different values) and on its process's earlier divergence;
 *   - a deleted or inserted step on its process's divergence: the last changed action
 *     of that process, until an aligned pair with equal actions re-joins it;
 *   - a deleted or inserted step on its control: its process's last decision in the run
 *     it was executed in (a step whose control state offers more than one transition,
 *     or whose statement may block: a condition, a send, a receive; is_decision).  The
 *     step could be taken only after that decision went the way it did: dynamic
 *     control dependence, with a blocking statement counted as a branch (proceed, or
 *     wait for ever).  A decision that is itself a Δ (a changed action, an unaligned
 *     step) is that Δ; one both runs take alike enters the slice as a step (VIA);
 *   - such a decision, taken alike, on the writes in a of the values it read (its
 *     condition held on them: data dependence); a write reached so enters as a step
 *     too, and depends, as any aligned pair, on the value Δs among its reads (a
 *     decision, also on its reads' writes as above), not further: the value it wrote
 *     was the same in both runs, so its history is one both runs share.
 * The slice's nodes are the Δs and those steps taken alike (VIA | M position).  Its
 * lines: a value Δ's is the statement of its origin's move that wrote the variable
 * (nr_writer_line; the whole move where no text says); a changed action's and an
 * unaligned step's, every statement of the move(s); a step taken alike's, those of the
 * roles in which the slice reaches it (close_slice, write_lines: a decision its first statement,
 * a write the statement that wrote the value read, with its own guard).
 * The seeds are where the error is avoided: a's violating step (its value Δs and
 * changed action when b executes it too, else its deletion); for a violation of the
 * never claim, the origins of the differing variables the claim's move reads; for an
 * invalid end state, b's first step of each process after a's end (what a could not
 * do) with the origins of the differences it reads, and for each process that stands
 * elsewhere at a's end than b at that point, its last Δ up to there (a changed action,
 * or steps one run took and the other did not).  The slice is everything the seeds
 * depend on, transitively.  Reads come from the statement texts (nr_reads).
 */
#include "nr_internal.h"

#include <stdlib.h>
#include <string.h>

enum { M_PAIR, M_DEL, M_INS };

typedef struct {
    int kind;
    long i, j;
} mpos;

/* A decision taken alike (M position `from`) read variable var, last written in a by
 * the step taken alike at M position pos: if the decision is in the slice, pos is too,
 * as that write, and names the line that wrote var (close_slice). */
typedef struct {
    uint32_t from, pos, var;
} wrote;

typedef struct {
    nr_model *m;
    const nr_path *a, *b;
    const nr_context *c;
    nr_deltas *d;
    mpos *M;
    size_t nM, Mcap;
    uint32_t *orig;       /* per variable: M position of its last write in either run */
    uint32_t *orig_a;     /* per variable: M position of its last write in a */
    uint32_t *pnode;      /* per M position: the Δ of that step (action, deleted, inserted) */
    uint32_t dec[2][256]; /* per run (a, b) and pid: M position of its last decision */
    uint32_t **pdep;      /* per M position of an equal pair: the nodes it depends on */
    size_t *npdep;
    uint32_t *vopen; /* per variable: its value Δ of the last pair, NR_NONE */
    size_t *vseen;   /* per variable: the pair ordinal where vopen was last seen */
    uint32_t *ctl;   /* per pid: the changed action its process diverged at */
    size_t nctl;
    uint32_t **cause; /* per M position: the Δs that explain what happened there */
    size_t *ncause;
    size_t *nfirst; /* per equal pair: cause[pos][0 .. nfirst) are the value Δs its first
                       statements read (its decision), the rest those only merged ones read */
    uint32_t *tmp;  /* scratch lists */
    size_t ntmp, tmpcap;
    wrote *wrote; /* the edges from decisions to writes taken alike, with their variable */
    size_t nwrote, wrotecap;
    bool oom;
} walk;

static uint32_t add_delta(walk *w, nr_delta x)
{
    nr_deltas *d = w->d;
    if (U_GROW(d->d, d->cap, d->n)) {
        w->oom = true;
        return NR_NONE;
    }
    d->d[d->n] = x;
    return (uint32_t)d->n++;
}

static void add_dep(walk *w, uint32_t x, uint32_t dep)
{
    if (x == NR_NONE || dep == NR_NONE || dep == x)
        return;
    nr_delta *d = &w->d->d[x];
    for (size_t k = 0; k < d->ndep; k++)
        if (d->dep[k] == dep)
            return;
    if (U_GROW(d->dep, d->depcap, d->ndep)) {
        w->oom = true;
        return;
    }
    d->dep[d->ndep++] = dep;
}

/* The nodes of the dependence graph: the Δs (their indices) and the aligned pairs with
 * equal actions (VIA | M position) through which a dependence passes. */
#define VIA 0x80000000u

static uint32_t node_of(const walk *w, uint32_t pos)
{
    if (pos == NR_NONE)
        return NR_NONE;
    return w->pnode[pos] != NR_NONE ? w->pnode[pos] : (VIA | pos);
}

/* Appends x to the list (*l, *n) unless it is there already (lists are a few long). */
static void add_unique(walk *w, uint32_t **l, size_t *n, uint32_t x)
{
    for (size_t k = 0; k < *n; k++)
        if ((*l)[k] == x)
            return;
    uint32_t *c = realloc(*l, (*n + 1) * sizeof *c);
    if (!c) {
        w->oom = true;
        return;
    }
    c[(*n)++] = x;
    *l = c;
}

/* Node x depends on node dep (x a Δ or a VIA node). */
static void add_edge(walk *w, uint32_t x, uint32_t dep)
{
    if (x == NR_NONE || !(x & VIA)) {
        add_dep(w, x, dep);
        return;
    }
    uint32_t pos = x & ~VIA;
    if (dep != NR_NONE && dep != x)
        add_unique(w, &w->pdep[pos], &w->npdep[pos], dep);
}

/* Records that the decision at M position from read var, written by node to, if to
 * is a step taken alike (else nothing: a Δ names its own lines). */
static void add_wrote(walk *w, uint32_t from, uint32_t to, uint32_t var)
{
    if (to == NR_NONE || !(to & VIA))
        return;
    if (U_GROW(w->wrote, w->wrotecap, w->nwrote)) {
        w->oom = true;
        return;
    }
    w->wrote[w->nwrote++] = (wrote){from, to & ~VIA, var};
}

static int push_m(walk *w, int kind, long i, long j)
{
    if (U_GROW(w->M, w->Mcap, w->nM))
        return -1;
    w->M[w->nM++] = (mpos){kind, i, j};
    return 0;
}

/* The merged sequence (nr_rows). */
static int merge(walk *w, const int32_t *pair)
{
    nr_row *rows;
    size_t n;
    if (nr_rows(w->a->n, w->b->n, pair, &rows, &n))
        return -1;
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++)
        rc = push_m(w,
                    rows[k].i >= 0 && rows[k].j >= 0 ? M_PAIR
                    : rows[k].i >= 0                 ? M_DEL
                                                     : M_INS,
                    rows[k].i, rows[k].j);
    free(rows);
    return rc;
}

/* The state after step k of run p (before its next step; the last state at the end).
 * When the run's last move violated: a never claim's move after step k leaves step k's
 * effects in the state before that move (before 2026-11-26 the state before step k was
 * taken, so a's last step wrote nothing and the values at a's end were one step old:
 * cases/nearest-oracle/slice_ref.py found it); step k's own violating move (a failing
 * assert) has no state after it, and the state before it stands. */
static uint32_t after(const nr_path *p, size_t k)
{
    if (k + 1 < p->n)
        return p->step[k + 1].state;
    uint32_t last = p->state[p->nmoves];
    if (last != NR_NONE)
        return last;
    return p->move_of[k] + 1 < p->nmoves ? p->state[p->nmoves - 1] : p->step[k].state;
}

/* The variables (regular) whose presence or value differs between s and t, into
 * w->tmp. */
static void diff_list(walk *w, uint32_t s, uint32_t t)
{
    w->ntmp = 0;
    const int32_t *x, *y;
    const nr_layout *A = nr_layout_of(w->m, s, &x), *B = nr_layout_of(w->m, t, &y);
    uint32_t i = 0, j = 0;
    while (i < A->nreg || j < B->nreg) {
        uint32_t v;
        if (j == B->nreg || (i < A->nreg && A->var[i] < B->var[j]))
            v = A->var[i++];
        else if (i == A->nreg || B->var[j] < A->var[i])
            v = B->var[j++];
        else if (x[i] != y[j]) {
            v = A->var[i];
            i++, j++;
        } else {
            i++, j++;
            continue;
        }
        if (U_GROW(w->tmp, w->tmpcap, w->ntmp)) {
            w->oom = true;
            return;
        }
        w->tmp[w->ntmp++] = v;
    }
}

static int step_line(const nr_model *m, const nr_path *p, long k)
{
    return nr_line(m, p->step[k].proctype, p->step[k].tid);
}

/* The step whose line a Δ names: sets its line and its move (for the merged
 * statements' lines). */
static void at_step(const nr_model *m, const nr_path *p, long k, int *line, int *pt, int *tid)
{
    *line = step_line(m, p, k);
    *pt = p->step[k].proctype;
    *tid = p->step[k].tid;
}

static const nr_step *pos_step(const walk *w, uint32_t pos)
{
    const mpos *x = &w->M[pos];
    return x->i >= 0 ? &w->a->step[x->i] : &w->b->step[x->j];
}

static void add_cause(walk *w, uint32_t pos, uint32_t delta)
{
    if (delta != NR_NONE)
        add_unique(w, &w->cause[pos], &w->ncause[pos], delta);
}

static uint32_t *ctl_of(walk *w, int pid)
{
    static uint32_t none = NR_NONE;
    if (pid < 0)
        return &none;
    if ((size_t)pid >= w->nctl) {
        size_t n = (size_t)pid + 8;
        uint32_t *c = realloc(w->ctl, n * sizeof *c);
        if (!c) {
            w->oom = true;
            return &none;
        }
        for (size_t k = w->nctl; k < n; k++)
            c[k] = NR_NONE;
        w->ctl = c;
        w->nctl = n;
    }
    return &w->ctl[pid];
}

/* The reads of step k of run p, into *r (n of them): its first statement's, which
 * decided whether it ran. */
static void reads_of(walk *w, const nr_path *p, long k, uint32_t **r, size_t *n)
{
    const nr_step *s = &p->step[k];
    if (nr_reads(w->m, s->pid, s->proctype, s->tid, r, n))
        w->oom = true;
}

/* The reads of the statements SPIN merged into step k of run p, appended to *r: with
 * reads_of's, what the values it writes (and an assert merged into it) depend on. */
static void merged_reads_of(walk *w, const nr_path *p, long k, uint32_t **r, size_t *n)
{
    const nr_step *s = &p->step[k];
    if (nr_reads_merged(w->m, s->pid, s->proctype, s->tid, r, n))
        w->oom = true;
}

/* Every variable written by step k of run p (its value or presence changes) gets
 * M position pos as its origin. */
static void writes(walk *w, const nr_path *p, long k, uint32_t pos)
{
    diff_list(w, p->step[k].state, after(p, k));
    for (size_t x = 0; x < w->ntmp; x++) {
        w->orig[w->tmp[x]] = pos;
        if (p == w->a)
            w->orig_a[w->tmp[x]] = pos;
    }
}

/* Whether a statement is a decision: its control state offers more than one
 * transition (an if/do option, else), or it can block (a condition, a send or a
 * receive); not an assignment, print, assert, skip or jump, which always proceed. */
static bool is_decision(const nr_model *m, int proctype, int tid)
{
    int t = nr_trans_of(m, proctype, tid);
    if (t < 0)
        return false;
    size_t n = 0;
    for (size_t k = 0; k < m->ntrans; k++)
        n += m->trans[k].proctype == proctype && m->trans[k].state == m->trans[t].state;
    if (n > 1)
        return true;
    const char *x = m->trans[t].text;
    static const char *const always[] = {"printf", "printm", "assert",  "skip", "goto",
                                         "break",  "-end-",  ".(goto)", "run ", "D_STEP",
                                         "ATOMIC", "IF",     "DO"};
    for (size_t k = 0; k < sizeof always / sizeof always[0]; k++)
        if (!strncmp(x, always[k], strlen(always[k])))
            return false;
    for (const char *c = x; *c; c++)
        if (*c == '=' && c[1] != '=' && (c == x || !strchr("=!<>", c[-1])))
            return false; /* an assignment */
    return true;
}

static nr_delta value_delta(walk *w, uint32_t v, uint32_t sa, uint32_t sb, long i, long j)
{
    nr_delta x = {.kind = NR_D_VALUE, .step_a = i, .step_b = j, .var = v, .pt = -1, .pt_b = -1};
    x.has_a = nr_value(w->m, sa, v, &x.value_a);
    x.has_b = nr_value(w->m, sb, v, &x.value_b);
    uint32_t o = w->orig[v];
    if (o == NR_NONE)
        return x;
    /* the line of the step that wrote v there: a's where a's did, else b's (a changed
     * action whose b side alone wrote it) */
    const mpos *p = &w->M[o];
    if (p->i >= 0 && p->j >= 0 && w->orig_a[v] != o)
        at_step(w->m, w->b, p->j, &x.line, &x.pt, &x.tid);
    else if (p->i >= 0)
        at_step(w->m, w->a, p->i, &x.line, &x.pt, &x.tid);
    else
        at_step(w->m, w->b, p->j, &x.line, &x.pt, &x.tid);
    /* the statement of that move that wrote v, where its text says so: that line alone */
    int wl = nr_writer_line(w->m, x.pt, x.tid, v);
    if (wl > 0) {
        x.line = wl;
        x.pt = -1;
    }
    return x;
}

/* A new value Δ depends on the causes at its variable's origin. */
static void value_deps(walk *w, uint32_t x)
{
    uint32_t o = w->orig[w->d->d[x].var];
    for (size_t k = 0; o != NR_NONE && k < w->ncause[o]; k++)
        add_dep(w, x, w->cause[o][k]);
}

/* The value Δs open at pair ordinal q for the variables r reads, as causes of pos
 * (and deps of delta, if not NR_NONE). */
static void data_deps(walk *w, const uint32_t *r, size_t nr, size_t q, uint32_t pos, uint32_t delta)
{
    for (size_t k = 0; k < nr; k++) {
        uint32_t v = r[k];
        if (w->vopen[v] != NR_NONE && w->vseen[v] == q) {
            if (delta != NR_NONE)
                add_dep(w, delta, w->vopen[v]);
            else
                add_cause(w, pos, w->vopen[v]);
        }
    }
}

/* Step s of run r (0 a, 1 b) at M position pos: the last decision of its process, if
 * it is one. */
static void set_decision(walk *w, int r, const nr_step *s, uint32_t pos)
{
    if (s->pid >= 0 && s->pid < 256 && is_decision(w->m, s->proctype, s->tid))
        w->dec[r][s->pid] = pos;
}

static void do_pair(walk *w, uint32_t pos, size_t q)
{
    const mpos *x = &w->M[pos];
    const nr_step *sa = &w->a->step[x->i], *sb = &w->b->step[x->j];
    nr_deltas *d = w->d;
    /* the value Δs of this pair (Δp) */
    diff_list(w, sa->state, sb->state);
    for (size_t k = 0; k < w->ntmp; k++) {
        uint32_t v = w->tmp[k];
        nr_delta nv = value_delta(w, v, sa->state, sb->state, x->i, x->j);
        uint32_t o = w->vopen[v];
        d->dp++;
        if (o != NR_NONE && w->vseen[v] + 1 == q && d->d[o].has_a == nv.has_a &&
            d->d[o].has_b == nv.has_b && d->d[o].value_a == nv.value_a &&
            d->d[o].value_b == nv.value_b) {
            d->d[o].steps++;
        } else {
            nv.steps = 1;
            o = add_delta(w, nv);
            if (o == NR_NONE)
                return;
            value_deps(w, o);
            w->vopen[v] = o;
        }
        w->vseen[v] = q;
    }
    /* r: what the two first statements read (the choice); mr: what the statements
     * merged into the moves read (with r, what the values they write depend on) */
    uint32_t *r = NULL, *mr = NULL;
    size_t nr = 0, nmr = 0;
    reads_of(w, w->a, x->i, &r, &nr);
    reads_of(w, w->b, x->j, &r, &nr);
    merged_reads_of(w, w->a, x->i, &mr, &nmr);
    merged_reads_of(w, w->b, x->j, &mr, &nmr);
    uint32_t *ctl = ctl_of(w, sa->pid);
    if (sa->tid != sb->tid) {
        d->da++;
        nr_delta ax = {.kind = NR_D_ACTION, .step_a = x->i, .step_b = x->j, .var = NR_NONE};
        at_step(w->m, w->a, x->i, &ax.line, &ax.pt, &ax.tid);
        at_step(w->m, w->b, x->j, &ax.line_b, &ax.pt_b, &ax.tid_b);
        uint32_t ad = add_delta(w, ax);
        data_deps(w, r, nr, q, pos, ad);
        add_dep(w, ad, *ctl);
        add_cause(w, pos, ad);
        /* the values the moves write depend on what all their statements read */
        data_deps(w, r, nr, q, pos, NR_NONE);
        data_deps(w, mr, nmr, q, pos, NR_NONE);
        w->pnode[pos] = ad;
        *ctl = ad;
    } else {
        data_deps(w, r, nr, q, pos, NR_NONE);
        w->nfirst[pos] = w->ncause[pos];
        data_deps(w, mr, nmr, q, pos, NR_NONE);
        /* a decision both runs take alike held on the values it read in a: it
         * depends on their writes (it is reached only from an unaligned step's control
         * dependence, or from another decision).  r is what a's first statement reads:
         * b's is the same statement of the same process */
        if (is_decision(w->m, sa->proctype, sa->tid))
            for (size_t k = 0; k < nr; k++) {
                uint32_t to = node_of(w, w->orig_a[r[k]]);
                add_edge(w, VIA | pos, to);
                add_wrote(w, pos, to, r[k]);
            }
        *ctl = NR_NONE;
    }
    free(r);
    free(mr);
    set_decision(w, 0, sa, pos);
    set_decision(w, 1, sb, pos);
    writes(w, w->a, x->i, pos);
    writes(w, w->b, x->j, pos);
}

static void do_unaligned(walk *w, uint32_t pos)
{
    const mpos *x = &w->M[pos];
    bool del = x->kind == M_DEL;
    const nr_path *p = del ? w->a : w->b;
    long k = del ? x->i : x->j;
    if (del)
        w->d->dc_a++;
    else
        w->d->dc_b++;
    nr_delta ux = {.kind = del ? NR_D_DELETED : NR_D_INSERTED,
                   .step_a = del ? k : -1,
                   .step_b = del ? -1 : k,
                   .var = NR_NONE,
                   .pt_b = -1};
    at_step(w->m, p, k, &ux.line, &ux.pt, &ux.tid);
    uint32_t u = add_delta(w, ux);
    add_dep(w, u, *ctl_of(w, p->step[k].pid));
    add_cause(w, pos, u);
    w->pnode[pos] = u;
    /* control: the decision of its process that let it reach this step in its run */
    int pid = p->step[k].pid;
    if (pid >= 0 && pid < 256)
        add_dep(w, u, node_of(w, w->dec[!del][pid]));
    set_decision(w, !del, &p->step[k], pos);
    writes(w, p, k, pos);
}

/* ---- seeds and slice ---- */

static void seed(walk *w, uint32_t delta)
{
    if (delta != NR_NONE)
        w->d->d[delta].in_slice = true;
}

/* The value Δ of variable v at the end of a (a's last state sa against b's state sb
 * at the same point, after b's step j), not counted in Δp (steps 0), depending on v's
 * origin, and a seed. */
static void end_value(walk *w, uint32_t v, uint32_t sa, uint32_t sb, long j)
{
    nr_delta nv = value_delta(w, v, sa, sb, (long)w->a->n - 1, j);
    nv.steps = 0;
    uint32_t x = add_delta(w, nv);
    if (x == NR_NONE)
        return;
    value_deps(w, x);
    seed(w, x);
}

/* Where a's last step is in the merged sequence. */
static size_t a_end_pos(const walk *w)
{
    size_t e = 0;
    for (size_t k = 0; k < w->nM; k++)
        if (w->M[k].i >= 0)
            e = k;
    return e;
}

static void add_reads(walk *w, uint32_t **r, size_t *nr, int pid, int proctype, int tid)
{
    if (nr_reads(w->m, pid, proctype, tid, r, nr))
        w->oom = true;
}

/* a's last step violates by itself (an assert): b passes it with other values or
 * another action, or does not take it at all. */
static void seed_step(walk *w, size_t e)
{
    const mpos *x = &w->M[e];
    if (x->kind == M_DEL) {
        for (size_t c = 0; c < w->ncause[e]; c++)
            seed(w, w->cause[e][c]);
        return;
    }
    size_t q = 0; /* the pair's ordinal */
    for (size_t k = 0; k <= e; k++)
        q += w->M[k].kind == M_PAIR;
    uint32_t *r = NULL;
    size_t nr = 0;
    bool any = false;
    reads_of(w, w->a, x->i, &r, &nr);
    merged_reads_of(w, w->a, x->i, &r, &nr); /* an assert may be merged into the move */
    for (size_t k = 0; k < nr; k++)
        if (w->vopen[r[k]] != NR_NONE && w->vseen[r[k]] == q) {
            seed(w, w->vopen[r[k]]);
            any = true;
        }
    for (size_t k = 0; k < w->d->n; k++)
        if (w->d->d[k].kind == NR_D_ACTION && w->d->d[k].step_a == x->i) {
            seed(w, (uint32_t)k);
            any = true;
        }
    /* b passes the step with the same action, yet no variable its statements name
     * differs: their texts do not say all they read (a move whose merged statements
     * are unknown, under SPIN's case caching): every difference at the pair is a
     * candidate */
    for (size_t v = 0; !any && v < w->m->nvars; v++)
        if (w->vopen[v] != NR_NONE && w->vseen[v] == q)
            seed(w, w->vopen[v]);
    free(r);
}

/* What process pid, waiting at control state pc of proctype pt, reads: the statements
 * pan.t declares there and, behind an IF/DO/ATOMIC pseudo-transition, its options' (or
 * the atomic sequence's) first statements (nested ones followed alike, 8 deep at most;
 * ATOMIC since the rich nearest oracle's seeds 316 and 437).  Before 2026-11-26 the
 * pseudo-transitions' text ("IF", naming nothing) was all that was read, so the
 * guards of a waiting if/do counted only where SPIN had declared them at the state
 * itself (slice_ref.py's seeds 36, 116 against 308). */
static void waiting_reads(walk *w, int pid, int pt, int pc, uint32_t **r, size_t *nr, int depth)
{
    for (size_t t = 0; t < w->m->ntrans; t++) {
        const nr_trans *x = &w->m->trans[t];
        if (x->proctype != pt || x->state != pc)
            continue;
        if (strcmp(x->text, "IF") && strcmp(x->text, "DO") && strcmp(x->text, "ATOMIC"))
            add_reads(w, r, nr, pid, pt, x->tid);
        else if (x->target > 0 && x->target != pc && depth < 8)
            waiting_reads(w, pid, pt, x->target, r, nr, depth + 1);
    }
}

/* The last Δ of process pid at M positions 0..e (NR_NONE if its steps there are all
 * equal pairs). */
static uint32_t last_delta_of(const walk *w, int pid, size_t e)
{
    for (size_t k = e + 1; k-- > 0;) {
        const mpos *x = &w->M[k];
        int p = x->i >= 0 ? w->a->step[x->i].pid : w->b->step[x->j].pid;
        if (p == pid)
            return w->pnode[k];
    }
    return NR_NONE;
}

static void seeds(walk *w, const cc_graph *g)
{
    const nr_path *a = w->a, *b = w->b;
    if (a->n == 0)
        return;
    size_t e = a_end_pos(w);
    uint32_t last = a->state[a->nmoves];
    bool claim_move = last == NR_NONE && a->move_of[a->n - 1] != a->nmoves - 1;
    if (last == NR_NONE && !claim_move) {
        seed_step(w, e);
        return;
    }
    /* a ends in an invalid end state or by the never claim: what b does next that a
     * could not (each process's first step after a's end), and the differences at a's
     * end that those steps or the claim read */
    long jb = -1;
    for (size_t k = 0; k <= e; k++)
        if (w->M[k].j >= 0)
            jb = w->M[k].j;
    uint32_t sa = after(a, a->n - 1);
    uint32_t sb = jb >= 0 ? after(b, (size_t)jb) : b->state[0];
    uint32_t *r = NULL;
    size_t nr = 0;
    if (claim_move) {
        int pr, tid;
        cc_graph_step(g, a->move[a->nmoves - 1], &pr, &tid);
        add_reads(w, &r, &nr, -1, w->c->claim_type, tid);
    } else if (w->c->claim_type >= 0) {
        /* a condemned last state: the claim alone goes on to its violation, by moves
         * the trail does not hold, so what any of its statements reads (before
         * 2026-11-26 every differing global was taken: slice_ref.py's seed 79) */
        for (size_t t = 0; t < w->m->ntrans; t++)
            if (w->m->trans[t].proctype == w->c->claim_type)
                add_reads(w, &r, &nr, -1, w->c->claim_type, w->m->trans[t].tid);
    }
    /* a's own last steps that b leaves out (after the last aligned pair): what a did
     * that led into the dead end */
    for (size_t k = e + 1; k-- > 0 && w->M[k].kind == M_DEL;)
        for (size_t c = 0; c < w->ncause[k]; c++)
            seed(w, w->cause[k][c]);
    bool seen_pid[256] = {false};
    for (size_t k = e + 1; k < w->nM; k++) {
        const mpos *y = &w->M[k];
        int pid = y->kind == M_INS ? b->step[y->j].pid : -1;
        if (pid < 0 || pid >= 256 || seen_pid[pid])
            continue;
        seen_pid[pid] = true;
        for (size_t c = 0; c < w->ncause[k]; c++)
            seed(w, w->cause[k][c]);
        reads_of(w, b, y->j, &r, &nr);
    }
    /* a process that stands elsewhere at a's end than at b's matching point got there
     * through its last Δ up to a's end: a changed action, or steps one run took and
     * the other did not (an invalid end state that b avoids by taking another option,
     * or by moving the process on earlier, and ending with a: nothing of b follows
     * a's end to read).  Since aligned pairs sit at one control location, a process
     * whose last step up to there was an equal pair stands alike in both runs. */
    for (int pid = 0; pid < 256; pid++) {
        int ta, ca, tb, cb;
        bool ia = nr_location(w->m, sa, pid, &ta, &ca);
        bool ib = nr_location(w->m, sb, pid, &tb, &cb);
        if (ia != ib || (ia && (ta != tb || ca != cb)))
            seed(w, last_delta_of(w, pid, e));
    }
    /* an invalid end state: each process waits at its control state in a's last state
     * for one of the statements there (pan.t's transitions out of that state), so a
     * difference those read is one the blocking depends on (b may end right there,
     * with nothing of b after a's end to read it) */
    for (int pid = 0; !claim_move && w->c->claim_type < 0 && pid < 256; pid++) {
        int pt, pc;
        if (nr_location(w->m, sa, pid, &pt, &pc))
            waiting_reads(w, pid, pt, pc, &r, &nr, 0);
    }
    /* nothing seeded yet and the waiting statements' reads unknown (no statement
     * text naming a variable): every difference at a's end is a candidate, as at a
     * merged statement.  Only then: with reads known, the fallback also took every
     * other difference whenever the reads were the only seeds (the rich nearest
     * oracle's seeds 325 and 471: x beside the waited-on z) */
    bool none = !claim_move && nr == 0;
    for (size_t k = 0; k < w->d->n && none; k++)
        none = !w->d->d[k].in_slice;
    diff_list(w, sa, sb);
    for (size_t k = 0; k < w->ntmp; k++) {
        uint32_t v = w->tmp[k];
        bool read = none && w->m->var[v].kind != NR_V_PC;
        for (size_t q = 0; q < nr && !read; q++)
            read = r[q] == v;
        if (read)
            end_value(w, v, sa, sb, jb);
    }
    free(r);
}

/* Appends to the slice's lines line (when known) and the lines of the statements
 * SPIN merged into the move (pt, tid) (pt -1: none): `spin -t -p` prints them under
 * the move's step.  -1 when out of memory. */
static int move_lines(nr_deltas *d, size_t *cap, const nr_model *m, int line, int pt, int tid)
{
    const int *hop = NULL;
    size_t nh = pt >= 0 ? nr_merged(m, pt, tid, &hop) : 0;
    for (size_t k = 0; k <= nh; k++) {
        int l = k == 0 ? line : nr_trans_line(m, hop[k - 1]);
        if (l <= 0)
            continue;
        if (U_GROW(d->lines, *cap, d->nlines))
            return -1;
        d->lines[d->nlines++] = l;
    }
    return 0;
}

/* The lines a step taken alike (s, a's step) adds to the slice as the write of var:
 * the statement that wrote it and, when the move's first statement is a decision,
 * that too (the write happened because its own guard held); every line of the move
 * where no text names the writer.  -1 when out of memory. */
static int write_lines(nr_deltas *d, size_t *cap, const nr_model *m, const nr_step *s, uint32_t var)
{
    int first = nr_line(m, s->proctype, s->tid);
    int wl = nr_writer_line(m, s->proctype, s->tid, var);
    if (wl <= 0)
        return move_lines(d, cap, m, first, s->proctype, s->tid);
    if (is_decision(m, s->proctype, s->tid) && move_lines(d, cap, m, first, -1, 0))
        return -1;
    return move_lines(d, cap, m, wl, -1, 0);
}

static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* The slice: every node the seeds depend on, transitively; its lines are the Δs' and
 * the equal pairs' (VIA) it passes through. */
static int close_slice(walk *w)
{
    nr_deltas *d = w->d;
    /* a step taken alike is reached as a decision (from a Δ: an unaligned step's
     * control) or as a write (from a decision's reads, pdep): as a decision it depends
     * on what its first statements read, as a write on what all its statements read
     * (README "Merged statements"); so each is visited once per role */
    enum { AS_DECISION = 1, AS_WRITE = 2 };
    uint8_t *via = calloc(w->nM + 1, sizeof *via);
    size_t cap = d->n + 2 * w->nM + 1, k = 0;
    uint32_t *work = malloc(cap * sizeof *work);
    uint8_t *role_of = malloc(cap * sizeof *role_of);
    if (!work || !via || !role_of) {
        free(work);
        free(via);
        free(role_of);
        return -1;
    }
    for (size_t i = 0; i < d->n; i++)
        if (d->d[i].in_slice)
            work[k++] = (uint32_t)i;
    while (k) {
        k--;
        uint32_t x = work[k];
        uint8_t as = role_of[k]; /* read before the pushes below reuse slot k */
        const uint32_t *dep[2];
        size_t ndep[2];
        if (x & VIA) {
            uint32_t pos = x & ~VIA;
            dep[0] = w->cause[pos];
            ndep[0] = as == AS_WRITE ? w->ncause[pos] : w->nfirst[pos];
            dep[1] = w->pdep[pos], ndep[1] = w->npdep[pos];
        } else {
            dep[0] = d->d[x].dep, ndep[0] = d->d[x].ndep;
            ndep[1] = 0;
        }
        uint8_t reach = x & VIA ? AS_WRITE : AS_DECISION;
        for (int h = 0; h < 2; h++)
            for (size_t j = 0; j < ndep[h]; j++) {
                uint32_t y = dep[h][j];
                if (y & VIA) {
                    if (via[y & ~VIA] & reach)
                        continue;
                    via[y & ~VIA] |= reach;
                } else if (d->d[y].in_slice)
                    continue;
                else
                    d->d[y].in_slice = true;
                role_of[k] = reach;
                work[k++] = y;
            }
    }
    free(role_of);
    free(work);
    size_t lcap = 0;
    for (size_t i = 0; i < d->n; i++) {
        const nr_delta *x = &d->d[i];
        if (!x->in_slice)
            continue;
        d->nslice++;
        if (move_lines(d, &lcap, w->m, x->line, x->pt, x->tid) ||
            (x->kind == NR_D_ACTION && move_lines(d, &lcap, w->m, x->line_b, x->pt_b, x->tid_b))) {
            free(via);
            return -1;
        }
    }
    /* a step taken alike names the lines of the roles in which the slice reached it:
     * as a decision its first statement's; as a write, for each decision in the slice
     * that read a value it wrote (whose pdep made it AS_WRITE), that value's writer */
    for (size_t p = 0; p < w->nM; p++) {
        d->nvia += via[p] != 0;
        const nr_step *s = pos_step(w, (uint32_t)p);
        if ((via[p] & AS_DECISION) &&
            move_lines(d, &lcap, w->m, nr_line(w->m, s->proctype, s->tid), -1, 0)) {
            free(via);
            return -1;
        }
    }
    for (size_t q = 0; q < w->nwrote; q++) {
        const wrote *r = &w->wrote[q];
        if (via[r->from] && write_lines(d, &lcap, w->m, pos_step(w, r->pos), r->var)) {
            free(via);
            return -1;
        }
    }
    free(via);
    if (d->nlines)
        qsort(d->lines, d->nlines, sizeof *d->lines, cmp_int);
    size_t u = 0;
    for (size_t i = 0; i < d->nlines; i++)
        if (!u || d->lines[u - 1] != d->lines[i])
            d->lines[u++] = d->lines[i];
    d->nlines = u;
    return 0;
}

int nr_deltas_build(const cc_graph *g, nr_model *m, const nr_path *a, const nr_found *f,
                    const nr_context *c, nr_deltas *d)
{
    memset(d, 0, sizeof *d);
    walk w = {.m = m, .a = a, .b = &f->b, .c = c, .d = d};
    size_t nv = m->nvars + 1;
    w.orig = malloc(nv * sizeof *w.orig);
    w.orig_a = malloc(nv * sizeof *w.orig_a);
    w.vopen = malloc(nv * sizeof *w.vopen);
    w.vseen = calloc(nv, sizeof *w.vseen);
    int rc = -1;
    if (!w.orig || !w.orig_a || !w.vopen || !w.vseen || merge(&w, f->pair))
        goto done;
    for (size_t v = 0; v < nv; v++)
        w.orig[v] = w.orig_a[v] = w.vopen[v] = NR_NONE;
    w.cause = calloc(w.nM + 1, sizeof *w.cause);
    w.ncause = calloc(w.nM + 1, sizeof *w.ncause);
    w.nfirst = calloc(w.nM + 1, sizeof *w.nfirst);
    w.pdep = calloc(w.nM + 1, sizeof *w.pdep);
    w.npdep = calloc(w.nM + 1, sizeof *w.npdep);
    w.pnode = malloc((w.nM + 1) * sizeof *w.pnode);
    if (!w.cause || !w.ncause || !w.nfirst || !w.pdep || !w.npdep || !w.pnode || w.nM >= VIA)
        goto done;
    for (size_t k = 0; k <= w.nM; k++)
        w.pnode[k] = NR_NONE;
    for (size_t k = 0; k < 256; k++)
        w.dec[0][k] = w.dec[1][k] = NR_NONE;
    size_t q = 0, e = a_end_pos(&w);
    uint32_t *orig_end = malloc(nv * sizeof *orig_end);
    if (!orig_end)
        goto done;
    for (size_t k = 0; k < w.nM && !w.oom; k++) {
        if (w.M[k].kind == M_PAIR)
            do_pair(&w, (uint32_t)k, ++q);
        else
            do_unaligned(&w, (uint32_t)k);
        if (k == e)
            memcpy(orig_end, w.orig, nv * sizeof *orig_end);
    }
    /* the seeds are about a's end: a value there has its origin at or before it, not
     * in b's steps after it (before 2026-11-26 those were taken: slice_ref.py) */
    if (w.nM)
        memcpy(w.orig, orig_end, nv * sizeof *orig_end);
    free(orig_end);
    if (!w.oom)
        seeds(&w, g);
    rc = w.oom || close_slice(&w) ? -1 : 0;
done:
    for (size_t k = 0; w.cause && k < w.nM; k++)
        free(w.cause[k]);
    for (size_t k = 0; w.pdep && k < w.nM; k++)
        free(w.pdep[k]);
    free(w.pdep);
    free(w.npdep);
    free(w.pnode);
    free(w.orig_a);
    free(w.cause);
    free(w.ncause);
    free(w.nfirst);
    free(w.M);
    free(w.orig);
    free(w.vopen);
    free(w.vseen);
    free(w.ctl);
    free(w.tmp);
    free(w.wrote);
    return rc;
}

void nr_deltas_free(nr_deltas *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->d[i].dep);
    free(d->d);
    free(d->lines);
    memset(d, 0, sizeof *d);
}
