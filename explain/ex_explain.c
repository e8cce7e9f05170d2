/* ex_explain: from a trace and a formula to red dots.
 *
 * The pipeline of the paper: parse and bind the formula; find the first
 * failure k (Definition 2, ex_first_failure); build the path Algorithm 6
 * runs on -- pi[0..k], or for a failure that only the infinite lasso shows,
 * the lasso with its loop unwrapped |phi|+1 times; run Algorithm 6; with
 * --exact, decide each dot by Definition 4; finally map positions beyond
 * the printed trace back to their first copy of the loop, and causes on
 * propositions to the variables those propositions read.
 */
#include "explain.h"

#include "ex_bind.h"
#include "ex_cause.h"
#include "ex_eval.h"
#include "ex_exact.h"
#include "ex_ltl.h"
#include "ex_nba.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exact mode refuses paths with more bottom-valued candidates than this:
 * the search would only spend its budget without deciding anything. */
#define EX_EXACT_MAX_CELLS 200000

void ex_options_default(ex_options *o)
{
    o->exact = 0;
    o->exact_budget = EX_DEFAULT_EXACT_BUDGET;
    o->max_nba_states = EX_DEFAULT_NBA_STATES;
}

static void ex_note(ex_explanation *e, const char *fmt, ...)
{
    size_t used = strlen(e->note);
    if (used && used + 2 < sizeof e->note) {
        strcat(e->note, " ");
        used++;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->note + used, sizeof e->note - used, fmt, ap);
    va_end(ap);
}

typedef struct {
    size_t n;  /* states of the lasso proper (or the finite trace) */
    long loop; /* -1 finite */
} ex_shape;

static size_t ex_fold(const ex_shape *s, size_t i)
{
    if (i < s->n || s->loop < 0)
        return i;
    return (size_t)s->loop + (i - (size_t)s->loop) % (s->n - (size_t)s->loop);
}

static int ex_dot_cmp(const void *x, const void *y)
{
    const ex_dot *a = x, *b = y;
    if (a->step != b->step)
        return a->step < b->step ? -1 : 1;
    return a->var - b->var;
}

/* Proposition dots to variable dots on displayed steps, merged. */
static void ex_map_dots(ex_explanation *e, const ex_binding *b, const ex_shape *s,
                        const ex_pdot *pd, const int *verdict, size_t npd)
{
    size_t cap = 0;
    for (size_t i = 0; i < npd; i++)
        cap += (size_t)b->nvars[pd[i].prop];
    e->dots = calloc(cap + 1, sizeof *e->dots);
    if (!e->dots)
        abort();
    for (size_t i = 0; i < npd; i++)
        for (int v = 0; v < b->nvars[pd[i].prop]; v++)
            e->dots[e->ndots++] =
                (ex_dot){ex_fold(s, pd[i].step), b->vars[pd[i].prop][v], verdict ? verdict[i] : -1};
    qsort(e->dots, e->ndots, sizeof *e->dots, ex_dot_cmp);
    size_t w = 0;
    for (size_t r = 0; r < e->ndots; r++) {
        if (w && e->dots[w - 1].step == e->dots[r].step && e->dots[w - 1].var == e->dots[r].var) {
            int *x = &e->dots[w - 1].exact, y = e->dots[r].exact;
            *x = (*x == 1 || y == 1) ? 1 : (*x == -1 || y == -1) ? -1 : 0;
            continue;
        }
        e->dots[w++] = e->dots[r];
    }
    e->ndots = w;
}

static void ex_record_vars(ex_explanation *e, const ex_ltl *l, const ex_binding *b)
{
    size_t total = 1;
    for (int p = 0; p < l->nprops; p++)
        total += (size_t)b->nvars[p];
    e->vars = calloc(total, sizeof *e->vars);
    e->props = calloc((size_t)l->nprops + 1, sizeof *e->props);
    if (!e->vars || !e->props)
        abort();
    for (int p = 0; p < l->nprops; p++) {
        e->props[e->nprops++] = strdup(l->props[p].text);
        for (int v = 0; v < b->nvars[p]; v++) {
            int seen = 0;
            for (size_t j = 0; j < e->nvars; j++)
                seen |= e->vars[j] == b->vars[p][v];
            if (!seen)
                e->vars[e->nvars++] = b->vars[p][v];
        }
    }
}

/* Exact mode's candidates: Algorithm 6's dots first, then every other
 * bottom-valued pair, because the paper's Theorem 8 (Algorithm 6
 * over-approximates Definition 4) does not hold in general: on (r)({}),
 * q U (r & X r) has the cause <1,q> (contingency {<0,q>}) that no failure
 * path reaches (tests/test_paper.c).  Returns the count; *out is allocated. */
