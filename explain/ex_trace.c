/* ex_trace: storage for counterexample values, one column per variable.
 *
 * Columns, not rows, because readers discover variables late (a process's
 * locals appear when it first moves) and because evaluation reads a few
 * columns over all steps.  Variable names are found through an open-addressing
 * table of column indices, symbols through a u_intern table, so reading a
 * trace costs one hash lookup per printed value whatever the number of
 * variables or symbols.  Every allocation failure is returned, never fatal:
 * the readers report it with the file and line they were reading.
 */
#include "ex_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        free(t->vars[i].gaps);
    }
    for (size_t i = 0; i < t->nsyms; i++)
        free(t->syms[i]);
    free(t->vars);
    free(t->syms);
    free(t->symval);
    free(t->vhash);
    u_intern_free(&t->symtab);
    ex_locs_free(t->locs);
    free(t->unseen);
    ex_trace_init(t);
}

static size_t name_slot(const ex_trace *t, const char *name)
{
    return (size_t)u_hash_bytes(name, strlen(name)) & (t->vhcap - 1);
}

int ex_trace_find(const ex_trace *t, const char *name)
{
    if (!t->vhcap)
        return -1;
    for (size_t h = name_slot(t, name); t->vhash[h] >= 0; h = (h + 1) & (t->vhcap - 1))
        if (strcmp(t->vars[t->vhash[h]].name, name) == 0)
            return t->vhash[h];
    return -1;
}

/* Doubles the name table (at most half full) and re-enters every column. */
static int grow_vhash(ex_trace *t)
{
    size_t cap = t->vhcap ? t->vhcap * 2 : 64;
    int *h = malloc(cap * sizeof *h);
    if (!h)
        return -1;
    free(t->vhash);
    t->vhash = h;
    t->vhcap = cap;
    for (size_t i = 0; i < cap; i++)
        h[i] = -1;
    for (size_t i = 0; i < t->nvars; i++) {
        size_t s = name_slot(t, t->vars[i].name);
        while (h[s] >= 0)
            s = (s + 1) & (cap - 1);
        h[s] = (int)i;
    }
    return 0;
}

int ex_trace_var(ex_trace *t, const char *name)
{
    int idx = ex_trace_find(t, name);
    if (idx >= 0)
        return idx;
    if (t->nvars >= (size_t)INT32_MAX / 2)
        return -1;
    if ((t->nvars + 1) * 2 > t->vhcap && grow_vhash(t))
        return -1;
    if (U_GROW(t->vars, t->capvars, t->nvars))
        return -1;
    ex_var *v = &t->vars[t->nvars];
    v->name = strdup(name);
    v->v = calloc(t->capsteps ? t->capsteps : 1, sizeof *v->v);
    if (!v->name || !v->v) {
        free(v->name);
        free(v->v);
        return -1;
    }
    v->defined_from = t->nsteps ? t->nsteps - 1 : 0;
    v->gaps = NULL;
    v->ngaps = v->capgaps = 0;
    v->gap_open = SIZE_MAX;
    size_t s = name_slot(t, name);
    while (t->vhash[s] >= 0)
        s = (s + 1) & (t->vhcap - 1);
    t->vhash[s] = (int)t->nvars;
    return (int)t->nvars++;
}

int ex_trace_add_step(ex_trace *t)
{
    if (t->nsteps == t->capsteps) {
        size_t cap = t->capsteps ? t->capsteps * 2 : 64;
        if (cap > SIZE_MAX / sizeof(int64_t))
            return -1;
        /* Every column grows to the same capacity; one that fails leaves the
         * others larger than needed, which is harmless. */
        for (size_t i = 0; i < t->nvars; i++) {
            int64_t *v = realloc(t->vars[i].v, cap * sizeof *v);
            if (!v)
                return -1;
            t->vars[i].v = v;
        }
        t->capsteps = cap;
    }
    for (size_t i = 0; i < t->nvars; i++)
        t->vars[i].v[t->nsteps] = t->nsteps ? t->vars[i].v[t->nsteps - 1] : 0;
    t->nsteps++;
    return 0;
}

