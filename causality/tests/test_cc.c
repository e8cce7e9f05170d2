/*
 * test_cc.c - unit tests of the causality analysis on hand-built graphs: AC2(1),
 * AC3, non-occurrence intervals, OC1, the never claim's closure, settled runs,
 * ambiguity, causes without counterfactual, and formulas checked with the EOL
 * evaluator against their witnesses.
 */
#include "causality.h"
#include "cc_internal.h" /* white-box: the graph's edge blocks */

#include <check.h>
#include <stdlib.h>
#include <string.h>

enum { A = 1, B, C }; /* event ids: type k has id k + 1 */
static const char *const NAMES[] = {"A", "B", "C"};

static cc_graph *G;
static uint32_t st[16];

static void states(int n)
{
    G = cc_graph_new(CC_G_MOVES);
    for (int i = 0; i < n; i++) {
        bool fresh;
        st[i] = cc_graph_state(G, &i, sizeof i, &fresh);
        ck_assert(fresh);
    }
    cc_graph_set_root(G, st[0]);
}

static void e(int from, int to, uint32_t ev)
{
    ck_assert_int_eq(cc_graph_edge(G, st[from], to < 0 ? CC_SINK : st[to], ev, false), 0);
}

static void claim(int from, int to)
{
    ck_assert_int_eq(cc_graph_edge(G, st[from], to < 0 ? CC_SINK : st[to], CC_SILENT, true), 0);
}

static cc_result *run(bool ac2)
{
    cc_options o = {.ac2 = ac2, .names = NAMES};
    cc_result *r = cc_analyse(G, 3, &o);
    ck_assert_ptr_nonnull(r);
    ck_assert(!r->oom);
    return r;
}

static char *formula(const cc_cause *c)
{
    eol_node *f = cc_formula(c, NAMES);
    ck_assert_ptr_nonnull(f);
    char *s = eol_print(f, EOL_ASCII);
    eol_free(f);
    return s;
}

static bool holds(const char *psi, const char *const *trace, size_t n)
{
    eol_action act[16];
    int cnt[3] = {0};
    for (size_t i = 0; i < n; i++) {
        int k = trace[i][0] - 'A';
        act[i] = (eol_action){trace[i], ++cnt[k]};
    }
    char *err = NULL;
    eol_node *f = eol_parse(psi, &err);
    ck_assert_msg(f != NULL, "%s does not parse: %s", psi, err);
    bool r = eol_eval(f, act, n);
    eol_free(f);
    return r;
}

/* s0 -A-> s1 -B-> violation; s1 -C-> s4 -B-> s5 (C prevents it); s0 -B-> s2 -A-> s3. */
START_TEST(non_occurrence_between)
{
    states(6);
    e(0, 1, A);
    e(1, -1, B);
    e(1, 4, C);
    e(4, 5, B);
    e(0, 2, B);
    e(2, 3, A);
    cc_result *r = run(true);
    ck_assert(r->hazard);
    ck_assert_uint_eq(r->ncauses, 1);
    cc_cause *c = &r->causes[0];
    ck_assert_uint_eq(c->nocc, 2);
    ck_assert_uint_eq(c->nabsent, 1);
    ck_assert_uint_eq(c->absent[0].event, C - 1);
    ck_assert_int_eq(c->absent[0].after, 0);
    ck_assert_int_eq(c->absent[0].before, 1);
    ck_assert(c->ordered[0 * 2 + 1] && !c->ordered[1 * 2 + 0]);
    char *s = formula(c);
    ck_assert_str_eq(s, "A &< !C >& B");
    const char *bad[] = {"A", "B"}, *good[] = {"A", "C", "B"};
    ck_assert(holds(s, bad, 2));
    ck_assert(!holds(s, good, 3));
    free(s);
    ck_assert_uint_eq(c->ngood, 3);
    cc_result_free(r);
    r = run(false); /* CC1: no AC2(2), no interval */
    ck_assert_uint_eq(r->ncauses, 1);
    ck_assert_uint_eq(r->causes[0].nabsent, 0);
    s = formula(&r->causes[0]);
    ck_assert_str_eq(s, "A .& B");
    free(s);
    cc_result_free(r);
    cc_graph_free(G);
}
END_TEST

/* Both orders are bad: the order is not causal (OC1). */
START_TEST(order_not_causal)
{
    states(3);
    e(0, 1, A);
    e(1, -1, B);
    e(0, 2, B);
    e(2, -1, A);
    cc_result *r = run(true);
    ck_assert_uint_eq(r->ncauses, 1);
    ck_assert_uint_eq(r->causes[0].ntraces, 2);
    ck_assert(!r->causes[0].ordered[1] && !r->causes[0].ordered[2]);
    char *s = formula(&r->causes[0]);
    ck_assert_str_eq(s, "A & B");
    free(s);
    cc_result_free(r);
    cc_graph_free(G);
}
END_TEST

