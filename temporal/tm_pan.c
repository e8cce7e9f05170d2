/*
 * tm_pan.c - `pancause temporal model.pml --inputs a,b`: a Promela model as the
 * paper's reactive system, an acceptance-cycle trail as its lasso trace, and the
 * model's ltl formula (or --effect) as the effect (README "Temporal causes: SPIN
 * models" states every choice made here).
 *
 * The state graph is pan's own: in a scratch directory the model is compiled
 * with `spin -a -o2` (dead variables kept, so that every declared variable can
 * be an input or an output) and `make pan PANFLAGS=-DNOCLAIM` (the system
 * without the never claim: the effect is evaluated by this module's automata),
 * and `./pan -C --nearest-graph` writes the recorded graph with every state's
 * variable values (nearest/nr_graph.c).  From it:
 *   - the steps of the reactive system: when some state of the graph is a valid
 *     end state (every process at an `end` label or finished), those states are
 *     the step boundaries and one step is a path of pan moves from a boundary to
 *     the next (an atomic sequence, several processes' moves); otherwise every
 *     move is a step.  The letter of a step is the valuation of the inputs and
 *     of the effect's propositions in the state the step ends in (an AP is true
 *     when its variable is nonzero), which is the paper's Mealy letter: the
 *     input read and the outputs of the state entered;
 *   - the system is refused unless it is input-enabled (every input valuation
 *     is the input of some step from every reachable boundary), because the
 *     paper's definition quantifies over every input sequence; also refused: a
 *     step that can go on forever, a state pan did not expand;
 *   - the trace: the trail's system moves followed through the graph (claim
 *     moves skipped), its -1:-1:-1 line the start of the cycle; the lasso's
 *     letters are those of the boundaries it passes.  Without a trail (none
 *     given, none beside the model) an accepted lasso of the system times the
 *     effect's automaton is the trace.
 * The result is an ordinary tm_system and a trace and effect in Spot syntax, so
 * the cause is computed exactly as for a system given in HOA (tm_cli.c).
 */
#include "explain.h"
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

/* ---- the graph pan wrote ---- */

typedef struct {
    uint32_t dst; /* U_INVALID: the move violates (pan's sink) */
    int pr, tid;
} pedge;

/* Invariant: off has n + 1 entries, the moves of s are e[off[s] .. off[s+1]). */
typedef struct {
    uint32_t n, root;
    uint64_t *letter; /* over the APs */
    uint8_t *flags;   /* F_HAS: pan expanded it (values known); F_END: valid end */
    uint32_t *off;
    pedge *e;
    size_t ne;
    char **var; /* var[id]: its name, NULL for ids not written */
    size_t nvar;
} pgraph;

enum { F_HAS = 1, F_END = 2 };

static void pgraph_free(pgraph *g)
{
    free(g->letter), free(g->flags), free(g->off), free(g->e);
    for (size_t i = 0; i < g->nvar; i++)
        free(g->var[i]);
    free(g->var);
    memset(g, 0, sizeof *g);
}

/* Grows a per-state array to hold state s. */
static int grow_states(pgraph *g, uint32_t s, size_t *cap)
{
    if (s < *cap)
        return 0;
    size_t nc = *cap ? *cap : 64;
    while (nc <= s)
        nc *= 2;
    uint64_t *l = realloc(g->letter, nc * sizeof *l);
    if (l)
        g->letter = l;
    uint8_t *f = realloc(g->flags, nc);
    if (f)
        g->flags = f;
    if (!l || !f)
        return -1;
    memset(g->letter + *cap, 0, (nc - *cap) * sizeof *l);
    memset(g->flags + *cap, 0, nc - *cap);
    *cap = nc;
    return 0;
}

/* Edge sources while reading (the file lists them grouped by source). */
typedef struct {
    uint32_t *src;
    size_t cap;
} srcs;

/* Reads pan's graph; names[k] (nnames of them) are the variables of the APs:
 * AP k's bit is set in a state's letter when the variable is nonzero there.
 * A name that is no variable: -1 with *missing = k. */
