/*
 * tm_tdba.c - deterministic automata with transition-based Buchi acceptance,
 * the breakpoint complementation's direct output (tm_complement.c).
 *
 * Acceptance on transitions is where the breakpoint construction naturally
 * puts it (a step that empties the owing set), and it lets the automaton be
 * reduced before it is turned into the state-based automaton users get: a
 * recurrence such as G F r0 needs one state with an accepting transition but
 * two with an accepting state.  Reduction, repeated while it shrinks, once
 * with each of two ways of moving acceptance (the smaller result is kept):
 *   - acceptance saturation: a transition on no rejecting cycle (a cycle of
 *     non-accepting transitions) becomes accepting, which keeps the language
 *     (a run using it infinitely often closes cycles through it, each with an
 *     accepting transition) and makes more states alike; or desaturation
 *     (below), which drops acceptance that other transitions already give;
 *   - Moore's partition refinement with each transition's acceptance as part
 *     of the signature (bisimulation);
 *   - the direct-simulation quotient (p <= q when every transition of p is
 *     matched by q's on the same letter, accepting if p's is, into a state
 *     simulating p's target), by a worklist over failed pairs.
 * Then (q, b) states, b = "entered by an accepting transition", make it
 * state-based: at most twice the states.
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

void tm_tdba_init(tm_tdba *d, uint64_t apmask)
{
    memset(d, 0, sizeof *d);
    d->apmask = apmask;
    d->L = (uint64_t)1 << tm_popcount(apmask);
    d->init = U_INVALID;
}

void tm_tdba_free(tm_tdba *d)
{
    free(d->succ), free(d->acc);
    uint64_t m = d->apmask;
    tm_tdba_init(d, m);
}

uint32_t tm_tdba_add_state(tm_tdba *d)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        uint32_t *s = realloc(d->succ, cap * d->L * sizeof *s);
        if (!s)
            return U_INVALID;
        d->succ = s;
        uint8_t *a = realloc(d->acc, cap * d->L * sizeof *a);
        if (!a)
            return U_INVALID;
        d->acc = a;
        d->cap = cap;
    }
    for (uint64_t l = 0; l < d->L; l++) {
        d->succ[(size_t)d->n * d->L + l] = U_INVALID;
        d->acc[(size_t)d->n * d->L + l] = 0;
    }
    return d->n++;
}

/* ---- saturation ---- */

static int saturate(tm_tdba *d)
{
    tm_nba g;
    tm_nba_init(&g, 0);
    tm_cube top = {0, 0};
    uint32_t *comp = malloc(((size_t)d->n + 1) * sizeof *comp);
    if (!comp)
        goto oom;
    for (uint32_t q = 0; q < d->n; q++)
        if (tm_nba_add_state(&g, false) == U_INVALID)
            goto oom;
    for (uint32_t q = 0; q < d->n; q++)
        for (uint64_t l = 0; l < d->L; l++) {
            size_t t = (size_t)q * d->L + l;
            if (d->succ[t] != U_INVALID && !d->acc[t] && tm_nba_add_edge(&g, q, d->succ[t], top))
                goto oom;
        }
    if (tm_nba_scc(&g, comp) < 0)
        goto oom;
    for (uint32_t q = 0; q < d->n; q++)
        for (uint64_t l = 0; l < d->L; l++) {
            size_t t = (size_t)q * d->L + l;
            if (d->succ[t] != U_INVALID && comp[d->succ[t]] != comp[q])
                d->acc[t] = 1;
        }
    free(comp);
    tm_nba_free(&g);
    return 0;
oom:
    free(comp);
    tm_nba_free(&g);
    return -1;
}

/* ---- merging classes ---- */

/* Replaces d by its quotient under block[] (nb blocks, every member of a
 * block has equivalent transitions: the first member's are taken). */
