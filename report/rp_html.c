/*
 * rp_html.c - the causes as one self-contained HTML page for a safety engineer.
 *
 * The page needs nothing but itself (no scripts, fonts or styles from elsewhere), so
 * it can be mailed or filed with a safety case.  It shows the property and whether
 * the search was complete, every cause as an EOL formula (ASCII and Unicode) with its
 * events, causal orders, non-occurrences and trail files, the fault tree as an SVG
 * drawn here (levels: top event, OR gate, one AND/PAND gate per cause, basic events
 * and non-occurrence conditions; Graphviz is not needed at report time), per cause
 * its witness as a timeline (one lane per process, the causal events highlighted,
 * the event whose absence is causal drawn dashed in the gap where its occurrence
 * would have prevented the hazard, and the good execution that shows it), the
 * top-event probability when probabilities were given, and the run's statistics.
 * A small script counts what the browser actually rendered and writes it into the
 * page (#pc-summary), which the browser test reads back.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

static void esc(FILE *f, const char *s)
{
    u_put_xml(f, s ? s : "");
}

static const char *const CSS =
    "body{font-family:sans-serif;margin:2em;max-width:1100px;color:#222}"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}"
    ".eol{font-family:monospace;font-size:1.1em;background:#f4f4f4;padding:.3em .5em}"
    ".incomplete{color:#a00;font-weight:bold}.cause{margin:1em 0;padding:.5em 1em;"
    "border-left:4px solid #c33}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
    "padding:.2em .6em;text-align:left}svg text{font-family:sans-serif;font-size:12px}"
    ".ev rect{fill:#fdd;stroke:#c33;stroke-width:2}.ev.good rect{fill:#dfd;stroke:#393}"
    ".absent rect{fill:#fff;stroke:#c33;stroke-dasharray:4 3}"
    ".prevent rect{fill:#bfb;stroke:#393;stroke-width:3}.lane{stroke:#ddd}"
    ".ft-gate path,.ft-or path{fill:#eef;stroke:#335}.ft-basic circle{fill:#ffd;stroke:#963}"
    ".ft-cond ellipse{fill:#fff;stroke:#c33;stroke-dasharray:4 3}.ft-top rect,.ft-cause rect"
    "{fill:#fff;stroke:#335}line.ft{stroke:#555}";

/* ---- fault tree picture ---- */

#define FT_COL   190 /* width of one cause's column */
#define FT_BASIC 90  /* width of one basic event */

static void svg_text(FILE *f, double x, double y, const char *s)
{
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">", x, y);
    esc(f, s);
    fputs("</text>", f);
}

/* An AND gate's D shape (flat bottom, round top), PAND with an inner bar. */
static void svg_gate(FILE *f, double x, double y, bool pand, size_t i)
{
    fprintf(f, "<g class=\"ft-gate\" data-kind=\"%s\" data-cause=\"%zu\">", pand ? "pand" : "and",
            i + 1);
    fprintf(f, "<path d=\"M%.0f %.0f v-18 a22 22 0 0 1 44 0 v18 z\"/>", x - 22, y + 20);
    if (pand)
        fprintf(f, "<path d=\"M%.0f %.0f h44\"/>", x - 22, y + 12);
    svg_text(f, x, y + 8, pand ? "PAND" : "AND");
    fputs("</g>", f);
}

static double basic_x(const rp_ftree *t, size_t e)
{
    size_t k = 0;
    for (size_t i = 0; i < e; i++)
        k += rp_ftree_used(t, i);
    return 50 + (double)k * FT_BASIC;
}

static size_t used_count(const rp_ftree *t)
{
    size_t k = 0;
    for (size_t e = 0; e < t->nev; e++)
        k += rp_ftree_used(t, e);
    return k;
}

