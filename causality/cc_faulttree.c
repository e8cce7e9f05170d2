/*
 * cc_faulttree.c - the causes as a fault tree, and its three file formats.
 *
 * Section 4.2 of the paper maps the causes to a fault tree in a normal form: the
 * hazard is the top event, an intermediate event over one OR gate, and every cause
 * is an AND gate (no order of its events is causal) or a priority-AND gate (PAND:
 * some order is causal), annotated with the cause's EOL formula, over basic events.
 * cc_ftree_build() makes that tree from the analysis result: one basic event per
 * event type, shared by every gate whose cause contains it; a PAND gate's inputs in
 * the order of the cause's witness, with the causal orders as its annotation.  A
 * causal non-occurrence is not a basic event (nothing failed): it is a condition on
 * the gate, like the conditioning event of an inhibit gate, drawn as a dashed oval
 * and exported to Open-PSA MEF as a house event set to true (README "Fault trees,
 * trails and the HTML report").  The writers produce Graphviz .dot, Open-PSA MEF .xml
 * and .json, chosen by the file's extension, through cc_write_file().
 */
#include "causality.h"

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
static char *make_id(const char *name, const cc_ftree *t, size_t upto)
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
    for (size_t i = 0, sfx = 2; i < upto; i++)
        if (!strcmp(t->ev[i].id, id)) {
            snprintf(id + k, 24, "_%zu", sfx++);
            i = (size_t)-1; /* check the new name from the start */
        }
    return id;
}

static int add_events(cc_ftree *t, const char *const *names, size_t nevents)
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
static char *order_text(const cc_cause *c, const char *const *names)
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
static char *absent_text(const cc_cause *c, const cc_absent *a, const char *const *names)
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

static char *formula(const cc_cause *c, const char *const *names, eol_style st)
{
    eol_node *psi = cc_formula(c, names);
    char *s = psi ? eol_print(psi, st) : NULL;
    eol_free(psi);
    return s;
}

static int build_gate(cc_ft_gate *g, const cc_cause *c, const char *const *names)
{
    for (size_t i = 0; i < c->nocc * c->nocc; i++)
        g->pand |= c->ordered[i];
    g->eol = formula(c, names, EOL_ASCII);
    g->eol_unicode = formula(c, names, EOL_UNICODE);
    g->order = g->pand ? order_text(c, names) : NULL;
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
        g->conditions[k] = absent_text(c, &c->absent[k], names);
        g->nconditions = k + 1;
        if (!g->conditions[k])
            return -1;
    }
    return 0;
}

cc_ftree *cc_ftree_build(const cc_result *r, const char *const *names, size_t nevents,
                         const char *model, const char *hazard)
{
    cc_ftree *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->model = dupstr(model ? model : "model");
    t->hazard = dupstr(hazard ? hazard : "the hazard");
    t->gate = calloc(r->ncauses + 1, sizeof *t->gate);
    if (!t->model || !t->hazard || !t->gate || add_events(t, names, nevents)) {
        cc_ftree_free(t);
        return NULL;
    }
    for (size_t i = 0; i < r->ncauses; i++) {
        t->ngate = i + 1;
        if (build_gate(&t->gate[i], &r->causes[i], names)) {
            cc_ftree_free(t);
            return NULL;
        }
    }
    return t;
}

void cc_ftree_free(cc_ftree *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nev; i++) {
        free(t->ev[i].name);
        free(t->ev[i].id);
    }
    for (size_t i = 0; i < t->ngate; i++) {
        cc_ft_gate *g = &t->gate[i];
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

bool cc_ftree_used(const cc_ftree *t, size_t e)
{
    for (size_t i = 0; i < t->ngate; i++)
        for (size_t k = 0; k < t->gate[i].ninputs; k++)
            if (t->gate[i].inputs[k] == e)
                return true;
    return false;
}

/* ---- escaping ---- */

/* Writes s with the characters special in `what` escaped: 'x' XML, 'd' a Graphviz
 * string, 'j' a JSON string (without the quotes). */
void cc_put_escaped(FILE *f, const char *s, char what)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (what == 'x' && ch == '<')
            fputs("&lt;", f);
        else if (what == 'x' && ch == '>')
            fputs("&gt;", f);
        else if (what == 'x' && ch == '&')
            fputs("&amp;", f);
        else if (what == 'x' && ch == '"')
            fputs("&quot;", f);
        else if (what != 'x' && (ch == '"' || ch == '\\'))
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, what == 'j' ? "\\u%04x" : " ", ch);
        else
            fputc(ch, f);
    }
}

/* ---- Graphviz ---- */

