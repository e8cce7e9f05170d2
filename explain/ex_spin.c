/* ex_spin: a SPIN trail replayed into an ex_trace.
 *
 * SPIN prints a state only after a step, so the state before the first
 * step comes from a second, one-step replay (`spin -t -u1`), whose final
 * dump lists every variable.  The full replay runs with -p (step lines),
 * -g and -w (all globals after every step), -l (the moving process's
 * locals) and -b (no printf output that could look like a value line).
 * Locals of a process that did not move keep their value.  SPIN's names
 * are rewritten into the formula syntax: P(0):y becomes P[0]:y, and a
 * channel's printed contents become its length, len(c).  Both runs happen
 * in a private temporary directory because spin writes scratch files into
 * its working directory.
 */
#include "explain.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- parsing --------------------------------------------------------------- */

/* "P(0):y" -> "P[0]:y", ":init:(0):x" -> "init[0]:x"; copies otherwise. */
static void ex_spin_name(const char *in, size_t len, char *out, size_t cap)
{
    size_t o = 0, i = 0;
    if (len >= 6 && strncmp(in, ":init:", 6) == 0) {
        o = (size_t)snprintf(out, cap, "init");
        i = 6;
    }
    for (; i < len && o + 2 < cap; i++) {
        if (in[i] == '(') {
            size_t j = i + 1;
            while (j < len && isdigit((unsigned char)in[j]))
                j++;
            if (j > i + 1 && j + 1 < len && in[j] == ')' && in[j + 1] == ':' &&
                o + (j - i) + 2 < cap) {
                out[o++] = '[';
                memcpy(out + o, in + i + 1, j - i - 1);
                o += j - i - 1;
                out[o++] = ']';
                i = j;
                continue;
            }
        }
        out[o++] = in[i];
    }
    out[o] = 0;
}

static void ex_spin_value(ex_trace *t, const char *name, const char *val)
{
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 10);
    int var = ex_trace_var(t, name);
    if (end != val && *end == 0 && errno == 0)
        ex_trace_set(t, var, v);
    else
        ex_trace_set(t, var, ex_trace_sym(t, val));
}

/* "\t\tNAME = VALUE" or "\t\tqueue N (NAME): [m][m]" */
static void ex_spin_value_line(ex_trace *t, char *line)
{
    char name[512];
    char *s = line + 2;
    if (strncmp(s, "queue ", 6) == 0) {
        char *lp = strchr(s, '('), *rp = strstr(s, "): ");
        if (!lp || !rp || rp < lp)
            return;
        char inner[480];
        ex_spin_name(lp + 1, (size_t)(rp - lp - 1), inner, sizeof inner);
        snprintf(name, sizeof name, "len(%s)", inner);
        long n = 0;
        int depth = 0;
        for (char *q = rp + 3; *q; q++) {
            if (*q == '[' && depth++ == 0)
                n++;
            else if (*q == ']' && depth > 0)
                depth--;
        }
        ex_trace_set(t, ex_trace_var(t, name), n);
        return;
    }
    char *eq = strstr(s, " = ");
    if (!eq)
        return;
    ex_spin_name(s, (size_t)(eq - s), name, sizeof name);
    char *val = eq + 3;
    val[strcspn(val, "\r\n")] = 0;
    ex_spin_value(t, name, val);
}

static int ex_is_step_line(const char *line)
{
    const char *s = line;
    while (*s == ' ')
        s++;
    if (!isdigit((unsigned char)*s))
        return 0;
    while (isdigit((unsigned char)*s))
        s++;
    if (*s++ != ':')
        return 0;
    while (*s == ' ' || *s == '\t')
        s++;
    return strncmp(s, "proc ", 5) == 0;
}

static void ex_push_str(char ***v, size_t n, char *s)
{
    *v = realloc(*v, (n + 1) * sizeof **v);
    if (!*v)
        abort();
    (*v)[n] = s;
}

static char *ex_dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        abort();
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

/* Lines common to both runs: ltl blocks, errors. */
static void ex_spin_meta(const char *line, ex_spin_info *info)
{
    if (strncmp(line, "ltl ", 4) == 0) {
        const char *colon = strstr(line + 4, ": ");
        if (!colon)
            return;
        for (size_t i = 0; i < info->nltl; i++)
            if (strlen(info->ltl_names[i]) == (size_t)(colon - line - 4) &&
                strncmp(info->ltl_names[i], line + 4, (size_t)(colon - line - 4)) == 0)
                return;
        ex_push_str(&info->ltl_names, info->nltl, ex_dupn(line + 4, (size_t)(colon - line - 4)));
        const char *text = colon + 2;
        ex_push_str(&info->ltl_texts, info->nltl, ex_dupn(text, strcspn(text, "\r\n")));
        info->nltl++;
        return;
    }
    int is_error = strncmp(line, "spin: ", 6) == 0 &&
                   (strstr(line, "Error") || strstr(line, "error") || strstr(line, "couldn't")) &&
                   !strstr(line, "assertion violated");
    if ((is_error || strstr(line, "preprocessing failed")) && !info->error)
        info->error = ex_dupn(line, strcspn(line, "\r\n"));
}

