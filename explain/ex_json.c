/* ex_json: the machine-readable explanation, one line per specification so
 * that a NuSMV file with several gives JSON Lines whose i-th line belongs to
 * its i-th specification (explain/README.md, Output):
 *   {"formula": F, "status": "fails"|"fails-infinitely"|"holds"|"unknown"|"skipped",
 *    "holds": bool, "first_failure": k|null, "loop_start": j|null,
 *    "dots": [{"step": i, "variable": "name", "exact": true|false|null}],
 *    "note": "..."}
 * Steps are positions in the word: a failure in a later round of a lasso's
 * loop is at its real position (the table folds it onto the printed loop).
 * Written with util's u_json, so escaping is the project's one escaper. */
#include "explain.h"

static const char *status_name(ex_result r)
{
    switch (r) {
    case EX_RESULT_FAILS:
        return "fails";
    case EX_RESULT_INF:
        return "fails-infinitely";
    case EX_RESULT_HOLDS:
        return "holds";
    case EX_RESULT_SKIPPED:
        return "skipped";
    case EX_RESULT_UNKNOWN:
        break;
    }
    return "unknown";
}

void ex_render_json(FILE *o, const ex_trace *t, const ex_explanation *e)
{
    u_json j;
    u_json_init(&j, o, 0);
    u_json_obj(&j);
    u_json_key(&j, "formula");
    u_json_str(&j, e->formula);
    u_json_key(&j, "status");
    u_json_str(&j, status_name(e->result));
    u_json_key(&j, "holds");
    u_json_bool(&j, e->result == EX_RESULT_HOLDS);
    u_json_key(&j, "first_failure");
    if (e->first_failure >= 0)
        u_json_int(&j, e->first_failure);
    else
        u_json_null(&j);
    u_json_key(&j, "loop_start");
    if (e->loop_start >= 0)
        u_json_int(&j, e->loop_start);
    else
        u_json_null(&j);
    u_json_key(&j, "dots");
    u_json_arr(&j);
    for (size_t i = 0; i < e->ndots; i++) {
        u_json_obj(&j);
        u_json_key(&j, "step");
        u_json_uint(&j, e->dots[i].pos);
        u_json_key(&j, "variable");
        u_json_str(&j, t->vars[e->dots[i].var].name);
        u_json_key(&j, "exact");
        int x = e->exact_ran ? e->dots[i].exact : -1;
        if (x < 0)
            u_json_null(&j);
        else
            u_json_bool(&j, x == 1);
        u_json_end(&j);
    }
    u_json_end(&j);
    if (e->note[0]) {
        u_json_key(&j, "note");
        u_json_str(&j, e->note);
    }
    u_json_end(&j);
    fputc('\n', o);
}