static void dot_gate(FILE *f, const cc_ftree *t, size_t i)
{
    const cc_ft_gate *g = &t->gate[i];
    fprintf(f, "  c%zu [shape=box, label=\"cause %zu\\n", i + 1, i + 1);
    cc_put_escaped(f, g->eol, 'd');
    fprintf(f, "\"];\n  g%zu [shape=house, %slabel=\"%s", i + 1, g->pand ? "peripheries=2, " : "",
            g->pand ? "PAND" : "AND");
    if (g->pand) {
        fputs("\\n", f);
        cc_put_escaped(f, g->order, 'd');
    }
    fprintf(f, "\"];\n  or -> c%zu;\n  c%zu -> g%zu;\n", i + 1, i + 1, i + 1);
    for (size_t k = 0; k < g->ninputs; k++) {
        fprintf(f, "  g%zu -> %s", i + 1, t->ev[g->inputs[k]].id);
        if (g->pand) /* PAND inputs are ordered: number them */
            fprintf(f, " [label=\"%zu\"]", k + 1);
        fputs(";\n", f);
    }
    for (size_t k = 0; k < g->nconditions; k++) {
        fprintf(f, "  n%zu_%zu [shape=ellipse, style=dashed, label=\"does not occur:\\n", i + 1,
                k + 1);
        cc_put_escaped(f, g->conditions[k], 'd');
        fprintf(f, "\"];\n  g%zu -> n%zu_%zu [style=dashed];\n", i + 1, i + 1, k + 1);
    }
}

static int put_dot(FILE *f, const void *arg)
{
    const cc_ftree *t = arg;
    fputs("// Fault tree of the causes found by pancause (README \"Fault trees, trails and\n"
          "// the HTML report\"): box = top / intermediate event, invtriangle = OR gate,\n"
          "// house = AND gate, double house = priority-AND (PAND) with its causal order,\n"
          "// circle = basic event, dashed ellipse = an event that must not occur.\n"
          "digraph fault_tree {\n  ordering=out;\n  node [fontname=\"Helvetica\"];\n",
          f);
    fputs("  top [shape=box, style=bold, label=\"", f);
    cc_put_escaped(f, t->hazard, 'd');
    fputs("\"];\n  or [shape=invtriangle, label=\"OR\"];\n  top -> or;\n", f);
    for (size_t i = 0; i < t->ngate; i++)
        dot_gate(f, t, i);
    for (size_t e = 0; e < t->nev; e++) {
        if (!cc_ftree_used(t, e))
            continue;
        fprintf(f, "  %s [shape=circle, label=\"", t->ev[e].id);
        cc_put_escaped(f, t->ev[e].name, 'd');
        if (t->ev[e].prob >= 0)
            fprintf(f, "\\np=%g", t->ev[e].prob);
        fputs("\"];\n", f);
    }
    fputs("}\n", f);
    return 0;
}

/* ---- Open-PSA MEF ---- */

static void mef_gate(FILE *f, const cc_ftree *t, size_t i)
{
    const cc_ft_gate *g = &t->gate[i];
    fprintf(f, "    <define-gate name=\"cause-%zu\">\n      <label>", i + 1);
    cc_put_escaped(f, g->eol, 'x');
    fprintf(f,
            "</label>\n      <attributes>\n        <attribute name=\"gate-type\" "
            "value=\"%s\"/>\n",
            g->pand ? "PAND" : "AND");
    if (g->pand) {
        fputs("        <attribute name=\"pand-order\" value=\"", f);
        cc_put_escaped(f, g->order, 'x');
        fputs("\"/>\n", f);
    }
    fputs("      </attributes>\n      <and>\n", f);
    for (size_t k = 0; k < g->ninputs; k++)
        fprintf(f, "        <basic-event name=\"%s\"/>\n", t->ev[g->inputs[k]].id);
    for (size_t k = 0; k < g->nconditions; k++)
        fprintf(f, "        <house-event name=\"cause-%zu-absent-%zu\"/>\n", i + 1, k + 1);
    fputs("      </and>\n    </define-gate>\n", f);
    for (size_t k = 0; k < g->nconditions; k++) {
        fprintf(f,
                "    <define-house-event name=\"cause-%zu-absent-%zu\">\n      <label>does "
                "not occur: ",
                i + 1, k + 1);
        cc_put_escaped(f, g->conditions[k], 'x');
        fputs("</label>\n      <constant value=\"true\"/>\n    </define-house-event>\n", f);
    }
}