static int collapse(tm_tdba *d, const uint32_t *block, uint32_t nb)
{
    tm_tdba e;
    tm_tdba_init(&e, d->apmask);
    for (uint32_t b = 0; b < nb; b++)
        if (tm_tdba_add_state(&e) == U_INVALID)
            goto oom;
    bool *done = calloc((size_t)nb + 1, sizeof *done);
    if (!done)
        goto oom;
    for (uint32_t q = 0; q < d->n; q++) {
        uint32_t b = block[q];
        for (uint64_t l = 0; l < d->L; l++) {
            size_t t = (size_t)q * d->L + l, u = (size_t)b * d->L + l;
            if (d->succ[t] == U_INVALID)
                continue;
            if (!done[b] || e.succ[u] == U_INVALID)
                e.succ[u] = block[d->succ[t]];
            e.acc[u] |= d->acc[t];
        }
        done[b] = true;
    }
    free(done);
    e.init = d->init == U_INVALID ? U_INVALID : block[d->init];
    tm_tdba_free(d);
    *d = e;
    return 0;
oom:
    tm_tdba_free(&e);
    return -1;
}

/* ---- Moore ---- */

/* A state's signature: per letter, the target's block (U_INVALID where there is
 * none) and whether the transition accepts. */
static void tdba_sig(const void *ctx, uint32_t q, const uint32_t *block, uint32_t *key)
{
    const tm_tdba *d = ctx;
    for (uint64_t l = 0; l < d->L; l++) {
        size_t t = (size_t)q * d->L + l;
        key[2 * l] = d->succ[t] == U_INVALID ? U_INVALID : block[d->succ[t]];
        key[2 * l + 1] = d->acc[t];
    }
}

static long moore(const tm_tdba *d, uint32_t *block)
{
    for (uint32_t q = 0; q < d->n; q++)
        block[q] = 0;
    return tm_moore(d->n, 1 + 2 * (size_t)d->L, tdba_sig, d, block);
}

/* ---- direct simulation ---- */

#define TDBA_SIM_MAX 4000

/* Classes of mutual direct simulation into block[]; their number, -1 on out
 * of memory, 0 when skipped (too large). */
static long simulation_classes(const tm_tdba *d, uint32_t *block)
{
    uint32_t n = d->n;
    if (n > TDBA_SIM_MAX)
        return 0;
    size_t W = (n + 63) / 64;
    uint64_t *R = malloc(((size_t)n * W + 1) * sizeof *R);
    size_t *poff = calloc((size_t)n * d->L + 2, sizeof *poff);
    uint32_t *pv = NULL;
    uint64_t *stack = NULL;
    size_t sp = 0, cap = 0;
    long nc = -1;
    if (!R || !poff)
        goto done;
    /* predecessors per (state, letter), CSR */
    size_t cells = (size_t)n * d->L;
    for (size_t t = 0; t < cells; t++)
        if (d->succ[t] != U_INVALID)
            poff[(size_t)d->succ[t] * d->L + t % d->L + 1]++;
    for (size_t c = 0; c < cells; c++)
        poff[c + 1] += poff[c];
    pv = malloc((poff[cells] + 1) * sizeof *pv);
    if (!pv)
        goto done;
    for (size_t t = 0; t < cells; t++)
        if (d->succ[t] != U_INVALID)
            pv[poff[(size_t)d->succ[t] * d->L + t % d->L]++] = (uint32_t)(t / d->L);
    for (size_t c = cells; c > 0; c--)
        poff[c] = poff[c - 1];
    poff[0] = 0;
    /* pairs failing locally, then propagation to predecessor pairs */
    for (uint32_t p = 0; p < n; p++)
        for (uint32_t q = 0; q < n; q++) {
            bool fails = false;
            for (uint64_t l = 0; l < d->L && !fails; l++) {
                size_t tp = (size_t)p * d->L + l, tq = (size_t)q * d->L + l;
                fails = d->succ[tp] != U_INVALID &&
                        (d->succ[tq] == U_INVALID || (d->acc[tp] && !d->acc[tq]));
            }
            uint64_t bit = (uint64_t)1 << (q % 64);
            if (!fails) {
                R[(size_t)p * W + q / 64] |= bit;
                continue;
            }
            R[(size_t)p * W + q / 64] &= ~bit;
            if (sp == cap && U_GROW(stack, cap, sp) != 0)
                goto done;
            stack[sp++] = (uint64_t)p << 32 | q;
        }
    while (sp > 0) {
        uint64_t x = stack[--sp];
        uint32_t p2 = (uint32_t)(x >> 32), q2 = (uint32_t)x;
        for (uint64_t l = 0; l < d->L; l++) {
            size_t cp = (size_t)p2 * d->L + l, cq = (size_t)q2 * d->L + l;
            for (size_t i = poff[cp]; i < poff[cp + 1]; i++)
                for (size_t j = poff[cq]; j < poff[cq + 1]; j++) {
                    uint32_t p = pv[i], q = pv[j];
                    uint64_t *w = &R[(size_t)p * W + q / 64], bit = (uint64_t)1 << (q % 64);
                    if (!(*w & bit))
                        continue;
                    *w &= ~bit;
                    if (sp == cap && U_GROW(stack, cap, sp) != 0)
                        goto done;
                    stack[sp++] = (uint64_t)p << 32 | q;
                }
        }
    }
    /* classes: mutual simulation */
    nc = 0;
    for (uint32_t p = 0; p < n; p++) {
        block[p] = U_INVALID;
        for (uint32_t q = 0; q < p && block[p] == U_INVALID; q++)
            if ((R[(size_t)p * W + q / 64] >> (q % 64) & 1) &&
                (R[(size_t)q * W + p / 64] >> (p % 64) & 1))
                block[p] = block[q];
        if (block[p] == U_INVALID)
            block[p] = (uint32_t)nc++;
    }
done:
    free(R), free(poff), free(pv), free(stack);
    return nc;
}

