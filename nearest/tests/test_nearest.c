/* Unit tests of nearest/ without pan: the alignment distance's dynamic programme
 * against an enumeration of every alignment (Def. 5) on random small runs, the rows
 * of an alignment, channel values, and the whole chain (trail following, the search,
 * the Δs of every kind and their slice, b written as a trail) on hand-built graphs
 * whose answers are worked out in the comments.  The end-to-end tests with real pan
 * are e2e.sh; the independent reference is cases/nearest-oracle. */
#include "nr_internal.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned rng_state = 4711;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 16) % n;
}

/* ---- a model: proctype P (0) with control states 0..7, globals x and y ---- */

static const char *const PROCS[] = {"P"};
static const short SRC0[] = {0, 10, 11, 12, 13, 14, 15, 16};
static const short *const SRC[] = {SRC0};
static const int NSTATES[] = {8};
/* pan.t's transitions: tid 1 and 2 at state 1 (two options), 3 at 2, 4 at 3 */
static const nr_trans TRANS[] = {{0, 1, 1, "x = 1", -1},
                                 {0, 1, 2, "x = 2", -1},
                                 {0, 2, 3, "y = x", -1},
                                 {0, 3, 4, "assert((y==2))", -1},
                                 {0, 3, 5, "skip", -1}};

static nr_model *model(void)
{
    nr_model *m = nr_model_new();
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(nr_model_procs(m, PROCS, 1, SRC, NSTATES), 0);
    ck_assert_int_eq(nr_model_trans(m, TRANS, 5), 0);
    return m;
}

/* Recorded state s: P(0) at pc (alive when pc >= 0) and the globals x, y. */
static void values(nr_model *m, uint32_t s, int pc, int x, int y, bool vend)
{
    u_err err = {{0}};
    nr_val_begin(m);
    nr_val_scope(m, -1, -1, 0);
    nr_val_scalar(m, "now.x", "byte", -1, x);
    nr_val_scalar(m, "now.y", "byte", -1, y);
    if (pc >= 0)
        nr_val_scope(m, 0, 0, pc);
    ck_assert_int_eq(nr_val_end(m, s, vend, false, &err), 0);
}

/* ---- the distance against every alignment ---- */

static long pair_cost(const nr_model *m, const nr_step *x, const nr_step *y, long wp, long wa)
{
    return wp * (long)nr_diff(m, x->state, y->state) + wa * (x->tid != y->tid);
}

/* The least cost over every alignment of a[i..] with b[j..]: a_i unaligned, or a_i
 * with any later b step of its location (the b steps skipped unaligned). */
static long every(const nr_model *m, const nr_step *a, size_t n, const nr_step *b, size_t k,
                  size_t i, size_t j, long wp, long wa, long wc)
{
    if (i == n)
        return (long)(k - j) * wc;
    long best = wc + every(m, a, n, b, k, i + 1, j, wp, wa, wc);
    for (size_t t = j; t < k; t++)
        if (a[i].pid == b[t].pid && a[i].proctype == b[t].proctype && a[i].pc == b[t].pc) {
            long c = (long)(t - j) * wc + pair_cost(m, &a[i], &b[t], wp, wa) +
                     every(m, a, n, b, k, i + 1, t + 1, wp, wa, wc);
            best = c < best ? c : best;
        }
    return best;
}

START_TEST(distance_is_the_least_over_every_alignment)
{
    nr_model *m = model();
    /* 12 states: P at pc 1..3, x and y in 0..2; state 11 without P (not alive) */
    for (uint32_t s = 0; s < 12; s++)
        values(m, s, s == 11 ? -1 : (int)(1 + s % 3), (int)(s % 3), (int)(s / 4 % 3), false);
    for (int round = 0; round < 400; round++) {
        nr_step a[6], b[6];
        size_t n = rnd(6), k = rnd(6);
        for (size_t i = 0; i < n + k; i++) {
            nr_step *x = i < n ? &a[i] : &b[i - n];
            uint32_t s = rnd(12);
            int pt, pc = 0;
            if (!nr_location(m, s, 0, &pt, &pc))
                pc = 1; /* a step of a process not alive: its location as pan saw it */
            *x = (nr_step){0, 0, pc, (int)(1 + rnd(2)), s};
        }
        long wp = rnd(3), wa = rnd(3), wc = 1 + rnd(5);
        int32_t pair[6];
        long d = nr_distance(m, a, n, b, k, wp, wa, wc, pair);
        ck_assert_int_eq(d, every(m, a, n, b, k, 0, 0, wp, wa, wc));
        /* the alignment returned attains d and is an alignment */
        long cost = 0;
        long last = -1;
        size_t paired = 0;
        for (size_t j = 0; j < k; j++) {
            if (pair[j] < 0)
                continue;
            ck_assert_int_gt(pair[j], last);
            last = pair[j];
            ck_assert_int_eq(a[pair[j]].pc, b[j].pc);
            cost += pair_cost(m, &a[pair[j]], &b[j], wp, wa);
            paired++;
        }
        cost += (long)(n + k - 2 * paired) * wc;
        ck_assert_int_eq(cost, d);
        /* nr_alignment_cost prices that alignment alike, and refuses a crossing one */
        ck_assert_int_eq(nr_alignment_cost(m, a, n, b, k, wp, wa, wc, pair), d);
        if (paired >= 2) {
            size_t j1 = 0, j2;
            while (pair[j1] < 0)
                j1++;
            for (j2 = j1 + 1; pair[j2] < 0; j2++)
                ;
            int32_t t = pair[j1];
            pair[j1] = pair[j2];
            pair[j2] = t;
            ck_assert_int_eq(nr_alignment_cost(m, a, n, b, k, wp, wa, wc, pair), -1);
        }
    }
    nr_model_free(m);
}
END_TEST

START_TEST(a_variable_absent_on_one_side_differs)
{
    nr_model *m = model();
    values(m, 0, 1, 0, 0, false);
    values(m, 1, 1, 0, 0, false);
    values(m, 2, 1, 1, 0, false);
    ck_assert_uint_eq(nr_diff(m, 0, 1), 0);
    ck_assert_uint_eq(nr_diff(m, 0, 2), 1);
    ck_assert_uint_eq(nr_nvars(m, 0), 2); /* x, y: the pc is no variable */
    nr_model_free(m);

    /* a process-local variable where the process is alive on one side only */
    m = model();
    u_err err = {{0}};
    for (uint32_t s = 0; s < 2; s++) {
        nr_val_begin(m);
        nr_val_scope(m, -1, -1, 0);
        nr_val_scalar(m, "now.x", "byte", -1, 0);
        nr_val_scalar(m, "now.y", "byte", -1, 0);
        if (s == 1) {
            nr_val_scope(m, 0, 0, 2);
            nr_val_scalar(m, "((P0 *)pptr(pid))->i", "byte", -1, 0);
        }
        ck_assert_int_eq(nr_val_end(m, s, false, false, &err), 0);
    }
    ck_assert_uint_eq(nr_nvars(m, 1), 3);
    ck_assert_uint_eq(nr_diff(m, 0, 1), 1); /* P(0):i exists in 1 only */
    nr_model_free(m);
}
END_TEST

