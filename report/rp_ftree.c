/*
 * rp_ftree.c - the causes as a fault tree, and the display texts of a cause.
 *
 * Section 4.2 of the paper maps the causes to a fault tree in a normal form: the
 * hazard is the top event, an intermediate event over one OR gate, and every cause
 * is an AND gate (no order of its events is causal) or a priority-AND gate (PAND:
 * some order is causal), annotated with the cause's EOL formula, over basic events.
 * rp_ftree_build() makes that tree from the analysis result: one basic event per
 * event type, shared by every gate whose cause contains it; a PAND gate's inputs in
 * the order of the cause's witness, with the causal orders as its annotation.  A
 * causal non-occurrence is not a basic event (nothing failed): it is a condition on
 * the gate, like the conditioning event of an inhibit gate, drawn as a dashed oval
 * and exported to Open-PSA MEF as a house event set to true (README "Fault trees,
 * trails and the HTML report").  The writers produce Graphviz .dot, Open-PSA MEF .xml
 * and .json (rp_dot.c, rp_mef.c, rp_ftjson.c), rows of the writer table.
 */
#include "report.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- building ---- */

static char *dupstr(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* An identifier for MEF (an NCName without '.' or a leading digit) and Graphviz:
 * letters, digits and '_' kept, anything else becomes '_'; unique by a suffix. */
static char *make_id(const char *name, const rp_ftree *t, size_t upto)
{
    size_t n = strlen(name);
    char *id = malloc(n + 24);
    if (!id)
        return NULL;
    size_t k = 0;
    if (!isalpha((unsigned char)name[0]) && name[0] != '_')
        id[k++] = 'e';
    for (size_t i = 0; i < n; i++)
        id[k++] = isalnum((unsigned char)name[i]) ? name[i] : '_';
    id[k] = 0;
    if (!strcmp(id, RP_UNCAUSED_ID)) /* the tree's own undeveloped input keeps its name */
        k += (size_t)snprintf(id + k, 24, "_1");
    for (size_t i = 0, sfx = 2; i < upto; i++)
        if (!strcmp(t->ev[i].id, id)) {
            snprintf(id + k, 24, "_%zu", sfx++);
            i = (size_t)-1; /* check the new name from the start */
        }
    return id;
}

static int add_events(rp_ftree *t, const char *const *names, size_t nevents)
{
    t->ev = calloc(nevents + 1, sizeof *t->ev);
    if (!t->ev)
        return -1;
    for (size_t i = 0; i < nevents; i++) {
        t->ev[i].prob = -1;
        t->ev[i].name = dupstr(names[i]);
        t->ev[i].id = t->ev[i].name ? make_id(names[i], t, i) : NULL;
        t->nev = i + 1;
        if (!t->ev[i].id)
            return -1;
    }
    return 0;
}

/* "A < B, B < C": the covering pairs of the cause's causal order. */
char *rp_order_text(const cc_cause *c, const char *const *names)
{
    size_t n = c->nocc, len = 0, cap = 64;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[0] = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            bool cover = c->ordered[i * n + j];
            for (size_t m = 0; m < n && cover; m++)
                cover = !(c->ordered[i * n + m] && c->ordered[m * n + j]);
            if (!cover)
                continue;
            char *a = cc_occ_name(c, i, names), *b = cc_occ_name(c, j, names);
            size_t need = len + (a ? strlen(a) : 0) + (b ? strlen(b) : 0) + 8;
            char *r = need > cap ? realloc(s, cap = 2 * need) : s;
            if (!a || !b || !r) {
                free(a);
                free(b);
                free(r ? r : s);
                return NULL;
            }
            s = r;
            len += (size_t)sprintf(s + len, "%s%s < %s", len ? ", " : "", a, b);
            free(a);
            free(b);
        }
    return s;
}