static int read_graph(const char *path, char *const *names, int nnames, pgraph *g, int *missing,
                      u_err *err)
{
    memset(g, 0, sizeof *g);
    g->root = U_INVALID;
    *missing = -1;
    char *text = u_read_file(path, NULL, err);
    if (!text)
        return -1;
    size_t scap = 0, ecap = 0;
    srcs S = {0};
    int *apof = NULL; /* var id -> AP or -1 */
    size_t apcap = 0;
    int rc = -1;
    long lineno = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        unsigned long a, b;
        long pr, tid;
        int used = 0;
        char name[512], tgt[32];
        if (sscanf(line, "var %lu %511s", &a, name) == 2) {
            if (a >= 100000000)
                goto bad;
            if (a >= g->nvar) {
                size_t nn = (a + 1) * 2;
                char **v = realloc(g->var, nn * sizeof *v);
                int *ap = v ? realloc(apof, nn * sizeof *ap) : NULL;
                if (v)
                    g->var = v;
                if (!ap)
                    goto oom;
                apof = ap;
                for (size_t i = g->nvar; i < nn; i++)
                    g->var[i] = NULL, apof[i] = -1;
                g->nvar = nn;
                apcap = nn;
            }
            if (!(g->var[a] = u_fmt("%s", name)))
                goto oom;
            for (int k = 0; k < nnames; k++)
                if (!strcmp(names[k], name))
                    apof[a] = k;
        } else if (sscanf(line, "root %lu", &a) == 1) {
            g->root = (uint32_t)a;
        } else if (sscanf(line, "state %lu %lu%n", &a, &b, &used) == 2) {
            if (a >= UINT32_MAX - 2 || grow_states(g, (uint32_t)a, &scap))
                goto oom;
            g->flags[a] = F_HAS | (b ? F_END : 0);
            for (char *p = line + used; *p;) {
                unsigned long id;
                long v;
                int k = 0;
                if (sscanf(p, " %lu=%ld%n", &id, &v, &k) != 2 || k == 0)
                    goto bad;
                if (id < apcap && apof[id] >= 0 && v != 0)
                    g->letter[a] |= (uint64_t)1 << apof[id];
                p += k;
            }
        } else if (sscanf(line, "edge %lu %31s %ld %ld", &a, tgt, &pr, &tid) == 4) {
            if (g->ne == ecap) {
                size_t nc = ecap ? ecap * 2 : 256;
                pedge *e = realloc(g->e, nc * sizeof *e);
                uint32_t *s = e ? realloc(S.src, nc * sizeof *s) : NULL;
                if (e)
                    g->e = e;
                if (!s)
                    goto oom;
                S.src = s;
                ecap = nc;
            }
            uint32_t dst = strcmp(tgt, "sink") ? (uint32_t)strtoul(tgt, NULL, 10) : U_INVALID;
            if (dst != U_INVALID && grow_states(g, dst, &scap))
                goto oom;
            S.src[g->ne] = (uint32_t)a;
            g->e[g->ne++] = (pedge){dst, (int)pr, (int)tid};
        } else if (!strncmp(line, "claim ", 6)) {
            u_errf(err,
                   "%s:%ld: a never-claim move in the system's graph (pan was built with "
                   "its claim)",
                   path, lineno);
            goto done;
        } else if (strcmp(line, "end") && strcmp(line, "pancause-graph 1")) {
            goto bad;
        }
    }
    for (int k = 0; k < nnames; k++) {
        bool found = false;
        for (size_t i = 0; i < g->nvar && !found; i++)
            found = apof[i] == k;
        if (!found) {
            *missing = k; /* the caller names it */
            rc = 0;
            goto done;
        }
    }
    if (g->root == U_INVALID || grow_states(g, g->root, &scap)) {
        u_errf(err, "%s: pan recorded no initial state", path);
        goto done;
    }
    g->n = (uint32_t)scap;
    /* the moves by source (stable, so pan's order is kept) */
    if (!(g->off = calloc((size_t)g->n + 1, sizeof *g->off)))
        goto oom;
    for (size_t i = 0; i < g->ne; i++) {
        if (S.src[i] >= g->n)
            goto bad;
        g->off[S.src[i] + 1]++;
    }
    for (uint32_t s = 0; s < g->n; s++)
        g->off[s + 1] += g->off[s];
    for (size_t i = 1; i < g->ne; i++)
        if (S.src[i] < S.src[i - 1])
            goto bad; /* nr_graph.c writes each state's moves together */
    rc = 0;
    goto done;