/* The id of the variable named name, or NR_NONE. */
static uint32_t var_named(const nr_model *m, const char *name)
{
    for (size_t i = 0; i < m->nvars; i++)
        if (!strcmp(m->var[i].name, name))
            return (uint32_t)i;
    return NR_NONE;
}

/* Every state keeps its own values whatever the states before it looked like: the
 * store reuses the previous state's order when the variables arrive alike, and a
 * channel's id when its contents are the same (nr_val_end, chan_id).  Random states
 * of three processes, each alive or not, with a local and a channel beside the
 * globals; every value read back by name. */
START_TEST(values_survive_any_sequence_of_layouts)
{
    static const char *const P3[] = {"P", "P", "P"};
    static const short *const S3[] = {SRC0, SRC0, SRC0};
    static const int N3[] = {8, 8, 8};
    nr_model *m = nr_model_new();
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(nr_model_procs(m, P3, 3, S3, N3), 0);
    enum { NS = 400 };
    static int alive[NS][3], x[NS], loc[NS][3], pc[NS][3], q[NS];
    u_err err = {{0}};
    for (uint32_t s = 0; s < NS; s++) {
        x[s] = (int)rnd(3);
        q[s] = (int)rnd(3);
        /* runs of one layout, as in a search, and now and then another */
        for (int p = 0; p < 3; p++) {
            alive[s][p] = s && rnd(4) ? alive[s - 1][p] : (int)rnd(2);
            loc[s][p] = (int)rnd(4);
            pc[s][p] = 1 + (int)rnd(6);
        }
        nr_val_begin(m);
        nr_val_scope(m, -1, -1, 0);
        nr_val_scalar(m, "now.x", "byte", -1, x[s]);
        int fields[] = {1, q[s]};
        nr_val_chan(m, "q", 1, fields, q[s] ? 2 : 0);
        for (int p = 0; p < 3; p++)
            if (alive[s][p]) {
                nr_val_scope(m, p, 0, pc[s][p]);
                nr_val_scalar(m, "((P0 *)pptr(pid))->i", "byte", -1, loc[s][p]);
            }
        ck_assert_int_eq(nr_val_end(m, s, false, false, &err), 0);
    }
    uint32_t vx = var_named(m, "x"), vq = var_named(m, "q");
    ck_assert_uint_ne(vx, NR_NONE);
    ck_assert_uint_ne(vq, NR_NONE);
    for (uint32_t s = 0; s < NS; s++) {
        int32_t v;
        ck_assert(nr_value(m, s, vx, &v));
        ck_assert_int_eq(v, x[s]);
        ck_assert(nr_value(m, s, vq, &v));
        char *t = nr_value_text(m, vq, v);
        ck_assert_ptr_nonnull(t);
        ck_assert_str_eq(t, q[s] ? (q[s] == 1 ? "[1]" : "[2]") : "empty");
        free(t);
        for (int p = 0; p < 3; p++) {
            char name[32];
            snprintf(name, sizeof name, "P(%d):i", p);
            uint32_t vi = var_named(m, name);
            ck_assert_int_eq(vi != NR_NONE && nr_value(m, s, vi, &v), alive[s][p]);
            if (alive[s][p])
                ck_assert_int_eq(v, loc[s][p]);
        }
        /* two states with the same values and processes do not differ */
        if (s && alive[s][0] == alive[s - 1][0] && alive[s][1] == alive[s - 1][1] &&
            alive[s][2] == alive[s - 1][2])
            ck_assert_uint_eq(nr_diff(m, s, s - 1) == 0,
                              x[s] == x[s - 1] && q[s] == q[s - 1] &&
                                  (!alive[s][0] || loc[s][0] == loc[s - 1][0]) &&
                                  (!alive[s][1] || loc[s][1] == loc[s - 1][1]) &&
                                  (!alive[s][2] || loc[s][2] == loc[s - 1][2]));
    }
    nr_model_free(m);
}
END_TEST

START_TEST(rows_list_every_step_once_in_order)
{
    for (int round = 0; round < 300; round++) {
        size_t na = rnd(7), nb = rnd(7);
        int32_t pair[7];
        long next = 0;
        for (size_t j = 0; j < nb; j++) {
            pair[j] = -1;
            if (next < (long)na && rnd(2)) {
                next += rnd((unsigned)(na - (size_t)next));
                pair[j] = (int32_t)next++;
            }
        }
        nr_row *r;
        size_t n;
        ck_assert_int_eq(nr_rows(na, nb, pair, &r, &n), 0);
        size_t paired = 0;
        for (size_t j = 0; j < nb; j++)
            paired += pair[j] >= 0;
        ck_assert_uint_eq(n, na + nb - paired);
        long li = -1, lj = -1;
        for (size_t k = 0; k < n; k++) {
            if (r[k].i >= 0) {
                ck_assert_int_eq(r[k].i, li + 1); /* every a step, in order */
                li = r[k].i;
            }
            if (r[k].j >= 0) {
                ck_assert_int_eq(r[k].j, lj + 1);
                lj = r[k].j;
            }
            if (r[k].i >= 0 && r[k].j >= 0)
                ck_assert_int_eq(pair[r[k].j], r[k].i);
            /* in a gap, a's unaligned steps come before b's */
            if (k > 0 && r[k].j < 0 && r[k - 1].i < 0)
                ck_abort_msg("a deleted step after an inserted one in the same gap");
        }
        ck_assert_int_eq(li, (long)na - 1);
        ck_assert_int_eq(lj, (long)nb - 1);
        free(r);
    }
}
END_TEST

START_TEST(channel_contents_keep_message_boundaries)
{
    nr_model *m = model();
    u_err err = {{0}};
    /* each message: its count of fields, then the fields; a field may hold any int,
     * INT_MIN too (a marker value before each message once counted it as one more) */
    const int two[] = {2, 1, 2, 2, 3, 4}, one[] = {4, 1, 2, 3, 4}, low[] = {1, INT_MIN};
    const int *fields[] = {two, one, NULL, low};
    const int nf[] = {6, 5, 0, 2};
    for (uint32_t s = 0; s < 4; s++) {
        nr_val_begin(m);
        nr_val_scope(m, -1, -1, 0);
        nr_val_chan(m, "q", 1, fields[s] ? fields[s] : two, nf[s]);
        ck_assert_int_eq(nr_val_end(m, s, false, false, &err), 0);
    }
    ck_assert_uint_eq(nr_diff(m, 0, 1), 1); /* [1,2][3,4] is not [1,2,3,4] */
    const char *want[] = {"[1,2] [3,4]", "[1,2,3,4]", "empty", "[-2147483648]"};
    for (uint32_t s = 0; s < 4; s++) {
        const int32_t *val;
        const nr_layout *l = nr_layout_of(m, s, &val);
        ck_assert_uint_eq(l->nreg, 1);
        char *t = nr_value_text(m, l->var[0], val[0]);
        ck_assert_str_eq(t, want[s]);
        free(t);
    }
    nr_model_free(m);
}
END_TEST

