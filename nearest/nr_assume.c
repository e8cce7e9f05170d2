/*
 * nr_assume.c - `--assume EXPR`: a condition every state of the successful run b must
 * satisfy.  Groce's `explain` has the same option (thesis section 5.1.1): the nearest
 * successful run sometimes avoids the error in a way that is of no use to compare with
 * the counterexample (it switches the feature off, it changes the input so that the
 * faulty code never runs), and an assumption takes those runs out of the comparison.
 * Promela cannot say this itself: a condition that fails blocks its process, which is an
 * invalid end state, or a valid one (then a success) under an end label.
 *
 * EXPR is read by the parser of `pancause explain`'s ltl formulas (explain/ex_ltl.h,
 * SPIN dialect), so that one language and one fuzzed parser serve both commands: the
 * propositions are Promela expressions over the model's variables, as SPIN writes them
 * (`x`, `a[2]`, `P[1]:y`, `P:y` when one process runs P, `len(q)`, mtype names),
 * joined by ! && || -> <->.  Temporal operators are refused: an assumption is a
 * condition on one state.  Indices are constants, as in explain; division by zero is
 * 0, as there (README "pancause explain").
 *
 *   text --nr_assume_parse--> formula --nr_assume_bind--> bound --nr_assume_holds--> 1/0/-1
 *         (syntax, both front ends,    (names to the model's    (one recorded state)
 *          before pan runs)             variables, after it)
 *
 * A comparison that names a variable not existing in a state (its process is not
 * running there, or not yet) is unknown there, and the connectives decide what they can
 * as in Kleene's logic (false && unknown is false, true || unknown is true); a state
 * where the whole assumption stays unknown is not restricted by it: an assumption about
 * process 2's x says nothing before process 2 exists, and `y == 0 && P[2]:x == 1` still
 * says y == 0 there.
 *
 * Invariants: after bind, every variable leaf of the formula's propositions has var =
 * its column c < ncol, col[c] the model's variable (len[c]: its channel's length is
 * meant); no two columns name the same variable; pcol[p][0 .. npcol[p]) are the
 * columns proposition p reads.
 */
#include "nr_internal.h"

#include "ex_ltl.h"

#include <stdlib.h>
#include <string.h>

struct nr_assume {
    char *text;
    ex_ltl l;
    int root;
    /* after bind */
    const nr_model *m;
    uint32_t *col;
    bool *len;
    size_t ncol;
    int64_t *row;
    bool *have; /* per column, in the state being evaluated: the variable exists */
    uint32_t *pcol[EX_MAX_PROPS];
    size_t npcol[EX_MAX_PROPS];
};

/* The expression as messages show it: at most 60 characters, "..." after a cut (the
 * message must keep room for what follows). */
typedef struct {
    char s[72];
} shown;

static shown show(const char *text)
{
    shown o;
    size_t n = strlen(text);
    snprintf(o.s, sizeof o.s, "%.*s%s", (int)(n > 60 ? 60 : n), text, n > 60 ? "..." : "");
    return o;
}

void nr_assume_free(nr_assume *A)
{
    if (!A)
        return;
    free(A->text);
    ex_ltl_free(&A->l);
    free(A->col);
    free(A->len);
    free(A->row);
    free(A->have);
    for (int p = 0; p < EX_MAX_PROPS; p++)
        free(A->pcol[p]);
    free(A);
}

/* The first temporal operator under node f, or NULL when there is none. */
static const char *temporal(const ex_ltl *l, int f)
{
    static const char *const NAME[] = {
        [EX_L_X] = "X (next)",  [EX_L_F] = "<> (eventually)", [EX_L_G] = "[] (always)",
        [EX_L_U] = "U (until)", [EX_L_W] = "W (weak until)",  [EX_L_R] = "V (release)"};
    if (f < 0)
        return NULL;
    const ex_lnode *n = &l->n[f];
    if (n->op >= EX_L_X)
        return NAME[n->op];
    const char *t = temporal(l, n->a);
    return t ? t : temporal(l, n->b);
}

int nr_assume_parse(const char *text, nr_assume **out, u_err *err)
{
    *out = NULL;
    nr_assume *A = calloc(1, sizeof *A);
    if (!A || !(A->text = strdup(text))) {
        free(A);
        return u_oom(err);
    }
    ex_ltl_init(&A->l);
    char msg[256];
    const char *t;
    A->root = ex_ltl_parse(&A->l, text, EX_DIALECT_SPIN, msg, sizeof msg);
    int rc = 0;
    if (A->root < 0)
        rc = u_errf(err, "--assume \"%s\": %s", show(text).s, msg);
    else if ((t = temporal(&A->l, A->root)))
        rc = u_errf(err,
                    "--assume \"%s\": %s is temporal: an assumption is a condition on one state",
                    show(text).s, t);
    if (rc) {
        nr_assume_free(A);
        return -1;
    }
    *out = A;
    return 0;
}

