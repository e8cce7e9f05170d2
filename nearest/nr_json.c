/*
 * nr_json.c - the nearest result as JSON (--json FILE).
 *
 * Keys: model, trail, exact (b is nearest: the search ran to its end, or stopped with a b
 * at its lower bound, and the graph is complete: false when incomplete names a reason),
 * lower_bound (no successful run is nearer; the distance when exact), stopped_by (what
 * stopped a search before its end: "budget" or "memory", with exact true after it had
 * proved b nearest; else null), alignment_minimal (the
 * alignment is the least for b; false only when a stopped search's b was too long for
 * the DP within the memory, and its own alignment is given), run_to_end (whether b had to
 * end in a valid end state, --run-to-end), assume (the --assume expressions),
 * assume_broken_by_a (the step of a before which its state breaks one, its length + 1
 * for its last state, null when a keeps to them all), cut_short (b is only a with its last steps
 * cut, at a merely settled state), incomplete (why the graph
 * may be partial), weights {wp, wa, wc}, distance, counts {dp, da, dc, deleted,
 * inserted}, a and b (ends, steps: each {step, pid, proc, line, text, pr, tid}; b also
 * lasso and loop_step: b runs for ever, its steps loop_step .. the last repeating),
 * alignment (each {step_a, step_b, cost}), deltas (each {kind: value|action|deleted|
 * inserted, step_a, step_b, variable, value_a, value_b, line, line_b, steps, slice}),
 * slice (indices into deltas), slice_via (how many aligned steps with equal actions
 * the slice's dependences pass through), slice_lines (the slice's Δs' lines and those
 * steps'), good_trail (the file, or null) and
 * good_trail_text (pan's trail format), stats.  Steps are numbered from 1 in each run,
 * the never claim's moves not counted; a missing step is null.
 */
#include "nr_internal.h"

#include <stdlib.h>

static void step_or_null(u_json *j, long k)
{
    if (k < 0)
        u_json_null(j);
    else
        u_json_int(j, k + 1);
}

static void run(u_json *j, const nr_report *r, const nr_path *p, const char *end)
{
    u_json_obj(j);
    u_json_key(j, "ends");
    u_json_str(j, end);
    if (p == &r->f->b) {
        u_json_key(j, "lasso");
        u_json_bool(j, r->f->lasso);
        u_json_key(j, "loop_step");
        step_or_null(j, r->f->lasso ? (long)r->f->loop_step : -1);
    }
    u_json_key(j, "steps");
    u_json_arr(j);
    for (size_t k = 0; k < p->n; k++) {
        const nr_step *s = &p->step[k];
        u_json_obj(j);
        u_json_key(j, "step");
        u_json_uint(j, k + 1);
        u_json_key(j, "pid");
        u_json_int(j, s->pid);
        u_json_key(j, "proc");
        u_json_str(j, nr_proc_name(r->m, s->proctype));
        u_json_key(j, "line");
        u_json_int(j, nr_line(r->m, s->proctype, s->tid));
        u_json_key(j, "text");
        u_json_str(j, nr_text(r->m, s->proctype, s->tid));
        const int *hop;
        size_t nh = nr_merged(r->m, s->proctype, s->tid, &hop);
        if (nh) { /* the statements SPIN merged into the move, as spin -t -p lists them */
            u_json_key(j, "merged");
            u_json_arr(j);
            for (size_t h = 0; h < nh; h++) {
                u_json_obj(j);
                u_json_key(j, "line");
                u_json_int(j, nr_trans_line(r->m, hop[h]));
                u_json_key(j, "text");
                u_json_str(j, r->m->trans[hop[h]].text);
                u_json_end(j);
            }
            u_json_end(j);
        }
        u_json_key(j, "pr");
        u_json_int(j, p->pan[k].pr);
        u_json_key(j, "tid");
        u_json_int(j, s->tid);
        u_json_end(j);
    }
    u_json_end(j);
    u_json_end(j);
}

static void delta(u_json *j, const nr_report *r, const nr_delta *x)
{
    static const char *const KIND[] = {"value", "action", "deleted", "inserted"};
    u_json_obj(j);
    u_json_key(j, "kind");
    u_json_str(j, KIND[x->kind]);
    u_json_key(j, "step_a");
    step_or_null(j, x->step_a);
    u_json_key(j, "step_b");
    step_or_null(j, x->step_b);
    u_json_key(j, "variable");
    u_json_str(j, x->kind == NR_D_VALUE ? r->m->var[x->var].name : NULL);
    char *va = x->kind == NR_D_VALUE ? nr_delta_value(r->m, x, false) : NULL;
    char *vb = x->kind == NR_D_VALUE ? nr_delta_value(r->m, x, true) : NULL;
    u_json_key(j, "value_a");
    u_json_str(j, va);
    u_json_key(j, "value_b");
    u_json_str(j, vb);
    free(va);
    free(vb);
    u_json_key(j, "line");
    u_json_int(j, x->line);
    u_json_key(j, "line_b");
    if (x->kind == NR_D_ACTION)
        u_json_int(j, x->line_b);
    else
        u_json_null(j);
    u_json_key(j, "steps");
    u_json_uint(j, x->kind == NR_D_VALUE ? x->steps : 1);
    u_json_key(j, "slice");
    u_json_bool(j, x->in_slice);
    u_json_end(j);
}

