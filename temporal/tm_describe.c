/*
 * tm_describe.c - a readable description of a cause: an LTL formula over the
 * inputs whose language is proved equal to the cause automaton's (the paper's
 * Table 1 gives such descriptions, guessed by hand).  Printed only when that
 * proof succeeds; the search is bounded and may find nothing.
 *
 * Candidates, smallest first:
 *   1. every formula over the input literals, true and false, with ! X F G &
 *      | U, built bottom-up by size (tm_ltl_size) up to max_size;
 *   2. conjunctions of "timed literals" X^k l that agree with the actual
 *      trace pi (causes such as Fig. 4's "!i0 & X(!i0 & !i2 & X i0)"), over
 *      the first positions of pi, fewest literals first, written with the X
 *      factored out.
 * A cheap filter runs first: every candidate is evaluated on a fixed set of
 * sample lassos (all short ones, pi and its variants with one or two inputs
 * changed, a few random longer ones) as one bit vector over all positions of
 * all samples, so X, F, G and U are computed per sample from their operands'
 * vectors.  Candidates with a vector seen before are equivalent on the samples
 * and dropped (the usual observational-equivalence pruning); a candidate whose
 * values at the samples' first positions match the cause's membership gets the
 * proof: L(f) & closure empty (f within the cause) and L(!f) & cause empty
 * (the cause within f).
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

typedef uint64_t word;

/* The samples and their positions.  Invariant: sample k's positions are
 * off[k] .. off[k] + len[k] - 1 in every vector; its lasso loops back to
 * off[k] + npre[k]. */
typedef struct {
    tm_lasso *w;
    size_t n, cap;
    size_t *off;
    size_t P, W;  /* positions, words per vector */
    word *target; /* the cause's membership per sample (bit k) */
} samples;

static int add_sample(samples *s, const uint64_t *pre, size_t npre, const uint64_t *cyc,
                      size_t ncyc)
{
    if (s->n == s->cap && U_GROW(s->w, s->cap, s->n) != 0)
        return -1;
    tm_lasso *w = &s->w[s->n];
    w->pre = malloc((npre + 1) * sizeof *w->pre);
    w->cyc = malloc((ncyc + 1) * sizeof *w->cyc);
    if (!w->pre || !w->cyc) {
        free(w->pre), free(w->cyc);
        return -1;
    }
    memcpy(w->pre, pre, npre * sizeof *pre);
    memcpy(w->cyc, cyc, ncyc * sizeof *cyc);
    w->npre = npre;
    w->ncyc = ncyc;
    s->n++;
    return 0;
}

static void free_samples(samples *s)
{
    for (size_t i = 0; i < s->n; i++)
        tm_lasso_free(&s->w[i]);
    free(s->w), free(s->off), free(s->target);
}

/* All lassos with prefix + cycle <= maxlen over the letters of I. */
static int short_lassos(samples *s, uint64_t I, int maxlen)
{
    uint64_t L = (uint64_t)1 << tm_popcount(I);
    uint64_t letters[8];
    for (int len = 1; len <= maxlen; len++) {
        uint64_t total = 1;
        for (int i = 0; i < len; i++)
            total *= L;
        for (uint64_t code = 0; code < total; code++) {
            uint64_t c = code;
            for (int i = 0; i < len; i++) {
                letters[i] = tm_spread(c % L, I);
                c /= L;
            }
            for (int npre = 0; npre < len; npre++)
                if (add_sample(s, letters, (size_t)npre, letters + npre, (size_t)(len - npre)) != 0)
                    return -1;
        }
    }
    return 0;
}

/* pi unrolled to `unroll` cycles, with the changes (position, input) in
 * flips applied. */
static int pi_variant(samples *s, const tm_lasso *pi, size_t unroll, const size_t *flip_pos,
                      const uint64_t *flip_bit, int nflips)
{
    size_t npre = pi->npre + pi->ncyc * unroll;
    uint64_t *pre = malloc((npre + 1) * sizeof *pre);
    if (!pre)
        return -1;
    for (size_t i = 0; i < npre; i++)
        pre[i] = i < pi->npre ? pi->pre[i] : pi->cyc[(i - pi->npre) % pi->ncyc];
    for (int f = 0; f < nflips; f++)
        if (flip_pos[f] < npre)
            pre[flip_pos[f]] ^= flip_bit[f];
    int r = add_sample(s, pre, npre, pi->cyc, pi->ncyc);
    free(pre);
    return r;
}

