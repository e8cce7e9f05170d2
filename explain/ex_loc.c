/* ex_loc: where each process of a SPIN trace is, for remote label references.
 *
 * SPIN's `P[k]@L` holds where process k (pid k, a P) is at label L of proctype P,
 * and `P@L` where the first running P (the lowest pid: pan's f_pid) is; the classic
 * mutual exclusion property `[] !(P[0]@crit && P[1]@crit)` is written so.  SPIN's
 * replay prints no variable for it, but it prints where each process moves from:
 * a step line names the pid, its proctype and the state it leaves ("proc 1 (P:1)
 * m.pml:6 (state 3)"), and every dump (`#processes:`, the initial one, the one after
 * each step that starts a process, and the replay's last) lists each running
 * process with its state.  A process stays where it is until it moves, so its state
 * at a trace position is the state its next move leaves, or the last listing's when
 * it does not move again; it runs from the listing that first shows it to the step
 * where it terminates ("proc 1 terminates").  Labels' states come from `spin -d`
 * ("label crit 3 <P>").  The readers (ex_spin.c) hand these facts over as events;
 * a formula's `P[k]@L` becomes a 0/1 column of the trace when it is bound (ex_bind.c).
 *
 * Invariants:
 *   1. events arrive in nondecreasing step order (the order of the replay);
 *   2. a listing's entries follow its LISTING event, at the same step, and the
 *      running set there is exactly the listed one;
 *   3. the table (built once, on the first column) has nsteps * npids cells; a cell is
 *      a state number, EX_LOC_END (terminating), or EX_LOC_GONE (not running).
 */
#include "explain.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LISTING, LISTED, MOVE, END };
#define EX_LOC_GONE (-1)
#define EX_LOC_END  (-2)

typedef struct {
    size_t step;
    int kind, pid, ptype, state;
} event;

typedef struct {
    int ptype, state;
    char *name;
} label;

struct ex_locs {
    event *ev;
    size_t nev, capev;
    char **ptypes; /* proctype names, "init" for SPIN's ":init:" */
    size_t nptypes, capptypes;
    label *labels;
    size_t nlabels, caplabels;
    int npids;
    size_t nsteps; /* of the table, 0 until it is built */
    int *state, *type;
};

void ex_locs_free(ex_locs *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->nptypes; i++)
        free(l->ptypes[i]);
    for (size_t i = 0; i < l->nlabels; i++)
        free(l->labels[i].name);
    free(l->ptypes);
    free(l->labels);
    free(l->ev);
    free(l->state);
    free(l->type);
    free(l);
}

/* The proctype's index, interning it (a linear search: models have few); -1 OOM. */
static int ptype_of(ex_locs *l, const char *s, size_t n)
{
    if (n == 6 && !strncmp(s, ":init:", 6))
        s = "init", n = 4;
    for (size_t i = 0; i < l->nptypes; i++)
        if (strlen(l->ptypes[i]) == n && !strncmp(l->ptypes[i], s, n))
            return (int)i;
    char *d = strndup(s, n);
    if (!d || U_GROW(l->ptypes, l->capptypes, l->nptypes)) {
        free(d);
        return -1;
    }
    l->ptypes[l->nptypes] = d;
    return (int)l->nptypes++;
}

static ex_locs *locs(ex_trace *t)
{
    if (!t->locs)
        t->locs = calloc(1, sizeof *t->locs);
    return t->locs;
}

static int add(ex_trace *t, size_t step, int kind, int pid, int ptype, int state)
{
    ex_locs *l = locs(t);
    if (!l || U_GROW(l->ev, l->capev, l->nev))
        return -1;
    l->ev[l->nev++] = (event){step, kind, pid, ptype, state};
    if (pid + 1 > l->npids)
        l->npids = pid + 1;
    return 0;
}

/* "  12:\tproc  1 (P:1) m.pml:6 (state 3)..." or "   8: proc 1 terminates": 1 with the
 * fields (*ptype -1 for a termination, *state EX_LOC_END), 0 for another line (the
 * never claim's "proc  -"), -1 out of memory. */
