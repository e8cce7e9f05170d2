/*
 * tm_system.c - the reactive system: a Mealy machine in HOA as CORP takes it
 * (Acceptance t, outputs listed by controllable-AP, every other AP an input).
 * Its traces are the letters along infinite runs; the paper's FSM with the
 * letter at step i being the input and the label of s_{i+1}.  Checked here:
 * acceptance t, controllable-AP present, at most TM_MAX_INPUTS inputs, and
 * input-enabledness (every state has an edge for every input valuation), which
 * the cause's definition assumes: an input sequence without a run would be
 * vacuously "safe".
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

uint64_t tm_missing_input(const tm_nba *a, uint32_t q, uint64_t inputs)
{
    const tm_state *s = &a->s[q];
    tm_cube *c = malloc((s->n + 1) * sizeof *c);
    if (!c)
        return UINT64_MAX - 1;
    for (uint32_t i = 0; i < s->n; i++) {
        c[i].mask = s->e[i].c.mask & inputs;
        c[i].val = s->e[i].c.val & inputs;
    }
    uint64_t found = UINT64_MAX;
    tm_cube top = {0, 0};
    if (!tm_cubes_cover(c, s->n, top, inputs)) {
        uint64_t L = (uint64_t)1 << tm_popcount(inputs);
        for (uint64_t l = 0; l < L && found == UINT64_MAX; l++) {
            uint64_t v = tm_spread(l, inputs);
            bool ok = false;
            for (uint32_t i = 0; i < s->n && !ok; i++)
                ok = tm_cube_has(c[i], v);
            if (!ok)
                found = v;
        }
    }
    free(c);
    return found;
}

int tm_system_from_hoa(tm_hoa *h, const char *file, tm_system *s, u_err *err)
{
    memset(s, 0, sizeof *s);
    if (!h->has_controllable)
        return u_errf(err,
                      "%s: no controllable-AP: header (the system's outputs; every other AP is "
                      "an input)",
                      file);
    if (!h->acc_all)
        return u_errf(err, "%s: a system's acceptance must be `Acceptance: 0 t` (every run)", file);
    if (h->a.ninit == 0)
        return u_errf(err, "%s: the system has no initial state", file);
    uint64_t all = h->aps.n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << h->aps.n) - 1);
    s->outputs = h->controllable & all;
    s->inputs = all & ~s->outputs;
    if (tm_popcount(s->inputs) > TM_MAX_INPUTS)
        return u_errf(err,
                      "%s: %d inputs; at most %d are supported (the cause's alphabet is "
                      "every input valuation)",
                      file, tm_popcount(s->inputs), TM_MAX_INPUTS);
    for (uint32_t q = 0; q < h->a.n; q++) {
        uint64_t v = tm_missing_input(&h->a, q, s->inputs);
        if (v == UINT64_MAX - 1)
            return u_oom(err);
        if (v != UINT64_MAX) {
            char *t = tm_letter_text(v, s->inputs, &h->aps);
            u_errf(err,
                   "%s: state %u has no edge for the input %s: a system must be "
                   "input-enabled (a Mealy machine answering every input)",
                   file, q, t ? t : "?");
            free(t);
            return -1;
        }
    }
    s->file = u_fmt("%s", file);
    if (!s->file)
        return u_oom(err);
    s->aps = h->aps;
    s->a = h->a;
    memset(&h->aps, 0, sizeof h->aps);
    tm_nba_init(&h->a, 0);
    return 0;
}

int tm_system_read(const char *path, tm_system *s, u_err *err)
{
    tm_hoa h;
    memset(s, 0, sizeof *s);
    if (tm_hoa_read(path, &h, err) != 0)
        return -1;
    int rc = tm_system_from_hoa(&h, path, s, err);
    tm_hoa_free(&h);
    return rc;
}

void tm_system_free(tm_system *s)
{
    tm_aps_free(&s->aps);
    tm_nba_free(&s->a);
    free(s->file);
    memset(s, 0, sizeof *s);
}