static int make_samples(samples *s, const tm_lasso *pi, uint64_t I)
{
    int k = tm_popcount(I);
    int maxlen = k <= 1 ? 5 : k == 2 ? 3 : 2;
    if (short_lassos(s, I, maxlen) != 0)
        return -1;
    /* pi with up to two changes in its first positions, and with a cycle
     * letter changed forever */
    size_t span = pi->npre + 2 * pi->ncyc;
    if (span > 8)
        span = 8;
    if (pi_variant(s, pi, 2, NULL, NULL, 0) != 0)
        return -1;
    for (size_t p1 = 0; p1 < span; p1++)
        for (uint64_t m1 = I; m1; m1 &= m1 - 1) {
            size_t pos[2] = {p1, 0};
            uint64_t bit[2] = {m1 & -m1, 0};
            if (pi_variant(s, pi, 2, pos, bit, 1) != 0)
                return -1;
            for (size_t p2 = p1; p2 < span && s->n < 4000; p2++)
                for (uint64_t m2 = I; m2; m2 &= m2 - 1) {
                    if (p2 == p1 && (m2 & -m2) <= bit[0])
                        continue;
                    pos[1] = p2;
                    bit[1] = m2 & -m2;
                    if (pi_variant(s, pi, 2, pos, bit, 2) != 0)
                        return -1;
                }
        }
    for (size_t c = 0; c < pi->ncyc; c++)
        for (uint64_t m1 = I; m1; m1 &= m1 - 1) {
            uint64_t *cyc = malloc(pi->ncyc * sizeof *cyc);
            if (!cyc)
                return -1;
            memcpy(cyc, pi->cyc, pi->ncyc * sizeof *cyc);
            cyc[c] ^= m1 & -m1;
            int r = add_sample(s, pi->pre, pi->npre, cyc, pi->ncyc);
            free(cyc);
            if (r != 0)
                return -1;
        }
    /* random longer lassos, fixed seed */
    uint64_t seed = 0x2545F4914F6CDD1DULL;
    uint64_t pre[6], cyc[4];
    for (int r = 0; r < 64; r++) {
        size_t np = 0, nc = 0;
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        np = seed % 6;
        nc = 1 + (seed >> 8) % 4;
        for (size_t i = 0; i < np + nc; i++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            uint64_t v = tm_spread(seed % ((uint64_t)1 << k), I);
            if (i < np)
                pre[i] = v;
            else
                cyc[i - np] = v;
        }
        if (add_sample(s, pre, np, cyc, nc) != 0)
            return -1;
    }
    s->off = malloc((s->n + 1) * sizeof *s->off);
    if (!s->off)
        return -1;
    s->P = 0;
    for (size_t i = 0; i < s->n; i++) {
        s->off[i] = s->P;
        s->P += s->w[i].npre + s->w[i].ncyc;
    }
    s->W = (s->P + 63) / 64;
    return 0;
}

/* ---- vectors ---- */

static bool bit(const word *v, size_t p)
{
    return v[p / 64] >> (p % 64) & 1;
}

static void set(word *v, size_t p, bool b)
{
    if (b)
        v[p / 64] |= (word)1 << (p % 64);
    else
        v[p / 64] &= ~((word)1 << (p % 64));
}

typedef enum { V_NOT, V_AND, V_OR, V_X, V_F, V_G, V_U } vop;

/* out = op(a, b) on every sample. */
static void apply(const samples *s, vop op, const word *a, const word *b, word *out)
{
    size_t W = s->W;
    switch (op) {
    case V_NOT:
        for (size_t i = 0; i < W; i++)
            out[i] = ~a[i];
        if (s->P % 64)
            out[W - 1] &= ((word)1 << (s->P % 64)) - 1;
        return;
    case V_AND:
        for (size_t i = 0; i < W; i++)
            out[i] = a[i] & b[i];
        return;
    case V_OR:
        for (size_t i = 0; i < W; i++)
            out[i] = a[i] | b[i];
        return;
    default:
        break;
    }
    memset(out, 0, W * sizeof *out);
    for (size_t k = 0; k < s->n; k++) {
        size_t o = s->off[k], np = s->w[k].npre, N = np + s->w[k].ncyc;
        if (op == V_X) {
            for (size_t j = 0; j < N; j++)
                set(out, o + j, bit(a, o + (j + 1 < N ? j + 1 : np)));
            continue;
        }
        /* F, G, U: fixpoints; two backward passes around the lasso suffice
         * (the second carries the cycle's value once around) */
        for (size_t j = 0; j < N; j++)
            set(out, o + j, op == V_G);
        for (int round = 0; round < 2; round++)
            for (size_t j = N; j-- > 0;) {
                bool nx = bit(out, o + (j + 1 < N ? j + 1 : np)), v;
                if (op == V_F)
                    v = bit(a, o + j) || nx;
                else if (op == V_G)
                    v = bit(a, o + j) && nx;
                else
                    v = bit(b, o + j) || (bit(a, o + j) && nx);
                set(out, o + j, v);
            }
    }
}

