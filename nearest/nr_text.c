/*
 * nr_text.c - the nearest report a person reads top to bottom (stdout of ./pan -C
 * --nearest and of pancause nearest): what a and b are and how they end, the distance
 * and its terms, the two runs side by side as aligned (each step with its process,
 * source line and statement; `~` a changed action, `-` a step of a that b does not
 * take, `+` a step b takes in addition, and under a row the values that differ
 * there), then every Δ, those of the slice starred, and the slice's source lines.
 */
#include "nr_internal.h"

#include <stdlib.h>
#include <string.h>

/* Why b is a lasso: the two cases of "Runs that never end" (README). */
#define WHY_RUN_TO_END "no valid end state is reachable, --run-to-end"
#define WHY_NO_FINITE  "the model has no finite successful run"

static bool run_to_end(const nr_report *r)
{
    return r->o && r->o->run_to_end;
}

const char *nr_b_end(const nr_report *r)
{
    const nr_path *b = &r->f->b;
    uint32_t s = b->state[b->nmoves];
    if (r->f->lasso)
        return run_to_end(r) ? "a loop: it runs for ever without violating (" WHY_RUN_TO_END ")"
                             : "a loop: it runs for ever without violating (" WHY_NO_FINITE ")";
    return r->m->vend[s] == NR_END_VALID ? "a valid end state"
                                         : "a settled state (no violation is reachable "
                                           "by silent moves)";
}

/* The note that a itself breaks --assume (nr_report's assume_broken); the thesis
 * expected a counterexample that keeps to its assumptions, and a user reading b's Δs
 * should know when this one does not. */
char *nr_assume_note(const nr_report *r)
{
    size_t k = r->assume_broken;
    if (!k)
        return NULL;
    char *at = k <= r->a->n ? u_fmt("in its state before step %zu", k) : u_fmt("in its last state");
    char *t = at ? u_fmt("a itself breaks --assume %s: the assumption restricts b only, and "
                         "the thesis expects a counterexample that keeps to it",
                         at)
                 : NULL;
    free(at);
    return t;
}

bool nr_exact(const nr_report *r)
{
    return r->f->exact && !r->c->nwhy;
}

/* Whether b is a with its last steps deleted and nothing else changed, ending at a
 * merely settled state: the explanation then only says "do not take the last steps". */
bool nr_cut_short(const nr_report *r)
{
    const nr_deltas *d = r->d;
    const nr_path *b = &r->f->b;
    if (run_to_end(r) || r->f->lasso || d->dp || d->da || d->dc_b || !d->dc_a ||
        b->n + d->dc_a != r->a->n || r->m->vend[b->state[b->nmoves]] == NR_END_VALID)
        return false;
    for (size_t k = 0; k < d->n; k++)
        if (d->d[k].kind == NR_D_DELETED && d->d[k].step_a < (long)b->n)
            return false;
    return true;
}

/* "P(0) :31 most = input2": step s's process, and a statement of its move. */
static char *stmt_text(const nr_model *m, const nr_step *s, int line, const char *text)
{
    return u_fmt("%s(%d) :%d %s", nr_proc_name(m, s->proctype), s->pid, line, text);
}

char *nr_step_text(const nr_model *m, const nr_path *p, size_t k)
{
    const nr_step *s = &p->step[k];
    return stmt_text(m, s, nr_line(m, s->proctype, s->tid), nr_text(m, s->proctype, s->tid));
}

char *nr_delta_value(const nr_model *m, const nr_delta *d, bool b)
{
    if (!(b ? d->has_b : d->has_a))
        return strdup("absent");
    return nr_value_text(m, d->var, b ? d->value_b : d->value_a);
}

/* One run's cell: "  12 P(0) :31 most = input2", cut to width. */
static void cell(FILE *f, const nr_model *m, const nr_path *p, long k, int width)
{
    if (k < 0) {
        fprintf(f, "%*s", width, "");
        return;
    }
    char *t = nr_step_text(m, p, (size_t)k);
    fprintf(f, "%4ld %-*.*s", k + 1, width - 5, width - 5, t ? t : "?");
    free(t);
}

/* Row h of the statements SPIN merged into step k's move, as `spin -t -p` prints them
 * under the step's number: "     P(0) :38 base = (base+1)", cut to width; blank when
 * the move has fewer.  Whether there was one. */
static bool merged_cell(FILE *f, const nr_model *m, const nr_path *p, long k, size_t h, int width)
{
    const int *hop;
    const nr_step *s = k >= 0 ? &p->step[k] : NULL;
    if (!s || h >= nr_merged(m, s->proctype, s->tid, &hop)) {
        fprintf(f, "%*s", width, "");
        return false;
    }
    char *t = stmt_text(m, s, nr_trans_line(m, hop[h]), m->trans[hop[h]].text);
    fprintf(f, "     %-*.*s", width - 5, width - 5, t ? t : "?");
    free(t);
    return true;
}

