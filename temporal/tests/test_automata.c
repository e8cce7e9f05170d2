/*
 * test_automata.c - the automata operations of temporal/ against brute force:
 * on random small Buchi automata, every ultimately periodic word up to a
 * length is decided by lasso membership (a product with the word's positions
 * and an SCC check, independent of the construction under test), and the
 * complement must accept exactly the lassos the original rejects (both
 * constructions), reductions must keep every lasso's answer, products and
 * unions must be the intersection and union, inclusion answers and their
 * counterexamples must match the enumeration.
 */
#include "tm_test_util.h"

/* Lengths: every lasso up to MAXLEN letters (1 AP) or MAXLEN2 (2 APs). */
#define MAXLEN  6
#define MAXLEN2 4

static int maxlen(const tm_nba *a)
{
    return tm_popcount(a->apmask) <= 1 ? MAXLEN : MAXLEN2;
}

typedef struct {
    const tm_nba *a, *b;
    int mode; /* 0 complement, 1 same language, 2 intersection, 3 union */
    const tm_nba *c;
    long checked;
} cmp;

static void check_word(const tm_lasso *w, void *arg)
{
    cmp *x = arg;
    bool in_a = tt_accepts(x->a, w);
    bool in_b = tt_accepts(x->b, w);
    switch (x->mode) {
    case 0:
        tt_check(in_a != in_b, "complement wrong on a lasso (prefix %zu, cycle %zu)", w->npre,
                 w->ncyc);
        break;
    case 1:
        tt_check(in_a == in_b, "language changed on a lasso (prefix %zu, cycle %zu)", w->npre,
                 w->ncyc);
        break;
    case 2:
        tt_check(tt_accepts(x->c, w) == (in_a && in_b), "intersection wrong on a lasso");
        break;
    case 3:
        tt_check(tt_accepts(x->c, w) == (in_a || in_b), "union wrong on a lasso");
        break;
    }
    x->checked++;
}

static void complement_against_lassos(tm_comp_method m, int count)
{
    tt_seed = 12345 + (uint64_t)m;
    long total = 0;
    int used_safra = 0, used_break = 0;
    for (int k = 0; k < count; k++) {
        tm_nba a, c;
        int naps = 1 + (int)tt_below(2);
        tt_random_nba(&a, 1 + tt_below(4), naps, 2);
        u_err e = {{0}};
        tm_comp_method used;
        int r = tm_nba_complement(&a, m, 100000, "a test automaton", &c, &used, &e);
        if (m == TM_COMP_BREAKPOINT && r != 0) {
            /* only weak automata: the refusal must say so */
            ck_assert_msg(strstr(e.msg, "not weak"), "%s", e.msg);
            tm_nba_free(&a);
            continue;
        }
        ck_assert_msg(r == 0, "%s", e.msg);
        used_safra += used == TM_COMP_SAFRA;
        used_break += used == TM_COMP_BREAKPOINT;
        cmp x = {&a, &c, 0, NULL, 0};
        tt_each_lasso(a.apmask, maxlen(&a), check_word, &x);
        total += x.checked;
        tm_nba_free(&a);
        tm_nba_free(&c);
    }
    ck_assert_int_gt(total, 1000);
    if (m == TM_COMP_AUTO)
        ck_assert(used_safra > 0 && used_break > 0); /* both constructions exercised */
}

START_TEST(complement_auto_against_lassos)
{
    complement_against_lassos(TM_COMP_AUTO, 150);
}
END_TEST

START_TEST(complement_safra_against_lassos)
{
    complement_against_lassos(TM_COMP_SAFRA, 150);
}
END_TEST

START_TEST(complement_breakpoint_against_lassos)
{
    complement_against_lassos(TM_COMP_BREAKPOINT, 150);
}
END_TEST