static void svg_cause(FILE *f, const rp_ftree *t, size_t i, double cx, double mid)
{
    const rp_ft_gate *g = &t->gate[i];
    char lab[32];
    snprintf(lab, sizeof lab, "cause %zu", i + 1);
    fprintf(f, "<line class=\"ft\" x1=\"%.0f\" y1=\"120\" x2=\"%.0f\" y2=\"150\"/>", mid, cx);
    fprintf(f, "<g class=\"ft-cause\"><title>");
    esc(f, g->eol_unicode);
    fprintf(f, "</title><rect x=\"%.0f\" y=\"150\" width=\"150\" height=\"26\"/>", cx - 75);
    svg_text(f, cx, 168, lab);
    fputs("</g>", f);
    fprintf(f, "<line class=\"ft\" x1=\"%.0f\" y1=\"176\" x2=\"%.0f\" y2=\"190\"/>", cx, cx);
    svg_gate(f, cx, 190, g->pand, i);
    for (size_t k = 0; k < g->ninputs; k++)
        fprintf(f, "<line class=\"ft\" x1=\"%.0f\" y1=\"210\" x2=\"%.0f\" y2=\"300\"/>", cx,
                basic_x(t, g->inputs[k]));
    for (size_t k = 0; k < g->nconditions; k++) {
        double y = 250 + 26.0 * (double)k;
        fprintf(f, "<line class=\"ft\" x1=\"%.0f\" y1=\"210\" x2=\"%.0f\" y2=\"%.0f\"/>", cx,
                cx + 40, y);
        fprintf(f, "<g class=\"ft-cond\"><ellipse cx=\"%.0f\" cy=\"%.0f\" rx=\"70\" ry=\"11\"/>",
                cx + 40, y);
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\" font-size=\"10\">not ",
                cx + 40, y + 4);
        esc(f, g->conditions[k]);
        fputs("</text></g>", f);
    }
}

static void svg_tree(FILE *f, const rp_ftree *t)
{
    double w1 = 40 + (double)t->ngate * FT_COL, w2 = 60 + (double)used_count(t) * FT_BASIC;
    double tw = 20 + 6.5 * (double)strlen(t->hazard); /* the top event's box fits its text */
    double w = w1 > w2 ? w1 : w2;
    w = w > tw + 20 ? w : tw + 20;
    double mid = w / 2;
    fprintf(f,
            "<svg id=\"fault-tree\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
            "height=\"360\" viewBox=\"0 0 %.0f 360\">",
            w, w);
    fprintf(f, "<g class=\"ft-top\"><rect x=\"%.0f\" y=\"10\" width=\"%.0f\" height=\"30\"/>",
            mid - tw / 2, tw);
    svg_text(f, mid, 30, t->hazard);
    fprintf(f, "</g><line class=\"ft\" x1=\"%.0f\" y1=\"40\" x2=\"%.0f\" y2=\"80\"/>", mid, mid);
    fprintf(f,
            "<g class=\"ft-or\"><path d=\"M%.0f 120 q22 -10 44 0 q0 -30 -22 -40 q-22 10 "
            "-22 40 z\"/>",
            mid - 22);
    svg_text(f, mid, 112, "OR");
    fputs("</g>", f);
    for (size_t i = 0; i < t->ngate; i++)
        svg_cause(f, t, i, 20 + FT_COL / 2.0 + (double)i * FT_COL + (w - w1) / 2, mid);
    for (size_t e = 0; e < t->nev; e++) {
        if (!rp_ftree_used(t, e))
            continue;
        fprintf(f, "<g class=\"ft-basic\" data-event=\"");
        esc(f, t->ev[e].name);
        fprintf(f, "\"><circle cx=\"%.0f\" cy=\"320\" r=\"22\"/>", basic_x(t, e));
        svg_text(f, basic_x(t, e), 324, t->ev[e].name);
        if (t->ev[e].prob >= 0) {
            char p[32];
            snprintf(p, sizeof p, "p=%g", t->ev[e].prob);
            svg_text(f, basic_x(t, e), 356, p);
        }
        fputs("</g>", f);
    }
    fputs("</svg>\n", f);
}

/* ---- timelines ---- */

typedef struct {
    const char *const *names, *const *lanes;
    size_t nevents;
} tl_ctx;

/* Lane index of event type e among the lanes used so far (adds it). */
static size_t lane_of(const char **used, size_t *n, const char *lane)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(used[i], lane))
            return i;
    used[*n] = lane;
    return (*n)++;
}