/* ---- desaturation ---- */

#define DESATURATE_MAX 600

/* Whether target reaches source by non-accepting transitions only (BFS). */
static bool rejecting_path(const tm_tdba *d, uint32_t from, uint32_t to, uint32_t *queue,
                           uint8_t *seen)
{
    memset(seen, 0, d->n);
    uint32_t head = 0, tail = 0;
    queue[tail++] = from;
    seen[from] = 1;
    while (head < tail) {
        uint32_t q = queue[head++];
        if (q == to)
            return true;
        for (uint64_t l = 0; l < d->L; l++) {
            size_t t = (size_t)q * d->L + l;
            uint32_t x = d->succ[t];
            if (x != U_INVALID && !d->acc[t] && !seen[x]) {
                seen[x] = 1;
                queue[tail++] = x;
            }
        }
    }
    return false;
}

/* The opposite of saturation: an accepting transition every cycle through
 * which has another accepting transition becomes non-accepting (the cycles
 * the run can close stay accepting).  One at a time, since each removal
 * changes the others' cycles.  G F r0's breakpoint automaton has an accepting
 * transition into the state that waits for r0 whose acceptance is redundant;
 * without it the two states are bisimilar. */
static int desaturate(tm_tdba *d)
{
    if (d->n > DESATURATE_MAX)
        return 0;
    uint32_t *queue = malloc(((size_t)d->n + 1) * sizeof *queue);
    uint8_t *seen = malloc((size_t)d->n + 1);
    if (!queue || !seen) {
        free(queue), free(seen);
        return -1;
    }
    for (uint32_t q = 0; q < d->n; q++)
        for (uint64_t l = 0; l < d->L; l++) {
            size_t t = (size_t)q * d->L + l;
            if (d->succ[t] == U_INVALID || !d->acc[t])
                continue;
            d->acc[t] = 0;
            if (rejecting_path(d, d->succ[t], q, queue, seen))
                d->acc[t] = 1; /* it closes a cycle no other acceptance covers */
        }
    free(queue), free(seen);
    return 0;
}

