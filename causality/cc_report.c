/*
 * cc_report.c - the causes as text for people and as JSON for tools.
 *
 * Both reports say first whether the result is complete: a depth-limited, bitstate
 * or budget-limited search can miss traces, and then a reported cause may fail AC3
 * or miss a non-occurrence, and a cause may be missing altogether.  Occurrence names
 * follow cc_occ_name(); the JSON keys are documented in the README ("Output").
 */
#include "causality.h"

#include <stdlib.h>
#include <string.h>

/* ---- shared helpers ---- */

static void put_trace(FILE *f, const uint32_t *ev, size_t n, const char *const *names,
                      const char *sep)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? sep : "", names[ev[i]]);
}

static char *formula_text(const cc_cause *c, const char *const *names, eol_style st)
{
    eol_node *psi = cc_formula(c, names);
    char *s = psi ? eol_print(psi, st) : NULL;
    eol_free(psi);
    return s;
}

static void put_occ(FILE *f, const cc_cause *c, int i, const char *const *names)
{
    char *s = cc_occ_name(c, (size_t)i, names);
    fputs(s ? s : "?", f);
    free(s);
}

static const char *const colour_names[] = {"none", "green", "black", "red", "orange", "grey"};

/* ---- text ---- */

static void text_absent(FILE *f, const cc_cause *c, const char *const *names)
{
    for (size_t i = 0; i < c->nabsent; i++) {
        const cc_absent *a = &c->absent[i];
        fprintf(f, "    does not occur: %s ", names[a->event]);
        if (a->after < 0 && a->before < 0)
            fputs("anywhere", f);
        else if (a->after < 0) {
            fputs("before ", f);
            put_occ(f, c, a->before, names);
        } else if (a->before < 0) {
            fputs("after ", f);
            put_occ(f, c, a->after, names);
        } else {
            fputs("between ", f);
            put_occ(f, c, a->after, names);
            fputs(" and ", f);
            put_occ(f, c, a->before, names);
        }
        fputc('\n', f);
    }
}

static void text_orders(FILE *f, const cc_cause *c, const char *const *names)
{
    size_t n = c->nocc, k = 0;
    fputs("    causal order:", f);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            if (!c->ordered[i * n + j])
                continue;
            bool cover = true;
            for (size_t m = 0; m < n && cover; m++)
                cover = !(c->ordered[i * n + m] && c->ordered[m * n + j]);
            if (!cover)
                continue;
            fputs(k++ ? ", " : " ", f);
            put_occ(f, c, (int)i, names);
            fputs(" < ", f);
            put_occ(f, c, (int)j, names);
        }
    fputs(k ? "\n" : " none (any order of these events causes the hazard)\n", f);
}

static void text_trails(FILE *f, size_t i, const cc_cause *c, const cc_run *run)
{
    if (!run->trails)
        return;
    const char *t = run->trails[i];
    fprintf(f, "    trail: %s\n", t ? t : "none (no such run in the recorded graph)");
    if (c->ngood && run->good_trails[i])
        fprintf(f, "    good trail: %s\n", run->good_trails[i]);
}

