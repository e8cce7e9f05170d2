/*
 * tm_reduce.c - making automata smaller without changing their language, for
 * the cause the user reads and for the automata that are complemented next
 * (complementation is exponential in the states it starts from).
 *
 *   - Trimming (tm_nba_trim): only reachable states that can still accept.
 *   - Direct-simulation quotient: q simulates p when q is accepting whenever p
 *     is and every edge of p is matched, letter by letter, by an edge of q into
 *     a state simulating p's target (the greatest such relation, by iterated
 *     refinement).  States that simulate each other are merged (Dill, Hu and
 *     Wong; language-preserving for direct simulation), and an edge is dropped
 *     when a sibling edge with at least its letters leads to a state strictly
 *     simulating its target ("little brothers", Bustan and Grumberg), as are
 *     initial states strictly simulated by another initial state.
 *   - For a deterministic weak automaton: Loding's minimisation.  Colour each
 *     SCC with the largest number that does not increase along edges and is
 *     even exactly for SCCs with accepting cycles (transient SCCs take their
 *     successors' least colour), make the even-coloured states accepting (same
 *     language: acceptance only matters on cycles), and minimise as a DFA
 *     (Moore's partition refinement over the completed automaton).  This gives
 *     the minimal weak deterministic automaton (Loding 2001), e.g. 2 states
 *     for F r0 and 1 for G r3.
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

typedef uint64_t word;

/* Above this many states the quadratic simulation is skipped (the relation
 * alone would take n^2 bits). */
#define SIM_MAX_STATES 6000

/* ---- direct simulation ---- */

/* R as an n x n bit matrix: bit q of row p set iff q simulates p. */
typedef struct {
    uint32_t n, W;
    word *bits;
} rel;

static bool rel_get(const rel *r, uint32_t p, uint32_t q)
{
    return r->bits[(size_t)p * r->W + q / 64] >> (q % 64) & 1;
}

static void rel_clear(rel *r, uint32_t p, uint32_t q)
{
    r->bits[(size_t)p * r->W + q / 64] &= ~((word)1 << (q % 64));
}

/* Whether q matches every edge of p (given the current relation).  buf has
 * room for q's edge count. */
static bool matches(const tm_nba *a, const rel *r, uint32_t p, uint32_t q, tm_cube *buf)
{
    const tm_state *sp = &a->s[p], *sq = &a->s[q];
    for (uint32_t i = 0; i < sp->n; i++) {
        tm_cube c = sp->e[i].c;
        uint32_t t = sp->e[i].dst, k = 0;
        for (uint32_t j = 0; j < sq->n; j++)
            if (tm_cube_meets(sq->e[j].c, c) && rel_get(r, t, sq->e[j].dst))
                buf[k++] = sq->e[j].c;
        if (!tm_cubes_cover(buf, k, c, a->apmask))
            return false;
    }
    return true;
}

static int simulation(const tm_nba *a, rel *r)
{
    r->n = a->n;
    r->W = (a->n + 63) / 64;
    r->bits = calloc((size_t)a->n * r->W + 1, sizeof *r->bits);
    uint32_t maxdeg = 1;
    for (uint32_t q = 0; q < a->n; q++)
        if (a->s[q].n > maxdeg)
            maxdeg = a->s[q].n;
    tm_cube *buf = malloc(maxdeg * sizeof *buf);
    if (!r->bits || !buf) {
        free(buf);
        free(r->bits);
        return -1;
    }
    for (uint32_t p = 0; p < a->n; p++)
        for (uint32_t q = 0; q < a->n; q++)
            if (!a->s[p].acc || a->s[q].acc)
                r->bits[(size_t)p * r->W + q / 64] |= (word)1 << (q % 64);
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t p = 0; p < a->n; p++)
            for (uint32_t q = 0; q < a->n; q++)
                if (q != p && rel_get(r, p, q) && !matches(a, r, p, q, buf)) {
                    rel_clear(r, p, q);
                    changed = true;
                }
    }
    free(buf);
    return 0;
}

static bool cube_implies(tm_cube a, tm_cube b)
{
    return (b.mask & ~a.mask) == 0 && ((a.val ^ b.val) & b.mask) == 0;
}

/* Drops edges of state q to little brothers and exact duplicates. */
static void prune_state(tm_state *s, const rel *r)
{
    for (uint32_t i = 0; i < s->n;) {
        bool drop = false;
        for (uint32_t j = 0; j < s->n && !drop; j++) {
            if (j == i || !cube_implies(s->e[i].c, s->e[j].c))
                continue;
            uint32_t t1 = s->e[i].dst, t2 = s->e[j].dst;
            if (t1 == t2)
                /* same target, fewer letters: keep the larger; among equal
                 * cubes keep the first */
                drop = !cube_implies(s->e[j].c, s->e[i].c) || j < i;
            else
                drop = rel_get(r, t1, t2) && !rel_get(r, t2, t1);
        }
        if (drop)
            s->e[i] = s->e[--s->n];
        else
            i++;
    }
}