static void ex_spin_initial(FILE *in, ex_trace *t, ex_spin_info *info)
{
    char *line = NULL;
    size_t cap = 0;
    int dump = 0;
    while (getline(&line, &cap, in) > 0) {
        ex_spin_meta(line, info);
        if (strncmp(line, "#processes:", 11) == 0)
            dump = 1;
        else if (dump && line[0] == '\t' && line[1] == '\t')
            ex_spin_value_line(t, line);
    }
    free(line);
    if (t->nsteps == 0)
        ex_trace_add_step(t);
}

int ex_spin_parse(FILE *initial, FILE *replay, ex_trace *t, ex_spin_info *info)
{
    memset(info, 0, sizeof *info);
    info->replayed = -1;
    if (initial)
        ex_spin_initial(initial, t, info);
    char *line = NULL;
    size_t cap = 0;
    int ended = 0, in_step = 0;
    while (getline(&line, &cap, replay) > 0) {
        if (ended) {
            const char *c = strstr(line, "proc  - (");
            if (c && !info->claim)
                info->claim = ex_dupn(c + 9, strcspn(c + 9, ":)"));
            continue;
        }
        if (line[0] == '\t' && line[1] == '\t') {
            if (in_step)
                ex_spin_value_line(t, line);
        } else if (ex_is_step_line(line)) {
            ex_trace_add_step(t);
            in_step = 1;
        } else if (strstr(line, "<<<<<START OF CYCLE>>>>>")) {
            t->loop_start = (long)t->nsteps - 1;
        } else if (strncmp(line, "spin: trail ends after ", 23) == 0) {
            info->replayed = atol(line + 23);
            ended = 1;
        } else if (strstr(line, "transition failed")) {
            info->failed_transition = 1;
        } else {
            ex_spin_meta(line, info);
        }
    }
    free(line);
    if (t->nsteps == 0)
        ex_trace_add_step(t);
    return 0;
}

void ex_spin_info_free(ex_spin_info *info)
{
    for (size_t i = 0; i < info->nltl; i++) {
        free(info->ltl_names[i]);
        free(info->ltl_texts[i]);
    }
    free(info->ltl_names);
    free(info->ltl_texts);
    free(info->claim);
    free(info->error);
    memset(info, 0, sizeof *info);
}

/* mtype = { a, b }  and  mtype:name = { ... } */
void ex_spin_mtypes(const char *text, ex_trace *t)
{
    for (const char *s = strstr(text, "mtype"); s; s = strstr(s + 5, "mtype")) {
        const char *q = s + 5;
        if (*q == ':')
            for (q++; isalnum((unsigned char)*q) || *q == '_'; q++)
                ;
        while (isspace((unsigned char)*q))
            q++;
        if (*q++ != '=')
            continue;
        while (isspace((unsigned char)*q))
            q++;
        if (*q++ != '{')
            continue;
        const char *end = strchr(q, '}');
        if (!end)
            return;
        while (q < end) {
            while (q < end && !(isalpha((unsigned char)*q) || *q == '_'))
                q++;
            const char *w = q;
            while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
                q++;
            if (q > w) {
                char *name = ex_dupn(w, (size_t)(q - w));
                ex_trace_sym(t, name);
                free(name);
            }
        }
    }
}

/* ---- running spin -------------------------------------------------------- */

