/*
 * sm_values.c - the nearest search's part of the recorder: the variables of every
 * recorded state, and the model's transitions and source lines.
 *
 * With `./pan -C --nearest TRAIL` the recorder (sm_hooks.c) calls sm_values_capture()
 * each time it expands a state for the first time, while pan's `now` is that state.
 * It runs the glue's decoder (sm_glue.c.inc: pan's own printing of the variables,
 * captured), whose smh_val_* calls land here and go on into the nr_model
 * (nearest/nr_model.c) under the state's id.  smh_transitions() hands over pan.t's
 * table, pan.m's merged statements and the source lines once, before the search.
 * A decoding failure (a print line the decoder does not know) stops the capture and
 * is reported at the end.
 */
#include "spinmodel.h"

#include <stdlib.h>
#include <string.h>

static struct {
    nr_model *m;
    void (*decode)(void);
    const char *const *procnames;
    nr_trans *trans;
    uint32_t cur; /* the state being decoded */
    bool failed;
    u_err err;
} V;

int sm_values_begin(const char *const *procnames)
{
    V.procnames = procnames;
    V.m = nr_model_new();
    return V.m ? 0 : -1;
}

nr_model *sm_values_model(void)
{
    return V.m;
}

const char *sm_values_error(void)
{
    return V.failed ? V.err.msg : NULL;
}

void sm_values_end(void)
{
    nr_model_free(V.m);
    free(V.trans);
    memset(&V, 0, sizeof V);
}

void sm_values_capture(uint32_t id)
{
    if (!V.m || !V.decode || V.failed)
        return;
    V.cur = id;
    nr_val_begin(V.m);
    V.decode();
}

void smh_decoder(void (*decode)(void))
{
    V.decode = decode;
}

void smh_transitions(const sm_trans *t, int n, const short *const *src, const int *nstates,
                     int nproctypes, const int (*merge)[3], int nmerge)
{
    if (!V.m)
        return;
    V.trans = malloc(((size_t)n + 1) * sizeof *V.trans);
    if (!V.trans || nr_model_procs(V.m, V.procnames, nproctypes, src, nstates)) {
        V.failed = true;
        u_oom(&V.err);
        return;
    }
    for (int i = 0; i < n; i++)
        V.trans[i] = (nr_trans){t[i].proctype, t[i].state, t[i].tid, t[i].text, t[i].target};
    if (nr_model_trans(V.m, V.trans, n) || nr_model_merges(V.m, merge, nmerge)) {
        V.failed = true;
        u_oom(&V.err);
    }
}

void smh_val_scope(int pid, int proctype, int pc)
{
    if (V.m)
        nr_val_scope(V.m, pid, proctype, pc);
}

void smh_val(const char *args, const char *type, int index, int value)
{
    if (V.m)
        nr_val_scalar(V.m, args, type, index, value);
}

void smh_val_chan(const char *name, int qid, const int *fields, int n)
{
    if (V.m)
        nr_val_chan(V.m, name, qid, fields, n);
}

void smh_val_mtype(const char *name, int value)
{
    if (V.m)
        nr_val_mtype(V.m, name, value);
}

void smh_val_done(int end, int bad)
{
    if (V.m && !V.failed && nr_val_end(V.m, V.cur, end, bad != 0, &V.err))
        V.failed = true;
}
