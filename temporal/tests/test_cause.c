/*
 * test_cause.c - cause synthesis on the paper's instances (the systems of
 * cases/temporal-oracle/instances/, written from the paper's descriptions):
 * every cause is checked equivalent, by tm_check's two emptiness checks, to
 * the LTL formula the paper reports (Table 1, section 1.1, Examples 2 and 3),
 * for both relations; the description search finds such formulas; Table 1's
 * automaton sizes are met without the description; cause checking answers no
 * with a counterexample that really separates the languages; and the trace
 * checks (no run, effect violated, ambiguous trace) and the state budget.
 */
#include "tm_test_util.h"

#include <stdio.h>

/* The repository root, from this file's path (the Makefile compiles it by
 * its absolute path). */
static char root[1024];

static void find_root(void)
{
    snprintf(root, sizeof root, "%s", __FILE__);
    char *p = strstr(root, "temporal/tests/test_cause.c");
    ck_assert_ptr_nonnull(p);
    *p = 0;
}

typedef struct {
    tm_system sys;
    tm_ltl l;
    tm_problem p;
    tm_result r;
    tm_trace_status st;
} run;

/* Loads SYSTEM (an instance file), builds the problem and, unless the trace
 * check says otherwise, the cause. */
static void start(run *x, const char *system, const char *trace, const char *effect,
                  tm_relation rel, uint32_t budget)
{
    char path[1200];
    u_err e = {{0}};
    find_root();
    snprintf(path, sizeof path, "%scases/temporal-oracle/instances/%s", root, system);
    memset(x, 0, sizeof *x);
    tm_ltl_init(&x->l);
    ck_assert_msg(tm_system_read(path, &x->sys, &e) == 0, "%s", e.msg);
    int f = tm_ltl_parse(&x->l, effect, &x->sys.aps, false, "effect", &e);
    ck_assert_msg(f >= 0, "%s", e.msg);
    int nf = tm_ltl_mk(&x->l, TM_L_NOT, f, -1, -1);
    uint64_t all = x->sys.inputs | x->sys.outputs;
    tm_nba E, NE;
    ck_assert(tm_ltl_to_nba(&x->l, f, all, 100000, &E, &e) == 0);
    ck_assert(tm_ltl_to_nba(&x->l, nf, all, 100000, &NE, &e) == 0);
    ck_assert(tm_nba_reduce(&E, &e) == 0 && tm_nba_reduce(&NE, &e) == 0);
    ck_assert_msg(tm_problem_init(&x->p, &x->sys, trace, &E, &NE, rel, budget, &e) == 0, "%s",
                  e.msg);
}

static void finish(run *x)
{
    tm_result_free(&x->r);
    tm_problem_free(&x->p);
    tm_ltl_free(&x->l);
    tm_system_free(&x->sys);
}

/* Whether the cause equals the formula's language; on no, *cex separates. */
static bool equals(run *x, const char *formula, tm_lasso *cex, bool *in_cause)
{
    u_err e = {{0}};
    int f = tm_ltl_parse(&x->l, formula, &x->sys.aps, false, "candidate", &e);
    ck_assert_msg(f >= 0, "%s", e.msg);
    int nf = tm_ltl_mk(&x->l, TM_L_NOT, f, -1, -1);
    tm_nba c, nc;
    ck_assert(tm_ltl_to_nba(&x->l, f, x->sys.inputs, 100000, &c, &e) == 0);
    ck_assert(tm_ltl_to_nba(&x->l, nf, x->sys.inputs, 100000, &nc, &e) == 0);
    bool eq;
    ck_assert_msg(tm_check(&x->r, &c, &nc, 100000, &eq, cex, in_cause, &e) == 0, "%s", e.msg);
    if (!eq) { /* the counterexample is in exactly one of the two */
        ck_assert(tt_accepts(&x->r.cause, cex) == *in_cause);
        ck_assert(tt_accepts(&c, cex) == !*in_cause);
    }
    tm_nba_free(&c), tm_nba_free(&nc);
    return eq;
}

/* The paper's cause for the instance, for both relations; the cause
 * automaton has at most max_states states. */
static void paper(const char *system, const char *trace, const char *effect, const char *cause,
                  uint32_t max_states)
{
    for (int rel = 0; rel < 2; rel++) {
        run x;
        u_err e = {{0}};
        start(&x, system, trace, effect, rel ? TM_FULL : TM_SUBSET, 1000000);
        ck_assert(tm_trace_check(&x.p, &x.st, &e) == 0);
        ck_assert_int_eq(x.st, TM_TRACE_HOLDS);
        ck_assert_msg(tm_cause(&x.p, &x.r, &e) == 0, "%s", e.msg);
        ck_assert(x.r.exists);
        tm_lasso cex;
        bool in_cause;
        bool eq = equals(&x, cause, &cex, &in_cause);
        if (!eq) {
            char *t = tm_lasso_text(&cex, x.sys.inputs, &x.sys.aps);
            ck_abort_msg("%s %s [%s]: cause is not %s: %s is only in the %s", system, effect,
                         rel ? "full" : "subset", cause, t, in_cause ? "cause" : "candidate");
        }
        ck_assert_msg(x.r.cause.n <= max_states, "%s %s: %u states", system, effect, x.r.cause.n);
        finish(&x);
    }
}