/* AC3: {A} alone is bad on another path, so {A, B} is not minimal. */
START_TEST(minimality)
{
    states(4);
    e(0, 1, A);
    e(1, -1, B);
    e(0, 2, C);
    e(2, 3, A);
    e(3, -1, CC_SILENT); /* C A then a silent violation: {A, C} bad */
    e(0, 3, A);          /* A alone reaches the doomed state s3: {A} bad */
    cc_result *r = run(true);
    ck_assert_uint_eq(r->ncauses, 1);
    ck_assert_uint_eq(r->causes[0].nocc, 1);
    ck_assert_uint_eq(r->causes[0].occ[0].event, A - 1);
    ck_assert_uint_gt(r->colours[4], 0); /* orange: {A, B} or {C, A} */
    cc_result_free(r);
    cc_graph_free(G);
}
END_TEST

/* The never claim can violate from s1 (one branch), so every run through s1 is bad
 * there, also the one where the claim waits and B follows. */
START_TEST(claim_closure)
{
    states(4);
    e(0, 1, A);
    claim(1, -1);
    claim(1, 2);
    e(2, 3, B);
    cc_result *r = run(true);
    ck_assert_uint_eq(r->ncauses, 1);
    ck_assert_uint_eq(r->causes[0].nocc, 1);
    ck_assert_uint_eq(r->good, 1); /* only the empty trace is good */
    cc_result_free(r);
    cc_graph_free(G);
}
END_TEST

/* A never claim that guesses (cc_det.c).  After A the claim may wait (s3) or watch
 * (s4); after B the watching branch violates (s6 -> sink), the waiting one ends
 * (s7).  Read path by path, the run A B is bad and good at once (ambiguous); with the
 * branches combined it is bad only, and its trail is the watching branch's moves. */
static void guessing_claim(void)
{
    states(8);
    ck_assert_int_eq(cc_graph_move(G, st[0], st[1], CC_SILENT, true, 0, 10), 0);
    ck_assert_int_eq(cc_graph_move(G, st[1], st[2], A, false, 1, 1), 0);
    ck_assert_int_eq(cc_graph_move(G, st[2], st[3], CC_SILENT, true, 0, 11), 0);
    ck_assert_int_eq(cc_graph_move(G, st[2], st[4], CC_SILENT, true, 0, 12), 0);
    ck_assert_int_eq(cc_graph_move(G, st[3], st[5], B, false, 1, 2), 0);
    ck_assert_int_eq(cc_graph_move(G, st[4], st[6], B, false, 1, 2), 0);
    ck_assert_int_eq(cc_graph_move(G, st[5], st[7], CC_SILENT, true, 0, 13), 0);
    ck_assert_int_eq(cc_graph_move(G, st[6], CC_SINK, CC_SILENT, true, 0, 14), 0);
}