/* ---- the whole chain on a hand-built graph ----
 *
 *   s0 (pc 1, x 0, y 0) -tid 1 "x = 1"-> s1 (pc 2, x 1) -tid 3 "y = x"-> s3 (pc 3, x 1, y 1)
 *                                         s3 -tid 4 "assert((y==2))"-> violation
 *   s0 -tid 2 "x = 2"-> s2 (pc 2, x 2) -tid 3-> s4 (pc 3, x 2, y 2) -tid 4-> s5 (pc 4,
 *                                                                     valid end)
 * a is the first run (its trail 1:0:1 2:0:3 3:0:4); the only successful run is the
 * second, b.  With Wp = Wα = 1, Wc = 4 every step aligns: Δα = 1 (the option at pc 1),
 * Δp = 0 + 1 (x) + 2 (x, y) = 3, d = 4 (b's prefix to s2, settled already, costs
 * 1 + 2 Wc = 9).  With Wα = 10, Wc = 1 that prefix is nearest: its one step and a's
 * three unaligned, d = 4 (all of b aligned: 13; a's first step and b's unaligned and
 * the rest aligned: 1 + 1 + 1 + 2 = 5). */

typedef struct {
    cc_graph *g;
    nr_model *m;
    uint8_t *sf;
    uint32_t s[6];
    char trail[64];
    nr_context c;
} chain;

/* CHAIN_GOOD: s4's move succeeds; CHAIN_FAILS: it violates too (no successful run);
 * CHAIN_LASSO: it violates, and s4 also has a move "skip" (tid 5) back to itself, so
 * s4 is never settled but b may loop there. */
typedef enum { CHAIN_GOOD, CHAIN_FAILS, CHAIN_LASSO } chain_kind;

static void chain_build(chain *k, chain_kind kind)
{
    memset(k, 0, sizeof *k);
    k->g = cc_graph_new(CC_G_MOVES);
    k->m = model();
    ck_assert_ptr_nonnull(k->g);
    for (int i = 0; i < 6; i++) {
        bool fresh;
        k->s[i] = cc_graph_state(k->g, &i, sizeof i, &fresh);
        cc_graph_expand(k->g, k->s[i]);
    }
    cc_graph_set_root(k->g, k->s[0]);
    const int pc[] = {1, 2, 2, 3, 3, 4}, x[] = {0, 1, 2, 1, 2, 2}, y[] = {0, 0, 0, 1, 2, 2};
    for (int i = 0; i < 6; i++)
        values(k->m, k->s[i], pc[i], x[i], y[i], i == 5);
    struct {
        int from, to, tid;
    } E[] = {{0, 1, 1}, {0, 2, 2},  {1, 3, 3},
             {2, 4, 3}, {3, -1, 4}, {4, kind != CHAIN_GOOD ? -1 : 5, 4}};
    for (size_t e = 0; e < sizeof E / sizeof E[0]; e++)
        ck_assert_int_eq(cc_graph_move(k->g, k->s[E[e].from], E[e].to < 0 ? CC_SINK : k->s[E[e].to],
                                       CC_SILENT, false, 0, E[e].tid),
                         0);
    if (kind == CHAIN_LASSO)
        ck_assert_int_eq(cc_graph_move(k->g, k->s[4], k->s[4], CC_SILENT, false, 0, 5), 0);
    k->sf = cc_derive_flags(k->g);
    ck_assert_ptr_nonnull(k->sf);
    k->c = (nr_context){.model = "hand.pml", .claim_type = -1, .search = "dfs"};
    strcpy(k->trail, "/tmp/nr-test-XXXXXX");
    int fd = mkstemp(k->trail);
    ck_assert_int_ge(fd, 0);
    const char *t = "1:0:1\n2:0:3\n3:0:4\n";
    ck_assert_int_eq(write(fd, t, strlen(t)), (ssize_t)strlen(t));
    close(fd);
}

static void chain_free(chain *k)
{
    unlink(k->trail);
    free(k->sf);
    nr_model_free(k->m);
    cc_graph_free(k->g);
}

/* Follows the chain's trail into a and searches from it with weights 1, 1, 4 (q keeps
 * the query, so a test may search again with another budget). */
static void chain_search(chain *k, nr_path *a, nr_query *q, nr_found *f)
{
    u_err err = {{0}};
    ck_assert_msg(!nr_follow(k->g, k->sf, k->m, k->trail, &k->c, a, &err), "%s", err.msg);
    *q = (nr_query){.g = k->g, .sf = k->sf, .m = k->m, .a = a, .wp = 1, .wa = 1, .wc = 4};
    ck_assert_int_eq(nr_search(q, f), 0);
}

static size_t kinds(const nr_deltas *d, int kind, bool in_slice_only)
{
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++)
        n += d->d[i].kind == kind && (!in_slice_only || d->d[i].in_slice);
    return n;
}

