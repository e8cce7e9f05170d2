/*
 * tm_cause.c - the problem (system, trace, effect, relation) and its answers:
 * how the effect stands on the trace, the cause (section 5: the complement of
 * the upward closure of the negated effect, tm_closure.c), and cause checking
 * (section 6.2: the cause's language against a candidate's).
 *
 * Definitions as implemented (README "Temporal causes"):
 *   - pi|I: the trace's inputs; an input the trace does not mention is false
 *     (CORP's traces list every input), an output it does not mention is free.
 *   - D = { rho | every system trace whose inputs are <=_pi rho satisfies E };
 *     a cause exists iff pi|I is in D (Lemma 3: otherwise D is empty), and then
 *     D is the cause (Lemmas 2 and 4).  So pi|I is tested against the closure
 *     first, and the (exponential) complementation only runs when a cause
 *     exists.
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

int tm_problem_init(tm_problem *p, const tm_system *sys, const char *trace, tm_nba *effect,
                    tm_nba *neffect, tm_relation rel, uint32_t budget, u_err *err)
{
    memset(p, 0, sizeof *p);
    p->sys = sys;
    p->rel = rel;
    p->budget = budget;
    p->effect = *effect;
    p->neffect = *neffect;
    tm_nba_init(effect, 0);
    tm_nba_init(neffect, 0);
    if (tm_word_parse(trace, &sys->aps, "the trace", &p->trace, err) != 0)
        return -1;
    p->pi.npre = p->trace.npre;
    p->pi.ncyc = p->trace.ncyc;
    p->pi.pre = calloc(p->pi.npre + 1, sizeof *p->pi.pre);
    p->pi.cyc = calloc(p->pi.ncyc + 1, sizeof *p->pi.cyc);
    if (!p->pi.pre || !p->pi.cyc)
        return u_oom(err);
    for (size_t i = 0; i < p->pi.npre; i++)
        p->pi.pre[i] = p->trace.pre[i].val & sys->inputs;
    for (size_t i = 0; i < p->pi.ncyc; i++)
        p->pi.cyc[i] = p->trace.cyc[i].val & sys->inputs;
    return 0;
}

void tm_problem_free(tm_problem *p)
{
    tm_word_free(&p->trace);
    tm_lasso_free(&p->pi);
    tm_nba_free(&p->effect);
    tm_nba_free(&p->neffect);
    memset(p, 0, sizeof *p);
}

/* The trace's letter at position pos as a cube: every input fixed (unmentioned
 * ones false), outputs as written. */
static tm_cube trace_cube(const tm_problem *p, size_t pos)
{
    tm_cube c = pos < p->trace.npre ? p->trace.pre[pos] : p->trace.cyc[pos - p->trace.npre];
    uint64_t I = p->sys->inputs;
    c.mask |= I;
    c.val &= c.mask;
    return c;
}

/* The system's runs that match the trace, as an automaton over all APs: states
 * (pos, s), every state accepting. */
static int matching_runs(const tm_problem *p, tm_nba *out, u_err *err)
{
    const tm_nba *S = &p->sys->a;
    size_t N = p->trace.npre + p->trace.ncyc;
    tm_nba_init(out, S->apmask);
    if ((double)N * S->n > 5e7)
        return u_errf(err, "the trace times the system is too large");
    for (size_t i = 0; i < N * S->n; i++)
        if (tm_nba_add_state(out, true) == U_INVALID)
            goto oom;
    for (size_t pos = 0; pos < N; pos++) {
        tm_cube t = trace_cube(p, pos);
        size_t next = pos + 1 < N ? pos + 1 : p->trace.npre;
        for (uint32_t s = 0; s < S->n; s++)
            for (uint32_t i = 0; i < S->s[s].n; i++) {
                tm_cube c = S->s[s].e[i].c;
                if (tm_cube_meets(c, t) &&
                    tm_nba_add_edge(out, (uint32_t)(pos * S->n + s),
                                    (uint32_t)(next * S->n + S->s[s].e[i].dst),
                                    tm_cube_and(c, t)) != 0)
                    goto oom;
            }
    }
    for (uint32_t i = 0; i < S->ninit; i++)
        if (tm_nba_add_init(out, S->init[i]) != 0)
            goto oom;
    return 0;
oom:
    tm_nba_free(out);
    return u_oom(err);
}

/* Where no run follows the trace any more: the first letter (counting from 1)
 * after which the set of reachable system states is empty, for the message. */