static int ex_errf(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

static FILE *ex_spin_start(const char *const *argv, const char *dir, pid_t *pid)
{
    int fd[2];
    if (pipe(fd) != 0)
        return NULL;
    *pid = fork();
    if (*pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return NULL;
    }
    if (*pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        if (chdir(dir) != 0)
            _exit(126);
        execvp(argv[0], (char *const *)argv);
        fprintf(stderr, "spin: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    return fdopen(fd[0], "r");
}

static int ex_spin_finish(FILE *f, pid_t pid)
{
    fclose(f);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void ex_rmtree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* Trail lines that are steps, and the file line of step number `which`. */
static long ex_trail_steps(const char *path, long which, long *line_of)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char buf[256];
    long steps = 0, lineno = 0;
    *line_of = 0;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        if (isdigit((unsigned char)buf[0])) {
            if (steps == which)
                *line_of = lineno;
            steps++;
        }
    }
    fclose(f);
    return steps;
}

static char *ex_slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (cap - len < 4096) {
            cap = cap ? cap * 2 : 8192;
            buf = realloc(buf, cap + 1);
            if (!buf)
                abort();
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    buf[len] = 0;
    return buf;
}

static int ex_spin_runs(const char *spin, const char *model, const char *trail, ex_trace *t,
                        ex_spin_info *info, char *err, size_t errlen)
{
    const char *tmpdir = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/pancause-spin-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir))
        return ex_errf(err, errlen, "cannot create a temporary directory: %s", strerror(errno));
    const char *first[] = {spin, "-t", "-u1", "-g", "-l", "-w", "-b", "-k", trail, model, NULL};
    const char *full[] = {spin, "-t", "-p", "-g", "-l", "-w", "-b", "-k", trail, model, NULL};
    pid_t p1, p2;
    FILE *f1 = ex_spin_start(first, dir, &p1);
    if (!f1) {
        ex_rmtree(dir);
        return ex_errf(err, errlen, "cannot run %s: %s", spin, strerror(errno));
    }
    /* The one-step run's output is tiny; read it fully before the replay. */
    char *line = NULL;
    size_t cap = 0;
    FILE *mem;
    char *buf = NULL;
    size_t blen = 0;
    mem = open_memstream(&buf, &blen);
    while (getline(&line, &cap, f1) > 0)
        fputs(line, mem);
    free(line);
    fclose(mem);
    int rc1 = ex_spin_finish(f1, p1);
    FILE *in = fmemopen(buf, blen, "r");
    FILE *f2 = ex_spin_start(full, dir, &p2);
    int rc = 0;
    if (!f2 || !in) {
        rc = ex_errf(err, errlen, "cannot run %s: %s", spin, strerror(errno));
    } else {
        ex_spin_parse(in, f2, t, info);
        int rc2 = ex_spin_finish(f2, p2);
        if (rc1 == 127 || rc2 == 127)
            rc = ex_errf(err, errlen, "cannot run '%s' (install SPIN or pass --spin PATH)", spin);
        else if (info->error && strstr(info->error, "couldn't find claim"))
            rc = ex_errf(err, errlen, "%s:1: trail does not match %s: %s", trail, model,
                         info->error);
        else if (info->error)
            rc = ex_errf(err, errlen, "%s: %s", model, info->error);
    }
    if (in)
        fclose(in);
    free(buf);
    ex_rmtree(dir);
    return rc;
}

static int ex_pick_formula(const char *model, const char *ltl_name, ex_spin_info *info,
                           char **formula, char *err, size_t errlen)
{
    const char *want = ltl_name;
    if (!want && info->nltl == 1)
        want = info->ltl_names[0];
    if (!want && info->claim)
        want = info->claim;
    if (!want) {
        if (info->nltl == 0)
            return ex_errf(err, errlen, "%s has no ltl formula; give one with --formula", model);
        return ex_errf(err, errlen, "%s has several ltl formulas; choose one with --ltl NAME",
                       model);
    }
    for (size_t i = 0; i < info->nltl; i++)
        if (strcmp(info->ltl_names[i], want) == 0) {
            *formula = strdup(info->ltl_texts[i]);
            return 0;
        }
    char names[512] = "";
    for (size_t i = 0; i < info->nltl; i++) {
        strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, info->ltl_names[i], sizeof names - strlen(names) - 1);
    }
    if (!ltl_name)
        return ex_errf(err, errlen,
                       "%s: the trail was made with never claim '%s', which is not an ltl "
                       "formula; give one with --formula",
                       model, want);
    return ex_errf(err, errlen, "%s has no ltl formula named '%s' (it has: %s)", model, want,
                   info->nltl ? names : "none");
}

int ex_spin_load(const char *spin, const char *model, const char *trail, const char *ltl_name,
                 ex_trace *t, char **formula, char *err, size_t errlen)
{
    if (formula)
        *formula = NULL;
    char *text = ex_slurp(model);
    if (!text)
        return ex_errf(err, errlen, "cannot read model %s: %s", model, strerror(errno));
    ex_spin_mtypes(text, t);
    free(text);
    char deftrail[4096];
    if (!trail) {
        snprintf(deftrail, sizeof deftrail, "%s.trail", model);
        trail = deftrail;
    }
    long line_of, steps = ex_trail_steps(trail, -1, &line_of);
    if (steps < 0)
        return ex_errf(err, errlen, "cannot read trail %s: %s", trail, strerror(errno));
    char *amodel = realpath(model, NULL), *atrail = realpath(trail, NULL);
    ex_spin_info info;
    memset(&info, 0, sizeof info);
    int rc = -1;
    if (!amodel || !atrail)
        ex_errf(err, errlen, "cannot resolve %s", amodel ? trail : model);
    else
        rc = ex_spin_runs(spin, amodel, atrail, t, &info, err, errlen);
    if (rc == 0 && (info.failed_transition || info.replayed < steps)) {
        long done = info.replayed < 0 ? 0 : info.replayed;
        ex_trail_steps(trail, done, &line_of);
        rc = ex_errf(err, errlen,
                     "%s:%ld: trail does not match %s: SPIN's replay stopped after %ld of %ld "
                     "steps",
                     trail, line_of, model, done, steps);
    }
    if (rc == 0 && formula)
        rc = ex_pick_formula(model, ltl_name, &info, formula, err, errlen);
    ex_spin_info_free(&info);
    free(amodel);
    free(atrail);
    return rc;
}