START_TEST(search_deltas_slice_and_trail)
{
    chain k;
    chain_build(&k, CHAIN_GOOD);
    nr_path a;
    nr_query q;
    nr_found f;
    chain_search(&k, &a, &q, &f);
    ck_assert_uint_eq(a.n, 3);
    ck_assert_uint_eq(a.state[a.nmoves], NR_NONE); /* the assert's move violates */
    ck_assert(f.found && f.exact);
    ck_assert_int_eq(f.distance, 4);
    ck_assert_uint_eq(f.b.n, 3);
    for (size_t j = 0; j < 3; j++)
        ck_assert_int_eq(f.pair[j], (int32_t)j);
    /* the search's b and alignment cost what the dynamic programme says */
    ck_assert_int_eq(nr_distance(k.m, a.step, a.n, f.b.step, f.b.n, 1, 1, 4, NULL), 4);

    nr_deltas d = {0};
    ck_assert_int_eq(nr_deltas_build(k.g, k.m, &a, &f, &k.c, &d), 0);
    ck_assert_uint_eq(d.dp, 3);
    ck_assert_uint_eq(d.da, 1);
    ck_assert_uint_eq(d.dc_a + d.dc_b, 0);
    ck_assert_uint_eq(kinds(&d, NR_D_ACTION, false), 1);
    ck_assert_uint_eq(kinds(&d, NR_D_VALUE, false), 2); /* x over two pairs, y over one */
    size_t steps = 0;
    for (size_t i = 0; i < d.n; i++)
        if (d.d[i].kind == NR_D_VALUE) {
            steps += d.d[i].steps;
            const char *name = k.m->var[d.d[i].var].name;
            ck_assert_int_eq(d.d[i].steps, !strcmp(name, "x") ? 2 : 1);
        }
    ck_assert_uint_eq(steps, d.dp);
    /* the assert reads y, y = x copied x, x came from the other option: all in */
    ck_assert_uint_eq(d.nslice, 3);
    /* lines: both options sit on line 10 (state 1), y = x on line 11 */
    ck_assert_uint_eq(d.nlines, 2);
    ck_assert_int_eq(d.lines[0], 10);
    ck_assert_int_eq(d.lines[1], 11);

    nr_report r = {.m = k.m, .c = &k.c, .g = k.g, .a = &a, .f = &f, .d = &d};
    const char *why = NULL;
    char *t = nr_trail_text(&r, &why);
    ck_assert_str_eq(t, "1:0:2\n2:0:3\n3:0:4\n");
    free(t);
    nr_deltas_free(&d);
    nr_found_free(&f);

    /* expensive actions, cheap gaps: b is the one-step prefix, nothing aligned */
    q.wa = 10;
    q.wc = 1;
    ck_assert_int_eq(nr_search(&q, &f), 0);
    ck_assert_int_eq(f.distance, 4);
    ck_assert_uint_eq(f.b.n, 1);
    ck_assert_int_eq(nr_deltas_build(k.g, k.m, &a, &f, &k.c, &d), 0);
    ck_assert_uint_eq(kinds(&d, NR_D_DELETED, false), 3);
    ck_assert_uint_eq(kinds(&d, NR_D_INSERTED, false), 1);
    ck_assert_uint_eq(kinds(&d, NR_D_ACTION, false), 0);
    ck_assert_uint_eq(d.dp, 0);
    /* the violating step is left out: its deletion is in the slice */
    for (size_t i = 0; i < d.n; i++)
        if (d.d[i].kind == NR_D_DELETED && d.d[i].step_a == 2)
            ck_assert(d.d[i].in_slice);
    nr_deltas_free(&d);
    nr_found_free(&f);

    /* a budget of one expansion: not exact, but a successful run all the same */
    q.wa = 1;
    q.wc = 4;
    q.budget = 1;
    ck_assert_int_eq(nr_search(&q, &f), 0);
    ck_assert(!f.exact);
    ck_assert_int_eq(f.stop, NR_STOP_BUDGET);
    if (f.found)
        ck_assert_int_ge(f.distance, 4);
    ck_assert_int_le(f.lower, 4);
    nr_found_free(&f);
    /* a memory limit with no room for the first nodes: no run to report, and why */
    q.budget = 0;
    q.mem_cap = 1;
    ck_assert_int_eq(nr_search(&q, &f), -1);
    ck_assert(!f.found);
    ck_assert_int_eq(f.stop, NR_STOP_MEMORY);
    nr_found_free(&f);
    /* room enough: exact, and nothing stopped it */
    q.mem_cap = (size_t)1 << 30;
    ck_assert_int_eq(nr_search(&q, &f), 0);
    ck_assert(f.exact);
    ck_assert_int_eq(f.stop, NR_STOP_NONE);
    nr_found_free(&f);
    nr_path_free(&a);
    chain_free(&k);
}
END_TEST

/* ---- a never claim that guesses (cc_graph_det's combined graph) ----
 *
 * P(0) sets x to 1 or 2 (tids 1, 2), then y = x (tid 3).  The claim (pan's slot 0)
 * guesses at its first turn: stay in A (t10, always) or go to B (t11), where x == 1
 * violates (t12) and any other x stays (t13).  Recorded states (claim's turn first):
 *   r0 -t10-> r1, r0 -t11-> r2;  r1 -x=1-> r3, r2 -x=1-> r4, r1 -x=2-> r7, r2 -x=2-> r8;
 *   r3 -t10-> r5 -y=x-> r6;  r4 -t12-> violation;  r7 -t10-> r9 -y=x-> r11;
 *   r8 -t13-> r10 -y=x-> r12.
 * a is the trail through B (1:0:11 2:1:1 3:0:12).  Read path by path, r0 r1 r3 r5 is
 * a good run with a's very steps (distance 0), although on the same run of the model
 * branch B violates.  Combined, the sets {r3, r4} violate, and b sets x = 2: its one
 * step against a's, Wa 1 (Δp compares the states before the steps, equal) = 1; run to
 * a valid end (--run-to-end) it goes on with y = x, unaligned, 1 + Wc 4 = 5, and its
 * trail's claim moves are one branch's: the set's move names its first member edge,
 * t11 out of {r0} (listed first) and t10 out of {r7, r8}, a mix no run has. */
