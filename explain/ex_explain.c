/* ex_explain: from a trace and a formula to red dots.
 *
 * The pipeline (explain/README.md, "Method"):
 *   1. parse and bind the formula: one letter per step, propositions as
 *      Boolean signals; polarities of the formula as written (Definition 1);
 *   2. the first failure k on the infinite word (Definition 2,
 *      ex_first_failure), possibly in a later round of a lasso's loop; or an
 *      infinite failure (the lasso violates the formula, no prefix does);
 *   3. the candidates (ex_cand.h): every cause is one, so they are a sound
 *      over-approximation, linear in the trace;
 *   4. the exact search (ex_exact.h) decides candidates, and those proven
 *      not to be causes are dropped: --exact with a large budget, showing
 *      which dots are proven causes and which are undecided; the default
 *      mode with a small one, so that it stays fast on long traces and
 *      shows every candidate it could not rule out: it never loses a cause;
 *   5. positions map to displayed steps (a position beyond the printed
 *      lasso is shown on the loop's first round) and propositions to the
 *      variables they read.
 * --algorithm6 replaces 3-4 by the paper's Algorithm 6 (ex_cause.h), kept
 * for comparison: it is linear but neither sound nor complete in general.
 */
#include "explain.h"

#include "ex_bind.h"
#include "ex_cand.h"
#include "ex_cause.h"
#include "ex_dfa.h"
#include "ex_eval.h"
#include "ex_exact.h"
#include "ex_ltl.h"
#include "ex_nba.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The screen's own allowance (ex_exact.h's units): it caches by position
 * kind, so on real traces it spends a small fraction of this. */
#define EX_SCREEN_BUDGET 20000000L

void ex_options_default(ex_options *o)
{
    memset(o, 0, sizeof *o);
    o->exact_budget = EX_DEFAULT_EXACT_BUDGET;
    o->refine_budget = EX_DEFAULT_REFINE_BUDGET;
    o->max_nba_states = EX_DEFAULT_NBA_STATES;
}

