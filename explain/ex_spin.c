/* ex_spin: a SPIN trail replayed into an ex_trace.
 *
 * SPIN prints a state only after a step, so the state before the first
 * step comes from a second, one-step replay (`spin -t -u1`), whose final
 * dump lists every variable.  The full replay runs with -p (step lines),
 * -s (a line before each send, which tells a rendezvous: pos_step), -g and
 * -w (all globals after every step), -l (the moving process's locals) and -b
 * (no printf output that could look like a value line).  Locals of a process
 * that did not move keep their value, those of a process that ended are
 * undefined (end_locals), and a local is named by the process it is printed
 * under (owner); those of a process that has not moved yet come from one
 * more replay per step that starts a process (`spin -t -u(D+1)`, the whole
 * state right after step D: ex_spin_creations, ex_spin_dump), and the
 * global channels SPIN has not
 * printed yet from `spin -d` (empty: ex_spin_channels).  SPIN's names
 * are rewritten into the formula syntax: P(0):y becomes P[0]:y, and a
 * channel's printed contents become its length, len(c).  Both runs happen
 * in a private temporary directory because spin writes scratch files into
 * its working directory.
 *
 * Everything read here comes from a user's files (the model, the trail) or
 * from spin's replay of them, so the readers take text of any length and
 * content: the trail is checked line by line against pan's format before
 * spin sees it (a bad line is FILE:LINE), names of any length are kept
 * whole, lookups are hashed (linear time), and out of memory is an error.
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

/* The process that the value lines after a step line or a dump's process line belong
 * to: its pid and its proctype as SPIN prints it ("B", ":init:").  SPIN 6.5.2 prints
 * a struct-typed local with the pid plus one when the model has a never claim
 * (`B(2):t.f` for B's pid 1, whose other locals it prints as `B(1):w`: the claim's
 * own slot is counted), so the name of a local is made with the pid of the process it
 * was printed under, not the pid in the name (the eighth probe, P8-6: B[2]:t.f held
 * process 1's field and B[1]:t.f was unknown). */
typedef struct {
    long pid; /* -1: no process (the globals before the first step line, the claim) */
    char *type;
} owner;

static void owner_clear(owner *o)
{
    free(o->type);
    o->type = NULL;
    o->pid = -1;
}

/* The owner named by a step line or a dump's process line ("  5:\tproc  1 (B:1) ..."),
 * none for another line (a termination, the claim's "proc  - (p1:1)").  -1 when out
 * of memory. */
static int owner_set(owner *o, const char *line)
{
    owner_clear(o);
    ex_spin_proc pl;
    if (ex_spin_proc_line(line, &pl) != 1)
        return 0;
    if (!(o->type = strndup(pl.type, pl.ntype)))
        return -1;
    o->pid = pl.pid;
    return 0;
}

/* "P(0):y" -> "P[0]:y", ":init:(0):x" -> "init[0]:x"; copies otherwise.  A local of
 * the owner's proctype gets the owner's pid (see owner).  Fresh memory, NULL when
 * out of memory. */
static char *spin_name(const char *in, size_t len, const owner *own)
{
    size_t olen = 0;
    char opid[24] = "";
    if (own && own->type) {
        olen = strlen(own->type);
        snprintf(opid, sizeof opid, "%ld", own->pid);
    }
    char *out = malloc(len + sizeof opid + 1);
    if (!out)
        return NULL;
    size_t o = 0, i = 0;
    bool first = true;
    if (len >= 6 && strncmp(in, ":init:", 6) == 0) {
        memcpy(out, "init", 4); /* 4 written for 6 read: stays within len */
        o = 4;
        i = 6;
    }
    for (; i < len; i++) {
        if (in[i] == '(') {
            size_t j = i + 1;
            while (j < len && isdigit((unsigned char)in[j]))
                j++;
            if (j > i + 1 && j + 1 < len && in[j] == ')' && in[j + 1] == ':') {
                out[o++] = '[';
                if (first && olen && i == olen && !strncmp(in, own->type, olen)) {
                    memcpy(out + o, opid, strlen(opid)); /* at most 20 digits: sizeof opid */
                    o += strlen(opid);
                } else {
                    memcpy(out + o, in + i + 1, j - i - 1);
                    o += j - i - 1;
                }
                out[o++] = ']';
                first = false;
                i = j;
                continue;
            }
        }
        out[o++] = in[i];
    }
    out[o] = 0;
    return out;
}

/* Sets the named variable's value in the last step; -1 when out of memory. */
static int set_value(ex_trace *t, const char *name, int64_t v)
{
    int var = ex_trace_var(t, name);
    return var < 0 ? -1 : ex_trace_set(t, var, v);
}

/* A number as SPIN prints it, or the text as a symbol (mtype names; and a
 * number too large to tell from a symbol's code stays its text). */
static int spin_value(ex_trace *t, const char *name, const char *val)
{
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 10);
    if (end != val && *end == 0 && errno == 0 && v < EX_SYM_BASE && v > -EX_SYM_BASE)
        return set_value(t, name, v);
    int64_t code = ex_trace_sym(t, val);
    return code < 0 ? -1 : set_value(t, name, code);
}