static void tl_box(FILE *f, const char *cls, double x, double y, const char *label)
{
    fprintf(f,
            "<g class=\"%s\"><rect x=\"%.0f\" y=\"%.0f\" width=\"64\" height=\"22\" "
            "rx=\"5\"/>",
            cls, x - 32, y - 15);
    svg_text(f, x, y, label);
    fputs("</g>", f);
}

/* One row of events (the witness, or the good execution) over the lanes. */
static void tl_row(FILE *f, const tl_ctx *t, const uint32_t *ev, size_t n, const char **lanes,
                   size_t *nl, double x0, const char *cls, const cc_cause *c)
{
    for (size_t k = 0; k < n; k++) {
        size_t l = lane_of(lanes, nl, t->lanes[ev[k]]);
        bool absent = false;
        for (size_t a = 0; c && a < c->nabsent; a++)
            absent |= c->absent[a].event == ev[k];
        tl_box(f, absent ? "ev good prevent" : cls, x0 + 80.0 * (double)k, 40 + 34.0 * (double)l,
               t->names[ev[k]]);
    }
}

static void svg_timeline(FILE *f, const tl_ctx *t, const cc_cause *c, size_t idx)
{
    const char **lanes = calloc(t->nevents + 1, sizeof *lanes);
    uint32_t *w = malloc((c->nocc + 1) * sizeof *w);
    if (!lanes || !w) {
        free(lanes);
        free(w);
        fputs("<p>(timeline: out of memory)</p>", f);
        return;
    }
    size_t nl = 0;
    for (size_t k = 0; k < c->nocc; k++) {
        w[k] = c->occ[k].event;
        lane_of(lanes, &nl, t->lanes[w[k]]);
    }
    for (size_t k = 0; k < c->ngood; k++)
        lane_of(lanes, &nl, t->lanes[c->good[k]]);
    double gx = 150 + 80.0 * (double)(c->nocc + 1);
    size_t cols = c->nocc + 2 + c->ngood;
    fprintf(f,
            "<svg class=\"timeline\" data-cause=\"%zu\" xmlns=\"http://www.w3.org/2000/svg\" "
            "width=\"%.0f\" height=\"%.0f\">",
            idx + 1, 150 + 80.0 * (double)cols, 60 + 34.0 * (double)nl);
    for (size_t l = 0; l < nl; l++) {
        double y = 35 + 34.0 * (double)l;
        fprintf(f, "<line class=\"lane\" x1=\"0\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\"/>", y,
                150 + 80.0 * (double)cols, y);
        fprintf(f, "<text x=\"4\" y=\"%.0f\">", y + 4);
        esc(f, lanes[l]);
        fputs("</text>", f);
    }
    fprintf(f, "<text x=\"150\" y=\"14\">bad execution (witness)</text>");
    tl_row(f, t, w, c->nocc, lanes, &nl, 150, "ev causal", NULL);
    for (size_t a = 0; a < c->nabsent; a++) { /* where the absent event would prevent it */
        const cc_absent *ab = &c->absent[a];
        double x = ab->after < 0    ? 110
                   : ab->before < 0 ? 150 + 80.0 * (double)c->nocc - 40
                                    : 150 + 80.0 * ((ab->after + ab->before) / 2.0);
        char lab[256];
        snprintf(lab, sizeof lab, "\u00ac%s", t->names[ab->event]);
        tl_box(f, "absent", x, 40 + 34.0 * (double)lane_of(lanes, &nl, t->lanes[ab->event]) + 10,
               lab);
    }
    if (c->ngood) {
        fprintf(f,
                "<text x=\"%.0f\" y=\"14\">good execution: the absent event prevents the "
                "hazard</text>",
                gx);
        tl_row(f, t, c->good, c->ngood, lanes, &nl, gx, "ev good", c);
    }
    fputs("</svg>\n", f);
    free(lanes);
    free(w);
}

/* ---- the page ---- */