int tm_nba_simulation_quotient(tm_nba *a, u_err *err)
{
    if (a->n == 0 || a->n > SIM_MAX_STATES)
        return 0;
    rel r;
    if (simulation(a, &r) != 0)
        return u_oom(err);
    uint32_t *cls = malloc(((size_t)a->n + 1) * sizeof *cls);
    uint32_t *rep = malloc(((size_t)a->n + 1) * sizeof *rep);
    tm_nba b;
    tm_nba_init(&b, a->apmask);
    if (!cls || !rep)
        goto oom;
    uint32_t nc = 0;
    for (uint32_t p = 0; p < a->n; p++) {
        cls[p] = U_INVALID;
        for (uint32_t c = 0; c < nc; c++)
            if (rel_get(&r, p, rep[c]) && rel_get(&r, rep[c], p)) {
                cls[p] = c;
                break;
            }
        if (cls[p] == U_INVALID) {
            rep[nc] = p;
            cls[p] = nc++;
        }
    }
    for (uint32_t c = 0; c < nc; c++)
        if (tm_nba_add_state(&b, a->s[rep[c]].acc) == U_INVALID)
            goto oom;
    for (uint32_t p = 0; p < a->n; p++)
        for (uint32_t i = 0; i < a->s[p].n; i++)
            if (tm_nba_add_edge(&b, cls[p], cls[a->s[p].e[i].dst], a->s[p].e[i].c) != 0)
                goto oom;
    /* the relation on classes: that of their representatives */
    rel rc = {nc, (nc + 63) / 64, calloc((size_t)nc * ((nc + 63) / 64) + 1, sizeof(word))};
    if (!rc.bits)
        goto oom;
    for (uint32_t x = 0; x < nc; x++)
        for (uint32_t y = 0; y < nc; y++)
            if (rel_get(&r, rep[x], rep[y]))
                rc.bits[(size_t)x * rc.W + y / 64] |= (word)1 << (y % 64);
    for (uint32_t c = 0; c < nc; c++)
        prune_state(&b.s[c], &rc);
    for (uint32_t i = 0; i < a->ninit; i++) {
        uint32_t c = cls[a->init[i]];
        bool dominated = false;
        for (uint32_t j = 0; j < a->ninit && !dominated; j++) {
            uint32_t d = cls[a->init[j]];
            dominated = d != c && rel_get(&rc, c, d) && !rel_get(&rc, d, c);
        }
        if (!dominated && tm_nba_add_init(&b, c) != 0) {
            free(rc.bits);
            goto oom;
        }
    }
    free(rc.bits);
    free(r.bits), free(cls), free(rep);
    tm_nba_free(a);
    *a = b;
    return tm_nba_merge_edges(a, err);
oom:
    free(r.bits), free(cls), free(rep);
    tm_nba_free(&b);
    return u_oom(err);
}

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

/* Moore's refinement: block[q] for q <= n; returns the number of blocks. */
static long moore(uint32_t n, const uint32_t *succ, uint64_t L, const uint32_t *colour,
                  uint32_t *block)
{
    u_intern sig = {0};
    uint32_t *key = malloc(((size_t)L + 1) * sizeof *key);
    uint32_t *nb = malloc((size_t)n * sizeof *nb);
    if (!key || !nb)
        goto oom;
    for (uint32_t q = 0; q < n; q++)
        block[q] = colour[q] % 2;
    long count = -1;
    for (;;) {
        u_intern_free(&sig);
        memset(&sig, 0, sizeof sig);
        for (uint32_t q = 0; q < n; q++) {
            key[0] = block[q];
            for (uint64_t l = 0; l < L; l++)
                key[1 + l] = block[succ[(size_t)q * L + l]];
            bool fresh;
            nb[q] = u_intern_put(&sig, key, ((size_t)L + 1) * sizeof *key, &fresh);
            if (nb[q] == U_INVALID)
                goto oom;
        }
        long k = (long)sig.n;
        memcpy(block, nb, (size_t)n * sizeof *nb);
        if (k == count)
            break;
        count = k;
    }
    u_intern_free(&sig);
    free(key), free(nb);
    return count;
oom:
    u_intern_free(&sig);
    free(key), free(nb);
    return -1;
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
    for (long c = 0; c < nb; c++)
        if (tm_nba_add_state(&b, false) == U_INVALID)
            goto oom;
    for (uint32_t q = 0; q < n; q++) {
        b.s[block[q]].acc = colour[q] % 2 == 0;
        if (q > 0 && block[q] == block[q - 1])
            continue;
    }
    /* one representative per block gives the edges */
    bool *seen = calloc((size_t)nb + 1, sizeof *seen);
    if (!seen)
        goto oom;
    for (uint32_t q = 0; q < n; q++) {
        if (seen[block[q]])
            continue;
        seen[block[q]] = true;
        for (uint64_t l = 0; l < L; l++) {
            tm_cube c = {a->apmask, tm_spread(l, a->apmask)};
            if (tm_nba_add_edge(&b, block[q], block[succ[(size_t)q * L + l]], c) != 0) {
                free(seen);
                goto oom;
            }
        }
    }
    free(seen);
    if (tm_nba_add_init(&b, block[a->init[0]]) != 0)
        goto oom;
    free(succ), free(colour), free(block), free(accq);
    tm_nba_free(&normal);
    tm_nba_free(a);
    *a = b;
    *done = true;
    /* the sink's block (rejecting, no accepting cycle) goes */
    if (tm_nba_trim(a, err) != 0)
        return -1;
    return tm_nba_merge_edges(a, err);
oom:
    free(succ), free(colour), free(block), free(accq);
    tm_nba_free(&normal);
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
        if (tm_nba_simulation_quotient(a, err) != 0 || tm_nba_trim(a, err) != 0)
            return -1;
        if (a->n == before && tm_nba_edges(a) == ebefore)
            break;
    }
    return 0;
}