bad:
    u_errf(err, "%s:%ld: not a line of pan's graph", path, lineno);
    goto done;
oom:
    u_oom(err);
done:
    free(S.src);
    free(apof);
    free(text);
    if (rc)
        pgraph_free(g);
    return rc;
}

/* "r0=1 r1=0 g0=1": the values of the APs in state s, for messages. */
static char *state_text(const pgraph *g, uint32_t s, const tm_aps *aps)
{
    char *t = u_fmt("%s", "");
    for (int k = 0; t && k < aps->n; k++) {
        char *n = u_fmt("%s%s%s=%d", t, k ? " " : "", aps->name[k], (int)(g->letter[s] >> k & 1));
        free(t);
        t = n;
    }
    return t;
}

/* ---- the reactive system's steps ---- */

/* Whether s is a step boundary. */
static bool boundary(const pgraph *g, bool by_end, uint32_t s)
{
    return !by_end || (g->flags[s] & F_END);
}

/* Scratch of one pass over the steps.  mark[s] is 2 * stamp while s is on the
 * current path, 2 * stamp + 1 once done (stamp: the search's number, from 1). */
typedef struct {
    const pgraph *g;
    bool by_end;
    uint64_t apmask;
    uint32_t *sys_of; /* pan state -> system state, U_INVALID */
    uint32_t *mark, *stack, *iter, *queue;
    size_t qt;
    tm_nba *a;
    const char *model;
    const tm_aps *aps;
} walk;

/* The system state of boundary t, made (and queued) when new. */
static uint32_t sys_state(walk *w, uint32_t t)
{
    if (w->sys_of[t] == U_INVALID) {
        w->sys_of[t] = tm_nba_add_state(w->a, true);
        w->queue[w->qt++] = t;
    }
    return w->sys_of[t];
}

/* The steps from boundary b: every boundary reached by a path of moves through
 * non-boundary states becomes an edge of the system labelled by its letter. */
static int steps_from(walk *w, uint32_t b, uint32_t stamp, u_err *err)
{
    const pgraph *g = w->g;
    size_t sp = 0;
    w->stack[sp] = b;
    w->iter[sp++] = g->off[b];
    while (sp) {
        uint32_t s = w->stack[sp - 1];
        if (w->iter[sp - 1] == g->off[s + 1]) {
            w->mark[s] = 2 * stamp + 1;
            sp--;
            continue;
        }
        const pedge *e = &g->e[w->iter[sp - 1]++];
        uint32_t t = e->dst;
        if (t == U_INVALID)
            continue; /* a violating move ends no step: it is on no infinite run */
        if (!(g->flags[t] & F_HAS))
            return u_errf(err,
                          "%s: pan did not expand its state %u (a depth limit?): the system "
                          "would be incomplete",
                          w->model, t);
        if (boundary(g, w->by_end, t)) {
            uint32_t q = sys_state(w, t);
            tm_cube c = {w->apmask, g->letter[t] & w->apmask};
            if (q == U_INVALID || tm_nba_add_edge(w->a, w->sys_of[b], q, c))
                return u_oom(err);
            continue;
        }
        if (w->mark[t] == 2 * stamp) {
            char *v = state_text(g, t, w->aps);
            u_errf(err,
                   "%s: the model can move forever without ending a step (no SPIN end state "
                   "is reached again), e.g. through pan's state %u (%s): each step of a "
                   "reactive system must end at an `end` label",
                   w->model, t, v ? v : "?");
            free(v);
            return -1;
        }
        if (w->mark[t] == 2 * stamp + 1)
            continue;
        w->mark[t] = 2 * stamp;
        w->stack[sp] = t;
        w->iter[sp++] = g->off[t];
    }
    return 0;
}

/* The system as HOA would give it: one state per boundary reachable by steps
 * (breadth-first from the root), every state accepting, edges labelled by full
 * valuations; then input-enabledness, which is refused with the state's values
 * named.  *sys_of (pan state -> system state) and *by_end are kept for the
 * trail. */