static size_t nmerged(const nr_model *m, const nr_path *p, long k)
{
    const int *hop;
    return k >= 0 ? nr_merged(m, p->step[k].proctype, p->step[k].tid, &hop) : 0;
}

static void values_under(FILE *f, const nr_report *r, long i, long j)
{
    const nr_deltas *d = r->d;
    bool any = false;
    for (size_t k = 0; k < d->n; k++) {
        const nr_delta *x = &d->d[k];
        if (x->kind != NR_D_VALUE || x->step_a != i || x->step_b != j || !x->steps)
            continue;
        char *va = nr_delta_value(r->m, x, false), *vb = nr_delta_value(r->m, x, true);
        fprintf(f, "%s%s %s|%s", any ? ", " : "          values before: ", r->m->var[x->var].name,
                va ? va : "?", vb ? vb : "?");
        free(va);
        free(vb);
        any = true;
    }
    if (any)
        fputc('\n', f);
}

static void rows(FILE *f, const nr_report *r)
{
    nr_row *row;
    size_t n;
    if (nr_rows(r->a->n, r->f->b.n, r->f->pair, &row, &n))
        return;
    const int W = 44;
    fprintf(f, "\n  %-*s     %s\n", W, "a (counterexample)", "b (successful run)");
    for (size_t k = 0; k < n; k++) {
        long i = row[k].i, j = row[k].j;
        const char *mark = "   ";
        if (i >= 0 && j < 0)
            mark = " - ";
        else if (i < 0)
            mark = " + ";
        else if (r->a->step[i].tid != r->f->b.step[j].tid)
            mark = " ~ ";
        bool loop = r->f->lasso && j >= (long)r->f->loop_step;
        fputs(loop ? "@ " : "  ", f);
        cell(f, r->m, r->a, i, W);
        fprintf(f, "%s", mark);
        cell(f, r->m, &r->f->b, j, W);
        if (r->f->lasso && j == (long)r->f->loop_step)
            fputs("  <- loop starts", f);
        if (r->f->lasso && j == (long)r->f->b.n - 1)
            fprintf(f, "  -> back to step %zu", r->f->loop_step + 1);
        fputc('\n', f);
        size_t na = nmerged(r->m, r->a, i), nb = nmerged(r->m, &r->f->b, j);
        for (size_t h = 0; h < na || h < nb; h++) {
            fputs(loop ? "@ " : "  ", f);
            merged_cell(f, r->m, r->a, i, h, W);
            fputs("   ", f);
            merged_cell(f, r->m, &r->f->b, j, h, W);
            fputc('\n', f);
        }
        if (i >= 0 && j >= 0)
            values_under(f, r, i, j);
    }
    free(row);
}

static void delta_line(FILE *f, const nr_report *r, size_t k)
{
    const nr_delta *x = &r->d->d[k];
    const nr_model *m = r->m;
    fprintf(f, "  %s %3zu. line %d: ", x->in_slice ? "*" : " ", k + 1, x->line);
    if (x->kind == NR_D_VALUE) {
        char *va = nr_delta_value(m, x, false), *vb = nr_delta_value(m, x, true);
        if (x->steps)
            fprintf(f, "value of %s: %s in a, %s in b, at steps %ld|%ld (for %zu step%s)\n",
                    m->var[x->var].name, va ? va : "?", vb ? vb : "?", x->step_a + 1, x->step_b + 1,
                    x->steps, x->steps == 1 ? "" : "s");
        else
            fprintf(f, "value of %s: %s in a, %s in b, when a ends\n", m->var[x->var].name,
                    va ? va : "?", vb ? vb : "?");
        free(va);
        free(vb);
    } else if (x->kind == NR_D_ACTION) {
        const nr_step *sa = &r->a->step[x->step_a], *sb = &r->f->b.step[x->step_b];
        fprintf(f, "changed action at steps %ld|%ld: a %s, b %s (line %d)\n", x->step_a + 1,
                x->step_b + 1, nr_text(m, sa->proctype, sa->tid), nr_text(m, sb->proctype, sb->tid),
                x->line_b);
    } else {
        bool del = x->kind == NR_D_DELETED;
        const nr_path *p = del ? r->a : &r->f->b;
        long s = del ? x->step_a : x->step_b;
        char *t = nr_step_text(m, p, (size_t)s);
        fprintf(f, "%s step %ld of %s: %s\n", del ? "deleted" : "inserted", s + 1, del ? "a" : "b",
                t ? t : "?");
        free(t);
    }
}

