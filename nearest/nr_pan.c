/*
 * nr_pan.c - the nearest search at pan's exit: from the recorded graph and values to
 * the reports.
 *
 * nr_explain() derives which states are bad and settled (causality/'s own notion,
 * cc_derive_flags), follows the trail (nr_follow), fixes the weights (Wc by default
 * the largest number of variables of a state of a, plus 2), searches (nr_search),
 * computes the Δs and their slice (nr_deltas_build) and writes the text report on
 * stdout and the files asked for, each through u_write_file (whole or not at all).
 * Every failure is reported on stderr and makes the exit status 1; the files of a
 * failed run are not written.
 */
#include "nr_internal.h"
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

int nr_parse_weights(const char *v, long *wp, long *wa, long *wc)
{
    long w[3] = {0, 0, -1};
    int n = 0;
    const char *p = v;
    if (!p)
        return -1;
    for (;;) {
        if (n == 3 || *p < '0' || *p > '9')
            return -1; /* a fourth weight, an empty one, a sign, a space */
        long x = 0;
        for (; *p >= '0' && *p <= '9'; p++)
            if ((x = 10 * x + (*p - '0')) > NR_WEIGHT_MAX)
                return -1;
        w[n++] = x;
        if (!*p)
            break;
        if (*p++ != ',')
            return -1;
    }
    if (n < 2)
        return -1;
    *wp = w[0];
    *wa = w[1];
    *wc = w[2];
    return 0;
}