static int build_system(const pgraph *g, tm_aps *aps, uint64_t inputs, uint64_t outputs,
                        const char *model, tm_system *sys, uint32_t **sys_of_out, bool *by_end_out,
                        u_err *err)
{
    walk w = {.g = g, .apmask = inputs | outputs, .model = model, .aps = aps};
    for (uint32_t s = 0; s < g->n && !w.by_end; s++)
        w.by_end = (g->flags[s] & (F_HAS | F_END)) == (F_HAS | F_END);
    *sys_of_out = NULL;
    if (!(g->flags[g->root] & F_HAS))
        return u_errf(err, "%s: pan expanded no initial state", model);
    if (!boundary(g, w.by_end, g->root))
        return u_errf(err,
                      "%s: the initial state is not at an `end` label while other states are: "
                      "end labels mark where the reactive system's steps end, so the first "
                      "step must start at one",
                      model);
    w.sys_of = malloc((size_t)g->n * sizeof *w.sys_of);
    w.mark = calloc(g->n, sizeof *w.mark);
    w.stack = malloc((size_t)g->n * sizeof *w.stack);
    w.iter = malloc((size_t)g->n * sizeof *w.iter);
    w.queue = malloc((size_t)g->n * sizeof *w.queue);
    tm_hoa h;
    memset(&h, 0, sizeof h);
    tm_nba_init(&h.a, w.apmask);
    w.a = &h.a;
    int rc = -1;
    if (!w.sys_of || !w.mark || !w.stack || !w.iter || !w.queue) {
        u_oom(err);
        goto done;
    }
    for (uint32_t s = 0; s < g->n; s++)
        w.sys_of[s] = U_INVALID;
    if (sys_state(&w, g->root) == U_INVALID || tm_nba_add_init(&h.a, w.sys_of[g->root])) {
        u_oom(err);
        goto done;
    }
    for (size_t qh = 0; qh < w.qt; qh++)
        if (steps_from(&w, w.queue[qh], (uint32_t)qh + 1, err))
            goto done;
    for (size_t qh = 0; qh < w.qt; qh++) {
        uint32_t b = w.queue[qh];
        uint64_t v = tm_missing_input(&h.a, w.sys_of[b], inputs);
        if (v == UINT64_MAX - 1) {
            u_oom(err);
            goto done;
        }
        if (v != UINT64_MAX) {
            char *in = tm_letter_text(v, inputs, aps), *st = state_text(g, b, aps);
            u_errf(err,
                   "%s: not input-enabled: from pan's state %u (%s) no step reads the inputs "
                   "%s; the paper's causes quantify over every input sequence, so every input "
                   "valuation must be possible at every step (choose the inputs "
                   "nondeterministically at the start of each step)",
                   model, b, st ? st : "?", in ? in : "?");
            free(in), free(st);
            goto done;
        }
    }
    if (tm_aps_copy(&h.aps, aps)) {
        u_oom(err);
        goto done;
    }
    h.controllable = outputs;
    h.has_controllable = true;
    h.acc_all = true;
    rc = tm_system_from_hoa(&h, model, sys, err);
done:
    free(w.mark), free(w.stack), free(w.iter), free(w.queue);
    tm_hoa_free(&h);
    if (rc)
        free(w.sys_of);
    else
        *sys_of_out = w.sys_of, *by_end_out = w.by_end;
    return rc;
}

/* ---- the trace ---- */

/* Follows the trail's system moves through g from the root (with a claim, the
 * header's -2:N:-2, slot 0 is the claim: its moves are skipped and the other
 * slots shifted down, since g was recorded without it).  The positions the run
 * passes, the cycle starting at position L (the -1:-1:-1 line) and ending in
 * the state it started from; the lasso's letters are the boundaries among them. */