int nr_text_report(FILE *f, const nr_report *r)
{
    const nr_deltas *d = r->d;
    fprintf(f, "\npancause: the closest successful execution to %s (%s)\n",
            r->o->trail_not_kept ? NR_NOT_KEPT : r->o->trail, r->c->model);
    fprintf(f, "  a (counterexample): %zu steps, ends: %s\n", r->a->n, r->a_end);
    if (r->f->lasso)
        fprintf(f,
                "  b (successful run): a lasso, %zu steps of stem, then steps %zu-%zu (marked @) "
                "repeat for ever without violating (%s)\n",
                r->f->loop_step, r->f->loop_step + 1, r->f->b.n,
                run_to_end(r) ? WHY_RUN_TO_END : WHY_NO_FINITE);
    else
        fprintf(f, "  b (successful run): %zu steps, ends in %s\n", r->f->b.n, nr_b_end(r));
    fprintf(f, "  distance d(a, b) = %ld", r->f->distance);
    if (nr_exact(r) && r->f->stop)
        fprintf(f,
                " (exact: no successful run is nearer; the search stopped at its %s after "
                "%zu expanded nodes, but no run it had left could be nearer than b)\n",
                r->f->stop == NR_STOP_MEMORY ? "memory limit" : "budget", r->f->expanded);
    else if (nr_exact(r))
        fprintf(f, " (exact: no successful run is nearer)\n");
    else if (r->f->exact)
        fprintf(f, " (NOT EXACT: the least over the recorded graph, which is INCOMPLETE "
                   "(below): a nearer successful run may exist, and b may end where the graph "
                   "lost moves or pass a state the claim did not check)\n");
    else if (r->f->stop == NR_STOP_MEMORY)
        fprintf(f,
                " (NOT EXACT: the search stopped when its memory ran short, at %.0f MB after "
                "%zu expanded nodes; no run is nearer than %ld; %s)\n",
                (double)r->f->bytes / 1048576.0, r->f->expanded, r->f->lower,
                r->f->cap_hit ? "raise --memlim, or free memory"
                              : "the system would give no more: a ulimit -v?");
    else
        fprintf(f,
                " (NOT EXACT: the search stopped at its budget of %zu expanded nodes; no run "
                "is nearer than %ld; raise --budget)\n",
                r->f->expanded, r->f->lower);
    if (r->f->own_alignment)
        fprintf(f,
                "  (b is measured by the search's own alignment: finding the least one needs a "
                "table of %zu MB, more than the memory allows)\n",
                (r->a->n + 1) * (r->f->b.n + 1) / 1048576 + 1);
    for (size_t k = 0; k < r->c->nwhy; k++)
        fprintf(f, "  INCOMPLETE graph: %s\n", r->c->why[k]);
    fprintf(f,
            "    = Wp %ld x %zu differing values + Wa %ld x %zu changed actions + Wc %ld x %zu "
            "unaligned steps (%zu of a, %zu of b)\n",
            r->wp, d->dp, r->wa, d->da, r->wc, d->dc_a + d->dc_b, d->dc_a, d->dc_b);
    if (r->o->nassume) {
        fputs("  assuming (--assume, every state of b):", f);
        for (int k = 0; k < r->o->nassume; k++)
            fprintf(f, "%s \"%s\"", k ? " and" : "", r->o->assume[k]);
        fputc('\n', f);
    }
    char *broken = nr_assume_note(r);
    if (broken)
        fprintf(f, "  note: %s\n", broken);
    free(broken);
    rows(f, r);
    fprintf(f, "\n  differences (* = in the slice: what avoiding the violation depends on)\n");
    for (size_t k = 0; k < d->n; k++)
        delta_line(f, r, k);
    fprintf(f, "  slice: %zu of %zu differences", d->nslice, d->n);
    if (d->nvia)
        fprintf(f, " and %zu step%s both runs take alike that they depend on", d->nvia,
                d->nvia == 1 ? "" : "s");
    fputs("; lines", f);
    for (size_t k = 0; k < d->nlines; k++)
        fprintf(f, " %d", d->lines[k]);
    fputc('\n', f);
    if (r->o->good_trail)
        fprintf(f, "  good run: %s  (replay: spin -t -k %s -p %s%s)\n", r->o->good_trail,
                r->o->good_trail, r->c->model,
                r->f->lasso ? "; the stem and one pass of the loop, which starts at SPIN's "
                              "<<<<<START OF CYCLE>>>>>"
                            : "");
    if (nr_cut_short(r))
        fprintf(f,
                "  note: b is a cut short: it stops at a settled state (no violation "
                "reachable by silent moves), which says only that a's last step%s led into "
                "the violation; --run-to-end asks for a b that runs to a valid end state or "
                "for ever\n",
                d->dc_a == 1 ? "" : "s");
    fprintf(f, "  search: %zu nodes expanded of %zu, %.2f s; total %.2f s, peak %.1f MB\n",
            r->f->expanded, r->f->nodes, r->search_seconds, r->seconds, r->peak_mb);
    return 0;
}