static size_t ex_candidates(const ex_pdot *pd, size_t npd, const uint64_t *path, size_t len,
                            uint64_t pos, uint64_t neg, ex_pdot **out)
{
    size_t cap = npd + len * 64 + 1, n = 0;
    *out = malloc(cap * sizeof **out);
    if (!*out)
        abort();
    if (npd) /* pd is NULL when Algorithm 6 found no dot */
        memcpy(*out, pd, npd * sizeof *pd);
    n = npd;
    size_t d = 0;
    for (size_t i = 0; i < len; i++)
        for (int p = 0; p < 64; p++) {
            int v = (int)((path[i] >> p) & 1);
            if (!((!v && ((pos >> p) & 1)) || (v && ((neg >> p) & 1))))
                continue;
            while (d < npd && (pd[d].step < i || (pd[d].step == i && pd[d].prop < p)))
                d++;
            if (d < npd && pd[d].step == i && pd[d].prop == p)
                continue;
            (*out)[n++] = (ex_pdot){i, p};
        }
    return n;
}

/* Decides the candidates; returns the verdicts (EX_EXACT_UNDECIDED where the
 * instance or the budget is too large). */
static int *ex_run_exact(ex_explanation *e, const ex_options *o, const ex_ltl *l, int tab,
                         uint64_t pos, uint64_t neg, const uint64_t *path, size_t len, long loop,
                         const ex_pdot *cand, size_t ncand)
{
    int *verdict = malloc((ncand + 1) * sizeof *verdict);
    if (!verdict)
        abort();
    for (size_t i = 0; i < ncand; i++)
        verdict[i] = EX_EXACT_UNDECIDED;
    e->exact_ran = 1;
    ex_exact_ctx c = {l, tab, NULL, loop, pos, neg, o->exact_budget};
    size_t cells = len * (size_t)__builtin_popcountll(pos | neg);
    if (cells > EX_EXACT_MAX_CELLS) {
        ex_note(e, "Exact mode: %zu candidate pairs is too many to search; dots left undecided.",
                cells);
        return verdict;
    }
    ex_nba a;
    if (loop < 0 && ex_nba_build(l, tab, o->max_nba_states, &a) != 0) {
        ex_note(e, "Exact mode: automaton too large; dots left undecided.");
        return verdict;
    }
    c.nba = loop < 0 ? &a : NULL;
    ex_exact_decide(&c, path, len, cand, ncand, verdict);
    if (c.budget <= 0)
        ex_note(e, "Exact mode: budget of %ld contingency sets exhausted; some dots undecided.",
                o->exact_budget);
    if (loop >= 0)
        ex_note(e, "Exact mode on a lasso searched contingencies within the unwrapped loop only; "
                   "dots not shown to be causes are left undecided.");
    if (loop < 0)
        ex_nba_free(&a);
    return verdict;
}

/* Runs exact mode and rewrites (pd, npd) into the dots to show with their
 * verdicts: all of Algorithm 6's, plus extra causes it found. */
static int *ex_exact_dots(ex_explanation *e, const ex_options *o, const ex_ltl *l, int tab,
                          int alg6, const uint64_t *path, size_t len, long loop, ex_pdot **pd,
                          size_t *npd)
{
    uint64_t pos, neg;
    ex_ltl_polarity(l, alg6, &pos, &neg);
    ex_pdot *cand;
    size_t ncand = ex_candidates(*pd, *npd, path, len, pos, neg, &cand);
    int *verdict = ex_run_exact(e, o, l, tab, pos, neg, path, len, loop, cand, ncand);
    size_t w = *npd, extra = 0, undecided = 0;
    for (size_t i = *npd; i < ncand; i++) {
        if (verdict[i] == EX_EXACT_YES) {
            cand[w] = cand[i];
            verdict[w++] = EX_EXACT_YES;
            extra++;
        } else if (verdict[i] == EX_EXACT_UNDECIDED) {
            undecided++;
        }
    }
    if (extra)
        ex_note(e,
                "Exact mode found %zu cause(s) outside Algorithm 6's set (a proposition occurs "
                "with both polarities, where the paper's Theorem 8 does not hold).",
                extra);
    if (undecided)
        ex_note(e,
                "%zu bottom-valued pair(s) outside Algorithm 6's set stay undecided and are "
                "not shown.",
                undecided);
    free(*pd);
    *pd = cand;
    *npd = w;
    return verdict;
}

