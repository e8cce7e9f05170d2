/*
 * nr_marks.c - the project's other explanations of the same counterexample, beside the
 * Δs on the nearest HTML page (`pancause nearest --html F --with-explain
 * --with-causes`, nr_cli.c).
 *
 * The page is written by pan (nr_html.c), which knows nothing of the other tools; this
 * file, run by the front end after pan, adds to it:
 *   - with explain: `pancause explain`'s red dots (Beer et al.) for the trail's ltl
 *     formula, computed here by the explain module itself (ex_spin_load, ex_explain);
 *     a dot at trace position s >= 1 is the state after the s-th step of `spin -t
 *     -p` as explain counts them (ex_spin_positions: a process's termination is one,
 *     a d_step's statements are one), which is put on a's step with that step's
 *     trail number (position 0, the initial state, on a's first step);
 *   - with causes: the causes `./pan -C --json` finds (the scratch build's pan), each
 *     cause's events put on the first a step that moves out of the event's labelled
 *     location (proctype and control state, as pan -C itself decides: the page's
 *     data-loc per a step, written by pan, and `spin -d`'s label table); a cause some
 *     of whose events a does not take is listed, not marked.
 * Both go into one section before the statistics (static HTML: what applied, each
 * mark with its a step) and as JSON (`<script id="nr-marks">`) that the page's script
 * draws on a's lane (● dots, ◆ cause events) and counts into #nr-summary.  The page is
 * rewritten whole or not at all (u_write_file).  A tool that does not apply (no ltl
 * formula, no labels, nothing to explain) is said in the section, not an error.
 */
#include "explain.h"
#include "nr_internal.h"
#include "spinmodel.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    long step; /* a's step, 1-based */
    int kind;  /* 0 explain dot, 1 cause event */
    char *label;
} mark;

typedef struct {
    mark *m;
    size_t n, cap;
    char *section; /* the static HTML */
    size_t slen, scap;
    bool oom;
} marks;

static void add(marks *k, long step, int kind, char *label)
{
    if (!label || U_GROW(k->m, k->cap, k->n)) {
        free(label);
        k->oom = true;
        return;
    }
    k->m[k->n++] = (mark){step, kind, label};
}

/* Appends escaped (esc) or raw text to the section. */
static void put(marks *k, const char *s, bool esc)
{
    for (; s && *s && !k->oom; s++) {
        const char *r = !esc        ? NULL
                        : *s == '<' ? "&lt;"
                        : *s == '>' ? "&gt;"
                        : *s == '&' ? "&amp;"
                        : *s == '"' ? "&quot;"
                                    : NULL;
        size_t n = r ? strlen(r) : 1;
        while (k->slen + n + 1 > k->scap) {
            size_t c = k->scap ? 2 * k->scap : 1024;
            char *p = realloc(k->section, c);
            if (!p) {
                k->oom = true;
                return;
            }
            k->section = p;
            k->scap = c;
        }
        memcpy(k->section + k->slen, r ? r : s, n);
        k->slen += n;
        k->section[k->slen] = 0;
    }
}

static void putf(marks *k, bool esc, char *fresh)
{
    if (!fresh)
        k->oom = true;
    put(k, fresh, esc);
    free(fresh);
}

/* ---- a's steps: trail numbers, explain's positions, locations ---- */

typedef struct {
    char *proc; /* the proctype's name */
    int pid, pc;
} loc;

typedef struct {
    long *num; /* per a step: its trail number (the trail's first column) */
    size_t n;
    long *pos; /* per position p >= 1 of explain's trace: the step number spin printed */
    size_t npos;
    loc *at; /* per a step: where its process was (the page's data-loc; proc NULL: none) */
} steps;

static void steps_free(steps *s)
{
    for (size_t k = 0; s->at && k < s->n; k++)
        free(s->at[k].proc);
    free(s->at);
    free(s->num);
    free(s->pos);
}

/* a's steps from the trail: every move but the never claim's (process slot 0 after
 * a -2 header line); pancause's a is the trail's run, step for step. */
