/*
 * nr_marks.c - the project's other explanations of the same counterexample, beside the
 * Δs on the nearest HTML page (`pancause nearest --html F --with-explain
 * --with-causes`, nr_cli.c).
 *
 * The page is written by pan (nr_html.c), which knows nothing of the other tools; this
 * file, run by the front end after pan, adds to it:
 *   - with explain: `pancause explain`'s red dots (Beer et al.) for the trail's ltl
 *     formula, computed here by the explain module itself (ex_spin_load, ex_explain);
 *     a dot at trace position s >= 1 is the state after the s-th step line of
 *     `spin -t -p`, which is put on a's step with that step line's trail number
 *     (position 0, the initial state, on a's first step);
 *   - with causes: the causes `./pan -C --json` finds (the scratch build's pan), each
 *     cause's events put on a's steps whose source line carries the event's label;
 *     a cause some of whose events a does not take is listed, not marked.
 * Both go into one section before the statistics (static HTML: what applied, each
 * mark with its a step) and as JSON (`<script id="nr-marks">`) that the page's script
 * draws on a's lane (● dots, ◆ cause events) and counts into #nr-summary.  The page is
 * rewritten whole or not at all (u_write_file).  A tool that does not apply (no ltl
 * formula, no labels, nothing to explain) is said in the section, not an error.
 */
#include "explain.h"
#include "nr_internal.h"

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

/* ---- a's steps: trail numbers and source lines ---- */

typedef struct {
    long *num; /* per a step: its trail number (the trail's first column) */
    size_t n;
    long *sline; /* per spin step line: its trail number */
    int *line;   /* and its source line */
    size_t ns;
} steps;

static void steps_free(steps *s)
{
    free(s->num);
    free(s->sline);
    free(s->line);
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

/* The step lines of `spin -t -p` ("  12:\tproc  1 (P:1) model.pml:31 (state 4)\t[...]"),
 * as explain reads them (ex_spin.c): their trail numbers and source lines. */
static int replay_steps(const char *w, const char *model, const char *trail, steps *s, u_err *err)
{
    char *log = u_fmt("%s/marks-replay.log", w);
    if (!log)
        return u_oom(err);
    char *argv[] = {"spin", "-t", "-p",          "-g",          "-l", "-w",
                    "-b",   "-k", (char *)trail, (char *)model, NULL};
    int rc = u_run(w, argv, log);
    char *t = rc ? NULL : u_read_file(log, NULL, err);
    free(log);
    if (!t)
        return rc ? u_errf(err, "spin -t could not replay %s", trail) : -1;
    size_t cap = 0;
    for (char *l = t; *l && !rc;) {
        char *p = l;
        while (*p == ' ')
            p++;
        char *end;
        long num = strtol(p, &end, 10);
        if (end > p && *end == ':') {
            p = end + 1;
            while (*p == ' ' || *p == '\t')
                p++;
            char *close = !strncmp(p, "proc ", 5) ? strchr(p, ')') : NULL;
            char *nl = l + strcspn(l, "\n");
            if (close && close < nl) {
                /* the token after the process: file:line */
                char *tok = close + 1 + strspn(close + 1, " \t");
                char *tend = tok + strcspn(tok, " \t\n");
                char *colon = tok;
                for (char *c = tok; c < tend; c++)
                    if (*c == ':')
                        colon = c;
                size_t c2 = cap;
                int *ln = NULL;
                if (U_GROW(s->sline, c2, s->ns) ||
                    (c2 != cap && !(ln = realloc(s->line, c2 * sizeof *s->line)))) {
                    rc = u_oom(err);
                    break;
                }
                if (ln)
                    s->line = ln;
                cap = c2;
                s->sline[s->ns] = num;
                s->line[s->ns++] = colon > tok ? atoi(colon + 1) : 0;
            }
        }
        l += strcspn(l, "\n");
        l += *l == '\n';
    }
    free(t);
    return rc;
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
    const char *spin = getenv("SPIN") && *getenv("SPIN") ? getenv("SPIN") : "spin";
    if (ex_spin_load(spin, model, trail, NULL, &t, &formula, err, sizeof err)) {
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
                long st = pos == 0 ? 1 : pos <= s->ns ? a_step(s, s->sline[pos - 1]) : 0;
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

/* Whether source line `line` of text defines label name (`name:`, not `name::`). */
static bool labelled(const char *text, const char *name, int line)
{
    size_t len = strlen(name);
    int ln = 1;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            ln++;
            continue;
        }
        if (ln != line || strncmp(p, name, len) ||
            (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
            continue;
        const char *q = ws(p + len);
        if (*q == ':' && q[1] != ':')
            return true;
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
    char *text = NULL, *src = NULL;
    if (!json || !log || !argv) {
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
    if (!(text = u_read_file(json, NULL, &err)) || !(src = u_read_file(model, NULL, &err))) {
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
        /* where a takes each event: its steps on a labelled line */
        long at[64];
        int found = 0;
        for (int e = 0; e < nev; e++) {
            at[e] = 0;
            for (size_t j = 0; j < s->n && !at[e]; j++)
                for (size_t l = 0; l < s->ns; l++)
                    if (s->sline[l] == s->num[j] && labelled(src, ev[e], s->line[l])) {
                        at[e] = (long)j + 1;
                        break;
                    }
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
    free(text);
    free(src);
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
    if (trail_steps(trail, &s, err) || replay_steps(w, model, trail, &s, err))
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
    if (!(text = u_read_file(html, NULL, err)))
        goto done;
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