static int follow_trail(const pgraph *g, bool by_end, const char *trail, uint64_t apmask,
                        tm_lasso *w, u_err *err)
{
    memset(w, 0, sizeof *w);
    char *text = u_read_file(trail, NULL, err);
    if (!text)
        return -1;
    long steps, line_of;
    char msg[512];
    if (ex_trail_read(text, trail, -1, &steps, &line_of, msg, sizeof msg)) {
        free(text);
        return u_errf(err, "%s", msg);
    }
    uint32_t *pos = malloc(((size_t)steps + 1) * sizeof *pos);
    int rc = -1;
    if (!pos) {
        u_oom(err);
        goto done;
    }
    size_t n = 0, L = SIZE_MAX;
    pos[n++] = g->root;
    bool claim = false;
    long lineno = 0;
    /* the cycle mark first: a safety trail (an assert's, whose last move the graph
     * leaves out) is named as such, not as a trail of another model (fourth probe P4-6) */
    bool marked = false;
    for (const char *s = text; *s && !marked; s += strcspn(s, "\n"), s += *s == '\n')
        marked = strncmp(s, "-1:-1:-1", 8) == 0;
    if (!marked) {
        u_errf(err,
               "%s: not an acceptance cycle: no -1:-1:-1 line marks a cycle (make the trail "
               "with pan -a)",
               trail);
        goto done;
    }
    for (char *s = text; *s;) {
        size_t len = strcspn(s, "\n");
        long f[3];
        lineno++;
        if (sscanf(s, "%ld:%ld:%ld", &f[0], &f[1], &f[2]) == 3) {
            if (f[0] == -2)
                claim = true;
            else if (f[0] == -1)
                L = n - 1;
            else if (f[0] >= 0 && !(claim && f[1] == 0)) {
                long pr = f[1] - (claim ? 1 : 0);
                uint32_t at = pos[n - 1], to = U_INVALID;
                for (uint32_t e = g->off[at]; e < g->off[at + 1] && to == U_INVALID; e++)
                    if (g->e[e].pr == pr && g->e[e].tid == f[2] && g->e[e].dst != U_INVALID)
                        to = g->e[e].dst;
                if (to == U_INVALID) {
                    u_errf(err,
                           "%s:%ld: move %ld:%ld is no move of the model's state graph from "
                           "here (a trail of another model, or of a pan built otherwise)",
                           trail, lineno, f[1], f[2]);
                    goto done;
                }
                pos[n++] = to;
            }
        }
        s += len + (s[len] == '\n');
    }
    if (L == SIZE_MAX) {
        u_errf(err,
               "%s: not an acceptance cycle: no -1:-1:-1 line marks a cycle (make the trail "
               "with pan -a)",
               trail);
        goto done;
    }
    if (pos[n - 1] != pos[L]) {
        u_errf(err,
               "%s: not an acceptance cycle: the system's run ends in pan's state %u, not in "
               "%u where the cycle starts",
               trail, pos[n - 1], pos[L]);
        goto done;
    }
    size_t npre = 0, ncyc = 0;
    for (size_t k = 1; k < n; k++)
        if (boundary(g, by_end, pos[k]))
            *(k <= L ? &npre : &ncyc) += 1;
    if (ncyc == 0) {
        u_errf(err,
               "%s: the system's run %s on the trail's cycle: a reactive system runs forever "
               "(the cycle must complete a step)",
               trail, n - 1 == L ? "stops (a deadlock or every process ended)" : "ends no step");
        goto done;
    }
    w->pre = malloc((npre + 1) * sizeof *w->pre);
    w->cyc = malloc(ncyc * sizeof *w->cyc);
    if (!w->pre || !w->cyc) {
        u_oom(err);
        goto done;
    }
    for (size_t k = 1; k < n; k++)
        if (boundary(g, by_end, pos[k])) {
            uint64_t l = g->letter[pos[k]] & apmask;
            if (k <= L)
                w->pre[w->npre++] = l;
            else
                w->cyc[w->ncyc++] = l;
        }
    rc = 0;
done:
    if (rc)
        tm_lasso_free(w);
    free(pos);
    free(text);
    return rc;
}

/* An accepted lasso of the system times the effect: a trace on which the
 * effect holds (what pan -a finds for the negated specification). */
