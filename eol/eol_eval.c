/*
 * eol_eval.c - decides sigma |=e psi for an EOL formula psi and a finite trace sigma.
 *
 * The causality checker's tests use this to check a printed cause against the traces it
 * claims to explain, so this file is the reference semantics of EOL in pancause.  Def. 6 of
 * the paper was garbled in extraction and leaves the interval operators ambiguous; the
 * following is the semantics pancause settled on (part of the specification):
 *
 *  - sigma = s0 a1 s1 ... an sn is given by its n actions.  An event variable E_i holds at
 *    state s_j (j >= 1) iff a_j is the i-th occurrence of E (E with occ 0: any occurrence of
 *    E).  Nothing holds at s0 except negations.
 *  - Simple formulas (events, !, &, |) at one state s_j: the usual boolean rules.
 *  - An event or a negation holds on an interval sigma[i..r] iff it holds at some state s_j,
 *    i <= j <= r (Def. 6, first rules).  A conjunction or disjunction, simple or not, is
 *    evaluated per operand on the interval: sigma[i..r] |= a & b iff both hold on
 *    sigma[i..r]; a | b iff either does.  (So "Ta & Tc" needs both events somewhere in the
 *    interval, not in one state, and "!(Ta & Tc)" needs one state where not both hold.)
 *  - a .& b on sigma[i..r]: there are j < k in [i..r] with sigma[i..j] |= a and
 *    sigma[k..r] |= b.
 *  - The interval operators bind the interval to where their operands are FIRST / LAST
 *    satisfied; with a free choice of j and k a prohibition would mean nothing, since one
 *    could always pick an empty gap:
 *      p &[ phi on sigma[i..r]: j = least index in [i..r] with sigma[i..j] |= p (false if
 *        none); holds iff phi holds at every state s_l with j < l <= r.
 *      phi ]& p on sigma[i..r]: k = greatest index in [i..r] with sigma[k..r] |= p (false if
 *        none); holds iff phi holds at every state s_l with i < l < k (s_i itself is the
 *        state before the first action of the interval).
 *      a &< phi >& b on sigma[i..r]: j = least index with sigma[i..j] |= a, k = greatest
 *        index with sigma[k..r] |= b; holds iff j < k and phi holds at every s_l with
 *        j < l < k.
 *    Example: on "Cc Cl X Tc", "Cc &< !Cl >& Tc" is false; on "Cc X Tc" it is true; on
 *    "Tc Cc" it is false.
 *  - sigma |=e psi iff sigma[0..n] |= psi.
 *  Trees the constructors cannot build (a complex formula where a simple one belongs,
 *  e.g. hand-made) still get a meaning: "phi holds at state s_l" is read as
 *  sigma[l..l] |= phi, which agrees with the state rules on simple formulas, and !psi of a
 *  complex psi holds on an interval iff psi does not.  A tree with a missing operand or an
 *  unnamed event satisfies nothing.
 *
 * Efficiency.  Both ".&" and the interval operators only ever need, for an operand a, the
 * least j with sigma[i..j] |= a ("first(a, i)") and, for an operand b, the greatest k with
 * sigma[k..r] |= b ("last(b, r)"): "exists j < k ..." holds iff first(a, i) < last(b, r),
 * because the interval ends j <= r and k >= i are then implied.  Those two values are
 * memoised per node and index, and "phi holds at every/some state of a range" is answered
 * from per-node prefix counts, so every interval test is O(size of the formula) and the
 * whole evaluation O(n^2 * nodes * depth) at worst, in O(n * nodes) memory; a few hundred
 * actions and a few dozen nodes take milliseconds.
 */
#include "eol.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EOL_UNKNOWN SIZE_MAX       /* memo slot not computed yet */
#define EOL_NONE    (SIZE_MAX - 1) /* no index satisfies the operand */

/* The evaluation's view of one formula node with its memo tables (n = trace length). */
typedef struct eol_enode {
    const eol_node *f;
    struct eol_enode *a, *b, *c;
    size_t *first; /* [n + 1]: first(f, i) */
    size_t *last;  /* [n + 1]: last(f, r) */
    size_t *count; /* [n + 2]: count[l] = states among s_0..s_{l-1} where f holds */
    bool counted;  /* count is filled in */
    bool simple;   /* f is a simple formula (Def. 5) */
} eol_enode;

typedef struct {
    const eol_action *trace;
    size_t n;
} eol_ectx;