static size_t dead_end(const tm_problem *p)
{
    const tm_nba *S = &p->sys->a;
    size_t N = p->trace.npre + p->trace.ncyc;
    bool *cur = calloc(S->n + 1, 1), *nxt = calloc(S->n + 1, 1);
    size_t step = 0, limit = p->trace.npre + p->trace.ncyc * ((size_t)S->n + 2);
    if (!cur || !nxt)
        goto done;
    for (uint32_t i = 0; i < S->ninit; i++)
        cur[S->init[i]] = true;
    /* the reachable sets at cycle entries repeat within n + 1 rounds when they
     * only shrink; the search is bounded in any case */
    for (step = 0; step < limit; step++) {
        size_t pos = step < N ? step : p->trace.npre + (step - p->trace.npre) % p->trace.ncyc;
        tm_cube t = trace_cube(p, pos);
        memset(nxt, 0, S->n + 1);
        bool any = false;
        for (uint32_t s = 0; s < S->n; s++)
            if (cur[s])
                for (uint32_t i = 0; i < S->s[s].n; i++)
                    if (tm_cube_meets(S->s[s].e[i].c, t))
                        any = nxt[S->s[s].e[i].dst] = true;
        if (!any)
            break;
        bool *x = cur;
        cur = nxt;
        nxt = x;
    }
done:
    free(cur), free(nxt);
    return step + 1;
}

int tm_trace_check(const tm_problem *p, tm_trace_status *st, u_err *err)
{
    tm_nba runs, prod;
    if (matching_runs(p, &runs, err) != 0)
        return -1;
    int r = tm_nba_empty(&runs, NULL, err);
    if (r < 0)
        goto fail;
    if (r == 1) {
        *st = TM_TRACE_NO_RUN;
        size_t k = dead_end(p);
        tm_nba_free(&runs);
        return u_errf(err,
                      "the trace is not a run of the system %s: no run reads its first %zu "
                      "letters (inputs the trace does not mention are false)",
                      p->sys->file, k);
    }
    if (tm_nba_intersect(&runs, &p->effect, p->budget, &prod, err) != 0)
        goto fail;
    int sat_empty = tm_nba_empty(&prod, NULL, err);
    tm_nba_free(&prod);
    if (sat_empty < 0 || tm_nba_intersect(&runs, &p->neffect, p->budget, &prod, err) != 0)
        goto fail;
    int vio_empty = tm_nba_empty(&prod, NULL, err);
    tm_nba_free(&prod);
    if (vio_empty < 0)
        goto fail;
    tm_nba_free(&runs);
    if (!sat_empty && vio_empty)
        *st = TM_TRACE_HOLDS;
    else if (sat_empty && !vio_empty)
        *st = TM_TRACE_VIOLATED;
    else if (!sat_empty && !vio_empty)
        *st = TM_TRACE_AMBIGUOUS;
    else
        return u_errf(err, "internal error: a run satisfies neither the effect nor its negation");
    return 0;
fail:
    tm_nba_free(&runs);
    return -1;
}

/* The cause as the intersection of complements of groups of parts (the
 * closure is the parts' union), used when the closure is not weak: the weak
 * parts together are complemented by the breakpoint construction, each other
 * part on its own by determinisation, which is exponential in a part's states
 * rather than in all of them.  A group whose language lies within another's
 * adds nothing to the union and is left out (checked with the other group's
 * complement: L(g) & comp(h) empty). */
static int complement_by_parts(const tm_problem *p, tm_nba *parts, uint32_t n, tm_result *r,
                               u_err *err)
{
    tm_nba_init(&r->cause, p->sys->inputs);
    /* groups: 0 = the union of the weak parts, 1.. = the other parts */
    tm_nba *grp = calloc((size_t)n + 1, sizeof *grp), *comp = calloc((size_t)n + 1, sizeof *comp);
    bool *skip = calloc((size_t)n + 1, sizeof *skip);
    uint32_t ng = 1;
    int rc = -1;
    if (!grp || !comp || !skip) {
        free(grp), free(comp), free(skip);
        return u_oom(err);
    }
    for (uint32_t k = 0; k <= n; k++) {
        tm_nba_init(&grp[k], p->sys->inputs);
        tm_nba_init(&comp[k], p->sys->inputs);
    }
    for (uint32_t k = 0; k < n; k++) {
        bool weak;
        if (parts[k].n == 0)
            continue; /* empty: adds nothing */
        if (tm_nba_weak(&parts[k], NULL, &weak, err) != 0)
            goto done;
        tm_nba u;
        if (!weak) {
            if (tm_nba_copy(&grp[ng++], &parts[k]) != 0) {
                u_oom(err);
                goto done;
            }
        } else if (tm_nba_union(&grp[0], &parts[k], &u, err) == 0) {
            tm_nba_free(&grp[0]);
            grp[0] = u;
        } else {
            goto done;
        }
    }
    if (tm_nba_reduce(&grp[0], err) != 0)
        goto done;
    r->method = TM_COMP_BREAKPOINT;
    for (uint32_t g = 0; g < ng; g++) {
        tm_nba_free(&comp[g]);
        tm_nba_init(&comp[g], p->sys->inputs);
        skip[g] = grp[g].n == 0;
        if (skip[g])
            continue;
        tm_comp_method used;
        if (tm_nba_complement(&grp[g], TM_COMP_AUTO, p->budget, "the upward closure", &comp[g],
                              &used, err) != 0)
            goto done;
        if (used == TM_COMP_SAFRA)
            r->method = TM_COMP_SAFRA;
        r->cause_raw += comp[g].n;
        if (tm_nba_reduce(&comp[g], err) != 0)
            goto done;
    }
    for (uint32_t g = 0; g < ng; g++)
        for (uint32_t h = 0; h < ng && !skip[g]; h++) {
            if (h == g || skip[h])
                continue;
            int in = tm_nba_included_cb(&grp[g], &comp[h], p->budget, NULL, err);
            if (in < 0)
                goto done;
            skip[g] = in == 1;
        }
    bool first = true;
    for (uint32_t g = 0; g < ng; g++) {
        if (skip[g])
            continue;
        if (first) {
            tm_nba_free(&r->cause);
            r->cause = comp[g];
            tm_nba_init(&comp[g], 0);
            first = false;
            continue;
        }
        tm_nba x;
        if (tm_nba_intersect(&r->cause, &comp[g], p->budget, &x, err) != 0)
            goto done;
        tm_nba_free(&r->cause);
        r->cause = x;
        if (tm_nba_reduce(&r->cause, err) != 0)
            goto done;
    }
    if (first) { /* every part empty: the cause is every input sequence */
        tm_cube top = {0, 0};
        if (tm_nba_add_state(&r->cause, true) == U_INVALID ||
            tm_nba_add_edge(&r->cause, 0, 0, top) != 0 || tm_nba_add_init(&r->cause, 0) != 0) {
            u_oom(err);
            goto done;
        }
    }
    rc = 0;
done:
    for (uint32_t k = 0; k <= n; k++) {
        tm_nba_free(&grp[k]);
        tm_nba_free(&comp[k]);
    }
    free(grp), free(comp), free(skip);
    return rc;
}

