/* ex_table: the terminal view of an explanation.
 *
 * One row per step, one column per variable the formula reads (or all),
 * values as the tool printed them.  A dot is a red bullet after the value
 * when stdout is a terminal, and a plain character otherwise, so that the
 * output stays readable in files and pipes.  Rows carry the first failure,
 * the loop start, and the last state that repeats it.
 */
#include "explain.h"

#include <stdlib.h>
#include <string.h>

#define EX_RED "\033[1;31m"
#define EX_DIM "\033[2;33m"
#define EX_OFF "\033[0m"

static const char *ex_mark(int exact, int color)
{
    if (exact == 0)
        return color ? EX_DIM "o" EX_OFF : "o";
    if (exact == -1 || exact == 1)
        return color ? EX_RED "\xe2\x97\x8f" EX_OFF : "*"; /* U+25CF */
    return "?";
}

static void ex_header(FILE *o, const ex_explanation *e, size_t lasso_len, size_t nsteps)
{
    fprintf(o, "formula: %s\n", e->formula);
    if (e->nprops) {
        fprintf(o, "propositions:");
        for (size_t i = 0; i < e->nprops; i++)
            fprintf(o, "%s %s", i ? "," : "", e->props[i]);
        fputc('\n', o);
    }
    if (e->result == EX_RESULT_FAILS && e->first_shown != e->first_failure)
        fprintf(o, "first failure: position %ld of the word, shown on step %ld\n", e->first_failure,
                e->first_shown);
    else if (e->result == EX_RESULT_FAILS)
        fprintf(o, "first failure: step %ld\n", e->first_failure);
    else
        fprintf(o, "first failure: none on a finite prefix; the formula fails on the infinite "
                   "lasso\n");
    if (e->loop_start >= 0) {
        fprintf(o, "loop: from step %ld", e->loop_start);
        if (lasso_len < nsteps)
            fprintf(o, " (step %zu repeats step %ld)", nsteps - 1, e->loop_start);
        fputc('\n', o);
    }
    fprintf(o, "dots: %zu\n", e->ndots);
    if (e->note[0])
        fprintf(o, "note: %s\n", e->note);
}

int ex_render_table(FILE *o, const ex_trace *t, const ex_explanation *e, int color, int all_vars)
{
    size_t lasso_len = ex_trace_lasso_len(t);
    ex_header(o, e, lasso_len, t->nsteps);
    size_t nc = all_vars ? t->nvars : e->nvars;
    int *cols = malloc((nc + 1) * sizeof *cols);
    size_t *width = calloc(nc + 1, sizeof *width);
    if (!cols || !width) {
        free(cols);
        free(width);
        return -1;
    }
    char buf[128];
    for (size_t c = 0; c < nc; c++) {
        cols[c] = all_vars ? (int)c : e->vars[c];
        width[c] = strlen(t->vars[cols[c]].name);
        for (size_t i = 0; i < t->nsteps; i++) {
            ex_trace_value_text(t, cols[c], i, buf, sizeof buf);
            if (strlen(buf) + 2 > width[c])
                width[c] = strlen(buf) + 2;
        }
    }
    int sw = snprintf(buf, sizeof buf, "%zu", t->nsteps) + 1;
    if (sw < 4)
        sw = 4;
    fprintf(o, "\n%*s", sw, "step");
    for (size_t c = 0; c < nc; c++)
        fprintf(o, " | %-*s", (int)width[c], t->vars[cols[c]].name);
    fputc('\n', o);
    size_t d = 0;
    for (size_t i = 0; i < t->nsteps; i++) {
        fprintf(o, "%*zu", sw, i);
        while (d < e->ndots && e->dots[d].step < i)
            d++;
        for (size_t c = 0; c < nc; c++) {
            ex_trace_value_text(t, cols[c], i, buf, sizeof buf);
            const ex_dot *hit = NULL;
            for (size_t k = d; k < e->ndots && e->dots[k].step == i; k++)
                if (e->dots[k].var == cols[c])
                    hit = &e->dots[k];
            int pad = (int)width[c] - (int)strlen(buf) - (hit ? 2 : 0);
            fprintf(o, " | %s%s%s%*s", buf, hit ? " " : "",
                    hit ? ex_mark(e->exact_ran ? hit->exact : -1, color) : "", pad, "");
        }
        if ((long)i == e->first_shown)
            fprintf(o, "  <- first failure");
        if ((long)i == e->loop_start)
            fprintf(o, "  <- loop starts");
        if (lasso_len < t->nsteps && i == t->nsteps - 1)
            fprintf(o, "  (= step %ld, loops back)", e->loop_start);
        fputc('\n', o);
    }
    fprintf(o, "\n%s cause (red dot)", ex_mark(-1, color));
    if (e->exact_ran)
        fputs(", exact mode: ? undecided (the search budget ran out)", o);
    fputc('\n', o);
    free(cols);
    free(width);
    return 0;
}