static void text_cause(FILE *f, size_t i, const cc_cause *c, const char *const *names, bool unicode,
                       const cc_run *run)
{
    char *a = formula_text(c, names, EOL_ASCII);
    fprintf(f, "  %zu. %s\n", i + 1, a ? a : "(formula unavailable: out of memory)");
    free(a);
    if (unicode) {
        char *u = formula_text(c, names, EOL_UNICODE);
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
    fprintf(f, "   (%zu bad execution order%s)\n", c->ntraces, c->ntraces == 1 ? "" : "s");
    if (c->ngood) {
        fputs("    prevented in: ", f);
        put_trace(f, c->good, c->ngood, names, " ");
        fputc('\n', f);
    }
    if (c->ambiguous)
        fputs("    AMBIGUOUS: a good execution has the same events in the same order\n", f);
    if (c->ac22_incomplete)
        fputs("    note: the non-occurrence search hit its budget (may be incomplete)\n", f);
    text_trails(f, i, c, run);
}

int cc_report_text(FILE *f, const cc_result *r, const char *const *names, size_t nevents,
                   const cc_run *run, bool unicode)
{
    fprintf(f, "\npancause: causality checking (%s, AC2(2) %s) of %s\n", run->search,
            run->ac2 ? "on" : "off", run->model ? run->model : "the model");
    if (!run->complete)
        fprintf(
            f,
            "  INCOMPLETE: %s.\n  Causes below may miss or wrongly add non-occurrences, fail AC3 "
            "(minimality) or be missing.\n",
            run->why_incomplete);
    if (!r->hazard) {
        fputs("  the hazard is not reachable: no bad execution, nothing to explain.\n", f);
    } else {
        fprintf(f, "  %zu cause%s of the hazard:\n", r->ncauses, r->ncauses == 1 ? "" : "s");
        for (size_t i = 0; i < r->ncauses; i++)
            text_cause(f, i, &r->causes[i], names, unicode, run);
        if (run->trails && r->ncauses)
            fprintf(f, "  replay a trail: spin -k TRAIL -p %s   (or ./pan -r TRAIL)\n",
                    run->model ? run->model : "model.pml");
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
    if (r->unreachable)
        fprintf(f, "  event types: %zu; traces: none enumerated (no violation is reachable)\n",
                nevents);
    else
        fprintf(f, "  event types: %zu; traces: %zu bad, %zu good\n", nevents, r->bad, r->good);
    fputs("  subset graph:", f);
    for (int k = 1; k < 6; k++)
        fprintf(f, " %s %zu", colour_names[k], r->colours[k]);
    fprintf(f,
            "\n  search: %.0f states, %.0f transitions, %zu history nodes; %.2f s, peak "
            "%.1f MB (recorded graph %.1f MB, analysis %.1f MB)\n",
            run->states, run->transitions, r->explored, run->seconds, run->peak_mb, run->graph_mb,
            (double)r->bytes / (1 << 20));
    return ferror(f) ? -1 : 0;
}

/* ---- JSON ---- */

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void json_occ(FILE *f, const cc_cause *c, int i, const char *const *names)
{
    if (i < 0) {
        fputs("null", f);
        return;
    }
    char *s = cc_occ_name(c, (size_t)i, names);
    json_str(f, s ? s : "?");
    free(s);
}

static void json_names(FILE *f, const uint32_t *ev, size_t n, const char *const *names)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputs(", ", f);
        json_str(f, names[ev[i]]);
    }
    fputc(']', f);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Writes a sorted, de-duplicated JSON list of strings (takes ownership). */
static void json_sorted(FILE *f, char **v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_str);
    fputc('[', f);
    for (size_t i = 0, k = 0; i < n; i++) {
        if (i && !strcmp(v[i], v[i - 1]))
            continue;
        fputs(k++ ? ", " : "", f);
        json_str(f, v[i]);
    }
    fputc(']', f);
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void json_types(FILE *f, const cc_cause *c, const char *const *names, bool absent)
{
    size_t n = absent ? c->nabsent : c->nocc;
    char **v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        v[i] = strdup(names[absent ? c->absent[i].event : c->occ[i].event]);
    if (v)
        json_sorted(f, v, n);
}

static void json_occurrences(FILE *f, const cc_cause *c, const char *const *names)
{
    char **v = malloc((c->nocc ? c->nocc : 1) * sizeof *v);
    for (size_t i = 0; v && i < c->nocc; i++)
        v[i] = cc_occ_name(c, i, names);
    if (v)
        json_sorted(f, v, c->nocc);
}

static void json_ordered(FILE *f, const cc_cause *c, const char *const *names)
{
    size_t n = c->nocc, k = 0;
    char **v = malloc((n ? n * n : 1) * sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        for (size_t j = 0; j < n; j++) {
            if (!c->ordered[i * n + j])
                continue;
            char *a = cc_occ_name(c, i, names), *b = cc_occ_name(c, j, names);
            size_t len = (a ? strlen(a) : 0) + (b ? strlen(b) : 0) + 2;
            v[k] = malloc(len);
            if (v[k] && a && b)
                snprintf(v[k], len, "%s\x1f%s", a, b);
            free(a);
            free(b);
            if (v[k])
                k++;
        }
    if (!v)
        return;
    qsort(v, k, sizeof *v, cmp_str);
    fputc('[', f);
    for (size_t i = 0; i < k; i++) {
        char *sep = strchr(v[i], '\x1f');
        *sep = 0;
        fputs(i ? ", [" : "[", f);
        json_str(f, v[i]);
        fputs(", ", f);
        json_str(f, sep + 1);
        fputc(']', f);
        free(v[i]);
    }
    fputc(']', f);
    free(v);
}

static void json_intervals(FILE *f, const cc_cause *c, const char *const *names)
{
    fputc('[', f);
    for (size_t i = 0; i < c->nabsent; i++) {
        fputs(i ? ", {\"event\": " : "{\"event\": ", f);
        json_str(f, names[c->absent[i].event]);
        fputs(", \"after\": ", f);
        json_occ(f, c, c->absent[i].after, names);
        fputs(", \"before\": ", f);
        json_occ(f, c, c->absent[i].before, names);
        fputc('}', f);
    }
    fputc(']', f);
}

static void json_path(FILE *f, const char *const *paths, size_t i)
{
    if (paths && paths[i])
        json_str(f, paths[i]);
    else
        fputs("null", f);
}

static void json_cause(FILE *f, const cc_cause *c, const char *const *names, const cc_run *run,
                       size_t i)
{
    char *eol = formula_text(c, names, EOL_ASCII);
    char *uni = formula_text(c, names, EOL_UNICODE);
    fputs("    {\"eol\": ", f);
    json_str(f, eol ? eol : "");
    fputs(", \"eol_unicode\": ", f);
    json_str(f, uni ? uni : "");
    free(eol);
    free(uni);
    fputs(",\n     \"events\": ", f);
    json_types(f, c, names, false);
    fputs(", \"occurrences\": ", f);
    json_occurrences(f, c, names);
    fputs(",\n     \"absent\": ", f);
    json_types(f, c, names, true);
    fputs(", \"absent_intervals\": ", f);
    json_intervals(f, c, names);
    fputs(",\n     \"ordered\": ", f);
    json_ordered(f, c, names);
    fputs(",\n     \"witness\": [", f);
    for (size_t i = 0; i < c->nocc; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, names[c->occ[i].event]);
    }
    fputs("], \"good_witness\": ", f);
    if (c->ngood)
        json_names(f, c->good, c->ngood, names);
    else
        fputs("null", f);
    fprintf(f, ", \"traces\": %zu, \"ambiguous\": %s, \"ac22_complete\": %s", c->ntraces,
            c->ambiguous ? "true" : "false", c->ac22_incomplete ? "false" : "true");
    fputs(",\n     \"trail\": ", f);
    json_path(f, run->trails, i);
    fputs(", \"good_trail\": ", f);
    json_path(f, run->good_trails, i);
    fputc('}', f);
}

static void json_trace_list(FILE *f, const cc_trace *t, size_t n, const char *const *names)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", {\"trace\": " : "{\"trace\": ", f);
        json_names(f, t[i].ev, t[i].n, names);
        fputc('}', f);
    }
    fputc(']', f);
}