#define ALLR4 "r0&r1&r2&r3"
#define FULL4                                                                                      \
    "cycle{" ALLR4 "&g0&!g1&!g2&!g3;" ALLR4 "&!g0&g1&!g2&!g3;" ALLR4 "&!g0&!g1&g2&!g3;" ALLR4      \
    "&!g0&!g1&!g2&g3}"

START_TEST(fig1)
{
    paper("fig1.hoa", "cycle{x&!y&e}", "F e", "F x", 2);
    paper("fig1.hoa", "cycle{x&!y&e}", "G F e", "G F x", 3);
}
END_TEST

START_TEST(fig4)
{
    paper("fig4.hoa", "!i0&i2&!o4;!i0&!i2&!o4;i0&!i2&o4;cycle{!i0&i2&o4}",
          "!((i2 U i0) <-> G F o4)", "!i0 & X(!i0 & !i2 & X i0)", 4);
}
END_TEST

START_TEST(spurious_arbiters)
{
    paper("arbiter-spurious-1.hoa", "cycle{r0&g0}", "F g0", "true", 1);
    paper("arbiter-spurious-2.hoa", "cycle{r0&r1&g0&!g1;r0&r1&!g0&g1}", "F g0", "true", 1);
    paper("arbiter-spurious-4.hoa", FULL4, "F g0", "true", 1);
}
END_TEST

START_TEST(unfair_arbiters)
{
    paper("arbiter-unfair-2.hoa", "cycle{r0&r1&!g0&g1}", "G !g0", "G r1", 1);
    paper("arbiter-unfair-3.hoa", "cycle{r0&r1&r2&!g0&!g1&g2}", "G !g0", "G r2", 1);
    paper("arbiter-unfair-4.hoa", "cycle{r0&r1&r2&r3&!g0&!g1&!g2&g3}", "G !g0", "G r3", 1);
}
END_TEST

START_TEST(full_arbiters)
{
    paper("arbiter-full-1.hoa", "cycle{r0&g0}", "F g0", "F r0", 2);
    paper("arbiter-full-2.hoa", "cycle{r0&r1&g0&!g1;r0&r1&!g0&g1}", "G F g0", "G F r0", 3);
    paper("arbiter-full-4.hoa", FULL4, "F g0", "F r0", 2);
    paper("arbiter-full-4.hoa", FULL4, "G F g0", "G F r0", 3);
}
END_TEST

START_TEST(description_search)
{
    struct {
        const char *sys, *trace, *effect, *want;
    } c[] = {
        {"fig1.hoa", "cycle{x&!y&e}", "F e", "F x"},
        {"fig1.hoa", "cycle{x&!y&e}", "G F e", "G F x"},
        {"arbiter-unfair-3.hoa", "cycle{r0&r1&r2&!g0&!g1&g2}", "G !g0", "G r2"},
        {"fig4.hoa", "!i0&i2&!o4;!i0&!i2&!o4;i0&!i2&o4;cycle{!i0&i2&o4}", "!((i2 U i0) <-> G F o4)",
         "!i0 & X (!i0 & !i2 & X i0)"},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        run x;
        u_err e = {{0}};
        start(&x, c[i].sys, c[i].trace, c[i].effect, TM_SUBSET, 1000000);
        ck_assert(tm_cause(&x.p, &x.r, &e) == 0);
        int f = tm_describe(&x.r, &x.sys, &x.p.pi, &x.l, 7, 200, 100000, &e);
        ck_assert_msg(f >= 0, "%s: no description (%s)", c[i].effect, e.msg);
        char *t = tm_ltl_text(&x.l, f, &x.sys.aps);
        ck_assert_str_eq(t, c[i].want);
        free(t);
        finish(&x);
    }
}
END_TEST

START_TEST(check_says_no_with_a_separating_word)
{
    /* Section 1.1: y | F x is too general, G x too specific */
    run x;
    u_err e = {{0}};
    start(&x, "fig1.hoa", "cycle{x&!y&e}", "F e", TM_SUBSET, 1000000);
    ck_assert(tm_cause(&x.p, &x.r, &e) == 0);
    tm_lasso cex;
    bool in_cause;
    ck_assert(!equals(&x, "y | F x", &cex, &in_cause));
    ck_assert(!in_cause); /* a word with y, no x: candidate only */
    tm_lasso_free(&cex);
    ck_assert(!equals(&x, "G x", &cex, &in_cause));
    ck_assert(in_cause);
    tm_lasso_free(&cex);
    ck_assert(equals(&x, "F x", &cex, &in_cause));
    finish(&x);
}
END_TEST

