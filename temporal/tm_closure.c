/*
 * tm_closure.c - the upward closure of the negated effect (paper, section 5):
 * the input sequences rho for which some sigma' <=_pi rho has a system run
 * violating the effect.  Its complement is the cause (Lemmas 2-4).
 *
 * Built directly as one Buchi automaton over the inputs, with the actual trace
 * fixed first (the paper complements before taking the product with pi; since
 * pi is a lasso known in advance, its position is a deterministic component
 * here, which keeps the complemented automaton small).  A state is
 *     (K, phase, pos, s, q)
 * pos the position in pi's lasso, s the system state, q the state of the
 * automaton for not E; K and phase only for the `full` relation.  Reading
 * rho(t), it chooses sigma'(t) among the letters the relation allows at that
 * position, a system edge enabled by sigma'(t) and an edge of not E on the same
 * letter (inputs sigma'(t), the system edge's outputs).
 *
 *   subset (Example 1): sigma' <= rho iff the changes of sigma' w.r.t. pi are a
 *     subset of rho's; letters being Boolean, sigma'(t) agrees with pi(t) where
 *     rho(t) does and is pi(t) or rho(t) on each input where they differ.
 *   full (Beutner et al.): subset, and every input on which sigma' differs from
 *     pi infinitely often is copied from rho everywhere.  K, guessed at the
 *     start, is the set of inputs sigma' copies from rho; the others are free
 *     (pi or rho) until a guessed switch (phase 0 -> 1) and equal pi after it.
 *     One common switch point suffices (take the latest), so this is exact;
 *     accepting states need phase 1.  Choosing K = all inputs needs no switch.
 *
 * Edges carry explicit input letters and are merged into cubes at the end.
 * The parts for different K share no state, so each is built and reduced
 * (tm_nba_reduce) on its own before their union is reduced: reductions are
 * quadratic, and 2^|I| parts of n states are much cheaper than one of
 * 2^|I| n.
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t K, phase, pos, s, q;
} cstate;

/* The construction.  Invariant: state id k of out is st[k], interned in ids. */
typedef struct {
    const tm_problem *p;
    tm_nba *out;
    u_intern ids;
    uint32_t budget;
    u_err *err;
} builder;

static uint32_t get(builder *b, cstate c)
{
    bool fresh;
    uint32_t id = u_intern_put(&b->ids, &c, sizeof c, &fresh);
    if (id == U_INVALID) {
        u_oom(b->err);
        return U_INVALID;
    }
    if (!fresh)
        return id;
    if (id >= b->budget) {
        u_errf(b->err, "the upward closure of the negated effect exceeds %u states", b->budget);
        return U_INVALID;
    }
    bool acc = b->p->neffect.s[c.q].acc && c.phase == 1;
    if (tm_nba_add_state(b->out, acc) != id) {
        u_oom(b->err);
        return U_INVALID;
    }
    return id;
}

/* An edge found for the state being expanded: target and letter index. */
typedef struct {
    uint32_t dst;
    uint32_t l;
} found;

static int cmp_found(const void *x, const void *y)
{
    const found *a = x, *b = y;
    if (a->dst != b->dst)
        return a->dst < b->dst ? -1 : 1;
    return a->l < b->l ? -1 : a->l > b->l;
}

/* Every successor of c on the input letter rho (index l) into *f. */
static int successors(builder *b, cstate c, uint32_t l, uint64_t rho, found **f, size_t *nf,
                      size_t *cap)
{
    const tm_problem *p = b->p;
    uint64_t I = p->sys->inputs;
    size_t N = p->pi.npre + p->pi.ncyc;
    uint64_t pil = c.pos < p->pi.npre ? p->pi.pre[c.pos] : p->pi.cyc[c.pos - p->pi.npre];
    uint32_t npos = c.pos + 1 < N ? c.pos + 1 : (uint32_t)p->pi.npre;
    uint64_t d = (pil ^ rho) & I;
    uint64_t K = tm_spread(c.K, I), base = pil, free_ = d;
    if (p->rel == TM_FULL) {
        base = pil ^ (d & K);
        free_ = c.phase == 0 ? d & ~K : 0;
    }
    uint32_t phases[2] = {c.phase, 1};
    int nph = p->rel == TM_FULL && c.phase == 0 ? 2 : 1;
    uint64_t nchoice = (uint64_t)1 << tm_popcount(free_);
    const tm_state *ss = &p->sys->a.s[c.s], *qs = &p->neffect.s[c.q];
    for (uint64_t k = 0; k < nchoice; k++) {
        tm_cube sigma = {I, base ^ tm_spread(k, free_)};
        for (uint32_t i = 0; i < ss->n; i++) {
            tm_cube ce = ss->e[i].c;
            if (!tm_cube_meets(ce, sigma))
                continue;
            for (uint32_t j = 0; j < qs->n; j++) {
                tm_cube cq = qs->e[j].c;
                if (!tm_cube_meets(cq, sigma) || !tm_cube_meets(cq, ce))
                    continue;
                for (int ph = 0; ph < nph; ph++) {
                    cstate t = {c.K, phases[ph], npos, ss->e[i].dst, qs->e[j].dst};
                    uint32_t id = get(b, t);
                    if (id == U_INVALID)
                        return -1;
                    if (*nf == *cap && U_GROW(*f, *cap, *nf) != 0)
                        return u_oom(b->err);
                    (*f)[(*nf)++] = (found){id, l};
                }
            }
        }
    }
    return 0;
}

