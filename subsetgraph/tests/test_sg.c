/*
 * test_sg.c - unit tests of the coloured subset graph: trie and multisets, and the
 * colouring rules of section 3.2 as README "Method" fixes them.
 */
#include "subsetgraph.h"

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>

enum { A, B, C, D, E };

static sg_node path(sg_graph *g, const uint32_t *ev, size_t n)
{
    sg_node x = 0;
    for (size_t i = 0; i < n; i++)
        x = sg_child(g, x, ev[i]);
    return x;
}

START_TEST(trie_dedupes_and_keeps_order)
{
    sg_graph *g = sg_new();
    uint32_t ab[] = {A, B}, ba[] = {B, A};
    sg_node x = path(g, ab, 2), y = path(g, ab, 2), z = path(g, ba, 2);
    ck_assert_uint_eq(x, y);
    ck_assert_uint_ne(x, z);
    ck_assert_uint_eq(sg_level(g, x), 2);
    uint32_t out[2];
    sg_trace(g, z, out);
    ck_assert_uint_eq(out[0], B);
    ck_assert_uint_eq(out[1], A);
    ck_assert_uint_eq(sg_multiset(g, x), sg_multiset(g, z));
    sg_free(g);
}
END_TEST

START_TEST(multisets_count_occurrences)
{
    sg_graph *g = sg_new();
    uint32_t aa[] = {A, A}, aba[] = {A, B, A}, b[] = {B};
    sg_node x = path(g, aa, 2), y = path(g, aba, 3), z = path(g, b, 1);
    ck_assert_uint_eq(sg_last_occ(g, x), 2);
    ck_assert_uint_eq(sg_last_occ(g, y), 2);
    ck_assert(sg_ms_subset(g, sg_multiset(g, x), sg_multiset(g, y)));
    ck_assert(!sg_ms_subset(g, sg_multiset(g, y), sg_multiset(g, x)));
    ck_assert(!sg_ms_subset(g, sg_multiset(g, x), sg_multiset(g, x)));
    ck_assert(sg_ms_subseteq(g, sg_multiset(g, x), sg_multiset(g, x)));
    ck_assert(!sg_ms_subseteq(g, sg_multiset(g, z), sg_multiset(g, x)));
    ck_assert_uint_eq(sg_ms_size(g, sg_multiset(g, y)), 3);
    uint32_t ev[3], cnt[3]; /* {A, A, B}: its events ascending, with counts */
    ck_assert_uint_eq(sg_ms_events(g, sg_multiset(g, y), ev, cnt), 2);
    ck_assert_uint_eq(ev[0], A); /* A < B */
    ck_assert_uint_eq(cnt[0], 2);
    ck_assert_uint_eq(ev[1], B);
    ck_assert_uint_eq(cnt[1], 1);
    ck_assert_uint_eq(sg_ms_events(g, 0, ev, cnt), 0);
    sg_free(g);
}
END_TEST

/* Inclusion against brute force, with more than 8 event types (lanes shared) and
 * counts beyond 127 (lanes saturated): the quick lane test may only reject what the
 * full comparison rejects. */
START_TEST(multiset_inclusion_brute_force)
{
    enum { K = 48, EV = 20 };
    static uint32_t cnt[K][EV], trace[EV * 200];
    sg_graph *g = sg_new();
    sg_ms ms[K];
    srand(7);
    for (int i = 0; i < K; i++) {
        for (int e = 0; e < EV; e++) {
            if (i % 2 && i > 1) /* half are a random part of an earlier one */
                cnt[i][e] = cnt[i - 1][e] ? (uint32_t)rand() % (cnt[i - 1][e] + 1) : 0;
            else
                cnt[i][e] = rand() % 3 ? 0 : (uint32_t)(rand() % (i % 4 == 0 ? 190 : 4));
        }
        size_t n = 0;
        for (int e = EV; e-- > 0;)
            for (uint32_t c = 0; c < cnt[i][e]; c++)
                trace[n++] = (uint32_t)e;
        ms[i] = sg_multiset(g, path(g, trace, n));
    }
    int yes = 0;
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) {
            bool le = true;
            for (int e = 0; e < EV; e++)
                le = le && cnt[a][e] <= cnt[b][e];
            ck_assert(sg_ms_subseteq(g, ms[a], ms[b]) == le);
            yes += le;
        }
    ck_assert_int_gt(yes, 2 * K); /* the positive cases are exercised too */
    sg_free(g);
}
END_TEST

