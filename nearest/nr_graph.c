/*
 * nr_graph.c - the recorded state graph with its values, as text: what
 * `./pan -C --nearest-graph FILE` writes instead of searching, for readers
 * outside pan (temporal/'s tm_pan.c turns it into the Mealy machine of
 * `pancause temporal model.pml`).  Only pan's own code can decode its state
 * vectors, so the recorder and the value decoder of the nearest search are
 * reused as they are and the graph leaves pan as data.
 *
 * Format (one record a line, fields separated by one space; names never contain
 * spaces: they are pan's variable expressions, `x`, `a[2]`, `P(1):x`):
 *     pancause-graph 1
 *     var ID NAME            every integer or mtype variable, ids from 0
 *     root S
 *     state S END ID=V ...   a state pan expanded: END 1 when SPIN's endstate()
 *                            holds; the values of the variables it has
 *     edge S T PR TID        a move (T `sink`: the move itself violates) with
 *                            pan's process slot and transition id (a trail
 *                            line's last two columns; -1 -1 unknown)
 *     end
 * States pan did not expand (a depth limit) have no `state` line; their moves
 * are unknown.  Never-claim moves are written as `claim ...` so that a reader
 * can refuse them (the graph of a pan built without the claim has none).
 */
#include "nr_internal.h"

#include <stdlib.h>

typedef struct {
    const cc_graph *g;
    const nr_model *m;
} dump;

static int put_graph(FILE *f, const void *arg)
{
    const dump *d = arg;
    const nr_model *m = d->m;
    fprintf(f, "pancause-graph 1\n");
    for (size_t v = 0; v < m->nvars; v++)
        if (m->var[v].kind == NR_V_INT || m->var[v].kind == NR_V_MTYPE)
            fprintf(f, "var %zu %s\n", v, m->var[v].name);
    uint32_t root = cc_graph_root(d->g);
    if (root != CC_NOROOT)
        fprintf(f, "root %u\n", root);
    size_t n = cc_graph_states(d->g);
    for (uint32_t s = 0; s < n; s++) {
        if (!nr_model_has(m, s))
            continue;
        const int32_t *val;
        const nr_layout *lay = nr_layout_of(m, s, &val);
        fprintf(f, "state %u %d", s, m->vend[s] ? 1 : 0);
        for (uint32_t i = 0; i < lay->nreg; i++) {
            uint8_t k = m->var[lay->var[i]].kind;
            if (k == NR_V_INT || k == NR_V_MTYPE)
                fprintf(f, " %u=%d", lay->var[i], (int)val[i]);
        }
        fputc('\n', f);
        for (uint32_t e = cc_graph_first(d->g, s); e != CC_NONE_EDGE; e = cc_graph_next(d->g, e)) {
            uint32_t t = cc_graph_target(d->g, e);
            const char *kind = cc_graph_claim(d->g, e) ? "claim" : "edge";
            int pr, tid;
            cc_graph_step(d->g, e, &pr, &tid);
            if (t == CC_SINK)
                fprintf(f, "%s %u sink %d %d\n", kind, s, pr, tid);
            else
                fprintf(f, "%s %u %u %d %d\n", kind, s, t, pr, tid);
        }
    }
    return fprintf(f, "end\n") < 0 ? -1 : 0;
}

int nr_graph_write(cc_graph *g, const nr_model *m, const char *path, u_err *err)
{
    if (cc_graph_seal(g))
        return u_oom(err);
    dump d = {g, m};
    return u_write_file(path, put_graph, &d, err);
}
