/*
 * tm_ltl_nba.c - LTL to Buchi automata, for the effect, its negation, cause
 * candidates and description candidates.
 *
 * A tableau over the negation normal form (tm_ltl_nnf): a state is a set of
 * obligations (NNF subformulas that must hold from now on).  Expanding a set
 * splits it into alternatives, each a cube the current letter must satisfy, the
 * set of obligations for the next position, and the untils it postponed:
 *     a & b: both;  a | b: one of them;  X a: a next;
 *     a U b: b, or a now and a U b next (postponed);
 *     a R b: a and b, or b now and a R b next.
 * That is a transition-based generalised Buchi automaton with one mark per
 * until (a transition carries mark j unless it postponed until j); it is
 * degeneralised into state-based acceptance with a level counter (states
 * (set, level); level k, all marks seen in order, is accepting).  Alternatives
 * subsumed by another one of the same state (fewer letters, same successor,
 * no more marks) are dropped.
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

/* One alternative of a state's expansion. */
typedef struct {
    tm_cube c;
    uint32_t dst;   /* obligation set id */
    uint64_t marks; /* untils not postponed */
} alt;

/* The translation.  Invariants: uidx[f] is the index of until node f (or -1);
 * sets are interned sorted int arrays; alts of set s are alts[aoff[s] ..
 * aoff[s] + acount[s]). */
typedef struct {
    tm_ltl *l;
    int *uidx;
    int nu;
    u_intern sets;
    alt *alts;
    size_t nalts, altcap;
    /* per set: its alternatives, built in set order */
    size_t *aoff, *acount;
    size_t setcap;
    uint32_t budget;
    u_err *err;
} tab;

static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return a < b ? -1 : a > b;
}

static bool cube_implies(tm_cube a, tm_cube b)
{
    return (b.mask & ~a.mask) == 0 && ((a.val ^ b.val) & b.mask) == 0;
}

/* Adds one alternative of the set being expanded (whose alternatives start at
 * `first`), unless an existing one subsumes it; removes those it subsumes. */
static int emit(tab *t, size_t first, tm_cube c, int *next, size_t nn, uint64_t marks)
{
    qsort(next, nn, sizeof *next, cmp_int);
    size_t k = 0;
    for (size_t i = 0; i < nn; i++)
        if (k == 0 || next[k - 1] != next[i])
            next[k++] = next[i];
    bool fresh;
    uint32_t id = u_intern_put(&t->sets, next, k * sizeof *next, &fresh);
    if (id == U_INVALID)
        return u_oom(t->err);
    if (t->sets.n > t->budget)
        return u_errf(t->err, "the LTL translation exceeds %u states", t->budget);
    for (size_t i = first; i < t->nalts; i++) {
        alt *o = &t->alts[i];
        if (o->dst != id)
            continue;
        if (cube_implies(c, o->c) && (marks & ~o->marks) == 0)
            return 0; /* subsumed */
        if (cube_implies(o->c, c) && (o->marks & ~marks) == 0) {
            *o = t->alts[--t->nalts];
            i--;
        }
    }
    if (t->nalts == t->altcap && U_GROW(t->alts, t->altcap, t->nalts) != 0)
        return u_oom(t->err);
    alt *a = &t->alts[t->nalts++];
    a->c = c;
    a->dst = id;
    a->marks = marks;
    return 0;
}

/* Work arrays of one branch of an expansion: obligations still to expand (a
 * stack), obligations for the next position, and those already expanded on
 * this branch (each is expanded once, which bounds every array by the number
 * of formula nodes). */
typedef struct {
    int *todo, *next, *done;
    size_t nt, nn, nd;
} branch;

static int branch_alloc(branch *b, size_t nodes)
{
    size_t n = 3 * nodes + 8;
    b->todo = malloc(n * sizeof *b->todo);
    b->next = malloc(n * sizeof *b->next);
    b->done = malloc(n * sizeof *b->done);
    b->nt = b->nn = b->nd = 0;
    return b->todo && b->next && b->done ? 0 : -1;
}

static void branch_free(branch *b)
{
    free(b->todo), free(b->next), free(b->done);
}

static bool branch_done(branch *b, int g)
{
    for (size_t i = 0; i < b->nd; i++)
        if (b->done[i] == g)
            return true;
    b->done[b->nd++] = g;
    return false;
}

