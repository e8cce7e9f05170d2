/*
 * nr_html.c - the nearest result as one self-contained HTML page (--html FILE), in the
 * style of report/'s causality page: the property and how a ends, the distance and its
 * terms, the two runs as aligned lanes (a on the left, b on the right, one row per
 * aligned pair or unaligned step, colour-marked: changed action, deleted, inserted,
 * and the values that differ under the row; a lasso's loop barred in blue), the Δs
 * with the slice highlighted, and the good run's trail.  No external resources.  A small script
 * counts what the browser rendered (rows by kind, Δs, slice entries) into #nr-summary, which the
 * headless-Chromium test compares with the JSON.
 */
#include "nr_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const CSS =
    "body{font-family:sans-serif;margin:2em;max-width:1200px;color:#222}"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}"
    ".incomplete{color:#a00;font-weight:bold}table{border-collapse:collapse}"
    "td,th{border:1px solid #ddd;padding:.15em .5em;text-align:left;vertical-align:top}"
    "td.step{font-family:monospace;white-space:pre}td.mark{text-align:center;font-weight:bold}"
    "td.step .merged{color:#555;padding-left:4ch}"
    "tr.row-deleted td.a{background:#fdd}tr.row-inserted td.b{background:#dfd}"
    "tr.row-action td.a,tr.row-action td.b{background:#ffd}.vals{font-size:.85em;color:#555}"
    "tr.in-slice td.mark{background:#c33;color:#fff}li.delta.in-slice{font-weight:bold;"
    "border-left:4px solid #c33;padding-left:.4em}li.delta{margin:.2em 0}"
    "pre.trail{background:#f4f4f4;padding:.5em}.num{font-variant-numeric:tabular-nums}"
    "td.step.b.loop{border-right:4px solid #36c}td.step.b.loop-start{border-top:3px solid #36c}"
    "td.step.b.loop-end::after{content:' \\21BA  back to step ' attr(data-back);color:#36c}"
    "span.xmark.dot{color:#c00;font-weight:bold}span.xmark.cause{color:#a60;font-weight:bold}";

static void esc(FILE *f, const char *s)
{
    u_put_xml(f, s ? s : "");
}

static void step_cell(FILE *f, const nr_report *r, const nr_path *p, long k, const char *cls)
{
    /* b's loop, when b is a lasso: a blue bar, its first step topped, its last saying
     * where it goes back to */
    bool loop = p == &r->f->b && r->f->lasso && k >= (long)r->f->loop_step;
    fprintf(f, "<td class=\"step %s%s%s%s\"", cls, loop ? " loop" : "",
            loop && k == (long)r->f->loop_step ? " loop-start" : "",
            loop && k == (long)p->n - 1 ? " loop-end" : "");
    if (loop && k == (long)p->n - 1)
        fprintf(f, " data-back=\"%zu\"", r->f->loop_step + 1);
    if (p == r->a && k >= 0) /* where pancause nearest --with-... puts its marks, and the
                                location (proctype, pid, control state) a label of pan -C's
                                events names (nr_marks.c) */
        fprintf(f, " data-step=\"%ld\" data-loc=\"%s %d %d\"", k + 1,
                nr_proc_name(r->m, p->step[k].proctype), p->step[k].pid, p->step[k].pc);
    fputs(">", f);
    if (k >= 0) {
        const nr_step *s = &p->step[k];
        fprintf(f, "%ld  %s(%d) :%d  ", k + 1, nr_proc_name(r->m, s->proctype), s->pid,
                nr_line(r->m, s->proctype, s->tid));
        esc(f, nr_text(r->m, s->proctype, s->tid));
        const int *hop;
        size_t nh = nr_merged(r->m, s->proctype, s->tid, &hop);
        for (size_t h = 0; h < nh; h++) { /* merged into the move, as spin -t -p shows */
            fprintf(f, "<br><span class=\"merged\">:%d  ", nr_trans_line(r->m, hop[h]));
            esc(f, r->m->trans[hop[h]].text);
            fputs("</span>", f);
        }
    }
    fputs("</td>", f);
}

