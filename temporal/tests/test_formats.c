/*
 * test_formats.c - the HOA reader and writer and the word syntax: malformed
 * input is refused with FILE:LINE:COL (HOA) or the column (words); what the
 * writer writes reads back with the same language (every short lasso); the
 * reader's degeneralisation of generalised and transition-based acceptance
 * is checked against the acceptance condition evaluated by hand; systems must
 * be input-enabled Mealy machines.
 */
#include "tm_test_util.h"

#include <stdio.h>

static int parse(const char *text, tm_hoa *h, u_err *e)
{
    memset(e, 0, sizeof *e);
    return tm_hoa_parse(text, strlen(text), "t.hoa", h, e);
}

/* Expects a parse error whose message starts with t.hoa:LINE:COL. */
static void bad(const char *text, int line, int col, const char *words)
{
    tm_hoa h;
    u_err e;
    ck_assert_msg(parse(text, &h, &e) != 0, "accepted: %s", text);
    char where[64];
    snprintf(where, sizeof where, "t.hoa:%d:%d:", line, col);
    ck_assert_msg(!strncmp(e.msg, where, strlen(where)), "want %s, got %s", where, e.msg);
    ck_assert_msg(strstr(e.msg, words), "want '%s' in %s", words, e.msg);
}

#define HEAD "HOA: v1\nStates: 2\nStart: 0\nAP: 2 \"a\" \"b\"\nAcceptance: 1 Inf(0)\n--BODY--\n"

START_TEST(hoa_errors_have_line_and_column)
{
    bad("HOA: v2\n", 1, 6, "v1");
    bad("States: 2\n", 1, 1, "HOA: v1");
    bad(HEAD "State: 0\n[0 & ] 1\n--END--\n", 8, 6, "label");
    bad(HEAD "State: 0\n[0] 5\n--END--\n", 8, 5, "out of range");
    bad(HEAD "State: 0\n[7] 1\n--END--\n", 8, 2, "AP index 7");
    bad(HEAD "State: 0\n1\n--END--\n", 8, 1, "implicit labels");
    bad(HEAD "State: 0\n[0] 1 & 0\n--END--\n", 8, 7, "universal");
    bad(HEAD "State: 0\n[0] 1\n", 9, 1, "--END--");
    bad(HEAD "State: 0\n[(0 | 1] 1\n--END--\n", 8, 8, "missing )");
    bad("HOA: v1\nStates: 1\nAcceptance: 1 Fin(0)\n--BODY--\n--END--\n", 3, 15, "unsupported");
    bad("HOA: v1\nStates: 1\nAcceptance: 2 Inf(0) | Inf(1)\n--BODY--\n--END--\n", 3, 22,
        "disjunction");
    bad("HOA: v1\nStates: 1\nAP: 2 \"a\" \"a\"\nAcceptance: 0 t\n--BODY--\n--END--\n", 3, 11,
        "duplicate");
    bad("HOA: v1\nStates: 1\nFoo: 3\nAcceptance: 0 t\n--BODY--\n--END--\n", 3, 1,
        "unsupported header");
    bad("HOA: v1\n/* open comment\nStates: 1\n", 2, 1, "unterminated comment");
    bad("HOA: v1\nStates: 1\nAP: 1 \"a\nAcceptance: 0 t\n", 3, 7, "unterminated string");
    bad(HEAD "State: 0\n[@x] 1\n--END--\n", 8, 2, "unknown alias");
    bad(HEAD "State: 0\nState: 0\n--END--\n", 8, 8, "declared twice");
    /* a token error inside a label's & and | chains (found by fz_hoa: an
     * uninitialised operand was freed) */
    bad(HEAD "State: 0\n[0 & \"x] 1\n--END--\n", 8, 6, "unterminated string");
    bad(HEAD "State: 0\n[0 | \"x] 1\n--END--\n", 8, 6, "unterminated string");
    /* found by fz_hoa: a second AP: list was appended to the first, and a name
     * with a NUL byte was cut short into a duplicate ("" twice), so the writer's
     * output did not read back */
    bad("HOA: v1\nAP: 1 \"a\"\nAP: 1 \"b\"\n", 3, 1, "AP: given twice");
    /* found by fz_hoa: a token error right after an alias's name freed the
     * label it never read */
    bad("HOA: v1\nAlias: @a \"x\n", 2, 11, "unterminated string");
    /* the eighth probe's P8-7g: text after --END-- and an index given twice were
     * accepted without a word */
    bad(HEAD "State: 0\n[0] 1\nState: 1\n[0] 0\n--END--\ngarbage after\n", 12, 1,
        "nothing may follow --END--");
    bad("HOA: v1\nStates: 1\nAP: 2 \"a\" \"b\"\ncontrollable-AP: 1 1\n", 4, 20,
        "an index given twice");
    static const char nul[] = "HOA: v1\nAP: 2 \"\" \"\0x\"\n";
    tm_hoa h;
    u_err e = {{0}};
    ck_assert_int_ne(tm_hoa_parse(nul, sizeof nul - 1, "t.hoa", &h, &e), 0);
    ck_assert_msg(strstr(e.msg, "t.hoa:2:") && strstr(e.msg, "NUL byte"), "got %s", e.msg);
}
END_TEST