START_TEST(a_guessing_claim_is_read_as_runs_of_the_model)
{
    cc_graph *g = cc_graph_new(CC_G_MOVES);
    nr_model *m = model();
    ck_assert_ptr_nonnull(g);
    uint32_t r[13];
    for (int i = 0; i < 13; i++) {
        bool fresh;
        r[i] = cc_graph_state(g, &i, sizeof i, &fresh);
        cc_graph_expand(g, r[i]);
    }
    cc_graph_set_root(g, r[0]);
    const int pc[] = {1, 1, 1, 2, 2, 2, 3, 2, 2, 2, 2, 3, 3},
              x[] = {0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2};
    for (int i = 0; i < 13; i++)
        values(m, r[i], pc[i], x[i], i == 6 ? 1 : i > 10 ? 2 : 0, i == 6 || i > 10);
    struct {
        int from, to, pr, tid;
    } E[] = {{0, 2, 0, 11},  {0, 1, 0, 10}, {1, 3, 1, 1},   {1, 7, 1, 2}, {2, 4, 1, 1},
             {2, 8, 1, 2},   {3, 5, 0, 10}, {4, -1, 0, 12}, {5, 6, 1, 3}, {7, 9, 0, 10},
             {8, 10, 0, 13}, {9, 11, 1, 3}, {10, 12, 1, 3}};
    for (size_t e = 0; e < sizeof E / sizeof E[0]; e++)
        ck_assert_int_eq(cc_graph_move(g, r[E[e].from], E[e].to < 0 ? CC_SINK : r[E[e].to],
                                       CC_SILENT, E[e].pr == 0, E[e].pr, E[e].tid),
                         0);
    char trail[] = "/tmp/nr-test-XXXXXX";
    int fd = mkstemp(trail);
    ck_assert_int_ge(fd, 0);
    const char *t = "-2:1:-2\n1:0:11\n2:1:1\n3:0:12\n";
    ck_assert_int_eq(write(fd, t, strlen(t)), (ssize_t)strlen(t));
    close(fd);
    nr_context c = {.model = "hand.pml", .claim_type = 1, .base = 1, .search = "dfs"};
    u_err err = {{0}};
    /* path by path: a itself, up to the claim's last move, is "good" */
    uint8_t *sf = cc_derive_flags(g);
    ck_assert_ptr_nonnull(sf);
    nr_path a;
    ck_assert_msg(!nr_follow(g, sf, m, trail, &c, &a, &err), "%s", err.msg);
    nr_query q = {.g = g, .sf = sf, .m = m, .a = &a, .wp = 1, .wa = 1, .wc = 4, .base = 1};
    nr_found f;
    ck_assert_int_eq(nr_search(&q, &f), 0);
    ck_assert(f.found);
    ck_assert_int_eq(f.distance, 0);
    nr_found_free(&f);
    nr_path_free(&a);
    free(sf);
    /* combined: a set's values are its members' */
    cc_graph *d = cc_graph_det(g);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(nr_model_det(m, d), 0);
    /* {r0} {r1,r2} {r3,r4} {r7,r8} {r5} {r9,r10} {r6} {r11,r12}: {r3,r4}'s claim move
     * into {r5} stays (it is no run: derived, the violation makes {r3,r4} bad) */
    ck_assert_uint_eq(cc_graph_states(d), 8);
    for (uint32_t s = 0; s < cc_graph_states(d); s++) {
        size_t n;
        const uint32_t *mem = cc_graph_det_state(d, s, &n);
        ck_assert(nr_model_has(m, s));
        int32_t v;
        ck_assert(nr_value(m, s, var_named(m, "x"), &v));
        ck_assert_int_eq(v, x[mem[n - 1]]); /* members' ids are their indices here */
        ck_assert_int_eq(m->vend[s], mem[0] == 6 || mem[0] > 10);
    }
    sf = cc_derive_flags(d);
    ck_assert_ptr_nonnull(sf);
    ck_assert_msg(!nr_follow(d, sf, m, trail, &c, &a, &err), "%s", err.msg);
    ck_assert_uint_eq(a.n, 1);
    ck_assert_uint_eq(a.state[a.nmoves], NR_NONE); /* the sink: the trail's last claim move */
    q = (nr_query){.g = d, .sf = sf, .m = m, .a = &a, .wp = 1, .wa = 1, .wc = 4, .base = 1};
    ck_assert_int_eq(nr_search(&q, &f), 0);
    ck_assert(f.found);
    ck_assert_int_eq(f.distance, 1);
    ck_assert_int_eq(f.b.step[0].tid, 2);
    nr_found_free(&f);
    q.run_to_end = true;
    ck_assert_int_eq(nr_search(&q, &f), 0);
    ck_assert(f.found);
    ck_assert_int_eq(f.distance, 5);
    nr_report rep = {.m = m, .c = &c, .g = d, .a = &a, .f = &f};
    const char *why = NULL;
    char *bt = nr_trail_text(&rep, &why);
    ck_assert_ptr_nonnull(bt);
    /* one branch's moves: A all along (t10, t10) or B all along (t11, t13) */
    ck_assert_msg(!strcmp(bt, "-2:1:-2\n1:0:10\n2:1:2\n3:0:10\n4:1:3\n") ||
                      !strcmp(bt, "-2:1:-2\n1:0:11\n2:1:2\n3:0:13\n4:1:3\n"),
                  "b's trail: %s", bt);
    free(bt);
    nr_found_free(&f);
    nr_path_free(&a);
    free(sf);
    unlink(trail);
    nr_model_free(m);
    cc_graph_free(d);
}
END_TEST

START_TEST(no_successful_run)
{
    chain k;
    chain_build(&k, CHAIN_FAILS);
    nr_path a;
    nr_query q;
    nr_found f;
    chain_search(&k, &a, &q, &f);
    ck_assert(!f.found);
    nr_found_free(&f);
    nr_path_free(&a);
    chain_free(&k);
}
END_TEST

/* No finite successful run (s4's assert may fail, and every run reaches s4 or
 * fails before), but b may loop at s4 for ever: the lasso s0 -x = 2-> s2 -y = x-> s4
 * -skip-> s4, every step aligned with a's: Δα 1 + Δp 1 (x before step 2) + Δp 2 and
 * Δα 1 (x, y; assert against skip before step 3) = 5; written as a trail with pan's
 * cycle mark before the loop. */
START_TEST(lasso_when_no_finite_run)
{
    chain k;
    chain_build(&k, CHAIN_LASSO);
    nr_path a;
    nr_query q;
    nr_found f;
    chain_search(&k, &a, &q, &f);
    ck_assert(f.found && f.exact && f.lasso);
    ck_assert_int_eq(f.distance, 5);
    ck_assert_uint_eq(f.b.n, 3);
    ck_assert_uint_eq(f.loop_step, 2);
    ck_assert_uint_eq(f.loop_move, 2);
    ck_assert_uint_eq(f.b.state[f.b.nmoves], f.b.state[f.loop_move]);
    ck_assert_int_eq(nr_distance(k.m, a.step, a.n, f.b.step, f.b.n, 1, 1, 4, NULL), 5);
    nr_deltas d = {0};
    ck_assert_int_eq(nr_deltas_build(k.g, k.m, &a, &f, &k.c, &d), 0);
    nr_options o = {.trail = k.trail};
    nr_report r = {.m = k.m, .o = &o, .c = &k.c, .g = k.g, .a = &a, .f = &f, .d = &d};
    const char *why = NULL;
    char *t = nr_trail_text(&r, &why);
    ck_assert_str_eq(t, "1:0:2\n2:0:3\n-1:-1:-1\n3:0:5\n");
    free(t);
    /* a budget of one node: not exact, but still a lasso (completed round its loop) */
    nr_found_free(&f);
    q.budget = 1;
    ck_assert_int_eq(nr_search(&q, &f), 0);
    ck_assert(f.found && !f.exact && f.lasso);
    ck_assert_uint_eq(f.b.state[f.b.nmoves], f.b.state[f.loop_move]);
    ck_assert_int_ge(f.distance, 5);
    ck_assert_int_le(f.lower, 5);
    nr_deltas_free(&d);
    nr_found_free(&f);
    nr_path_free(&a);
    chain_free(&k);
}
END_TEST

/* ---- the slice's control dependence on a hand-built alignment ----
 *
 * P(0): "x = 1" (state 1, line 10), the condition "(x==1)" (state 2, line 11, a
 * decision: it may block), "y = 2" (state 3, line 12), "assert((y==0))" (state 4,
 * line 13).  a takes all four and violates; b leaves out "y = 2" (the recorded states
 * say so; the walk does not check locations).  Δs: the deletion of a's step 3 and the
 * value of y (2|0) before the assert, which the assert reads: both in the slice, as
 * before.  The deletion's control dependence: "y = 2" ran because P(0) passed its
 * last decision, the condition, aligned with equal actions; the condition held on x,
 * whose write is "x = 1" (aligned, equal too): both enter the slice as steps both runs
 * take alike, so its lines are 10, 11, 12; "x = 1" is no decision and depends on
 * nothing (no value its text reads differs). */
static const nr_trans TRANS_CTL[] = {{0, 1, 1, "x = 1", -1},
                                     {0, 2, 6, "((x==1))", -1},
                                     {0, 3, 7, "y = 2", -1},
                                     {0, 4, 8, "assert((y==0))", -1}};

