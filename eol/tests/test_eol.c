/*
 * test_eol.c - Check unit tests for the EOL module (eol/).
 *
 * Covers the tree functions, the printer (exact strings in both styles, the fewest
 * parentheses), the parser (hand-written cases and error messages with their column), the
 * print/parse round trip on many random trees, and the evaluator: the paper's railway
 * examples, occurrence indices, each operator at the boundaries of a trace, and agreement
 * with a deliberately naive evaluator written straight from the semantics in eol_eval.c on
 * random formulas and traces.  One Check program; exits non-zero when a test fails.
 */
#include "eol.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --- helpers ---------------------------------------------------------------------------- */

#define TEST_MAX_TRACE 512

/* A trace built from text like "Ta, Ca, Gf": occurrence indices are counted per name. */
typedef struct {
    char names[TEST_MAX_TRACE][32];
    eol_action act[TEST_MAX_TRACE];
    size_t n;
} test_trace;

static void test_trace_fill_occ(test_trace *t)
{
    for (size_t j = 0; j < t->n; j++) {
        t->act[j].name = t->names[j];
        t->act[j].occ = 1;
        for (size_t i = 0; i < j; i++)
            if (strcmp(t->names[i], t->names[j]) == 0)
                t->act[j].occ++;
    }
}

static void test_trace_parse(test_trace *t, const char *text)
{
    const char *s = text;

    t->n = 0;
    while (*s) {
        size_t len;
        while (*s == ',' || *s == ' ')
            s++;
        len = strcspn(s, ", ");
        if (len == 0)
            break;
        ck_assert_uint_lt(t->n, TEST_MAX_TRACE);
        ck_assert_uint_lt(len, sizeof t->names[0]);
        memcpy(t->names[t->n], s, len);
        t->names[t->n][len] = '\0';
        t->n++;
        s += len;
    }
    test_trace_fill_occ(t);
}

static eol_node *test_parse_ok(const char *text)
{
    char *err = NULL;
    eol_node *n = eol_parse(text, &err);
    ck_assert_msg(n != NULL, "parse of \"%s\" failed: %s", text, err ? err : "(no message)");
    ck_assert_ptr_null(err);
    return n;
}

/* Evaluates the formula text on the trace text. */
static bool test_holds(const char *formula, const char *trace)
{
    static test_trace t;
    eol_node *n = test_parse_ok(formula);
    bool r;

    test_trace_parse(&t, trace);
    r = eol_eval(n, t.act, t.n);
    eol_free(n);
    return r;
}

#define HOLDS(f, tr)     ck_assert_msg(test_holds(f, tr), "expected \"%s\" on \"%s\"", f, tr)
#define NOT_HOLDS(f, tr) ck_assert_msg(!test_holds(f, tr), "expected not \"%s\" on \"%s\"", f, tr)

/* Prints n in the style and compares with the expected text; frees n. */
static void test_prints(eol_node *n, eol_style st, const char *want)
{
    char *s;

    ck_assert_ptr_nonnull(n);
    s = eol_print(n, st);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s, want);
    free(s);
    eol_free(n);
}

/* Parses text, prints it in ASCII and compares with want (the canonical form). */
static void test_canon(const char *text, const char *want)
{
    test_prints(test_parse_ok(text), EOL_ASCII, want);
}

/* Expects a parse error whose message contains every one of the fragments. */
static void test_parse_err(const char *text, const char *frag1, const char *frag2)
{
    char *err = NULL;
    eol_node *n = eol_parse(text, &err);

    ck_assert_msg(n == NULL, "\"%s\" parsed but should not", text);
    ck_assert_msg(err != NULL, "no message for \"%s\"", text);
    ck_assert_msg(strstr(err, frag1) != NULL, "\"%s\": message \"%s\" lacks \"%s\"", text, err,
                  frag1);
    ck_assert_msg(!frag2 || strstr(err, frag2) != NULL, "\"%s\": message \"%s\" lacks \"%s\"", text,
                  err, frag2);
    free(err);
}

static eol_node *ev(const char *name)
{
    return eol_event(name, 0);
}

/* --- trees ------------------------------------------------------------------------------ */

START_TEST(test_constructors_and_equal)
{
    eol_node *x = eol_and(ev("a"), eol_ord(eol_event("b", 2), eol_not(ev("c"))));
    eol_node *y = eol_copy(x);

    ck_assert_ptr_nonnull(x);
    ck_assert_ptr_nonnull(y);
    ck_assert_ptr_ne(x, y);
    ck_assert(eol_equal(x, y));
    ck_assert_int_eq(x->kind, EOL_AND);
    ck_assert_int_eq(x->b->kind, EOL_ORD);
    ck_assert_str_eq(x->b->a->name, "b");
    ck_assert_int_eq(x->b->a->occ, 2);
    /* A different occurrence index, name or operator makes trees differ. */
    y->b->a->occ = 3;
    ck_assert(!eol_equal(x, y));
    y->b->a->occ = 2;
    ck_assert(eol_equal(x, y));
    y->b->kind = EOL_AND;
    ck_assert(!eol_equal(x, y));
    eol_free(y);
    y = eol_and(ev("a"), eol_ord(eol_event("bb", 2), eol_not(ev("c"))));
    ck_assert(!eol_equal(x, y));
    ck_assert(eol_equal(NULL, NULL));
    ck_assert(!eol_equal(x, NULL));
    ck_assert_ptr_null(eol_copy(NULL));
    eol_free(x);
    eol_free(y);
    eol_free(NULL);
}
END_TEST