static void html_cause(FILE *f, const rp_in *in, const tl_ctx *t, size_t i)
{
    const cc_cause *c = &in->r->causes[i];
    const rp_ft_gate *g = &in->tree->gate[i];
    fprintf(f, "<div class=\"cause\" id=\"cause-%zu\"><h3>Cause %zu (%s gate)</h3>", i + 1, i + 1,
            g->pand ? "PAND" : "AND");
    fputs("<div class=\"eol\">", f);
    esc(f, g->eol_unicode);
    fputs("</div><div class=\"eol\">", f);
    esc(f, g->eol);
    fputs("</div><p>events:", f);
    for (size_t k = 0; k < g->ninputs; k++) {
        fputc(' ', f);
        esc(f, in->names[g->inputs[k]]);
    }
    if (g->pand) {
        fputs("<br>causal order: ", f);
        esc(f, g->order);
    }
    for (size_t k = 0; k < g->nconditions; k++) {
        fputs("<br>does not occur: ", f);
        esc(f, g->conditions[k]);
    }
    fprintf(f, "<br>bad execution orders: %.*g", c->ntraces < 1e15 ? 15 : 3, c->ntraces);
    if (c->ambiguous)
        fputs("<br><b>AMBIGUOUS</b>: a good execution has the same events in the same order", f);
    if (in->trails && in->trails[i]) {
        fputs("<br>trail: <code>", f);
        esc(f, in->trails[i]);
        fputs("</code>", f);
    }
    if (in->good_trails && in->good_trails[i]) {
        fputs("<br>good trail: <code>", f);
        esc(f, in->good_trails[i]);
        fputs("</code>", f);
    }
    fputs("</p>", f);
    svg_timeline(f, t, c, i);
    fputs("</div>\n", f);
}

static void html_prob(FILE *f, const rp_ftree *t)
{
    rp_topprob p;
    int rc = rp_prob_top(t, &p);
    fputs("<h2>Probability of the hazard</h2>", f);
    if (rc == 1 && p.missing) {
        fputs("<p id=\"top-probability\">Not computed: no probability for basic event ", f);
        esc(f, p.missing);
        fputs(" (give them with <code>--probabilities FILE</code>).</p>", f);
        return;
    }
    if (rc) {
        fputs("<p id=\"top-probability\">Not computed.</p>", f);
        return;
    }
    fprintf(f,
            "<p id=\"top-probability\">From %zu minimal cut sets (each cause's basic events; "
            "events independent). <b>PAND order and non-occurrence conditions are ignored in "
            "this figure</b>, so it is %s%s.<br>rare-event approximation: "
            "<span id=\"p-rare\">%.6g</span><br>exact (inclusion-exclusion): ",
            p.ncuts,
            t->caveat ? "no bound either: causes may be missing, since " : "an upper bound",
            t->caveat ? t->caveat : "", p.rare);
    if (p.has_exact)
        fprintf(f, "<span id=\"p-exact\">%.6g</span></p>", p.exact);
    else
        fprintf(f, "not computed for more than %d cut sets</p>", RP_EXACT_MAX);
}

static void html_stats(FILE *f, const rp_in *in)
{
    const cc_result *r = in->r;
    const rp_run *run = in->run;
    fputs("<h2>Statistics</h2><table id=\"stats\">", f);
    fprintf(f, "<tr><th>search</th><td>%s, AC2(2) %s</td></tr>", run->search,
            run->ac2 ? "on" : "off");
    fprintf(f, "<tr><th>states / transitions</th><td>%.0f / %.0f</td></tr>", run->states,
            run->transitions);
    fprintf(f, "<tr><th>event types</th><td>%zu</td></tr>", in->nevents);
    fprintf(f, "<tr><th>distinct traces</th><td>%zu bad, %zu good</td></tr>", r->bad, r->good);
    fprintf(f,
            "<tr><th>subset graph</th><td>green %zu, black %zu, red %zu, orange %zu, grey "
            "%zu</td></tr>",
            r->colours[1], r->colours[2], r->colours[3], r->colours[4], r->colours[5]);
    fprintf(f, "<tr><th>history nodes</th><td>%zu</td></tr>", r->explored);
    fprintf(f, "<tr><th>time / peak memory</th><td>%.2f s / %.1f MB</td></tr></table>\n",
            run->seconds, run->peak_mb);
}