/* Whether some Δ of the slice sits on row (i, j). */
static bool row_in_slice(const nr_deltas *d, long i, long j)
{
    for (size_t k = 0; k < d->n; k++) {
        const nr_delta *x = &d->d[k];
        if (!x->in_slice)
            continue;
        if ((x->kind == NR_D_DELETED && x->step_a == i && j < 0) ||
            (x->kind == NR_D_INSERTED && x->step_b == j && i < 0) ||
            (x->kind == NR_D_ACTION && x->step_a == i && x->step_b == j))
            return true;
    }
    return false;
}

static void values(FILE *f, const nr_report *r, long i, long j)
{
    bool any = false;
    for (size_t k = 0; k < r->d->n; k++) {
        const nr_delta *x = &r->d->d[k];
        if (x->kind != NR_D_VALUE || x->step_a != i || x->step_b != j || !x->steps)
            continue;
        char *va = nr_delta_value(r->m, x, false), *vb = nr_delta_value(r->m, x, true);
        fputs(any ? ", " : "<div class=\"vals\">values before the steps: ", f);
        esc(f, r->m->var[x->var].name);
        fputs(" ", f);
        esc(f, va);
        fputs(" | ", f);
        esc(f, vb);
        free(va);
        free(vb);
        any = true;
    }
    if (any)
        fputs("</div>", f);
}

static void lanes(FILE *f, const nr_report *r)
{
    nr_row *row;
    size_t n;
    if (nr_rows(r->a->n, r->f->b.n, r->f->pair, &row, &n))
        return;
    fputs("<table id=\"lanes\"><tr><th>a: the counterexample</th><th></th>"
          "<th>b: the closest successful run</th></tr>\n",
          f);
    for (size_t k = 0; k < n; k++) {
        long i = row[k].i, j = row[k].j;
        const char *kind = i < 0                                      ? "inserted"
                           : j < 0                                    ? "deleted"
                           : r->a->step[i].tid != r->f->b.step[j].tid ? "action"
                                                                      : "aligned";
        const char *mark = i < 0                            ? "+"
                           : j < 0                          ? "&minus;"
                           : *kind == 'a' && kind[1] == 'c' ? "~"
                                                            : "";
        fprintf(f, "<tr class=\"row row-%s%s\">", kind,
                row_in_slice(r->d, i, j) ? " in-slice" : "");
        step_cell(f, r, r->a, i, "a");
        fprintf(f, "<td class=\"mark\">%s</td>", mark);
        step_cell(f, r, &r->f->b, j, "b");
        fputs("</tr>\n", f);
        if (i >= 0 && j >= 0) {
            fputs("<tr class=\"vals-row\"><td colspan=\"3\">", f);
            values(f, r, i, j);
            fputs("</td></tr>\n", f);
        }
    }
    fputs("</table>\n", f);
    free(row);
}