START_TEST(hoa_features)
{
    /* aliases, comments, state labels, several Start: lines, t/f labels */
    const char *text = "HOA: v1 /* a /* nested */ comment */\n"
                       "name: \"x\" tool: \"hand\" \"1\"\n"
                       "States: 3\nStart: 0\nStart: 2\nAP: 2 \"a\" \"b\"\n"
                       "Alias: @both 0 & 1\n"
                       "acc-name: Buchi\nAcceptance: 1 Inf(0)\n"
                       "properties: trans-labels explicit-labels state-acc\n"
                       "--BODY--\n"
                       "State: 0 \"zero\" {0}\n[@both] 0\n[!@both] 1\n"
                       "State: [!0] 1\n1\n"
                       "State: 2\n[f] 0\n[t] 2\n"
                       "--END--\n";
    tm_hoa h;
    u_err e;
    ck_assert_msg(parse(text, &h, &e) == 0, "%s", e.msg);
    ck_assert_str_eq(h.name, "x");
    ck_assert_uint_eq(h.a.n, 3);
    ck_assert_uint_eq(h.a.ninit, 2);
    ck_assert(h.a.s[0].acc && !h.a.s[1].acc);
    /* state 1's unlabelled edge takes the state label !a */
    ck_assert_uint_eq(h.a.s[1].n, 1);
    ck_assert(h.a.s[1].e[0].c.mask == 1 && h.a.s[1].e[0].c.val == 0);
    /* [f] is no edge; !@both is two cubes */
    ck_assert_uint_eq(h.a.s[2].n, 1);
    ck_assert_uint_eq(h.a.s[0].n, 3);
    tm_hoa_free(&h);
}
END_TEST

typedef struct {
    const tm_nba *a, *b;
} pair;

static void same_answer(const tm_lasso *w, void *arg)
{
    pair *p = arg;
    ck_assert(tt_accepts(p->a, w) == tt_accepts(p->b, w));
}

START_TEST(hoa_round_trip)
{
    tt_seed = 99;
    tm_aps aps = {0};
    u_err e = {{0}};
    tm_aps_add(&aps, "p", 1, &e);
    tm_aps_add(&aps, "q x", 3, &e); /* a name that needs quoting */
    for (int k = 0; k < 100; k++) {
        tm_nba a;
        tt_random_nba(&a, 1 + tt_below(5), 2, 2);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        ck_assert(tm_hoa_write(f, &a, &aps, "rt") == 0);
        fclose(f);
        tm_hoa h;
        ck_assert_msg(tm_hoa_parse(buf, len, "rt.hoa", &h, &e) == 0, "%s\n%s", e.msg, buf);
        ck_assert_str_eq(h.aps.name[1], "q x");
        pair p = {&a, &h.a};
        tt_each_lasso(3, 4, same_answer, &p);
        free(buf);
        tm_hoa_free(&h);
        tm_nba_free(&a);
    }
    tm_aps_free(&aps);
}
END_TEST

/* Generalised Buchi with marks on states and edges: a run is accepting iff it
 * sees both sets infinitely often.  One AP a; state 0 has set 0; the edge
 * 1 -> 0 on !a has set 1. */
START_TEST(hoa_generalised_acceptance)
{
    const char *ok = "HOA: v1\nStates: 2\nStart: 0\nAP: 1 \"a\"\n"
                     "Acceptance: 2 Inf(0) & Inf(1)\n--BODY--\n"
                     "State: 0 {0}\n[0] 1\n[!0] 0\n"
                     "State: 1\n[!0] 0 {1}\n[0] 1\n--END--\n";
    tm_hoa h;
    u_err e;
    ck_assert_msg(parse(ok, &h, &e) == 0, "%s", e.msg);
    /* by hand: accepted iff the run takes 1 -> 0 infinitely often (then it
     * also visits 0 infinitely often), i.e. a then !a infinitely often */
    uint64_t a1 = 1, a0 = 0;
    uint64_t cyc1[2] = {a1, a0}, cyc2[1] = {a1}, cyc3[1] = {a0};
    tm_lasso w1 = {NULL, cyc1, 0, 2}, w2 = {NULL, cyc2, 0, 1}, w3 = {NULL, cyc3, 0, 1};
    ck_assert(tt_accepts(&h.a, &w1));
    ck_assert(!tt_accepts(&h.a, &w2));
    ck_assert(!tt_accepts(&h.a, &w3)); /* set 0 only */
    tm_hoa_free(&h);
}
END_TEST

