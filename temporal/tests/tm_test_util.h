/*
 * tm_test_util.h - helpers the temporal/ unit tests share: a seeded random
 * generator, random small Buchi automata, and the enumeration of every
 * ultimately periodic word up to a length, the brute-force ground truth the
 * automata operations are checked against.
 */
#ifndef TM_TEST_UTIL_H
#define TM_TEST_UTIL_H

#include "temporal.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* ck_assert for the per-word callbacks, which run millions of times: Check's
 * ck_assert records a mark point (a message to the parent process) on every
 * passing assertion, which made those loops take most of the unit tests' time
 * (test_automata under ASan: 64 s, 38 of them in the mark points).  This one
 * costs nothing until it fails, and then fails as ck_abort_msg does. */
#define tt_check(cond, ...)                                                                        \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

static uint64_t tt_seed = 88172645463325252ULL;

static inline uint64_t tt_rand(void)
{
    tt_seed ^= tt_seed << 13;
    tt_seed ^= tt_seed >> 7;
    tt_seed ^= tt_seed << 17;
    return tt_seed;
}

static inline uint32_t tt_below(uint32_t n)
{
    return (uint32_t)(tt_rand() % n);
}

/* A random automaton: n states, APs 0..naps-1, about deg edges per state with
 * random cubes (each AP constrained with probability 1/2), random acceptance
 * and one or two initial states. */
static inline void tt_random_nba(tm_nba *a, uint32_t n, int naps, uint32_t deg)
{
    tm_nba_init(a, ((uint64_t)1 << naps) - 1);
    for (uint32_t q = 0; q < n; q++)
        tm_nba_add_state(a, tt_below(3) == 0);
    for (uint32_t q = 0; q < n; q++) {
        uint32_t k = tt_below(deg + 1) + 1;
        for (uint32_t i = 0; i < k; i++) {
            tm_cube c = {0, 0};
            for (int ap = 0; ap < naps; ap++)
                if (tt_below(2)) {
                    c.mask |= (uint64_t)1 << ap;
                    if (tt_below(2))
                        c.val |= (uint64_t)1 << ap;
                }
            tm_nba_add_edge(a, q, tt_below(n), c);
        }
    }
    tm_nba_add_init(a, 0);
    if (n > 1 && tt_below(4) == 0)
        tm_nba_add_init(a, 1 + tt_below(n - 1));
}

/* Calls f(w, arg) for every lasso prefix.cycle^omega with |prefix| + |cycle|
 * <= maxlen and |cycle| >= 1 over the valuations of apmask. */
typedef void (*tt_lasso_fn)(const tm_lasso *w, void *arg);

static inline void tt_each_lasso(uint64_t apmask, int maxlen, tt_lasso_fn f, void *arg)
{
    uint64_t L = (uint64_t)1 << tm_popcount(apmask);
    uint64_t letters[16];
    for (int len = 1; len <= maxlen; len++) {
        uint64_t total = 1;
        for (int i = 0; i < len; i++)
            total *= L;
        for (uint64_t code = 0; code < total; code++) {
            uint64_t c = code;
            for (int i = 0; i < len; i++) {
                letters[i] = tm_spread(c % L, apmask);
                c /= L;
            }
            for (int npre = 0; npre < len; npre++) {
                tm_lasso w = {letters, letters + npre, (size_t)npre, (size_t)(len - npre)};
                f(&w, arg);
            }
        }
    }
}

static inline bool tt_accepts(const tm_nba *a, const tm_lasso *w)
{
    u_err e = {{0}};
    int r = tm_nba_accepts(a, w, &e);
    tt_check(r >= 0, "%s", e.msg);
    return r == 1;
}

#endif