/* Expands branch b under cube c with the untils in `postponed` postponed. */
static int expand(tab *t, size_t first, branch *b, tm_cube c, uint64_t postponed)
{
    size_t nodes = t->l->len;
    while (b->nt > 0) {
        int g = b->todo[--b->nt];
        if (branch_done(b, g))
            continue;
        const tm_lnode *n = &t->l->n[g];
        int alt1[2] = {-1, -1}, alt2[2] = {-1, -1}, next2 = -1;
        uint64_t post2 = 0;
        switch (n->op) {
        case TM_L_TRUE:
            continue;
        case TM_L_FALSE:
            return 0;
        case TM_L_AP:
        case TM_L_NOT: {
            int ap = n->op == TM_L_AP ? n->ap : t->l->n[n->a].ap;
            uint64_t bit = (uint64_t)1 << ap;
            uint64_t v = n->op == TM_L_AP ? bit : 0;
            if ((c.mask & bit) && (c.val & bit) != v)
                return 0;
            c.mask |= bit;
            c.val |= v;
            continue;
        }
        case TM_L_AND:
            b->todo[b->nt++] = n->a;
            b->todo[b->nt++] = n->b;
            continue;
        case TM_L_X:
            b->next[b->nn++] = n->a;
            continue;
        case TM_L_OR:
            alt1[0] = n->a;
            alt2[0] = n->b;
            break;
        case TM_L_U: /* b, or a now and the until next */
            alt1[0] = n->b;
            alt2[0] = n->a;
            next2 = g;
            post2 = (uint64_t)1 << t->uidx[g];
            break;
        case TM_L_R: /* a and b, or b now and the release next */
            alt1[0] = n->a;
            alt1[1] = n->b;
            alt2[0] = n->b;
            next2 = g;
            break;
        default:
            return u_errf(t->err, "internal error: formula not in negation normal form");
        }
        /* the second alternative on a copy of the branch */
        branch b2;
        if (branch_alloc(&b2, nodes) != 0) {
            branch_free(&b2);
            return u_oom(t->err);
        }
        memcpy(b2.todo, b->todo, b->nt * sizeof *b->todo);
        memcpy(b2.next, b->next, b->nn * sizeof *b->next);
        memcpy(b2.done, b->done, b->nd * sizeof *b->done);
        b2.nt = b->nt, b2.nn = b->nn, b2.nd = b->nd;
        b2.todo[b2.nt++] = alt2[0];
        if (alt2[1] >= 0)
            b2.todo[b2.nt++] = alt2[1];
        if (next2 >= 0)
            b2.next[b2.nn++] = next2;
        int r = expand(t, first, &b2, c, postponed | post2);
        branch_free(&b2);
        if (r != 0)
            return -1;
        b->todo[b->nt++] = alt1[0];
        if (alt1[1] >= 0)
            b->todo[b->nt++] = alt1[1];
    }
    uint64_t all = t->nu == 64 ? ~(uint64_t)0 : (((uint64_t)1 << t->nu) - 1);
    return emit(t, first, c, b->next, b->nn, all & ~postponed);
}

static void number_untils(tab *t, int f)
{
    const tm_lnode *n = &t->l->n[f];
    if (n->op == TM_L_U && t->uidx[f] < 0 && t->nu < 64)
        t->uidx[f] = t->nu++;
    else if (n->op == TM_L_U && t->uidx[f] < 0)
        t->nu = 65; /* too many: reported by the caller */
    if (n->a >= 0)
        number_untils(t, n->a);
    if (n->b >= 0)
        number_untils(t, n->b);
}