START_TEST(words)
{
    tm_aps aps = {0};
    u_err e = {{0}};
    tm_aps_add(&aps, "a", 1, &e);
    tm_aps_add(&aps, "b", 1, &e);
    tm_word w;
    ck_assert(tm_word_parse("a&b;!a;cycle{a&!b;b}", &aps, "the trace", &w, &e) == 0);
    ck_assert_uint_eq(w.npre, 2);
    ck_assert_uint_eq(w.ncyc, 2);
    ck_assert(w.pre[0].mask == 3 && w.pre[0].val == 3);
    ck_assert(w.pre[1].mask == 1 && w.pre[1].val == 0);
    ck_assert(w.cyc[1].mask == 2 && w.cyc[1].val == 2);
    tm_word_free(&w);
    ck_assert(tm_word_parse(" cycle{ true } ", &aps, "t", &w, &e) == 0);
    ck_assert(w.npre == 0 && w.ncyc == 1 && w.cyc[0].mask == 0);
    tm_word_free(&w);
    ck_assert(tm_word_parse("(a && !b);cycle{1}", &aps, "t", &w, &e) == 0);
    tm_word_free(&w);
    struct {
        const char *text, *msg;
    } bad[] = {
        {"a;b", "column 4"},
        {"a;cycle{", "column 9"},
        {"a;cycle{}", "at least one letter"},
        {"a b;cycle{a}", "column 3"},
        {"a|b;cycle{a}", "no |"},
        {"a&!a;cycle{a}", "contradictory"},
        {"c;cycle{a}", "unknown atomic proposition 'c'"},
        {"cycle{a};b", "text after the cycle"},
        {"false;cycle{a}", "cannot be false"},
        {"!(a&b);cycle{a}", "no negated group"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&e, 0, sizeof e);
        ck_assert_msg(tm_word_parse(bad[i].text, &aps, "the trace", &w, &e) != 0, "accepted %s",
                      bad[i].text);
        ck_assert_msg(strstr(e.msg, bad[i].msg) && !strncmp(e.msg, "the trace: ", 11),
                      "%s: want '%s', got '%s'", bad[i].text, bad[i].msg, e.msg);
    }
    /* printing valuations back */
    uint64_t pre[1] = {1}, cyc[2] = {2, 0};
    tm_lasso l = {pre, cyc, 1, 2};
    char *t = tm_lasso_text(&l, 3, &aps);
    ck_assert_str_eq(t, "a&!b;cycle{!a&b;!a&!b}");
    ck_assert(tm_word_parse(t, &aps, "t", &w, &e) == 0);
    tm_word_free(&w);
    free(t);
    t = tm_lasso_text(&l, 0, &aps);
    ck_assert_str_eq(t, "true;cycle{true;true}");
    free(t);
    tm_aps_free(&aps);
}
END_TEST

START_TEST(systems_must_be_mealy_machines)
{
    struct {
        const char *text, *msg;
    } bad[] = {
        {"HOA: v1\nStates: 1\nStart: 0\nAP: 2 \"i\" \"o\"\nAcceptance: 0 t\n--BODY--\n"
         "State: 0\n[0&1] 0\n[!0&!1] 0\n--END--\n",
         "controllable-AP"},
        {"HOA: v1\nStates: 1\nStart: 0\nAP: 2 \"i\" \"o\"\ncontrollable-AP: 1\n"
         "Acceptance: 1 Inf(0)\n--BODY--\nState: 0 {0}\n[0&1] 0\n[!0&!1] 0\n--END--\n",
         "Acceptance: 0 t"},
        {"HOA: v1\nStates: 2\nStart: 0\nAP: 2 \"i\" \"o\"\ncontrollable-AP: 1\n"
         "Acceptance: 0 t\n--BODY--\nState: 0\n[0&1] 1\n[!0&!1] 0\nState: 1\n[0] 1\n--END--\n",
         "state 1 has no edge for the input !i"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tm_hoa h;
        tm_system s;
        u_err e;
        ck_assert(parse(bad[i].text, &h, &e) == 0);
        ck_assert(tm_system_from_hoa(&h, "t.hoa", &s, &e) != 0);
        ck_assert_msg(strstr(e.msg, bad[i].msg), "want '%s', got '%s'", bad[i].msg, e.msg);
        tm_hoa_free(&h);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("temporal formats");
    TCase *tc = tcase_create("formats");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, hoa_errors_have_line_and_column);
    tcase_add_test(tc, hoa_features);
    tcase_add_test(tc, hoa_round_trip);
    tcase_add_test(tc, hoa_generalised_acceptance);
    tcase_add_test(tc, words);
    tcase_add_test(tc, systems_must_be_mealy_machines);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