START_TEST(trace_checks)
{
    run x;
    u_err e = {{0}};
    /* e without x is no run of Fig. 1's system */
    start(&x, "fig1.hoa", "cycle{x&!y&!e}", "F e", TM_SUBSET, 1000000);
    ck_assert_int_eq(tm_trace_check(&x.p, &x.st, &e), -1);
    ck_assert_int_eq(x.st, TM_TRACE_NO_RUN);
    ck_assert_msg(strstr(e.msg, "not a run of the system") && strstr(e.msg, "first 1 letters"),
                  "%s", e.msg);
    finish(&x);
    memset(&e, 0, sizeof e);
    start(&x, "fig1.hoa", "cycle{x&!y&e}", "G !e", TM_SUBSET, 1000000);
    ck_assert(tm_trace_check(&x.p, &x.st, &e) == 0);
    ck_assert_int_eq(x.st, TM_TRACE_VIOLATED);
    finish(&x);
    /* the output left open: runs with and without e match */
    start(&x, "fig1.hoa", "cycle{!x&!y}", "F e", TM_SUBSET, 1000000);
    ck_assert(tm_trace_check(&x.p, &x.st, &e) == 0);
    ck_assert_int_eq(x.st, TM_TRACE_VIOLATED); /* !x, !y: D forever, never e */
    finish(&x);
    start(&x, "fig1.hoa", "x&!y;cycle{!x&!y}", "F e", TM_SUBSET, 1000000);
    ck_assert(tm_trace_check(&x.p, &x.st, &e) == 0);
    ck_assert_int_eq(x.st, TM_TRACE_HOLDS);
    finish(&x);
}
END_TEST

/* A system whose output is open on its only edge: the trace that does not
 * mention the output matches a run with o and one without. */
START_TEST(ambiguous_trace_has_no_cause)
{
    const char *text = "HOA: v1\nStates: 1\nStart: 0\nAP: 2 \"i\" \"o\"\ncontrollable-AP: 1\n"
                       "Acceptance: 0 t\n--BODY--\nState: 0\n[t] 0\n--END--\n";
    tm_hoa h;
    u_err e = {{0}};
    ck_assert(tm_hoa_parse(text, strlen(text), "open.hoa", &h, &e) == 0);
    run x;
    memset(&x, 0, sizeof x);
    tm_ltl_init(&x.l);
    ck_assert(tm_system_from_hoa(&h, "open.hoa", &x.sys, &e) == 0);
    tm_hoa_free(&h);
    int f = tm_ltl_parse(&x.l, "F o", &x.sys.aps, false, "effect", &e);
    int nf = tm_ltl_mk(&x.l, TM_L_NOT, f, -1, -1);
    tm_nba E, NE;
    ck_assert(tm_ltl_to_nba(&x.l, f, 3, 1000, &E, &e) == 0);
    ck_assert(tm_ltl_to_nba(&x.l, nf, 3, 1000, &NE, &e) == 0);
    ck_assert(tm_problem_init(&x.p, &x.sys, "cycle{i}", &E, &NE, TM_SUBSET, 1000, &e) == 0);
    ck_assert(tm_trace_check(&x.p, &x.st, &e) == 0);
    ck_assert_int_eq(x.st, TM_TRACE_AMBIGUOUS);
    ck_assert(tm_cause(&x.p, &x.r, &e) == 0);
    ck_assert(!x.r.exists); /* Lemma 3: the trace is not deterministic */
    ck_assert_uint_eq(x.r.cause.n, 0);
    finish(&x);
}
END_TEST

START_TEST(budget_is_an_error)
{
    run x;
    u_err e = {{0}};
    start(&x, "arbiter-full-4.hoa", FULL4, "G F g0", TM_FULL, 50);
    ck_assert_int_eq(tm_cause(&x.p, &x.r, &e), -1);
    ck_assert_msg(strstr(e.msg, "exceeds 50 states"), "%s", e.msg);
    finish(&x);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("temporal causes");
    TCase *tc = tcase_create("causes");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, fig1);
    tcase_add_test(tc, fig4);
    tcase_add_test(tc, spurious_arbiters);
    tcase_add_test(tc, unfair_arbiters);
    tcase_add_test(tc, full_arbiters);
    tcase_add_test(tc, description_search);
    tcase_add_test(tc, check_says_no_with_a_separating_word);
    tcase_add_test(tc, trace_checks);
    tcase_add_test(tc, ambiguous_trace_has_no_cause);
    tcase_add_test(tc, budget_is_an_error);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