/* ---- the search ---- */

/* Candidates by size.  Invariant: pool entry i has formula f[i], size sz[i],
 * vector vec + i * W; by_size[s] lists the entries of size s. */
typedef struct {
    const samples *s;
    int *f, *sz;
    word *vec;
    size_t n, cap;
    u_intern seen; /* vectors */
    size_t maxpool;
} pool;

static int pool_add(pool *p, int f, int size, const word *v, bool *added)
{
    *added = false;
    bool fresh;
    if (p->n >= p->maxpool)
        return 0;
    if (u_intern_put(&p->seen, v, p->s->W * sizeof *v, &fresh) == U_INVALID)
        return -1;
    if (!fresh)
        return 0;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 256;
        int *f2 = realloc(p->f, cap * sizeof *f2);
        if (!f2)
            return -1;
        p->f = f2;
        int *s2 = realloc(p->sz, cap * sizeof *s2);
        if (!s2)
            return -1;
        p->sz = s2;
        word *v2 = realloc(p->vec, cap * p->s->W * sizeof *v2);
        if (!v2)
            return -1;
        p->vec = v2;
        p->cap = cap;
    }
    p->f[p->n] = f;
    p->sz[p->n] = size;
    memcpy(p->vec + p->n * p->s->W, v, p->s->W * sizeof *v);
    p->n++;
    *added = true;
    return 0;
}

/* The search's context. */
typedef struct {
    const tm_result *r;
    const tm_system *sys;
    tm_ltl *l;
    samples s;
    pool p;
    uint32_t tries, max_tries, budget;
    int found;
    u_err *err;
} search;

/* Whether v's first positions agree with the cause on every sample. */
static bool matches_target(const search *x, const word *v)
{
    for (size_t k = 0; k < x->s.n; k++)
        if (bit(v, x->s.off[k]) != bit(x->s.target, k))
            return false;
    return true;
}

/* The proof: 1 equivalent, 0 not, -1 error. */
static int prove(search *x, int f)
{
    if (x->tries >= x->max_tries)
        return 0;
    x->tries++;
    uint64_t I = x->sys->inputs;
    tm_nba a, na;
    int nf = tm_ltl_mk(x->l, TM_L_NOT, f, -1, -1);
    if (nf < 0)
        return u_oom(x->err);
    if (tm_ltl_to_nba(x->l, f, I, x->budget, &a, x->err) != 0)
        return -1;
    if (tm_ltl_to_nba(x->l, nf, I, x->budget, &na, x->err) != 0) {
        tm_nba_free(&a);
        return -1;
    }
    int in1 = tm_nba_included_cb(&a, &x->r->closure, x->budget, NULL, x->err);
    int in2 = in1 == 1 ? tm_nba_included_cb(&x->r->cause, &na, x->budget, NULL, x->err) : 0;
    tm_nba_free(&a), tm_nba_free(&na);
    if (in1 < 0 || in2 < 0)
        return -1;
    return in1 == 1 && in2 == 1;
}

/* Adds candidate f of the given size with vector v; proves it when it matches
 * the samples.  Sets x->found. */
static int consider(search *x, int f, int size, const word *v)
{
    bool added;
    if (f < 0)
        return u_oom(x->err);
    if (pool_add(&x->p, f, size, v, &added) != 0)
        return u_oom(x->err);
    if (!added || !matches_target(x, v))
        return 0;
    int r = prove(x, f);
    if (r < 0)
        return -1;
    if (r == 1)
        x->found = f;
    return 0;
}