/* A larger automaton through Safra: 6 states, 1 AP, words up to 6 letters. */
START_TEST(complement_safra_larger)
{
    tt_seed = 777;
    for (int k = 0; k < 20; k++) {
        tm_nba a, c;
        tt_random_nba(&a, 6, 1, 2);
        u_err e = {{0}};
        ck_assert_msg(tm_complement_safra(&a, 200000, "a test automaton", &c, &e) == 0, "%s",
                      e.msg);
        cmp x = {&a, &c, 0, NULL, 0};
        tt_each_lasso(a.apmask, MAXLEN, check_word, &x);
        tm_nba_free(&a);
        tm_nba_free(&c);
    }
}
END_TEST

START_TEST(complement_budget_is_an_error)
{
    tt_seed = 99;
    tm_nba a, c;
    tt_random_nba(&a, 6, 2, 3);
    for (uint32_t q = 0; q < a.n; q++)
        a.s[q].acc = q % 2 == 0;
    u_err e = {{0}};
    ck_assert_int_eq(tm_complement_safra(&a, 2, "the test automaton", &c, &e), -1);
    ck_assert_msg(strstr(e.msg, "the test automaton") && strstr(e.msg, "exceeds 2 states"), "%s",
                  e.msg);
    tm_nba_free(&a);
}
END_TEST

START_TEST(reduce_keeps_language)
{
    tt_seed = 4242;
    for (int k = 0; k < 200; k++) {
        tm_nba a, b;
        tt_random_nba(&a, 1 + tt_below(5), 1 + (int)tt_below(2), 3);
        u_err e = {{0}};
        ck_assert(tm_nba_copy(&b, &a) == 0);
        ck_assert_msg(tm_nba_reduce(&b, &e) == 0, "%s", e.msg);
        ck_assert_uint_le(b.n, a.n + 1);
        cmp x = {&a, &b, 1, NULL, 0};
        tt_each_lasso(a.apmask, maxlen(&a), check_word, &x);
        tm_nba_free(&a);
        tm_nba_free(&b);
    }
}
END_TEST

/* Reducing a complement (deterministic, often weak) keeps its language, and
 * the weak deterministic minimisation gives the textbook sizes. */
START_TEST(reduce_minimises_weak_deterministic)
{
    tm_ltl l;
    tm_aps aps = {0};
    tm_ltl_init(&l);
    u_err e = {{0}};
    const char *f[] = {"F a", "G a", "a U b", "X X a", "true", "G (a -> X b)"};
    uint32_t want[] = {2, 1, 2, 4, 1, 2};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        int id = tm_ltl_parse(&l, f[i], &aps, true, "test", &e);
        ck_assert_msg(id >= 0, "%s", e.msg);
        int nid = tm_ltl_mk(&l, TM_L_NOT, id, -1, -1);
        tm_nba n, c;
        ck_assert(tm_ltl_to_nba(&l, nid, 3, 1000, &n, &e) == 0);
        ck_assert_msg(tm_nba_complement(&n, TM_COMP_AUTO, 1000, "t", &c, NULL, &e) == 0, "%s",
                      e.msg);
        tm_nba orig;
        ck_assert(tm_nba_copy(&orig, &c) == 0);
        ck_assert(tm_nba_reduce(&c, &e) == 0);
        ck_assert_msg(c.n == want[i], "%s: %u states, want %u", f[i], c.n, want[i]);
        cmp x = {&orig, &c, 1, NULL, 0};
        tt_each_lasso(3, MAXLEN2, check_word, &x);
        tm_nba_free(&n), tm_nba_free(&c), tm_nba_free(&orig);
    }
    tm_ltl_free(&l);
    tm_aps_free(&aps);
}
END_TEST

/* A random deterministic automaton: one target (or none) per letter. */
static void random_dba(tm_nba *a, uint32_t n, int naps)
{
    tm_nba_init(a, ((uint64_t)1 << naps) - 1);
    for (uint32_t q = 0; q < n; q++)
        tm_nba_add_state(a, tt_below(3) == 0);
    uint64_t L = (uint64_t)1 << naps;
    for (uint32_t q = 0; q < n; q++)
        for (uint64_t l = 0; l < L; l++)
            if (tt_below(8)) {
                tm_cube c = {a->apmask, l};
                tm_nba_add_edge(a, q, tt_below(n), c);
            }
    tm_nba_add_init(a, 0);
}

