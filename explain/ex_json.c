/* ex_json: the machine-readable explanation, exactly the schema:
 * {"formula": ..., "first_failure": k|null, "loop_start": j|null,
 *  "dots": [{"step": i, "variable": "name", "exact": true|false|null}]}
 * on one line, so that several explanations (NuSMV files) are JSON Lines. */
#include "explain.h"

static void ex_json_str(FILE *o, const char *s)
{
    fputc('"', o);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(o, "\\%c", c);
        else if (c < 0x20)
            fprintf(o, "\\u%04x", c);
        else
            fputc(c, o);
    }
    fputc('"', o);
}

void ex_render_json(FILE *o, const ex_trace *t, const ex_explanation *e)
{
    fputs("{\"formula\": ", o);
    ex_json_str(o, e->formula);
    if (e->first_failure >= 0)
        fprintf(o, ", \"first_failure\": %ld", e->first_failure);
    else
        fputs(", \"first_failure\": null", o);
    if (e->loop_start >= 0)
        fprintf(o, ", \"loop_start\": %ld", e->loop_start);
    else
        fputs(", \"loop_start\": null", o);
    fputs(", \"dots\": [", o);
    for (size_t i = 0; i < e->ndots; i++) {
        fprintf(o, "%s{\"step\": %zu, \"variable\": ", i ? ", " : "", e->dots[i].step);
        ex_json_str(o, t->vars[e->dots[i].var].name);
        int x = e->exact_ran ? e->dots[i].exact : -1;
        fprintf(o, ", \"exact\": %s}", x == 1 ? "true" : x == 0 ? "false" : "null");
    }
    fputs("]}\n", o);
}
