/*
 * cc_formula.c - a cause as an EOL formula.
 *
 * OC1 leaves a partial order on the cause's occurrences.  Where that order is
 * series-parallel it is written the way the paper writes causes: independent parts
 * joined by `&`, consecutive blocks by `.&`, and a prohibited event between the last
 * occurrence of one block and the first of the next as `A &< !E >& B`.  A partial
 * order that is not series-parallel (an "N" shape) cannot be nested that way; it is
 * written as the conjunction of its occurrences and of `x .& y` for each covering
 * pair, which means the same.  Prohibitions not absorbed into the nesting are added
 * as conjuncts: `x &< !E >& y`, `!E ]& y` (from the start), `x &[ !E` (to the end).
 */
#include "causality.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const cc_cause *c;
    const char *const *names;
    bool *used; /* absent intervals already written into the nesting */
} fctx;

static bool before(const cc_cause *c, size_t i, size_t j)
{
    return c->ordered[i * c->nocc + j];
}

static size_t count_type(const cc_cause *c, uint32_t e)
{
    size_t k = 0;
    for (size_t i = 0; i < c->nocc; i++)
        k += c->occ[i].event == e;
    return k;
}

/* Printed as the formula prints it (eol_print), so that the events, causal order
 * and fault tree lines name what the formula names: a label that itself looks like an
 * occurrence (S_1 beside a repeated S) is S_1_0 there too, not S_1 (a new user's
 * probe, 2026-11-28: "causal order: S_1 < S_2, S_2 < S_1"). */
char *cc_occ_name(const cc_cause *c, size_t i, const char *const *names)
{
    uint32_t e = c->occ[i].event;
    eol_node *n = eol_event(names[e], count_type(c, e) == 1 ? 0 : (int)c->occ[i].occ);
    char *s = n ? eol_print(n, EOL_ASCII) : NULL;
    eol_free(n);
    return s;
}

static eol_node *occ_node(const fctx *f, size_t i)
{
    uint32_t e = f->c->occ[i].event;
    return eol_event(f->names[e], count_type(f->c, e) == 1 ? 0 : (int)f->c->occ[i].occ);
}

static eol_node *absent_node(const fctx *f, uint32_t e)
{
    return eol_not(eol_event(f->names[e], 0));
}

static eol_node *build(fctx *f, const size_t *set, size_t n);

/* Splits set into parts with no order between them (connected components of the
 * comparability graph).  Returns the number of parts; part[i] numbers them. */
static size_t components(const fctx *f, const size_t *set, size_t n, size_t *part)
{
    for (size_t i = 0; i < n; i++)
        part[i] = SIZE_MAX;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (part[i] != SIZE_MAX)
            continue;
        part[i] = k;
        for (bool grew = true; grew;) {
            grew = false;
            for (size_t a = 0; a < n; a++)
                for (size_t b = 0; b < n && part[a] == k; b++)
                    if (part[b] == SIZE_MAX &&
                        (before(f->c, set[a], set[b]) || before(f->c, set[b], set[a]))) {
                        part[b] = k;
                        grew = true;
                    }
        }
        k++;
    }
    return k;
}

static eol_node *build_parts(fctx *f, const size_t *set, size_t n, const size_t *part, size_t k)
{
    eol_node *acc = NULL;
    size_t *sub = malloc(n * sizeof *sub);
    if (!sub)
        return NULL;
    for (size_t p = 0; p < k; p++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (part[i] == p)
                sub[m++] = set[i];
        eol_node *x = build(f, sub, m);
        acc = acc ? eol_and(acc, x) : x;
        if (!acc)
            break;
    }
    free(sub);
    return acc;
}

/* The last series cut: the largest k such that the k earliest (witness order)
 * elements all precede the rest, so that chains nest to the left and print without
 * parentheses.  0 if none. */
static size_t series_cut(const fctx *f, const size_t *set, size_t n)
{
    for (size_t k = n - 1; k >= 1; k--) {
        bool ok = true;
        for (size_t a = 0; a < k && ok; a++)
            for (size_t b = k; b < n && ok; b++)
                ok = before(f->c, set[a], set[b]);
        if (ok)
            return k;
    }
    return 0;
}