static int trail_steps(const char *trail, steps *s, u_err *err)
{
    char *t = u_read_file(trail, NULL, err);
    if (!t)
        return -1;
    bool claim = false;
    size_t cap = 0;
    int rc = 0;
    for (char *l = t; *l && !rc;) {
        long x, y, z;
        if (sscanf(l, "%ld:%ld:%ld", &x, &y, &z) == 3) {
            if (x == -2)
                claim = true;
            else if (x >= 0 && !(claim && y == 0)) {
                if (U_GROW(s->num, cap, s->n))
                    rc = u_oom(err);
                else
                    s->num[s->n++] = x;
            }
        }
        l += strcspn(l, "\n");
        l += *l == '\n';
    }
    free(t);
    return rc;
}

/* explain's trace positions in `spin -t -p` (the step lines, as explain counts them:
 * ex_spin_positions): the step number of each.  A process's end ("  4: proc 1
 * terminates", pan's -end- move) is a position and a step of a; counting only the
 * lines that name a statement put every later dot past a's end (third probe H5). */
static int replay_positions(const char *w, const char *model, const char *trail, steps *s,
                            u_err *err)
{
    char *log = u_fmt("%s/marks-replay.log", w);
    if (!log)
        return u_oom(err);
    char *sp = u_spin();
    /* -s: its "Sent" lines tell a rendezvous, which explain counts as one position
     * with its receive (ex_spin_positions) */
    char *argv[] = {sp,   "-t", "-p", "-s",          "-g",          "-l",
                    "-w", "-b", "-k", (char *)trail, (char *)model, NULL};
    int rc = sp ? u_run(w, argv, log) : -1;
    free(sp);
    char *t = rc ? NULL : u_read_file(log, NULL, err);
    free(log);
    if (!t)
        return rc ? u_errf(err, "spin -t could not replay %s", trail) : -1;
    rc = ex_spin_positions(t, &s->pos, &s->npos) ? u_oom(err) : 0;
    free(t);
    return rc;
}

/* Each a step's location from the page pan wrote: its a cells carry data-step="k"
 * data-loc="PROC PID PC" (nr_html.c).  A step without one has none (proc NULL). */
static int page_locations(const char *text, steps *s, u_err *err)
{
    if (!(s->at = calloc(s->n ? s->n : 1, sizeof *s->at)))
        return u_oom(err);
    static const char key[] = " data-step=\"";
    for (const char *p = text; (p = strstr(p, key));) {
        p += sizeof key - 1;
        char *end;
        long k = strtol(p, &end, 10);
        const char *l = !strncmp(end, "\" data-loc=\"", 12) ? end + 12 : NULL;
        size_t len = l ? strcspn(l, " \"") : 0;
        int pid, pc;
        if (!l || k < 1 || (size_t)k > s->n || s->at[k - 1].proc || l[len] != ' ' ||
            sscanf(l + len, " %d %d", &pid, &pc) != 2)
            continue;
        if (!(s->at[k - 1].proc = strndup(l, len)))
            return u_oom(err);
        s->at[k - 1].pid = pid;
        s->at[k - 1].pc = pc;
    }
    return 0;
}

/* a's step (1-based) with trail number num, or 0. */
static long a_step(const steps *s, long num)
{
    for (size_t k = 0; k < s->n; k++)
        if (s->num[k] == num)
            return (long)k + 1;
    return 0;
}

/* ---- pancause explain ---- */

