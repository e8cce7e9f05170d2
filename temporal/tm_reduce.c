/*
 * tm_reduce.c - making automata smaller without changing their language, for
 * the cause the user reads and for the automata that are complemented next
 * (complementation is exponential in the states it starts from).
 *
 * One round, repeated while it shrinks the automaton:
 *   - trimming (tm_nba_trim): only reachable states that can still accept;
 *   - for a deterministic weak automaton, Loding's minimisation: colour each
 *     SCC with the largest number that does not increase along edges and is
 *     even exactly for SCCs with accepting cycles (transient SCCs take their
 *     successors' least colour), make the even-coloured states accepting (same
 *     language: acceptance only matters on cycles), and minimise as a DFA
 *     (Moore's partition refinement over the completed automaton).  This gives
 *     the minimal weak deterministic automaton (Loding 2001), e.g. 2 states
 *     for F r0 and 1 for G r3;
 *   - for other deterministic automata, Moore's minimisation with acceptance
 *     as the colour (bisimulation);
 *   - the direct-simulation quotient with little-brother pruning, then the
 *     delayed-simulation quotient (tm_simulation.c).
 * (Making states on no rejecting cycle accepting, which tm_tdba.c does for
 * transitions, is not done here: on state-based automata it made direct
 * simulation merge fewer states, 674 against 503 on a 1567-state complement.)
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

/* ---- weak deterministic minimisation ---- */

/* The successor table of a deterministic automaton, completed with a
 * rejecting sink (state n): succ[q * L + l]. */
static uint32_t *det_table(const tm_nba *a, uint64_t L)
{
    uint32_t *succ = malloc(((size_t)a->n + 1) * L * sizeof *succ);
    if (!succ)
        return NULL;
    for (uint32_t q = 0; q <= a->n; q++)
        for (uint64_t l = 0; l < L; l++) {
            uint32_t to = a->n;
            if (q < a->n) {
                uint64_t letter = tm_spread(l, a->apmask);
                for (uint32_t i = 0; i < a->s[q].n; i++)
                    if (tm_cube_has(a->s[q].e[i].c, letter)) {
                        to = a->s[q].e[i].dst;
                        break;
                    }
            }
            succ[(size_t)q * L + l] = to;
        }
    return succ;
}

/* Loding's maximal colouring of the completed automaton (the sink is a
 * rejecting bottom SCC): even = accepting. */
static int max_colouring(const tm_nba *a, const uint32_t *succ, uint64_t L, const bool *acc_scc_q,
                         uint32_t *colour)
{
    uint32_t n = a->n + 1;
    tm_nba g;
    tm_nba_init(&g, 0);
    tm_cube top = {0, 0};
    for (uint32_t q = 0; q < n; q++)
        if (tm_nba_add_state(&g, false) == U_INVALID)
            goto oom;
    for (uint32_t q = 0; q < n; q++)
        for (uint64_t l = 0; l < L; l++)
            if (tm_nba_add_edge(&g, q, succ[(size_t)q * L + l], top) != 0)
                goto oom;
    uint32_t *comp = malloc((size_t)n * sizeof *comp);
    if (!comp)
        goto oom;
    int nc = tm_nba_scc(&g, comp);
    uint32_t *cc = nc >= 0 ? malloc(((size_t)nc + 1) * sizeof *cc) : NULL;
    bool *cyc = nc >= 0 ? calloc((size_t)nc + 1, sizeof *cyc) : NULL;
    bool *acc = nc >= 0 ? calloc((size_t)nc + 1, sizeof *acc) : NULL;
    if (!cc || !cyc || !acc) {
        free(comp), free(cc), free(cyc), free(acc);
        goto oom;
    }
    for (uint32_t q = 0; q < n; q++) {
        for (uint64_t l = 0; l < L; l++)
            if (comp[succ[(size_t)q * L + l]] == comp[q])
                cyc[comp[q]] = true;
        if (q < a->n && acc_scc_q[q])
            acc[comp[q]] = true;
    }
    uint32_t top_colour = 2 * n + 2;
    for (int c = 0; c < nc; c++)
        cc[c] = top_colour;
    /* components come successors first */
    for (int c = 0; c < nc; c++) {
        uint32_t m = top_colour;
        for (uint32_t q = 0; q < n; q++) {
            if ((int)comp[q] != c)
                continue;
            for (uint64_t l = 0; l < L; l++) {
                uint32_t d = comp[succ[(size_t)q * L + l]];
                if ((int)d != c && cc[d] < m)
                    m = cc[d];
            }
        }
        if (cyc[c] && (m % 2 == 0) != acc[c])
            m--;
        cc[c] = m;
    }
    for (uint32_t q = 0; q < n; q++)
        colour[q] = cc[comp[q]];
    free(comp), free(cc), free(cyc), free(acc);
    tm_nba_free(&g);
    return 0;
oom:
    tm_nba_free(&g);
    return -1;
}

