/* Readers: SPIN replay output (captured from spin 6.5.2 into fixtures) and
 * NuSMV counterexamples, including their error messages with line numbers,
 * and explanations computed on what they read. */
#include "explain.h"

#include <check.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

static char fixdir[4096];

static FILE *fixture(const char *name)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/fixtures/%s", fixdir, name);
    FILE *f = fopen(p, "r");
    ck_assert_msg(f != NULL, "cannot open %s", p);
    return f;
}

static int64_t value(const ex_trace *t, const char *var, size_t step)
{
    int v = ex_trace_find(t, var);
    ck_assert_msg(v >= 0, "no variable %s", var);
    return t->vars[v].v[step];
}

START_TEST(spin_processes_channels_structs)
{
    FILE *i = fixture("procs.initial.txt"), *r = fixture("procs.replay.txt");
    ex_trace t;
    ex_trace_init(&t);
    ex_spin_info info;
    ex_spin_parse(i, r, NULL, 0, &t, &info);
    fclose(i);
    fclose(r);
    ck_assert_uint_eq(t.nsteps, 8); /* initial state + 7 process steps */
    ck_assert_int_eq(t.loop_start, -1);
    ck_assert_int_eq(value(&t, "s.f", 0), 0);
    ck_assert_int_eq(value(&t, "s.f", 7), 7);
    ck_assert_int_eq(value(&t, "Wk[2]:got", 7), 5);
    ck_assert_int_eq(value(&t, "Wk[1]:got", 7), 0);
    ck_assert_int_eq(value(&t, "len(Wk[1]:lc)", 7), 1);
    ck_assert_uint_gt(t.vars[ex_trace_find(&t, "Wk[1]:got")].defined_from, 0);
    ck_assert_uint_eq(info.nltl, 1);
    ck_assert_str_eq(info.ltl_names[0], "q");
    ck_assert_str_eq(info.ltl_texts[0], "[] ((s.f<6))");
    ck_assert_str_eq(info.claim, "q");
    ck_assert_int_eq(info.replayed, 14);
    ck_assert_ptr_null(info.error);

    ex_options o;
    ex_options_default(&o);
    ex_explanation e;
    char err[256];
    ck_assert_int_eq(ex_explain(&t, info.ltl_texts[0], EX_DIALECT_SPIN, &o, &e, err, sizeof err),
                     0);
    ck_assert_int_eq(e.first_failure, 7);
    ck_assert_uint_eq(e.ndots, 1);
    ck_assert_str_eq(t.vars[e.dots[0].var].name, "s.f");
    ex_explanation_free(&e);
    /* remote references: P:y names the only instance, ambiguity is an error */
    ck_assert_int_eq(ex_explain(&t, "[] (Wk:got < 5)", EX_DIALECT_SPIN, &o, &e, err, sizeof err),
                     -1);
    ck_assert_ptr_nonnull(strstr(err, "ambiguous"));
    ck_assert_int_eq(ex_explain(&t, "[] (nosuch < 5)", EX_DIALECT_SPIN, &o, &e, err, sizeof err),
                     -1);
    ck_assert_ptr_nonnull(strstr(err, "unknown variable 'nosuch'"));
    ck_assert_int_eq(
        ex_explain(&t, "[] (Wk[2]:got + Wk[2]:id < 7)", EX_DIALECT_SPIN, &o, &e, err, sizeof err),
        0);
    ck_assert_int_eq(e.first_failure, 6); /* rv?got */
    ck_assert_uint_eq(e.ndots, 2);
    ex_explanation_free(&e);
    ex_spin_info_free(&info);
    ex_trace_free(&t);
}
END_TEST

START_TEST(spin_acceptance_cycle_is_a_lasso)
{
    FILE *i = fixture("live.initial.txt"), *r = fixture("live.replay.txt");
    ex_trace t;
    ex_trace_init(&t);
    ex_spin_info info;
    ex_spin_parse(i, r, NULL, 0, &t, &info);
    fclose(i);
    fclose(r);
    ck_assert_uint_eq(t.nsteps, 12);
    ck_assert_int_eq(t.loop_start, 3);
    ck_assert_uint_eq(ex_trace_lasso_len(&t), 11);
    ck_assert_int_eq(value(&t, "n", 0), 3);
    ex_options o;
    ex_options_default(&o);
    ex_explanation e;
    char err[256];
    ck_assert_int_eq(ex_explain(&t, info.ltl_texts[0], EX_DIALECT_SPIN, &o, &e, err, sizeof err),
                     0);
    ck_assert_int_eq(e.result, EX_RESULT_INF);
    ck_assert_int_eq(e.loop_start, 3);
    /* the first unanswered request is at step 2; ack is missing from there
     * on; every request (switched off) and every missing ack in the loop
     * (switched on) would have let the formula hold */
    ck_assert_uint_eq(e.dots[0].step, 2);
    ck_assert_uint_eq(e.ndots, 14);
    ex_explanation_free(&e);
    ex_spin_info_free(&info);
    ex_trace_free(&t);
}
END_TEST

