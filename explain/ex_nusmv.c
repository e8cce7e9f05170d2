/* ex_nusmv: counterexamples from NuSMV/nuXmv output.
 *
 * Each "-- specification F is false" (or "-- invariant P is false", read as
 * G P) starts a counterexample; the "-> State: i.j <-" blocks that follow
 * list the variables that changed, so each state starts as a copy of the
 * previous one.  "-- Loop starts here" marks the next state as the loop
 * start.  Input blocks ("-> Input: i.j <-") are skipped: input variables
 * cannot occur in NuSMV's temporal specifications.  CTL specifications are
 * kept with a reason, so the caller can say why they are not explained.
 *
 * The file may be hand-edited, cut off or not NuSMV's at all, so nothing is
 * guessed: every line is a known kind or an error naming FILE:LINE, a value
 * must be TRUE, FALSE, an integer, a word constant or a symbolic constant,
 * and a variable keeps one type (a boolean that later reads `FAL` is a value
 * cut off, not a new enum symbol).  Reading is one pass, one hash lookup per
 * value (ex_trace), and out of memory is a message like any other error.
 */
#include "explain.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The types of values a variable has shown, as bits: a variable keeps one
 * type, except that integers mix with symbols (NuSMV's enumerations of both)
 * and with words (both are numbers to the formula). */
enum { K_BOOL = 1, K_INT = 2, K_WORD = 4, K_SYM = 8 };

typedef struct {
    int kinds;
    long line; /* where the first value was seen */
} vtype;

typedef struct {
    const char *name;
    long lineno;
    char *err;
    size_t errlen;
    ex_smv_cex *v;
    size_t n, cap;
    ex_smv_cex *cur;   /* counterexample being filled, NULL when none */
    int in_input;      /* inside an Input block */
    long last_state;   /* j of the last "State: i.j" */
    long pending_loop; /* line of a loop marker not yet followed by a state, or 0 */
    vtype *types;      /* per variable of cur's trace */
    size_t ntypes, captypes;
} ex_smv;

static int fail(ex_smv *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ex_smv *s, const char *fmt, ...)
{
    int n = snprintf(s->err, s->errlen, "%s:%ld: ", s->name, s->lineno);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < s->errlen)
        vsnprintf(s->err + n, s->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int oom(ex_smv *s)
{
    return fail(s, "out of memory");
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

static int is_ctl(const char *f)
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

/* The end of a counterexample (another specification, or the end of the
 * file): a loop marker must have had its state. */
static int finish(ex_smv *s)
{
    if (s->cur && s->pending_loop) {
        s->lineno = s->pending_loop;
        return fail(s, "'-- Loop starts here' with no state after it (the trace is cut off?)");
    }
    s->pending_loop = 0;
    return 0;
}

static int begin(ex_smv *s, const char *formula)
{
    if (U_GROW(s->v, s->cap, s->n))
        return oom(s);
    ex_smv_cex *c = &s->v[s->n];
    memset(c, 0, sizeof *c);
    ex_trace_init(&c->trace);
    if (!(c->formula = strdup(formula)))
        return oom(s);
    s->n++;
    s->cur = c;
    c->line = s->lineno > INT32_MAX ? INT32_MAX : (int)s->lineno;
    if (is_ctl(formula))
        c->skip = "CTL specifications are not explained (the red dots are defined for LTL)";
    s->last_state = 0;
    s->in_input = 0;
    s->pending_loop = 0;
    s->ntypes = 0;
    return 0;
}

/* "-- specification F  is false" / "-- invariant P  is false" */
static int spec(ex_smv *s, char *line)
{
    if (finish(s))
        return -1;
    int inv = strncmp(line, "-- invariant ", 13) == 0;
    char *body = line + (inv ? 13 : 17);
    char *is = strstr(body, " is false");
    int holds = 0;
    s->cur = NULL;
    if (!is) {
        if (!(is = strstr(body, " is true")))
            return fail(s, "expected 'is true' or 'is false' at the end of the specification");
        holds = 1; /* kept, so that every specification gets its record */
    }
    *is = 0;
    char *f = trim(body);
    char *in = strstr(f, " IN ");
    if (in)
        *in = 0;
    f = trim(f);
    if (!*f)
        return fail(s, "empty specification");
    char *g = inv ? u_fmt("G (%s)", f) : f;
    int rc = g ? begin(s, g) : oom(s);
    if (inv)
        free(g);
    if (rc == 0 && holds) {
        s->cur->holds = 1;
        s->cur = NULL; /* no trace follows a true specification */
    }
    return rc;
}

/* "-> State: i.j <-": i and j decimal, nothing else on the line. */
static int header(ex_smv *s, const char *line, int input)
{
    const char *p = line + 9; /* past "-> State:" or "-> Input:" */
    char *end;
    while (*p == ' ')
        p++;
    errno = 0;
    long i = isdigit((unsigned char)*p) ? strtol(p, &end, 10) : -1;
    long j =
        i >= 0 && *end == '.' && isdigit((unsigned char)end[1]) ? strtol(end + 1, &end, 10) : -1;
    if (j < 0 || errno || strcmp(end, " <-") != 0)
        return fail(s, "malformed %s header", input ? "input" : "state");
    if (!s->cur)
        return fail(s, "a trace state outside any false specification");
    s->in_input = input;
    if (input)
        return 0;
    if (j != s->last_state + 1)
        return fail(s, "state %ld.%ld out of order (expected %ld.%ld)", i, j, i, s->last_state + 1);
    s->last_state = j;
    if (s->pending_loop)
        s->cur->trace.loop_start = (long)s->cur->trace.nsteps;
    s->pending_loop = 0;
    return ex_trace_add_step(&s->cur->trace) ? oom(s) : 0;
}

/* Whether d is nothing but digits of base b (and a word's underscores). */
static int well_formed(const char *d, int base)
{
    for (; *d; d++)
        if (*d != '_' &&
            !(isxdigit((unsigned char)*d) && (isdigit((unsigned char)*d) ? *d - '0' : 10) < base))
            return 0;
    return 1;
}

static int symbol_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '#' || c == '-' || c == '.' || c == '[' ||
           c == ']';
}

/* The value text as a number or symbol code, and its type; -1 when it is no
 * value (the message is set). */
static int value(ex_smv *s, const char *val, int64_t *v, int *k)
{
    if (strcmp(val, "TRUE") == 0 || strcmp(val, "FALSE") == 0) {
        *v = val[0] == 'T';
        *k = K_BOOL;
        return 0;
    }
    const char *d = val + (val[0] == '-');
    if (isdigit((unsigned char)*d)) {
        const char *end;
        int word = d[0] == '0' && d[1] && strchr("usbBoOdDhH", d[1]);
        int base = 10;
        const char *digits = d;
        if (word && strchr(d, '_')) {
            const char *b = d + 1 + (d[1] == 'u' || d[1] == 's');
            base = strchr("bB", *b) ? 2 : strchr("oO", *b) ? 8 : strchr("dD", *b) ? 10 : 16;
            digits = strchr(d, '_') + 1;
            digits += *digits == '-';
        }
        /* Symbols are coded from EX_SYM_BASE up: a larger number would read as one.  A
         * number beyond 63 bits fails to parse (it is not wrapped): too large too. */
        int parsed = ex_expr_parse_number(d, v, &end, 1) == 0 && !*end;
        int huge = !parsed && *digits && well_formed(digits, base);
        if (!parsed && !huge)
            return fail(s, "'%s' is not a number", val);
        if (huge || *v >= EX_SYM_BASE || *v <= -EX_SYM_BASE)
            return fail(s, "%s is too large (values must lie strictly between -2^52 and 2^52)",
                        val);
        if (d != val)
            *v = -*v;
        *k = word ? K_WORD : K_INT;
        return 0;
    }
    int ok = isalpha((unsigned char)val[0]) || val[0] == '_';
    for (const char *p = val; ok && *p; p++)
        ok = symbol_char((unsigned char)*p);
    if (!ok)
        return fail(s,
                    "'%s' is not a value (TRUE, FALSE, an integer, a word constant such as "
                    "0ud8_5, or a symbolic constant)",
                    val);
    *v = ex_trace_sym(&s->cur->trace, val);
    if (*v < 0)
        return oom(s);
    *k = K_SYM;
    return 0;
}

static const char *kind_name(int k)
{
    return k & K_BOOL   ? "a boolean"
           : k & K_SYM  ? "a symbolic"
           : k & K_WORD ? "a word"
                        : "an integer";
}

static int check_type(ex_smv *s, int var, const char *name, const char *val, int k)
{
    while (s->ntypes <= (size_t)var) {
        if (U_GROW(s->types, s->captypes, s->ntypes))
            return oom(s);
        s->types[s->ntypes++] = (vtype){0, 0};
    }
    vtype *t = &s->types[var];
    int was = t->kinds, all = was | k;
    if (!was)
        t->line = s->lineno;
    t->kinds = all;
    if (!was || !((all & K_BOOL && all != K_BOOL) || (all & K_WORD && all & K_SYM)))
        return 0;
    return fail(s, "%s = %s is %s value, but %s was %s value on line %ld (a value cut off?)", name,
                val, kind_name(k), name, kind_name(was), t->line);
}

static int assign(ex_smv *s, char *line)
{
    char *eq = strstr(line, " = ");
    if (!eq)
        return fail(s, "expected 'name = value', found '%.60s'", line);
    *eq = 0;
    char *name = trim(line), *val = trim(eq + 3);
    if (!*name || !*val || strchr(name, ' '))
        return fail(s, "expected 'name = value'");
    if (s->in_input)
        return 0;
    if (!s->cur || s->cur->trace.nsteps == 0)
        return fail(s, "an assignment outside any trace state");
    ex_trace *t = &s->cur->trace;
    int64_t v = 0;
    int k = 0;
    if (value(s, val, &v, &k))
        return -1;
    int var = ex_trace_var(t, name);
    if (var < 0)
        return oom(s);
    if (check_type(s, var, name, val, k))
        return -1;
    return ex_trace_set(t, var, v) ? oom(s) : 0;
}

static int line_of(ex_smv *s, char *raw)
{
    char *line = trim(raw);
    if (!*line)
        return 0;
    if (strncmp(line, "-- specification ", 17) == 0 || strncmp(line, "-- invariant ", 13) == 0)
        return spec(s, line);
    if (strcmp(line, "-- Loop starts here") == 0) {
        if (!s->cur)
            return fail(s, "a loop marker outside any trace");
        if (s->pending_loop)
            return fail(s, "two loop markers with no state between them");
        s->pending_loop = s->lineno;
        return 0;
    }
    if (strncmp(line, "-> State:", 9) == 0)
        return header(s, line, 0);
    if (strncmp(line, "-> Input:", 9) == 0)
        return header(s, line, 1);
    if (line[0] == '-' || line[0] == '*' || strncmp(line, "Trace ", 6) == 0)
        return 0; /* comments, banners, trace descriptions */
    if (s->cur && (s->cur->trace.nsteps > 0 || s->in_input))
        return assign(s, line);
    return 0; /* other tool chatter between specifications */
}

int ex_nusmv_load(FILE *in, const char *name, ex_smv_cex **out, size_t *n, char *err, size_t errlen)
{
    ex_smv s = {.name = name, .err = err, .errlen = errlen};
    char *line = NULL;
    size_t cap = 0;
    int rc = 0, specs = 0;
    ssize_t len;
    errno = 0;
    while (rc == 0 && (len = getline(&line, &cap, in)) > 0) {
        s.lineno++;
        if (memchr(line, 0, (size_t)len)) {
            rc = fail(&s, "contains a NUL byte: not NuSMV output");
            break;
        }
        specs += strstr(line, "-- specification ") || strstr(line, "-- invariant ");
        rc = line_of(&s, line);
    }
    if (rc == 0 && ferror(in)) {
        s.lineno++;
        rc = errno == ENOMEM ? oom(&s) : fail(&s, "%s", strerror(errno ? errno : EIO));
    }
    free(line);
    free(s.types);
    if (rc == 0)
        rc = finish(&s);
    for (size_t i = 0; rc == 0 && i < s.n; i++)
        if (!s.v[i].holds && s.v[i].trace.nsteps == 0) {
            s.lineno = s.v[i].line;
            rc = fail(&s, "the specification is false but no counterexample follows");
        }
    if (rc == 0 && specs == 0) {
        s.lineno = 1;
        rc = fail(&s, "no '-- specification' lines: not NuSMV/nuXmv output");
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
