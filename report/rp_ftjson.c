/*
 * rp_ftjson.c - the fault tree as JSON (--fault-tree FILE.json), for tools that
 * draw or analyse it themselves: the top event, the gates with their EOL formulas,
 * orders, inputs and conditions, the basic events with their probabilities, and the
 * top event's probability when every basic event has one (README "Fault trees").
 */
#include "report.h"

static void gate(u_json *j, const rp_ftree *t, size_t i)
{
    const rp_ft_gate *g = &t->gate[i];
    char name[32];
    snprintf(name, sizeof name, "cause-%zu", i + 1);
    u_json_obj(j);
    u_json_key(j, "name");
    u_json_str(j, name);
    u_json_key(j, "type");
    u_json_str(j, g->pand ? "pand" : "and");
    u_json_key(j, "eol");
    u_json_str(j, g->eol);
    u_json_key(j, "eol_unicode");
    u_json_str(j, g->eol_unicode);
    u_json_key(j, "order");
    u_json_str(j, g->pand ? g->order : NULL);
    u_json_key(j, "inputs");
    u_json_arr(j);
    for (size_t k = 0; k < g->ninputs; k++)
        u_json_str(j, t->ev[g->inputs[k]].name);
    u_json_end(j);
    u_json_key(j, "absent");
    u_json_arr(j);
    for (size_t k = 0; k < g->nconditions; k++)
        u_json_str(j, g->conditions[k]);
    u_json_end(j);
    u_json_end(j);
}

static void top_probability(u_json *j, const rp_ftree *t)
{
    rp_topprob p;
    if (rp_prob_top(t, &p) != 0)
        return;
    u_json_key(j, "top_probability");
    u_json_obj(j);
    u_json_key(j, "rare_event");
    u_json_num(j, "%.15g", p.rare);
    u_json_key(j, "exact");
    if (p.has_exact)
        u_json_num(j, "%.15g", p.exact);
    else
        u_json_null(j);
    u_json_key(j, "cut_sets");
    u_json_uint(j, p.ncuts);
    u_json_key(j, "pand_order_ignored");
    u_json_bool(j, true);
    u_json_key(j, "upper_bound"); /* only over every cause (rp_ftree.caveat) */
    u_json_bool(j, !t->caveat);
    u_json_end(j);
}

static int put(FILE *f, const void *arg)
{
    const rp_ftree *t = arg;
    u_json j;
    u_json_init(&j, f, 3);
    u_json_obj(&j);
    u_json_key(&j, "model");
    u_json_str(&j, t->model);
    u_json_key(&j, "complete");
    u_json_bool(&j, t->nwhy == 0);
    u_json_key(&j, "incomplete_reasons");
    u_json_arr(&j);
    for (size_t k = 0; k < t->nwhy; k++)
        u_json_str(&j, t->why[k]);
    u_json_end(&j);
    u_json_key(&j, "all_causes"); /* the gates are every cause (rp_every_cause_caveat) */
    u_json_bool(&j, !t->caveat);
    u_json_key(&j, "top");
    u_json_obj(&j);
    u_json_key(&j, "name");
    u_json_str(&j, "hazard");
    u_json_key(&j, "label");
    u_json_str(&j, t->hazard);
    u_json_key(&j, "gate");
    u_json_str(&j, "or");
    u_json_key(&j, "inputs");
    u_json_arr(&j);
    for (size_t i = 0; i < t->ngate; i++) {
        char name[32];
        snprintf(name, sizeof name, "cause-%zu", i + 1);
        u_json_str(&j, name);
    }
    if (t->uncaused) /* rp_ftree.uncaused: an undeveloped input, no probability */
        u_json_str(&j, RP_UNCAUSED_ID);
    u_json_end(&j);
    u_json_key(&j, "uncaused");
    u_json_bool(&j, t->uncaused);
    u_json_end(&j);
    u_json_key(&j, "gates");
    u_json_arr(&j);
    for (size_t i = 0; i < t->ngate; i++)
        gate(&j, t, i);
    u_json_end(&j);
    u_json_key(&j, "basic_events");
    u_json_arr(&j);
    for (size_t e = 0; e < t->nev; e++) {
        if (!rp_ftree_used(t, e))
            continue;
        u_json_obj(&j);
        u_json_key(&j, "name");
        u_json_str(&j, t->ev[e].name);
        u_json_key(&j, "id");
        u_json_str(&j, t->ev[e].id);
        u_json_key(&j, "probability");
        if (t->ev[e].prob >= 0)
            u_json_num(&j, "%.15g", t->ev[e].prob);
        else
            u_json_null(&j);
        u_json_end(&j);
    }
    u_json_end(&j);
    rp_cut *cuts;
    size_t ncuts;
    if (!rp_cut_sets(t, &cuts, &ncuts)) {
        u_json_key(&j, "minimal_cut_sets"); /* basic events by id */
        u_json_arr(&j);
        for (size_t i = 0; i < ncuts; i++) {
            u_json_arr(&j);
            for (size_t k = 0; k < cuts[i].n; k++)
                u_json_str(&j, t->ev[cuts[i].ev[k]].id);
            u_json_end(&j);
        }
        u_json_end(&j);
        rp_cut_sets_free(cuts, ncuts);
    }
    top_probability(&j, t);
    u_json_end(&j);
    return ferror(f) ? -1 : 0;
}

int rp_write_ftjson(rp_in *in, const char *path, u_err *err)
{
    rp_ftree *t = rp_tree(in);
    return t ? u_write_file(path, put, t, err)
             : u_errf(err, "cannot write %s: out of memory", path);
}