/* Builds every reachable obligation set's alternatives. */
static int build_tgba(tab *t, int f)
{
    bool fresh;
    if (u_intern_put(&t->sets, &f, sizeof f, &fresh) == U_INVALID)
        return u_oom(t->err);
    branch b;
    if (branch_alloc(&b, t->l->len) != 0) {
        branch_free(&b);
        return u_oom(t->err);
    }
    for (uint32_t s = 0; s < t->sets.n; s++) {
        if (s == t->setcap) {
            size_t c1 = t->setcap, c2 = t->setcap;
            if (U_GROW(t->aoff, c1, s) != 0 || U_GROW(t->acount, c2, s) != 0) {
                branch_free(&b);
                return u_oom(t->err);
            }
            t->setcap = c1 < c2 ? c1 : c2;
        }
        b.nt = u_intern_len(&t->sets, s) / sizeof(int);
        b.nn = b.nd = 0;
        memcpy(b.todo, u_intern_key(&t->sets, s), b.nt * sizeof(int));
        tm_cube c = {0, 0};
        t->aoff[s] = t->nalts;
        if (expand(t, t->nalts, &b, c, 0) != 0) {
            branch_free(&b);
            return -1;
        }
        t->acount[s] = t->nalts - t->aoff[s];
    }
    branch_free(&b);
    return 0;
}

/* Degeneralises into out: state (set, level), level nu accepting. */
static int degeneralise(tab *t, uint64_t apmask, tm_nba *out)
{
    tm_nba_init(out, apmask);
    u_map ids = {0};
    uint32_t *set_of = NULL, *lev_of = NULL;
    size_t cap = 0;
    uint32_t k = (uint32_t)t->nu;
#define STATE_KEY(S, L) ((uint64_t)(S) << 8 | (L))
    uint32_t s0 = tm_nba_add_state(out, k == 0);
    if (s0 == U_INVALID || tm_nba_add_init(out, s0) != 0 ||
        u_map_put(&ids, STATE_KEY(0, 0), s0) != 0 || U_GROW(set_of, cap, 0) != 0)
        goto oom;
    size_t cap2 = 0;
    if (U_GROW(lev_of, cap2, 0) != 0)
        goto oom;
    set_of[0] = 0;
    lev_of[0] = 0;
    for (uint32_t q = 0; q < out->n; q++) {
        uint32_t s = set_of[q], lv = lev_of[q];
        for (size_t i = t->aoff[s]; i < t->aoff[s] + t->acount[s]; i++) {
            const alt *a = &t->alts[i];
            uint32_t l2 = lv == k ? 0 : lv;
            while (l2 < k && (a->marks >> l2 & 1))
                l2++;
            uint64_t key = STATE_KEY(a->dst, l2);
            uint32_t id = u_map_get(&ids, key);
            if (id == U_INVALID) {
                if (out->n >= t->budget) {
                    u_errf(t->err, "the LTL translation exceeds %u states", t->budget);
                    goto fail;
                }
                id = tm_nba_add_state(out, l2 == k);
                if (id == U_INVALID || u_map_put(&ids, key, id) != 0)
                    goto oom;
                size_t c1 = cap, c2 = cap2;
                if (U_GROW(set_of, c1, id) != 0 || U_GROW(lev_of, c2, id) != 0)
                    goto oom;
                cap = c1, cap2 = c2;
                set_of[id] = a->dst;
                lev_of[id] = l2;
            }
            if (tm_nba_add_edge(out, q, id, a->c) != 0)
                goto oom;
        }
    }
#undef STATE_KEY
    u_map_free(&ids);
    free(set_of), free(lev_of);
    return 0;
oom:
    u_oom(t->err);
fail:
    u_map_free(&ids);
    free(set_of), free(lev_of);
    tm_nba_free(out);
    return -1;
}

int tm_ltl_to_nba(tm_ltl *l, int f, uint64_t apmask, uint32_t budget, tm_nba *out, u_err *err)
{
    tm_nba_init(out, apmask);
    int g = tm_ltl_nnf(l, f, false);
    if (g < 0)
        return u_oom(err);
    tab t;
    memset(&t, 0, sizeof t);
    t.l = l;
    t.budget = budget;
    t.err = err;
    t.uidx = malloc((l->len + 1) * sizeof *t.uidx);
    int r = -1;
    if (!t.uidx) {
        u_oom(err);
        goto done;
    }
    for (size_t i = 0; i < l->len; i++)
        t.uidx[i] = -1;
    number_untils(&t, g);
    if (t.nu > 64) {
        u_errf(err, "the formula has more than 64 until subformulas");
        goto done;
    }
    if (build_tgba(&t, g) != 0 || degeneralise(&t, apmask, out) != 0)
        goto done;
    r = tm_nba_merge_edges(out, err);
done:
    free(t.uidx);
    u_intern_free(&t.sets);
    free(t.alts), free(t.aoff), free(t.acount);
    return r;
}
