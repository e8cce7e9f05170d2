/* Evaluators, Definition 2, the candidates and the exact search checked
 * against ground truth computed here on random small instances, plus
 * linearity on a long trace.  (The independent reference in another
 * language is cases/explain-oracle; these are the C-level checks.)
 *
 * - A continuation found by brute force that satisfies the formula means
 *   the prefix is not finitely falsified (the automaton must agree), and a
 *   prefix falsified in the weak view must be finitely falsified.
 * - Definition 4 by literal enumeration of the contingencies: every cause
 *   is a candidate, and the exact search's verdict is the enumeration's.
 */
#include "ex_cand.h"
#include "ex_cause.h"
#include "ex_dfa.h"
#include "ex_eval.h"
#include "ex_exact.h"
#include "ex_ltl.h"
#include "ex_nba.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned rng_state = 12345;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 16) % n;
}

static void gen(char *buf, size_t cap, int depth)
{
    static const char *const atoms[] = {"p", "q", "r", "true"};
    static const char *const un[] = {"!", "[]", "<>", "X"};
    static const char *const bin[] = {"&&", "||", "U", "V", "W", "->", "<->"};
    char a[512], b[512];
    unsigned k = depth <= 0 ? 0 : rnd(3);
    if (k == 0) {
        snprintf(buf, cap, "%s", atoms[rnd(depth <= 0 ? 3 : 4)]);
    } else if (k == 1) {
        gen(a, sizeof a, depth - 1);
        snprintf(buf, cap, "%s (%s)", un[rnd(4)], a);
    } else {
        gen(a, sizeof a, depth - 1);
        gen(b, sizeof b, depth - 1);
        snprintf(buf, cap, "(%s) %s (%s)", a, bin[rnd(7)], b);
    }
}

typedef struct {
    ex_ltl l;
    int root, tab, neg, alg6;
    uint64_t mask;
} inst;

static void make(inst *x, const char *text)
{
    ex_ltl_init(&x->l);
    char err[128];
    x->root = ex_ltl_parse(&x->l, text, EX_DIALECT_SPIN, err, sizeof err);
    ck_assert_msg(x->root >= 0, "%s: %s", text, err);
    x->tab = ex_ltl_nnf(&x->l, x->root, EX_NNF_TABLEAU, NULL);
    x->neg = ex_ltl_nnf(&x->l, ex_ltl_mk(&x->l, EX_L_NOT, x->root, -1), EX_NNF_TABLEAU, NULL);
    x->alg6 = ex_ltl_nnf(&x->l, x->root, EX_NNF_ALG6, NULL);
    x->mask = (1ull << x->l.nprops) - 1;
}

static int nba_falsifies(const ex_nba *a, const uint64_t *w, size_t n)
{
    uint64_t s1[64], s2[64];
    ex_nba_start(a, w[0], s1);
    for (size_t i = 1; i < n; i++) {
        ex_nba_step(a, s1, w[i], s2);
        memcpy(s1, s2, sizeof s1);
    }
    return ex_nba_set_empty(a, s1);
}

START_TEST(definition2_against_brute_force)
{
    rng_state = 12345;
    int checked_sat = 0, checked_weak = 0;
    for (int round = 0; round < 300; round++) {
        char text[2048];
        gen(text, sizeof text, 3);
        inst x;
        make(&x, text);
        ex_nba a;
        ck_assert_int_eq(ex_nba_build(&x.l, x.tab, 5000, &a), 0);
        ck_assert_uint_le(a.words, 64);
        uint64_t w[12];
        size_t n = 1 + rnd(3);
        for (size_t i = 0; i < n; i++)
            w[i] = rnd(8) & x.mask;
        int fals = nba_falsifies(&a, w, n);
        /* random lasso continuations: u v^w with |u| <= 2, 1 <= |v| <= 3 */
        for (int c = 0; c < 40; c++) {
            size_t u = rnd(3), v = 1 + rnd(3);
            for (size_t i = 0; i < u + v; i++)
                w[n + i] = rnd(8) & x.mask;
            if (ex_eval_trace(&x.l, x.tab, w, n + u + v, (long)(n + u), 0)) {
                ck_assert_msg(!fals, "%s: prefix of %zu falsified but a continuation satisfies",
                              text, n);
                checked_sat++;
            }
        }
        if (!ex_eval_trace(&x.l, x.tab, w, n, -1, 1)) {
            ck_assert_msg(fals, "%s: weakly false prefix not finitely falsified", text);
            checked_weak++;
        }
        ex_nba_free(&a);
        ex_ltl_free(&x.l);
    }
    ck_assert_int_gt(checked_sat, 100);
    ck_assert_int_gt(checked_weak, 20);
}
END_TEST

static int in_set(const ex_pdot *d, size_t n, ex_pdot x)
{
    for (size_t i = 0; i < n; i++)
        if (d[i].step == x.step && d[i].prop == x.prop)
            return 1;
    return 0;
}

/* Definition 4 on pi[0..len) literally: every subset A of the bottom-valued
 * pairs without x (at most 2^14 here). */
