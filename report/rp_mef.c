/*
 * rp_mef.c - the fault tree in the Open-PSA Model Exchange Format (--fault-tree
 * FILE.xml), as SCRAM and other fault tree tools read it.
 *
 * MEF has no priority-AND: a PAND gate is written as an AND gate with the attributes
 * gate-type="PAND" and pand-order="A < B, ...", and its label is the EOL formula, so
 * a tool that ignores the attributes computes the AND (an upper bound).  MEF's AND
 * needs two or more arguments: a cause of one event and no condition is a gate whose
 * formula is that event itself.  A non-occurrence is a house event set to true,
 * labelled with its interval.  The file validates against the RELAX NG schema
 * (report/tests/fixtures/opsa-mef-fault-tree.rng) and SCRAM computes from it the
 * same minimal cut sets and top-event probability as pancause (report/tests).
 */
#include "report.h"

static void gate(FILE *f, const rp_ftree *t, size_t i)
{
    const rp_ft_gate *g = &t->gate[i];
    fprintf(f, "    <define-gate name=\"cause-%zu\">\n      <label>", i + 1);
    u_put_xml(f, g->eol);
    fprintf(f,
            "</label>\n      <attributes>\n        <attribute name=\"gate-type\" "
            "value=\"%s\"/>\n",
            g->pand ? "PAND" : "AND");
    if (g->pand) {
        fputs("        <attribute name=\"pand-order\" value=\"", f);
        u_put_xml(f, g->order);
        fputs("\"/>\n", f);
    }
    fputs("      </attributes>\n", f);
    bool single = g->ninputs + g->nconditions == 1; /* no <and> of one argument */
    const char *ind = single ? "      " : "        ";
    if (!single)
        fputs("      <and>\n", f);
    for (size_t k = 0; k < g->ninputs; k++)
        fprintf(f, "%s<basic-event name=\"%s\"/>\n", ind, t->ev[g->inputs[k]].id);
    for (size_t k = 0; k < g->nconditions; k++)
        fprintf(f, "%s<house-event name=\"cause-%zu-absent-%zu\"/>\n", ind, i + 1, k + 1);
    if (!single)
        fputs("      </and>\n", f);
    fputs("    </define-gate>\n", f);
    for (size_t k = 0; k < g->nconditions; k++) {
        fprintf(f,
                "    <define-house-event name=\"cause-%zu-absent-%zu\">\n      <label>does "
                "not occur: ",
                i + 1, k + 1);
        u_put_xml(f, g->conditions[k]);
        fputs("</label>\n      <constant value=\"true\"/>\n    </define-house-event>\n", f);
    }
}

static int put(FILE *f, const void *arg)
{
    const rp_ftree *t = arg;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<!-- Written by pancause.  MEF has no priority-AND: a PAND gate is an AND gate\n"
          "     with the attribute gate-type=PAND and its causal order in pand-order. -->\n"
          "<opsa-mef>\n  <define-fault-tree name=\"pancause\">\n    <label>",
          f);
    u_put_xml(f, t->model);
    /* whether the gates are every cause: a tool reading the tree must not take a
     * partial OR for the whole hazard (the fourth probe's P4-4) */
    fprintf(f, "</label>\n    <attributes>\n      <attribute name=\"complete\" value=\"%s\"/>\n",
            t->nwhy ? "false" : "true");
    fprintf(f, "      <attribute name=\"all-causes\" value=\"%s\"/>\n",
            t->caveat ? "false" : "true");
    for (size_t k = 0; k < t->nwhy; k++) {
        fprintf(f, "      <attribute name=\"incomplete-reason-%zu\" value=\"", k + 1);
        u_put_xml(f, t->why[k]);
        fputs("\"/>\n", f);
    }
    fputs("    </attributes>\n    <define-gate name=\"hazard\">\n      <label>", f);
    u_put_xml(f, t->hazard);
    fputs("</label>\n", f);
    /* MEF's OR needs two or more arguments too */
    size_t n = t->ngate + t->uncaused;
    if (n == 0) /* no cause and no uncaused run: the hazard is unreachable */
        fputs("      <house-event name=\"no-cause\"/>\n", f);
    if (n > 1)
        fputs("      <or>\n", f);
    for (size_t i = 0; i < t->ngate; i++)
        fprintf(f, "%s<gate name=\"cause-%zu\"/>\n", n > 1 ? "        " : "      ", i + 1);
    if (t->uncaused)
        fprintf(f, "%s<basic-event name=\"" RP_UNCAUSED_ID "\"/>\n", n > 1 ? "        " : "      ");
    if (n > 1)
        fputs("      </or>\n", f);
    fputs("    </define-gate>\n", f);
    if (t->uncaused)
        fputs("    <define-basic-event name=\"" RP_UNCAUSED_ID "\">\n      <label>" RP_UNCAUSED_TEXT
              "</label>\n    </define-basic-event>\n",
              f);
    if (n == 0)
        fputs("    <define-house-event name=\"no-cause\">\n      <constant value=\"false\"/>\n"
              "    </define-house-event>\n",
              f);
    for (size_t i = 0; i < t->ngate; i++)
        gate(f, t, i);
    for (size_t e = 0; e < t->nev; e++) {
        if (!rp_ftree_used(t, e))
            continue;
        fprintf(f, "    <define-basic-event name=\"%s\">\n      <label>", t->ev[e].id);
        u_put_xml(f, t->ev[e].name);
        fputs("</label>\n", f);
        if (t->ev[e].prob >= 0)
            fprintf(f, "      <float value=\"%.15g\"/>\n", t->ev[e].prob);
        fputs("    </define-basic-event>\n", f);
    }
    fputs("  </define-fault-tree>\n</opsa-mef>\n", f);
    return 0;
}

int rp_write_mef(rp_in *in, const char *path, u_err *err)
{
    rp_ftree *t = rp_tree(in);
    return t ? u_write_file(path, put, t, err)
             : u_errf(err, "cannot write %s: out of memory", path);
}
