/* ex_bind: name resolution and per-step evaluation of propositions.
 *
 * Variables read by the propositions are copied into a compact row per step
 * (slots), so evaluation costs the formula's size, not the model's.
 *
 * A name that is neither a trace variable nor a symbol the trace knows is an
 * error: taking it as a constant would make a typo (`G (zz)`) a formula that
 * silently holds.  The one exception is NuSMV's (symbols_open): an enum
 * constant the trace never shows, `st = error`, is a name compared by = or !=
 * with a variable that holds symbols, and is a constant there.  NuSMV has
 * type-checked its specifications, so in its traces a variable that holds
 * only symbols is compared with symbols only; one used as a number or as a
 * truth value (`G a` where the trace says `a = FAL`) means the value was cut
 * off, and is an error too.  The expression trees walked here are at most
 * EX_LTL_MAX_DEPTH deep (the parser refuses deeper ones), which bounds the
 * recursion.
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
    size_t capslots;
    int *cur_vars; /* columns of the proposition being bound */
    int ncur;
    size_t capcur;
    signed char *symbolic; /* per column: -1 unknown, else SYM_NONE/SYM_SOME/SYM_ONLY */
} ctx;

enum { SYM_NONE, SYM_SOME, SYM_ONLY };

/* Keeps the first message; -1. */
static int failf(ctx *c, const char *fmt, const char *name)
{
    if (!c->failed)
        snprintf(c->err, c->errlen, fmt, name);
    c->failed = 1;
    return -1;
}

/* `P:y` names a local of the only running instance of P. */
static int find_remote(const ex_trace *t, const char *name)
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

static int slot_for(ctx *c, int col)
{
    for (int s = 0; s < c->nslots; s++)
        if (c->slot_col[s] == col)
            return s;
    if (U_GROW(c->slot_col, c->capslots, (size_t)c->nslots))
        return -1;
    c->slot_col[c->nslots] = col;
    return c->nslots++;
}

/* Whether a column holds symbols: none, some, or only symbols. */
static int symbolic(ctx *c, int col)
{
    if (c->symbolic[col] < 0) {
        const ex_var *v = &c->t->vars[col];
        size_t sym = 0, n = 0;
        for (size_t i = v->defined_from; i < c->t->nsteps; i++)
            if (ex_trace_defined(c->t, col, i)) {
                sym += v->v[i] >= EX_SYM_BASE;
                n++;
            }
        c->symbolic[col] = sym == 0 ? SYM_NONE : sym == n ? SYM_ONLY : SYM_SOME;
    }
    return c->symbolic[col];
}

/* First pass: trace variables and known symbols.  0, or -1 with the message. */
static int resolve(ctx *c, ex_expr *e)
{
    if (!e || c->failed)
        return c->failed ? -1 : 0;
    if (e->kind != EX_E_VAR)
        return resolve(c, e->l) || resolve(c, e->r) ? -1 : 0;
    int col = ex_trace_find(c->t, e->name);
    if (col == -1)
        col = find_remote(c->t, e->name);
    if (col == -2)
        return failf(c, "'%s' is ambiguous: several instances have it; write P[pid]:var", e->name);
    if (col < 0) {
        int64_t code = ex_trace_find_sym(c->t, e->name);
        if (code >= 0) {
            e->kind = EX_E_NUM;
            e->num = code;
        }
        return 0; /* otherwise left for the second pass */
    }
    int slot = slot_for(c, col);
    if (slot < 0)
        return failf(c, "%s", "out of memory");
    e->var = slot;
    for (int i = 0; i < c->ncur; i++)
        if (c->cur_vars[i] == col)
            return 0;
    if (U_GROW(c->cur_vars, c->capcur, (size_t)c->ncur))
        return failf(c, "%s", "out of memory");
    c->cur_vars[c->ncur++] = col;
    return 0;
}

static int bound_var(const ex_expr *e)
{
    return e && e->kind == EX_E_VAR && e->var >= 0;
}

static int is_symbol(const ex_expr *e)
{
    return e->kind == EX_E_NUM && e->num >= EX_SYM_BASE;
}

/* Second pass, with the parent known: unknown names, and (NuSMV) variables of
 * symbols only used as numbers.  0, or -1 with the message. */