START_TEST(test_constructors_reject)
{
    /* NULL operands yield NULL (and the other operands are freed: ASan checks leaks). */
    ck_assert_ptr_null(eol_and(ev("a"), NULL));
    ck_assert_ptr_null(eol_or(NULL, ev("a")));
    ck_assert_ptr_null(eol_ord(NULL, NULL));
    ck_assert_ptr_null(eol_not(NULL));
    ck_assert_ptr_null(eol_between(ev("a"), ev("b"), NULL));
    /* Def. 5: these slots take simple formulas only. */
    ck_assert_ptr_null(eol_not(eol_ord(ev("a"), ev("b"))));
    ck_assert_ptr_null(eol_from(ev("a"), eol_ord(ev("b"), ev("c"))));
    ck_assert_ptr_null(eol_until(eol_from(ev("a"), ev("b")), ev("c")));
    ck_assert_ptr_null(eol_between(ev("a"), eol_ord(ev("b"), ev("c")), ev("d")));
    /* ... but complex formulas are fine in the other slots. */
    eol_node *ok = eol_between(eol_ord(ev("a"), ev("b")), eol_and(ev("x"), eol_not(ev("y"))),
                               eol_until(ev("c"), eol_ord(ev("d"), ev("e"))));
    ck_assert_ptr_nonnull(ok);
    eol_free(ok);
    /* Names the parser could not read back, and negative occurrences. */
    ck_assert_ptr_null(eol_event(NULL, 0));
    ck_assert_ptr_null(eol_event("", 0));
    ck_assert_ptr_null(eol_event("2a", 0));
    ck_assert_ptr_null(eol_event("a b", 0));
    ck_assert_ptr_null(eol_event("a&b", 0));
    ck_assert_ptr_null(eol_event("a]", 0));
    ck_assert_ptr_null(eol_event("a[1", 0));
    ck_assert_ptr_null(eol_event("a-b", 0));
    ck_assert_ptr_null(eol_event("a", -1));
    eol_node *q = eol_event("Proc[2].L", 1);
    ck_assert_ptr_nonnull(q);
    eol_free(q);
}
END_TEST

START_TEST(test_is_simple)
{
    eol_node *s = eol_or(eol_not(ev("a")), eol_and(ev("b"), ev("c")));
    eol_node *c = eol_and(ev("a"), eol_ord(ev("b"), ev("c")));

    ck_assert(eol_is_simple(s));
    ck_assert(!eol_is_simple(c));
    ck_assert(!eol_is_simple(NULL));
    eol_free(s);
    eol_free(c);
}
END_TEST

/* --- printer ---------------------------------------------------------------------------- */

START_TEST(test_print_ascii)
{
    test_prints(eol_event("Ta", 0), EOL_ASCII, "Ta");
    test_prints(eol_event("Ta", 2), EOL_ASCII, "Ta_2");
    test_prints(eol_not(ev("a")), EOL_ASCII, "!a");
    test_prints(eol_not(eol_not(ev("a"))), EOL_ASCII, "!!a");
    test_prints(eol_not(eol_and(ev("a"), ev("b"))), EOL_ASCII, "!(a & b)");
    test_prints(eol_ord(ev("a"), ev("b")), EOL_ASCII, "a .& b");
    test_prints(eol_from(ev("p"), eol_not(ev("c"))), EOL_ASCII, "p &[ !c");
    test_prints(eol_until(eol_not(ev("c")), ev("p")), EOL_ASCII, "!c ]& p");
    test_prints(eol_between(ev("a"), eol_not(ev("c")), ev("b")), EOL_ASCII, "a &< !c >& b");
    /* Left associativity: no parentheses on the left, needed on the right. */
    test_prints(eol_and(eol_and(ev("a"), ev("b")), ev("c")), EOL_ASCII, "a & b & c");
    test_prints(eol_and(ev("a"), eol_and(ev("b"), ev("c"))), EOL_ASCII, "a & (b & c)");
    test_prints(eol_or(eol_and(ev("a"), ev("b")), ev("c")), EOL_ASCII, "a & b | c");
    test_prints(eol_and(eol_or(ev("a"), ev("b")), ev("c")), EOL_ASCII, "a | b & c");
    test_prints(eol_and(ev("a"), eol_or(ev("b"), ev("c"))), EOL_ASCII, "a & (b | c)");
    test_prints(eol_ord(eol_ord(ev("a"), ev("b")), ev("c")), EOL_ASCII, "a .& b .& c");
    test_prints(eol_ord(ev("a"), eol_ord(ev("b"), ev("c"))), EOL_ASCII, "a .& (b .& c)");
    /* Order operators bind tighter than & and |. */
    test_prints(eol_and(ev("a"), eol_ord(ev("b"), ev("c"))), EOL_ASCII, "a & b .& c");
    test_prints(eol_ord(eol_and(ev("a"), ev("b")), ev("c")), EOL_ASCII, "(a & b) .& c");
    test_prints(eol_from(ev("p"), eol_and(ev("a"), ev("b"))), EOL_ASCII, "p &[ (a & b)");
    test_prints(eol_until(eol_or(ev("a"), ev("b")), ev("p")), EOL_ASCII, "(a | b) ]& p");
    /* The middle of &< >& is bracketed by the operator itself. */
    test_prints(eol_between(ev("a"), eol_or(eol_not(ev("c")), ev("d")), ev("b")), EOL_ASCII,
                "a &< !c | d >& b");
    test_prints(eol_between(eol_ord(ev("a"), ev("x")), ev("c"), eol_ord(ev("b"), ev("y"))),
                EOL_ASCII, "a .& x &< c >& (b .& y)");
    /* The paper's cause, with the fewest parentheses. */
    test_prints(eol_and(ev("Gf"), eol_between(eol_and(ev("Ta"), eol_ord(ev("Ca"), ev("Cc"))),
                                              eol_not(ev("Cl")), ev("Tc"))),
                EOL_ASCII, "Gf & (Ta & Ca .& Cc) &< !Cl >& Tc");
    ck_assert_ptr_null(eol_print(NULL, EOL_ASCII));
}
END_TEST

