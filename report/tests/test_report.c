/*
 * test_report.c - unit tests of the report module: the fault tree built from
 * hand-made causes (AND vs PAND gates, a basic event shared by two gates, a
 * non-occurrence as a condition), its writers (formats by extension, nothing left
 * behind on failure), the probability file parser and its errors, the top-event
 * probability on hand-computed examples (rare-event approximation, inclusion-
 * exclusion, minimal cut sets), the witness-run search behind the trails, and the
 * events every cause has.
 */
#include "report.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const NAMES[] = {"A", "B", "C", "Proc[1].D"};

/* A cause over event types ev[0..n) in that order; ordered pairs (i, j) by index. */
static cc_cause cause(const uint32_t *ev, size_t n, const int (*ord)[2], size_t nord)
{
    cc_cause c = {0};
    c.occ = calloc(n, sizeof *c.occ);
    c.ordered = calloc(n * n, sizeof *c.ordered);
    for (size_t i = 0; i < n; i++)
        c.occ[i] = (cc_occ){ev[i], 1};
    for (size_t k = 0; k < nord; k++)
        c.ordered[ord[k][0] * n + ord[k][1]] = true;
    c.nocc = n;
    c.ntraces = 1;
    return c;
}

static void free_causes(cc_result *r)
{
    for (size_t i = 0; i < r->ncauses; i++) {
        free(r->causes[i].occ);
        free(r->causes[i].ordered);
    }
}

/* Cause 1: A before B (PAND); cause 2: A and C in any order (AND) with Proc[1].D
 * absent between them.  A is shared. */
static rp_ftree *two_causes(cc_result *r, cc_cause *cs, cc_absent *ab)
{
    static const int ord[][2] = {{0, 1}};
    cs[0] = cause((const uint32_t[]){0, 1}, 2, ord, 1);
    cs[1] = cause((const uint32_t[]){0, 2}, 2, NULL, 0);
    *ab = (cc_absent){3, 0, 1};
    cs[1].absent = ab;
    cs[1].nabsent = 1;
    *r = (cc_result){.causes = cs, .ncauses = 2, .hazard = true};
    rp_ftree *t = rp_ftree_build(r, NAMES, 4, "m.pml", "assertion violated");
    ck_assert_ptr_nonnull(t);
    return t;
}

START_TEST(gates_and_shared_events)
{
    cc_result r;
    cc_cause cs[2];
    cc_absent ab;
    rp_ftree *t = two_causes(&r, cs, &ab);
    ck_assert_uint_eq(t->ngate, 2);
    ck_assert(t->gate[0].pand);
    ck_assert_str_eq(t->gate[0].order, "A < B");
    ck_assert(!t->gate[1].pand);
    ck_assert_ptr_null(t->gate[1].order);
    /* A is one basic event, an input of both gates */
    ck_assert_uint_eq(t->gate[0].inputs[0], 0);
    ck_assert_uint_eq(t->gate[1].inputs[0], 0);
    ck_assert(rp_ftree_used(t, 0) && rp_ftree_used(t, 1) && rp_ftree_used(t, 2));
    ck_assert(!rp_ftree_used(t, 3)); /* D only does not occur: no basic event */
    ck_assert_uint_eq(t->gate[1].nconditions, 1);
    ck_assert_str_eq(t->gate[1].conditions[0], "Proc[1].D between A and C");
    ck_assert_str_eq(t->ev[3].id, "Proc_1__D"); /* MEF identifiers have no '.' or '[' */
    rp_ftree_free(t);
    free_causes(&r);
}
END_TEST

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (; (s = strstr(s, needle)); s++)
        n++;
    return n;
}

/* Writes the prebuilt tree t through the writer table's row for path. */
static int write_tree(rp_ftree *t, const char *path)
{
    u_err err = {{0}};
    int row = rp_writer_for("--fault-tree", path, &err);
    if (row < 0)
        return -1;
    rp_run run = {0};
    rp_in in = {.run = &run, .tree = t};
    return rp_writers[row].write(&in, path, &err);
}