static int proc_line(ex_locs *l, const char *line, int *pid, int *ptype, int *state)
{
    ex_spin_proc pl;
    int kind = ex_spin_proc_line(line, &pl);
    if (!kind || pl.pid > 65535)
        return 0;
    *pid = (int)pl.pid;
    if (kind == 2) {
        *ptype = -1;
        *state = EX_LOC_END;
        return 1;
    }
    const char *st = strstr(pl.rest, "(state ");
    char *end;
    long v = st ? strtol(st + 7, &end, 10) : -1;
    if (!st || end == st + 7 || v < 0 || v > 1000000)
        return 0;
    *state = (int)v;
    return (*ptype = ptype_of(l, pl.type, pl.ntype)) < 0 ? -1 : 1;
}

int ex_locs_begin(ex_trace *t, size_t step)
{
    return add(t, step, LISTING, 0, -1, 0);
}

int ex_locs_line(ex_trace *t, size_t step, const char *line, bool listed)
{
    ex_locs *l = locs(t);
    int pid, ptype, state;
    int rc = l ? proc_line(l, line, &pid, &ptype, &state) : -1;
    if (rc <= 0 || (listed && ptype < 0))
        return rc < 0 ? -1 : 0;
    return add(t, step, listed ? LISTED : ptype < 0 ? END : MOVE, pid, ptype, state);
}

int ex_locs_listing(ex_trace *t, size_t step, const char *text)
{
    const char *at = strstr(text, "#processes:");
    if (!at)
        return 0;
    if (ex_locs_begin(t, step))
        return -1;
    for (const char *s = at; *s;) {
        size_t len = strcspn(s, "\n");
        char *line = strndup(s, len);
        if (!line || ex_locs_line(t, step, line, true)) {
            free(line);
            return -1;
        }
        free(line);
        s += len + (s[len] == '\n');
    }
    return 0;
}

int ex_locs_labels(ex_trace *t, const char *symtab)
{
    ex_locs *l = locs(t);
    if (!l)
        return -1;
    for (const char *s = symtab; *s;) {
        size_t len = strcspn(s, "\n");
        /* label\tNAME\tSTATE\t<SCOPE ...>\t... */
        if (!strncmp(s, "label\t", 6)) {
            const char *n = s + 6, *tab = memchr(n, '\t', len - 6);
            char *end;
            long st = tab ? strtol(tab + 1, &end, 10) : -1;
            const char *lt = tab && st >= 0 ? memchr(end, '<', (size_t)(s + len - end)) : NULL;
            size_t plen = lt ? strcspn(lt + 1, " >\n") : 0;
            if (lt && plen) {
                int pt = ptype_of(l, lt + 1, plen);
                char *name = strndup(n, (size_t)(tab - n));
                if (pt < 0 || !name || U_GROW(l->labels, l->caplabels, l->nlabels)) {
                    free(name);
                    return -1;
                }
                l->labels[l->nlabels++] = (label){pt, (int)st, name};
            }
        }
        s += len + (s[len] == '\n');
    }
    return 0;
}

/* The table (invariant 3): running sets forward from the listings and terminations,
 * states backward from the moves and the listings. */