START_TEST(claim_branches)
{
    guessing_claim();
    cc_result *r = run(true);
    ck_assert_uint_eq(r->ncauses, 1);
    ck_assert(r->causes[0].ambiguous);
    cc_result_free(r);
    cc_graph_free(G);

    guessing_claim();
    cc_graph *d = cc_graph_det(G);
    ck_assert_ptr_nonnull(d);
    /* {0} {1} {2} {3,4} {5,6} {7} */
    ck_assert_uint_eq(cc_graph_states(d), 6);
    ck_assert_uint_eq(cc_graph_det_members(d), 8);
    G = d;
    r = run(true);
    ck_assert_uint_eq(r->ncauses, 1);
    ck_assert(!r->causes[0].ambiguous);
    ck_assert_uint_eq(r->causes[0].nocc, 2);
    ck_assert(r->causes[0].ordered[0 * 2 + 1]); /* A before B */
    uint32_t ev[] = {A - 1, B - 1};
    cc_step *s;
    size_t n;
    ck_assert_int_eq(cc_trail_find(d, r, ev, 2, true, &s, &n), 0);
    const cc_step want[] = {{0, 10}, {1, 1}, {0, 12}, {1, 2}, {0, 14}};
    ck_assert_uint_eq(n, 5);
    for (size_t i = 0; i < n; i++)
        ck_assert(s[i].pr == want[i].pr && s[i].tid == want[i].tid);
    free(s);
    /* the good run A, ending at the claim's turn {2} */
    ck_assert_int_eq(cc_trail_find(d, r, ev, 1, false, &s, &n), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert(s[0].tid == 10 && s[1].pr == 1 && s[1].tid == 1);
    free(s);
    cc_result_free(r);
    cc_graph_free(d); /* and the recorded graph it owns */
}
END_TEST

/* A silent choice after A decides the hazard: ambiguous. */
START_TEST(ambiguity)
{
    states(3);
    e(0, 1, A);
    e(1, -1, CC_SILENT);
    e(1, 2, CC_SILENT);
    cc_result *r = run(true);
    ck_assert_uint_eq(r->ncauses, 1);
    ck_assert(r->causes[0].ambiguous);
    ck_assert_uint_eq(r->nambiguous, 1);
    cc_result_free(r);
    cc_graph_free(G);
}
END_TEST

/* The hazard needs no event at all: no cause, reported as uncaused. */
START_TEST(uncaused)
{
    states(2);
    e(0, 1, A);
    e(0, -1, CC_SILENT);
    cc_result *r = run(true);
    ck_assert(r->hazard);
    ck_assert_uint_eq(r->ncauses, 0);
    ck_assert_uint_eq(r->nuncaused, 1);
    ck_assert_uint_eq(r->uncaused[0].n, 0);
    cc_result_free(r);
    cc_graph_free(G);
}
END_TEST

/* A cycle of events that never leads to the hazard must not make the search loop. */
START_TEST(cycles_terminate)
{
    states(3);
    e(0, 1, A);
    e(1, 0, C);
    e(1, 2, B);
    e(2, -1, B);
    cc_graph_bad_state(G, st[2]); /* unused: s2 is bad itself, B never follows */
    cc_result *r = run(true);
    ck_assert_uint_eq(r->ncauses, 1);
    ck_assert_uint_eq(r->causes[0].nocc, 2); /* A B */
    ck_assert(!r->truncated);
    cc_result_free(r);
    cc_graph_free(G);
}
END_TEST

/* No violation reachable from the root (one unreachable bad state): the histories
 * are not enumerated at all; with the bad state reachable they are. */
START_TEST(unreachable_hazard)
{
    states(4);
    e(0, 1, A);
    e(1, 0, B);
    e(1, 1, C);
    e(3, -1, A); /* state 3 is not reachable from the root 0 */
    cc_result *r = run(true);
    ck_assert(r->unreachable && !r->hazard);
    ck_assert_uint_eq(r->explored, 0);
    ck_assert_uint_eq(r->ncauses, 0);
    cc_result_free(r);
    e(1, 3, C);
    r = run(true);
    ck_assert(!r->unreachable && r->hazard);
    ck_assert_uint_eq(r->ncauses, 1);
    cc_result_free(r);
    cc_graph_free(G);
}
END_TEST

/* Repeated occurrences: A twice is needed. */
START_TEST(occurrences)
{
    states(4);
    e(0, 1, A);
    e(1, 2, A);
    e(2, -1, B);
    e(1, 3, B);
    cc_result *r = run(true);
    ck_assert_uint_eq(r->ncauses, 1);
    cc_cause *c = &r->causes[0];
    ck_assert_uint_eq(c->nocc, 3);
    char *n1 = cc_occ_name(c, 0, NAMES), *n2 = cc_occ_name(c, 1, NAMES);
    ck_assert_str_eq(n1, "A_1");
    ck_assert_str_eq(n2, "A_2");
    free(n1);
    free(n2);
    char *s = formula(c);
    ck_assert_str_eq(s, "A_1 .& A_2 .& B");
    free(s);
    cc_result_free(r);
    cc_graph_free(G);
}
END_TEST

/* The event ids of s's edge block, in order. */
static size_t block(const cc_graph *g, uint32_t s, uint32_t *ev)
{
    size_t n = 0;
    for (uint32_t e = cc_first(g, s); e != CC_NONE; e = cc_next(g, e))
        ev[n++] = g->ev[e] & CC_EV_MASK;
    return n;
}

/* Moves added interleaved across states, some states closed early, one reopened:
 * every state's block holds its moves in the order they were added. */
START_TEST(graph_blocks)
{
    cc_graph *g = cc_graph_new(CC_G_MOVES);
    uint32_t s[4], ev[8];
    for (int i = 0; i < 4; i++) {
        bool fresh;
        s[i] = cc_graph_state(g, &i, sizeof i, &fresh);
    }
    ck_assert_int_eq(cc_graph_edge(g, s[0], s[1], 1, false), 0);
    ck_assert_int_eq(cc_graph_edge(g, s[1], s[2], 2, false), 0);
    ck_assert_int_eq(cc_graph_edge(g, s[0], s[2], 3, false), 0);
    ck_assert_int_eq(cc_graph_close(g, s[1]), 0);
    ck_assert_int_eq(cc_graph_move(g, s[0], CC_SINK, 4, true, 3, 77), 0);
    ck_assert_int_eq(cc_graph_close(g, s[0]), 0);
    ck_assert_int_eq(cc_graph_edge(g, s[2], s[0], 5, false), 0);
    ck_assert_int_eq(cc_graph_edge(g, s[0], s[3], 6, false), 0); /* reopens s0 */
    /* the largest event id an edge holds, with both flags beside it; one more is refused */
    ck_assert_int_eq(cc_graph_move(g, s[3], CC_SINK, CC_MAX_EVENTS, true, -1, -1), 0);
    ck_assert_int_eq(cc_graph_edge(g, s[3], s[0], CC_MAX_EVENTS + 1, false), -1);
    ck_assert_int_eq(cc_graph_seal(g), 0);
    ck_assert_uint_eq(cc_graph_edges(g), 7);
    ck_assert_uint_eq(block(g, s[0], ev), 4);
    ck_assert(ev[0] == 1 && ev[1] == 3 && ev[2] == 4 && ev[3] == 6);
    ck_assert_uint_eq(block(g, s[1], ev), 1);
    ck_assert_uint_eq(ev[0], 2);
    ck_assert_uint_eq(block(g, s[2], ev), 1);
    ck_assert_uint_eq(block(g, s[3], ev), 1);
    ck_assert_uint_eq(ev[0], CC_MAX_EVENTS);
    ck_assert(g->ev[cc_first(g, s[3])] == (CC_MAX_EVENTS | CC_EV_CLAIM | CC_EV_LAST));
    uint32_t e = cc_first(g, s[0]) + 2; /* the claim's move into the violation */
    ck_assert_uint_eq(g->to[e], CC_SINK);
    ck_assert(g->ev[e] & CC_EV_CLAIM);
    int pr, tid;
    cc_graph_step(g, e, &pr, &tid);
    ck_assert(pr == 3 && tid == 77);
    cc_graph_step(g, cc_first(g, s[1]), &pr, &tid);
    ck_assert(pr == -1 && tid == -1);
    cc_graph_free(g);
}
END_TEST

/* Fingerprinted and exact interning give the same ids, through table growth. */
START_TEST(graph_fingerprints)
{
    cc_graph *f = cc_graph_new(0), *x = cc_graph_new(CC_G_EXACT);
    enum { N = 200000 };
    for (int round = 0; round < 2; round++)
        for (uint32_t i = 0; i < N; i++) {
            uint32_t key[13] = {0}; /* a 52-byte vector differing in one word or two */
            key[i % 13] = i;
            key[(i * 7) % 13] ^= i >> 3;
            bool ff, fx;
            uint32_t a = cc_graph_state(f, key, sizeof key, &ff);
            uint32_t b = cc_graph_state(x, key, sizeof key, &fx);
            ck_assert_uint_eq(a, b);
            ck_assert(ff == fx);
            ck_assert(ff == (round == 0) || a < i); /* keys may repeat in round 0 */
        }
    ck_assert_uint_eq(cc_graph_states(f), cc_graph_states(x));
    cc_graph_free(f);
    cc_graph_free(x);
}
END_TEST

/* Keyless states (pan's hash table keeps their identity) interleave with keyed ones:
 * ids stay dense and keys keep mapping to their own state, in both key modes. */
START_TEST(graph_keyless_states)
{
    for (int exact = 0; exact < 2; exact++) {
        cc_graph *g = cc_graph_new(exact ? CC_G_EXACT : 0);
        enum { N = 20000 };
        static uint32_t keyed[N];
        for (uint32_t i = 0; i < N; i++) {
            uint32_t free_id = cc_graph_new_state(g);
            ck_assert_uint_eq(free_id, 2 * i);
            bool fresh;
            keyed[i] = cc_graph_state(g, &i, sizeof i, &fresh);
            ck_assert(fresh);
            ck_assert_uint_eq(keyed[i], 2 * i + 1);
        }
        for (uint32_t i = 0; i < N; i++) {
            bool fresh;
            ck_assert_uint_eq(cc_graph_state(g, &i, sizeof i, &fresh), keyed[i]);
            ck_assert(!fresh);
        }
        ck_assert_uint_eq(cc_graph_states(g), 2 * N);
        cc_graph_free(g);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("causality");
    TCase *t = tcase_create("analysis");
    /* graph_fingerprints builds large graphs: under ASan on a loaded 2-core machine it
     * took longer than Check's default 4 s (CI, 2026-11-27), as other suites' big cases
     * do */
    tcase_set_timeout(t, 120);
    tcase_add_test(t, non_occurrence_between);
    tcase_add_test(t, order_not_causal);
    tcase_add_test(t, minimality);
    tcase_add_test(t, claim_closure);
    tcase_add_test(t, claim_branches);
    tcase_add_test(t, ambiguity);
    tcase_add_test(t, uncaused);
    tcase_add_test(t, cycles_terminate);
    tcase_add_test(t, occurrences);
    tcase_add_test(t, unreachable_hazard);
    tcase_add_test(t, graph_blocks);
    tcase_add_test(t, graph_fingerprints);
    tcase_add_test(t, graph_keyless_states);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