/* Family 1: bottom-up by size. */
static int enumerate(search *x, int max_size)
{
    tm_ltl *l = x->l;
    uint64_t I = x->sys->inputs;
    size_t W = x->s.W;
    word *v = malloc(W * sizeof *v);
    if (!v)
        return u_oom(x->err);
    /* size 1: true, false, the inputs */
    memset(v, 0, W * sizeof *v);
    if (consider(x, tm_ltl_mk(l, TM_L_FALSE, -1, -1, -1), 1, v) != 0)
        goto fail;
    apply(&x->s, V_NOT, v, NULL, v);
    if (x->found < 0 && consider(x, tm_ltl_mk(l, TM_L_TRUE, -1, -1, -1), 1, v) != 0)
        goto fail;
    for (uint64_t m = I; m && x->found < 0; m &= m - 1) {
        int ap = __builtin_ctzll(m);
        memset(v, 0, W * sizeof *v);
        for (size_t k = 0; k < x->s.n; k++) {
            const tm_lasso *w = &x->s.w[k];
            for (size_t j = 0; j < w->npre + w->ncyc; j++) {
                uint64_t letter = j < w->npre ? w->pre[j] : w->cyc[j - w->npre];
                set(v, x->s.off[k] + j, letter >> ap & 1);
            }
        }
        if (consider(x, tm_ltl_mk(l, TM_L_AP, -1, -1, ap), 1, v) != 0)
            goto fail;
    }
    static const struct {
        vop v;
        tm_lop l;
    } un[] = {{V_NOT, TM_L_NOT}, {V_X, TM_L_X}, {V_F, TM_L_F}, {V_G, TM_L_G}},
      bin[] = {{V_AND, TM_L_AND}, {V_OR, TM_L_OR}, {V_U, TM_L_U}};
    for (int size = 2; size <= max_size && x->found < 0; size++) {
        size_t n = x->p.n; /* only entries of smaller sizes combine */
        for (size_t i = 0; i < n && x->found < 0; i++) {
            if (x->p.sz[i] != size - 1)
                continue;
            for (size_t u = 0; u < 4 && x->found < 0; u++) {
                apply(&x->s, un[u].v, x->p.vec + i * W, NULL, v);
                int f = tm_ltl_mk(l, un[u].l, x->p.f[i], -1, -1);
                if (consider(x, f, size, v) != 0)
                    goto fail;
            }
        }
        for (size_t i = 0; i < n && x->found < 0; i++)
            for (size_t j = 0; j < n && x->found < 0; j++) {
                if (x->p.sz[i] + x->p.sz[j] != size - 1)
                    continue;
                for (size_t b = 0; b < 3 && x->found < 0; b++) {
                    if (b < 2 && j <= i) /* & and | commute */
                        continue;
                    apply(&x->s, bin[b].v, x->p.vec + i * W, x->p.vec + j * W, v);
                    int f = tm_ltl_mk(l, bin[b].l, x->p.f[i], x->p.f[j], -1);
                    if (consider(x, f, size, v) != 0)
                        goto fail;
                }
            }
    }
    free(v);
    return 0;
fail:
    free(v);
    return -1;
}

/* The formula for the timed literals chosen by mask over (position, input)
 * pairs of pi: conj(L0) & X(conj(L1) & X(...)). */
static int timed_formula(search *x, const tm_lasso *pi, uint64_t chosen, int depth, int ninputs,
                         const int *inputs)
{
    tm_ltl *l = x->l;
    int f = -1;
    for (int d = depth - 1; d >= 0; d--) {
        uint64_t letter = (size_t)d < pi->npre ? pi->pre[d] : pi->cyc[(d - pi->npre) % pi->ncyc];
        int conj = -1;
        for (int i = ninputs - 1; i >= 0; i--) {
            if (!(chosen >> (d * ninputs + i) & 1))
                continue;
            int a = tm_ltl_mk(l, TM_L_AP, -1, -1, inputs[i]);
            if (a >= 0 && !(letter >> inputs[i] & 1))
                a = tm_ltl_mk(l, TM_L_NOT, a, -1, -1);
            conj = conj < 0 ? a : tm_ltl_mk(l, TM_L_AND, a, conj, -1);
            if (conj < 0)
                return -1;
        }
        if (f >= 0) {
            int xf = tm_ltl_mk(l, TM_L_X, f, -1, -1);
            f = conj < 0 ? xf : tm_ltl_mk(l, TM_L_AND, conj, xf, -1);
        } else {
            f = conj;
        }
    }
    return f < 0 ? tm_ltl_mk(l, TM_L_TRUE, -1, -1, -1) : f;
}

/* Family 2: conjunctions of pi's timed literals over its first `depth`
 * positions, by number of literals. */