static int check(ctx *c, ex_expr *e, const ex_expr *parent, const ex_expr *sibling)
{
    if (!e || c->failed)
        return c->failed ? -1 : 0;
    int compare =
        parent && parent->kind == EX_E_BIN && (parent->op == EX_OP_EQ || parent->op == EX_OP_NE);
    if (e->kind == EX_E_VAR && e->var < 0) {
        int enum_sibling = c->symbols_open && compare && bound_var(sibling) &&
                           symbolic(c, c->slot_col[sibling->var]) != SYM_NONE;
        int64_t code = enum_sibling ? ex_trace_sym(c->t, e->name) : -1;
        if (enum_sibling && code < 0)
            return failf(c, "%s", "out of memory");
        if (code < 0)
            return failf(c, "unknown variable '%s' in the formula (not in the trace)", e->name);
        e->kind = EX_E_NUM;
        e->num = code;
        return 0;
    }
    if (bound_var(e) && c->symbols_open && symbolic(c, c->slot_col[e->var]) == SYM_ONLY &&
        !(compare && (is_symbol(sibling) || sibling->kind == EX_E_VAR)))
        return failf(c,
                     "'%s' holds symbolic values in the trace but the formula uses it as a "
                     "number or truth value (a value cut off?)",
                     e->name);
    return check(c, e->l, e, e->r) || check(c, e->r, e, e->l) ? -1 : 0;
}

/* Third pass: a symbol with a value (an mtype name: SPIN's number) is that value, as
 * the trace's values are (ex_bind's rows), so `col <= green` compares as pan does. */
static void symbol_values(const ex_trace *t, ex_expr *e)
{
    if (!e)
        return;
    if (e->kind == EX_E_NUM)
        e->num = ex_trace_eval_value(t, e->num);
    symbol_values(t, e->l);
    symbol_values(t, e->r);
}

/* SPIN's remote label references (P[k]@L) are columns made from the trace's process
 * locations (ex_loc.c) before the names are resolved.  0, or -1 with the message. */
static int locations(ctx *c, const ex_expr *e)
{
    if (!e || c->failed)
        return c->failed ? -1 : 0;
    if (e->kind == EX_E_VAR && strchr(e->name, '@') && ex_trace_find(c->t, e->name) < 0 &&
        ex_locs_column(c->t, e->name, c->err, c->errlen) < 0) {
        c->failed = 1;
        return -1;
    }
    return locations(c, e->l) || locations(c, e->r) ? -1 : 0;
}

int ex_bind(ex_ltl *l, ex_trace *t, int symbols_open, ex_binding *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    ctx c = {.t = t, .symbols_open = symbols_open, .err = err, .errlen = errlen};
    for (int p = 0; p < l->nprops && !c.failed; p++)
        locations(&c, l->props[p].expr);
    c.symbolic = malloc(t->nvars + 1);
    if (!c.symbolic)
        failf(&c, "%s", "out of memory");
    else
        memset(c.symbolic, -1, t->nvars + 1);
    for (int p = 0; p < l->nprops && !c.failed; p++) {
        c.cur_vars = NULL;
        c.ncur = 0;
        c.capcur = 0;
        resolve(&c, l->props[p].expr);
        check(&c, l->props[p].expr, NULL, NULL);
        symbol_values(t, l->props[p].expr);
        b->vars[p] = c.cur_vars;
        b->nvars[p] = c.ncur;
        b->consts[p] = -1;
        if (!c.failed && c.ncur == 0)
            b->consts[p] = ex_expr_eval(l->props[p].expr, NULL) != 0;
    }
    free(c.symbolic);
    if (!c.failed) {
        b->n = t->nsteps;
        b->letters = calloc(t->nsteps ? t->nsteps : 1, sizeof *b->letters);
    }
    int64_t *row = c.failed ? NULL : calloc((size_t)c.nslots + 1, sizeof *row);
    if (!c.failed && (!b->letters || !row))
        failf(&c, "%s", "out of memory");
    if (c.failed) {
        free(row);
        free(c.slot_col);
        ex_binding_free(b);
        return -1;
    }
    for (size_t i = 0; i < t->nsteps; i++) {
        for (int s = 0; s < c.nslots; s++)
            row[s] = ex_trace_eval_value(t, t->vars[c.slot_col[s]].v[i]);
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