int ex_trace_set(ex_trace *t, int var, int64_t v)
{
    if (t->nsteps == 0 && ex_trace_add_step(t))
        return -1;
    ex_var *x = &t->vars[var];
    size_t now = t->nsteps - 1;
    if (x->gap_open != SIZE_MAX) { /* defined again from this step: the gap closes */
        if (x->gap_open < now) {
            if (U_GROW(x->gaps, x->capgaps, x->ngaps))
                return -1;
            x->gaps[x->ngaps][0] = x->gap_open;
            x->gaps[x->ngaps++][1] = now;
        }
        x->gap_open = SIZE_MAX;
    }
    x->v[now] = v;
    return 0;
}

int ex_trace_undefine(ex_trace *t, int var)
{
    if (t->nsteps == 0 && ex_trace_add_step(t))
        return -1;
    ex_var *x = &t->vars[var];
    x->v[t->nsteps - 1] = 0;
    if (x->gap_open == SIZE_MAX)
        x->gap_open = t->nsteps - 1;
    return 0;
}

bool ex_trace_defined(const ex_trace *t, int var, size_t step)
{
    const ex_var *x = &t->vars[var];
    if (step < x->defined_from || step >= x->gap_open)
        return false;
    /* the last gap that starts at or before step (gaps are ascending and disjoint): one
     * per end of a process at the variable's pid, so a trace that reuses a pid often has
     * many */
    size_t lo = 0, hi = x->ngaps;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->gaps[mid][0] <= step)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == 0 || step >= x->gaps[lo - 1][1];
}

int64_t ex_trace_find_sym(const ex_trace *t, const char *name)
{
    uint32_t id = u_intern_find(&t->symtab, name, strlen(name));
    return id == U_INVALID ? -1 : EX_SYM_BASE + (int64_t)id;
}

int64_t ex_trace_sym(ex_trace *t, const char *name)
{
    int64_t known = ex_trace_find_sym(t, name);
    if (known >= 0)
        return known;
    /* Room and copy first, so that the table and syms stay in step (ids are
     * dense: the new symbol's id is nsyms) whatever allocation fails. */
    if (U_GROW(t->syms, t->capsyms, t->nsyms))
        return -1;
    char *copy = strdup(name);
    bool fresh;
    if (!copy || u_intern_put(&t->symtab, name, strlen(name), &fresh) == U_INVALID) {
        free(copy);
        return -1;
    }
    t->syms[t->nsyms] = copy;
    return EX_SYM_BASE + (int64_t)t->nsyms++;
}

int ex_trace_sym_set_value(ex_trace *t, int64_t code, int64_t value)
{
    size_t i = (size_t)(code - EX_SYM_BASE);
    if (code < EX_SYM_BASE || i >= t->nsyms)
        return 0;
    if (i >= t->nsymval) { /* as large as syms, which grows by doubling: linear */
        int64_t *v = realloc(t->symval, t->capsyms * sizeof *v);
        if (!v)
            return -1;
        for (size_t k = t->nsymval; k < t->capsyms; k++)
            v[k] = EX_NO_VALUE;
        t->symval = v;
        t->nsymval = t->capsyms;
    }
    t->symval[i] = value;
    return 0;
}

int64_t ex_trace_eval_value(const ex_trace *t, int64_t x)
{
    size_t i = (size_t)(x - EX_SYM_BASE);
    if (x < EX_SYM_BASE || i >= t->nsymval || t->symval[i] == EX_NO_VALUE)
        return x;
    return t->symval[i];
}

void ex_trace_value_text(const ex_trace *t, int var, size_t step, char *buf, size_t n)
{
    const ex_var *v = &t->vars[var];
    if (!ex_trace_defined(t, var, step)) {
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