/* The delayed-simulation quotient of deterministic automata (a graph search,
 * not the game) and the whole reduction on them. */
START_TEST(reduce_deterministic_keeps_language)
{
    tt_seed = 8080;
    int shrunk = 0;
    for (int k = 0; k < 300; k++) {
        tm_nba a, b, c;
        random_dba(&a, 2 + tt_below(6), 1 + (int)tt_below(2));
        u_err e = {{0}};
        ck_assert(tm_nba_deterministic(&a));
        ck_assert(tm_nba_copy(&b, &a) == 0 && tm_nba_copy(&c, &a) == 0);
        ck_assert(tm_nba_delayed_quotient(&b, &e) == 0);
        ck_assert(tm_nba_deterministic(&b));
        ck_assert(tm_nba_reduce(&c, &e) == 0);
        shrunk += b.n < a.n;
        cmp x = {&a, &b, 1, NULL, 0};
        tt_each_lasso(a.apmask, maxlen(&a), check_word, &x);
        x.b = &c;
        tt_each_lasso(a.apmask, maxlen(&a), check_word, &x);
        tm_nba_free(&a), tm_nba_free(&b), tm_nba_free(&c);
    }
    ck_assert_int_gt(shrunk, 10);
}
END_TEST

/* Transition-based deterministic automata: reduced (saturation or
 * desaturation, Moore, simulation) and made state-based, against the same
 * automaton made state-based without reduction. */
START_TEST(tdba_reduce_keeps_language)
{
    tt_seed = 9090;
    for (int k = 0; k < 300; k++) {
        int naps = 1 + (int)tt_below(2);
        tm_tdba d;
        tm_tdba_init(&d, ((uint64_t)1 << naps) - 1);
        uint32_t n = 1 + tt_below(6);
        for (uint32_t q = 0; q < n; q++)
            tm_tdba_add_state(&d);
        for (size_t t = 0; t < (size_t)n * d.L; t++) {
            d.succ[t] = tt_below(8) ? tt_below(n) : U_INVALID;
            d.acc[t] = tt_below(3) == 0;
        }
        d.init = 0;
        tm_nba plain, reduced;
        u_err e = {{0}};
        ck_assert(tm_tdba_to_nba(&d, &plain, &e) == 0);
        ck_assert(tm_tdba_reduce(&d, &e) == 0);
        ck_assert_uint_le(d.n, n);
        ck_assert(tm_tdba_to_nba(&d, &reduced, &e) == 0);
        cmp x = {&plain, &reduced, 1, NULL, 0};
        tt_each_lasso(d.apmask, naps == 1 ? MAXLEN : MAXLEN2, check_word, &x);
        tm_nba_free(&plain), tm_nba_free(&reduced);
        tm_tdba_free(&d);
    }
}
END_TEST

START_TEST(products_against_lassos)
{
    tt_seed = 31337;
    for (int k = 0; k < 100; k++) {
        tm_nba a, b, i, u;
        tt_random_nba(&a, 1 + tt_below(3), 2, 2);
        tt_random_nba(&b, 1 + tt_below(3), 2, 2);
        u_err e = {{0}};
        ck_assert(tm_nba_intersect(&a, &b, 10000, &i, &e) == 0);
        ck_assert(tm_nba_union(&a, &b, &u, &e) == 0);
        cmp x = {&a, &b, 2, &i, 0};
        tt_each_lasso(3, MAXLEN2, check_word, &x);
        x.mode = 3;
        x.c = &u;
        tt_each_lasso(3, MAXLEN2, check_word, &x);
        tm_nba_free(&a), tm_nba_free(&b), tm_nba_free(&i), tm_nba_free(&u);
    }
}
END_TEST

typedef struct {
    const tm_nba *a, *b;
    bool found; /* a lasso in a but not in b */
} diff;

static void find_diff(const tm_lasso *w, void *arg)
{
    diff *d = arg;
    if (!d->found && tt_accepts(d->a, w) && !tt_accepts(d->b, w))
        d->found = true;
}

