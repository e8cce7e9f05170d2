/*
 * rp_text.c - the causes as text for a person, printed after pan's statistics.
 *
 * It says first whether the result is complete, with every reason that applies: a
 * depth-limited, bitstate or budget-limited search can miss traces, and then a
 * reported cause may fail AC3 or miss a non-occurrence, and a cause may be missing
 * altogether.  Then each cause (formula, events, non-occurrences, causal order,
 * witness, trails).  A model with very many causes gets a summary: counts by size
 * and the smallest causes in full; the JSON has them all.  Occurrence names follow
 * cc_occ_name() (README "Reading the output").
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

static void put_trace(FILE *f, const uint32_t *ev, size_t n, const char *const *names,
                      const char *sep)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? sep : "", names[ev[i]]);
}

static void put_occ(FILE *f, const cc_cause *c, int i, const char *const *names)
{
    char *s = cc_occ_name(c, (size_t)i, names);
    fputs(s ? s : "?", f);
    free(s);
}

static void text_absent(FILE *f, const cc_cause *c, const char *const *names)
{
    for (size_t i = 0; i < c->nabsent; i++) {
        char *s = rp_absent_text(c, &c->absent[i], names);
        fprintf(f, "    does not occur: %s\n", s ? s : "?");
        free(s);
    }
}

static void text_orders(FILE *f, const cc_cause *c, const char *const *names)
{
    char *s = rp_order_text(c, names);
    if (s && *s)
        fprintf(f, "    causal order: %s\n", s);
    else if (s)
        fputs("    causal order: none (any order of these events causes the hazard)\n", f);
    free(s);
}

static void text_trails(FILE *f, size_t i, const cc_cause *c, const rp_in *in)
{
    if (!in->trails)
        return;
    const char *t = in->trails[i];
    fprintf(f, "    trail: %s\n", t ? t : "none (no such run in the recorded graph)");
    if (c->ngood && in->good_trails[i])
        fprintf(f, "    good trail: %s\n", in->good_trails[i]);
}

static void text_cause(FILE *f, size_t i, const rp_in *in, bool unicode)
{
    const cc_cause *c = &in->r->causes[i];
    const char *const *names = in->names;
    char *a = rp_formula(c, names, EOL_ASCII);
    fprintf(f, "  %zu. %s\n", i + 1, a ? a : "(formula unavailable: out of memory)");
    free(a);
    if (unicode) {
        char *u = rp_formula(c, names, EOL_UNICODE);
        if (u)
            fprintf(f, "     %s\n", u);
        free(u);
    }
    fputs("    events:", f);
    for (size_t k = 0; k < c->nocc; k++) {
        fputc(' ', f);
        put_occ(f, c, (int)k, names);
    }
    fputc('\n', f);
    text_absent(f, c, names);
    text_orders(f, c, names);
    fputs("    witness: ", f);
    for (size_t k = 0; k < c->nocc; k++)
        fprintf(f, "%s%s", k ? " " : "", names[c->occ[k].event]);
    fprintf(f, "   (%.*g bad execution order%s)\n", c->ntraces < 1e15 ? 15 : 3, c->ntraces,
            c->ntraces == 1 ? "" : "s");
    if (c->ngood) {
        fputs("    prevented in: ", f);
        put_trace(f, c->good, c->ngood, names, " ");
        fputc('\n', f);
    }
    if (c->ambiguous)
        fprintf(f,
                "    AMBIGUOUS: a good execution has the same events in the same order (%.*g "
                "of its orders)\n",
                c->nambiguous < 1e15 ? 15 : 3, c->nambiguous);
    if (c->ac22_incomplete)
        fputs("    note: non-occurrences not decided (the AC2(2) search hit its budget)\n", f);
    text_trails(f, i, c, in);
}

/* Beyond this many causes the text lists the smallest ones and counts the rest by
 * size: a list of hundreds helps nobody read, and the JSON has them all. */
#define SHOWN 25

static void text_causes(FILE *f, const rp_in *in, bool unicode)
{
    const cc_result *r = in->r;
    size_t shown = r->ncauses <= SHOWN + 5 ? r->ncauses : SHOWN;
    fprintf(f, "  %zu cause%s of the hazard", r->ncauses, r->ncauses == 1 ? "" : "s");
    if (shown < r->ncauses) {
        fputs(", by number of events:", f);
        for (size_t i = 0; i < r->ncauses;) { /* causes are sorted by size */
            size_t k = r->causes[i].nocc, j = i;
            while (j < r->ncauses && r->causes[j].nocc == k)
                j++;
            fprintf(f, "%s %zu with %zu", i ? "," : "", j - i, k);
            i = j;
        }
        fprintf(f, ";\n  the %zu smallest (all of them: --json FILE):\n", shown);
    } else
        fputs(":\n", f);
    for (size_t i = 0; i < shown; i++)
        text_cause(f, i, in, unicode);
    if (shown < r->ncauses)
        fprintf(f, "  ... %zu more causes, with %zu to %zu events, in the JSON report\n",
                r->ncauses - shown, r->causes[shown].nocc, r->causes[r->ncauses - 1].nocc);
    if (in->trails && r->ncauses)
        fprintf(f, "  replay a trail: spin -k TRAIL -p %s   (or ./pan -r TRAIL)\n",
                in->run->model ? in->run->model : "model.pml");
}

/* What every cause has (rp_common.c), when there are two causes or more: with one,
 * it is that cause's event list again.  Said as a guarantee only where it is one. */