static int build(ex_locs *l, size_t nsteps)
{
    size_t np = (size_t)l->npids, cells = nsteps * np;
    l->state = malloc((cells ? cells : 1) * sizeof *l->state);
    l->type = malloc((cells ? cells : 1) * sizeof *l->type);
    int *run = calloc(np ? np : 1, sizeof *run), *cur = malloc((np ? np : 1) * sizeof *cur);
    if (!l->state || !l->type || !run || !cur) {
        free(run), free(cur);
        return -1;
    }
    /* forward: who runs, and as what (run[p] = 1 + proctype) */
    size_t e = 0;
    for (size_t s = 0; s < nsteps; s++) {
        for (; e < l->nev && l->ev[e].step <= s; e++) {
            const event *v = &l->ev[e];
            if (v->kind == LISTING)
                memset(run, 0, np * sizeof *run);
            else if (v->kind == END)
                run[v->pid] = 0;
            else
                run[v->pid] = 1 + v->ptype;
        }
        for (size_t p = 0; p < np; p++)
            l->type[s * np + p] = run[p] - 1;
    }
    /* backward: where; a position's state is the one its process's next move leaves */
    for (size_t p = 0; p < np; p++)
        cur[p] = EX_LOC_GONE;
    e = l->nev;
    for (size_t s = nsteps; s-- > 0;) {
        size_t first = e; /* this step's events: [first, e) */
        while (first > 0 && l->ev[first - 1].step >= s)
            first--;
        for (size_t k = first; k < e; k++)
            if (l->ev[k].kind == LISTED && l->ev[k].step == s)
                cur[l->ev[k].pid] = l->ev[k].state;
        for (size_t p = 0; p < np; p++)
            l->state[s * np + p] = l->type[s * np + p] < 0 ? EX_LOC_GONE : cur[p];
        for (size_t k = first; k < e; k++) /* before step s the mover was where it left */
            if ((l->ev[k].kind == MOVE || l->ev[k].kind == END) && l->ev[k].step == s)
                cur[l->ev[k].pid] = l->ev[k].kind == MOVE ? l->ev[k].state : EX_LOC_END;
        e = first;
    }
    free(run), free(cur);
    l->nsteps = nsteps;
    return 0;
}

int ex_locs_column(ex_trace *t, const char *name, char *err, size_t errlen)
{
    /* NAME['['K']']@LABEL, as the formula parser writes it */
    const char *at = strchr(name, '@'), *lb = strchr(name, '[');
    if (!at || strchr(at + 1, '@') || strpbrk(at + 1, "[].:"))
        return snprintf(err, errlen, "'%s' is not a remote label reference P[pid]@label", name), -1;
    ex_locs *l = t->locs;
    if (!l || !l->nev)
        return snprintf(err, errlen,
                        "'%s': this trace does not say where processes are (a SPIN replay does)",
                        name),
               -1;
    size_t plen = (size_t)((lb && lb < at ? lb : at) - name);
    long want = -1;
    if (lb && lb < at)
        want = strtol(lb + 1, NULL, 10);
    int pt = -1;
    for (size_t i = 0; i < l->nptypes && pt < 0; i++)
        if (strlen(l->ptypes[i]) == plen && !strncmp(l->ptypes[i], name, plen))
            pt = (int)i;
    int st = -1;
    for (size_t i = 0; pt >= 0 && i < l->nlabels && st < 0; i++)
        if (l->labels[i].ptype == pt && !strcmp(l->labels[i].name, at + 1))
            st = l->labels[i].state;
    if (st < 0)
        return snprintf(err, errlen, "'%s': proctype %.*s has no label %s", name, (int)plen, name,
                        at + 1),
               -1;
    if (!l->nsteps && build(l, t->nsteps))
        return snprintf(err, errlen, "out of memory"), -1;
    int col = ex_trace_var(t, name);
    if (col < 0)
        return snprintf(err, errlen, "out of memory"), -1;
    size_t np = (size_t)l->npids;
    for (size_t s = 0; s < t->nsteps; s++) {
        long pid = want;
        if (pid < 0) /* P@L: the first running P, as pan's f_pid */
            for (size_t p = 0; p < np && pid < 0; p++)
                if (l->type[s * np + p] == pt)
                    pid = (long)p;
        int v = 0;
        if (pid >= 0 && (size_t)pid < np && l->type[s * np + (size_t)pid] >= 0) {
            if (l->type[s * np + (size_t)pid] != pt)
                return snprintf(err, errlen,
                                "'%s': pid %ld runs proctype %s, not %.*s, at trace position "
                                "%zu (pan would compare its state with the label's anyway)",
                                name, pid, l->ptypes[l->type[s * np + (size_t)pid]], (int)plen,
                                name, s),
                       -1;
            v = l->state[s * np + (size_t)pid] == st;
        }
        t->vars[col].v[s] = v;
    }
    t->vars[col].defined_from = 0;
    return col;
}