static void deltas(FILE *f, const nr_report *r)
{
    static const char *const KIND[] = {"value", "action", "deleted", "inserted"};
    fputs("<ol id=\"deltas\">\n", f);
    for (size_t k = 0; k < r->d->n; k++) {
        const nr_delta *x = &r->d->d[k];
        fprintf(f, "<li class=\"delta %s%s\">line %d: ", KIND[x->kind],
                x->in_slice ? " in-slice" : "", x->line);
        if (x->kind == NR_D_VALUE) {
            char *va = nr_delta_value(r->m, x, false), *vb = nr_delta_value(r->m, x, true);
            fputs("value of ", f);
            esc(f, r->m->var[x->var].name);
            fputs(": ", f);
            esc(f, va);
            fputs(" in a, ", f);
            esc(f, vb);
            fprintf(f, " in b (%zu step%s)", x->steps, x->steps == 1 ? "" : "s");
            free(va);
            free(vb);
        } else if (x->kind == NR_D_ACTION) {
            const nr_step *sa = &r->a->step[x->step_a], *sb = &r->f->b.step[x->step_b];
            fprintf(f, "changed action at steps %ld|%ld: a ", x->step_a + 1, x->step_b + 1);
            esc(f, nr_text(r->m, sa->proctype, sa->tid));
            fputs(", b ", f);
            esc(f, nr_text(r->m, sb->proctype, sb->tid));
            fprintf(f, " (line %d)", x->line_b);
        } else {
            bool del = x->kind == NR_D_DELETED;
            char *t =
                nr_step_text(r->m, del ? r->a : &r->f->b, (size_t)(del ? x->step_a : x->step_b));
            fprintf(f, "%s: ", del ? "a's step deleted" : "b's step inserted");
            esc(f, t);
            free(t);
        }
        fputs("</li>\n", f);
    }
    fputs("</ol>\n", f);
}

static const char *const SCRIPT =
    "<script>\n"
    "(function(){var q=function(s){return document.querySelectorAll(s).length;};\n"
    "var mk=document.getElementById('nr-marks');\n"
    "if(mk)JSON.parse(mk.textContent).forEach(function(x){\n"
    "var c=document.querySelector('td.step.a[data-step=\"'+x.step+'\"]');if(!c)return;\n"
    "var s=document.createElement('span');s.className='xmark '+x.kind;\n"
    "s.textContent=(x.kind==='dot'?' \\u25CF ':' \\u25C6 ')+x.label;c.appendChild(s);});\n"
    "var nonempty=function(s){var n=0;document.querySelectorAll(s).forEach(function(e){"
    "if(e.getBoundingClientRect().height>0&&e.textContent.trim().length>0)n++;});return n;};\n"
    "var s='rows='+nonempty('tr.row')+' aligned='+q('tr.row-aligned')+' action='+"
    "q('tr.row-action')+' deleted='+q('tr.row-deleted')+' inserted='+q('tr.row-inserted')+"
    "' deltas='+nonempty('li.delta')+' slice='+nonempty('li.delta.in-slice')+"
    "' loop='+nonempty('td.step.b.loop')+' loop_start='+q('td.loop-start')+"
    "' loop_end='+q('td.loop-end')+' dots='+nonempty('span.xmark.dot')+"
    "' causes='+nonempty('span.xmark.cause');\n"
    "document.getElementById('nr-summary').textContent=s;})();\n"
    "</script>\n";