static int copy_tdba(tm_tdba *dst, const tm_tdba *src)
{
    tm_tdba_init(dst, src->apmask);
    for (uint32_t q = 0; q < src->n; q++)
        if (tm_tdba_add_state(dst) == U_INVALID) {
            tm_tdba_free(dst);
            return -1;
        }
    memcpy(dst->succ, src->succ, (size_t)src->n * src->L * sizeof *dst->succ);
    memcpy(dst->acc, src->acc, (size_t)src->n * src->L * sizeof *dst->acc);
    dst->init = src->init;
    return 0;
}

/* Rounds of (de)saturation, Moore and simulation while d shrinks. */
static int reduce_with(tm_tdba *d, bool desat)
{
    uint32_t *block = malloc(((size_t)d->n + 1) * sizeof *block);
    if (!block)
        return -1;
    for (int round = 0; round < 8 && d->n > 1; round++) {
        uint32_t before = d->n;
        if ((desat ? desaturate(d) : saturate(d)) != 0)
            goto oom;
        long nb = moore(d, block);
        if (nb < 0 || (nb < (long)d->n && collapse(d, block, (uint32_t)nb) != 0))
            goto oom;
        nb = simulation_classes(d, block);
        if (nb < 0 || (nb > 0 && nb < (long)d->n && collapse(d, block, (uint32_t)nb) != 0))
            goto oom;
        if (d->n == before)
            break;
    }
    free(block);
    return 0;
oom:
    free(block);
    return -1;
}

/* Both ways, keeping the smaller automaton: neither choice of acceptance
 * merges more states in general. */
int tm_tdba_reduce(tm_tdba *d, u_err *err)
{
    tm_tdba other;
    if (copy_tdba(&other, d) != 0)
        return u_oom(err);
    if (reduce_with(d, false) != 0 || reduce_with(&other, true) != 0) {
        tm_tdba_free(&other);
        return u_oom(err);
    }
    if (other.n < d->n) {
        tm_tdba_free(d);
        *d = other;
    } else {
        tm_tdba_free(&other);
    }
    return 0;
}

int tm_tdba_to_nba(const tm_tdba *d, tm_nba *out, u_err *err)
{
    tm_nba_init(out, d->apmask);
    if (d->init == U_INVALID)
        return 0;
    /* state (q, b) has id ids[q * 2 + b] once reached */
    uint32_t *ids = malloc(((size_t)d->n * 2 + 1) * sizeof *ids);
    uint32_t *qs = malloc(((size_t)d->n * 2 + 1) * sizeof *qs);
    if (!ids || !qs)
        goto oom;
    for (size_t i = 0; i < (size_t)d->n * 2; i++)
        ids[i] = U_INVALID;
    ids[(size_t)d->init * 2] = tm_nba_add_state(out, false);
    qs[0] = d->init * 2;
    if (ids[(size_t)d->init * 2] == U_INVALID || tm_nba_add_init(out, 0) != 0)
        goto oom;
    for (uint32_t k = 0; k < out->n; k++) {
        uint32_t q = qs[k] / 2;
        for (uint64_t l = 0; l < d->L; l++) {
            size_t t = (size_t)q * d->L + l;
            if (d->succ[t] == U_INVALID)
                continue;
            size_t x = (size_t)d->succ[t] * 2 + d->acc[t];
            if (ids[x] == U_INVALID) {
                ids[x] = tm_nba_add_state(out, d->acc[t]);
                if (ids[x] == U_INVALID)
                    goto oom;
                qs[ids[x]] = (uint32_t)x;
            }
            tm_cube c = {d->apmask, tm_spread(l, d->apmask)};
            if (tm_nba_add_edge(out, k, ids[x], c) != 0)
                goto oom;
        }
    }
    free(ids), free(qs);
    return tm_nba_merge_edges(out, err);
oom:
    free(ids), free(qs);
    tm_nba_free(out);
    return u_oom(err);
}