static void text_common(FILE *f, const rp_in *in)
{
    const cc_result *r = in->r;
    bool *all = r->ncauses >= 2 ? calloc(in->nevents + 1, sizeof *all) : NULL;
    int n = all ? rp_every_cause(r, in->nevents, all) : -1;
    bool sure = rp_every_cause_sure(in);
    if (n > 0) {
        fputs(sure ? "  in every cause:" : "  in every cause found:", f);
        for (size_t e = 0; e < in->nevents; e++)
            if (all[e])
                fprintf(f, " %s", in->names[e]);
        if (sure)
            fputs("; every run that reaches the hazard has each of them\n", f);
        else
            fprintf(f, " (not a guarantee: %s)\n", rp_every_cause_caveat(in));
    } else if (n == 0 && sure)
        fputs("  in every cause: no event; no event is in every run that reaches the hazard\n", f);
    free(all);
}

/* With --probabilities: the top event's probability, as the HTML report gives it. */
static void text_probability(FILE *f, rp_in *in)
{
    rp_ftree *t = rp_tree(in);
    rp_topprob p;
    int rc = t ? rp_prob_top(t, &p) : -1;
    if (rc == 1 && p.missing)
        fprintf(f, "  probability of the hazard: not computed (no probability for %s)\n",
                p.missing);
    else if (rc == 0) {
        /* an upper bound only over every cause: with causes missing, none (the fourth
         * probe's P4-4: 0.01 called an upper bound where the complete figure is 0.208) */
        fprintf(f,
                "  probability of the hazard (%zu minimal cut sets, events independent, PAND "
                "order and non-occurrences ignored: %s%s): ",
                p.ncuts, t->caveat ? "no bound, since " : "an upper bound",
                t->caveat ? t->caveat : "");
        if (p.has_exact)
            fprintf(f, "%.6g (rare-event approximation %.6g)\n", p.exact, p.rare);
        else
            fprintf(f, "%.6g (rare-event approximation; more than %d cut sets)\n", p.rare,
                    RP_EXACT_MAX);
    } else if (rc < 0)
        fputs("  probability of the hazard: not computed (out of memory)\n", f);
}

static const char *const colour_names[] = {"none", "green", "black", "red", "orange", "grey"};

int rp_text(FILE *f, const rp_in *cin, bool unicode)
{
    rp_in *in = (rp_in *)cin; /* only rp_tree() adds to it, a cache */
    const cc_result *r = in->r;
    const rp_run *run = in->run;
    const char *const *names = in->names;
    fprintf(f, "\npancause: causality checking (%s, AC2(2) %s) of %s\n", run->search,
            run->ac2 ? "on" : "off", run->model ? run->model : "the model");
    if (run->nwhy) {
        fputs("  INCOMPLETE:", f);
        for (size_t i = 0; i < run->nwhy; i++)
            fprintf(f, "%s %s", i ? ";" : "", run->why[i]);
        fputs(".\n  Causes below may miss or wrongly add non-occurrences, fail AC3 "
              "(minimality) or be missing.\n",
              f);
    }
    if (!r->hazard && run->nwhy)
        fputs("  the hazard was not reached, but the search is incomplete (above): it may "
              "still be reachable.\n",
              f);
    else if (!r->hazard)
        fputs("  the hazard is not reachable: no bad execution, nothing to explain.\n", f);
    else if (!r->ncauses && run->nwhy)
        fputs("  the hazard is reachable, but no cause was found before the search stopped.\n", f);
    else {
        text_causes(f, in, unicode);
        text_common(f, in);
    }
    for (size_t i = 0; i < r->nuncaused; i++) {
        fputs("  no cause: the hazard is reached with events {", f);
        put_trace(f, r->uncaused[i].ev, r->uncaused[i].n, names, " ");
        fputs("} and no good execution has fewer events (AC2(1) fails); label the "
              "statements that lead to it\n",
              f);
    }
    if (r->nambiguous)
        fputs("  WARNING: the events do not decide the hazard; a silent choice does. Label the\n"
              "  statements that decide it.  A bad and a good execution both have the events\n",
              f);
    for (size_t i = 0; i < r->nambiguous; i++) {
        fputs("    ", f);
        put_trace(f, r->ambiguous[i].ev, r->ambiguous[i].n, names, " ");
        fputc('\n', f);
    }
    if (in->probs)
        text_probability(f, in);
    if (r->unreachable)
        fprintf(f, "  event types: %zu; traces: none enumerated (no violation %s)\n", in->nevents,
                run->nwhy ? "was reached" : "is reachable");
    else
        fprintf(f, "  event types: %zu; traces: %zu bad, %zu good\n", in->nevents, r->bad, r->good);
    fputs("  subset graph:", f);
    for (int k = 1; k < 6; k++)
        fprintf(f, " %s %zu", colour_names[k], r->colours[k]);
    fprintf(f,
            "\n  search: %.0f states, %.0f transitions, %zu history nodes; %.2f s, peak "
            "%.1f MB (recorded graph %.1f MB, analysis %.1f MB)\n",
            run->states, run->transitions, r->explored, run->seconds, run->peak_mb, run->graph_mb,
            (double)r->bytes / (1 << 20));
    fprintf(f,
            "  time: pan's search and recording %.2f s; analysis: derive %.2f s, histories %.2f s, "
            "orders, AC2(2) and causes %.2f s\n",
            run->search_seconds, r->seconds[CC_T_DERIVE], r->seconds[CC_T_HISTORIES],
            r->seconds[CC_T_CAUSES]);
    return ferror(f) ? -1 : 0;
}
