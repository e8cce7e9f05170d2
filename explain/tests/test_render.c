/* Output formats: the JSON schema exactly, the plain table marker when not
 * on a terminal, and the HTML page's embedded data (escaped so that no
 * formula can close the script element). */
#include "ex_test_util.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

static char *render(int kind, const ex_trace *t, const ex_explanation *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    if (kind == 0)
        ex_render_json(o, t, e);
    else if (kind == 1)
        ex_render_table(o, t, e, 0, 0);
    else
        ex_render_html(o, &t, (const ex_explanation *const *)&e, 1, 0);
    fclose(o);
    return buf;
}

static void explain(ex_trace *t, ex_explanation *e, const char *f, int exact)
{
    ex_options o;
    ex_options_default(&o);
    o.exact = exact;
    char err[256];
    ck_assert_int_eq(ex_explain(t, f, EX_DIALECT_SPIN, &o, e, err, sizeof err), 0);
}

START_TEST(json_schema)
{
    static const char *const s[] = {"a", ""};
    ex_trace t;
    ex_test_trace(&t, "a b c", s, 2, 1);
    ex_explanation e;
    explain(&t, &e, "a U (b U c)", 0);
    char *j = render(0, &t, &e);
    ck_assert_str_eq(j, "{\"formula\": \"a U (b U c)\", \"status\": \"fails\", \"holds\": false, "
                        "\"first_failure\": 1, \"loop_start\": 1, "
                        "\"dots\": [{\"step\": 0, \"variable\": \"c\", \"exact\": null}, "
                        "{\"step\": 1, \"variable\": \"a\", \"exact\": null}, "
                        "{\"step\": 1, \"variable\": \"b\", \"exact\": null}, "
                        "{\"step\": 1, \"variable\": \"c\", \"exact\": null}]}\n");
    free(j);
    ex_explanation_free(&e);
    explain(&t, &e, "a U (b U c)", 1);
    j = render(0, &t, &e);
    ck_assert_ptr_null(strstr(j, "{\"step\": 0, \"variable\": \"b\""));
    ck_assert_ptr_nonnull(strstr(j, "{\"step\": 0, \"variable\": \"c\", \"exact\": true}"));
    free(j);
    ex_explanation_free(&e);
    ex_trace_free(&t);
}
END_TEST

START_TEST(json_infinite_failure)
{
    static const char *const s[] = {""};
    ex_trace t;
    ex_test_trace(&t, "p", s, 1, 0);
    ex_explanation e;
    explain(&t, &e, "<> p", 0);
    char *j = render(0, &t, &e);
    ck_assert_str_eq(j,
                     "{\"formula\": \"<> p\", \"status\": \"fails-infinitely\", \"holds\": false, "
                     "\"first_failure\": null, \"loop_start\": 0, "
                     "\"dots\": [{\"step\": 0, \"variable\": \"p\", \"exact\": null}]}\n");
    free(j);
    ex_explanation_free(&e);
    ex_trace_free(&t);
}
END_TEST

START_TEST(table_plain_marker)
{
    static const char *const s[] = {"p", "", "p"};
    ex_trace t;
    ex_test_trace(&t, "p q", s, 3, -1);
    ex_explanation e;
    explain(&t, &e, "[] p", 0);
    char *tb = render(1, &t, &e);
    ck_assert_ptr_nonnull(strstr(tb, "first failure: step 1\n"));
    ck_assert_ptr_nonnull(strstr(tb, "   1 | 0 *  <- first failure\n"));
    ck_assert_ptr_null(strstr(tb, "\033[")); /* no colour when not asked */
    ck_assert_ptr_null(strstr(tb, "| q"));   /* only the formula's variables */
    free(tb);
    ex_explanation_free(&e);
    ex_trace_free(&t);
}
END_TEST

START_TEST(html_embeds_escaped_data)
{
    static const char *const s[] = {"p", ""};
    ex_trace t;
    ex_test_trace(&t, "p", s, 2, -1);
    ex_explanation e;
    explain(&t, &e, "[] (p < 2 || p > 3) && [] p", 0);
    free(e.formula);
    e.formula = strdup("</script><b>");
    char *h = render(2, &t, &e);
    ck_assert_ptr_nonnull(strstr(h, "<script type=\"application/json\" id=\"ex-data\">"));
    ck_assert_ptr_nonnull(strstr(h, "\\u003c/script\\u003e"));
    ck_assert_ptr_null(strstr(h, "</script><b>"));
    ck_assert_ptr_nonnull(strstr(h, "\"dots\": [{\"step\": 1, \"signal\": 0, \"exact\": null}]"));
    ck_assert_ptr_nonnull(strstr(h, "\"values\": [1, 0]"));
    free(h);
    ex_explanation_free(&e);
    ex_trace_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("render");
    TCase *tc = tcase_create("render");
    tcase_add_test(tc, json_schema);
    tcase_add_test(tc, json_infinite_failure);
    tcase_add_test(tc, table_plain_marker);
    tcase_add_test(tc, html_embeds_escaped_data);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
