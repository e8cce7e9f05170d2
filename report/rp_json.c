/*
 * rp_json.c - the causes as JSON for tools (--json FILE).
 *
 * The keys are documented in the README ("Reading the output").  Lists whose order
 * means nothing (event types of a cause, occurrences, ordered pairs) are sorted, so
 * that DFS and BFS builds and the oracle can be compared as text or as sets.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* Strings in order, a NULL (an allocation that failed) after every string. */
static int cmp_str(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    return !x || !y ? (x == NULL) - (y == NULL) : strcmp(x, y);
}

/* A sorted, de-duplicated list of strings (takes ownership of v and its strings). */
static void sorted_list(u_json *j, char **v, size_t n)
{
    u_json_arr(j);
    if (v) {
        qsort(v, n, sizeof *v, cmp_str);
        for (size_t i = 0; i < n; i++)
            if (v[i] && (i == 0 || !v[i - 1] || strcmp(v[i], v[i - 1])))
                u_json_str(j, v[i]);
        for (size_t i = 0; i < n; i++)
            free(v[i]);
        free(v);
    }
    u_json_end(j);
}

static void names_list(u_json *j, const uint32_t *ev, size_t n, const char *const *names)
{
    u_json_arr(j);
    for (size_t i = 0; i < n; i++)
        u_json_str(j, names[ev[i]]);
    u_json_end(j);
}