START_TEST(unaligned_step_depends_on_its_decision)
{
    nr_model *m = nr_model_new();
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(nr_model_procs(m, PROCS, 1, SRC, NSTATES), 0);
    ck_assert_int_eq(nr_model_trans(m, TRANS_CTL, 4), 0);
    const int pc[] = {1, 2, 3, 4, 5}, x[] = {0, 1, 1, 1, 1}, y[] = {0, 0, 0, 2, 0};
    for (uint32_t s = 0; s < 5; s++)
        values(m, s, pc[s], x[s], y[s], false);
    /* a: s0 -1-> s1 -6-> s2 -7-> s3 -8-> violation; b: s0 -1-> s1 -6-> s2 -8-> s4 */
    nr_step sa[] = {{0, 0, 1, 1, 0}, {0, 0, 2, 6, 1}, {0, 0, 3, 7, 2}, {0, 0, 4, 8, 3}};
    nr_step sb[] = {{0, 0, 1, 1, 0}, {0, 0, 2, 6, 1}, {0, 0, 4, 8, 2}};
    uint32_t sta[] = {0, 1, 2, 3, NR_NONE}, stb[] = {0, 1, 2, 4};
    size_t mova[] = {0, 1, 2, 3}, movb[] = {0, 1, 2};
    int32_t pair[] = {0, 1, 3};
    nr_path a = {.state = sta, .nmoves = 4, .step = sa, .move_of = mova, .n = 4};
    nr_found f = {.found = true, .exact = true, .pair = pair};
    f.b = (nr_path){.state = stb, .nmoves = 3, .step = sb, .move_of = movb, .n = 3};
    nr_context c = {.model = "hand.pml", .claim_type = -1, .search = "dfs"};
    nr_deltas d = {0};
    ck_assert_int_eq(nr_deltas_build(NULL, m, &a, &f, &c, &d), 0);
    ck_assert_uint_eq(d.dc_a, 1);
    ck_assert_uint_eq(d.dc_b + d.da, 0);
    ck_assert_uint_eq(kinds(&d, NR_D_DELETED, true), 1);
    ck_assert_uint_eq(kinds(&d, NR_D_VALUE, true), 1);
    ck_assert_uint_eq(d.nslice, 2);
    ck_assert_uint_eq(d.nvia, 2); /* the condition and the write it read */
    ck_assert_uint_eq(d.nlines, 3);
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(d.lines[k], 10 + k);
    nr_deltas_free(&d);
    nr_model_free(m);
}
END_TEST

/* Trails that do not fit: each refused with the file and line named. */
START_TEST(bad_trails_name_file_and_line)
{
    chain k;
    chain_build(&k, CHAIN_GOOD);
    const struct {
        const char *text, *want;
    } T[] = {
        {"1:0:1\n2:0:4\n", ":2: step 2"},           /* no such move from s1 */
        {"1:0:1\n2:0:3\n", "not a counterexample"}, /* stops before the violation */
        {"1:0:1\nfoo\n", ":2: not a trail line"},
        {"-2:0:-2\n1:0:1\n", "never claim"}, /* a claim's header, no claim here */
        {"-4:-4:-4\n1:0:1\n", "merging"},    /* written with statement merging */
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        FILE *f = fopen(k.trail, "w");
        fputs(T[i].text, f);
        fclose(f);
        nr_path a;
        u_err err = {{0}};
        ck_assert_int_eq(nr_follow(k.g, k.sf, k.m, k.trail, &k.c, &a, &err), -1);
        ck_assert_msg(strstr(err.msg, k.trail) && strstr(err.msg, T[i].want), "%zu: %s", i,
                      err.msg);
    }
    chain_free(&k);
}
END_TEST

/* ---- --assume: parse, bind to the model's variables, evaluate per state ----
 *
 * State 0: x 3, a[0] 1, a[1] 2, mtype c green (2), channel q with 2 messages, P(0)
 * running with its local i 5.  State 1: x 0, the rest alike, P(0) not running. */
static nr_model *assume_model(void)
{
    nr_model *m = model();
    u_err err = {{0}};
    const int q[] = {1, 1, 1, 2};
    nr_val_mtype(m, "red", 1);
    nr_val_mtype(m, "green", 2);
    for (uint32_t s = 0; s < 2; s++) {
        nr_val_begin(m);
        nr_val_scope(m, -1, -1, 0);
        nr_val_scalar(m, "now.x", "byte", -1, s ? 0 : 3);
        nr_val_scalar(m, "now.a[_i]", "byte", 0, 1);
        nr_val_scalar(m, "now.a[_i]", "byte", 1, 2);
        nr_val_scalar(m, "now.c", "mtype", -1, 2);
        nr_val_chan(m, "q", 1, q, 4);
        if (!s) {
            nr_val_scope(m, 0, 0, 2);
            nr_val_scalar(m, "((P0 *)pptr(pid))->i", "byte", -1, 5);
        }
        ck_assert_int_eq(nr_val_end(m, s, false, false, &err), 0);
    }
    return m;
}

/* The expression's value in states 0 and 1 (-1: undefined), or 9 when bind refuses it
 * (then err must name the expression). */
static int holds(nr_model *m, const char *e, uint32_t s)
{
    nr_assume *A;
    u_err err = {{0}};
    ck_assert_msg(nr_assume_parse(e, &A, &err) == 0, "refused \"%s\": %s", e, err.msg);
    int v = 9;
    if (!nr_assume_bind(A, m, &err))
        v = nr_assume_holds(A, s);
    else
        ck_assert_msg(strstr(err.msg, e) != NULL, "\"%s\": %s", e, err.msg);
    nr_assume_free(A);
    return v;
}

