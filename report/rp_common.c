/*
 * rp_common.c - the events every cause shares, and whether the result vouches that
 * every run reaching the hazard has them.
 *
 * A safety engineer with dozens of causes asks first what they have in common: an
 * event in every cause (in fault tree terms, a basic event in every minimal cut set)
 * is in every run that reaches the hazard, the first place to look for a single
 * point of failure.  Not "removing it removes the hazard": a statement that can no
 * longer run may leave its process blocked, and with invalid end states as the
 * hazard that is a new one.  The text, JSON and HTML reports print the list (README
 * "Reading the output").
 *
 * Why the claim holds.  Every bad trace's event multiset contains a minimal one of
 * the bad traces' multisets (they are finite), and a minimal one is either a
 * cause's (a red node of the subset graph) or a trace without AC2(1) (grey, listed
 * as "uncaused").  So with no uncaused trace and a complete result, every run that
 * reaches the hazard has the events of some cause, hence every event all causes
 * share; and an event some cause lacks is missing from that cause's witness run, so
 * the list is exactly the events every such run has.  Without that (an incomplete
 * search, an uncaused trace) the list is only "the causes found have these in
 * common", and the reports say so.  Conservative on purpose: every reason a result
 * is incomplete withdraws the guarantee, also the few (a non-occurrence search cut
 * short) that leave the causes' events complete.  An uncaused trace beside causes
 * is rare (the empty trace must be neither good nor bad: no run may end where
 * silent moves lead from the initial state, all of it inside an atomic sequence,
 * say, and no violation silently reachable), so test_report covers that branch by
 * hand.  The oracle checks the claim semantically on every generated model
 * (cases/oracle/oracle.py: for each such event, no bad run of the model avoids it).
 */
#include "report.h"

#include <stdlib.h>

int rp_every_cause(const cc_result *r, size_t nevents, bool *in_all)
{
    for (size_t e = 0; e < nevents; e++)
        in_all[e] = false;
    if (!r->ncauses)
        return 0;
    /* count[e]: the causes seen so far that contain e; last[e]: the last such cause
     * + 1, so that a cause with E_1 and E_2 counts once */
    size_t *count = calloc(nevents ? nevents : 1, sizeof *count);
    size_t *last = calloc(nevents ? nevents : 1, sizeof *last);
    if (!count || !last) {
        free(count);
        free(last);
        return -1;
    }
    for (size_t i = 0; i < r->ncauses; i++)
        for (size_t k = 0; k < r->causes[i].nocc; k++) {
            uint32_t e = r->causes[i].occ[k].event;
            if (e < nevents && last[e] != i + 1) {
                last[e] = i + 1;
                count[e]++;
            }
        }
    int n = 0;
    for (size_t e = 0; e < nevents; e++) {
        in_all[e] = count[e] == r->ncauses;
        n += in_all[e];
    }
    free(count);
    free(last);
    return n;
}

bool rp_every_cause_sure(const rp_in *in)
{
    return in->r->ncauses > 0 && !rp_every_cause_caveat(in);
}

const char *rp_every_cause_caveat(const rp_in *in)
{
    if (in->run->nwhy)
        return "the result is incomplete";
    if (in->r->nuncaused)
        return "a run without a cause reaches the hazard too";
    return NULL;
}