static void explain_marks(marks *k, const char *model, const char *trail, const steps *s)
{
    put(k, "<h3>pancause explain: red dots</h3>\n<p>", false);
    ex_trace t;
    ex_trace_init(&t);
    char err[1024] = "", *formula = NULL;
    char *spin = u_spin();
    if (!spin) {
        k->oom = true;
        ex_trace_free(&t);
        return;
    }
    int lrc = ex_spin_load(spin, model, trail, NULL, &t, &formula, err, sizeof err);
    free(spin);
    if (lrc) {
        put(k, "Not applicable: ", false);
        put(k, err, true);
        put(k, " (explain needs a trail of an <code>ltl</code> claim).</p>\n", false);
        ex_trace_free(&t);
        return;
    }
    ex_options o;
    ex_options_default(&o);
    ex_explanation e;
    if (ex_explain(&t, formula, EX_DIALECT_SPIN, &o, &e, err, sizeof err)) {
        put(k, "Not applicable: ", false);
        put(k, err, true);
        put(k, ".</p>\n", false);
    } else {
        put(k, "Formula <code>", false);
        put(k, formula, true);
        if (e.result != EX_RESULT_FAILS && e.result != EX_RESULT_INF)
            put(k, "</code>: nothing to explain on this trace.</p>\n", false);
        else {
            putf(k, false,
                 u_fmt("</code>: %zu dot%s (the values that cause its first failure), "
                       "&#9679; on a's lane at the step after which the value holds:",
                       e.ndots, e.ndots == 1 ? "" : "s"));
            for (size_t d = 0; d < e.ndots && !k->oom; d++) {
                size_t pos = e.dots[d].step;
                long st = pos == 0 ? 1 : pos <= s->npos ? a_step(s, s->pos[pos - 1]) : 0;
                const char *v = t.vars[e.dots[d].var].name;
                putf(k, true,
                     st ? u_fmt(" %s at step %ld%s;", v, st, pos ? "" : " (initial state)")
                        : u_fmt(" %s at trace position %zu (no step of a);", v, pos));
                if (st)
                    add(k, st, 0, u_fmt("%s", v));
            }
            put(k, "</p>\n", false);
        }
        ex_explanation_free(&e);
    }
    free(formula);
    ex_trace_free(&t);
}

/* ---- ./pan -C's causes ---- */

/* A tiny reader for what the project's own JSON writer emits: strings without
 * surprises; c points into the text. */
static const char *ws(const char *c)
{
    while (*c && isspace((unsigned char)*c))
        c++;
    return c;
}

/* A JSON string at c: fresh, unescaped (\" and \\ only; the names here have no
 * others); *c moves past it.  NULL when c is no string. */
static char *jstr(const char **c)
{
    const char *p = ws(*c);
    if (*p != '"')
        return NULL;
    size_t n = 0;
    char *o = malloc(strlen(p) + 1);
    if (!o)
        return NULL;
    for (p++; *p && *p != '"'; p++)
        o[n++] = *p == '\\' && p[1] ? *++p : *p;
    o[n] = 0;
    *c = *p ? p + 1 : p;
    return o;
}

/* Skips one JSON value at c. */
static const char *skip(const char *c)
{
    c = ws(c);
    if (*c == '"') {
        free(jstr(&c));
        return c;
    }
    if (*c == '{' || *c == '[') {
        int depth = 0;
        do {
            if (*c == '"') {
                free(jstr(&c));
                continue;
            }
            depth += (*c == '{' || *c == '[') - (*c == '}' || *c == ']');
            c++;
        } while (*c && depth);
        return c;
    }
    while (*c && *c != ',' && *c != '}' && *c != ']')
        c++;
    return c;
}

/* Whether a's step at location l is event ev of pan -C: pan makes a move an event
 * when its source (proctype, control state) carries a user label (spin-model/
 * sm_hooks.c), the first in `spin -d`'s table when several do, and names it L, P.L or
 * P[pid].L (P the proctype).  So a label on an `if` or `do` is taken by every option's
 * move out of it, which SPIN prints on the option's own line (third probe H2: matching
 * by source line missed them all). */
static bool takes(const sm_label *lab, int nlab, const loc *l, const char *ev)
{
    if (!l->proc)
        return false;
    for (int i = 0; i < nlab; i++) {
        if (lab[i].state != l->pc || strcmp(lab[i].proc, l->proc))
            continue;
        const char *name = lab[i].label, *r = ev, *proc = sm_event_proc(l->proc);
        size_t pl = strlen(proc);
        if (!strcmp(ev, name))
            return true;
        if (strncmp(ev, proc, pl))
            return false;
        r += pl;
        if (*r == '[') {
            char *e;
            long pid = strtol(r + 1, &e, 10);
            if (e == r + 1 || *e != ']' || pid != l->pid)
                return false;
            r = e + 1;
        }
        return *r == '.' && !strcmp(r + 1, name);
    }
    return false;
}