static void note(ex_explanation *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(ex_explanation *e, const char *fmt, ...)
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

/* The displayed step that shows position i of the word. */
static size_t fold(const ex_word *w, size_t i)
{
    if (i < w->n || w->loop < 0)
        return i;
    size_t l = (size_t)w->loop;
    return l + (i - l) % (w->n - l);
}

static int dot_cmp(const void *x, const void *y)
{
    const ex_dot *a = x, *b = y;
    if (a->pos != b->pos)
        return a->pos < b->pos ? -1 : 1;
    return a->var - b->var;
}

/* Proposition dots to variable dots, merged (a variable read by two
 * propositions is one dot: a cause if either is). */
static int map_dots(ex_explanation *e, const ex_binding *b, const ex_word *w, const ex_pdot *pd,
                    const int *verdict, size_t npd)
{
    size_t cap = 0;
    for (size_t i = 0; i < npd; i++)
        cap += (size_t)b->nvars[pd[i].prop];
    e->dots = calloc(cap + 1, sizeof *e->dots);
    if (!e->dots)
        return -1;
    for (size_t i = 0; i < npd; i++)
        for (int v = 0; v < b->nvars[pd[i].prop]; v++)
            e->dots[e->ndots++] = (ex_dot){pd[i].step, fold(w, pd[i].step), b->vars[pd[i].prop][v],
                                           verdict ? verdict[i] : -1};
    qsort(e->dots, e->ndots, sizeof *e->dots, dot_cmp);
    size_t n = 0;
    for (size_t r = 0; r < e->ndots; r++) {
        if (n && e->dots[n - 1].pos == e->dots[r].pos && e->dots[n - 1].var == e->dots[r].var) {
            int *x = &e->dots[n - 1].exact, y = e->dots[r].exact;
            *x = (*x == 1 || y == 1) ? 1 : (*x == -1 || y == -1) ? -1 : 0;
            continue;
        }
        e->dots[n++] = e->dots[r];
    }
    e->ndots = n;
    return 0;
}

static int record_vars(ex_explanation *e, const ex_ltl *l, const ex_binding *b)
{
    size_t total = 1;
    for (int p = 0; p < l->nprops; p++)
        total += (size_t)b->nvars[p];
    e->vars = calloc(total, sizeof *e->vars);
    e->props = calloc((size_t)l->nprops + 1, sizeof *e->props);
    if (!e->vars || !e->props)
        return -1;
    for (int p = 0; p < l->nprops; p++) {
        if (!(e->props[e->nprops++] = strdup(l->props[p].text)))
            return -1;
        for (int v = 0; v < b->nvars[p]; v++) {
            int seen = 0;
            for (size_t j = 0; j < e->nvars; j++)
                seen |= e->vars[j] == b->vars[p][v];
            if (!seen)
                e->vars[e->nvars++] = b->vars[p][v];
        }
    }
    return 0;
}

/* need[0..n) as a list of (position, proposition) pairs. */
static int to_pairs(const uint64_t *need, size_t n, ex_pdot **pd, size_t *npd)
{
    size_t cnt = 0;
    for (size_t i = 0; i < n; i++)
        cnt += (size_t)__builtin_popcountll(need[i]);
    *pd = malloc((cnt + 1) * sizeof **pd);
    if (!*pd)
        return -1;
    *npd = 0;
    for (size_t i = 0; i < n; i++)
        for (uint64_t m = need[i]; m; m &= m - 1)
            (*pd)[(*npd)++] = (ex_pdot){i, __builtin_ctzll(m)};
    return 0;
}

/* Every bottom-valued pair at positions 0..n-1: the candidates when the
 * automaton is too large to compute better ones (still sound). */
static int all_bottom(const ex_word *w, size_t n, uint64_t **need)
{
    *need = malloc((n + 1) * sizeof **need);
    if (!*need)
        return -1;
    for (size_t i = 0; i < n; i++)
        (*need)[i] = ex_bottom(w, ex_letter_at(w->letters, w->n, w->loop, i));
    return 0;
}

/* What one explanation needs on the way. */
typedef struct {
    ex_explanation *e;
    const ex_options *o;
    ex_ltl *l;
    int tab;
    ex_word w;
    const ex_binding *b;
    const ex_trace *t;
} job;

/* Decides the candidates with the budget; verdicts in *verdict. */
static int decide(job *j, const ex_first *ff, ex_nba *a, const ex_alive *al, const ex_pdot *pd,
                  size_t npd, long budget, int **verdict)
{
    *verdict = malloc((npd + 1) * sizeof **verdict);
    if (!*verdict)
        return -1;
    for (size_t i = 0; i < npd; i++)
        (*verdict)[i] = EX_EXACT_UNDECIDED;
    if (!a) /* no automaton: nothing decided */
        return 0;
    if (ff->status == EX_FF_INF)
        return ex_exact_lasso(j->l, j->tab, &j->w, pd, npd, *verdict, &budget);
    ex_dfa d;
    if (ex_dfa_init(&d, a))
        return -1;
    int rc = ex_exact_finite(&d, &j->w, ff->k, al, pd, npd, *verdict, &budget);
    ex_dfa_free(&d);
    return rc;
}

/* The screen (ex_exact.h) on the candidates of a finite failure. */
static int screen(job *j, ex_nba *a, size_t k, const ex_alive *al, uint64_t *need, long *budget)
{
    ex_dfa d;
    if (ex_dfa_init(&d, a))
        return -1;
    int rc = ex_screen_finite(&d, &j->w, k, al, need, budget);
    ex_dfa_free(&d);
    return rc;
}

/* Steps 3 and 4 for a failure; the dots go into j->e. */
static int find_dots(job *j, const ex_first *ff)
{
    ex_explanation *e = j->e;
    const ex_options *o = j->o;
    size_t len = ff->status == EX_FF_FAILS ? ff->k + 1 : j->w.n;
    ex_nba a;
    int built = ex_nba_build(j->l, j->tab, o->max_nba_states, &a);
    if (built == EX_NBA_OOM)
        return -1;
    uint64_t *need = NULL;
    ex_alive al = {0};
    int rc;
    if (built == EX_NBA_OK)
        rc = ff->status == EX_FF_FAILS ? ex_cand_finite(&a, &j->w, ff->k, &need, &al)
                                       : ex_cand_lasso(&a, &j->w, &need);
    else {
        note(e,
             "The formula's automaton exceeds %d states: every bottom-valued pair up to the "
             "failure is shown (a sound but coarse over-approximation), none decided.",
             o->max_nba_states);
        rc = all_bottom(&j->w, len, &need);
    }
    long budget = o->exact ? o->exact_budget : o->refine_budget, sbudget = EX_SCREEN_BUDGET;
    if (!rc && built == EX_NBA_OK && ff->status == EX_FF_FAILS)
        rc = screen(j, &a, ff->k, &al, need, &sbudget);
    ex_pdot *pd = NULL;
    size_t npd = 0;
    int *verdict = NULL;
    if (!rc)
        rc = to_pairs(need, len, &pd, &npd);
    if (!rc)
        rc = decide(j, ff, built == EX_NBA_OK ? &a : NULL, &al, pd, npd, budget, &verdict);
    size_t undecided = 0, kept = 0;
    for (size_t i = 0; !rc && i < npd; i++) {
        undecided += verdict[i] == EX_EXACT_UNDECIDED;
        if (verdict[i] != EX_EXACT_NO) { /* proven non-causes are not shown */
            pd[kept] = pd[i];
            verdict[kept++] = o->exact ? verdict[i] : EX_EXACT_UNDECIDED;
        }
    }
    if (!rc && undecided && built == EX_NBA_OK)
        note(e,
             o->exact ? "Exact mode: the search budget (--exact-budget %ld) ran out; %zu "
                        "pair(s) stay undecided."
                      : "The search budget (%ld steps) ran out before %zu candidate pair(s) "
                        "were decided: they are shown and may not all be causes (--exact "
                        "decides them).",
             budget, undecided);
    if (!rc)
        rc = map_dots(e, j->b, &j->w, pd, verdict, kept);
    e->exact_ran = o->exact;
    free(verdict);
    free(pd);
    free(need);
    ex_alive_free(&al);
    if (built == EX_NBA_OK)
        ex_nba_free(&a);
    return rc;
}

/* --algorithm6: the paper's algorithm on pi[0..k], or for an infinite
 * failure on the lasso unwrapped |phi| + 1 times. */
static int alg6_dots(job *j, const ex_first *ff, int root)
{
    int alg6 = ex_ltl_nnf(j->l, root, EX_NNF_ALG6, j->b->consts);
    if (alg6 < 0)
        return -1;
    size_t len = ff->k + 1;
    if (ff->status == EX_FF_INF) {
        size_t period = j->w.n - (size_t)j->w.loop;
        len = (size_t)j->w.loop + (ex_ltl_size(j->l, root) + 1) * period;
    }
    uint64_t *path = malloc(len * sizeof *path);
    if (!path)
        return -1;
    for (size_t i = 0; i < len; i++)
        path[i] = ex_letter_at(j->w.letters, j->w.n, j->w.loop, i);
    ex_pdot *pd;
    int fails;
    size_t npd = ex_cause_alg6(j->l, alg6, path, len, &pd, &fails);
    free(path);
    if (npd == SIZE_MAX)
        return -1;
    if (!fails)
        note(j->e, "Algorithm 6's finite-path semantics does not see this failure; it shows "
                   "no dot.");
    note(j->e, "Dots by the paper's Algorithm 6 (--algorithm6): neither sound nor complete in "
               "general (README).");
    if (ff->status == EX_FF_INF) /* the unwrapped copies are the displayed positions */
        for (size_t i = 0; i < npd; i++)
            pd[i].step = fold(&j->w, pd[i].step);
    int rc = map_dots(j->e, j->b, &j->w, pd, NULL, npd);
    free(pd);
    return rc;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int explain_bound(job *j, int root, const ex_binding *b)
{
    ex_explanation *e = j->e;
    ex_ltl *l = j->l;
    int tabneg = ex_ltl_nnf(l, ex_ltl_mk(l, EX_L_NOT, root, -1), EX_NNF_TABLEAU, b->consts);
    if (j->tab < 0 || tabneg < 0 || record_vars(e, l, b) ||
        ex_ltl_polarity(l, root, b->consts, &j->w.pos, &j->w.neg))
        return -1;
    for (int p = 0; p < l->nprops; p++)
        if (b->consts[p] < 0)
            j->w.signals |= 1ull << p;
    ex_first ff;
    if (ex_first_failure(l, j->tab, tabneg, b->letters, j->w.n, j->w.loop, j->o->max_nba_states,
                         ex_ltl_size(l, root) + 1, &ff))
        return -1;
    if (ff.approximated)
        note(e,
             "Definition 2 was approximated: the formula's automaton exceeds %d states, so the "
             "first failure is the first prefix false in the weak view (certainly a failure; "
             "an earlier, non-informative one may exist).",
             j->o->max_nba_states);
    switch (ff.status) {
    case EX_FF_HOLDS:
    case EX_FF_UNKNOWN:
        e->result = ff.status == EX_FF_HOLDS ? EX_RESULT_HOLDS : EX_RESULT_UNKNOWN;
        return 0;
    case EX_FF_FAILS:
    case EX_FF_INF:
        break;
    }
    e->result = ff.status == EX_FF_FAILS ? EX_RESULT_FAILS : EX_RESULT_INF;
    if (ff.status == EX_FF_FAILS) {
        e->first_failure = (long)ff.k;
        e->first_shown = (long)fold(&j->w, ff.k);
        if (ff.k >= j->w.n)
            note(e,
                 "The first failure is at position %zu of the infinite word, in a later round "
                 "of the loop; the table shows it and its dots on step %ld.",
                 ff.k, e->first_shown);
        if (j->t->unseen && j->t->unseen[e->first_shown])
            note(e,
                 "The first failure is at step %ld, a state inside an atomic sequence: the "
                 "never claim the trail was made with does not observe it (pan's claim moves "
                 "only after the sequence), so pan's check of this formula need not fail "
                 "there.",
                 e->first_shown);
    }
    return j->o->algorithm6 ? alg6_dots(j, &ff, root) : find_dots(j, &ff);
}

int ex_explain(ex_trace *t, const char *formula, int dialect, const ex_options *o,
               ex_explanation *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->first_failure = out->first_shown = -1;
    out->loop_start = t->loop_start;
    if (t->nsteps == 0)
        return fail(err, errlen, "the trace has no states");
    ex_ltl l;
    ex_ltl_init(&l);
    char perr[256];
    ex_binding b;
    int root = ex_ltl_parse(&l, formula, dialect, perr, sizeof perr);
    if (root < 0 || ex_bind(&l, t, dialect == EX_DIALECT_SMV, &b, perr, sizeof perr) != 0) {
        ex_ltl_free(&l);
        return fail(err, errlen, "formula '%.100s%s': %s", formula,
                    strlen(formula) > 100 ? "..." : "", perr);
    }
    job j = {.e = out, .o = o, .l = &l, .b = &b, .t = t};
    j.w = (ex_word){b.letters, ex_trace_lasso_len(t), t->loop_start, 0, 0, 0};
    j.tab = ex_ltl_nnf(&l, root, EX_NNF_TABLEAU, b.consts);
    int rc = (out->formula = strdup(formula)) ? explain_bound(&j, root, &b) : -1;
    ex_binding_free(&b);
    ex_ltl_free(&l);
    if (rc) {
        ex_explanation_free(out);
        return fail(err, errlen, "formula '%s': out of memory", formula);
    }
    return 0;
}

void ex_explanation_free(ex_explanation *e)
{
    free(e->formula);
    free(e->dots);
    free(e->vars);
    for (size_t i = 0; e->props && i < e->nprops; i++)
        free(e->props[i]);
    free(e->props);
    memset(e, 0, sizeof *e);
}
