/*
 * rp_trail.c - every cause's witness as a SPIN trail file (--trails DIR).
 *
 * For cause N: DIR/<model>N.trail, a bad run whose events are the cause's witness,
 * and, where a non-occurrence is causal, DIR/<model>N.good.trail, the good run in
 * which the absent event prevents the hazard.  The names follow SPIN's numbering of
 * several trails (pan -e), so `spin -t1 -p model.pml` finds the first with --trails
 * ".".  The run itself is found by the analysis (cc_trail_find); this file writes
 * it in pan's own format: the header lines stock pan writes (`-2:claim:-2` with a
 * never claim, `-4:-4:-4` for SPIN's merged statements) and one `step:slot:transition`
 * line per move, claim moves included.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const cc_step *s;
    size_t n;
    int claim_type;
    bool merged;
} tr_file;

static int put(FILE *f, const void *arg)
{
    const tr_file *t = arg;
    if (t->claim_type >= 0)
        fprintf(f, "-2:%d:-2\n", t->claim_type);
    if (t->merged)
        fputs("-4:-4:-4\n", f);
    for (size_t i = 0; i < t->n; i++)
        fprintf(f, "%zu:%d:%d\n", i + 1, t->s[i].pr, t->s[i].tid);
    return 0;
}

int rp_trail_write(const char *path, const cc_step *s, size_t n, int claim_type, bool merged,
                   u_err *err)
{
    tr_file t = {s, n, claim_type, merged};
    return u_write_file(path, put, &t, err);
}

static char *trail_path(const char *dir, const char *model, size_t i, bool good)
{
    const char *base = strrchr(model, '/');
    base = base ? base + 1 : model;
    bool here = !strcmp(dir, ".");
    return u_fmt("%s%s%s%zu%s", here ? "" : dir, here ? "" : "/", base, i + 1,
                 good ? ".good.trail" : ".trail");
}

/* Finds and writes one run; *path stays NULL when the graph has no such run. */
static int one_trail(rp_in *in, const char *dir, const uint32_t *ev, size_t n, bool bad, size_t i,
                     char **path, u_err *err)
{
    cc_step *s = NULL;
    size_t ns = 0;
    *path = NULL;
    int rc = cc_trail_find(in->g, in->r, ev, n, bad, &s, &ns);
    if (rc == 1) {
        fprintf(stderr, "pancause: no %s run of cause %zu in the recorded graph: no trail\n",
                bad ? "bad" : "good", i + 1);
        return 0;
    }
    if (rc < 0)
        return u_errf(err, "out of memory while finding the trail of cause %zu", i + 1);
    const char *model = in->run->model ? in->run->model : "model";
    if (!(*path = trail_path(dir, model, i, !bad)))
        rc = u_oom(err);
    else if (rp_trail_write(*path, s, ns, in->claim_type, in->merged, err)) {
        free(*path);
        *path = NULL;
        rc = -1;
    }
    free(s);
    return rc;
}

int rp_write_trails(rp_in *in, const char *dir, u_err *err)
{
    size_t n = in->r->ncauses;
    in->trails = calloc(n + 1, sizeof *in->trails);
    in->good_trails = calloc(n + 1, sizeof *in->good_trails);
    if (!in->trails || !in->good_trails)
        return u_errf(err, "out of memory while writing trails");
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        const cc_cause *c = &in->r->causes[i];
        uint32_t *ev = malloc((c->nocc + 1) * sizeof *ev);
        if (!ev)
            return u_errf(err, "out of memory while writing trails");
        for (size_t k = 0; k < c->nocc; k++)
            ev[k] = c->occ[k].event;
        rc = one_trail(in, dir, ev, c->nocc, true, i, &in->trails[i], err);
        if (!rc && c->ngood)
            rc = one_trail(in, dir, c->good, c->ngood, false, i, &in->good_trails[i], err);
        free(ev);
    }
    return rc;
}