START_TEST(colouring_rules)
{
    sg_graph *g = sg_new();
    uint32_t a[] = {A}, c[] = {C}, ab[] = {A, B}, abc[] = {A, B, C}, abd[] = {A, B, D};
    uint32_t d[] = {D};
    ck_assert_int_eq(sg_add(g, 0, false), SG_GREEN);               /* empty trace, good */
    ck_assert_int_eq(sg_add(g, path(g, a, 1), false), SG_GREEN);   /* {A} good */
    ck_assert_int_eq(sg_add(g, path(g, c, 1), true), SG_RED);      /* good {} below */
    ck_assert_int_eq(sg_add(g, path(g, ab, 2), true), SG_RED);     /* good {A} below */
    ck_assert_int_eq(sg_add(g, path(g, abc, 3), true), SG_ORANGE); /* bad {C} below */
    ck_assert_int_eq(sg_add(g, path(g, abd, 3), false), SG_BLACK); /* red {A,B} below */
    ck_assert_int_eq(sg_add(g, path(g, d, 1), false), SG_GREEN);
    ck_assert_uint_eq(sg_count(g, SG_RED), 2);
    ck_assert_uint_eq(sg_count(g, SG_ORANGE), 1);
    ck_assert_uint_eq(sg_count(g, SG_BLACK), 1);
    ck_assert_uint_eq(sg_count(g, SG_GREEN), 3);
    const sg_node *reds;
    ck_assert_uint_eq(sg_list(g, SG_RED, &reds), 2);
    ck_assert_uint_eq(reds[0], path(g, c, 1));
    sg_free(g);
}
END_TEST

START_TEST(bad_without_good_below_is_grey)
{
    sg_graph *g = sg_new();
    uint32_t e[] = {E};
    ck_assert_int_eq(sg_add(g, path(g, e, 1), true), SG_GREY);
    /* the empty trace, bad: nothing can be below it */
    sg_graph *h = sg_new();
    ck_assert_int_eq(sg_add(h, 0, true), SG_GREY);
    ck_assert(sg_has_bad_below(h, sg_multiset(h, path(h, e, 1))));
    sg_free(g);
    sg_free(h);
}
END_TEST

START_TEST(good_then_bad_takes_bad_colour)
{
    sg_graph *g = sg_new();
    uint32_t a[] = {A};
    sg_add(g, 0, false);
    sg_node x = path(g, a, 1);
    ck_assert_int_eq(sg_add(g, x, false), SG_GREEN);
    ck_assert_int_eq(sg_add(g, x, true), SG_RED);
    ck_assert(sg_is_good(g, x) && sg_is_bad(g, x));
    ck_assert_uint_eq(sg_count(g, SG_GREEN), 1); /* only the empty trace */
    const sg_node *greens;
    ck_assert_uint_eq(sg_list(g, SG_GREEN, &greens), 1);
    sg_free(g);
}
END_TEST

START_TEST(map_put_get_grow)
{
    u_map m = {0};
    for (uint32_t i = 0; i < 10000; i++)
        ck_assert_int_eq(u_map_put(&m, (uint64_t)i * 7919, i), 0);
    for (uint32_t i = 0; i < 10000; i++)
        ck_assert_uint_eq(u_map_get(&m, (uint64_t)i * 7919), i);
    ck_assert_uint_eq(u_map_get(&m, 3), SG_INVALID);
    ck_assert_uint_eq(m.len, 10000);
    u_map_free(&m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("subsetgraph");
    TCase *t = tcase_create("core");
    tcase_add_test(t, trie_dedupes_and_keeps_order);
    tcase_add_test(t, multisets_count_occurrences);
    tcase_add_test(t, multiset_inclusion_brute_force);
    tcase_add_test(t, colouring_rules);
    tcase_add_test(t, bad_without_good_below_is_grey);
    tcase_add_test(t, good_then_bad_takes_bad_colour);
    tcase_add_test(t, map_put_get_grow);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