static int timed(search *x, const tm_lasso *pi, int max_literals)
{
    int inputs[TM_MAX_INPUTS], ni = 0;
    for (uint64_t m = x->sys->inputs; m; m &= m - 1)
        inputs[ni++] = __builtin_ctzll(m);
    int depth = (int)(pi->npre + pi->ncyc);
    if (depth * ni > 20)
        depth = 20 / (ni ? ni : 1);
    int nbits = depth * ni;
    if (nbits <= 0)
        return 0;
    size_t W = x->s.W;
    word *lit = calloc((size_t)nbits * W + 1, sizeof *lit), *v = malloc(W * sizeof *v);
    word *tmp = malloc(W * sizeof *tmp);
    if (!lit || !v || !tmp) {
        free(lit), free(v), free(tmp);
        return u_oom(x->err);
    }
    /* the vector of each timed literal X^d l */
    for (int d = 0; d < depth; d++)
        for (int i = 0; i < ni; i++) {
            word *t = lit + (size_t)(d * ni + i) * W;
            uint64_t letter =
                (size_t)d < pi->npre ? pi->pre[d] : pi->cyc[(d - pi->npre) % pi->ncyc];
            bool want = letter >> inputs[i] & 1;
            for (size_t k = 0; k < x->s.n; k++) {
                const tm_lasso *w = &x->s.w[k];
                for (size_t j = 0; j < w->npre + w->ncyc; j++) {
                    uint64_t a = j < w->npre ? w->pre[j] : w->cyc[j - w->npre];
                    set(t, x->s.off[k] + j, (bool)(a >> inputs[i] & 1) == want);
                }
            }
            for (int s = 0; s < d; s++) {
                apply(&x->s, V_X, t, NULL, tmp);
                memcpy(t, tmp, W * sizeof *t);
            }
        }
    for (int count = 1; count <= max_literals && count <= nbits && x->found < 0; count++) {
        /* subsets of nbits bits with `count` bits, in increasing order */
        uint64_t m = ((uint64_t)1 << count) - 1, limit = (uint64_t)1 << nbits;
        while (m < limit && x->found < 0) {
            for (size_t i = 0; i < W; i++)
                v[i] = ~(word)0;
            for (uint64_t b = m; b; b &= b - 1) {
                const word *t = lit + (size_t)__builtin_ctzll(b) * W;
                for (size_t i = 0; i < W; i++)
                    v[i] &= t[i];
            }
            if (matches_target(x, v)) {
                int f = timed_formula(x, pi, m, depth, ni, inputs);
                if (f < 0) {
                    free(lit), free(v), free(tmp);
                    return u_oom(x->err);
                }
                int r = prove(x, f);
                if (r < 0) {
                    free(lit), free(v), free(tmp);
                    return -1;
                }
                if (r == 1)
                    x->found = f;
            }
            /* next subset with the same number of bits (Gosper's hack) */
            uint64_t c = m & -m, rr = m + c;
            m = (((rr ^ m) >> 2) / c) | rr;
        }
    }
    free(lit), free(v), free(tmp);
    return 0;
}

int tm_describe(const tm_result *r, const tm_system *sys, const tm_lasso *pi, tm_ltl *l,
                int max_size, uint32_t max_tries, uint32_t budget, u_err *err)
{
    search x;
    memset(&x, 0, sizeof x);
    x.r = r;
    x.sys = sys;
    x.l = l;
    x.max_tries = max_tries;
    x.budget = budget;
    x.found = -1;
    x.err = err;
    x.p.s = &x.s;
    x.p.maxpool = 20000;
    int rc = -2;
    if (make_samples(&x.s, pi, sys->inputs) != 0) {
        u_oom(err);
        goto done;
    }
    x.s.target = calloc(x.s.n / 64 + 1, sizeof *x.s.target);
    if (!x.s.target) {
        u_oom(err);
        goto done;
    }
    for (size_t k = 0; k < x.s.n; k++) {
        int a = tm_nba_accepts(&r->cause, &x.s.w[k], err);
        if (a < 0)
            goto done;
        set(x.s.target, k, a == 1);
    }
    if (enumerate(&x, max_size) != 0)
        goto done;
    if (x.found < 0 && timed(&x, pi, 8) != 0)
        goto done;
    rc = x.found;
done:
    free_samples(&x.s);
    free(x.p.f), free(x.p.sz), free(x.p.vec);
    u_intern_free(&x.p.seen);
    return rc;
}