static int put_mef(FILE *f, const void *arg)
{
    const cc_ftree *t = arg;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<!-- Written by pancause.  MEF has no priority-AND: a PAND gate is an AND gate\n"
          "     with the attribute gate-type=PAND and its causal order in pand-order. -->\n"
          "<opsa-mef>\n  <define-fault-tree name=\"pancause\">\n    <label>",
          f);
    cc_put_escaped(f, t->model, 'x');
    fputs("</label>\n    <define-gate name=\"hazard\">\n      <label>", f);
    cc_put_escaped(f, t->hazard, 'x');
    fputs("</label>\n      <or>\n", f);
    for (size_t i = 0; i < t->ngate; i++)
        fprintf(f, "        <gate name=\"cause-%zu\"/>\n", i + 1);
    if (!t->ngate) /* no cause: the hazard is unreachable, an OR needs an argument */
        fputs("        <house-event name=\"no-cause\"/>\n", f);
    fputs("      </or>\n    </define-gate>\n", f);
    if (!t->ngate)
        fputs("    <define-house-event name=\"no-cause\">\n      <constant value=\"false\"/>\n"
              "    </define-house-event>\n",
              f);
    for (size_t i = 0; i < t->ngate; i++)
        mef_gate(f, t, i);
    for (size_t e = 0; e < t->nev; e++) {
        if (!cc_ftree_used(t, e))
            continue;
        fprintf(f, "    <define-basic-event name=\"%s\">\n      <label>", t->ev[e].id);
        cc_put_escaped(f, t->ev[e].name, 'x');
        fputs("</label>\n", f);
        if (t->ev[e].prob >= 0)
            fprintf(f, "      <float value=\"%.15g\"/>\n", t->ev[e].prob);
        fputs("    </define-basic-event>\n", f);
    }
    fputs("  </define-fault-tree>\n</opsa-mef>\n", f);
    return 0;
}

/* ---- JSON ---- */

static void json_s(FILE *f, const char *s)
{
    fputc('"', f);
    cc_put_escaped(f, s, 'j');
    fputc('"', f);
}

static void json_gate(FILE *f, const cc_ftree *t, size_t i)
{
    const cc_ft_gate *g = &t->gate[i];
    fprintf(f, "    {\"name\": \"cause-%zu\", \"type\": \"%s\", \"eol\": ", i + 1,
            g->pand ? "pand" : "and");
    json_s(f, g->eol);
    fputs(", \"eol_unicode\": ", f);
    json_s(f, g->eol_unicode);
    fputs(", \"order\": ", f);
    if (g->pand)
        json_s(f, g->order);
    else
        fputs("null", f);
    fputs(",\n     \"inputs\": [", f);
    for (size_t k = 0; k < g->ninputs; k++) {
        fputs(k ? ", " : "", f);
        json_s(f, t->ev[g->inputs[k]].name);
    }
    fputs("], \"absent\": [", f);
    for (size_t k = 0; k < g->nconditions; k++) {
        fputs(k ? ", " : "", f);
        json_s(f, g->conditions[k]);
    }
    fputs("]}", f);
}

static int put_json(FILE *f, const void *arg)
{
    const cc_ftree *t = arg;
    fputs("{\n  \"model\": ", f);
    json_s(f, t->model);
    fputs(",\n  \"top\": {\"name\": \"hazard\", \"label\": ", f);
    json_s(f, t->hazard);
    fputs(", \"gate\": \"or\", \"inputs\": [", f);
    for (size_t i = 0; i < t->ngate; i++)
        fprintf(f, "%s\"cause-%zu\"", i ? ", " : "", i + 1);
    fputs("]},\n  \"gates\": [\n", f);
    for (size_t i = 0; i < t->ngate; i++) {
        json_gate(f, t, i);
        fputs(i + 1 < t->ngate ? ",\n" : "\n", f);
    }
    fputs("  ],\n  \"basic_events\": [", f);
    bool first = true;
    for (size_t e = 0; e < t->nev; e++) {
        if (!cc_ftree_used(t, e))
            continue;
        fputs(first ? "\n    {\"name\": " : ",\n    {\"name\": ", f);
        first = false;
        json_s(f, t->ev[e].name);
        fprintf(f, ", \"id\": \"%s\", \"probability\": ", t->ev[e].id);
        if (t->ev[e].prob >= 0)
            fprintf(f, "%.15g}", t->ev[e].prob);
        else
            fputs("null}", f);
    }
    fputs("\n  ]", f);
    cc_topprob p;
    if (cc_prob_top(t, &p) == 0) {
        fprintf(f, ",\n  \"top_probability\": {\"rare_event\": %.15g, \"exact\": ", p.rare);
        if (p.has_exact)
            fprintf(f, "%.15g", p.exact);
        else
            fputs("null", f);
        fprintf(f, ", \"cut_sets\": %zu, \"pand_order_ignored\": true}", p.ncuts);
    }
    fputs("\n}\n", f);
    return 0;
}

/* ---- dispatch by extension ---- */

int cc_ftree_format(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return -1;
    if (!strcmp(dot, ".dot") || !strcmp(dot, ".gv"))
        return CC_FT_DOT;
    if (!strcmp(dot, ".xml"))
        return CC_FT_MEF;
    if (!strcmp(dot, ".json"))
        return CC_FT_JSON;
    return -1;
}

int cc_ftree_write(const cc_ftree *t, const char *path)
{
    switch (cc_ftree_format(path)) {
    case CC_FT_DOT:
        return cc_write_file(path, put_dot, t);
    case CC_FT_MEF:
        return cc_write_file(path, put_mef, t);
    case CC_FT_JSON:
        return cc_write_file(path, put_json, t);
    default:
        fprintf(stderr,
                "pancause: cannot write %s: unknown fault tree format (use .dot, "
                ".xml or .json)\n",
                path);
        return -1;
    }
}