int nr_assume_check(const char *text, u_err *err)
{
    nr_assume *A;
    if (nr_assume_parse(text, &A, err))
        return -1;
    nr_assume_free(A);
    return 0;
}

int nr_assume_add(const char **list, int *n, const char *text, u_err *err)
{
    if (!text || *n == NR_MAX_ASSUME)
        return u_errf(err, "--assume needs an expression, and at most %d of them", NR_MAX_ASSUME);
    if (nr_assume_check(text, err))
        return -1;
    list[(*n)++] = text;
    return 0;
}

/* ---- binding ---- */

static uint32_t find_var(const nr_model *m, const char *name)
{
    for (size_t v = 0; v < m->nvars; v++)
        if (m->var[v].kind != NR_V_PC && !strcmp(m->var[v].name, name))
            return (uint32_t)v;
    return NR_NONE;
}

/* The variable a leaf's name means: "x", "a[2]", "P[1]:y" (the model's "P(1):y") or
 * "P:y" (the one pid with a P(pid):y).  NR_NONE with err when there is none. */
static uint32_t resolve(const nr_assume *A, const char *name, u_err *err)
{
    const nr_model *m = A->m;
    const char *colon = strchr(name, ':');
    if (!colon) {
        uint32_t v = find_var(m, name);
        if (v == NR_NONE) {
            size_t b = strcspn(name, "[.");
            for (size_t k = 0; k < m->nvars; k++)
                if (m->var[k].pid >= 0 && m->var[k].kind != NR_V_PC &&
                    strlen(m->var[k].base) == b && !strncmp(m->var[k].base, name, b)) {
                    const char *p = nr_proc_name(m, m->var[k].proctype);
                    u_errf(err, "--assume \"%s\": %s is local to %s: name its process, %s[pid]:%s",
                           show(A->text).s, name, p, p, name);
                    return NR_NONE;
                }
            u_errf(err,
                   "--assume \"%s\": the model has no global variable or mtype %s (SPIN "
                   "leaves out a variable that nothing in the model reads)",
                   show(A->text).s, name);
        }
        return v;
    }
    size_t plen = strcspn(name, "[:");
    int pt = -1;
    for (int p = 0; p < m->nprocs; p++)
        if (strlen(m->procnames[p]) == plen && !strncmp(m->procnames[p], name, plen))
            pt = p;
    if (pt < 0) {
        u_errf(err, "--assume \"%s\": the model has no proctype %.*s", show(A->text).s, (int)plen,
               name);
        return NR_NONE;
    }
    const char *local = colon + 1;
    if (name[plen] == '[') { /* P[pid]:y; the parser wrote the index as a number */
        long long pid = strtoll(name + plen + 1, NULL, 10);
        char *full = pid >= 0 && pid <= INT32_MAX
                         ? u_fmt("%s(%lld):%s", m->procnames[pt], pid, local)
                         : NULL;
        uint32_t v = full ? find_var(m, full) : NR_NONE;
        if (v == NR_NONE)
            u_errf(err, "--assume \"%s\": no process %.*s[%lld] has a variable %s", show(A->text).s,
                   (int)plen, name, pid, local);
        free(full);
        return v;
    }
    uint32_t found = NR_NONE; /* P:y */
    for (size_t k = 0; k < m->nvars; k++) {
        const char *n = m->var[k].name, *c = strchr(n, ':');
        if (m->var[k].proctype != pt || m->var[k].kind == NR_V_PC || !c || strcmp(c + 1, local))
            continue;
        if (found != NR_NONE) {
            u_errf(err, "--assume \"%s\": several processes run %.*s: name one, %.*s[pid]:%s",
                   show(A->text).s, (int)plen, name, (int)plen, name, local);
            return NR_NONE;
        }
        found = (uint32_t)k;
    }
    if (found == NR_NONE)
        u_errf(err, "--assume \"%s\": no process of proctype %.*s has a variable %s",
               show(A->text).s, (int)plen, name, local);
    return found;
}

typedef struct {
    nr_assume *A;
    u_err *err;
    int prop; /* the proposition being bound */
} binder;