/* "Cl between Cc and Tc" / "before X" / "after X" / "anywhere". */
char *rp_absent_text(const cc_cause *c, const cc_absent *a, const char *const *names)
{
    char *x = a->after >= 0 ? cc_occ_name(c, (size_t)a->after, names) : NULL;
    char *y = a->before >= 0 ? cc_occ_name(c, (size_t)a->before, names) : NULL;
    size_t n = strlen(names[a->event]) + (x ? strlen(x) : 0) + (y ? strlen(y) : 0) + 32;
    char *s = malloc(n);
    if (s && x && y)
        snprintf(s, n, "%s between %s and %s", names[a->event], x, y);
    else if (s && y)
        snprintf(s, n, "%s before %s", names[a->event], y);
    else if (s && x)
        snprintf(s, n, "%s after %s", names[a->event], x);
    else if (s)
        snprintf(s, n, "%s anywhere", names[a->event]);
    free(x);
    free(y);
    return s;
}

char *rp_formula(const cc_cause *c, const char *const *names, eol_style st)
{
    eol_node *psi = cc_formula(c, names);
    char *s = psi ? eol_print(psi, st) : NULL;
    eol_free(psi);
    return s;
}

static int build_gate(rp_ft_gate *g, const cc_cause *c, const char *const *names)
{
    for (size_t i = 0; i < c->nocc * c->nocc; i++)
        g->pand |= c->ordered[i];
    g->eol = rp_formula(c, names, EOL_ASCII);
    g->eol_unicode = rp_formula(c, names, EOL_UNICODE);
    g->order = g->pand ? rp_order_text(c, names) : NULL;
    g->inputs = malloc((c->nocc + 1) * sizeof *g->inputs);
    g->conditions = calloc(c->nabsent + 1, sizeof *g->conditions);
    if (!g->eol || !g->eol_unicode || (g->pand && !g->order) || !g->inputs || !g->conditions)
        return -1;
    for (size_t k = 0; k < c->nocc; k++) { /* witness order; one input per event type */
        size_t e = c->occ[k].event, j = 0;
        while (j < g->ninputs && g->inputs[j] != e)
            j++;
        if (j == g->ninputs)
            g->inputs[g->ninputs++] = e;
    }
    for (size_t k = 0; k < c->nabsent; k++) {
        g->conditions[k] = rp_absent_text(c, &c->absent[k], names);
        g->nconditions = k + 1;
        if (!g->conditions[k])
            return -1;
    }
    return 0;
}

rp_ftree *rp_ftree_build(const cc_result *r, const char *const *names, size_t nevents,
                         const char *model, const char *hazard)
{
    rp_ftree *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->model = dupstr(model ? model : "model");
    t->hazard = dupstr(hazard ? hazard : "the hazard");
    t->gate = calloc(r->ncauses + 1, sizeof *t->gate);
    if (!t->model || !t->hazard || !t->gate || add_events(t, names, nevents)) {
        rp_ftree_free(t);
        return NULL;
    }
    for (size_t i = 0; i < r->ncauses; i++) {
        t->ngate = i + 1;
        if (build_gate(&t->gate[i], &r->causes[i], names)) {
            rp_ftree_free(t);
            return NULL;
        }
    }
    return t;
}

void rp_ftree_free(rp_ftree *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nev; i++) {
        free(t->ev[i].name);
        free(t->ev[i].id);
    }
    for (size_t i = 0; i < t->ngate; i++) {
        rp_ft_gate *g = &t->gate[i];
        free(g->eol);
        free(g->eol_unicode);
        free(g->order);
        free(g->inputs);
        for (size_t k = 0; k < g->nconditions; k++)
            free(g->conditions[k]);
        free(g->conditions);
    }
    free(t->ev);
    free(t->gate);
    free(t->model);
    free(t->hazard);
    free(t);
}

bool rp_ftree_used(const rp_ftree *t, size_t e)
{
    for (size_t i = 0; i < t->ngate; i++)
        for (size_t k = 0; k < t->gate[i].ninputs; k++)
            if (t->gate[i].inputs[k] == e)
                return true;
    return false;
}