uint32_t tm_closure_nparts(const tm_problem *p)
{
    return p->rel == TM_FULL ? (uint32_t)1 << tm_popcount(p->sys->inputs) : 1;
}

/* The part of the closure for one K (all of it for subset), as built. */
static int build_part(const tm_problem *p, uint32_t K, tm_nba *out, u_err *err)
{
    uint64_t I = p->sys->inputs;
    tm_nba_init(out, I);
    builder b = {p, out, {0}, p->budget, err};
    found *f = NULL;
    size_t nf = 0, cap = 0;
    uint32_t allK = p->rel == TM_FULL ? ((uint32_t)1 << tm_popcount(I)) - 1 : 0;
    for (uint32_t i = 0; i < p->sys->a.ninit; i++)
        for (uint32_t j = 0; j < p->neffect.ninit; j++) {
            /* subset: always "phase 1"; full: phase 0 unless K copies every
             * input */
            uint32_t ph = p->rel == TM_SUBSET || K == allK ? 1 : 0;
            cstate c = {K, ph, 0, p->sys->a.init[i], p->neffect.init[j]};
            uint32_t id = get(&b, c);
            if (id == U_INVALID)
                goto fail;
            if (tm_nba_add_init(out, id) != 0) {
                u_oom(err);
                goto fail;
            }
        }
    uint64_t L = (uint64_t)1 << tm_popcount(I);
    for (uint32_t k = 0; k < out->n; k++) {
        cstate c = *(const cstate *)u_intern_key(&b.ids, k);
        nf = 0;
        for (uint64_t l = 0; l < L; l++)
            if (successors(&b, c, (uint32_t)l, tm_spread(l, I), &f, &nf, &cap) != 0)
                goto fail;
        if (nf > 1)
            qsort(f, nf, sizeof *f, cmp_found);
        for (size_t i = 0; i < nf; i++) {
            if (i && f[i].dst == f[i - 1].dst && f[i].l == f[i - 1].l)
                continue;
            tm_cube cube = {I, tm_spread(f[i].l, I)};
            if (tm_nba_add_edge(out, k, f[i].dst, cube) != 0) {
                u_oom(err);
                goto fail;
            }
        }
    }
    u_intern_free(&b.ids);
    free(f);
    return tm_nba_merge_edges(out, err);
fail:
    u_intern_free(&b.ids);
    free(f);
    tm_nba_free(out);
    return -1;
}

int tm_closure_part(const tm_problem *p, uint32_t K, tm_nba *out, uint32_t *built, u_err *err)
{
    if (build_part(p, K, out, err) != 0)
        return -1;
    *built = out->n;
    if (tm_nba_reduce(out, err) != 0) {
        tm_nba_free(out);
        return -1;
    }
    return 0;
}

int tm_closure_union(const tm_nba *parts, uint32_t n, uint64_t inputs, tm_nba *out, u_err *err)
{
    tm_nba_init(out, inputs);
    for (uint32_t k = 0; k < n; k++) {
        tm_nba u;
        if (tm_nba_union(out, &parts[k], &u, err) != 0) {
            tm_nba_free(out);
            return -1;
        }
        tm_nba_free(out);
        *out = u;
    }
    if (tm_nba_reduce(out, err) != 0) {
        tm_nba_free(out);
        return -1;
    }
    return 0;
}

int tm_closure(const tm_problem *p, tm_nba *out, uint32_t *built, u_err *err)
{
    uint32_t n = tm_closure_nparts(p);
    tm_nba *parts = calloc(n, sizeof *parts);
    if (!parts)
        return u_oom(err);
    *built = 0;
    uint32_t k = 0;
    int rc = -1;
    for (; k < n; k++) {
        uint32_t b;
        if (tm_closure_part(p, k, &parts[k], &b, err) != 0)
            goto done;
        *built += b;
    }
    rc = tm_closure_union(parts, n, p->sys->inputs, out, err);
done:
    for (uint32_t i = 0; i < k; i++)
        tm_nba_free(&parts[i]);
    free(parts);
    return rc;
}