static const char *const SCRIPT =
    "<script>\n"
    "(function(){\n"
    "  function shown(sel){return Array.prototype.filter.call(document.querySelectorAll(sel),"
    "function(e){var b=e.getBBox?e.getBBox():e.getBoundingClientRect();"
    "return b.width>0&&b.height>0;}).length;}\n"
    "  var s='causes='+shown('div.cause')+' gates='+shown('#fault-tree .ft-gate')+"
    "' pand='+shown('#fault-tree .ft-gate[data-kind=pand]')+"
    "' basic='+shown('#fault-tree .ft-basic')+' conditions='+shown('#fault-tree .ft-cond')+"
    "' timelines='+shown('svg.timeline')+' or='+shown('#fault-tree .ft-or');\n"
    "  document.getElementById('pc-summary').textContent=s;\n"
    "})();\n</script>\n";

/* What every cause has (rp_common.c), as the text report says it. */
static void html_common(FILE *f, const rp_in *in)
{
    bool *all = in->r->ncauses >= 2 ? calloc(in->nevents + 1, sizeof *all) : NULL;
    int n = all ? rp_every_cause(in->r, in->nevents, all) : -1;
    bool sure = rp_every_cause_sure(in);
    if (n > 0) {
        fprintf(f,
                "<p id=\"in-every-cause\" data-sure=\"%s\">In every cause%s:", sure ? "yes" : "no",
                sure ? "" : " found");
        for (size_t e = 0; e < in->nevents; e++)
            if (all[e]) {
                fputs(" <b>", f);
                esc(f, in->names[e]);
                fputs("</b>", f);
            }
        if (sure)
            fputs(". Every run that reaches the hazard has each of them.</p>\n", f);
        else
            fprintf(f, " (not a guarantee: %s).</p>\n", rp_every_cause_caveat(in));
    } else if (n == 0 && sure)
        fputs(
            "<p id=\"in-every-cause\" data-sure=\"yes\">No event is in every cause: no event is in "
            "every run that reaches the hazard.</p>\n",
            f);
    free(all);
}

static int put_html(FILE *f, const void *arg)
{
    const rp_in *in = arg;
    tl_ctx t = {in->names, in->lanes, in->nevents};
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pancause: causes in ", f);
    esc(f, in->run->model);
    fprintf(f, "</title><style>%s</style></head><body>\n<h1>Causes of the hazard in ", CSS);
    esc(f, in->run->model);
    fputs("</h1>\n<p>Property: <b id=\"property\">", f);
    esc(f, in->tree->hazard);
    fputs("</b></p>\n", f);
    if (in->run->nwhy) {
        fputs("<p class=\"incomplete\">INCOMPLETE: ", f);
        for (size_t i = 0; i < in->run->nwhy; i++) {
            fputs(i ? "; " : "", f);
            esc(f, in->run->why[i]);
        }
        fputs(". Causes may miss or wrongly add non-occurrences, fail AC3 (minimality) or be "
              "missing.</p>",
              f);
    }
    fprintf(f, "<h2>Causes (%zu)</h2>\n", in->r->ncauses);
    if (!in->r->hazard && in->run->nwhy)
        fputs("<p>The hazard was not reached, but the search is incomplete (above): it may "
              "still be reachable.</p>",
              f);
    else if (!in->r->hazard)
        fputs("<p>The hazard is not reachable: nothing to explain.</p>", f);
    for (size_t i = 0; i < in->r->ncauses; i++)
        html_cause(f, in, &t, i);
    html_common(f, in);
    fputs("<h2>Fault tree</h2>\n", f);
    svg_tree(f, in->tree);
    html_prob(f, in->tree);
    html_stats(f, in);
    fputs("<h2>Rendered</h2><pre id=\"pc-summary\">script did not run</pre>\n", f);
    fputs(SCRIPT, f);
    fputs("</body></html>\n", f);
    return 0;
}

int rp_write_html(rp_in *in, const char *path, u_err *err)
{
    if (!rp_tree(in) || !in->lanes)
        return u_errf(err, "cannot write %s: out of memory", path);
    return u_write_file(path, put_html, in, err);
}