static int own_trace(const tm_system *sys, const char *effect, uint32_t budget, tm_lasso *w,
                     u_err *err)
{
    tm_ltl l;
    tm_ltl_init(&l);
    tm_nba e, prod;
    tm_nba_init(&e, 0);
    tm_nba_init(&prod, 0);
    tm_aps aps = sys->aps;
    int rc = -1;
    int f = tm_ltl_parse(&l, effect, &aps, false, "the effect", err);
    if (f >= 0 && !tm_ltl_to_nba(&l, f, sys->inputs | sys->outputs, budget, &e, err) &&
        !tm_nba_intersect(&sys->a, &e, budget, &prod, err)) {
        int empty = tm_nba_empty(&prod, w, err);
        if (empty == 1)
            u_errf(err, "%s: no run of the system shows the effect %s: nothing to explain",
                   sys->file, effect);
        rc = empty == 0 ? 0 : -1;
    }
    tm_nba_free(&e), tm_nba_free(&prod);
    tm_ltl_free(&l);
    return rc;
}

/* ---- the front end ---- */

/* "ltl NAME: TEXT" lines of spin -a's output: the text of the named formula
 * (or the only one); fresh memory, or NULL with err. */
static char *pick_ltl(const char *log, const char *model, const char *want, u_err *err)
{
    char *found = NULL, names[256] = "";
    int count = 0;
    for (const char *s = log; s && *s;) {
        size_t len = strcspn(s, "\n");
        const char *colon = memchr(s, ':', len);
        if (len > 4 && !strncmp(s, "ltl ", 4) && colon) {
            size_t nl = (size_t)(colon - s - 4);
            count++;
            if (strlen(names) + nl + 3 < sizeof names)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%.*s",
                         count > 1 ? ", " : "", (int)nl, s + 4);
            if (!found && (!want || (strlen(want) == nl && !strncmp(s + 4, want, nl)))) {
                found = u_fmt("%.*s", (int)(len - nl - 5), colon + 1);
                if (!found) {
                    u_oom(err);
                    return NULL;
                }
            }
        }
        s += len + (s[len] == '\n');
    }
    if (found && (want || count == 1))
        return found;
    free(found);
    if (count == 0)
        u_errf(err, "%s has no ltl formula; give the effect with --effect LTL", model);
    else if (!want)
        u_errf(err, "%s has several ltl formulas (%s); choose one with --ltl NAME", model, names);
    else
        u_errf(err, "%s has no ltl formula named '%s' (it has: %s)", model, want, names);
    return NULL;
}

/* Splits --inputs a,b,c into names (distinct, at most TM_MAX_INPUTS). */
static int split_inputs(const char *list, char ***names, int *n, u_err *err)
{
    *names = NULL;
    *n = 0;
    char **v = calloc(TM_MAX_INPUTS + 1, sizeof *v);
    if (!v)
        return u_oom(err);
    *names = v;
    for (const char *s = list;;) {
        size_t len = strcspn(s, ",");
        if (len == 0)
            return u_errf(err, "--inputs: an empty name in '%s'", list);
        if (*n == TM_MAX_INPUTS)
            return u_errf(err, "--inputs: at most %d inputs", TM_MAX_INPUTS);
        if (!(v[*n] = u_fmt("%.*s", (int)len, s)))
            return u_oom(err);
        for (int k = 0; k < *n; k++)
            if (!strcmp(v[k], v[*n]))
                return u_errf(err, "--inputs: %s is named twice", v[k]);
        (*n)++;
        if (!s[len])
            return 0;
        s += len + 1;
    }
}

/* Runs a step of the build in w (its output in log); on failure the output is
 * shown and err says which step failed. */
static int step(const char *w, char *const *argv, const char *log, const char *what, u_err *err)
{
    int rc = u_run(w, argv, log);
    if (rc == 0)
        return 0;
    u_show_log(log);
    return u_errf(err, "%s failed (exit %d; its output is above)", what, rc);
}