/* "\t\tNAME = VALUE" or "\t\tqueue N (NAME): [m][m]"; other lines are
 * ignored.  -1 when out of memory. */
static int value_line(ex_trace *t, char *line, const owner *own)
{
    char *s = line + 2;
    s[strcspn(s, "\r\n")] = 0;
    if (strncmp(s, "queue ", 6) == 0) {
        char *lp = strchr(s, '('), *rp = strstr(s, "): ");
        if (!lp || !rp || rp < lp)
            return 0;
        /* a queue's name as printed: SPIN names a local channel with its true pid */
        char *inner = spin_name(lp + 1, (size_t)(rp - lp - 1), NULL);
        char *name = inner ? u_fmt("len(%s)", inner) : NULL;
        long n = 0;
        int depth = 0;
        for (char *q = rp + 3; *q; q++) {
            if (*q == '[' && depth++ == 0)
                n++;
            else if (*q == ']' && depth > 0)
                depth--;
        }
        int rc = name ? set_value(t, name, n) : -1;
        free(inner);
        free(name);
        return rc;
    }
    char *eq = strstr(s, " = ");
    if (!eq)
        return 0;
    char *name = spin_name(s, (size_t)(eq - s), own);
    int rc = name ? spin_value(t, name, eq + 3) : -1;
    free(name);
    return rc;
}

const char *ex_spin_step_proc(const char *line)
{
    const char *s = line;
    while (*s == ' ')
        s++;
    if (!isdigit((unsigned char)*s))
        return NULL;
    while (isdigit((unsigned char)*s))
        s++;
    if (*s++ != ':')
        return NULL;
    while (*s == ' ' || *s == '\t')
        s++;
    return strncmp(s, "proc ", 5) == 0 ? s + 5 : NULL;
}

int ex_spin_proc_line(const char *line, ex_spin_proc *p)
{
    const char *s = ex_spin_step_proc(line);
    if (!s)
        return 0;
    while (*s == ' ')
        s++;
    char *end;
    p->pid = strtol(s, &end, 10);
    p->type = p->rest = NULL;
    p->ntype = 0;
    if (end == s || p->pid < 0)
        return 0;
    if (!strncmp(end, " terminates", 11))
        return 2;
    if (strncmp(end, " (", 2))
        return 0;
    const char *name = end + 2, *close = strchr(name, ')'), *colon = close;
    /* the proctype ends at the ':' before the instance number (":init:" has its own) */
    while (colon && colon > name && *colon != ':')
        colon--;
    if (!close || colon == name)
        return 0;
    p->type = name;
    p->ntype = (size_t)(colon - name);
    p->rest = close;
    return 1;
}

/* What `-s` prints before a send's step line: "  6:\tproc  2 (S:1) m.pml:4 Sent 1\t->
 * queue 2 (c)", with "Sent" for a rendezvous (SPIN's handshake) and "Send" for a
 * buffered channel: 2 for a rendezvous send, 1 for a buffered one, 0 for another line
 * (a step line names its state, "(state 1)"; a termination has no parenthesis). */
static int send_line(const char *line)
{
    const char *s = ex_spin_step_proc(line);
    const char *c = s ? strchr(s, ')') : NULL;
    if (!c || strstr(c, "(state "))
        return 0;
    const char *sent = strstr(c, " Sent "), *send = strstr(c, " Send ");
    if (sent && (!send || sent < send))
        return 2;
    return send ? 1 : 0;
}

static int is_step_line(const char *line)
{
    return ex_spin_step_proc(line) != NULL && !send_line(line);
}

/* A step line's key: its step number and the text up to the process's name ("  2:\tproc
 * 0 (A:1)"), which SPIN repeats for each statement inside one d_step.  A d_step is one
 * move of pan, so its statements are one state of the trace (the third probe of
 * 2026-11-28: the interior of `d_step { x = 1; x = 2 }` had become a state where x = 1,
 * which no run of pan has, and a first failure there).  Returns the key's length. */