static bool eol_ev_holds(const eol_ectx *cx, eol_enode *e, size_t i, size_t r);

/* --- building the memo tree ------------------------------------------------------------- */

/* How many operands a node of kind k has (-1: not a kind). */
static int eol_ev_arity(eol_kind k)
{
    switch (k) {
    case EOL_EVENT:
        return 0;
    case EOL_NOT:
        return 1;
    case EOL_AND:
    case EOL_OR:
    case EOL_ORD:
    case EOL_FROM:
    case EOL_UNTIL:
        return 2;
    case EOL_BETWEEN:
        return 3;
    }
    return -1;
}

/* Number of nodes of a well-formed tree, 0 if an operand is missing or an event unnamed.
 * Pointers beyond a node's arity are ignored, here and everywhere below. */
static size_t eol_ev_size(const eol_node *f)
{
    const eol_node *ops[3];
    int arity;
    size_t size = 1;

    if (!f || (arity = eol_ev_arity(f->kind)) < 0 || (arity == 0 && !f->name))
        return 0;
    ops[0] = f->a;
    ops[1] = f->b;
    ops[2] = f->c;
    for (int o = 0; o < arity; o++) {
        size_t s = eol_ev_size(ops[o]);
        if (s == 0)
            return 0;
        size += s;
    }
    return size;
}

/* Lays out the node for f at nodes[*next] with its tables carved from *slots. */
static eol_enode *eol_ev_build(const eol_node *f, eol_enode *nodes, size_t *next, size_t **slots,
                               size_t n)
{
    int arity = eol_ev_arity(f->kind);
    eol_enode *e = &nodes[(*next)++];

    e->f = f;
    e->first = *slots;
    e->last = e->first + (n + 1);
    e->count = e->last + (n + 1);
    *slots = e->count + (n + 2);
    for (size_t i = 0; i <= n; i++)
        e->first[i] = e->last[i] = EOL_UNKNOWN;
    e->a = arity >= 1 ? eol_ev_build(f->a, nodes, next, slots, n) : NULL;
    e->b = arity >= 2 ? eol_ev_build(f->b, nodes, next, slots, n) : NULL;
    e->c = arity >= 3 ? eol_ev_build(f->c, nodes, next, slots, n) : NULL;
    /* Def. 5, computed once here rather than by eol_is_simple in the inner loops. */
    e->simple = arity == 0 || (arity == 1 && e->a->simple) ||
                ((f->kind == EOL_AND || f->kind == EOL_OR) && e->a->simple && e->b->simple);
    return e;
}

/* --- states ----------------------------------------------------------------------------- */

/* Whether f holds at state s_l. */
static bool eol_ev_state(const eol_ectx *cx, eol_enode *e, size_t l)
{
    const eol_action *act;

    if (!e->simple)
        return eol_ev_holds(cx, e, l, l);
    switch (e->f->kind) {
    case EOL_EVENT:
        if (l == 0)
            return false;
        act = &cx->trace[l - 1];
        return act->name && strcmp(act->name, e->f->name) == 0 &&
               (e->f->occ == 0 || e->f->occ == act->occ);
    case EOL_NOT:
        return !eol_ev_state(cx, e->a, l);
    case EOL_AND:
        return eol_ev_state(cx, e->a, l) && eol_ev_state(cx, e->b, l);
    default: /* EOL_OR */
        return eol_ev_state(cx, e->a, l) || eol_ev_state(cx, e->b, l);
    }
}

/* How many of the states s_lo .. s_{hi-1} satisfy f (0 when hi <= lo). */
static size_t eol_ev_count(const eol_ectx *cx, eol_enode *e, size_t lo, size_t hi)
{
    if (!e->counted) {
        e->count[0] = 0;
        for (size_t l = 0; l <= cx->n; l++)
            e->count[l + 1] = e->count[l] + (eol_ev_state(cx, e, l) ? 1 : 0);
        e->counted = true;
    }
    return hi > lo ? e->count[hi] - e->count[lo] : 0;
}

static bool eol_ev_some_state(const eol_ectx *cx, eol_enode *e, size_t lo, size_t hi)
{
    return eol_ev_count(cx, e, lo, hi) > 0;
}

static bool eol_ev_every_state(const eol_ectx *cx, eol_enode *e, size_t lo, size_t hi)
{
    return hi <= lo || eol_ev_count(cx, e, lo, hi) == hi - lo;
}

/* --- intervals -------------------------------------------------------------------------- */

