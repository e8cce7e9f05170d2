/* fz_nearest.c - libFuzzer harness for the trail reader of the nearest search
 * (nr_follow: the counterexample a user hands to `pancause nearest --trail`), and
 * for everything after it on the trails it accepts: the search, the Δs and their
 * slice, b written as a trail.
 *
 * The graph is fixed and hand-built (pan is not there): one process whose first
 * move chooses x = 1 or x = 2, a loop that may repeat y = x, and an assert that
 * fails when x is 1; so trails that fit can be long and end in a violation.  The
 * input is written to a file (nr_follow reads a path, as pan does) and followed.
 * A trail that reads must give a successful b nearer than or as near as the run
 * that deletes all of a and inserts a shortest b; one that does not must name the
 * file in its message.  Every input is also followed through a second graph, the
 * same but cyclic: the good branch's assert fails too and its y = x may repeat, so
 * no run ends well and b must be a lasso (its loop back at its first state, the
 * trail with pan's cycle mark), no farther than the shortest lasso all unaligned.
 */
#include "nr_internal.h"

#include "fz_common.h"

#include <unistd.h>

static const char *const PROCS[] = {"P"};
static const short SRC0[] = {0, 10, 11, 12, 13, 14};
static const short *const SRC[] = {SRC0};
static const int NSTATES[] = {6};
static const nr_trans TRANS[] = {{0, 1, 1, "x = 1", -1},
                                 {0, 1, 2, "x = 2", -1},
                                 {0, 2, 3, "y = x", -1},
                                 {0, 2, 4, "(y>0)", -1},
                                 {0, 3, 5, "assert((x==2))", -1}};

static cc_graph *G, *G2;
static nr_model *M, *M2;
static uint8_t *SF, *SF2;
static char PATH[64];

/* s0 (pc 1) -1-> s1 (x 1, pc 2) -3-> s2 (x 1, y 1, pc 2) -3-> s2 ... -4-> s3 (pc 3)
 * -5-> violation; s0 -2-> s4 (x 2, pc 2) -3-> s5 (x 2 y 2) -4-> s6 (pc 3) -5-> s7
 * (pc 4, valid end). */
static void build(bool cyclic, cc_graph **gp, nr_model **mp, uint8_t **sfp)
{
    cc_graph *G = *gp = cc_graph_new(CC_G_MOVES);
    nr_model *M = *mp = nr_model_new();
    if (!G || !M || nr_model_procs(M, PROCS, 1, SRC, NSTATES) || nr_model_trans(M, TRANS, 5))
        abort();
    const int pc[] = {1, 2, 2, 3, 2, 2, 3, 4}, x[] = {0, 1, 1, 1, 2, 2, 2, 2},
              y[] = {0, 0, 1, 1, 0, 2, 2, 2};
    uint32_t s[8];
    for (int i = 0; i < 8; i++) {
        bool fresh;
        u_err err = {{0}};
        s[i] = cc_graph_state(G, &i, sizeof i, &fresh);
        cc_graph_expand(G, s[i]);
        nr_val_begin(M);
        nr_val_scope(M, -1, -1, 0);
        nr_val_scalar(M, "now.x", "byte", -1, x[i]);
        nr_val_scalar(M, "now.y", "byte", -1, y[i]);
        nr_val_scope(M, 0, 0, pc[i]);
        if (nr_val_end(M, s[i], i == 7, false, &err))
            abort();
    }
    cc_graph_set_root(G, s[0]);
    const int E[][3] = {{0, 1, 1}, {0, 4, 2}, {1, 2, 3}, {2, 2, 3},  {2, 3, 4}, {3, -1, 5},
                        {4, 5, 3}, {5, 6, 4}, {6, 7, 5}, {6, -1, 5}, {5, 5, 3}};
    /* the cyclic graph: s6's assert fails instead of ending, and s5 may repeat y = x */
    for (size_t e = 0; e < sizeof E / sizeof E[0]; e++)
        if ((e < 9 ? e != 8 || !cyclic : cyclic) &&
            cc_graph_move(G, s[E[e][0]], E[e][1] < 0 ? CC_SINK : s[E[e][1]], CC_SILENT, false, 0,
                          E[e][2]))
            abort();
    if (!(*sfp = cc_derive_flags(G)))
        abort();
}

static void setup(void)
{
    build(false, &G, &M, &SF);
    build(true, &G2, &M2, &SF2);
    strcpy(PATH, "/tmp/fz_nearest.XXXXXX");
    int fd = mkstemp(PATH);
    if (fd < 0)
        abort();
    close(fd);
}

/* Follows the trail file through g and checks the search and what follows it. */
static void one(const cc_graph *g, nr_model *m, const uint8_t *sf, bool cyclic)
{
    nr_context c = {.model = "fuzz.pml", .claim_type = -1, .search = "dfs"};
    nr_path a;
    u_err err = {{0}};
    if (nr_follow(g, sf, m, PATH, &c, &a, &err)) {
        FZ_CHECK(strstr(err.msg, PATH) || strstr(err.msg, "out of memory"),
                 "the message names no file: %s", err.msg);
        return;
    }
    FZ_CHECK(a.n >= 3 && a.state[a.nmoves] == NR_NONE, "a is no violating run (%zu steps)", a.n);
    nr_query q = {.g = g, .sf = sf, .m = m, .a = &a, .wp = 1, .wa = 1, .wc = 4};
    nr_found fd;
    if (!nr_search(&q, &fd)) {
        /* the shortest b all unaligned is an upper bound: x = 2 and on to the end (4
         * steps), or in the cyclic graph x = 2, y = x and y = x again (3 steps) */
        FZ_CHECK(fd.found && fd.exact && fd.distance <= 4 * (long)(a.n + 4),
                 "distance %ld for %zu steps", fd.distance, a.n);
        FZ_CHECK(fd.lasso == cyclic, "lasso %d in the %s graph", fd.lasso,
                 cyclic ? "cyclic" : "acyclic");
        if (fd.lasso)
            FZ_CHECK(fd.loop_move < fd.b.nmoves && fd.loop_step < fd.b.n &&
                         fd.b.state[fd.loop_move] == fd.b.state[fd.b.nmoves] &&
                         fd.distance <= 4 * (long)(a.n + 3),
                     "no loop back at its start, or too far (%ld)", fd.distance);
        FZ_CHECK(nr_distance(m, a.step, a.n, fd.b.step, fd.b.n, 1, 1, 4, NULL) == fd.distance,
                 "the DP disagrees with the search");
        nr_deltas d = {0};
        if (!nr_deltas_build(g, m, &a, &fd, &c, &d)) {
            FZ_CHECK(d.dp + d.da + 4 * (d.dc_a + d.dc_b) == (size_t)fd.distance,
                     "the deltas' terms do not add up to the distance");
            nr_report r = {.m = m, .c = &c, .g = g, .a = &a, .f = &fd, .d = &d};
            const char *why = NULL;
            char *t = nr_trail_text(&r, &why);
            FZ_CHECK(!t || !fd.lasso || strstr(t, "-1:-1:-1\n"), "a lasso's trail without "
                                                                 "its cycle mark");
            free(t);
        }
        nr_deltas_free(&d);
        nr_found_free(&fd);
    }
    nr_path_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!G)
        setup();
    FILE *f = fopen(PATH, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    one(G, M, SF, false);
    one(G2, M2, SF2, true);
    return 0;
}