static void bind_leaf(ex_expr *e, void *ctx)
{
    binder *b = ctx;
    nr_assume *A = b->A;
    if (u_failed(b->err))
        return;
    const nr_model *m = A->m;
    bool len = !strncmp(e->name, "len(", 4);
    char *name = len ? strndup(e->name + 4, strlen(e->name) - 5) : strdup(e->name);
    if (!name) {
        u_oom(b->err);
        return;
    }
    for (size_t k = 0; !len && !strchr(name, ':') && k < m->nmtypes; k++)
        if (!strcmp(m->mtype[k].name, name) && find_var(m, name) == NR_NONE) {
            e->kind = EX_E_NUM; /* an mtype constant */
            e->num = m->mtype[k].value;
            free(name);
            return;
        }
    uint32_t v = resolve(A, name, b->err);
    if (v != NR_NONE && (m->var[v].kind == NR_V_CHAN) != len)
        u_errf(b->err, "--assume \"%s\": %s is %s", show(A->text).s, name,
               len ? "no channel (len() needs one)" : "a channel: compare its length, len(...)");
    free(name);
    if (u_failed(b->err))
        return;
    size_t c = 0;
    while (c < A->ncol && !(A->col[c] == v && A->len[c] == len))
        c++;
    if (c == A->ncol) {
        A->col[c] = v;
        A->len[c] = len;
        A->ncol++;
    }
    e->var = (int)c;
    A->pcol[b->prop][A->npcol[b->prop]++] = (uint32_t)c;
}

static void count_leaf(ex_expr *e, void *ctx)
{
    (void)e;
    ++*(size_t *)ctx;
}

int nr_assume_bind(nr_assume *A, const nr_model *m, u_err *err)
{
    size_t leaves = 0; /* columns: at most one per leaf */
    for (int p = 0; p < A->l.nprops; p++)
        ex_expr_each_var(A->l.props[p].expr, count_leaf, &leaves);
    A->m = m;
    A->ncol = 0;
    if (!(A->col = malloc((leaves + 1) * sizeof *A->col)) ||
        !(A->len = malloc((leaves + 1) * sizeof *A->len)) ||
        !(A->have = malloc((leaves + 1) * sizeof *A->have)) ||
        !(A->row = calloc(leaves + 1, sizeof *A->row)))
        return u_oom(err);
    u_err e = {{0}}; /* its own: a message already in err must not read as a failure */
    binder b = {A, &e, 0};
    for (int p = 0; p < A->l.nprops && !u_failed(&e); p++) {
        size_t n = 0;
        ex_expr_each_var(A->l.props[p].expr, count_leaf, &n);
        if (!(A->pcol[p] = malloc((n + 1) * sizeof *A->pcol[p])))
            return u_oom(err);
        b.prop = p;
        ex_expr_each_var(A->l.props[p].expr, bind_leaf, &b);
    }
    return u_failed(&e) ? u_errf(err, "%s", e.msg) : 0;
}

/* ---- evaluation ---- */

/* The channel value v's length: the messages in its interned key (after the id, each
 * message's count of fields and then its fields). */
static int64_t chan_len(const nr_model *m, int32_t v)
{
    const int32_t *key = u_intern_key(&m->chans, (uint32_t)v);
    size_t n = u_intern_len(&m->chans, (uint32_t)v) / sizeof *key;
    int64_t len = 0;
    for (size_t k = 1; k < n && key[k] >= 0; k += (size_t)key[k] + 1)
        len++;
    return len;
}

/* Kleene's three values: 1, 0, and U (unknown: a comparison over an absent variable). */
enum { U = -1 };

static int not3(int a)
{
    return a == U ? U : !a;
}

static int and3(int a, int b)
{
    return !a || !b ? 0 : a == U || b == U ? U : 1;
}

static int truth(const nr_assume *A, int f)
{
    const ex_lnode *n = &A->l.n[f];
    switch (n->op) {
    case EX_L_TRUE:
        return 1;
    case EX_L_PROP:
        for (size_t k = 0; k < A->npcol[n->prop]; k++)
            if (!A->have[A->pcol[n->prop][k]])
                return U;
        return ex_expr_eval(A->l.props[n->prop].expr, A->row) != 0;
    case EX_L_NOT:
        return not3(truth(A, n->a));
    case EX_L_AND:
        return and3(truth(A, n->a), truth(A, n->b));
    case EX_L_OR:
        return not3(and3(not3(truth(A, n->a)), not3(truth(A, n->b))));
    case EX_L_IMPL:
        return not3(and3(truth(A, n->a), not3(truth(A, n->b))));
    case EX_L_EQUIV: {
        int a = truth(A, n->a), b = truth(A, n->b);
        return a == U || b == U ? U : a == b;
    }
    default: /* EX_L_FALSE; temporal operators were refused */
        return 0;
    }
}

int nr_assume_holds(const nr_assume *A, uint32_t s)
{
    for (size_t c = 0; c < A->ncol; c++) {
        int32_t v;
        A->have[c] = nr_value(A->m, s, A->col[c], &v);
        A->row[c] = !A->have[c] ? 0 : A->len[c] ? chan_len(A->m, v) : v;
    }
    return truth(A, A->root);
}