START_TEST(writers)
{
    cc_result r;
    cc_cause cs[2];
    cc_absent ab;
    rp_ftree *t = two_causes(&r, cs, &ab);
    char dir[] = "/tmp/test_ftXXXXXX", path[256];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.dot", dir);
    ck_assert_int_eq(write_tree(t, path), 0);
    const char *s = slurp(path);
    ck_assert_int_eq(count(s, "shape=circle"), 3);  /* A, B, C once each */
    ck_assert_int_eq(count(s, "-> A"), 2);          /* A shared by both gates */
    ck_assert_int_eq(count(s, "peripheries=2"), 1); /* one PAND */
    ck_assert_int_eq(count(s, "style=dashed, label"), 1);
    snprintf(path, sizeof path, "%s/t.xml", dir);
    ck_assert_int_eq(write_tree(t, path), 0);
    s = slurp(path);
    ck_assert_int_eq(count(s, "<define-basic-event"), 3);
    ck_assert_int_eq(count(s, "<define-gate"), 3);
    ck_assert_int_eq(count(s, "value=\"PAND\""), 1);
    ck_assert_int_eq(count(s, "<define-house-event"), 1);
    snprintf(path, sizeof path, "%s/t.json", dir);
    ck_assert_int_eq(write_tree(t, path), 0);
    s = slurp(path);
    ck_assert_int_eq(count(s, "\"type\": \"pand\""), 1);
    ck_assert_int_eq(count(s, "\"type\": \"and\""), 1);
    /* unknown extension, unwritable directory: -1 and nothing written */
    u_err err = {{0}};
    ck_assert_int_eq(rp_writer_for("--fault-tree", "t.svg", &err), -2);
    ck_assert_ptr_nonnull(strstr(err.msg, "(.dot .gv .xml .json)"));
    snprintf(path, sizeof path, "%s/t.svg", dir);
    ck_assert_int_eq(write_tree(t, path), -1);
    ck_assert_int_ne(access(path, F_OK), 0);
    ck_assert_int_eq(write_tree(t, "/nonexistent-dir/t.dot"), -1);
    rp_ftree_free(t);
    free_causes(&r);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A tree whose gates have the given event sets (bit k = event type k). */
static rp_ftree *tree_of(const unsigned *sets, size_t n, const double *p, size_t nev)
{
    rp_ftree *t = calloc(1, sizeof *t);
    t->ev = calloc(nev, sizeof *t->ev);
    t->nev = nev;
    for (size_t e = 0; e < nev; e++)
        t->ev[e].prob = p[e];
    t->gate = calloc(n, sizeof *t->gate);
    t->ngate = n;
    for (size_t i = 0; i < n; i++) {
        t->gate[i].inputs = calloc(nev, sizeof(size_t));
        for (size_t e = 0; e < nev; e++)
            if (sets[i] >> e & 1)
                t->gate[i].inputs[t->gate[i].ninputs++] = e;
    }
    return t;
}

START_TEST(probability_maths)
{
    const double p[] = {0.1, 0.2, 0.3};
    /* {A,B}, {A,C}: rare = .02 + .03; exact = .05 - P(ABC) = .05 - .006 */
    rp_ftree *t = tree_of((const unsigned[]){3, 5}, 2, p, 3);
    rp_topprob r;
    ck_assert_int_eq(rp_prob_top(t, &r), 0);
    ck_assert_uint_eq(r.ncuts, 2);
    ck_assert_double_eq_tol(r.rare, 0.05, 1e-12);
    ck_assert(r.has_exact);
    ck_assert_double_eq_tol(r.exact, 0.044, 1e-12);
    rp_ftree_free(t);
    /* duplicates and supersets are no minimal cut sets: {A,B}, {A,B}, {A,B,C} -> {A,B} */
    t = tree_of((const unsigned[]){3, 3, 7}, 3, p, 3);
    ck_assert_int_eq(rp_prob_top(t, &r), 0);
    ck_assert_uint_eq(r.ncuts, 1);
    ck_assert_double_eq_tol(r.exact, 0.02, 1e-12);
    rp_ftree_free(t);
    /* three single events: exact = 1 - .9 * .8 * .7 */
    t = tree_of((const unsigned[]){1, 2, 4}, 3, p, 3);
    ck_assert_int_eq(rp_prob_top(t, &r), 0);
    ck_assert_double_eq_tol(r.exact, 1 - 0.9 * 0.8 * 0.7, 1e-12);
    ck_assert_double_eq_tol(r.rare, 0.6, 1e-12);
    rp_ftree_free(t);
    /* a missing probability: not computed, and says which */
    const double q[] = {0.1, -1, 0.3};
    t = tree_of((const unsigned[]){3}, 1, q, 3);
    ck_assert_int_eq(rp_prob_top(t, &r), 1);
    rp_ftree_free(t);
}
END_TEST

START_TEST(many_cut_sets_only_approximated)
{
    double p[RP_EXACT_MAX + 1];
    unsigned sets[RP_EXACT_MAX + 1];
    for (int i = 0; i <= RP_EXACT_MAX; i++) {
        p[i] = 0.01;
        sets[i] = 1u << i;
    }
    rp_ftree *t = tree_of(sets, RP_EXACT_MAX + 1, p, RP_EXACT_MAX + 1);
    rp_topprob r;
    ck_assert_int_eq(rp_prob_top(t, &r), 0);
    ck_assert(!r.has_exact);
    ck_assert_double_eq_tol(r.rare, 0.21, 1e-12);
    rp_ftree_free(t);
    /* 20 cut sets: still exact, 1 - .99^20 */
    t = tree_of(sets, RP_EXACT_MAX, p, RP_EXACT_MAX);
    ck_assert_int_eq(rp_prob_top(t, &r), 0);
    ck_assert(r.has_exact);
    ck_assert_double_eq_tol(r.exact, 1 - pow(0.99, 20), 1e-12);
    rp_ftree_free(t);
}
END_TEST

static char *prob_file(const char *text)
{
    static char path[] = "/tmp/test_probXXXXXX";
    strcpy(path, "/tmp/test_probXXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
    return path;
}

static void parse_fails(const char *text, const char *want)
{
    char *path = prob_file(text);
    u_err err = {{0}};
    rp_probs p;
    ck_assert_int_eq(rp_prob_read(path, &p, &err), -1);
    ck_assert_msg(strstr(err.msg, want) && strstr(err.msg, path), "error '%s' lacks '%s'", err.msg,
                  want);
    unlink(path);
}

START_TEST(probability_file)
{
    char *path = prob_file("# basic events\n\nA 0.1\nB\t1e-3  # per mission\nC 1\n");
    u_err err = {{0}};
    rp_probs p;
    ck_assert_int_eq(rp_prob_read(path, &p, &err), 0);
    ck_assert_uint_eq(p.n, 3);
    ck_assert_str_eq(p.e[1].name, "B");
    ck_assert_double_eq(p.e[1].p, 1e-3);
    ck_assert_int_eq(p.e[1].line, 4);
    unlink(path);
    cc_result r;
    cc_cause cs[2];
    cc_absent ab;
    rp_ftree *t = two_causes(&r, cs, &ab);
    ck_assert_uint_eq(rp_prob_apply(t, &p), 0);
    ck_assert_double_eq(t->ev[0].prob, 0.1);
    rp_prob_free(&p);
    parse_fails("A 0.1\nB\n", ":2: expected `event probability`");
    parse_fails("A 0.1 0.2\n", ":1: expected");
    parse_fails("A 1.5\n", ":1: probability of A must be a number in [0, 1]");
    parse_fails("A -0.1\n", ":1:");
    parse_fails("A x\n", ":1:");
    parse_fails("A nan\n", ":1:");
    parse_fails("A 0.1\nA 0.2\n", ":2: A was already given on line 1");
    /* a name that is no event: warned and counted, not an error */
    path = prob_file("Z 0.5\n");
    ck_assert_int_eq(rp_prob_read(path, &p, &err), 0);
    ck_assert_uint_eq(rp_prob_apply(t, &p), 1);
    rp_prob_free(&p);
    unlink(path);
    ck_assert_int_eq(rp_prob_read("/nonexistent/p.txt", &p, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/p.txt"));
    rp_ftree_free(t);
    free_causes(&r);
}
END_TEST

/* root -A-> 1 -B-> violation; root -B-> 2 -A-> 3 (settled); 1 -claim-> 4 -claim-> BAD */
START_TEST(witness_runs)
{
    cc_graph *g = cc_graph_new(CC_G_MOVES);
    uint32_t s[5];
    for (int i = 0; i < 5; i++) {
        bool fresh;
        s[i] = cc_graph_state(g, &i, sizeof i, &fresh);
    }
    cc_graph_set_root(g, s[0]);
    ck_assert_int_eq(cc_graph_move(g, s[0], s[1], 1, false, 1, 10), 0);
    ck_assert_int_eq(cc_graph_move(g, s[1], CC_SINK, 2, false, 2, 20), 0);
    ck_assert_int_eq(cc_graph_move(g, s[0], s[2], 2, false, 2, 21), 0);
    ck_assert_int_eq(cc_graph_move(g, s[2], s[3], 1, false, 1, 11), 0);
    cc_step *st;
    size_t n;
    cc_options o = {.ac2 = true};
    cc_result *r = cc_analyse(g, 2, &o);
    ck_assert_int_eq(cc_trail_find(g, r, (const uint32_t[]){0, 1}, 2, true, &st, &n), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(st[0].pr, 1);
    ck_assert_int_eq(st[0].tid, 10);
    ck_assert_int_eq(st[1].tid, 20); /* the violating move is the trail's last */
    free(st);
    /* B A is good (ends settled in 3), not bad */
    ck_assert_int_eq(cc_trail_find(g, r, (const uint32_t[]){1, 0}, 2, true, &st, &n), 1);
    ck_assert_int_eq(cc_trail_find(g, r, (const uint32_t[]){1, 0}, 2, false, &st, &n), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(st[1].tid, 11);
    free(st);
    /* A alone is not a good run: from 1 the never claim reaches a violation */
    ck_assert_int_eq(cc_graph_move(g, s[1], s[4], CC_SILENT, true, 0, 30), 0);
    ck_assert_int_eq(cc_graph_move(g, s[4], CC_SINK, CC_SILENT, true, 0, 31), 0);
    cc_result_free(r);
    r = cc_analyse(g, 2, &o); /* the flags derived from the grown graph */
    ck_assert_int_eq(cc_trail_find(g, r, (const uint32_t[]){0}, 1, false, &st, &n), 1);
    ck_assert_int_eq(cc_trail_find(g, r, (const uint32_t[]){0}, 1, true, &st, &n), 0);
    ck_assert_uint_eq(n, 3); /* A, then the claim's two moves */
    ck_assert_int_eq(st[2].tid, 31);
    free(st);
    cc_result_free(r);
    cc_graph_free(g);
}
END_TEST

/* The text and JSON reports of an analysed graph: root -A-> 1 -B-> violation, and 1
 * -C-> 4 -B-> 5 (settled): C between A and B prevents the hazard. */
START_TEST(reports)
{
    cc_graph *g = cc_graph_new(0);
    uint32_t s[6];
    for (int i = 0; i < 6; i++) {
        bool fresh;
        s[i] = cc_graph_state(g, &i, sizeof i, &fresh);
    }
    cc_graph_set_root(g, s[0]);
    ck_assert_int_eq(cc_graph_edge(g, s[0], s[1], 1, false), 0);
    ck_assert_int_eq(cc_graph_edge(g, s[1], CC_SINK, 2, false), 0);
    ck_assert_int_eq(cc_graph_edge(g, s[1], s[4], 3, false), 0);
    ck_assert_int_eq(cc_graph_edge(g, s[4], s[5], 2, false), 0);
    static const char *const names[] = {"A", "B", "C"};
    cc_options o = {.ac2 = true, .names = names};
    cc_result *r = cc_analyse(g, 3, &o);
    rp_run run = {.search = "dfs", .ac2 = true, .model = "m.pml"};
    rp_in in = {.r = r, .names = names, .nevents = 3, .run = &run};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(rp_json(f, &in), 0);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "\"absent_intervals\": [{\"event\": \"C\", \"after\": "
                                      "\"A\", \"before\": \"B\"}]"));
    ck_assert_ptr_nonnull(strstr(buf, "\"ordered\": [[\"A\", \"B\"]]"));
    free(buf);
    f = open_memstream(&buf, &len);
    ck_assert_int_eq(rp_text(f, &in, true), 0);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "does not occur: C between A and B"));
    ck_assert_ptr_nonnull(strstr(buf, "A ∧< ¬C ∧> B"));
    free(buf);
    rp_in_release(&in);
    cc_result_free(r);
    cc_graph_free(g);
}
END_TEST

/* Renders with rp_text (which == 0) or rp_json into fresh memory. */
static char *render(const rp_in *in, int which)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(which == 0 ? rp_text(f, in, false) : rp_json(f, in), 0);
    fclose(f);
    return buf;
}

/* The events every cause has: A in both causes (twice in one, counted once), B and
 * C in one each; vouched for every bad run only by a complete result without
 * uncaused traces, and said so in the text and the JSON. */
START_TEST(in_every_cause)
{
    cc_result r;
    cc_cause cs[2];
    cs[0] = cause((const uint32_t[]){0, 1, 0}, 3, NULL, 0);
    cs[0].occ[2].occ = 2;
    cs[1] = cause((const uint32_t[]){2, 0}, 2, NULL, 0);
    r = (cc_result){.causes = cs, .ncauses = 2, .hazard = true};
    bool all[4];
    ck_assert_int_eq(rp_every_cause(&r, 4, all), 1);
    ck_assert(all[0] && !all[1] && !all[2] && !all[3]);
    rp_run run = {.search = "dfs", .ac2 = true, .model = "m.pml"};
    rp_in in = {.r = &r, .names = NAMES, .nevents = 4, .run = &run};
    ck_assert(rp_every_cause_sure(&in));
    char *t = render(&in, 0), *j = render(&in, 1);
    ck_assert_ptr_nonnull(strstr(t, "in every cause: A; every run that reaches the hazard"));
    ck_assert_ptr_nonnull(strstr(j, "\"in_every_cause\": [\"A\"],\n  \"in_every_bad_run\": true"));
    free(t);
    free(j);
    /* an uncaused bad trace: some bad run may lack A */
    uint32_t ev = 1;
    r.uncaused = &(cc_trace){&ev, 1};
    r.nuncaused = 1;
    ck_assert(!rp_every_cause_sure(&in));
    t = render(&in, 0);
    j = render(&in, 1);
    ck_assert_ptr_nonnull(strstr(t, "in every cause found: A (not a guarantee: a run without"));
    ck_assert_ptr_nonnull(strstr(j, "\"in_every_bad_run\": false"));
    free(t);
    free(j);
    /* an incomplete result vouches for nothing either */
    r.nuncaused = 0;
    run.why[0] = "the search depth limit (-m) was reached";
    run.nwhy = 1;
    ck_assert(!rp_every_cause_sure(&in));
    t = render(&in, 0);
    ck_assert_ptr_nonnull(strstr(t, "in every cause found: A (not a guarantee: the result is "
                                    "incomplete)"));
    free(t);
    /* no common event: said only when vouched; one cause: no line (its own list) */
    run.nwhy = 0;
    cs[1].occ[1].event = 3;
    ck_assert_int_eq(rp_every_cause(&r, 4, all), 0);
    t = render(&in, 0);
    ck_assert_ptr_nonnull(strstr(t, "in every cause: no event;"));
    free(t);
    r.ncauses = 1;
    t = render(&in, 0);
    ck_assert_ptr_null(strstr(t, "in every cause"));
    free(t);
    ck_assert_int_eq(rp_every_cause(&r, 4, all), 2);
    r.ncauses = 0;
    ck_assert_int_eq(rp_every_cause(&r, 4, all), 0);
    ck_assert(!all[0] && !all[1]);
    r.ncauses = 2;
    free_causes(&r);
}
END_TEST

/* The JSON's causal pairs are sorted by their names, whatever the witness order
 * (here C, A, B) and where two occurrences share a name: the DFS and BFS builds and
 * the oracle compare them as text. */
START_TEST(ordered_pairs_sorted)
{
    static const int ord[][2] = {{0, 1}, {0, 2}, {1, 2}};
    cc_cause cs[1] = {cause((const uint32_t[]){2, 0, 1}, 3, ord, 3)};
    cc_result r = {.causes = cs, .ncauses = 1, .hazard = true};
    rp_run run = {.search = "dfs", .ac2 = true, .model = "m.pml"};
    rp_in in = {.r = &r, .names = NAMES, .nevents = 4, .run = &run};
    char *j = render(&in, 1);
    ck_assert_ptr_nonnull(
        strstr(j, "\"ordered\": [[\"A\", \"B\"], [\"C\", \"A\"], [\"C\", \"B\"]]"));
    free(j);
    free_causes(&r);
    /* A label A_1 beside two occurrences of A: the label is A_1_0, as the formula
     * prints it (cc_occ_name), so no two occurrences share a name; the pairs come
     * out sorted by (x, y) as names */
    static const char *const clash[] = {"A", "A_1", "B"};
    static const int all[][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    cs[0] = cause((const uint32_t[]){0, 1, 0, 2}, 4, all, 6);
    cs[0].occ[2].occ = 2;
    in.names = clash;
    in.nevents = 3;
    j = render(&in, 1);
    ck_assert_ptr_nonnull(strstr(j, "\"ordered\": [[\"A_1\", \"A_1_0\"], [\"A_1\", \"A_2\"], "
                                    "[\"A_1\", \"B\"], [\"A_1_0\", \"A_2\"], [\"A_1_0\", \"B\"], "
                                    "[\"A_2\", \"B\"]]"));
    free(j);
    free_causes(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report");
    TCase *t = tcase_create("core");
    tcase_add_test(t, gates_and_shared_events);
    tcase_add_test(t, writers);
    tcase_add_test(t, probability_maths);
    tcase_add_test(t, many_cut_sets_only_approximated);
    tcase_add_test(t, probability_file);
    tcase_add_test(t, witness_runs);
    tcase_add_test(t, reports);
    tcase_add_test(t, in_every_cause);
    tcase_add_test(t, ordered_pairs_sorted);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