START_TEST(assumptions_evaluate_as_promela)
{
    nr_model *m = assume_model();
    const struct {
        const char *e;
        int s0, s1;
    } t[] = {
        {"x == 3", 1, 0},
        {"x + 2 * 3 == 9 && !(x < 3)", 1, 0}, /* precedence */
        {"x - 1 - 1 == 1", 1, 0},             /* left associative */
        {"1 + 2 << 1 == 6 && (7 & 3 | 8) == 11 && 5 % 3 == 2 && -x == 0 - x", 1, 1},
        {"a[1] == 2 && a[0] != 2", 1, 1},
        {"P[0]:i == 5", 1, -1},       /* P(0) not running in state 1: unknown, not restricted */
        {"P:i > 4 || x == 0", 1, 1},  /* Kleene: unknown || true is true */
        {"x == 3 && P:i == 5", 1, 0}, /* false && unknown is false */
        {"!(P:i == 5) || x == 3", 1, -1},
        {"P:i == 5 -> x == 3", 1, -1},
        {"(x == 0) <-> (P:i == 5)", 0, -1},
        {"len(q) == 2 && len(q) + 1 == 3", 1, 1},
        {"c == green && c != red", 1, 1},
        {"x / (x - 3) == 0", 1, 1}, /* division by zero is 0, as in pancause explain */
        {"x == 3 -> a[0] == 1", 1, 1},
        {"(x == 3) <-> (a[1] == 3)", 0, 1},
        {"true && !false", 1, 1},
        {"~x == -4", 1, 0},
        {"x", 1, 0},
        {"a[5] == 0", 9, 9},            /* no such element */
        {"i == 5", 9, 9},               /* a local needs its process */
        {"nosuch > 0", 9, 9},           /* no such variable */
        {"Q[0]:i == 5", 9, 9},          /* no such proctype */
        {"P[3]:i == 5", 9, 9},          /* no such process */
        {"P[4294967296]:i == 5", 9, 9}, /* a pid beyond int: refused, not wrapped to 0 */
        {"q == 1", 9, 9},               /* a channel is no number */
        {"len(x) == 0", 9, 9},          /* x is no channel */
    };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        ck_assert_msg(holds(m, t[k].e, 0) == t[k].s0, "\"%s\" in state 0: %d", t[k].e,
                      holds(m, t[k].e, 0));
        ck_assert_msg(holds(m, t[k].e, 1) == t[k].s1, "\"%s\" in state 1: %d", t[k].e,
                      holds(m, t[k].e, 1));
    }
    const char *bad[] = {"",      "  ",    "x ==", "(x",       "x y", "a[1",      "P[0]:",
                         "x = 1", "len q", "!",    "x ==== 1", ")",   "a[x] == 1"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        u_err err = {{0}};
        ck_assert_msg(nr_assume_check(bad[k], &err) == -1, "accepted \"%s\"", bad[k]);
        ck_assert_msg(strstr(err.msg, "column"), "\"%s\": %s", bad[k], err.msg);
    }
    const char *temporal[] = {"[] x == 3", "<> (x > 1)", "x U a[0] == 1", "X x"};
    for (size_t k = 0; k < sizeof temporal / sizeof temporal[0]; k++) {
        u_err err = {{0}};
        ck_assert_msg(nr_assume_check(temporal[k], &err) == -1, "accepted \"%s\"", temporal[k]);
        ck_assert_msg(strstr(err.msg, "is temporal"), "\"%s\": %s", temporal[k], err.msg);
    }
    /* balanced, so that only the nesting limit can refuse it */
    char deep[4200];
    memset(deep, '(', 2000);
    deep[2000] = 'x';
    memset(deep + 2001, ')', 2000);
    deep[4001] = 0;
    u_err err = {{0}};
    ck_assert_int_eq(nr_assume_check(deep, &err), -1);
    ck_assert_msg(strstr(err.msg, "nested deeper"), "%s", err.msg);
    memset(deep, '(', 100); /* 100 deep, balanced: within the limit */
    deep[100] = 'x';
    memset(deep + 101, ')', 100);
    deep[201] = 0;
    ck_assert_msg(nr_assume_check(deep, &err) == 0, "%s", err.msg);
    nr_model_free(m);
}
END_TEST

/* --weights: exactly two or three fields of digits, each at most NR_WEIGHT_MAX.  The
 * strtol parser this replaced accepted a fourth field, a trailing comma, a sign and
 * leading spaces (found by fuzz/fz_weights.c's rule). */
START_TEST(weights_are_two_or_three_plain_integers)
{
    long wp = -9, wa = -9, wc = -9;
    ck_assert_int_eq(nr_parse_weights("1,1", &wp, &wa, &wc), 0);
    ck_assert(wp == 1 && wa == 1 && wc == -1);
    ck_assert_int_eq(nr_parse_weights("0,07,1000000", &wp, &wa, &wc), 0);
    ck_assert(wp == 0 && wa == 7 && wc == 1000000);
    const char *bad[] = {"1,2,3,4",
                         "1,2,",
                         "1,2,3,",
                         " 1,2",
                         "+1,2",
                         "1, 2",
                         "-1,2",
                         "1",
                         "1,,2",
                         ",1,2",
                         "",
                         "1000001,1",
                         "99999999999999999999,1",
                         "1,2x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wp = wa = wc = -9;
        ck_assert_msg(nr_parse_weights(bad[i], &wp, &wa, &wc) == -1, "accepted \"%s\"", bad[i]);
        ck_assert(wp == -9 && wa == -9 && wc == -9);
    }
    ck_assert_int_eq(nr_parse_weights(NULL, &wp, &wa, &wc), -1);
}
END_TEST

/* --budget and --memlim: a plain decimal number 0 .. max.  strtod alone took an empty
 * value (as 0, "none"), a leading space, hex, inf and nan. */
START_TEST(amounts_are_plain_decimal_numbers)
{
    double x = -9;
    ck_assert_int_eq(nr_parse_amount("20", NR_MEMLIM_MAX, &x), 0);
    ck_assert(x == 20);
    ck_assert_int_eq(nr_parse_amount("0.5", NR_MEMLIM_MAX, &x), 0);
    ck_assert(x == 0.5);
    ck_assert_int_eq(nr_parse_amount("1e9", NR_MEMLIM_MAX, &x), 0);
    ck_assert(x == 1e9);
    ck_assert_int_eq(nr_parse_amount("0", NR_BUDGET_MAX, &x), 0);
    ck_assert(x == 0);
    const char *bad[] = {"", " 20", "-1", "+1", "0x10", "inf", "nan", "1e30", "20MB", "1e9x", "."};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        x = -9;
        ck_assert_msg(nr_parse_amount(bad[i], NR_MEMLIM_MAX, &x) == -1, "accepted \"%s\"", bad[i]);
        ck_assert(x == -9);
    }
    ck_assert_int_eq(nr_parse_amount(NULL, NR_MEMLIM_MAX, &x), -1);
}
END_TEST

/* Statements SPIN merged into moves (pan.m's rows): listed per move in the rows'
 * order, jumps left out, a merged statement's own row (t_id -1, pan.t's 0) never
 * standing for the real t_id 0, and a move without rows listing none. */