START_TEST(inclusion_against_lassos)
{
    tt_seed = 2718;
    int yes = 0, no = 0;
    for (int k = 0; k < 200; k++) {
        tm_nba a, b;
        tt_random_nba(&a, 1 + tt_below(3), 1, 2);
        tt_random_nba(&b, 1 + tt_below(3), 1, 2);
        u_err e = {{0}};
        tm_lasso cex;
        int r = tm_nba_included(&a, &b, 100000, &cex, &e);
        ck_assert_msg(r >= 0, "%s", e.msg);
        diff d = {&a, &b, false};
        tt_each_lasso(1, MAXLEN, find_diff, &d);
        if (r == 1) {
            ck_assert_msg(!d.found, "inclusion claimed, but a short lasso is in a only");
            yes++;
        } else {
            /* the counterexample is a word of a outside b */
            ck_assert(tt_accepts(&a, &cex) && !tt_accepts(&b, &cex));
            tm_lasso_free(&cex);
            no++;
        }
        tm_nba_free(&a), tm_nba_free(&b);
    }
    ck_assert(yes > 10 && no > 10);
}
END_TEST

START_TEST(emptiness_witness_is_accepted)
{
    tt_seed = 1618;
    int nonempty = 0;
    for (int k = 0; k < 300; k++) {
        tm_nba a;
        tt_random_nba(&a, 1 + tt_below(6), 2, 2);
        u_err e = {{0}};
        tm_lasso w;
        int r = tm_nba_empty(&a, &w, &e);
        ck_assert(r >= 0);
        diff d = {&a, &a, false};
        (void)d;
        if (r == 0) {
            ck_assert(w.ncyc >= 1);
            ck_assert(tt_accepts(&a, &w));
            tm_lasso_free(&w);
            nonempty++;
        }
        tm_nba_free(&a);
    }
    ck_assert(nonempty > 50);
}
END_TEST

START_TEST(weak_normal_form_keeps_language)
{
    tt_seed = 5;
    int weak = 0;
    for (int k = 0; k < 300; k++) {
        tm_nba a, n;
        tt_random_nba(&a, 1 + tt_below(4), 1, 2);
        u_err e = {{0}};
        bool w;
        ck_assert(tm_nba_weak(&a, &n, &w, &e) == 0);
        if (w) {
            cmp x = {&a, &n, 1, NULL, 0};
            tt_each_lasso(1, MAXLEN, check_word, &x);
            tm_nba_free(&n);
            weak++;
        }
        tm_nba_free(&a);
    }
    ck_assert(weak > 30);
}
END_TEST

START_TEST(trim_keeps_language)
{
    tt_seed = 6;
    for (int k = 0; k < 200; k++) {
        tm_nba a, b;
        tt_random_nba(&a, 1 + tt_below(6), 1, 2);
        u_err e = {{0}};
        ck_assert(tm_nba_copy(&b, &a) == 0);
        ck_assert(tm_nba_trim(&b, &e) == 0);
        cmp x = {&a, &b, 1, NULL, 0};
        tt_each_lasso(1, MAXLEN, check_word, &x);
        tm_nba_free(&a), tm_nba_free(&b);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("temporal automata");
    TCase *tc = tcase_create("automata");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, complement_auto_against_lassos);
    tcase_add_test(tc, complement_safra_against_lassos);
    tcase_add_test(tc, complement_breakpoint_against_lassos);
    tcase_add_test(tc, complement_safra_larger);
    tcase_add_test(tc, complement_budget_is_an_error);
    tcase_add_test(tc, reduce_keeps_language);
    tcase_add_test(tc, reduce_minimises_weak_deterministic);
    tcase_add_test(tc, reduce_deterministic_keeps_language);
    tcase_add_test(tc, tdba_reduce_keeps_language);
    tcase_add_test(tc, products_against_lassos);
    tcase_add_test(tc, inclusion_against_lassos);
    tcase_add_test(tc, emptiness_witness_is_accepted);
    tcase_add_test(tc, weak_normal_form_keeps_language);
    tcase_add_test(tc, trim_keeps_language);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