static void alignment(u_json *j, const nr_report *r)
{
    const nr_path *a = r->a, *b = &r->f->b;
    u_json_arr(j);
    for (size_t k = 0; k < b->n; k++) {
        long i = r->f->pair[k];
        if (i < 0)
            continue;
        const nr_step *sa = &a->step[i], *sb = &b->step[k];
        u_json_obj(j);
        u_json_key(j, "step_a");
        u_json_int(j, i + 1);
        u_json_key(j, "step_b");
        u_json_uint(j, k + 1);
        u_json_key(j, "cost");
        u_json_int(j, r->wp * (long)nr_diff(r->m, sa->state, sb->state) +
                          r->wa * (sa->tid != sb->tid));
        u_json_end(j);
    }
    u_json_end(j);
}

int nr_json_write(FILE *f, const void *arg)
{
    const nr_report *r = arg;
    const nr_deltas *d = r->d;
    u_json j;
    u_json_init(&j, f, 2);
    u_json_obj(&j);
    u_json_key(&j, "model");
    u_json_str(&j, r->c->model);
    u_json_key(&j, "trail"); /* null: stock pan's, made by pancause nearest, not kept */
    if (r->o->trail_not_kept)
        u_json_null(&j);
    else
        u_json_str(&j, r->o->trail);
    u_json_key(&j, "exact");
    u_json_bool(&j, nr_exact(r));
    u_json_key(&j, "lower_bound");
    u_json_int(&j, r->f->lower);
    u_json_key(&j, "stopped_by");
    if (!r->f->stop)
        u_json_null(&j);
    else
        u_json_str(&j, r->f->stop == NR_STOP_MEMORY ? "memory" : "budget");
    u_json_key(&j, "alignment_minimal");
    u_json_bool(&j, !r->f->own_alignment);
    u_json_key(&j, "run_to_end");
    u_json_bool(&j, r->o->run_to_end);
    u_json_key(&j, "assume");
    u_json_arr(&j);
    for (int k = 0; k < r->o->nassume; k++)
        u_json_str(&j, r->o->assume[k]);
    u_json_end(&j);
    u_json_key(&j, "assume_broken_by_a");
    step_or_null(&j, (long)r->assume_broken - 1);
    u_json_key(&j, "cut_short");
    u_json_bool(&j, nr_cut_short(r));
    u_json_key(&j, "incomplete");
    u_json_arr(&j);
    for (size_t k = 0; k < r->c->nwhy; k++)
        u_json_str(&j, r->c->why[k]);
    u_json_end(&j);
    u_json_key(&j, "weights");
    u_json_obj(&j);
    u_json_key(&j, "wp");
    u_json_int(&j, r->wp);
    u_json_key(&j, "wa");
    u_json_int(&j, r->wa);
    u_json_key(&j, "wc");
    u_json_int(&j, r->wc);
    u_json_end(&j);
    u_json_key(&j, "distance");
    u_json_int(&j, r->f->distance);
    u_json_key(&j, "counts");
    u_json_obj(&j);
    u_json_key(&j, "dp");
    u_json_uint(&j, d->dp);
    u_json_key(&j, "da");
    u_json_uint(&j, d->da);
    u_json_key(&j, "dc");
    u_json_uint(&j, d->dc_a + d->dc_b);
    u_json_key(&j, "deleted");
    u_json_uint(&j, d->dc_a);
    u_json_key(&j, "inserted");
    u_json_uint(&j, d->dc_b);
    u_json_end(&j);
    u_json_key(&j, "a");
    run(&j, r, r->a, r->a_end);
    u_json_key(&j, "b");
    run(&j, r, &r->f->b, nr_b_end(r));
    u_json_key(&j, "alignment");
    alignment(&j, r);
    u_json_key(&j, "deltas");
    u_json_arr(&j);
    for (size_t k = 0; k < d->n; k++)
        delta(&j, r, &d->d[k]);
    u_json_end(&j);
    u_json_key(&j, "slice");
    u_json_arr(&j);
    for (size_t k = 0; k < d->n; k++)
        if (d->d[k].in_slice)
            u_json_uint(&j, k);
    u_json_end(&j);
    u_json_key(&j, "slice_via");
    u_json_uint(&j, d->nvia);
    u_json_key(&j, "slice_lines");
    u_json_arr(&j);
    for (size_t k = 0; k < d->nlines; k++)
        u_json_int(&j, d->lines[k]);
    u_json_end(&j);
    u_json_key(&j, "good_trail");
    u_json_str(&j, r->o->good_trail);
    u_json_key(&j, "good_trail_text");
    u_json_str(&j, r->trail_text);
    u_json_key(&j, "stats");
    u_json_obj(&j);
    u_json_key(&j, "states");
    u_json_num(&j, "%.0f", r->c->states);
    u_json_key(&j, "transitions");
    u_json_num(&j, "%.0f", r->c->transitions);
    u_json_key(&j, "search_nodes");
    u_json_uint(&j, r->f->nodes);
    u_json_key(&j, "expanded");
    u_json_uint(&j, r->f->expanded);
    u_json_key(&j, "search_seconds");
    u_json_num(&j, "%.3f", r->search_seconds);
    u_json_key(&j, "seconds");
    u_json_num(&j, "%.3f", r->seconds);
    u_json_key(&j, "peak_mb");
    u_json_num(&j, "%.1f", r->peak_mb);
    u_json_end(&j);
    u_json_end(&j);
    fputc('\n', f);
    return ferror(f) ? -1 : 0;
}