int cc_report_json(FILE *f, const cc_result *r, const char *const *names, size_t nevents,
                   const cc_run *run)
{
    fprintf(f,
            "{\n  \"complete\": %s,\n  \"incomplete_reason\": ", run->complete ? "true" : "false");
    if (run->complete)
        fputs("null", f);
    else
        json_str(f, run->why_incomplete);
    fputs(",\n  \"search\": ", f);
    json_str(f, run->search);
    fprintf(f, ",\n  \"ac2\": %s,\n  \"model\": ", run->ac2 ? "true" : "false");
    json_str(f, run->model ? run->model : "");
    fputs(",\n  \"hazard\": ", f);
    fputs(r->hazard ? "true" : "false", f);
    fputs(",\n  \"event_types\": [", f);
    for (size_t i = 0; i < nevents; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, names[i]);
    }
    fputs("],\n  \"causes\": [\n", f);
    for (size_t i = 0; i < r->ncauses; i++) {
        json_cause(f, &r->causes[i], names, run, i);
        fputs(i + 1 < r->ncauses ? ",\n" : "\n", f);
    }
    fputs("  ],\n  \"ambiguous\": ", f);
    json_trace_list(f, r->ambiguous, r->nambiguous, names);
    fputs(",\n  \"uncaused\": ", f);
    json_trace_list(f, r->uncaused, r->nuncaused, names);
    fprintf(f, ",\n  \"counts\": {\"good\": %zu, \"bad\": %zu", r->good, r->bad);
    for (int k = 1; k < 6; k++)
        fprintf(f, ", \"%s\": %zu", colour_names[k], r->colours[k]);
    fprintf(f, ", \"history_nodes\": %zu},\n", r->explored);
    fprintf(f,
            "  \"stats\": {\"states\": %.0f, \"transitions\": %.0f, \"seconds\": %.3f, "
            "\"peak_mb\": %.1f, \"graph_mb\": %.1f, \"analysis_mb\": %.1f}\n}\n",
            run->states, run->transitions, run->seconds, run->peak_mb, run->graph_mb,
            (double)r->bytes / (1 << 20));
    return ferror(f) ? -1 : 0;
}