START_TEST(spin_mtypes)
{
    ex_trace t;
    ex_trace_init(&t);
    ex_spin_mtypes("mtype = { on, off };\nmtype:other = {up,down}\nint mtypex;", &t);
    ck_assert_int_ge(ex_trace_find_sym(&t, "off"), 0);
    ck_assert_int_ge(ex_trace_find_sym(&t, "down"), 0);
    ck_assert_int_eq(ex_trace_find_sym(&t, "mtypex"), -1);
    ex_trace_free(&t);
}
END_TEST

START_TEST(nusmv_specs_loops_inputs)
{
    FILE *f = fixture("nusmv_live.txt");
    ex_smv_cex *c;
    size_t n;
    char err[256];
    ck_assert_int_eq(ex_nusmv_load(f, "nusmv_live.txt", &c, &n, err, sizeof err), 0);
    fclose(f);
    ck_assert_uint_eq(n, 4); /* the true one is kept for its JSON record */
    ck_assert_str_eq(c[0].formula, "G (req -> F ack)");
    ck_assert_int_eq(c[0].holds, 0);
    ck_assert_int_eq(c[0].line, 4);
    ck_assert_uint_eq(c[0].trace.nsteps, 5);
    ck_assert_int_eq(c[0].trace.loop_start, 2);
    ck_assert_uint_eq(ex_trace_lasso_len(&c[0].trace), 4);
    ck_assert_ptr_null(c[0].skip);
    ck_assert_int_eq(c[1].holds, 1); /* G n < 3 is true */
    ck_assert_uint_eq(c[1].trace.nsteps, 0);
    ck_assert_ptr_nonnull(c[2].skip); /* CTL */
    ck_assert_str_eq(c[3].formula, "G ((st = idle -> n = 0))");
    ck_assert_int_eq(value(&c[3].trace, "n", 1), 1);
    ck_assert_int_eq(ex_trace_find(&c[3].trace, "go"), -1); /* inputs are skipped */

    ex_options o;
    ex_options_default(&o);
    ex_explanation e;
    ck_assert_int_eq(ex_explain(&c[0].trace, c[0].formula, EX_DIALECT_SMV, &o, &e, err, sizeof err),
                     0);
    ck_assert_int_eq(e.result, EX_RESULT_INF);
    ck_assert_uint_eq(e.ndots, 4); /* req at 1, ack at 1, 2, 3 */
    ex_explanation_free(&e);
    ck_assert_int_eq(ex_explain(&c[3].trace, c[3].formula, EX_DIALECT_SMV, &o, &e, err, sizeof err),
                     0);
    ck_assert_int_eq(e.first_failure, 2);
    ck_assert_uint_eq(e.ndots, 2); /* st and n at step 2 */
    ex_explanation_free(&e);
    ex_nusmv_free(c, n);
}
END_TEST

static void expect_smv_error(const char *name, const char *want)
{
    FILE *f = fixture(name);
    ex_smv_cex *c;
    size_t n;
    char err[256];
    ck_assert_int_eq(ex_nusmv_load(f, name, &c, &n, err, sizeof err), -1);
    fclose(f);
    ck_assert_msg(strstr(err, want), "error '%s' lacks '%s'", err, want);
}

START_TEST(nusmv_errors_name_the_line)
{
    expect_smv_error("nusmv_bad_order.txt", "nusmv_bad_order.txt:5: state 1.3 out of order");
    expect_smv_error("nusmv_bad_line.txt", "nusmv_bad_line.txt:4: expected 'name = value'");
    expect_smv_error("procs.replay.txt", "procs.replay.txt:1: no '-- specification' lines");
}
END_TEST

int main(void)
{
    char src[] = __FILE__;
    snprintf(fixdir, sizeof fixdir, "%s", dirname(src));
    Suite *s = suite_create("readers");
    TCase *tc = tcase_create("readers");
    tcase_add_test(tc, spin_processes_channels_structs);
    tcase_add_test(tc, spin_acceptance_cycle_is_a_lasso);
    tcase_add_test(tc, spin_mtypes);
    tcase_add_test(tc, nusmv_specs_loops_inputs);
    tcase_add_test(tc, nusmv_errors_name_the_line);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
