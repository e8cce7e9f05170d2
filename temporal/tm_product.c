/*
 * tm_product.c - intersection (the synchronous product, built from the initial
 * pairs on, with a one-bit flag that alternates between waiting for the first
 * and the second automaton's acceptance) and disjoint union.  Inclusion checks,
 * cause checking and the trace checks of tm_cause.c are products followed by an
 * emptiness check.
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

static bool all_accepting(const tm_nba *a)
{
    for (uint32_t q = 0; q < a->n; q++)
        if (!a->s[q].acc)
            return false;
    return true;
}

/* The product state (p, q, k) as a map key: p and q below 2^31, k one bit. */
static uint64_t key(uint32_t p, uint32_t q, uint32_t k)
{
    return (uint64_t)p << 32 | (uint64_t)q << 1 | k;
}

/* The product under construction.  Invariant: state s of out is the pair
 * (p[s], q[s]) with flag k[s], and ids maps key(p, q, k) to s. */
typedef struct {
    const tm_nba *a, *b;
    int mode; /* 0: flag; 1: a's acceptance (b accepts everywhere); 2: b's */
    tm_nba *out;
    u_map ids;
    uint32_t *p, *q, *k;
    size_t cap;
    uint32_t budget;
} product;

/* The id of (p, q, k), made when new; U_INVALID with err set on failure. */
static uint32_t pstate(product *x, uint32_t p, uint32_t q, uint32_t k, u_err *err)
{
    uint64_t kk = key(p, q, k);
    uint32_t id = u_map_get(&x->ids, kk);
    if (id != U_INVALID)
        return id;
    uint32_t n = x->out->n;
    if (n >= x->budget) {
        u_errf(err, "product exceeds %u states", x->budget);
        return U_INVALID;
    }
    bool acc = x->mode == 1   ? x->a->s[p].acc
               : x->mode == 2 ? x->b->s[q].acc
                              : (k == 1 && x->b->s[q].acc);
    if (n == x->cap) {
        size_t c1 = x->cap, c2 = x->cap, c3 = x->cap;
        if (U_GROW(x->p, c1, n) || U_GROW(x->q, c2, n) || U_GROW(x->k, c3, n)) {
            u_oom(err);
            return U_INVALID;
        }
        x->cap = c1 < c2 ? (c1 < c3 ? c1 : c3) : (c2 < c3 ? c2 : c3);
    }
    id = tm_nba_add_state(x->out, acc);
    if (id == U_INVALID || u_map_put(&x->ids, kk, id) != 0) {
        u_oom(err);
        return U_INVALID;
    }
    x->p[n] = p, x->q[n] = q, x->k[n] = k;
    return id;
}

int tm_nba_intersect(const tm_nba *a, const tm_nba *b, uint32_t budget, tm_nba *out, u_err *err)
{
    tm_nba_init(out, a->apmask | b->apmask);
    product x = {
        a, b,     all_accepting(b) ? 1 : all_accepting(a) ? 2 : 0, out, {0}, NULL, NULL, NULL,
        0, budget};
    for (uint32_t i = 0; i < a->ninit; i++)
        for (uint32_t j = 0; j < b->ninit; j++) {
            uint32_t id = pstate(&x, a->init[i], b->init[j], 0, err);
            if (id == U_INVALID)
                goto fail;
            if (tm_nba_add_init(out, id) != 0)
                goto oom;
        }
    for (uint32_t s = 0; s < out->n; s++) {
        uint32_t p = x.p[s], q = x.q[s], k = x.k[s], k2 = k;
        if (x.mode == 0)
            k2 = (k == 0 && a->s[p].acc) ? 1 : (k == 1 && b->s[q].acc) ? 0 : k;
        for (uint32_t i = 0; i < a->s[p].n; i++)
            for (uint32_t j = 0; j < b->s[q].n; j++) {
                tm_cube c1 = a->s[p].e[i].c, c2 = b->s[q].e[j].c;
                if (!tm_cube_meets(c1, c2))
                    continue;
                uint32_t id = pstate(&x, a->s[p].e[i].dst, b->s[q].e[j].dst, k2, err);
                if (id == U_INVALID)
                    goto fail;
                if (tm_nba_add_edge(out, s, id, tm_cube_and(c1, c2)) != 0)
                    goto oom;
            }
    }
    u_map_free(&x.ids);
    free(x.p), free(x.q), free(x.k);
    return 0;
oom:
    u_oom(err);
fail:
    u_map_free(&x.ids);
    free(x.p), free(x.q), free(x.k);
    tm_nba_free(out);
    return -1;
}

int tm_nba_union(const tm_nba *a, const tm_nba *b, tm_nba *out, u_err *err)
{
    tm_nba_init(out, a->apmask | b->apmask);
    const tm_nba *parts[2] = {a, b};
    uint32_t base = 0;
    for (int k = 0; k < 2; k++) {
        const tm_nba *x = parts[k];
        for (uint32_t q = 0; q < x->n; q++)
            if (tm_nba_add_state(out, x->s[q].acc) == U_INVALID)
                goto oom;
        for (uint32_t q = 0; q < x->n; q++)
            for (uint32_t i = 0; i < x->s[q].n; i++)
                if (tm_nba_add_edge(out, base + q, base + x->s[q].e[i].dst, x->s[q].e[i].c) != 0)
                    goto oom;
        for (uint32_t i = 0; i < x->ninit; i++)
            if (tm_nba_add_init(out, base + x->init[i]) != 0)
                goto oom;
        base += x->n;
    }
    return 0;
oom:
    tm_nba_free(out);
    return u_oom(err);
}