static void causes_marks(marks *k, const char *w, const char *model, char *const *pan, int npan,
                         const steps *s)
{
    put(k, "<h3>./pan -C: causes</h3>\n", false);
    char *json = u_fmt("%s/marks-causes.json", w), *log = u_fmt("%s/marks-causes.log", w);
    char **argv = calloc((size_t)npan + 6, sizeof *argv);
    u_err err = {{0}};
    char *text = NULL, *sym = NULL, *symlog = u_fmt("%s/marks-labels.log", w);
    sm_label *lab = NULL;
    int nlab = 0;
    if (!json || !log || !argv || !symlog) {
        k->oom = true;
        goto done;
    }
    int n = 0;
    argv[n++] = "./pan";
    argv[n++] = "-C";
    argv[n++] = "--json";
    argv[n++] = json;
    for (int i = 0; i < npan; i++)
        argv[n++] = pan[i];
    u_run(w, argv, log);
    if (!(text = u_read_file(json, NULL, &err))) {
        /* pan's own reason, when it gave one ("pancause: M has no events. ...") */
        u_err ignore = {{0}};
        char *out = u_read_file(log, NULL, &ignore), *why = out ? strstr(out, "pancause: ") : NULL;
        if (why)
            why[strcspn(why, "\n")] = 0;
        put(k, "<p>Not available: <code>./pan -C --json</code> wrote nothing: ", false);
        put(k, why ? why + 10 : err.msg, true);
        put(k, "</p>\n", false);
        free(out);
        goto done;
    }
    /* the labels' states, from SPIN's symbol table, as `make pan` gave them to pan */
    char *sp = u_spin();
    char *dargv[] = {sp, "-d", (char *)model, NULL};
    int drc = sp ? u_run(w, dargv, symlog) : -1;
    free(sp);
    if (drc || !(sym = u_read_file(symlog, NULL, &err))) {
        put(k, "<p>Not available: <code>spin -d</code> gave no symbol table.</p>\n", false);
        goto done;
    }
    if ((nlab = sm_labels_parse(sym, &lab)) < 0) {
        nlab = 0;
        k->oom = true;
        goto done;
    }
    /* the top-level "causes": [{..., "eol": ..., "occurrences": [...], ...}, ...] */
    const char *c = strstr(text, "\"causes\"");
    c = c ? ws(c + 8) : NULL;
    if (!c || *c != ':' || *(c = ws(c + 1)) != '[') {
        put(k, "<p>Not available: no causes in pan's JSON.</p>\n", false);
        goto done;
    }
    c++;
    int nc = 0;
    put(k, "<ol class=\"causes\">\n", false);
    while (*(c = ws(c)) == '{' && !k->oom) {
        const char *obj = c + 1, *end = skip(c);
        char *eol = NULL;
        char *ev[64];
        int nev = 0;
        for (const char *p = obj; (p = ws(p)) < end && *p == '"';) {
            char *key = jstr(&p);
            p = ws(p);
            p += *p == ':';
            p = ws(p);
            if (key && !strcmp(key, "eol") && !eol)
                eol = jstr(&p);
            else if (key && !strcmp(key, "occurrences") && *p == '[') {
                p++;
                while (*(p = ws(p)) == '"') {
                    char *e = jstr(&p);
                    if (e && nev < 64)
                        ev[nev++] = e;
                    else
                        free(e);
                    p = ws(p);
                    p += *p == ',';
                }
                p += *p == ']';
            } else
                p = skip(p);
            free(key);
            p = ws(p);
            p += *p == ',';
        }
        nc++;
        put(k, "<li><code>", false);
        put(k, eol ? eol : "?", true);
        put(k, "</code>: ", false);
        /* where a takes each event: its first step out of the labelled location */
        long at[64];
        int found = 0;
        for (int e = 0; e < nev; e++) {
            at[e] = 0;
            for (size_t j = 0; j < s->n && !at[e]; j++)
                if (takes(lab, nlab, &s->at[j], ev[e]))
                    at[e] = (long)j + 1;
            found += at[e] != 0;
        }
        if (nev && found == nev) {
            put(k, "a takes its events at steps", false);
            for (int e = 0; e < nev; e++) {
                putf(k, true, u_fmt(" %ld (%s)", at[e], ev[e]));
                add(k, at[e], 1, u_fmt("%d:%s", nc, ev[e]));
            }
            put(k, " (&#9670; on a's lane)", false);
        } else
            put(k, "not a cause of this counterexample (a does not take all of its events)", false);
        put(k, "</li>\n", false);
        for (int e = 0; e < nev; e++)
            free(ev[e]);
        free(eol);
        c = ws(end);
        c += *c == ',';
    }
    put(k, "</ol>\n", false);
    if (!nc)
        put(k,
            "<p>pan -C found no cause (does the model label its statements? README "
            "\"Labelling events\").</p>\n",
            false);
done:
    sm_labels_free(lab, nlab);
    free(text);
    free(sym);
    free(symlog);
    free(argv);
    free(json);
    free(log);
}