/* Least j in [i..n] with sigma[i..j] |= f, or EOL_NONE. */
static size_t eol_ev_first(const eol_ectx *cx, eol_enode *e, size_t i)
{
    if (e->first[i] == EOL_UNKNOWN) {
        size_t j = i;
        while (j <= cx->n && !eol_ev_holds(cx, e, i, j))
            j++;
        e->first[i] = j <= cx->n ? j : EOL_NONE;
    }
    return e->first[i];
}

/* Greatest k in [0..r] with sigma[k..r] |= f, or EOL_NONE. */
static size_t eol_ev_last(const eol_ectx *cx, eol_enode *e, size_t r)
{
    if (e->last[r] == EOL_UNKNOWN) {
        size_t k = r + 1;
        while (k > 0 && !eol_ev_holds(cx, e, k - 1, r))
            k--;
        e->last[r] = k > 0 ? k - 1 : EOL_NONE;
    }
    return e->last[r];
}

/* The start and end (j, k) an order operator binds on sigma[i..r]: j = first(a, i) within
 * the interval, k = last(c, r) within it; false if either does not exist. */
static bool eol_ev_bounds(const eol_ectx *cx, eol_enode *a, eol_enode *c, size_t i, size_t r,
                          size_t *j, size_t *k)
{
    *j = eol_ev_first(cx, a, i);
    *k = eol_ev_last(cx, c, r);
    return *j != EOL_NONE && *j <= r && *k != EOL_NONE && *k >= i;
}

static bool eol_ev_from(const eol_ectx *cx, eol_enode *e, size_t i, size_t r)
{
    size_t j = eol_ev_first(cx, e->a, i);
    return j != EOL_NONE && j <= r && eol_ev_every_state(cx, e->b, j + 1, r + 1);
}

static bool eol_ev_until(const eol_ectx *cx, eol_enode *e, size_t i, size_t r)
{
    size_t k = eol_ev_last(cx, e->b, r);
    return k != EOL_NONE && k >= i && eol_ev_every_state(cx, e->a, i + 1, k);
}

static bool eol_ev_holds(const eol_ectx *cx, eol_enode *e, size_t i, size_t r)
{
    size_t j, k;

    switch (e->f->kind) {
    case EOL_EVENT:
        return eol_ev_some_state(cx, e, i, r + 1);
    case EOL_NOT:
        if (!e->a->simple)
            return !eol_ev_holds(cx, e->a, i, r);
        return eol_ev_some_state(cx, e, i, r + 1);
    case EOL_AND:
        return eol_ev_holds(cx, e->a, i, r) && eol_ev_holds(cx, e->b, i, r);
    case EOL_OR:
        return eol_ev_holds(cx, e->a, i, r) || eol_ev_holds(cx, e->b, i, r);
    case EOL_ORD:
        return eol_ev_bounds(cx, e->a, e->b, i, r, &j, &k) && j < k;
    case EOL_FROM:
        return eol_ev_from(cx, e, i, r);
    case EOL_UNTIL:
        return eol_ev_until(cx, e, i, r);
    case EOL_BETWEEN:
        return eol_ev_bounds(cx, e->a, e->c, i, r, &j, &k) && j < k &&
               eol_ev_every_state(cx, e->b, j + 1, k);
    }
    return false;
}

bool eol_eval(const eol_node *psi, const eol_action *trace, size_t n)
{
    size_t m = eol_ev_size(psi), per_node, next = 0, *slots;
    eol_ectx cx = {trace, n};
    eol_enode *nodes;
    bool result;

    if (m == 0 || (n > 0 && !trace))
        return false;
    /* The trace is an array in memory, so n + 2 cannot overflow; the product can. */
    per_node = 3 * (n + 2);
    if (per_node / 3 != n + 2 || per_node > SIZE_MAX / sizeof(size_t) / m) {
        fprintf(stderr, "eol_eval: trace of %zu actions too long\n", n);
        abort();
    }
    nodes = calloc(m, sizeof *nodes);
    slots = malloc(m * per_node * sizeof *slots);
    if (!nodes || !slots) {
        /* No way to report it through a bool, and a wrong verdict would be worse. */
        fprintf(stderr, "eol_eval: out of memory\n");
        abort();
    }
    size_t *cursor = slots;
    eol_ev_build(psi, nodes, &next, &cursor, n);
    result = eol_ev_holds(&cx, &nodes[0], 0, n);
    free(slots);
    free(nodes);
    return result;
}
