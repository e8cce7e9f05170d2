/* ex_bind: name resolution and per-step evaluation of propositions.
 *
 * Variables read by the propositions are copied into a compact row per step
 * (slots), so evaluation costs the formula's size, not the model's.
 */
#include "ex_bind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    ex_trace *t;
    int symbols_open;
    char *err;
    size_t errlen;
    int failed;
    int *slot_col; /* slot -> trace column */
    int nslots;
    int *cur_vars; /* columns of the proposition being bound */
    int ncur;
} ex_bind_ctx;

/* `P:y` names a local of the only running instance of P. */
static int ex_find_remote(const ex_trace *t, const char *name)
{
    const char *colon = strchr(name, ':');
    if (!colon || memchr(name, '[', (size_t)(colon - name)))
        return -1;
    size_t plen = (size_t)(colon - name);
    int found = -1;
    for (size_t i = 0; i < t->nvars; i++) {
        const char *v = t->vars[i].name;
        if (strncmp(v, name, plen) != 0 || v[plen] != '[')
            continue;
        const char *c2 = strchr(v + plen, ':');
        if (!c2 || strcmp(c2, colon) != 0)
            continue;
        if (found >= 0)
            return -2;
        found = (int)i;
    }
    return found;
}

static int ex_slot_for(ex_bind_ctx *c, int col)
{
    for (int s = 0; s < c->nslots; s++)
        if (c->slot_col[s] == col)
            return s;
    c->slot_col = realloc(c->slot_col, (size_t)(c->nslots + 1) * sizeof *c->slot_col);
    if (!c->slot_col)
        abort();
    c->slot_col[c->nslots] = col;
    return c->nslots++;
}

static void ex_bind_leaf(ex_expr *e, void *ctx)
{
    ex_bind_ctx *c = ctx;
    int col = ex_trace_find(c->t, e->name);
    if (col == -1)
        col = ex_find_remote(c->t, e->name);
    if (col == -2) {
        if (!c->failed)
            snprintf(c->err, c->errlen,
                     "'%s' is ambiguous: several instances have it; write P[pid]:var", e->name);
        c->failed = 1;
        return;
    }
    if (col >= 0) {
        e->var = ex_slot_for(c, col);
        int seen = 0;
        for (int i = 0; i < c->ncur; i++)
            seen |= c->cur_vars[i] == col;
        if (!seen) {
            c->cur_vars = realloc(c->cur_vars, (size_t)(c->ncur + 1) * sizeof(int));
            if (!c->cur_vars)
                abort();
            c->cur_vars[c->ncur++] = col;
        }
        return;
    }
    int64_t code = c->symbols_open ? ex_trace_sym(c->t, e->name) : ex_trace_find_sym(c->t, e->name);
    if (code >= 0) {
        e->kind = EX_E_NUM;
        e->num = code;
        return;
    }
    if (!c->failed)
        snprintf(c->err, c->errlen, "unknown variable '%s' in the formula (not in the trace)",
                 e->name);
    c->failed = 1;
}

int ex_bind(ex_ltl *l, ex_trace *t, int symbols_open, ex_binding *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    ex_bind_ctx c = {t, symbols_open, err, errlen, 0, NULL, 0, NULL, 0};
    for (int p = 0; p < l->nprops && !c.failed; p++) {
        c.cur_vars = NULL;
        c.ncur = 0;
        ex_expr_each_var(l->props[p].expr, ex_bind_leaf, &c);
        b->vars[p] = c.cur_vars;
        b->nvars[p] = c.ncur;
        b->consts[p] = -1;
        if (!c.failed && c.ncur == 0)
            b->consts[p] = ex_expr_eval(l->props[p].expr, NULL) != 0;
    }
    if (c.failed) {
        free(c.slot_col);
        ex_binding_free(b);
        return -1;
    }
    b->n = t->nsteps;
    b->letters = calloc(t->nsteps ? t->nsteps : 1, sizeof *b->letters);
    int64_t *row = calloc((size_t)c.nslots + 1, sizeof *row);
    if (!b->letters || !row)
        abort();
    for (size_t i = 0; i < t->nsteps; i++) {
        for (int s = 0; s < c.nslots; s++)
            row[s] = t->vars[c.slot_col[s]].v[i];
        uint64_t letter = 0;
        for (int p = 0; p < l->nprops; p++)
            if (b->consts[p] < 0 && ex_expr_eval(l->props[p].expr, row) != 0)
                letter |= 1ull << p;
        b->letters[i] = letter;
    }
    free(row);
    free(c.slot_col);
    return 0;
}

void ex_binding_free(ex_binding *b)
{
    for (int p = 0; p < EX_MAX_PROPS; p++)
        free(b->vars[p]);
    free(b->letters);
    memset(b, 0, sizeof *b);
}