long tm_moore(uint32_t n, size_t klen, tm_moore_sig *sig, const void *ctx, uint32_t *block)
{
    u_intern ids = {0};
    uint32_t *key = malloc(klen * sizeof *key);
    uint32_t *nb = malloc(((size_t)n + 1) * sizeof *nb);
    long count = -1;
    if (!key || !nb)
        goto oom;
    for (;;) {
        u_intern_free(&ids);
        memset(&ids, 0, sizeof ids);
        for (uint32_t q = 0; q < n; q++) {
            key[0] = block[q];
            sig(ctx, q, block, key + 1);
            bool fresh;
            nb[q] = u_intern_put(&ids, key, klen * sizeof *key, &fresh);
            if (nb[q] == U_INVALID)
                goto oom;
        }
        long k = (long)ids.n;
        memcpy(block, nb, (size_t)n * sizeof *nb);
        if (k == count)
            break;
        count = k;
    }
    u_intern_free(&ids);
    free(key), free(nb);
    return count;
oom:
    u_intern_free(&ids);
    free(key), free(nb);
    return -1;
}

/* A completed deterministic automaton as a table: succ[q * L + l]. */
typedef struct {
    const uint32_t *succ;
    uint64_t L;
} table;

static void table_sig(const void *ctx, uint32_t q, const uint32_t *block, uint32_t *key)
{
    const table *t = ctx;
    for (uint64_t l = 0; l < t->L; l++)
        key[l] = block[t->succ[(size_t)q * t->L + l]];
}

/* Moore's refinement of the states q < n, starting from the colours' parity;
 * block[q] gets q's class; returns the number of classes. */
static long moore(uint32_t n, const uint32_t *succ, uint64_t L, const uint32_t *colour,
                  uint32_t *block)
{
    for (uint32_t q = 0; q < n; q++)
        block[q] = colour[q] % 2;
    table t = {succ, L};
    return tm_moore(n, (size_t)L + 1, table_sig, &t, block);
}

/* The automaton of the blocks of a (completed) deterministic automaton: one
 * representative per block gives the edges; a block is accepting when its
 * colour is even. */
static int quotient(const tm_nba *a, const uint32_t *succ, uint64_t L, const uint32_t *colour,
                    const uint32_t *block, long nb, tm_nba *b)
{
    uint32_t n = a->n + 1;
    for (long c = 0; c < nb; c++)
        if (tm_nba_add_state(b, false) == U_INVALID)
            return -1;
    bool *seen = calloc((size_t)nb + 1, sizeof *seen);
    if (!seen)
        return -1;
    for (uint32_t q = 0; q < n; q++) {
        b->s[block[q]].acc = colour[q] % 2 == 0;
        if (seen[block[q]])
            continue;
        seen[block[q]] = true;
        for (uint64_t l = 0; l < L; l++) {
            tm_cube c = {a->apmask, tm_spread(l, a->apmask)};
            if (tm_nba_add_edge(b, block[q], block[succ[(size_t)q * L + l]], c) != 0) {
                free(seen);
                return -1;
            }
        }
    }
    free(seen);
    return tm_nba_add_init(b, block[a->init[0]]);
}

