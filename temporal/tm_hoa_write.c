/*
 * tm_hoa_write.c - the HOA v1 writer for the cause automaton (and the other
 * automata the tests and the bench inspect): state-based Buchi acceptance, one
 * edge per (state, target) labelled with the DNF of its cubes, APs renumbered
 * to the automaton's own.  The oracle's reader (cases/temporal-oracle/hoa.py)
 * and Spot read it; an automaton with no states is written with States: 0 and
 * no Start: (the empty language).
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

static void put_cube(FILE *f, tm_cube c, const int *renum)
{
    if (!c.mask) {
        fputs("t", f);
        return;
    }
    bool first = true;
    for (uint64_t m = c.mask; m; m &= m - 1) {
        int ap = __builtin_ctzll(m);
        fprintf(f, "%s%s%d", first ? "" : "&", c.val >> ap & 1 ? "" : "!", renum[ap]);
        first = false;
    }
}

int tm_hoa_write(FILE *f, const tm_nba *a, const tm_aps *aps, const char *name)
{
    int renum[TM_MAX_APS], k = 0;
    for (int i = 0; i < TM_MAX_APS; i++)
        renum[i] = a->apmask >> i & 1 ? k++ : -1;
    fputs("HOA: v1\n", f);
    if (name) {
        fputs("name: \"", f);
        for (const char *p = name; *p; p++)
            fprintf(f, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
        fputs("\"\n", f);
    }
    fprintf(f, "States: %u\n", a->n);
    for (uint32_t i = 0; i < a->ninit; i++)
        fprintf(f, "Start: %u\n", a->init[i]);
    fprintf(f, "AP: %d", k);
    for (int i = 0; i < TM_MAX_APS; i++)
        if (renum[i] >= 0) {
            fputs(" \"", f);
            const char *s = i < aps->n ? aps->name[i] : "?";
            for (const char *p = s; *p; p++)
                fprintf(f, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
            fputs("\"", f);
        }
    fputs("\nacc-name: Buchi\nAcceptance: 1 Inf(0)\n", f);
    fprintf(f, "properties: trans-labels explicit-labels state-acc%s\n",
            tm_nba_deterministic(a) ? " deterministic" : "");
    fputs("--BODY--\n", f);
    for (uint32_t q = 0; q < a->n; q++) {
        const tm_state *s = &a->s[q];
        fprintf(f, "State: %u%s\n", q, s->acc ? " {0}" : "");
        /* one line per target, in order of first appearance */
        for (uint32_t i = 0; i < s->n; i++) {
            bool seen = false;
            for (uint32_t j = 0; j < i && !seen; j++)
                seen = s->e[j].dst == s->e[i].dst;
            if (seen)
                continue;
            fputs("[", f);
            bool first = true;
            for (uint32_t j = i; j < s->n; j++) {
                if (s->e[j].dst != s->e[i].dst)
                    continue;
                if (!first)
                    fputs(" | ", f);
                put_cube(f, s->e[j].c, renum);
                first = false;
            }
            fprintf(f, "] %u\n", s->e[i].dst);
        }
    }
    fputs("--END--\n", f);
    return ferror(f) ? -1 : 0;
}