int nr_html_write(FILE *f, const void *arg)
{
    const nr_report *r = arg;
    const nr_deltas *d = r->d;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
    esc(f, r->c->model);
    fprintf(f, ": the closest successful execution</title>\n<style>%s</style></head><body>\n", CSS);
    fputs("<h1>The closest successful execution: ", f);
    esc(f, r->c->model);
    fputs("</h1>\n<p>Counterexample <code>", f);
    esc(f, r->o->trail_not_kept ? NR_NOT_KEPT : r->o->trail);
    fprintf(f, "</code>: %zu steps, ends: <b>", r->a->n);
    esc(f, r->a_end);
    fprintf(f, "</b>.<br>Closest successful run: %zu steps, ends in ", r->f->b.n);
    esc(f, nr_b_end(r));
    if (r->f->lasso)
        fprintf(f,
                " <span id=\"loop\">Its steps %zu&ndash;%zu (blue bar) repeat for ever; the "
                "distance is to its stem and one pass of the loop.</span>",
                r->f->loop_step + 1, r->f->b.n);
    fprintf(f, ".</p>\n<p class=\"num\">Distance d(a, b) = <b id=\"distance\">%ld</b> ",
            r->f->distance);
    if (nr_exact(r))
        fputs("(exact)", f);
    else if (r->f->exact)
        fputs("<span class=\"incomplete\" id=\"not-exact\">NOT EXACT: the least over the "
              "recorded graph, which is INCOMPLETE (below)</span>",
              f);
    else
        fprintf(f,
                "<span class=\"incomplete\" id=\"not-exact\">NOT EXACT: the search stopped "
                "%s; no run is nearer than %ld</span>",
                r->f->stop == NR_STOP_MEMORY ? "when its memory ran short" : "at its budget",
                r->f->lower);
    fprintf(f,
            " = W<sub>p</sub> %ld &times; %zu differing values + W<sub>&alpha;</sub> %ld &times; "
            "%zu changed actions + W<sub>c</sub> %ld &times; %zu unaligned steps (%zu of a, %zu of "
            "b).</p>\n",
            r->wp, d->dp, r->wa, d->da, r->wc, d->dc_a + d->dc_b, d->dc_a, d->dc_b);
    if (r->o->nassume) {
        fputs("<p id=\"assume\">Assuming (<code>--assume</code>, every state of b): ", f);
        for (int k = 0; k < r->o->nassume; k++) {
            fputs(k ? " and <code>" : "<code>", f);
            esc(f, r->o->assume[k]);
            fputs("</code>", f);
        }
        fputs(".</p>\n", f);
    }
    char *broken = nr_assume_note(r);
    if (broken) {
        fputs("<p class=\"note\" id=\"assume-broken\">Note: ", f);
        esc(f, broken);
        fputs(".</p>\n", f);
        free(broken);
    }
    if (nr_cut_short(r))
        fputs("<p class=\"note\" id=\"cut-short\">Note: b is a cut short: it stops at a settled "
              "state (no violation reachable by silent moves), which says only that a's last "
              "steps led into the violation; <code>--run-to-end</code> asks for a b that runs to "
              "a valid end state or for ever.</p>\n",
              f);
    for (size_t k = 0; k < r->c->nwhy; k++) {
        fputs("<p class=\"incomplete\">INCOMPLETE graph: ", f);
        esc(f, r->c->why[k]);
        fputs("</p>\n", f);
    }
    fputs("<h2>The two runs, aligned</h2>\n<p>Rows: aligned steps (same process, same control "
          "location); ~ a changed action; &minus; a step of a that b does not take; + a step b "
          "takes in addition. Under a row: the values that differ before the two steps. Red "
          "marks: in the slice.</p>\n",
          f);
    lanes(f, r);
    fprintf(f,
            "<h2>Differences (&Delta;s) and their slice</h2>\n<p>The slice: %zu of %zu "
            "differences",
            d->nslice, d->n);
    if (d->nvia)
        fprintf(f, " and %zu step%s both runs take alike that they depend on", d->nvia,
                d->nvia == 1 ? "" : "s");
    fputs(", lines", f);
    for (size_t k = 0; k < d->nlines; k++)
        fprintf(f, " %d", d->lines[k]);
    fputs(".</p>\n", f);
    deltas(f, r);
    fputs("<h2>The successful run as a SPIN trail</h2>\n", f);
    if (r->o->good_trail) {
        fputs("<p>Written to <code>", f);
        esc(f, r->o->good_trail);
        fputs("</code>; replay with <code>spin -t -k FILE -p MODEL</code>.</p>\n", f);
    }
    fputs("<pre class=\"trail\">", f);
    esc(f, r->trail_text);
    fputs("</pre>\n<h2>Statistics</h2>\n", f);
    fprintf(f,
            "<p class=\"num\">%.0f states, %.0f transitions; search: %zu nodes expanded of "
            "%zu; %.2f s, peak %.1f MB.</p>\n",
            r->c->states, r->c->transitions, r->f->expanded, r->f->nodes, r->seconds, r->peak_mb);
    fputs("<pre id=\"nr-summary\"></pre>\n", f);
    fputs(SCRIPT, f);
    fputs("</body></html>\n", f);
    return ferror(f) ? -1 : 0;
}