/* Builds Algorithm 6's path, runs it (and exact mode), and records dots. */
static void ex_find_dots(ex_explanation *e, const ex_options *o, const ex_ltl *l, int tab, int alg6,
                         const ex_binding *b, const ex_shape *s, const ex_first *ff,
                         size_t phi_size)
{
    size_t len;
    long exact_loop = -1;
    if (ff->status == EX_FF_FAILS) {
        len = ff->k + 1;
    } else {
        size_t period = s->n - (size_t)s->loop;
        len = (size_t)s->loop + (phi_size + 1) * period;
        exact_loop = (long)(len - period);
    }
    uint64_t *path = malloc(len * sizeof *path);
    if (!path)
        abort();
    for (size_t i = 0; i < len; i++)
        path[i] = ex_letter_at(b->letters, s->n, s->loop, i);
    ex_pdot *pd;
    int fails;
    size_t npd = ex_cause_alg6(l, alg6, path, len, &pd, &fails);
    if (!fails)
        ex_note(e, "Algorithm 6's finite-path semantics does not see this failure (it is not "
                   "informative); no pair can be shown as its cause.");
    int *verdict = NULL;
    if (o->exact)
        verdict = ex_exact_dots(e, o, l, tab, alg6, path, len, exact_loop, &pd, &npd);
    ex_map_dots(e, b, s, pd, verdict, npd);
    free(verdict);
    free(pd);
    free(path);
}

static int ex_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

int ex_explain(ex_trace *t, const char *formula, int dialect, const ex_options *o,
               ex_explanation *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->first_failure = -1;
    out->loop_start = t->loop_start;
    if (t->nsteps == 0)
        return ex_fail(err, errlen, "the trace has no states");
    ex_ltl l;
    ex_ltl_init(&l);
    char perr[256];
    ex_binding b;
    int root = ex_ltl_parse(&l, formula, dialect, perr, sizeof perr);
    if (root < 0 || ex_bind(&l, t, dialect == EX_DIALECT_SMV, &b, perr, sizeof perr) != 0) {
        ex_ltl_free(&l);
        return ex_fail(err, errlen, "formula '%.100s%s': %s", formula,
                       strlen(formula) > 100 ? "..." : "", perr);
    }
    out->formula = strdup(formula);
    ex_record_vars(out, &l, &b);
    ex_shape s = {ex_trace_lasso_len(t), t->loop_start};
    int tab = ex_ltl_nnf(&l, root, EX_NNF_TABLEAU, b.consts);
    int tabneg = ex_ltl_nnf(&l, ex_ltl_mk(&l, EX_L_NOT, root, -1), EX_NNF_TABLEAU, b.consts);
    int alg6 = ex_ltl_nnf(&l, root, EX_NNF_ALG6, b.consts);
    size_t phi_size = ex_ltl_size(&l, root);
    ex_first ff;
    ex_first_failure(&l, tab, tabneg, b.letters, s.n, s.loop, o->max_nba_states, phi_size + 1, &ff);
    if (ff.approximated)
        ex_note(out,
                "Definition 2 was approximated: the formula's automaton exceeds %d states, "
                "so the first failure is the first prefix falsified in the weak view "
                "(certainly a failure; an earlier, non-informative one may exist).",
                o->max_nba_states);
    switch (ff.status) {
    case EX_FF_HOLDS:
    case EX_FF_UNKNOWN:
        out->result = ff.status == EX_FF_HOLDS ? EX_RESULT_HOLDS : EX_RESULT_UNKNOWN;
        break;
    case EX_FF_FAILS:
    case EX_FF_INF:
        out->result = ff.status == EX_FF_FAILS ? EX_RESULT_FAILS : EX_RESULT_INF;
        if (ff.status == EX_FF_FAILS) {
            out->first_failure = (long)ex_fold(&s, ff.k);
            if (ff.k >= s.n)
                ex_note(out,
                        "The first failure is at step %zu of the infinite path, in a "
                        "later round of the loop; it and its dots are shown on the "
                        "loop's first round.",
                        ff.k);
        }
        ex_find_dots(out, o, &l, tab, alg6, &b, &s, &ff, phi_size);
        break;
    }
    ex_binding_free(&b);
    ex_ltl_free(&l);
    return 0;
}

void ex_explanation_free(ex_explanation *e)
{
    free(e->formula);
    free(e->dots);
    free(e->vars);
    for (size_t i = 0; i < e->nprops; i++)
        free(e->props[i]);
    free(e->props);
    memset(e, 0, sizeof *e);
}