/* Minimises a deterministic weak automaton in place; *done tells whether it
 * applied. */
static int weak_minimise(tm_nba *a, bool *done, u_err *err)
{
    *done = false;
    uint64_t L = tm_nba_letters(a);
    if (a->n == 0 || L > 4096 || !tm_nba_deterministic(a))
        return 0;
    tm_nba normal;
    bool weak;
    if (tm_nba_weak(a, &normal, &weak, err) != 0)
        return -1;
    if (!weak)
        return 0;
    uint32_t n = a->n + 1;
    uint32_t *succ = det_table(a, L);
    uint32_t *colour = malloc((size_t)n * sizeof *colour);
    uint32_t *block = malloc((size_t)n * sizeof *block);
    bool *accq = malloc((size_t)n * sizeof *accq);
    tm_nba b;
    tm_nba_init(&b, a->apmask);
    if (!succ || !colour || !block || !accq)
        goto oom;
    for (uint32_t q = 0; q < a->n; q++)
        accq[q] = normal.s[q].acc;
    if (max_colouring(a, succ, L, accq, colour) != 0)
        goto oom;
    long nb = moore(n, succ, L, colour, block);
    if (nb < 0)
        goto oom;
    if (quotient(a, succ, L, colour, block, nb, &b) != 0)
        goto oom;
    free(succ), free(colour), free(block), free(accq);
    tm_nba_free(&normal);
    tm_nba_free(a);
    *a = b;
    *done = true;
    /* the sink's block (rejecting, no accepting cycle) goes */
    return tm_nba_trim(a, err) != 0 ? -1 : tm_nba_merge_edges(a, err);
oom:
    free(succ), free(colour), free(block), free(accq);
    tm_nba_free(&normal);
    tm_nba_free(&b);
    return u_oom(err);
}

/* Moore's minimisation of a deterministic automaton with its acceptance as
 * the states' colour: merges bisimilar states, the cheap first
 * cut before the quadratic simulation. */
static int det_minimise(tm_nba *a, u_err *err)
{
    uint64_t L = tm_nba_letters(a);
    if (a->n == 0 || L > 4096 || !tm_nba_deterministic(a))
        return 0;
    uint32_t n = a->n + 1;
    uint32_t *succ = det_table(a, L);
    uint32_t *colour = malloc((size_t)n * sizeof *colour);
    uint32_t *block = malloc((size_t)n * sizeof *block);
    tm_nba b;
    tm_nba_init(&b, a->apmask);
    if (!succ || !colour || !block)
        goto oom;
    for (uint32_t q = 0; q < n; q++)
        colour[q] = q < a->n && a->s[q].acc ? 0 : 1;
    long nb = moore(n, succ, L, colour, block);
    if (nb < 0 || quotient(a, succ, L, colour, block, nb, &b) != 0)
        goto oom;
    free(succ), free(colour), free(block);
    tm_nba_free(a);
    *a = b;
    return tm_nba_trim(a, err) != 0 ? -1 : tm_nba_merge_edges(a, err);
oom:
    free(succ), free(colour), free(block);
    tm_nba_free(&b);
    return u_oom(err);
}

int tm_nba_reduce(tm_nba *a, u_err *err)
{
    if (tm_nba_trim(a, err) != 0 || tm_nba_merge_edges(a, err) != 0)
        return -1;
    for (int round = 0; round < 4; round++) {
        uint32_t before = a->n;
        size_t ebefore = tm_nba_edges(a);
        bool done;
        if (weak_minimise(a, &done, err) != 0)
            return -1;
        if (!done && det_minimise(a, err) != 0)
            return -1;
        if (tm_nba_simulation_quotient(a, err) != 0 || tm_nba_delayed_quotient(a, err) != 0 ||
            tm_nba_trim(a, err) != 0)
            return -1;
        if (a->n == before && tm_nba_edges(a) == ebefore)
            break;
    }
    return 0;
}
