/* ex_nusmv: counterexamples from NuSMV/nuXmv output.
 *
 * Each "-- specification F is false" (or "-- invariant P is false", read as
 * G P) starts a counterexample; the "-> State: i.j <-" blocks that follow
 * list the variables that changed, so each state starts as a copy of the
 * previous one.  "-- Loop starts here" marks the next state as the loop
 * start.  Input blocks ("-> Input: i.j <-") are skipped: input variables
 * cannot occur in NuSMV's temporal specifications.  CTL specifications are
 * kept with a reason, so the caller can say why they are not explained.
 */
#include "explain.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    int lineno;
    char *err;
    size_t errlen;
    ex_smv_cex *v;
    size_t n;
    ex_smv_cex *cur; /* counterexample being filled, NULL when none */
    int in_input;    /* inside an Input block */
    long last_state; /* j of the last "State: i.j" */
    int pending_loop;
} ex_smv;

static int ex_smv_err(ex_smv *s, const char *fmt, ...)
{
    int n = snprintf(s->err, s->errlen, "%s:%d: ", s->name, s->lineno);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < s->errlen)
        vsnprintf(s->err + n, s->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static char *ex_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

static int ex_is_ctl(const char *f)
{
    static const char *const ops[] = {"AG", "AF", "AX", "EG", "EF", "EX", "A", "E"};
    for (const char *p = f; *p;) {
        if (!(isalpha((unsigned char)*p) || *p == '_')) {
            p++;
            continue;
        }
        const char *w = p;
        while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '$' || *p == '#')
            p++;
        size_t n = (size_t)(p - w);
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
            if (strlen(ops[i]) != n || strncmp(ops[i], w, n) != 0)
                continue;
            const char *q = p;
            while (*q == ' ')
                q++;
            if (n == 2 || *q == '[')
                return 1;
        }
    }
    return 0;
}

static void ex_smv_begin(ex_smv *s, const char *formula)
{
    s->v = realloc(s->v, (s->n + 1) * sizeof *s->v);
    if (!s->v)
        abort();
    s->cur = &s->v[s->n++];
    memset(s->cur, 0, sizeof *s->cur);
    s->cur->formula = strdup(formula);
    s->cur->line = s->lineno;
    if (ex_is_ctl(formula))
        s->cur->skip = "CTL specifications are not explained (the red dots are defined for LTL)";
    ex_trace_init(&s->cur->trace);
    s->last_state = 0;
    s->in_input = 0;
    s->pending_loop = 0;
}

/* "-- specification F  is false" / "-- invariant P  is false" */
static int ex_smv_spec(ex_smv *s, char *line)
{
    int inv = strncmp(line, "-- invariant ", 13) == 0;
    char *body = line + (inv ? 13 : 17);
    char *is = strstr(body, " is false");
    s->cur = NULL;
    if (!is) {
        if (!strstr(body, " is true"))
            return ex_smv_err(s,
                              "expected 'is true' or 'is false' at the end of the specification");
        return 0;
    }
    *is = 0;
    char *f = ex_trim(body);
    char *in = strstr(f, " IN ");
    if (in)
        *in = 0;
    f = ex_trim(f);
    if (!*f)
        return ex_smv_err(s, "empty specification");
    if (inv) {
        size_t n = strlen(f) + 8;
        char *g = malloc(n);
        if (!g)
            abort();
        snprintf(g, n, "G (%s)", f);
        ex_smv_begin(s, g);
        free(g);
    } else {
        ex_smv_begin(s, f);
    }
    return 0;
}

static int ex_smv_state(ex_smv *s, const char *line, int input)
{
    long i, j;
    if (sscanf(line, input ? "-> Input: %ld.%ld <-" : "-> State: %ld.%ld <-", &i, &j) != 2)
        return ex_smv_err(s, "malformed %s header", input ? "input" : "state");
    if (!s->cur)
        return ex_smv_err(s, "a trace state outside any false specification");
    s->in_input = input;
    if (input)
        return 0;
    if (j != s->last_state + 1)
        return ex_smv_err(s, "state %ld.%ld out of order (expected %ld.%ld)", i, j, i,
                          s->last_state + 1);
    s->last_state = j;
    if (s->pending_loop)
        s->cur->trace.loop_start = (long)s->cur->trace.nsteps;
    s->pending_loop = 0;
    ex_trace_add_step(&s->cur->trace);
    return 0;
}

