/* ex_trace: storage for counterexample values, one column per variable.
 *
 * Columns, not rows, because readers discover variables late (a process's
 * locals appear when it first moves) and because evaluation reads a few
 * columns over all steps.
 */
#include "ex_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *ex_tr_realloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p && n)
        abort();
    return p;
}

void ex_trace_init(ex_trace *t)
{
    memset(t, 0, sizeof *t);
    t->loop_start = -1;
}

void ex_trace_free(ex_trace *t)
{
    for (size_t i = 0; i < t->nvars; i++) {
        free(t->vars[i].name);
        free(t->vars[i].v);
    }
    for (size_t i = 0; i < t->nsyms; i++)
        free(t->syms[i]);
    free(t->vars);
    free(t->syms);
    free(t->vhash);
    ex_trace_init(t);
}

static size_t ex_str_hash(const char *s)
{
    size_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void ex_vhash_insert(ex_trace *t, int idx)
{
    size_t h = ex_str_hash(t->vars[idx].name) & (t->vhcap - 1);
    while (t->vhash[h] >= 0)
        h = (h + 1) & (t->vhcap - 1);
    t->vhash[h] = idx;
}

int ex_trace_find(const ex_trace *t, const char *name)
{
    if (!t->vhcap)
        return -1;
    size_t h = ex_str_hash(name) & (t->vhcap - 1);
    for (; t->vhash[h] >= 0; h = (h + 1) & (t->vhcap - 1))
        if (strcmp(t->vars[t->vhash[h]].name, name) == 0)
            return t->vhash[h];
    return -1;
}

int ex_trace_var(ex_trace *t, const char *name)
{
    int idx = ex_trace_find(t, name);
    if (idx >= 0)
        return idx;
    if ((t->nvars + 1) * 2 > t->vhcap) {
        free(t->vhash);
        t->vhcap = t->vhcap ? t->vhcap * 2 : 64;
        t->vhash = ex_tr_realloc(NULL, t->vhcap * sizeof *t->vhash);
        for (size_t i = 0; i < t->vhcap; i++)
            t->vhash[i] = -1;
        for (size_t i = 0; i < t->nvars; i++)
            ex_vhash_insert(t, (int)i);
    }
    if (t->nvars == t->capvars) {
        t->capvars = t->capvars ? t->capvars * 2 : 16;
        t->vars = ex_tr_realloc(t->vars, t->capvars * sizeof *t->vars);
    }
    ex_var *v = &t->vars[t->nvars];
    v->name = strdup(name);
    if (!v->name)
        abort();
    v->v = calloc(t->capsteps ? t->capsteps : 1, sizeof *v->v);
    if (!v->v)
        abort();
    v->defined_from = t->nsteps ? t->nsteps - 1 : 0;
    ex_vhash_insert(t, (int)t->nvars);
    return (int)t->nvars++;
}

void ex_trace_add_step(ex_trace *t)
{
    if (t->nsteps == t->capsteps) {
        t->capsteps = t->capsteps ? t->capsteps * 2 : 64;
        for (size_t i = 0; i < t->nvars; i++)
            t->vars[i].v = ex_tr_realloc(t->vars[i].v, t->capsteps * sizeof(int64_t));
    }
    for (size_t i = 0; i < t->nvars; i++)
        t->vars[i].v[t->nsteps] = t->nsteps ? t->vars[i].v[t->nsteps - 1] : 0;
    t->nsteps++;
}

void ex_trace_set(ex_trace *t, int var, int64_t v)
{
    if (t->nsteps == 0)
        ex_trace_add_step(t);
    t->vars[var].v[t->nsteps - 1] = v;
}

int64_t ex_trace_find_sym(const ex_trace *t, const char *name)
{
    for (size_t i = 0; i < t->nsyms; i++)
        if (strcmp(t->syms[i], name) == 0)
            return EX_SYM_BASE + (int64_t)i;
    return -1;
}

int64_t ex_trace_sym(ex_trace *t, const char *name)
{
    int64_t c = ex_trace_find_sym(t, name);
    if (c >= 0)
        return c;
    if (t->nsyms == t->capsyms) {
        t->capsyms = t->capsyms ? t->capsyms * 2 : 16;
        t->syms = ex_tr_realloc(t->syms, t->capsyms * sizeof *t->syms);
    }
    t->syms[t->nsyms] = strdup(name);
    if (!t->syms[t->nsyms])
        abort();
    return EX_SYM_BASE + (int64_t)t->nsyms++;
}

void ex_trace_value_text(const ex_trace *t, int var, size_t step, char *buf, size_t n)
{
    const ex_var *v = &t->vars[var];
    if (step < v->defined_from) {
        snprintf(buf, n, "-");
        return;
    }
    int64_t x = v->v[step];
    if (x >= EX_SYM_BASE && (size_t)(x - EX_SYM_BASE) < t->nsyms)
        snprintf(buf, n, "%s", t->syms[x - EX_SYM_BASE]);
    else
        snprintf(buf, n, "%lld", (long long)x);
}

size_t ex_trace_lasso_len(const ex_trace *t)
{
    if (t->loop_start < 0 || (size_t)t->loop_start + 1 >= t->nsteps)
        return t->nsteps;
    size_t last = t->nsteps - 1, j = (size_t)t->loop_start;
    for (size_t i = 0; i < t->nvars; i++)
        if (t->vars[i].v[last] != t->vars[i].v[j])
            return t->nsteps;
    return t->nsteps - 1;
}