int tm_cause(const tm_problem *p, tm_result *r, u_err *err)
{
    memset(r, 0, sizeof *r);
    tm_nba_init(&r->cause, p->sys->inputs);
    uint32_t n = tm_closure_nparts(p), k = 0;
    tm_nba *parts = calloc(n, sizeof *parts);
    if (!parts)
        return u_oom(err);
    for (; k < n; k++) {
        uint32_t b;
        if (tm_closure_part(p, k, &parts[k], &b, err) != 0)
            goto fail;
        r->closure_raw += b;
    }
    if (tm_closure_union(parts, n, p->sys->inputs, &r->closure, err) != 0)
        goto fail;
    int in_closure = tm_nba_accepts(&r->closure, &p->pi, err);
    if (in_closure < 0)
        goto fail;
    r->exists = !in_closure;
    if (r->exists) { /* else D is empty (Lemma 3): nothing to complement */
        bool weak;
        if (tm_nba_weak(&r->closure, NULL, &weak, err) != 0)
            goto fail;
        if (weak || n == 1) {
            tm_nba_free(&r->cause);
            if (tm_nba_complement(&r->closure, TM_COMP_AUTO, p->budget, "the upward closure",
                                  &r->cause, &r->method, err) != 0)
                goto fail;
            r->cause_raw = r->cause.n;
        } else if (complement_by_parts(p, parts, n, r, err) != 0) {
            goto fail;
        }
        if (tm_nba_reduce(&r->cause, err) != 0)
            goto fail;
    }
    for (uint32_t i = 0; i < k; i++)
        tm_nba_free(&parts[i]);
    free(parts);
    return 0;
fail:
    for (uint32_t i = 0; i < k; i++)
        tm_nba_free(&parts[i]);
    free(parts);
    tm_result_free(r);
    return -1;
}

void tm_result_free(tm_result *r)
{
    tm_nba_free(&r->cause);
    tm_nba_free(&r->closure);
    memset(r, 0, sizeof *r);
}

int tm_check(const tm_result *r, const tm_nba *cand, const tm_nba *ncand, uint32_t budget,
             bool *equal, tm_lasso *cex, bool *in_cause, u_err *err)
{
    memset(cex, 0, sizeof *cex);
    tm_nba comp;
    const tm_nba *nc = ncand;
    if (!nc) {
        if (tm_nba_complement(cand, TM_COMP_AUTO, budget, "the candidate", &comp, NULL, err) != 0)
            return -1;
        nc = &comp;
    }
    /* a word of the cause the candidate misses: cause & not cand */
    int inc = tm_nba_included_cb(&r->cause, nc, budget, cex, err);
    if (!ncand)
        tm_nba_free(&comp);
    if (inc < 0)
        return -1;
    if (inc == 0) {
        *equal = false;
        *in_cause = true;
        return 0;
    }
    /* a word of the candidate outside the cause: cand & closure; without a
     * cause the closure is everything (D is empty) */
    if (!r->exists) {
        int e = tm_nba_empty(cand, cex, err);
        if (e < 0)
            return -1;
        *equal = e == 1;
        *in_cause = false;
        return 0;
    }
    inc = tm_nba_included_cb(cand, &r->closure, budget, cex, err);
    if (inc < 0)
        return -1;
    *equal = inc == 1;
    *in_cause = false;
    return 0;
}
