/*
 * rp_dot.c - the fault tree in Graphviz's DOT language (--fault-tree FILE.dot|.gv).
 *
 * box = top and intermediate events, invtriangle = OR, house = AND, double-bordered
 * house = PAND (its order in the label, its inputs numbered), circle = basic event,
 * dashed ellipse = a non-occurrence condition.  `dot -Tsvg` renders it.
 */
#include "report.h"

static void gate(FILE *f, const rp_ftree *t, size_t i)
{
    const rp_ft_gate *g = &t->gate[i];
    fprintf(f, "  c%zu [shape=box, label=\"cause %zu\\n", i + 1, i + 1);
    u_put_dot(f, g->eol);
    fprintf(f, "\"];\n  g%zu [shape=house, %slabel=\"%s", i + 1, g->pand ? "peripheries=2, " : "",
            g->pand ? "PAND" : "AND");
    if (g->pand) {
        fputs("\\n", f);
        u_put_dot(f, g->order);
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
        u_put_dot(f, g->conditions[k]);
        fprintf(f, "\"];\n  g%zu -> n%zu_%zu [style=dashed];\n", i + 1, i + 1, k + 1);
    }
}

static int put(FILE *f, const void *arg)
{
    const rp_ftree *t = arg;
    fputs("// Fault tree of the causes found by pancause (README \"Fault trees, trails and\n"
          "// the HTML report\"): box = top / intermediate event, invtriangle = OR gate,\n"
          "// house = AND gate, double house = priority-AND (PAND) with its causal order,\n"
          "// circle = basic event, dashed ellipse = an event that must not occur.\n"
          "digraph fault_tree {\n  ordering=out;\n  node [fontname=\"Helvetica\"];\n",
          f);
    if (t->caveat) { /* the gates may not be every cause: said on the picture */
        fputs("  labelloc=t;\n  label=\"NOT ALL CAUSES: ", f);
        u_put_dot(f, t->caveat);
        for (size_t k = 0; k < t->nwhy; k++) {
            fputs(k ? "; " : ": ", f);
            u_put_dot(f, t->why[k]);
        }
        fputs("\";\n", f);
    }
    fputs("  top [shape=box, style=bold, label=\"", f);
    u_put_dot(f, t->hazard);
    fputs("\"];\n  or [shape=invtriangle, label=\"OR\"];\n  top -> or;\n", f);
    for (size_t i = 0; i < t->ngate; i++)
        gate(f, t, i);
    if (t->uncaused) /* rp_ftree.uncaused: an undeveloped event, a diamond by convention */
        fputs("  " RP_UNCAUSED_ID " [shape=diamond, label=\"" RP_UNCAUSED_TEXT "\"];\n"
              "  or -> " RP_UNCAUSED_ID ";\n",
              f);
    for (size_t e = 0; e < t->nev; e++) {
        if (!rp_ftree_used(t, e))
            continue;
        fprintf(f, "  %s [shape=circle, label=\"", t->ev[e].id);
        u_put_dot(f, t->ev[e].name);
        if (t->ev[e].prob >= 0)
            fprintf(f, "\\np=%g", t->ev[e].prob);
        fputs("\"];\n", f);
    }
    fputs("}\n", f);
    return 0;
}

int rp_write_dot(rp_in *in, const char *path, u_err *err)
{
    rp_ftree *t = rp_tree(in);
    return t ? u_write_file(path, put, t, err)
             : u_errf(err, "cannot write %s: out of memory", path);
}
