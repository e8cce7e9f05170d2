/* Test helper shared by the explain Check programs: builds Boolean traces
 * from compact strings, as the paper writes them (a.b.{}...), and runs an
 * explanation on them.  Header-only so each test program stays one file. */
#ifndef EX_TEST_UTIL_H
#define EX_TEST_UTIL_H

#include "explain.h"

#include <stdlib.h>
#include <string.h>

/* vars: "a b c"; steps: each a space-separated list of the true variables;
 * loop: index of the loop start or -1.  For a lasso the last state given is
 * the state that loops back (it is not repeated). */
static inline void ex_test_trace(ex_trace *t, const char *vars, const char *const *steps, size_t n,
                                 long loop)
{
    ex_trace_init(t);
    char buf[256];
    ex_trace_add_step(t);
    snprintf(buf, sizeof buf, "%s", vars);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        ex_trace_var(t, tok);
    for (size_t i = 0; i < n; i++) {
        if (i)
            ex_trace_add_step(t);
        for (size_t v = 0; v < t->nvars; v++)
            ex_trace_set(t, (int)v, 0);
        snprintf(buf, sizeof buf, "%s", steps[i]);
        for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
            ex_trace_set(t, ex_trace_find(t, tok), 1);
    }
    t->loop_start = loop;
}

/* Dots as "position:var" joined by spaces (positions in the word, as the
 * JSON gives them), with "!" appended to exact ones and "?" to undecided
 * ones when exact mode ran. */
static inline void ex_test_dots(const ex_trace *t, const ex_explanation *e, char *out, size_t n)
{
    out[0] = 0;
    for (size_t i = 0; i < e->ndots; i++) {
        char one[64];
        const char *mark = !e->exact_ran           ? ""
                           : e->dots[i].exact == 1 ? "!"
                           : e->dots[i].exact == 0 ? ""
                                                   : "?";
        snprintf(one, sizeof one, "%s%zu:%s%s", i ? " " : "", e->dots[i].pos,
                 t->vars[e->dots[i].var].name, mark);
        strncat(out, one, n - strlen(out) - 1);
    }
}

#endif