START_TEST(test_print_unicode)
{
    test_prints(eol_not(ev("a")), EOL_UNICODE, "\u00aca");
    test_prints(eol_and(ev("a"), eol_or(ev("b"), ev("c"))), EOL_UNICODE, "a \u2227 (b \u2228 c)");
    test_prints(eol_ord(ev("a"), ev("b")), EOL_UNICODE, "a \u2227\u0307 b");
    test_prints(eol_from(ev("p"), eol_not(ev("c"))), EOL_UNICODE, "p \u2227[ \u00acc");
    test_prints(eol_until(eol_not(ev("c")), ev("p")), EOL_UNICODE, "\u00acc \u2227] p");
    test_prints(eol_between(ev("a"), eol_not(ev("c")), ev("b")), EOL_UNICODE,
                "a \u2227< \u00acc \u2227> b");
    test_prints(eol_event("Ta", 1), EOL_UNICODE, "Ta_1");
}
END_TEST

START_TEST(test_names_and_occurrences)
{
    eol_node *n;

    /* Qualified names round-trip. */
    test_canon("Proc.L", "Proc.L");
    test_canon("Proc[2].L_3", "Proc[2].L_3");
    test_canon("a[1][2].b_c", "a[1][2].b_c");
    n = test_parse_ok("Proc[2].L_3");
    ck_assert_str_eq(n->name, "Proc[2].L");
    ck_assert_int_eq(n->occ, 3);
    eol_free(n);
    /* A trailing _digits is the occurrence index... */
    n = test_parse_ok("x_2");
    ck_assert_str_eq(n->name, "x");
    ck_assert_int_eq(n->occ, 2);
    eol_free(n);
    /* ...so a name ending in _digits with occurrence 0 prints with an explicit "_0". */
    test_prints(eol_event("x_2", 0), EOL_ASCII, "x_2_0");
    test_prints(eol_event("x_2", 5), EOL_ASCII, "x_2_5");
    n = test_parse_ok("x_2_0");
    ck_assert_str_eq(n->name, "x_2");
    ck_assert_int_eq(n->occ, 0);
    eol_free(n);
    test_canon("Ta_0", "Ta");
    test_canon("Ta_007", "Ta_7");
    /* An underscore with nothing before it is part of the name, not a suffix. */
    n = test_parse_ok("_3");
    ck_assert_str_eq(n->name, "_3");
    ck_assert_int_eq(n->occ, 0);
    eol_free(n);
    test_prints(eol_event("_3", 0), EOL_ASCII, "_3");
    test_prints(eol_event("_", 4), EOL_ASCII, "__4");
    test_prints(eol_event("__3", 0), EOL_ASCII, "__3_0");
    test_prints(eol_event("A_", 0), EOL_ASCII, "A_");
    /* Operators written without spaces next to names that may contain '.', '[' and ']'. */
    test_canon("a.&b", "a .& b");
    test_canon("a]&b", "a ]& b");
    test_canon("P[1]]&b", "P[1] ]& b");
    test_canon("P[1]&b", "P[1] & b");
    test_canon("p&[q", "p &[ q");
    test_canon("a&<!c>&b", "a &< !c >& b");
    test_canon("(a|b)&c", "a | b & c");
    test_canon("  a\t&\n b  ", "a & b");
}
END_TEST

/* --- parser ----------------------------------------------------------------------------- */