START_TEST(merged_statements_follow_pan_m)
{
    static const short SRC_M[] = {0, 20, 21, 22, 23, 24, 25};
    static const short *const SRC_MS[] = {SRC_M};
    static const int NST[] = {7};
    /* the move of state 1 (t_id 0) takes 2, a jump at 3 and 4 along; state 5's none */
    static const nr_trans T[] = {{0, 2, -1, "b = 1", 0},  {0, 1, 0, "((c==0))", 5},
                                 {0, 4, -1, "d = b", 0},  {0, 3, 7, ".(goto)", 5},
                                 {0, 5, 1, "(x > d)", 6}, {0, 6, 2, "-end-", 0}};
    static const int ROWS[][3] = {{0, 1, 2}, {0, 1, 3}, {0, 1, 4}};
    nr_model *m = nr_model_new();
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(nr_model_procs(m, PROCS, 1, SRC_MS, NST), 0);
    ck_assert_int_eq(nr_model_trans(m, T, 6), 0);
    const int *hop;
    ck_assert_uint_eq(nr_merged(m, 0, 0, &hop), 0); /* no rows yet */
    ck_assert_int_eq(nr_model_merges(m, ROWS, 3), 0);
    ck_assert_str_eq(nr_text(m, 0, 0), "((c==0))"); /* not the merged "b = 1" */
    ck_assert_int_eq(nr_line(m, 0, 0), 20);
    ck_assert_uint_eq(nr_merged(m, 0, 0, &hop), 2);
    ck_assert_str_eq(m->trans[hop[0]].text, "b = 1");
    ck_assert_int_eq(nr_trans_line(m, hop[0]), 21);
    ck_assert_str_eq(m->trans[hop[1]].text, "d = b");
    ck_assert_int_eq(nr_trans_line(m, hop[1]), 23);
    ck_assert_uint_eq(nr_merged(m, 0, 1, &hop), 0);
    ck_assert_uint_eq(nr_merged(m, 0, 9, &hop), 0); /* no such move */
    ck_assert_int_eq(nr_trans_line(m, 99), 0);
    nr_model_free(m);
}
END_TEST

START_TEST(a_value_names_the_statement_that_wrote_it)
{
    static const short SRC_W[] = {0, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39};
    static const short *const SRC_WS[] = {SRC_W};
    static const int NST[] = {11};
    /* the move of state 1 (t_id 0) takes states 2-5 along; 6-9 are moves of their own */
    static const nr_trans T[] = {{0, 1, 0, "((c==0))", 0},      {0, 2, -1, "a[i] = 1", 0},
                                 {0, 3, -1, "q!b", 0},          {0, 4, -1, "r?x,eval(y),z", 0},
                                 {0, 5, -1, "b = (a[0]+1)", 0}, {0, 6, 1, "q?[b]", 0},
                                 {0, 7, 2, "r?<w>", 0},         {0, 8, 3, "(b != x)", 0},
                                 {0, 9, 4, "b = b", 0},         {0, 10, 5, "c!!b", 0}};
    static const int ROWS[][3] = {{0, 1, 2}, {0, 1, 3}, {0, 1, 4}, {0, 1, 5}};
    nr_model *m = nr_model_new();
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(nr_model_procs(m, PROCS, 1, SRC_WS, NST), 0);
    ck_assert_int_eq(nr_model_trans(m, T, 10), 0);
    ck_assert_int_eq(nr_model_merges(m, ROWS, 4), 0);
    u_err err = {{0}};
    static const int FIELDS[] = {1};
    nr_val_begin(m);
    nr_val_scope(m, -1, -1, 0);
    const char *scalars[] = {"now.a[0]", "now.b", "now.c", "now.x", "now.y", "now.z", "now.w"};
    for (size_t k = 0; k < sizeof scalars / sizeof scalars[0]; k++)
        nr_val_scalar(m, scalars[k], "byte", -1, 0);
    nr_val_chan(m, "q", 1, FIELDS, 1);
    nr_val_chan(m, "r", 2, FIELDS, 1);
    ck_assert_int_eq(nr_val_end(m, 0, false, false, &err), 0);
    static const struct {
        int tid;
        const char *var;
        int line; /* 0: no statement of the move writes it */
    } WANT[] = {
        /* the last statement of the move whose text writes the variable */
        {0, "b", 34},
        {0, "a[0]", 31},
        {0, "q", 32},
        {0, "r", 33},
        {0, "x", 33},
        {0, "z", 33},
        {0, "y", 0}, /* eval: read */
        {0, "c", 0}, /* the guard */
        /* a poll changes nothing; a copying receive its fields, not the channel */
        {1, "b", 0},
        {1, "q", 0},
        {2, "w", 36},
        {2, "r", 0},
        /* a condition with != is no send; b = b is an assignment; !! a sorted send */
        {3, "b", 0},
        {4, "b", 38},
        {5, "c", 39},
        {9, "b", 0}, /* no such move */
    };
    for (size_t k = 0; k < sizeof WANT / sizeof WANT[0]; k++) {
        uint32_t v = var_named(m, WANT[k].var);
        ck_assert_uint_ne(v, NR_NONE);
        ck_assert_msg(nr_writer_line(m, 0, WANT[k].tid, v) == WANT[k].line,
                      "t_id %d, %s: line %d, not %d", WANT[k].tid, WANT[k].var,
                      nr_writer_line(m, 0, WANT[k].tid, v), WANT[k].line);
    }
    /* what the same texts read (one parser of their shape serves both): a receive
     * its channel and eval's argument, not the fields it stores into; a poll and a
     * copying receive alike; an assignment not its target; a send and a condition
     * everything */
    static const struct {
        int tid;
        bool merged;
        const char *vars; /* space-separated, in the order the texts name them */
    } READS[] = {
        {0, false, "c"},   {0, true, "q b r y a[0]"}, {1, false, "q"},   {2, false, "r"},
        {3, false, "b x"}, {4, false, "b"},           {5, false, "c b"},
    };
    for (size_t k = 0; k < sizeof READS / sizeof READS[0]; k++) {
        uint32_t *out = NULL;
        size_t n = 0;
        int rc = READS[k].merged ? nr_reads_merged(m, 0, 0, READS[k].tid, &out, &n)
                                 : nr_reads(m, 0, 0, READS[k].tid, &out, &n);
        ck_assert_int_eq(rc, 0);
        char got[128] = "";
        for (size_t i = 0; i < n; i++)
            snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", i ? " " : "",
                     m->var[out[i]].name);
        ck_assert_msg(!strcmp(got, READS[k].vars), "t_id %d%s reads \"%s\", not \"%s\"",
                      READS[k].tid, READS[k].merged ? " (merged)" : "", got, READS[k].vars);
        free(out);
    }
    nr_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nearest");
    TCase *t = tcase_create("core");
    tcase_add_test(t, distance_is_the_least_over_every_alignment);
    tcase_add_test(t, a_variable_absent_on_one_side_differs);
    tcase_add_test(t, values_survive_any_sequence_of_layouts);
    tcase_add_test(t, rows_list_every_step_once_in_order);
    tcase_add_test(t, channel_contents_keep_message_boundaries);
    tcase_add_test(t, search_deltas_slice_and_trail);
    tcase_add_test(t, no_successful_run);
    tcase_add_test(t, a_guessing_claim_is_read_as_runs_of_the_model);
    tcase_add_test(t, lasso_when_no_finite_run);
    tcase_add_test(t, unaligned_step_depends_on_its_decision);
    tcase_add_test(t, bad_trails_name_file_and_line);
    tcase_add_test(t, weights_are_two_or_three_plain_integers);
    tcase_add_test(t, amounts_are_plain_decimal_numbers);
    tcase_add_test(t, assumptions_evaluate_as_promela);
    tcase_add_test(t, merged_statements_follow_pan_m);
    tcase_add_test(t, a_value_names_the_statement_that_wrote_it);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