/* ---- the page ---- */

typedef struct {
    const char *head, *tail;
    size_t nhead;
    const marks *k;
} page;

static int put_page(FILE *f, const void *arg)
{
    const page *p = arg;
    fwrite(p->head, 1, p->nhead, f);
    fputs(p->k->section, f);
    fputs("<script type=\"application/json\" id=\"nr-marks\">", f);
    u_json j;
    u_json_init(&j, f, 0);
    u_json_arr(&j);
    for (size_t i = 0; i < p->k->n; i++) {
        u_json_obj(&j);
        u_json_key(&j, "step");
        u_json_int(&j, p->k->m[i].step);
        u_json_key(&j, "kind");
        u_json_str(&j, p->k->m[i].kind ? "cause" : "dot");
        u_json_key(&j, "label");
        u_json_str(&j, p->k->m[i].label);
        u_json_end(&j);
    }
    u_json_end(&j);
    fputs("</script>\n", f);
    fputs(p->tail, f);
    return ferror(f) ? -1 : 0;
}

int nr_marks_add(const char *html, const char *w, const char *model, const char *trail,
                 bool explain, bool causes, char *const *pan, int npan, u_err *err)
{
    steps s = {0};
    marks k = {0};
    char *text = NULL;
    int rc = -1;
    if (!(text = u_read_file(html, NULL, err)) || trail_steps(trail, &s, err) ||
        replay_positions(w, model, trail, &s, err) || page_locations(text, &s, err))
        goto done;
    put(&k, "<h2>Other explanations of this counterexample</h2>\n", false);
    if (explain)
        explain_marks(&k, model, trail, &s);
    if (causes)
        causes_marks(&k, w, model, pan, npan, &s);
    for (size_t i = 0; i < k.n; i++) /* names in a script element: no "<" */
        for (char *c = k.m[i].label; *c; c++)
            if (*c == '<')
                *c = '?';
    if (k.oom) {
        rc = u_oom(err);
        goto done;
    }
    const char *at = strstr(text, "<h2>Statistics</h2>");
    if (!at) {
        rc = u_errf(err, "%s: not a nearest page", html);
        goto done;
    }
    page p = {text, at, (size_t)(at - text), &k};
    rc = u_write_file(html, put_page, &p, err);
    size_t dots = 0;
    for (size_t i = 0; i < k.n; i++)
        dots += k.m[i].kind == 0;
    if (!rc)
        printf("pancause nearest: %s: %zu explain dot%s and %zu cause event%s marked on a\n", html,
               dots, dots == 1 ? "" : "s", k.n - dots, k.n - dots == 1 ? "" : "s");
done:
    for (size_t i = 0; i < k.n; i++)
        free(k.m[i].label);
    free(k.m);
    free(k.section);
    free(text);
    steps_free(&s);
    return rc;
}