/* An unused prohibited interval from the maximum of A to the minimum of B. */
static int bridge(fctx *f, size_t amax, size_t bmin)
{
    for (size_t i = 0; i < f->c->nabsent; i++) {
        const cc_absent *a = &f->c->absent[i];
        if (!f->used[i] && a->after == (int)amax && a->before == (int)bmin) {
            f->used[i] = true;
            return (int)i;
        }
    }
    return -1;
}

/* set[k-1] follows every other element of A, and set[k] precedes all of B. */
static bool unique_ends(const fctx *f, const size_t *set, size_t n, size_t k)
{
    for (size_t i = 0; i + 1 < k; i++)
        if (!before(f->c, set[i], set[k - 1]))
            return false;
    for (size_t i = k + 1; i < n; i++)
        if (!before(f->c, set[k], set[i]))
            return false;
    return true;
}

static eol_node *build_series(fctx *f, const size_t *set, size_t n, size_t k)
{
    eol_node *a = build(f, set, k);
    /* The interval operator binds to where A is first satisfied and B last, which
     * are A's maximum and B's minimum only when those are unique. */
    int iv = unique_ends(f, set, n, k) ? bridge(f, set[k - 1], set[k]) : -1;
    eol_node *b = build(f, set + k, n - k);
    if (iv >= 0)
        return eol_between(a, absent_node(f, f->c->absent[iv].event), b);
    return eol_ord(a, b);
}

/* Not series-parallel: all occurrences and every covering pair. */
static eol_node *build_flat(fctx *f, const size_t *set, size_t n)
{
    eol_node *acc = NULL;
    for (size_t i = 0; i < n; i++) {
        eol_node *x = occ_node(f, set[i]);
        acc = acc ? eol_and(acc, x) : x;
    }
    for (size_t i = 0; i < n && acc; i++)
        for (size_t j = 0; j < n && acc; j++) {
            if (!before(f->c, set[i], set[j]))
                continue;
            bool cover = true;
            for (size_t m = 0; m < n && cover; m++)
                cover = !(before(f->c, set[i], set[m]) && before(f->c, set[m], set[j]));
            if (cover)
                acc = eol_and(acc, eol_ord(occ_node(f, set[i]), occ_node(f, set[j])));
        }
    return acc;
}

static eol_node *build(fctx *f, const size_t *set, size_t n)
{
    if (n == 1)
        return occ_node(f, set[0]);
    size_t *part = malloc(n * sizeof *part);
    if (!part)
        return NULL;
    size_t k = components(f, set, n, part);
    eol_node *r;
    if (k > 1)
        r = build_parts(f, set, n, part, k);
    else if ((k = series_cut(f, set, n)) > 0)
        r = build_series(f, set, n, k);
    else
        r = build_flat(f, set, n);
    free(part);
    return r;
}

static eol_node *leftover(fctx *f, size_t i)
{
    const cc_absent *a = &f->c->absent[i];
    size_t last = f->c->nocc - 1;
    if (a->after >= 0 && a->before >= 0)
        return eol_between(occ_node(f, (size_t)a->after), absent_node(f, a->event),
                           occ_node(f, (size_t)a->before));
    if (a->before >= 0)
        return eol_until(absent_node(f, a->event), occ_node(f, (size_t)a->before));
    if (a->after >= 0)
        return eol_from(occ_node(f, (size_t)a->after), absent_node(f, a->event));
    return eol_and(eol_until(absent_node(f, a->event), occ_node(f, last)),
                   eol_from(occ_node(f, last), absent_node(f, a->event)));
}

eol_node *cc_formula(const cc_cause *c, const char *const *names)
{
    if (!c->nocc)
        return NULL;
    fctx f = {c, names, calloc(c->nabsent ? c->nabsent : 1, sizeof(bool))};
    size_t *set = malloc(c->nocc * sizeof *set);
    eol_node *r = NULL;
    if (f.used && set) {
        for (size_t i = 0; i < c->nocc; i++)
            set[i] = i;
        r = build(&f, set, c->nocc);
        for (size_t i = 0; i < c->nabsent && r; i++)
            if (!f.used[i])
                r = eol_and(r, leftover(&f, i));
    }
    free(set);
    free(f.used);
    return r;
}