static size_t step_key(const char *line)
{
    const char *p = strstr(line, "proc ");
    const char *c = p ? strchr(p, ')') : NULL;
    return c ? (size_t)(c - line) + 1 : 0;
}

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* The rule that makes positions of step lines, the one of ex_spin_parse and
 * ex_spin_positions, which must count alike.  A step line starts a position except
 *   - a statement inside the same d_step: its key (step_key) repeats the line's before;
 *   - the receive of a rendezvous: the step line right after a rendezvous send (a
 *     "Sent" line, send_line, before the send's step line).  pan's handshake is one
 *     move: the never claim moves after the receive, so the state between the send and
 *     the receive is no state of any run pan checks, and a formula pan proves could fail
 *     there (`[] !(S[0]@after && R[1]@before)`, the eighth probe's P8-3).  The position
 *     is the state after the receive. */
typedef struct {
    char *last_key; /* the previous step line's key */
    bool sent;      /* a "Sent" line: the next step line is a rendezvous send */
    bool after;     /* the previous step line was a rendezvous send */
} pos_rule;

/* A line that is not a step line: remembers a rendezvous's "Sent" line. */
static void pos_other(pos_rule *r, const char *line)
{
    if (send_line(line) == 2)
        r->sent = true;
}

/* Step line `line`: 1 when it starts a position, 0 when it continues the last one as
 * a statement of the same d_step, 2 as a rendezvous's receive (another process's
 * move), -1 when out of memory. */
static int pos_step(pos_rule *r, const char *line)
{
    size_t k = step_key(line);
    bool same = k && r->last_key && strlen(r->last_key) == k && !strncmp(r->last_key, line, k);
    free(r->last_key);
    r->last_key = k ? dupn(line, k) : NULL;
    if (k && !r->last_key)
        return -1;
    bool receive = r->after;
    r->after = r->sent;
    r->sent = false;
    return receive ? 2 : !same;
}

/* What a parse keeps besides the trace: the ltl names seen, for one lookup
 * per `ltl` line, and the capacities of info's arrays. */
typedef struct {
    ex_spin_info *info;
    u_intern ltl_seen;
    size_t names_cap, texts_cap;
} meta_ctx;

/* Lines common to both runs: ltl blocks, errors.  -1 when out of memory. */
static int meta(meta_ctx *m, const char *line)
{
    ex_spin_info *info = m->info;
    if (strncmp(line, "ltl ", 4) == 0) {
        const char *colon = strstr(line + 4, ": ");
        if (!colon)
            return 0;
        size_t n = (size_t)(colon - line - 4);
        bool fresh;
        if (u_intern_put(&m->ltl_seen, line + 4, n, &fresh) == U_INVALID)
            return -1;
        if (!fresh)
            return 0;
        const char *text = colon + 2;
        char *name = dupn(line + 4, n), *body = dupn(text, strcspn(text, "\r\n"));
        if (!name || !body || U_GROW(info->ltl_names, m->names_cap, info->nltl) ||
            U_GROW(info->ltl_texts, m->texts_cap, info->nltl)) {
            free(name);
            free(body);
            return -1;
        }
        info->ltl_names[info->nltl] = name;
        info->ltl_texts[info->nltl++] = body;
        return 0;
    }
    int is_error = strncmp(line, "spin: ", 6) == 0 &&
                   (strstr(line, "Error") || strstr(line, "error") || strstr(line, "couldn't")) &&
                   !strstr(line, "assertion violated");
    if ((is_error || strstr(line, "preprocessing failed")) && !info->error &&
        !(info->error = dupn(line, strcspn(line, "\r\n"))))
        return -1;
    return 0;
}

static int initial_dump(FILE *in, ex_trace *t, meta_ctx *m)
{
    char *line = NULL;
    size_t cap = 0;
    int dump = 0, rc = 0;
    owner own = {-1, NULL};
    while (!rc && getline(&line, &cap, in) > 0) {
        rc = meta(m, line);
        if (strncmp(line, "#processes:", 11) == 0) {
            dump = 1;
            rc = rc || ex_locs_begin(t, 0);
        } else if (!rc && dump && line[0] == '\t' && line[1] == '\t')
            rc = value_line(t, line, &own);
        else if (!rc && dump)
            rc = owner_set(&own, line) || ex_locs_line(t, 0, line, true);
    }
    free(line);
    owner_clear(&own);
    return rc || (t->nsteps == 0 && ex_trace_add_step(t)) ? -1 : 0;
}

/* The depth SPIN prints at the start of a step line ("  12:\tproc ..."). */
static long step_depth(const char *line)
{
    return strtol(line, NULL, 10);
}

/* Sets every value line of a dump into the last step; -1 when out of memory. */
static int apply_dump(ex_trace *t, const char *text)
{
    int rc = 0;
    owner own = {-1, NULL};
    for (const char *s = text; *s && !rc;) {
        size_t len = strcspn(s, "\n");
        char *line = dupn(s, len);
        if (!line)
            rc = -1;
        else if (len > 2 && s[0] == '\t' && s[1] == '\t')
            rc = value_line(t, line, &own);
        else
            rc = owner_set(&own, line);
        free(line);
        s += len + (s[len] == '\n');
    }
    owner_clear(&own);
    return rc;
}

int ex_spin_creations(const char *text, long **depths, size_t *n)
{
    size_t cap = 0;
    *depths = NULL;
    *n = 0;
    int pending = 0;
    for (const char *s = text; *s;) {
        size_t len = strcspn(s, "\n");
        if (strncmp(s, "Starting ", 9) == 0) {
            pending = 1;
        } else if (pending && is_step_line(s)) {
            long d = step_depth(s);
            pending = 0;
            if (*n == 0 || d > (*depths)[*n - 1]) {
                if (U_GROW(*depths, cap, *n)) {
                    free(*depths);
                    *depths = NULL;
                    *n = 0;
                    return -1;
                }
                (*depths)[(*n)++] = d;
            }
        }
        s += len + (s[len] == '\n');
    }
    return 0;
}

int ex_spin_positions(const char *text, long **nums, size_t *n)
{
    size_t cap = 0;
    *nums = NULL;
    *n = 0;
    pos_rule rule = {NULL, false, false};
    int rc = 0;
    /* the same rule as ex_spin_parse (pos_step): a step line (a process's termination
     * included) starts a position unless it is inside a d_step or a rendezvous's
     * receive, which gives its step number to the position; nothing after "spin:
     * trail ends after" */
    for (const char *s = text; *s && !rc && strncmp(s, "spin: trail ends after ", 23);) {
        size_t len = strcspn(s, "\n");
        char *line = dupn(s, len);
        if (!line)
            rc = -1;
        else if (is_step_line(line)) {
            int fresh = pos_step(&rule, line);
            if (fresh < 0 || (fresh == 1 && U_GROW(*nums, cap, *n)))
                rc = -1;
            else if (fresh == 1 || *n)
                (*nums)[fresh == 1 ? (*n)++ : *n - 1] = step_depth(line);
        } else {
            pos_other(&rule, line);
        }
        free(line);
        s += len + (s[len] == '\n');
    }
    free(rule.last_key);
    if (rc) {
        free(*nums);
        *nums = NULL;
        *n = 0;
    }
    return rc;
}

/* The positions of t inside an atomic sequence, when the trail was made with a never
 * claim: pan's claim moves after every move of the system except inside an atomic
 * sequence (and a rendezvous, which pos_step already makes one position), and each of
 * its moves is a step of the trail, so a position whose next position starts at the
 * very next step number was not observed by the claim.  They stay positions (SPIN
 * prints them, and a formula given with --formula may be about them), but a first
 * failure there is one pan's check of the same formula would not see, and the output
 * says so (the eighth probe, P8-3).  0, or -1 when out of memory. */
static int mark_unseen(const char *text, ex_trace *t)
{
    pos_rule rule = {NULL, false, false};
    long pos = 0, last = -1; /* the position and the step number that made it */
    int rc = 0;
    for (const char *s = text; *s && !rc && strncmp(s, "spin: trail ends after ", 23);) {
        size_t len = strcspn(s, "\n");
        char *line = dupn(s, len);
        int fresh = !line ? -1 : is_step_line(line) ? pos_step(&rule, line) : 0;
        if (line && !is_step_line(line))
            pos_other(&rule, line);
        if (fresh < 0) {
            rc = -1;
        } else if (fresh == 1) {
            long d = step_depth(line);
            if (pos >= 1 && (size_t)pos < t->nsteps && d == last + 1) {
                if (!t->unseen && !(t->unseen = calloc(t->nsteps, sizeof *t->unseen)))
                    rc = -1;
                else
                    t->unseen[pos] = true;
            }
            pos++;
            last = d;
        } else if (fresh == 2) {
            last = step_depth(line);
        }
        free(line);
        s += len + (s[len] == '\n');
    }
    free(rule.last_key);
    return rc;
}

int ex_spin_channels(const char *text, ex_trace *t)
{
    for (const char *s = text; *s;) {
        size_t len = strcspn(s, "\n");
        /* "chan \tq\t2\t<:global:>\t<variable>..." or "chan \tq[3]\t2\t<:global:>\t<array>" */
        if (strncmp(s, "chan", 4) == 0 && len < 4096) {
            char line[4096], *f[4] = {0};
            memcpy(line, s, len);
            line[len] = 0;
            char *save = NULL;
            int nf = 0;
            for (char *w = strtok_r(line, "\t", &save); w && nf < 4;
                 w = strtok_r(NULL, "\t", &save))
                f[nf++] = w;
            if (nf == 4 && strcmp(f[3], "<:global:>") == 0) {
                char *br = strchr(f[1], '[');
                long count = br ? strtol(br + 1, NULL, 10) : 1;
                if (br)
                    *br = 0;
                for (long i = 0; i < count && i < 65536; i++) {
                    char *name = br ? u_fmt("len(%s[%ld])", f[1], i) : u_fmt("len(%s)", f[1]);
                    int var = name ? ex_trace_var(t, name) : -1;
                    free(name);
                    if (var < 0)
                        return -1;
                    /* the replay printed nothing before: the queue was empty (values are 0) */
                    t->vars[var].defined_from = 0;
                }
            }
        }
        s += len + (s[len] == '\n');
    }
    return 0;
}

/* Step line "  4: proc 1 terminates": pan's delproc zeroes the ended process's slot,
 * so from this position on its locals (P[1]:y, a struct's P[1]:s.f, a channel's
 * len(P[1]:c)) read 0 in pan, as in a slot no process has taken yet: undefined, until
 * a new process with the pid prints them again (ex_trace_set).  They kept their last
 * value before, and a formula pan proves failed (the eighth probe, P8-1).  0, or -1
 * when out of memory. */
static int end_locals(ex_trace *t, const char *line)
{
    ex_spin_proc pl;
    if (ex_spin_proc_line(line, &pl) != 2)
        return 0;
    long pid = pl.pid;
    for (size_t i = 0; i < t->nvars; i++) {
        const char *n = t->vars[i].name;
        if (!strncmp(n, "len(", 4))
            n += 4;
        while (isalnum((unsigned char)*n) || *n == '_')
            n++;
        if (*n++ != '[' || !isdigit((unsigned char)*n))
            continue;
        errno = 0;
        char *end;
        long p = strtol(n, &end, 10);
        if (!errno && p == pid && end[0] == ']' && end[1] == ':' && ex_trace_undefine(t, (int)i))
            return -1;
    }
    return 0;
}

int ex_spin_parse(FILE *initial, FILE *replay, const ex_spin_dump *dumps, size_t ndumps,
                  ex_trace *t, ex_spin_info *info)
{
    memset(info, 0, sizeof *info);
    info->replayed = -1;
    meta_ctx m = {info, {0}, 0, 0};
    int rc = initial ? initial_dump(initial, t, &m) : 0;
    char *line = NULL;
    size_t cap = 0;
    int ended = 0, in_step = 0;
    long nstep = 0;       /* step lines so far */
    size_t next_dump = 0; /* dumps[] before this are of earlier depths */
    pos_rule rule = {NULL, false, false};
    owner own = {-1, NULL}; /* whose locals the value lines print */
    while (!rc && getline(&line, &cap, replay) > 0) {
        if (ended) {
            /* the last dump: where each process is at the end (ex_loc.c) */
            if (!strncmp(line, "#processes:", 11))
                rc = ex_locs_begin(t, t->nsteps ? t->nsteps - 1 : 0);
            else if (t->nsteps)
                rc = ex_locs_line(t, t->nsteps - 1, line, true);
            const char *c = strstr(line, "proc  - (");
            if (c && !info->claim && !(info->claim = dupn(c + 9, strcspn(c + 9, ":)"))))
                rc = -1;
            continue;
        }
        if (line[0] == '\t' && line[1] == '\t') {
            if (in_step)
                rc = value_line(t, line, &own);
        } else if (is_step_line(line)) {
            int fresh = pos_step(&rule, line);
            rc = fresh < 0 || owner_set(&own, line);
            if (!rc && fresh == 2 && t->nsteps) {
                /* a rendezvous's receive: the receiver moves in this position too */
                rc = ex_locs_line(t, t->nsteps - 1, line, false);
            } else if (!rc && fresh) {
                rc = ex_trace_add_step(t) || ex_locs_line(t, t->nsteps - 1, line, false) ||
                     end_locals(t, line);
                nstep++;
                /* a step that starts a process: its locals from the dump after it */
                long d = step_depth(line);
                while (next_dump < ndumps && dumps[next_dump].depth < d)
                    next_dump++;
                if (!rc && next_dump < ndumps && dumps[next_dump].depth == d)
                    rc = apply_dump(t, dumps[next_dump].text) ||
                         ex_locs_listing(t, t->nsteps - 1, dumps[next_dump].text);
            }
            in_step = 1;
        } else if (send_line(line)) {
            pos_other(&rule, line);
        } else if (strstr(line, "<<<<<START OF CYCLE>>>>>")) {
            t->loop_start = (long)t->nsteps - 1;
        } else if (strncmp(line, "spin: trail ends after ", 23) == 0) {
            char *end;
            errno = 0;
            long n = strtol(line + 23, &end, 10);
            info->replayed = errno || end == line + 23 || n < 0 ? -1 : n;
            ended = 1;
        } else if (strstr(line, "transition failed")) {
            if (!info->failed_transition)
                info->failed_after = nstep;
            info->failed_transition = 1;
        } else {
            rc = meta(&m, line);
        }
    }
    free(line);
    free(rule.last_key);
    owner_clear(&own);
    u_intern_free(&m.ltl_seen);
    if (!rc && t->nsteps == 0)
        rc = ex_trace_add_step(t);
    return rc ? -1 : 0;
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

/* mtype = { a, b }  and  mtype:name = { ... }.  Each declaration is read once and the
 * search goes on after its '}', so the text is read once.  The symbols are interned in
 * the order of SPIN's numbers, so that their codes compare as SPIN's values do (`col <=
 * green`): SPIN numbers each declaration's names from its last, 1 up, after the names
 * of the same mtype's earlier declarations (`mtype = { red, green, blue }` is red 3,
 * green 2, blue 1; a second `mtype = { cyan, magenta }` is cyan 5, magenta 4), and each
 * `mtype:name` from 1 on its own (checked with spin 6.5.2's printf of the values).
 * Until the eighth probe (P8-10) the order was the declaration's, and pan's own
 * counterexample of `[] (col <= green)` was "nothing to explain". */
typedef struct {
    const char *type; /* after "mtype:", or NULL for plain mtype */
    size_t tlen;
    const char *from, *to; /* the names, between '{' and '}' */
} mtype_decl;

/* Interns the names between from and to, last first, numbered from *num + 1 up as SPIN
 * numbers them; -1 when out of memory. */
static int intern_reversed(ex_trace *t, const char *from, const char *to, int64_t *num)
{
    const char *q = to;
    while (q > from) {
        while (q > from && !(isalnum((unsigned char)q[-1]) || q[-1] == '_'))
            q--;
        const char *e = q;
        while (q > from && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
            q--;
        if (e > q && !isdigit((unsigned char)*q)) {
            char *name = dupn(q, (size_t)(e - q));
            int64_t code = name ? ex_trace_sym(t, name) : -1;
            free(name);
            if (code < 0 || ex_trace_sym_set_value(t, code, ++*num))
                return -1;
        }
    }
    return 0;
}

int ex_spin_mtypes(const char *text, ex_trace *t)
{
    mtype_decl *d = NULL;
    size_t n = 0, cap = 0;
    for (const char *s = strstr(text, "mtype"); s; s = strstr(s, "mtype")) {
        const char *q = s + 5, *type = NULL;
        size_t tlen = 0;
        s = q;
        if (*q == ':') {
            type = ++q;
            for (; isalnum((unsigned char)*q) || *q == '_'; q++)
                ;
            tlen = (size_t)(q - type);
        }
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
            break;
        if (U_GROW(d, cap, n)) {
            free(d);
            return -1;
        }
        d[n++] = (mtype_decl){type, tlen, q, end};
        s = end;
    }
    /* each mtype in the order of its first declaration; its declarations in order */
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        bool first = true;
        int64_t num = 0;
        for (size_t k = 0; k < i && first; k++)
            first = !(d[k].tlen == d[i].tlen && (!d[i].type) == (!d[k].type) &&
                      (!d[i].type || !strncmp(d[k].type, d[i].type, d[i].tlen)));
        for (size_t k = i; k < n && first && !rc; k++)
            if (d[k].tlen == d[i].tlen && (!d[i].type) == (!d[k].type) &&
                (!d[i].type || !strncmp(d[k].type, d[i].type, d[i].tlen)))
                rc = intern_reversed(t, d[k].from, d[k].to, &num);
    }
    free(d);
    return rc;
}

/* ---- trails ---------------------------------------------------------------- */

/* One field of a trail line: an optionally negative decimal int. */
static const char *trail_int(const char *s, long *v)
{
    const char *d = s + (*s == '-');
    if (!isdigit((unsigned char)*d))
        return NULL;
    char *end;
    errno = 0;
    *v = strtol(s, &end, 10);
    return errno || *v > INT32_MAX || *v < INT32_MIN ? NULL : end;
}

int ex_trail_read(const char *text, const char *name, long which, long *steps, long *line_of,
                  char *err, size_t errlen)
{
    long lineno = 0, n = 0;
    *line_of = 0;
    for (const char *s = text; *s;) {
        size_t len = strcspn(s, "\n");
        lineno++;
        long f[3];
        const char *p = s;
        for (int i = 0; i < 3 && p; i++) {
            p = trail_int(p, &f[i]);
            if (p && i < 2)
                p = *p == ':' ? p + 1 : NULL;
        }
        while (p && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        if (!p || p != s + len) {
            snprintf(err, errlen,
                     "%s:%ld: not a trail line: '%.*s' (pan writes depth:process:transition)", name,
                     lineno, (int)(len > 40 ? 40 : len), s);
            return -1;
        }
        if (f[0] >= 0) {
            if (n == which)
                *line_of = lineno;
            n++;
        }
        s += len + (s[len] == '\n');
    }
    *steps = n;
    return 0;
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
            char p[4096 + sizeof e->d_name + 2]; /* dir is at most 4095 (ex_spin_runs) */
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* Runs argv in dir and keeps its whole output (stdout and stderr) in
 * *out (NUL-terminated).  Returns spin's exit status (127: could not be
 * run), or -1 when no process or memory could be had. */
static int capture(const char *const *argv, const char *dir, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    pid_t pid;
    FILE *f = ex_spin_start(argv, dir, &pid);
    if (!f)
        return -1;
    FILE *mem = open_memstream(out, len);
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0)
        if (mem)
            fputs(line, mem);
    free(line);
    int rc = ex_spin_finish(f, pid);
    if (!mem || fclose(mem) != 0) {
        free(*out);
        *out = NULL;
        return -1;
    }
    return rc;
}

/* The last line of spin's output that is not empty, for a message. */
static void last_line(const char *text, char *buf, size_t n)
{
    size_t len = strlen(text);
    while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
        len--;
    size_t start = len;
    while (start && text[start - 1] != '\n')
        start--;
    snprintf(buf, n, "%.*s", (int)(len - start > 200 ? 200 : len - start), text + start);
}

/* More process starts than this in one trail are refused: each costs a replay. */
#define EX_MAX_STARTS 2000

/* The dumps after each step that starts a process (ex_spin_dump).  0, or -1
 * with the message. */
static int start_dumps(const char *spin, const char *model, const char *trail, const char *dir,
                       const char *replay, ex_spin_dump **dumps, size_t *ndumps, char *err,
                       size_t errlen)
{
    long *depths;
    size_t n;
    *dumps = NULL;
    *ndumps = 0;
    if (ex_spin_creations(replay, &depths, &n))
        return ex_errf(err, errlen, "out of memory while reading SPIN's replay of %s", trail);
    if (n > EX_MAX_STARTS) {
        free(depths);
        return ex_errf(err, errlen,
                       "%s: the trail starts processes at %zu steps; explain reads the locals "
                       "of each new process with one more replay of SPIN and stops at %d",
                       trail, n, EX_MAX_STARTS);
    }
    ex_spin_dump *d = n ? calloc(n, sizeof *d) : NULL;
    if (n && !d) {
        free(depths);
        return ex_errf(err, errlen, "out of memory");
    }
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        char u[32];
        snprintf(u, sizeof u, "-u%ld", depths[i] + 1);
        const char *argv[] = {spin, "-t", u, "-g", "-l", "-w", "-b", "-k", trail, model, NULL};
        char *out;
        size_t len;
        int st = capture(argv, dir, &out, &len);
        const char *dump = out ? strstr(out, "#processes:") : NULL;
        d[i].depth = depths[i];
        if (st != 0 || !dump) {
            char last[256] = "";
            if (out)
                last_line(out, last, sizeof last);
            rc = ex_errf(err, errlen, "SPIN (%s %s) printed no state after step %ld: %s", spin, u,
                         depths[i], st < 0 ? "out of memory" : last);
        } else if (!(d[i].text = strdup(dump))) {
            rc = ex_errf(err, errlen, "out of memory");
        }
        free(out);
    }
    free(depths);
    *dumps = d;
    *ndumps = n;
    return rc;
}

static void free_dumps(ex_spin_dump *d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free((char *)d[i].text);
    free(d);
}

/* dst gets src's symbols, in src's order (so with the same codes), and their values;
 * -1 when out of memory. */
static int seed_syms(ex_trace *dst, const ex_trace *src)
{
    for (size_t i = 0; i < src->nsyms; i++) {
        int64_t code = ex_trace_sym(dst, src->syms[i]);
        if (code < 0 || (i < src->nsymval && src->symval[i] != EX_NO_VALUE &&
                         ex_trace_sym_set_value(dst, code, src->symval[i])))
            return -1;
    }
    return 0;
}

/* ex_spin_parse on captured texts; -1 when out of memory. */
static int parse(char *b1, size_t l1, char *b2, size_t l2, const ex_spin_dump *dumps, size_t ndumps,
                 ex_trace *t, ex_spin_info *info)
{
    FILE *in = l1 ? fmemopen(b1, l1, "r") : NULL; /* none: no initial dump */
    FILE *rp = l2 ? fmemopen(b2, l2, "r") : fopen("/dev/null", "r");
    int rc = !rp || (l1 && !in) ? -1 : ex_spin_parse(in, rp, dumps, ndumps, t, info);
    if (in)
        fclose(in);
    if (rp)
        fclose(rp);
    return rc;
}

/* Runs spin: the one-step dump (initial state), the full replay, one dump
 * after each step that starts a process, and the symbol table (channels);
 * then parses them into t. */
static int ex_spin_runs(const char *spin, const char *model, const char *trail, long steps,
                        ex_trace *t, ex_spin_info *info, char *err, size_t errlen)
{
    const char *tmpdir = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/pancause-spin-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir))
        return ex_errf(err, errlen, "cannot create a temporary directory: %s", strerror(errno));
    const char *one[] = {spin, "-t", "-u1", "-g", "-l", "-w", "-b", "-k", trail, model, NULL};
    /* -s: a send's "Sent" (rendezvous) or "Send" line, for pos_step */
    const char *full[] = {spin, "-t", "-p", "-s", "-g", "-l", "-w", "-b", "-k", trail, model, NULL};
    const char *symtab[] = {spin, "-d", model, NULL};
    char *b1 = NULL, *b2 = NULL, *b3 = NULL;
    size_t l1, l2, l3;
    ex_spin_dump *dumps = NULL;
    size_t ndumps = 0;
    ex_trace first;
    ex_trace_init(&first);
    int rc1 = capture(one, dir, &b1, &l1);
    int rc2 = rc1 == 127 ? 127 : capture(full, dir, &b2, &l2);
    int rc = 0;
    if (rc1 == 127 || rc2 == 127) {
        rc = ex_errf(err, errlen, "cannot run '%s' (install SPIN or pass --spin PATH)", spin);
    } else if (rc1 < 0 || rc2 < 0) {
        rc = ex_errf(err, errlen, "cannot run %s: %s", spin, strerror(errno));
    } else {
        /* a first reading, into a trace with t's symbols (the model's mtypes, in t's
         * order, so that it can stand for t): spin's errors, whether the trail matched,
         * and t itself where no process starts later */
        rc = seed_syms(&first, t) || parse(b1, l1, b2, l2, NULL, 0, &first, info)
                 ? ex_errf(err, errlen, "out of memory while reading SPIN's replay of %s", trail)
                 : 0;
    }
    /* spin's own errors first: a model it cannot read, a claim not in it */
    if (rc == 0 && info->error && strstr(info->error, "couldn't find claim"))
        rc = ex_errf(err, errlen, "%s:1: trail does not match %s: %s", trail, model, info->error);
    else if (rc == 0 && info->error)
        rc = ex_errf(err, errlen, "%s: %s", model, info->error);
    else if (rc == 0 && (rc1 != 0 || rc2 != 0)) {
        char last[256];
        last_line(rc1 ? b1 : b2, last, sizeof last);
        rc = ex_errf(err, errlen, "SPIN (%s) failed with exit status %d: %s", spin, rc1 ? rc1 : rc2,
                     last[0] ? last : "(no output)");
    }
    /* a trail that does not match is the caller's message (ex_spin_load): t stays empty */
    bool matched = rc == 0 && !info->failed_transition && info->replayed >= steps;
    if (matched)
        rc = start_dumps(spin, model, trail, dir, b2, &dumps, &ndumps, err, errlen);
    if (matched && rc == 0 && capture(symtab, dir, &b3, &l3) < 0)
        rc = ex_errf(err, errlen, "cannot run %s: %s", spin, strerror(errno));
    if (matched && rc == 0) {
        int bad = 0;
        if (ndumps == 0) { /* the first reading is the trace */
            ex_trace_free(t);
            *t = first;
            ex_trace_init(&first);
        } else { /* read again, with the states after each process start */
            ex_spin_info_free(info);
            bad = parse(b1, l1, b2, l2, dumps, ndumps, t, info);
        }
        if (!bad && info->claim)
            bad = mark_unseen(b2, t);
        if (bad || (b3 && (ex_spin_channels(b3, t) != 0 || ex_locs_labels(t, b3) != 0)))
            rc = ex_errf(err, errlen, "out of memory while reading SPIN's replay of %s", trail);
    }
    ex_trace_free(&first);
    free_dumps(dumps, ndumps);
    free(b1);
    free(b2);
    free(b3);
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
            return *formula ? 0 : ex_errf(err, errlen, "out of memory");
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
    u_err why = {{0}};
    char *text = u_read_file(model, NULL, &why);
    if (!text)
        return ex_errf(err, errlen, "cannot read model %s", why.msg);
    int rc = ex_spin_mtypes(text, t);
    free(text);
    if (rc != 0)
        return ex_errf(err, errlen, "out of memory while reading %s", model);
    char *deftrail = trail ? NULL : u_fmt("%s.trail", model);
    if (!trail && !(trail = deftrail))
        return ex_errf(err, errlen, "out of memory");
    /* The trail is checked before spin sees it: a malformed line is named
     * here, not reported as a replay that stopped early. */
    long line_of, steps = 0;
    text = u_read_file(trail, NULL, &why);
    if (!text) {
        /* the default trail missing: the user has not run pan yet; say how */
        if (deftrail)
            ex_errf(err, errlen,
                    "cannot read trail %s (make one: spin -a %s && cc -o pan pan.c && ./pan -a, "
                    "which writes it when the formula fails; or give --trail FILE)",
                    why.msg, model);
        else
            ex_errf(err, errlen, "cannot read trail %s", why.msg);
        free(deftrail);
        return -1;
    }
    rc = ex_trail_read(text, trail, -1, &steps, &line_of, err, errlen);
    char *amodel = rc ? NULL : realpath(model, NULL), *atrail = rc ? NULL : realpath(trail, NULL);
    ex_spin_info info;
    memset(&info, 0, sizeof info);
    /* spin runs in a scratch directory: a path with a slash is made absolute (a bare
     * name is looked up on PATH) */
    char *aspin = rc == 0 && strchr(spin, '/') ? realpath(spin, NULL) : NULL;
    if (rc == 0 && (!amodel || !atrail))
        rc = ex_errf(err, errlen, "cannot resolve %s", amodel ? trail : model);
    else if (rc == 0 && strchr(spin, '/') && !aspin)
        rc = ex_errf(err, errlen, "cannot run '%s': %s (install SPIN or pass --spin PATH)", spin,
                     strerror(errno));
    else if (rc == 0)
        rc = ex_spin_runs(aspin ? aspin : spin, amodel, atrail, steps, t, &info, err, errlen);
    free(aspin);
    if (rc == 0 && (info.failed_transition || info.replayed < steps)) {
        /* spin goes on after "transition failed" (and counts those steps too): the
         * step that failed is the one after the last it had replayed then */
        long done = info.failed_transition ? info.failed_after
                    : info.replayed < 0    ? 0
                                           : info.replayed;
        ex_trail_read(text, trail, done, &steps, &line_of, err, errlen);
        rc = ex_errf(err, errlen,
                     "%s:%ld: trail does not match %s: SPIN's replay stopped after %ld of %ld "
                     "steps (a trail of another model or version; or, on a trail of this "
                     "model, SPIN's simulation evaluated the step otherwise than pan did, "
                     "as it does for _nr_pr beside a never claim and for _last)",
                     trail, line_of, model, done, steps);
    }
    if (rc == 0 && formula)
        rc = ex_pick_formula(model, ltl_name, &info, formula, err, errlen);
    ex_spin_info_free(&info);
    free(text);
    free(amodel);
    free(atrail);
    free(deftrail);
    return rc;
}
