/* Parser and normal forms: SPIN's and NuSMV's precedence, Promela and SMV
 * propositions, error messages with columns, and the two normal forms the
 * algorithms rely on. */
#include "ex_ltl.h"

#include <check.h>
#include <stdlib.h>

static char *parse_text(const char *src, int dialect)
{
    ex_ltl l;
    ex_ltl_init(&l);
    char err[256];
    int f = ex_ltl_parse(&l, src, dialect, err, sizeof err);
    ck_assert_msg(f >= 0, "parse of '%s' failed: %s", src, err);
    char *t = ex_ltl_text(&l, f);
    ex_ltl_free(&l);
    return t;
}

static void expect(const char *src, int dialect, const char *want)
{
    char *t = parse_text(src, dialect);
    ck_assert_msg(strcmp(t, want) == 0, "'%s' parsed as %s, want %s", src, t, want);
    free(t);
}

static void expect_error(const char *src, int dialect, const char *want)
{
    ex_ltl l;
    ex_ltl_init(&l);
    char err[256] = "";
    int f = ex_ltl_parse(&l, src, dialect, err, sizeof err);
    ck_assert_msg(f < 0, "'%s' should not parse", src);
    ck_assert_msg(strstr(err, want), "error for '%s' was '%s', want '%s'", src, err, want);
    ex_ltl_free(&l);
}

/* Precedences as SPIN 6.5.2 prints them for the same input. */
START_TEST(spin_precedence)
{
    expect("a || b && c", EX_DIALECT_SPIN, "((a != 0) || ((b != 0) && (c != 0)))");
    expect("a U b && c", EX_DIALECT_SPIN, "(((a != 0) U (b != 0)) && (c != 0))");
    expect("a U b U c", EX_DIALECT_SPIN, "(((a != 0) U (b != 0)) U (c != 0))");
    expect("a -> b -> c", EX_DIALECT_SPIN, "(((a != 0) -> (b != 0)) -> (c != 0))");
    expect("[] a U b", EX_DIALECT_SPIN, "([] (a != 0) U (b != 0))");
    expect("!a U b", EX_DIALECT_SPIN, "(!(a != 0) U (b != 0))");
    expect("a -> b <-> c", EX_DIALECT_SPIN, "(((a != 0) -> (b != 0)) <-> (c != 0))");
    expect("always eventually p implies next q", EX_DIALECT_SPIN, "([] <> (p != 0) -> X (q != 0))");
}
END_TEST

START_TEST(promela_propositions)
{
    expect("[] ((x<4))", EX_DIALECT_SPIN, "[] (x < 4)");
    expect("(x + 1) * 2 <= arr[1 + 1]", EX_DIALECT_SPIN, "(((x + 1) * 2) <= arr[2])");
    expect("P[0]:y != 3 && len(c) > 0", EX_DIALECT_SPIN, "((P[0]:y != 3) && (len(c) > 0))");
    expect("s.f % 3 == -1", EX_DIALECT_SPIN, "((s.f % 3) == -1)");
    expect("((x < 2)) V ((P:y!=3))", EX_DIALECT_SPIN, "((x < 2) V (P:y != 3))");
    expect("(x & 1) == 0 || true", EX_DIALECT_SPIN, "(((x & 1) == 0) || true)");
}
END_TEST

START_TEST(smv_syntax)
{
    expect("G (p -> F q)", EX_DIALECT_SMV, "[] ((p != 0) -> <> (q != 0))");
    expect("a -> b -> c", EX_DIALECT_SMV, "((a != 0) -> ((b != 0) -> (c != 0)))");
    expect("x = 3 & s.y != idle | TRUE", EX_DIALECT_SMV, "(((x == 3) && (s.y != idle)) || true)");
    expect("p xor q", EX_DIALECT_SMV, "!((p != 0) <-> (q != 0))");
    expect("x mod 4 = 0ud8_3", EX_DIALECT_SMV, "((x % 4) == 3)");
    expect("X p V q", EX_DIALECT_SMV, "(X (p != 0) V (q != 0))");
}
END_TEST