START_TEST(test_parse_structure)
{
    eol_node *n = test_parse_ok("a & b .& c | !d");
    eol_node *want = eol_or(eol_and(ev("a"), eol_ord(ev("b"), ev("c"))), eol_not(ev("d")));
    ck_assert(eol_equal(n, want));
    eol_free(n);
    eol_free(want);

    n = test_parse_ok("Gf & ((Ta & (Ca .& Cc)) &< !Cl >& Tc)");
    want = eol_and(ev("Gf"), eol_between(eol_and(ev("Ta"), eol_ord(ev("Ca"), ev("Cc"))),
                                         eol_not(ev("Cl")), ev("Tc")));
    ck_assert(eol_equal(n, want));
    eol_free(n);
    eol_free(want);

    /* Order operators chain to the left, whatever the mix. */
    n = test_parse_ok("a .& b &[ !c");
    want = eol_from(eol_ord(ev("a"), ev("b")), eol_not(ev("c")));
    ck_assert(eol_equal(n, want));
    eol_free(n);
    eol_free(want);

    n = test_parse_ok("!c ]& a .& b");
    want = eol_ord(eol_until(eol_not(ev("c")), ev("a")), ev("b"));
    ck_assert(eol_equal(n, want));
    eol_free(n);
    eol_free(want);

    /* Unicode and ASCII spellings give the same tree, and can be mixed. */
    n = test_parse_ok("\u00acc \u2227] a \u2227\u0307 b \u2228 x \u2227< y \u2227> z");
    eol_node *m = test_parse_ok("!c ]& a .& b | x &< y >& z");
    ck_assert(eol_equal(n, m));
    eol_free(m);
    m = test_parse_ok("!c \u2227] a .& b \u2228 x &< y \u2227> z");
    ck_assert(eol_equal(n, m));
    eol_free(n);
    eol_free(m);

    n = test_parse_ok("p \u2227[ \u00acc \u2227 q");
    want = eol_and(eol_from(ev("p"), eol_not(ev("c"))), ev("q"));
    ck_assert(eol_equal(n, want));
    eol_free(n);
    eol_free(want);

    test_canon("((a))", "a");
    test_canon("!(!(a))", "!!a");
    test_canon("(a &< (c & d) >& b)", "a &< c & d >& b");
}
END_TEST

START_TEST(test_parse_errors)
{
    test_parse_err("(a & b", "column 7", "expected ')'");
    test_parse_err("((a & b)", "column 9", "'(' of column 1");
    test_parse_err("a & b)", "column 6", "unbalanced ')'");
    test_parse_err("a & ", "column 5", "missing operand");
    test_parse_err("a & & b", "column 5", "missing operand");
    test_parse_err("", "column 1", "missing operand");
    test_parse_err("   ", "column 4", "missing operand");
    test_parse_err("a &", "column 4", "end of input");
    test_parse_err(".& b", "column 1", "missing operand");
    test_parse_err("()", "column 2", "missing operand");
    test_parse_err("a # b", "column 3", "unexpected character '#'");
    test_parse_err("(a # b)", "column 4", "unexpected character '#'");
    test_parse_err("a . b", "column 3", "unexpected character '.'");
    test_parse_err("a > b", "column 3", "unexpected character '>'");
    test_parse_err("2a", "column 1", "unexpected character '2'");
    /* Columns count characters, not bytes. */
    test_parse_err("\u00aca \u2227 #", "column 6", "'#'");
    test_parse_err("a \u2227 \u2295", "column 5", "unexpected character '\u2295'");
    test_parse_err("a \xff", "column 3", "invalid byte 0xff");
    test_parse_err("a b", "column 3", "expected an operator");
    test_parse_err("a (b)", "column 3", "expected an operator");
    test_parse_err("a &< b", "column 7", "expected '>&' to close '&<' of column 3");
    test_parse_err("a &< b >& ", "column 11", "missing operand");
    test_parse_err("a >& b", "column 3", "'>&' without");
    test_parse_err("!(a .& b)", "column 1", "'!' applies only to a simple formula");
    test_parse_err("a &[ (b .& c)", "column 6", "after '&[' must be simple");
    test_parse_err("(a .& b) ]& c", "column 10", "before ']&' must be simple");
    test_parse_err("a .& b ]& c", "column 8", "before ']&' must be simple");
    test_parse_err("a &< b .& c >& d", "column 6", "between '&<' and '>&' must be simple");
    test_parse_err("Ta_99999999999", "column 3", "occurrence index too large");
    test_parse_err("a[1 & b", "column 1", "unbalanced '['");
    /* No message is requested: still no crash and no leak. */
    ck_assert_ptr_null(eol_parse("a &", NULL));
    char *err = NULL;
    ck_assert_ptr_null(eol_parse(NULL, &err));
    ck_assert_ptr_nonnull(err);
    free(err);
}
END_TEST

/* Builds text of `count` copies of open, then "a", then `count` copies of close. */
static char *test_nest(const char *open, const char *mid, const char *close, int count)
{
    size_t lo = strlen(open), lm = strlen(mid), lc = strlen(close);
    char *s = malloc((lo + lc) * (size_t)count + lm + 1), *p = s;

    ck_assert_ptr_nonnull(s);
    for (int i = 0; i < count; i++, p += lo)
        memcpy(p, open, lo);
    memcpy(p, mid, lm);
    p += lm;
    for (int i = 0; i < count; i++, p += lc)
        memcpy(p, close, lc);
    *p = '\0';
    return s;
}

START_TEST(test_parse_depth_limit)
{
    char *s = test_nest("(", "a", ")", 5000);
    test_parse_err(s, "nested deeper", NULL);
    free(s);
    s = test_nest("!", "a", "", 5000);
    test_parse_err(s, "nested deeper", NULL);
    free(s);
    s = test_nest("", "a", " & a", 5000);
    test_parse_err(s, "nested deeper", NULL);
    free(s);
    s = test_nest("", "a", " .& a", 5000);
    test_parse_err(s, "nested deeper", NULL);
    free(s);
    /* Moderate nesting is fine. */
    s = test_nest("(", "a", ")", 200);
    eol_node *n = test_parse_ok(s);
    eol_free(n);
    free(s);
    s = test_nest("", "a", " & a", 500);
    n = test_parse_ok(s);
    eol_free(n);
    free(s);
}
END_TEST