static int brute_cause(const ex_nba *a, const uint64_t *w, size_t len, const ex_pdot *bot,
                       size_t nb, size_t xi)
{
    uint64_t v[16];
    for (uint32_t set = 0; set < (1u << nb); set++) {
        if ((set >> xi) & 1)
            continue;
        memcpy(v, w, len * sizeof *v);
        for (size_t b = 0; b < nb; b++)
            if ((set >> b) & 1)
                v[bot[b].step] ^= 1ull << bot[b].prop;
        if (!nba_falsifies(a, v, len))
            continue;
        v[bot[xi].step] ^= 1ull << bot[xi].prop;
        if (!nba_falsifies(a, v, len))
            return 1;
    }
    return 0;
}

/* The candidates contain every cause (ex_cand.h's soundness argument), the
 * exact search agrees with literal enumeration, and the paper's Algorithm 6
 * misses some causes (Theorem 8 does not hold; test_paper.c has the
 * smallest case), which is why it is no longer the default. */
START_TEST(candidates_sound_exact_matches_definition4)
{
    rng_state = 777;
    int failures = 0, causes = 0, extra = 0, alg6_missed = 0;
    for (int round = 0; round < 600; round++) {
        char text[2048];
        gen(text, sizeof text, 2 + (int)rnd(2));
        inst x;
        make(&x, text);
        uint64_t w[4];
        size_t n = 1 + rnd(4);
        for (size_t i = 0; i < n; i++)
            w[i] = rnd(8) & x.mask;
        ex_first ff;
        ck_assert_int_eq(ex_first_failure(&x.l, x.tab, x.neg, w, n, -1, 5000, 0, &ff), 0);
        if (ff.status != EX_FF_FAILS) {
            ex_ltl_free(&x.l);
            continue;
        }
        failures++;
        size_t len = ff.k + 1;
        ex_word word = {w, n, -1, x.mask, 0, 0};
        ck_assert_int_eq(ex_ltl_polarity(&x.l, x.root, NULL, &word.pos, &word.neg), 0);
        ex_nba a;
        ck_assert_int_eq(ex_nba_build(&x.l, x.tab, 5000, &a), 0);
        ex_pdot bot[64];
        size_t nb = 0;
        for (size_t i = 0; i < len; i++)
            for (int p = 0; p < x.l.nprops; p++)
                if ((ex_bottom(&word, w[i]) >> p) & 1)
                    bot[nb++] = (ex_pdot){i, p};
        ck_assert_uint_le(nb, 14);
        uint64_t *need;
        ex_alive al;
        ck_assert_int_eq(ex_cand_finite(&a, &word, ff.k, &need, &al), 0);
        int verdict[64];
        long budget = 10000000;
        ex_dfa d;
        ck_assert_int_eq(ex_dfa_init(&d, &a), 0);
        ck_assert_int_eq(ex_exact_finite(&d, &word, ff.k, &al, bot, nb, verdict, &budget), 0);
        ex_pdot *dots;
        int fails;
        size_t nd = ex_cause_alg6(&x.l, x.alg6, w, len, &dots, &fails);
        for (size_t b = 0; b < nb; b++) {
            int cause = brute_cause(&a, w, len, bot, nb, b);
            int cand = (int)((need[bot[b].step] >> bot[b].prop) & 1);
            ck_assert_msg(!cause || cand, "%s: cause <%zu,%d> is no candidate", text, bot[b].step,
                          bot[b].prop);
            ck_assert_msg(verdict[b] == cause, "%s: exact says %d for <%zu,%d>, literally %d", text,
                          verdict[b], bot[b].step, bot[b].prop, cause);
            causes += cause;
            extra += cand && !cause;
            alg6_missed += cause && !in_set(dots, nd, bot[b]);
        }
        free(dots);
        free(need);
        ex_alive_free(&al);
        ex_dfa_free(&d);
        ex_nba_free(&a);
        ex_ltl_free(&x.l);
    }
    ck_assert_int_gt(failures, 50);
    ck_assert_int_gt(causes, 50);
    ck_assert_int_gt(alg6_missed, 0);
    ck_assert_int_lt(extra, causes); /* the candidates are not everything */
}
END_TEST

/* 300,000 steps of p U q with p true throughout and q never: the failure
 * path runs through every step.  Recursion proportional to the trace would
 * overflow the stack here (especially under AddressSanitizer). */
START_TEST(long_trace_is_linear_and_flat)
{
    inst x;
    make(&x, "(p U q) && [] (r -> X r)");
    size_t n = 300000;
    uint64_t *w = malloc(n * sizeof *w);
    for (size_t i = 0; i < n; i++)
        w[i] = 1; /* p */
    w[n - 1] = 0;
    ex_first ff;
    ck_assert_int_eq(ex_first_failure(&x.l, x.tab, x.neg, w, n, -1, 5000, 0, &ff), 0);
    ck_assert_int_eq(ff.status, EX_FF_FAILS);
    ck_assert_uint_eq(ff.k, n - 1);
    ex_pdot *dots;
    int fails;
    size_t nd = ex_cause_alg6(&x.l, x.alg6, w, ff.k + 1, &dots, &fails);
    ck_assert(fails);
    ck_assert_uint_eq(nd, n + 1); /* q everywhere, and p at the end */
    ck_assert_uint_eq(dots[nd - 1].step, n - 1);
    free(dots);
    free(w);
    ex_ltl_free(&x.l);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("eval");
    TCase *tc = tcase_create("random");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, definition2_against_brute_force);
    tcase_add_test(tc, candidates_sound_exact_matches_definition4);
    tcase_add_test(tc, long_trace_is_linear_and_flat);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