START_TEST(errors_name_the_column)
{
    expect_error("[] (x < )", EX_DIALECT_SPIN, "column 9");
    expect_error("p U", EX_DIALECT_SPIN, "end of formula");
    expect_error("(p && q", EX_DIALECT_SPIN, "expected ')'");
    expect_error("arr[i] > 0", EX_DIALECT_SPIN, "must be constants");
    expect("P[0]@crit && P @ q", EX_DIALECT_SPIN, "((P[0]@crit != 0) && (P@q != 0))");
    expect_error("P[0]@ && q", EX_DIALECT_SPIN, "column 7: expected a label name after '@'");
    expect_error("p @ q", EX_DIALECT_SMV, "column 3: unexpected character '@'");
    expect_error("H p", EX_DIALECT_SMV, "past-time operator");
    /* a number beyond int64_t is refused, not wrapped (to 0 here, to -1 for 2^64 - 1) */
    expect_error("x == 18446744073709551616", EX_DIALECT_SPIN,
                 "column 6: malformed number, or one beyond 2^63 - 1");
    expect_error("x == 9223372036854775808", EX_DIALECT_SPIN, "beyond 2^63 - 1");
    expect("x == 9223372036854775807", EX_DIALECT_SPIN, "(x == 9223372036854775807)");
    expect_error("G n != 0ud64_18446744073709551617", EX_DIALECT_SMV, "beyond 2^63 - 1");
    expect_error("G n != 0uh64_1ffffffffffffffff", EX_DIALECT_SMV, "beyond 2^63 - 1");
    expect_error("G n != 0sd64_-9223372036854775809", EX_DIALECT_SMV, "beyond 2^63 - 1");
}
END_TEST

START_TEST(propositions_are_interned)
{
    ex_ltl l;
    ex_ltl_init(&l);
    char err[64];
    int f =
        ex_ltl_parse(&l, "[] (x<4) && <> (x < 4) && b && (b)", EX_DIALECT_SPIN, err, sizeof err);
    ck_assert_int_ge(f, 0);
    ck_assert_int_eq(l.nprops, 2);
    ex_ltl_free(&l);
}
END_TEST

START_TEST(normal_forms)
{
    ex_ltl l;
    ex_ltl_init(&l);
    char err[64];
    int f = ex_ltl_parse(&l, "!(a W b) || (c V d) || <> e", EX_DIALECT_SPIN, err, sizeof err);
    ck_assert_int_ge(f, 0);
    char *t = ex_ltl_text(&l, ex_ltl_nnf(&l, f, EX_NNF_TABLEAU, NULL));
    ck_assert_str_eq(t, "(((!(b != 0) U (!(a != 0) && !(b != 0))) || ((c != 0) V (d != 0))) || "
                        "(true U (e != 0)))");
    free(t);
    t = ex_ltl_text(&l, ex_ltl_nnf(&l, f, EX_NNF_ALG6, NULL));
    ck_assert_str_eq(t, "(((!(b != 0) U (!(a != 0) && !(b != 0))) || (((d != 0) U ((c != 0) && "
                        "(d != 0))) || [] (d != 0))) || (true U (e != 0)))");
    free(t);
    /* a proposition found constant folds away */
    signed char consts[EX_MAX_PROPS] = {1, -1, -1, -1, -1};
    t = ex_ltl_text(&l, ex_ltl_nnf(&l, f, EX_NNF_TABLEAU, consts));
    ck_assert_str_eq(t, "(((c != 0) V (d != 0)) || (true U (e != 0)))"); /* !b U false */
    free(t);
    uint64_t pos, neg;
    ck_assert_int_eq(ex_ltl_polarity(&l, f, NULL, &pos, &neg), 0);
    ck_assert_uint_eq(pos, 0x1c);                                    /* c d e */
    ck_assert_uint_eq(neg, 0x03);                                    /* a b */
    ck_assert_int_eq(ex_ltl_polarity(&l, f, consts, &pos, &neg), 0); /* a is constant */
    ck_assert_uint_eq(neg, 0x02);
    /* Definition 1 on the formula as written: <-> gives both polarities, also
     * against a constant, and -> negates its antecedent */
    int g = ex_ltl_parse(&l, "(a <-> true) && (!b -> c)", EX_DIALECT_SPIN, err, sizeof err);
    ck_assert_int_ge(g, 0);
    ck_assert_int_eq(ex_ltl_polarity(&l, g, NULL, &pos, &neg), 0);
    ck_assert_uint_eq(pos & 0x7, 0x7); /* a, b (under two negations), c */
    ck_assert_uint_eq(neg & 0x7, 0x1); /* a only */
    ck_assert_uint_eq(ex_ltl_size(&l, f), 11);
    ex_ltl_free(&l);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ltl");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, spin_precedence);
    tcase_add_test(tc, promela_propositions);
    tcase_add_test(tc, smv_syntax);
    tcase_add_test(tc, errors_name_the_column);
    tcase_add_test(tc, propositions_are_interned);
    tcase_add_test(tc, normal_forms);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