/* --- random round trip ------------------------------------------------------------------ */

static unsigned long test_rng_state;

static unsigned test_rand(unsigned bound)
{
    /* A fixed LCG so that a failure reproduces; Check runs tests in a fresh process. */
    test_rng_state = test_rng_state * 6364136223846793005UL + 1442695040888963407UL;
    return (unsigned)((test_rng_state >> 33) % bound);
}

static const char *const test_names[] = {
    "a",   "Ta", "Proc.L", "Proc[2].L", "x_2",   "_3",
    "__3", "A_", "a.b_07", "t[1][2]",   "a._1x", "Very.Long.Name_with_parts_9"};

static eol_node *test_random_tree(int depth, bool simple)
{
    unsigned kinds = simple ? 4 : 8, k = depth <= 0 ? 0 : test_rand(kinds);
    static const int occs[] = {0, 0, 0, 1, 2, 3, 12, 123456};

    switch (k) {
    case 0:
        return eol_event(test_names[test_rand(sizeof test_names / sizeof *test_names)],
                         occs[test_rand(sizeof occs / sizeof *occs)]);
    case 1:
        return eol_not(test_random_tree(depth - 1, true));
    case 2:
        return eol_and(test_random_tree(depth - 1, simple), test_random_tree(depth - 1, simple));
    case 3:
        return eol_or(test_random_tree(depth - 1, simple), test_random_tree(depth - 1, simple));
    case 4:
        return eol_ord(test_random_tree(depth - 1, false), test_random_tree(depth - 1, false));
    case 5:
        return eol_from(test_random_tree(depth - 1, false), test_random_tree(depth - 1, true));
    case 6:
        return eol_until(test_random_tree(depth - 1, true), test_random_tree(depth - 1, false));
    default:
        return eol_between(test_random_tree(depth - 1, false), test_random_tree(depth - 1, true),
                           test_random_tree(depth - 1, false));
    }
}

/* Removing any one pair of matching parentheses from printed text must break the round trip:
 * either the text no longer parses or it means another tree. */
static void test_parens_minimal(const char *text, const eol_node *tree)
{
    size_t len = strlen(text);
    char *cut = malloc(len + 1);

    ck_assert_ptr_nonnull(cut);
    for (size_t open = 0; open < len; open++) {
        size_t close = open, depth = 0;
        if (text[open] != '(')
            continue;
        for (; close < len; close++) {
            depth += text[close] == '(';
            depth -= text[close] == ')';
            if (depth == 0)
                break;
        }
        ck_assert_uint_lt(close, len);
        size_t k = 0;
        for (size_t i = 0; i < len; i++)
            if (i != open && i != close)
                cut[k++] = text[i];
        cut[k] = '\0';
        eol_node *again = eol_parse(cut, NULL);
        ck_assert_msg(!eol_equal(again, tree), "parentheses not needed in \"%s\"", text);
        eol_free(again);
    }
    free(cut);
}

static void test_round_trip_one(const eol_node *tree, eol_style st)
{
    char *text = eol_print(tree, st), *err = NULL, *again_text;
    eol_node *back;

    ck_assert_ptr_nonnull(text);
    back = eol_parse(text, &err);
    ck_assert_msg(back != NULL, "\"%s\" does not parse: %s", text, err ? err : "");
    ck_assert_msg(eol_equal(back, tree), "\"%s\" parses to another tree", text);
    again_text = eol_print(back, st);
    ck_assert_str_eq(again_text, text);
    if (st == EOL_ASCII)
        test_parens_minimal(text, tree);
    free(again_text);
    free(text);
    eol_free(back);
}

START_TEST(test_round_trip_random)
{
    int built = 0;

    test_rng_state = 20240611;
    for (int i = 0; i < 3000; i++) {
        eol_node *t = test_random_tree(1 + (int)test_rand(6), false);
        ck_assert_ptr_nonnull(t);
        test_round_trip_one(t, EOL_ASCII);
        test_round_trip_one(t, EOL_UNICODE);
        eol_node *c = eol_copy(t);
        ck_assert(eol_equal(c, t));
        eol_free(c);
        eol_free(t);
        built++;
    }
    ck_assert_int_eq(built, 3000);
}
END_TEST

/* --- evaluator -------------------------------------------------------------------------- */

START_TEST(test_eval_railway)
{
    const char *ok = "Ta, Ca, Gf, Cc, Tc";
    const char *closed_late = "Ta, Ca, Gf, Cc, Cl, Tc";
    const char *cause = "Gf & ((Ta & (Ca .& Cc)) &< !Cl >& Tc)";

    HOLDS("Ta .& Ca .& Gf .& Cc .& Tc", ok);
    HOLDS(cause, ok);
    NOT_HOLDS(cause, closed_late);
    HOLDS("Ta .& Ca .& Gf .& Cc .& Tc", closed_late);
    NOT_HOLDS("Ta .& Ca .& Cc .& Gf .& Tc", ok);
    NOT_HOLDS(cause, "Ta, Ca, Cc, Tc");     /* no gate failure */
    NOT_HOLDS(cause, "Ta, Ca, Gf, Tc, Cc"); /* train crossed before the car */
    HOLDS(cause, "Gf, Ta, Ca, Cc, Tc, Cl"); /* car left after the train */
    HOLDS("Ta & Ca & Gf & Cc & Tc", "Tc, Cc, Gf, Ca, Ta");
}
END_TEST