int nr_parse_amount(const char *v, double max, double *out)
{
    char *end = NULL;
    if (!v || !((*v >= '0' && *v <= '9') || *v == '.'))
        return -1; /* empty, a sign, a space, inf, nan */
    double x = strtod(v, &end);
    if (!end || end == v || *end || !(x >= 0) || x > max ||
        (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')))
        return -1;
    *out = x;
    return 0;
}

int nr_check_outputs(const nr_options *o, u_err *err)
{
    const char *p[] = {o->json, o->html, o->good_trail, o->graph};
    for (size_t i = 0; i < 4; i++)
        if (p[i] && u_check_output(p[i], err))
            return -1;
    if (o->html) {
        size_t n = strlen(o->html);
        if (!(n > 5 && !strcmp(o->html + n - 5, ".html")) &&
            !(n > 4 && !strcmp(o->html + n - 4, ".htm")))
            return u_errf(err, "--html %s: name it FILE.html", o->html);
    }
    return 0;
}

/* How a ends: its violation, in words. */
static char *a_end_text(const cc_graph *g, const nr_model *m, const nr_path *a, const nr_context *c)
{
    uint32_t last = a->state[a->nmoves];
    if (last != NR_NONE)
        return strdup(c->claim_type >= 0 ? "the never claim is violated (it reached its end)"
                                         : "invalid end state");
    uint32_t e = a->move[a->nmoves - 1];
    if (cc_graph_claim(g, e))
        return strdup("the never claim is violated");
    const nr_step *s = &a->step[a->n - 1];
    const char *t = nr_text(m, s->proctype, s->tid);
    return u_fmt("%s%s", strncmp(t, "assert", 6) ? "violation at " : "assertion violated: ", t);
}

/* The default Wc: the thesis' max |p(s)| + 2 over a's states, its last included. */
static long default_wc(const nr_model *m, const nr_path *a)
{
    size_t most = 0;
    for (size_t k = 0; k <= a->nmoves; k++) {
        uint32_t s = a->state[k];
        if (s != NR_NONE && nr_model_has(m, s) && nr_nvars(m, s) > most)
            most = nr_nvars(m, s);
    }
    return (long)most + 2;
}

static int put_text(FILE *f, const void *t)
{
    return fputs(t, f) < 0 ? -1 : 0;
}

/* pan's moves of b, one per move of b: on cc_graph_det's graph (a guessing never
 * claim) a claim move of b is the set's, carrying some member's t_id, and spin -t
 * replays the claim too, so cc_det_steps picks one recorded run that follows b, the
 * claim's real moves included; elsewhere each edge's own.  NULL when out of memory or
 * when no recorded run follows b (*why says which). */
static cc_step *b_steps(const nr_report *r, const char **why)
{
    const nr_path *b = &r->f->b;
    cc_step *s = NULL;
    if (cc_graph_det_members(r->g)) {
        size_t n = 0;
        int rc = cc_det_steps(r->g, cc_graph_root(r->g), b->move, b->nmoves, false, &s, &n);
        /* pan's moves all name theirs, so each of b's moves is one step */
        if (rc || n != b->nmoves) {
            free(s);
            *why = rc < 0 ? "out of memory writing b's trail"
                          : "no recorded run of pan follows b (a bug: please report it)";
            return NULL;
        }
        return s;
    }
    if (!(s = malloc((b->nmoves ? b->nmoves : 1) * sizeof *s))) {
        *why = "out of memory writing b's trail";
        return NULL;
    }
    for (size_t k = 0; k < b->nmoves; k++)
        cc_graph_step(r->g, b->move[k], &s[k].pr, &s[k].tid);
    return s;
}

char *nr_trail_text(const nr_report *r, const char **why)
{
    const nr_path *b = &r->f->b;
    size_t cap = 96 + 32 * (b->nmoves + 1), len = 0;
    cc_step *s = b_steps(r, why);
    char *t = s ? malloc(cap) : NULL;
    if (!t) {
        if (s)
            *why = "out of memory writing b's trail";
        free(s);
        return NULL;
    }
    t[0] = 0;
    if (r->c->claim_type >= 0)
        len += (size_t)sprintf(t + len, "-2:%d:-2\n", r->c->claim_type);
    if (r->c->merged)
        len += (size_t)sprintf(t + len, "-4:-4:-4\n");
    for (size_t k = 0; k < b->nmoves; k++) {
        if (r->f->lasso && k == r->f->loop_move) /* pan's mark of a cycle's start */
            len += (size_t)sprintf(t + len, "-1:-1:-1\n");
        len += (size_t)sprintf(t + len, "%zu:%d:%d\n", k + 1, s[k].pr, s[k].tid);
    }
    free(s);
    return t;
}

static int write_outputs(const nr_options *o, const nr_report *r)
{
    u_err err = {{0}};
    int rc = 0;
    if (o->good_trail && u_write_file(o->good_trail, put_text, r->trail_text, &err)) {
        fprintf(stderr, "pancause: %s\n", err.msg);
        rc = -1;
    }
    err.msg[0] = 0;
    if (o->json && u_write_file(o->json, nr_json_write, r, &err)) {
        fprintf(stderr, "pancause: %s\n", err.msg);
        rc = -1;
    }
    err.msg[0] = 0;
    if (o->html && u_write_file(o->html, nr_html_write, r, &err)) {
        fprintf(stderr, "pancause: %s\n", err.msg);
        rc = -1;
    }
    return rc;
}

static int fail(const char *msg)
{
    fprintf(stderr, "pancause: nearest: %s\n", msg);
    return 1;
}

/* The least of what may still be had: free memory (MemAvailable), room in this
 * process's cgroup (v2: memory.max - memory.current; a container's own limit, which
 * MemAvailable does not show) and in its address space (RLIMIT_AS, ulimit -v, minus
 * what it maps now); NR_MEMLIM_SHARE of that, or 0 (no limit) when nothing says. */
static size_t default_mem_cap(void)
{
    double room = u_proc_number("/proc/meminfo", "MemAvailable:") * 1024.0;
    double max = u_proc_number("/sys/fs/cgroup/memory.max", "");
    double used = u_proc_number("/sys/fs/cgroup/memory.current", "");
    if (max > used && (!room || max - used < room))
        room = max - used;
    struct rlimit rl;
    if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY) {
        double vm = u_proc_number("/proc/self/status", "VmSize:") * 1024.0;
        double as = (double)rl.rlim_cur > vm ? (double)rl.rlim_cur - vm : 1.0;
        if (!room || as < room)
            room = as;
    }
    return (size_t)(NR_MEMLIM_SHARE * room);
}

/* The states b may enter under the --assume expressions (README "--assume"): *okp[s]
 * is 0 where one of them is false (unknown does not restrict, nr_assume.c), and
 * *broken nr_report's assume_broken (0, or the first of a's states where one is
 * false, counted from 1): the thesis expects a to satisfy its assumptions, and the report
 * says when it does not.  *okp NULL without assumptions.  0, or -1 with err. */
static int assume_states(const cc_graph *g, const uint8_t *sf, const nr_model *m,
                         const nr_options *o, const nr_path *a, uint8_t **okp, size_t *broken,
                         u_err *err)
{
    *okp = NULL;
    *broken = 0;
    if (!o->nassume)
        return 0;
    size_t n = cc_graph_states(g);
    uint8_t *ok = malloc(n + 1);
    nr_assume *A[NR_MAX_ASSUME] = {0};
    int rc = ok ? 0 : u_oom(err);
    for (int k = 0; !rc && k < o->nassume; k++)
        rc = nr_assume_parse(o->assume[k], &A[k], err) || nr_assume_bind(A[k], m, err) ? -1 : 0;
    /* A state between a rendezvous' send and its receive, or inside an atomic sequence
     * its process holds, is no state of the run anything observes (SPIN's handshake and
     * sequence are one step; no never claim looks there, no run ends there): the
     * assumptions are not read there (the eighth probe's P8-9: `len(rv) == 0` of a
     * rendezvous channel failed in the handshake's middle and excluded every run that
     * communicates, d 80 "exact" where 42 is) */
    for (size_t s = 0; !rc && s < n; s++) {
        ok[s] = 1;
        for (int k = 0;
             nr_model_has(m, (uint32_t)s) && !(sf[s] & CC_SF_NOEND) && k < o->nassume && ok[s]; k++)
            ok[s] = nr_assume_holds(A[k], (uint32_t)s) != 0;
    }
    for (size_t i = 0; !rc && i <= a->n && !*broken; i++) {
        uint32_t s = i < a->n ? a->step[i].state : a->state[a->nmoves];
        if (s != NR_NONE && s < n && !ok[s])
            *broken = i + 1;
    }
    for (int k = 0; k < o->nassume; k++)
        nr_assume_free(A[k]);
    if (rc)
        free(ok);
    else
        *okp = ok;
    return rc;
}

int nr_explain(cc_graph *g, nr_model *m, const nr_options *o, const nr_context *c, FILE *out)
{
    double t0 = u_seconds();
    u_err err = {{0}};
    m->source_path = c->source ? c->source : c->model;
    if (o->graph) { /* the graph for a reader outside pan (pancause temporal) */
        if (nr_graph_write(g, m, o->graph, &err))
            return fail(err.msg);
        return 0;
    }
    uint8_t *sf = cc_derive_flags(g);
    if (!sf)
        return fail("out of memory deriving the bad and settled states");
    nr_path a;
    if (nr_follow(g, sf, m, o->trail, c, &a, &err)) {
        free(sf);
        return fail(err.msg);
    }
    uint8_t *ok;
    size_t broken;
    if (assume_states(g, sf, m, o, &a, &ok, &broken, &err)) {
        nr_path_free(&a);
        free(sf);
        return fail(err.msg);
    }
    nr_query q = {.ok = ok,
                  .g = g,
                  .sf = sf,
                  .m = m,
                  .a = &a,
                  .wp = o->wp,
                  .wa = o->wa,
                  .wc = o->wc >= 0 ? o->wc : default_wc(m, &a),
                  .base = c->base,
                  .run_to_end = o->run_to_end};
    double b = o->budget;
    if (b < 0) {
        b = NR_BUDGET_PER_STATE * (double)cc_graph_states(g);
        b = b > NR_BUDGET_MIN ? b : NR_BUDGET_MIN;
    }
    q.budget = (size_t)b;
    /* rounded up: a limit of a fraction of a byte is still a limit (0 is none) */
    q.mem_cap = o->memlim < 0 ? default_mem_cap() : (size_t)ceil(o->memlim * 1048576.0);
    nr_found f;
    int rc = 0;
    double ts = u_seconds();
    if (nr_search(&q, &f)) {
        char *why = f.stop == NR_STOP_MEMORY && f.cap_hit && !f.nodes
                        ? u_fmt("the search reached its memory limit (%s, %g MB) before it "
                                "had any run to report",
                                o->memlim >= 0 ? "--memlim" : "3/4 of the memory available",
                                o->memlim >= 0 ? o->memlim : (double)q.mem_cap / 1048576.0)
                        : NULL;
        rc = fail(why                 ? why
                  : f.stop && f.nodes ? "out of memory while completing the best run the "
                                        "search had found"
                                      : "out of memory in the search");
        free(why);
    } else if (f.lasso_too_big) {
        rc = fail("no finite successful run, and the graph times the trail is too large for "
                  "the search for an infinite one (its node keys would not fit 64 bits)");
    } else if (!f.found) {
        char *why = u_fmt("no successful run: every run of %s%s violates the property before "
                          "it reaches %s, and none runs for ever without violating%s, so "
                          "there is nothing to compare the counterexample with (the method "
                          "needs one)",
                          c->model, o->nassume ? " that keeps to its --assume" : "",
                          o->run_to_end ? "a valid end state (--run-to-end)"
                                        : "a settled state or a valid end state",
                          c->nwhy ? " (in the part of the graph the limited search "
                                    "recorded)"
                                  : "");
        rc = fail(why ? why : "no successful run");
        free(why);
    }
    double search_s = u_seconds() - ts;
    nr_deltas d = {0};
    if (!rc && nr_deltas_build(g, m, &a, &f, c, &d))
        rc = fail("out of memory computing the differences");
    if (!rc) {
        nr_report r = {.m = m,
                       .o = o,
                       .c = c,
                       .g = g,
                       .a = &a,
                       .f = &f,
                       .d = &d,
                       .wp = q.wp,
                       .wa = q.wa,
                       .wc = q.wc,
                       .assume_broken = broken,
                       .search_seconds = search_s};
        r.a_end = a_end_text(g, m, &a, c);
        const char *why = "out of memory writing the report";
        r.trail_text = nr_trail_text(&r, &why);
        r.seconds = c->seconds + (u_seconds() - t0);
        r.peak_mb = u_peak_mb();
        if (!r.a_end || !r.trail_text)
            rc = fail(r.a_end ? why : "out of memory writing the report");
        else {
            nr_text_report(out, &r);
            fflush(out);
            if (write_outputs(o, &r))
                rc = 1;
        }
        free((char *)r.a_end);
        free(r.trail_text);
    }
    nr_deltas_free(&d);
    nr_found_free(&f);
    nr_path_free(&a);
    free(sf);
    free(ok);
    return rc;
}