static int in_scratch(const tm_pan_options *o, const char *root, const char *w, const char *base,
                      tm_system *sys, char **trace, char **effect, u_err *err)
{
    char *log = u_fmt("%s/step.log", w), *mk = u_fmt("%s/Makefile", root);
    char *graph = u_fmt("%s/graph.txt", w), *spinout = NULL, **names = NULL;
    int nin = 0, rc = -1;
    tm_aps aps = {0};
    tm_ltl l;
    tm_ltl_init(&l);
    pgraph g = {0};
    uint32_t *sys_of = NULL;
    tm_lasso lasso = {0};
    if (!log || !mk || !graph) {
        u_oom(err);
        goto done;
    }
    if (split_inputs(o->inputs, &names, &nin, err))
        goto done;
    char *sp = u_spin();
    char *spin[] = {sp, "-a", "-o2", (char *)base, NULL};
    int src = sp ? step(w, spin, log, "spin -a", err) : u_oom(err);
    free(sp);
    if (src)
        goto done;
    if (!(spinout = u_read_file(log, NULL, err)))
        goto done;
    if (o->effect)
        *effect = u_fmt("%s", o->effect);
    else {
        char *f = pick_ltl(spinout, o->model, o->ltl, err);
        if (!f)
            goto done;
        *effect = u_fmt("!(%s)", f);
        free(f);
    }
    if (!*effect) {
        u_oom(err);
        goto done;
    }
    /* the APs: the inputs first, then the effect's other propositions (outputs) */
    for (int k = 0; k < nin; k++)
        if (tm_aps_add(&aps, names[k], strlen(names[k]), err) < 0)
            goto done;
    int f = tm_ltl_parse(&l, *effect, &aps, true, o->effect ? "--effect" : "the ltl formula", err);
    if (f < 0) {
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n,
                 " (an effect's propositions are the model's variables, true when nonzero)");
        goto done;
    }
    /* POR=0: the lassos are read off the whole graph, every interleaving (the
     * reduction's guarantees are about the causality analysis's traces) */
    char *make[] = {"make",          "-s",    "-f", mk, "pan", "PANFLAGS=-DNOCLAIM",
                    "CAUSAL_ONLY=1", "POR=0", NULL};
    if (step(w, make, log, "make pan", err))
        goto done;
    char *pan[] = {"./pan", "-C", "--nearest-graph", graph, NULL};
    if (step(w, pan, log, "./pan -C --nearest-graph", err))
        goto done;
    int missing;
    if (read_graph(graph, aps.name, aps.n, &g, &missing, err))
        goto done;
    if (missing >= 0) {
        u_errf(err, "%s: %s %s is no variable of the model (global variables by name)", o->model,
               missing < nin ? "the input" : "the effect's proposition", aps.name[missing]);
        goto done;
    }
    uint64_t all = aps.n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << aps.n) - 1);
    uint64_t inputs = ((uint64_t)1 << nin) - 1;
    bool by_end = false;
    if (build_system(&g, &aps, inputs, all & ~inputs, o->model, sys, &sys_of, &by_end, err))
        goto done;
    char *trail = o->trail ? u_fmt("%s", o->trail) : u_fmt("%s.trail", o->model);
    if (!trail) {
        u_oom(err);
        goto done;
    }
    if (o->trail || u_is_file(trail))
        rc = follow_trail(&g, by_end, trail, all, &lasso, err);
    else
        rc = own_trace(sys, *effect, o->budget, &lasso, err);
    free(trail);
    if (rc == 0 && !(*trace = tm_lasso_text(&lasso, all, &aps)))
        rc = u_oom(err);
done:
    tm_lasso_free(&lasso);
    free(sys_of);
    pgraph_free(&g);
    tm_ltl_free(&l);
    tm_aps_free(&aps);
    for (int k = 0; names && k < TM_MAX_INPUTS; k++)
        free(names[k]);
    free(names);
    free(spinout), free(log), free(mk), free(graph);
    return rc;
}

int tm_pan_problem(const tm_pan_options *o, tm_system *sys, char **trace, char **effect, u_err *err)
{
    *trace = *effect = NULL;
    memset(sys, 0, sizeof *sys);
    if (!u_is_file(o->model))
        return u_errf(err, "cannot read the model %s", o->model);
    if (o->trail && !u_is_file(o->trail))
        return u_errf(err, "cannot read the trail %s", o->trail);
    char *root = u_project_root();
    if (!root)
        return u_errf(err, "cannot find the pancause sources for `make pan` (set PANCAUSE_ROOT "
                           "to the directory with the Makefile)");
    char *w = u_scratch_open("temporal", o->model, o->keep, err);
    int rc = w ? in_scratch(o, root, w, u_base_name(o->model), sys, trace, effect, err) : -1;
    if (rc) {
        free(*trace), free(*effect);
        *trace = *effect = NULL;
        tm_system_free(sys);
    }
    u_scratch_close("temporal", w, o->keep);
    free(root);
    return rc;
}