START_TEST(test_eval_occurrences)
{
    const char *tr = "Ta, Gc, Tc, Tl, Go, Ta";

    HOLDS("Ta_1", tr);
    HOLDS("Ta_2", tr);
    NOT_HOLDS("Ta_3", tr);
    HOLDS("Ta_1 .& Ta_2", tr);
    NOT_HOLDS("Ta_2 .& Ta_1", tr);
    HOLDS("Ta_1 .& Gc .& Tc .& Tl .& Go .& Ta_2", tr);
    NOT_HOLDS("Ta_2 .& Tc", tr);
    HOLDS("Tc .& Ta_2", tr);
    NOT_HOLDS("Gc .& Ta_1", tr);
    HOLDS("Gc .& Ta", tr); /* any occurrence: the second one follows Gc */
    HOLDS("Ta .& Ta", tr);
    NOT_HOLDS("Ta .& Ta", "Ta, Gc");
    HOLDS("Ta_1 &< !Ta >& Ta_2", tr);
    NOT_HOLDS("Ta_1 &< !Go >& Ta_2", tr);
    HOLDS("!Ta_2 ]& Go", tr);
    NOT_HOLDS("!Ta_1 ]& Go", "Gc, Ta, Go");
    /* An explicit "_0" also means any occurrence. */
    HOLDS("Tc .& Ta_0", tr);
}
END_TEST

START_TEST(test_eval_events_and_boolean)
{
    NOT_HOLDS("a", "");
    HOLDS("!a", ""); /* s0 satisfies every negation */
    HOLDS("a", "a");
    HOLDS("a", "b, c, a");
    NOT_HOLDS("a", "b, c");
    HOLDS("!a", "a"); /* s0 again */
    HOLDS("!b", "b, b");
    HOLDS("a & b", "b, x, a");
    NOT_HOLDS("a & b", "a, x");
    NOT_HOLDS("a & b", "");
    HOLDS("a | b", "x, b");
    NOT_HOLDS("a | b", "x");
    NOT_HOLDS("a | b", "");
    /* A conjunction inside a negation is evaluated at single states. */
    HOLDS("!(a & b)", "a, b");
    NOT_HOLDS("!!a", "x");
    HOLDS("!!a", "x, a");
}
END_TEST

START_TEST(test_eval_ord)
{
    NOT_HOLDS("a .& b", "");
    HOLDS("a .& b", "a, b");
    HOLDS("a .& b", "b, a, x, b");
    NOT_HOLDS("a .& b", "b, a");
    NOT_HOLDS("a .& b", "a");
    NOT_HOLDS("a .& a", "a");
    HOLDS("a .& a", "a, a");
    HOLDS("(a & b) .& c", "b, a, c");
    NOT_HOLDS("(a & b) .& c", "b, c, a");
    HOLDS("a .& (b .& c)", "a, b, c");
    NOT_HOLDS("a .& (b .& c)", "b, a, c");
    /* A negation is satisfied by s0, which precedes every action. */
    HOLDS("!x .& a", "a");
    NOT_HOLDS("a .& !a", "a");
    HOLDS("a .& !a", "a, b");
}
END_TEST

START_TEST(test_eval_from)
{
    NOT_HOLDS("p &[ !c", "");
    HOLDS("p &[ !c", "p");       /* p is the last action: nothing after it */
    HOLDS("p &[ !c", "c, p, x"); /* c before p does not matter */
    NOT_HOLDS("p &[ !c", "p, c");
    NOT_HOLDS("p &[ !c", "p, x, c");
    NOT_HOLDS("p &[ !c", "x");
    /* Bound to the first p: a c after it falsifies, even if another p follows. */
    NOT_HOLDS("p &[ !c", "p, c, p");
    HOLDS("p &[ x", "p, x, x");
    NOT_HOLDS("p &[ x", "p, x, y");
    HOLDS("(a .& b) &[ !c", "a, c, b, x");
    NOT_HOLDS("(a .& b) &[ !c", "a, b, c");
}
END_TEST

START_TEST(test_eval_until)
{
    NOT_HOLDS("!c ]& p", "");
    HOLDS("!c ]& p", "p"); /* p is the first action: nothing before it */
    HOLDS("!c ]& p", "x, p, c");
    NOT_HOLDS("!c ]& p", "c, p");
    NOT_HOLDS("!c ]& p", "c, x, p");
    NOT_HOLDS("!c ]& p", "x");
    /* Bound to the last p: a c before it falsifies, even after an earlier p. */
    NOT_HOLDS("!c ]& p", "p, c, p");
    HOLDS("x ]& p", "x, x, p");
    NOT_HOLDS("x ]& p", "y, x, p");
    HOLDS("!c ]& (a .& b)", "x, a, c, b");
    NOT_HOLDS("!c ]& (a .& b)", "c, a, b");
}
END_TEST