static void types(u_json *j, const cc_cause *c, const char *const *names, bool absent)
{
    size_t n = absent ? c->nabsent : c->nocc;
    char **v = calloc(n + 1, sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        v[i] = strdup(names[absent ? c->absent[i].event : c->occ[i].event]);
    sorted_list(j, v, n);
}

static void occurrences(u_json *j, const cc_cause *c, const char *const *names)
{
    char **v = calloc(c->nocc + 1, sizeof *v);
    for (size_t i = 0; v && i < c->nocc; i++)
        v[i] = cc_occ_name(c, i, names);
    sorted_list(j, v, c->nocc);
}

/* Every pair [x, y] whose order is causal, sorted by x, then y.  The occurrences are
 * sorted by name once and the pairs written in that order: a cause of 80 events has
 * up to 3,160 pairs, and BEEM's bakery.4 has 392 such causes, so a string per pair
 * and a sort of them was a fifth of its `pan -C --json`.  The occurrences are sorted
 * by insertion: no slower than the n x n pairs that follow, and no global for qsort. */
static void ordered(u_json *j, const cc_cause *c, const char *const *names)
{
    size_t n = c->nocc;
    char **nm = calloc(n + 1, sizeof *nm);
    size_t *by = calloc(n + 1, sizeof *by);
    bool ok = nm && by;
    for (size_t i = 0; ok && i < n; i++) {
        by[i] = i;
        ok = (nm[i] = cc_occ_name(c, i, names)) != NULL;
    }
    u_json_arr(j);
    if (ok) {
        for (size_t i = 1; i < n; i++)
            for (size_t k = i; k > 0 && strcmp(nm[by[k - 1]], nm[by[k]]) > 0; k--) {
                size_t t = by[k];
                by[k] = by[k - 1];
                by[k - 1] = t;
            }
        /* occurrences with one display name are one group, their pairs sorted by y
         * (cc_occ_name names a label E_1 beside two E's E_1_0, so no two should
         * share one; the grouping keeps the order total if they ever do) */
        for (size_t g = 0, h; g < n; g = h) {
            for (h = g + 1; h < n && !strcmp(nm[by[g]], nm[by[h]]); h++)
                ;
            for (size_t b = 0; b < n; b++)
                for (size_t a = g; a < h; a++)
                    if (c->ordered[by[a] * n + by[b]]) {
                        u_json_arr(j);
                        u_json_str(j, nm[by[a]]);
                        u_json_str(j, nm[by[b]]);
                        u_json_end(j);
                    }
        }
    }
    u_json_end(j);
    for (size_t i = 0; nm && i < n; i++)
        free(nm[i]);
    free(nm);
    free(by);
}

static void occ_or_null(u_json *j, const cc_cause *c, int i, const char *const *names)
{
    if (i < 0) {
        u_json_null(j);
        return;
    }
    char *s = cc_occ_name(c, (size_t)i, names);
    u_json_str(j, s ? s : "?");
    free(s);
}

static void intervals(u_json *j, const cc_cause *c, const char *const *names)
{
    u_json_arr(j);
    for (size_t i = 0; i < c->nabsent; i++) {
        u_json_obj(j);
        u_json_key(j, "event");
        u_json_str(j, names[c->absent[i].event]);
        u_json_key(j, "after");
        occ_or_null(j, c, c->absent[i].after, names);
        u_json_key(j, "before");
        occ_or_null(j, c, c->absent[i].before, names);
        u_json_end(j);
    }
    u_json_end(j);
}

static void formula(u_json *j, const cc_cause *c, const char *const *names, eol_style st)
{
    char *s = rp_formula(c, names, st);
    u_json_str(j, s ? s : "");
    free(s);
}

static void cause(u_json *j, const rp_in *in, size_t i)
{
    const cc_cause *c = &in->r->causes[i];
    const char *const *names = in->names;
    u_json_obj(j);
    u_json_key(j, "eol");
    formula(j, c, names, EOL_ASCII);
    u_json_key(j, "eol_unicode");
    formula(j, c, names, EOL_UNICODE);
    u_json_key(j, "events");
    types(j, c, names, false);
    u_json_key(j, "occurrences");
    occurrences(j, c, names);
    u_json_key(j, "absent");
    types(j, c, names, true);
    u_json_key(j, "absent_intervals");
    intervals(j, c, names);
    u_json_key(j, "ordered");
    ordered(j, c, names);
    u_json_key(j, "witness");
    u_json_arr(j);
    for (size_t k = 0; k < c->nocc; k++)
        u_json_str(j, names[c->occ[k].event]);
    u_json_end(j);
    u_json_key(j, "good_witness");
    if (c->ngood)
        names_list(j, c->good, c->ngood, names);
    else
        u_json_null(j);
    u_json_key(j, "traces");
    u_json_num(j, c->ntraces < 1e15 ? "%.0f" : "%.6g", c->ntraces);
    u_json_key(j, "ambiguous");
    u_json_bool(j, c->ambiguous);
    u_json_key(j, "ac22_complete");
    u_json_bool(j, !c->ac22_incomplete);
    u_json_key(j, "trail");
    u_json_str(j, in->trails ? in->trails[i] : NULL);
    u_json_key(j, "good_trail");
    u_json_str(j, in->good_trails ? in->good_trails[i] : NULL);
    u_json_end(j);
}

static void trace_list(u_json *j, const cc_trace *t, size_t n, const char *const *names)
{
    u_json_arr(j);
    for (size_t i = 0; i < n; i++) {
        u_json_obj(j);
        u_json_key(j, "trace");
        names_list(j, t[i].ev, t[i].n, names);
        u_json_end(j);
    }
    u_json_end(j);
}

/* "in_every_cause": the event types every cause has, by name; "in_every_bad_run":
 * whether the result vouches that every run reaching the hazard has them
 * (rp_common.c).  Out of memory, the list may be short and nothing is vouched. */
static void common(u_json *j, const rp_in *in)
{
    bool *all = calloc(in->nevents + 1, sizeof *all);
    int n = all ? rp_every_cause(in->r, in->nevents, all) : -1;
    char **v = n > 0 ? calloc((size_t)n, sizeof *v) : NULL;
    bool whole = n == 0 || (n > 0 && v);
    size_t k = 0;
    for (size_t e = 0; v && e < in->nevents; e++) {
        char *s = all[e] ? strdup(in->names[e]) : NULL;
        if (s)
            v[k++] = s;
        else if (all[e])
            whole = false;
    }
    u_json_key(j, "in_every_cause");
    sorted_list(j, v, k);
    u_json_key(j, "in_every_bad_run");
    u_json_bool(j, whole && rp_every_cause_sure(in));
    free(all);
}

static const char *const colour_names[] = {"none", "green", "black", "red", "orange", "grey"};

static void incomplete(u_json *j, const rp_run *run)
{
    u_json_key(j, "complete");
    u_json_bool(j, run->nwhy == 0);
    u_json_key(j, "incomplete_reason"); /* all reasons in one sentence */
    if (run->nwhy) {
        size_t len = 0;
        for (size_t i = 0; i < run->nwhy; i++)
            len += strlen(run->why[i]) + 2;
        char *s = malloc(len + 1);
        if (s) {
            s[0] = 0;
            for (size_t i = 0; i < run->nwhy; i++) {
                if (i)
                    strcat(s, "; ");
                strcat(s, run->why[i]);
            }
        }
        u_json_str(j, s ? s : run->why[0]);
        free(s);
    } else
        u_json_null(j);
    u_json_key(j, "incomplete_reasons");
    u_json_arr(j);
    for (size_t i = 0; i < run->nwhy; i++)
        u_json_str(j, run->why[i]);
    u_json_end(j);
}

int rp_json(FILE *f, const rp_in *in)
{
    const cc_result *r = in->r;
    const rp_run *run = in->run;
    u_json j;
    u_json_init(&j, f, 3); /* the result, the list of causes, each cause */
    u_json_obj(&j);
    incomplete(&j, run);
    u_json_key(&j, "search");
    u_json_str(&j, run->search);
    u_json_key(&j, "ac2");
    u_json_bool(&j, run->ac2);
    u_json_key(&j, "model");
    u_json_str(&j, run->model ? run->model : "");
    u_json_key(&j, "hazard");
    u_json_bool(&j, r->hazard);
    u_json_key(&j, "event_types");
    u_json_arr(&j);
    for (size_t i = 0; i < in->nevents; i++)
        u_json_str(&j, in->names[i]);
    u_json_end(&j);
    u_json_key(&j, "causes");
    u_json_arr(&j);
    for (size_t i = 0; i < r->ncauses; i++)
        cause(&j, in, i);
    u_json_end(&j);
    u_json_key(&j, "ambiguous");
    trace_list(&j, r->ambiguous, r->nambiguous, in->names);
    u_json_key(&j, "uncaused");
    trace_list(&j, r->uncaused, r->nuncaused, in->names);
    common(&j, in);
    u_json_key(&j, "counts");
    u_json_obj(&j);
    u_json_key(&j, "good");
    u_json_uint(&j, r->good);
    u_json_key(&j, "bad");
    u_json_uint(&j, r->bad);
    for (int k = 1; k < 6; k++) {
        u_json_key(&j, colour_names[k]);
        u_json_uint(&j, r->colours[k]);
    }
    u_json_key(&j, "history_nodes");
    u_json_uint(&j, r->explored);
    u_json_end(&j);
    u_json_key(&j, "stats");
    u_json_obj(&j);
    u_json_key(&j, "states");
    u_json_num(&j, "%.0f", run->states);
    u_json_key(&j, "transitions");
    u_json_num(&j, "%.0f", run->transitions);
    u_json_key(&j, "seconds");
    u_json_num(&j, "%.3f", run->seconds);
    u_json_key(&j, "phase_seconds");
    u_json_obj(&j);
    u_json_key(&j, "search");
    u_json_num(&j, "%.3f", run->search_seconds);
    u_json_key(&j, "derive");
    u_json_num(&j, "%.3f", r->seconds[CC_T_DERIVE]);
    u_json_key(&j, "histories");
    u_json_num(&j, "%.3f", r->seconds[CC_T_HISTORIES]);
    u_json_key(&j, "causes");
    u_json_num(&j, "%.3f", r->seconds[CC_T_CAUSES]);
    u_json_end(&j);
    u_json_key(&j, "peak_mb");
    u_json_num(&j, "%.1f", run->peak_mb);
    u_json_key(&j, "graph_mb");
    u_json_num(&j, "%.1f", run->graph_mb);
    u_json_key(&j, "analysis_mb");
    u_json_num(&j, "%.1f", (double)r->bytes / (1 << 20));
    u_json_end(&j);
    u_json_end(&j);
    return ferror(f) ? -1 : 0;
}

static int put(FILE *f, const void *arg)
{
    return rp_json(f, arg);
}

int rp_write_json(rp_in *in, const char *path, u_err *err)
{
    return u_write_file(path, put, in, err);
}
