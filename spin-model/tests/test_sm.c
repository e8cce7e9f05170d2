/*
 * test_sm.c - unit tests of spin-model's readers of `spin -d` output: the event
 * labels (sm_labels_parse) and the global channels the partial order reduction
 * matches names against (sm_chans_parse).  The lines are SPIN 6.5.2's, copied from
 * `spin -d` on BEEM's brp.1 and on a model with a buffered and a local channel.
 */
#include "spinmodel.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const char *const GLOBAL_ONLY =
    "byte  \tprod_n\t0\t<:global:>\t<variable>\t{scope _}\n"
    "chan  \tSin\t0\t<:global:>\t<variable>\t1\tint   \t{scope _}\n"
    "chan  \tshakePC\t0\t<:global:>\t<variable>\t1\tint   \t{scope _}\n"
    "chan  \tq\t3\t<:global:>\t<variable>\t2\tbyte  \tbit   \t{scope _}\n"
    "proctype\tProducer\t1\t<:global:>\t<variable>\t{scope _}\n"
    "byte  \tresult\t0\t<Producer>\t<variable>\t{scope _11_}\n"
    "label\tready\t3\t<L>\t{scope _16_}\n"
    "label\tend_x\t5\t<L>\t{scope _16_}\n";

static const char *const WITH_LOCAL = "chan  \tq\t0\t<:global:>\t<variable>\t2\tbyte  \t{scope _}\n"
                                      "proctype\tP\t1\t<:global:>\t<variable>\t{scope _}\n"
                                      "chan  \tc\t0\t<P>\t<variable>\t0\tbyte  \t{scope _1_}\n"
                                      "channel\tnot_a_chan\t0\t<:global:>\t<variable>\t{scope _}\n";

START_TEST(global_channels)
{
    char **c = NULL;
    unsigned char *zero = NULL;
    int all = -1, n = sm_chans_parse(GLOBAL_ONLY, &c, &zero, &all);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(c[0], "Sin");
    ck_assert_str_eq(c[1], "shakePC");
    ck_assert_str_eq(c[2], "q");
    ck_assert(zero[0] && zero[1] && !zero[2]); /* q holds 3 messages */
    ck_assert_int_eq(all, 1);
    sm_chans_free(c, zero, n);
}
END_TEST

START_TEST(a_local_channel_makes_names_unsure)
{
    char **c = NULL;
    unsigned char *zero = NULL;
    int all = -1, n = sm_chans_parse(WITH_LOCAL, &c, &zero, &all);
    ck_assert_int_eq(n, 1); /* q; "channel" is no chan line */
    ck_assert_str_eq(c[0], "q");
    ck_assert_int_eq(all, 0);
    sm_chans_free(c, zero, n);
    n = sm_chans_parse("", &c, &zero, &all);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(all, 1);
    sm_chans_free(c, zero, n);
}
END_TEST

START_TEST(labels_skip_reserved)
{
    sm_label *l = NULL;
    int n = sm_labels_parse(GLOBAL_ONLY, &l);
    ck_assert_int_eq(n, 1); /* end_x is SPIN's, not an event */
    ck_assert_str_eq(l[0].label, "ready");
    ck_assert_str_eq(l[0].proc, "L");
    ck_assert_int_eq(l[0].state, 3);
    sm_labels_free(l, n);
}
END_TEST

/* pan.h's hidden variables (globals no statement reads): a clash only with the name
 * of a variable of pan's search, whole names, arrays too, and only where pan.m's code
 * assigns it (pan.m unknown: NULL, any clash counts). */
START_TEST(hidden_variables_named_like_pan_locals)
{
    char name[64] = "";
    static const char T[] = "/* hidden variable: */\tuchar x;\n/* hidden variable: */\tshort t;\n";
    ck_assert(!sm_hidden_clash("/* hidden variable: */\tuchar x;\n", NULL, name, sizeof name));
    ck_assert(
        !sm_hidden_clash("/* hidden variable: */\tuchar tt2;\nint t;\n", NULL, name, sizeof name));
    ck_assert(sm_hidden_clash(T, NULL, name, sizeof name));
    ck_assert_str_eq(name, "t");
    ck_assert(sm_hidden_clash(T, "\t\tt = 1;\n", name, sizeof name));
    ck_assert(!sm_hidden_clash(T, "\t// STATE 1 - [t = 1]\n\t\tx = t;\n", name, sizeof name));
    ck_assert(sm_hidden_clash("/* hidden variable: */\tint tt[3];\n",
                              "\t\ttt[ Index(0, 3) ] = 1;\n", name, sizeof name));
    ck_assert_str_eq(name, "tt");
    ck_assert(!sm_hidden_clash("", NULL, name, sizeof name));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("spin-model");
    TCase *tc = tcase_create("spin -d");
    tcase_add_test(tc, global_channels);
    tcase_add_test(tc, a_local_channel_makes_names_unsure);
    tcase_add_test(tc, labels_skip_reserved);
    tcase_add_test(tc, hidden_variables_named_like_pan_locals);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