START_TEST(test_eval_between)
{
    const char *f = "Cc &< !Cl >& Tc";

    NOT_HOLDS(f, "Cc, Cl, X, Tc");
    HOLDS(f, "Cc, X, Tc");
    NOT_HOLDS(f, "Tc, Cc");
    HOLDS(f, "Cc, Tc");
    NOT_HOLDS(f, "");
    NOT_HOLDS(f, "Cc");
    NOT_HOLDS(f, "Tc");
    HOLDS(f, "Cl, Cc, Tc, Cl");
    /* Bound to the first Cc and the last Tc. */
    NOT_HOLDS(f, "Cc, Cl, Cc, Tc");
    NOT_HOLDS(f, "Cc, Tc, Cl, Tc");
    NOT_HOLDS("a &< !a >& a", "a");
    HOLDS("a &< !a >& a", "a, a");
    NOT_HOLDS("a &< !a >& a", "a, a, a");
    HOLDS("a &< x | y >& b", "a, x, y, b");
    NOT_HOLDS("a &< x | y >& b", "a, x, z, b");
}
END_TEST

START_TEST(test_eval_bad_input)
{
    eol_node *n = ev("a");
    eol_node hand = {.kind = EOL_AND, .a = n, .b = NULL};
    eol_action act = {"a", 1};

    ck_assert(eol_eval(n, &act, 1));
    ck_assert(!eol_eval(NULL, &act, 1));
    ck_assert(!eol_eval(n, NULL, 1));
    ck_assert(!eol_eval(&hand, &act, 1)); /* a missing operand satisfies nothing */
    eol_free(n);
}
END_TEST

/* A naive evaluator written straight from the semantics (loops over every j, k and l), to
 * check the memoised first/last shortcut of eol_eval.c. */
static bool test_naive(const eol_node *f, const eol_action *t, size_t i, size_t r);

static bool test_naive_state(const eol_node *f, const eol_action *t, size_t l)
{
    switch (f->kind) {
    case EOL_EVENT:
        return l > 0 && strcmp(t[l - 1].name, f->name) == 0 &&
               (f->occ == 0 || f->occ == t[l - 1].occ);
    case EOL_NOT:
        return !test_naive_state(f->a, t, l);
    case EOL_AND:
        return test_naive_state(f->a, t, l) && test_naive_state(f->b, t, l);
    case EOL_OR:
        return test_naive_state(f->a, t, l) || test_naive_state(f->b, t, l);
    default:
        ck_abort_msg("complex formula at a state");
        return false;
    }
}

static bool test_naive_all(const eol_node *phi, const eol_action *t, size_t lo, size_t hi)
{
    for (size_t l = lo; l < hi; l++)
        if (!test_naive_state(phi, t, l))
            return false;
    return true;
}

/* Least j in [i..r] with sigma[i..j] |= f, or r + 1. */
static size_t test_naive_first(const eol_node *f, const eol_action *t, size_t i, size_t r)
{
    size_t j = i;
    while (j <= r && !test_naive(f, t, i, j))
        j++;
    return j;
}

/* Greatest k in [i..r] with sigma[k..r] |= f, or i - 1 as a signed value. */
static long test_naive_last(const eol_node *f, const eol_action *t, size_t i, size_t r)
{
    long k = (long)r;
    while (k >= (long)i && !test_naive(f, t, (size_t)k, r))
        k--;
    return k;
}

static bool test_naive(const eol_node *f, const eol_action *t, size_t i, size_t r)
{
    size_t j;
    long k;

    switch (f->kind) {
    case EOL_EVENT:
    case EOL_NOT:
        for (size_t l = i; l <= r; l++)
            if (test_naive_state(f, t, l))
                return true;
        return false;
    case EOL_AND:
        return test_naive(f->a, t, i, r) && test_naive(f->b, t, i, r);
    case EOL_OR:
        return test_naive(f->a, t, i, r) || test_naive(f->b, t, i, r);
    case EOL_ORD:
        for (size_t jj = i; jj <= r; jj++)
            for (size_t kk = jj + 1; kk <= r; kk++)
                if (test_naive(f->a, t, i, jj) && test_naive(f->b, t, kk, r))
                    return true;
        return false;
    case EOL_FROM:
        j = test_naive_first(f->a, t, i, r);
        return j <= r && test_naive_all(f->b, t, j + 1, r + 1);
    case EOL_UNTIL:
        k = test_naive_last(f->b, t, i, r);
        return k >= (long)i && test_naive_all(f->a, t, i + 1, (size_t)k);
    case EOL_BETWEEN:
        j = test_naive_first(f->a, t, i, r);
        k = test_naive_last(f->c, t, i, r);
        return j <= r && k >= (long)i && (long)j < k && test_naive_all(f->b, t, j + 1, (size_t)k);
    }
    return false;
}

static eol_node *test_random_eval_tree(int depth, bool simple)
{
    static const char *const names[] = {"a", "b", "c"};
    unsigned kinds = simple ? 4 : 8, k = depth <= 0 ? 0 : test_rand(kinds);

    switch (k) {
    case 0:
        return eol_event(names[test_rand(3)], (int)test_rand(3));
    case 1:
        return eol_not(test_random_eval_tree(depth - 1, true));
    case 2:
        return eol_and(test_random_eval_tree(depth - 1, simple),
                       test_random_eval_tree(depth - 1, simple));
    case 3:
        return eol_or(test_random_eval_tree(depth - 1, simple),
                      test_random_eval_tree(depth - 1, simple));
    case 4:
        return eol_ord(test_random_eval_tree(depth - 1, false),
                       test_random_eval_tree(depth - 1, false));
    case 5:
        return eol_from(test_random_eval_tree(depth - 1, false),
                        test_random_eval_tree(depth - 1, true));
    case 6:
        return eol_until(test_random_eval_tree(depth - 1, true),
                         test_random_eval_tree(depth - 1, false));
    default:
        return eol_between(test_random_eval_tree(depth - 1, false),
                           test_random_eval_tree(depth - 1, true),
                           test_random_eval_tree(depth - 1, false));
    }
}