static int ex_smv_assign(ex_smv *s, char *line)
{
    char *eq = strstr(line, " = ");
    if (!eq)
        return ex_smv_err(s, "expected 'name = value', found '%.60s'", line);
    *eq = 0;
    char *name = ex_trim(line), *val = ex_trim(eq + 3);
    if (!*name || !*val || strchr(name, ' '))
        return ex_smv_err(s, "expected 'name = value'");
    if (s->in_input)
        return 0;
    if (!s->cur || s->cur->trace.nsteps == 0)
        return ex_smv_err(s, "an assignment outside any trace state");
    ex_trace *t = &s->cur->trace;
    int64_t v;
    const char *end;
    if (strcmp(val, "TRUE") == 0 || strcmp(val, "FALSE") == 0)
        v = val[0] == 'T';
    else if ((val[0] == '-' && ex_expr_parse_number(val + 1, &v, &end, 1) == 0 && !*end))
        v = -v;
    else if (!(ex_expr_parse_number(val, &v, &end, 1) == 0 && !*end))
        v = ex_trace_sym(t, val);
    ex_trace_set(t, ex_trace_var(t, name), v);
    return 0;
}

static int ex_smv_line(ex_smv *s, char *raw)
{
    char *line = ex_trim(raw);
    if (!*line)
        return 0;
    if (strncmp(line, "-- specification ", 17) == 0 || strncmp(line, "-- invariant ", 13) == 0)
        return ex_smv_spec(s, line);
    if (strcmp(line, "-- Loop starts here") == 0) {
        if (!s->cur)
            return ex_smv_err(s, "a loop marker outside any trace");
        s->pending_loop = 1;
        return 0;
    }
    if (strncmp(line, "-> State:", 9) == 0)
        return ex_smv_state(s, line, 0);
    if (strncmp(line, "-> Input:", 9) == 0)
        return ex_smv_state(s, line, 1);
    if (line[0] == '-' || line[0] == '*' || strncmp(line, "Trace ", 6) == 0)
        return 0; /* comments, banners, trace descriptions */
    if (s->cur && (s->cur->trace.nsteps > 0 || s->in_input))
        return ex_smv_assign(s, line);
    return 0; /* other tool chatter between specifications */
}

int ex_nusmv_load(FILE *in, const char *name, ex_smv_cex **out, size_t *n, char *err, size_t errlen)
{
    ex_smv s = {name, 0, err, errlen, NULL, 0, NULL, 0, 0, 0};
    char *line = NULL;
    size_t cap = 0;
    int rc = 0, specs = 0;
    while (rc == 0 && getline(&line, &cap, in) > 0) {
        s.lineno++;
        specs += strstr(line, "-- specification ") || strstr(line, "-- invariant ");
        rc = ex_smv_line(&s, line);
    }
    free(line);
    for (size_t i = 0; rc == 0 && i < s.n; i++)
        if (s.v[i].trace.nsteps == 0) {
            s.lineno = s.v[i].line;
            rc = ex_smv_err(&s, "the specification is false but no counterexample follows");
        }
    if (rc == 0 && specs == 0) {
        s.lineno = 1;
        rc = ex_smv_err(&s, "no '-- specification' lines: not NuSMV/nuXmv output");
    }
    if (rc != 0) {
        ex_nusmv_free(s.v, s.n);
        s.v = NULL;
        s.n = 0;
    }
    *out = s.v;
    *n = s.n;
    return rc;
}

void ex_nusmv_free(ex_smv_cex *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(c[i].formula);
        ex_trace_free(&c[i].trace);
    }
    free(c);
}