START_TEST(test_eval_against_naive)
{
    static const char *const names[] = {"a", "b", "c"};
    test_trace t;
    int agree = 0, held = 0;

    test_rng_state = 77;
    for (int round = 0; round < 4000; round++) {
        eol_node *f = test_random_eval_tree(1 + (int)test_rand(4), false);
        ck_assert_ptr_nonnull(f);
        t.n = test_rand(8);
        for (size_t j = 0; j < t.n; j++)
            strcpy(t.names[j], names[test_rand(3)]);
        test_trace_fill_occ(&t);
        bool fast = eol_eval(f, t.act, t.n), slow = test_naive(f, t.act, 0, t.n);
        if (fast != slow) {
            char *s = eol_print(f, EOL_ASCII);
            ck_abort_msg("round %d: \"%s\" on %zu actions: eval %d, naive %d", round, s, t.n, fast,
                         slow);
        }
        agree++;
        held += fast;
        eol_free(f);
    }
    ck_assert_int_eq(agree, 4000);
    /* Both verdicts occur often enough for the comparison to mean something. */
    ck_assert_int_gt(held, 400);
    ck_assert_int_lt(held, 3600);
}
END_TEST

START_TEST(test_eval_long_trace)
{
    /* 400 actions cycling through e0..e9, and formulas of a few dozen nodes. */
    test_trace t;
    char text[4096] = "", part[64];
    eol_node *f;
    clock_t start = clock();

    t.n = 400;
    for (size_t j = 0; j < t.n; j++)
        snprintf(t.names[j], sizeof t.names[j], "e%zu", j % 10);
    test_trace_fill_occ(&t);
    /* e0 .& e1 .& ... .& e9, nested both ways, with an interval around it. */
    for (int i = 0; i < 10; i++) {
        snprintf(part, sizeof part, "%se%d", i ? " .& " : "", i);
        strcat(text, part);
    }
    strcat(text, " &< !e0_41 >& (e1 .& (e2 .& (e3 .& (e4 .& e5_40))))");
    f = test_parse_ok(text);
    ck_assert(eol_eval(f, t.act, t.n));
    eol_free(f);
    f = test_parse_ok("(e9 .& e0 .& e1) &< !e5_40 >& e8_40 | e0_40 .& e0_1");
    ck_assert(!eol_eval(f, t.act, t.n));
    eol_free(f);
    f = test_parse_ok("(e0 .& e5) &[ !e3_41 & (!e2 | e2) ]& (e1_40 .& e2_40 .& e3_40)");
    ck_assert(eol_eval(f, t.act, t.n));
    eol_free(f);
    f = test_parse_ok("((e0 &[ !x) .& e1) &< !e7_39 >& e9");
    ck_assert(!eol_eval(f, t.act, t.n));
    eol_free(f);
    /* Generous even under sanitizers; an exponential evaluator would take ages. */
    ck_assert_msg((double)(clock() - start) / CLOCKS_PER_SEC < 3.0, "evaluation too slow");
}
END_TEST

static Suite *eol_suite(void)
{
    Suite *s = suite_create("eol");
    TCase *trees = tcase_create("trees"), *print = tcase_create("print");
    TCase *parse = tcase_create("parse"), *eval = tcase_create("eval");

    tcase_add_test(trees, test_constructors_and_equal);
    tcase_add_test(trees, test_constructors_reject);
    tcase_add_test(trees, test_is_simple);
    tcase_add_test(print, test_print_ascii);
    tcase_add_test(print, test_print_unicode);
    tcase_add_test(print, test_names_and_occurrences);
    tcase_add_test(print, test_round_trip_random);
    tcase_add_test(parse, test_parse_structure);
    tcase_add_test(parse, test_parse_errors);
    tcase_add_test(parse, test_parse_depth_limit);
    tcase_add_test(eval, test_eval_railway);
    tcase_add_test(eval, test_eval_occurrences);
    tcase_add_test(eval, test_eval_events_and_boolean);
    tcase_add_test(eval, test_eval_ord);
    tcase_add_test(eval, test_eval_from);
    tcase_add_test(eval, test_eval_until);
    tcase_add_test(eval, test_eval_between);
    tcase_add_test(eval, test_eval_bad_input);
    tcase_add_test(eval, test_eval_against_naive);
    tcase_add_test(eval, test_eval_long_trace);
    /* The randomized tests run thousands of cases, slower under sanitizers. */
    tcase_set_timeout(print, 60);
    tcase_set_timeout(eval, 60);
    suite_add_tcase(s, trees);
    suite_add_tcase(s, print);
    suite_add_tcase(s, parse);
    suite_add_tcase(s, eval);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(eol_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
