/* ex_cand: the candidate dots (what and why in ex_cand.h).
 *
 * Finite failure at k, three cached steps over interned state sets:
 *   forward   F[0] = initial states a relaxed letter 0 allows,
 *             F[j+1] = successors of F[j] a relaxed letter j+1 allows;
 *   backward  B[k] = F[k], B[j] = members of F[j] with a successor in B[j+1];
 *   need      at j, over the members q of B[j]: the literals q requires
 *             against the letter's own values.
 * Each step's result depends only on its inputs (set ids and the letter),
 * so it is computed once per distinct input: a long trace that repeats its
 * letters costs a few table lookups per position.
 *
 * Lasso: nodes (q, j) of the automaton-times-positions product that
 * relaxed letters allow, explored by an iterative Tarjan from the start
 * nodes; SCCs complete successors first, so when an SCC completes it is
 * known whether it is accepting (a cycle meeting every acceptance set) or
 * reaches one.  Every node of such an SCC lies on an accepting run.
 */
#include "ex_cand.h"

#include <stdlib.h>
#include <string.h>

static uint64_t letter_at(const ex_word *w, size_t i)
{
    if (i < w->n || w->loop < 0)
        return w->letters[i < w->n ? i : w->n - 1];
    size_t l = (size_t)w->loop;
    return w->letters[l + (i - l) % (w->n - l)];
}

/* May state q be entered at a position whose letter is `letter` when its
 * bottom-valued propositions may be switched? */
static int relaxed_fits(const ex_nba *a, const ex_word *w, int q, uint64_t letter)
{
    uint64_t bot = ex_bottom(w, letter);
    return a->live[q] && (a->pos[q] & ~(letter | bot)) == 0 && (a->neg[q] & letter & ~bot) == 0;
}

static uint64_t required(const ex_nba *a, int q, uint64_t letter)
{
    return (a->pos[q] & ~letter) | (a->neg[q] & letter);
}

/* Is every successor of q one of q2's?  Then a run through q can go
 * through q2 instead and continue unchanged. */
static int succ_within(const ex_nba *a, int q, int q2)
{
    for (int e = a->succ_off[q]; e < a->succ_off[q + 1]; e++) {
        int found = 0;
        for (int f = a->succ_off[q2]; f < a->succ_off[q2 + 1] && !found; f++)
            found = a->succ[f] == a->succ[e];
        if (!found)
            return 0;
    }
    return 1;
}

/* A run entering q at a position with this letter needs p switched there;
 * world A + <i,p> gives it what it needs, world A the same letter with p
 * unswitched.  Is q covered in world A: is there a state q2 the run could
 * enter instead (a successor of prev, or initial when prev < 0) that world
 * A's letter certainly allows and that promises no more than q?  Then
 * world A survives wherever A + <i,p> does, through q2 (ex_nba.h), and
 * this run is no witness for <i,p>.  (Or q2 has every successor q has: the
 * run goes on unchanged.)  World A's letter is known where q constrains it
 * (switched as q needs, p excepted) and where a proposition cannot be
 * switched at all; elsewhere q2 must not constrain it.  Sound where the
 * position occurs once in the word: every position of a finite failure's
 * prefix, and a lasso's positions before its loop; a loop position recurs
 * in every round, with its switch, so there nothing is covered. */
static int covered(const ex_nba *a, const ex_word *w, int prev, int q, int p, uint64_t letter)
{
    uint64_t pbit = 1ull << p, need = required(a, q, letter);
    uint64_t known = a->pos[q] | a->neg[q] | ~ex_bottom(w, letter) | pbit;
    uint64_t world = letter ^ (need & ~pbit);
    int lo = prev < 0 ? 0 : a->succ_off[prev], hi = prev < 0 ? a->nstates : a->succ_off[prev + 1];
    for (int e = lo; e < hi; e++) {
        int q2 = prev < 0 ? e : a->succ[e];
        if (q2 == q || (prev < 0 && !a->init[q2]) || !a->live[q2])
            continue;
        if (((a->pos[q2] | a->neg[q2]) & ~known) || (a->pos[q2] & ~world) || (a->neg[q2] & world))
            continue;
        if (ex_nba_promises_less(a, q2, q) || succ_within(a, q, q2))
            return 1;
    }
    return 0;
}

/* The switches a run entering q from prev (or from the start) needs and
 * that no other state covers: the witnesses it can give. */
static uint64_t uncovered(const ex_nba *a, const ex_word *w, int prev, int q, uint64_t letter)
{
    uint64_t m = 0;
    for (uint64_t need = required(a, q, letter); need; need &= need - 1) {
        int p = __builtin_ctzll(need);
        if (!covered(a, w, prev, q, p, letter))
            m |= 1ull << p;
    }
    return m;
}

/* Values remembered by (x, y, letter): long traces repeat their states and
 * letters, so each distinct triple is computed once. */
typedef struct {
    u_intern keys;
    uint64_t *val;
    size_t cap;
} memo;

/* The slot of (x, y, letter) in *slot, *fresh when it has no value yet;
 * -1 when out of memory. */
static int memo_slot(memo *m, uint32_t x, uint32_t y, uint64_t letter, uint64_t **slot, bool *fresh)
{
    struct {
        uint32_t x, y;
        uint64_t letter;
    } key = {x, y, letter};
    uint32_t k = u_intern_put(&m->keys, &key, sizeof key, fresh);
    if (k == U_INVALID || (*fresh && u_grow((void **)&m->val, &m->cap, k, sizeof *m->val, 64)))
        return -1;
    *slot = &m->val[k];
    return 0;
}

static void memo_free(memo *m)
{
    u_intern_free(&m->keys);
    free(m->val);
}

/* uncovered(), remembered. */
static uint64_t uncovered_memo(memo *m, const ex_nba *a, const ex_word *w, int prev, int q,
                               uint64_t letter, int *oom)
{
    uint64_t *v;
    bool fresh;
    if (memo_slot(m, (uint32_t)prev, (uint32_t)q, letter, &v, &fresh)) {
        *oom = 1;
        return 0;
    }
    if (fresh)
        *v = uncovered(a, w, prev, q, letter);
    return *v;
}

/* ---- finite failure ---- */

typedef struct {
    const ex_nba *a;
    const ex_word *w;
    u_intern *sets;
    u_intern fkeys; /* (set, letter) -> forward target */
    uint32_t *fto;
    size_t fcap;
    memo needs; /* (previous set, set, letter) -> witnesses */
    u_map bmap; /* (F set << 32 | B set) -> backward result */
    uint64_t *s;
} relax;

typedef struct {
    uint32_t set, pad;
    uint64_t letter;
} setkey;

static uint32_t intern_scratch(relax *r)
{
    bool fresh;
    return u_intern_put(r->sets, r->s, r->a->words * sizeof *r->s, &fresh);
}

static uint32_t forward(relax *r, uint32_t from, uint64_t letter)
{
    setkey key = {from, 0, letter};
    bool fresh;
    uint32_t k = u_intern_put(&r->fkeys, &key, sizeof key, &fresh);
    if (k == U_INVALID || !fresh)
        return k == U_INVALID ? U_INVALID : r->fto[k];
    const ex_nba *a = r->a;
    memset(r->s, 0, a->words * sizeof *r->s);
    if (from == U_INVALID - 1) {
        for (int q = 0; q < a->nstates; q++)
            if (a->init[q] && relaxed_fits(a, r->w, q, letter))
                ex_set_add(r->s, q);
    } else {
        const uint64_t *f = u_intern_key(r->sets, from);
        for (int p = 0; p < a->nstates; p++)
            if (ex_set_has(f, p))
                for (int e = a->succ_off[p]; e < a->succ_off[p + 1]; e++) {
                    int q = a->succ[e];
                    if (!ex_set_has(r->s, q) && relaxed_fits(a, r->w, q, letter))
                        ex_set_add(r->s, q);
                }
    }
    uint32_t to = intern_scratch(r);
    if (to == U_INVALID || u_grow((void **)&r->fto, &r->fcap, k, sizeof *r->fto, 64))
        return U_INVALID;
    return r->fto[k] = to;
}

static uint32_t backward(relax *r, uint32_t f, uint32_t bnext)
{
    uint64_t key = (uint64_t)f << 32 | bnext;
    uint32_t v = u_map_get(&r->bmap, key);
    if (v != U_INVALID)
        return v;
    const ex_nba *a = r->a;
    const uint64_t *fs = u_intern_key(r->sets, f);
    memset(r->s, 0, a->words * sizeof *r->s);
    for (int p = 0; p < a->nstates; p++) {
        if (!ex_set_has(fs, p))
            continue;
        const uint64_t *bs = u_intern_key(r->sets, bnext); /* the table may move: reread */
        for (int e = a->succ_off[p]; e < a->succ_off[p + 1]; e++)
            if (ex_set_has(bs, a->succ[e])) {
                ex_set_add(r->s, p);
                break;
            }
    }
    v = intern_scratch(r);
    if (v == U_INVALID || u_map_put(&r->bmap, key, v))
        return U_INVALID;
    return v;
}

/* The witnesses at a position whose surviving states are set b, entered
 * from the surviving set bprev of the position before (U_INVALID at 0);
 * 0 with *oom set on failure. */
static uint64_t need_of(relax *r, uint32_t bprev, uint32_t b, uint64_t letter, int *oom)
{
    uint64_t *slot;
    bool fresh;
    if (memo_slot(&r->needs, bprev, b, letter, &slot, &fresh)) {
        *oom = 1;
        return 0;
    }
    if (!fresh)
        return *slot;
    const ex_nba *a = r->a;
    const uint64_t *bs = u_intern_key(r->sets, b);
    const uint64_t *ps = bprev == U_INVALID ? NULL : u_intern_key(r->sets, bprev);
    uint64_t m = 0;
    if (!ps) {
        for (int q = 0; q < a->nstates; q++)
            if (ex_set_has(bs, q) && a->init[q])
                m |= uncovered(a, r->w, -1, q, letter);
    } else {
        for (int p = 0; p < a->nstates; p++)
            if (ex_set_has(ps, p))
                for (int e = a->succ_off[p]; e < a->succ_off[p + 1]; e++)
                    if (ex_set_has(bs, a->succ[e]))
                        m |= uncovered(a, r->w, p, a->succ[e], letter);
    }
    return *slot = m;
}

int ex_cand_finite(const ex_nba *a, const ex_word *w, size_t k, uint64_t **need, ex_alive *al)
{
    memset(al, 0, sizeof *al);
    al->k = k;
    relax r = {.a = a, .w = w, .sets = &al->sets};
    r.s = calloc(a->words, sizeof *r.s);
    uint32_t *f = malloc((k + 1) * sizeof *f);
    al->alive = malloc((k + 1) * sizeof *al->alive);
    *need = calloc(k + 1, sizeof **need);
    int oom = !r.s || !f || !al->alive || !*need;
    uint32_t prev = U_INVALID - 1;
    for (size_t j = 0; j <= k && !oom; j++) {
        prev = f[j] = forward(&r, prev, letter_at(w, j));
        oom = prev == U_INVALID;
    }
    for (size_t j = k + 1; j-- > 0 && !oom;) {
        al->alive[j] = j == k ? f[k] : backward(&r, f[j], al->alive[j + 1]);
        oom = al->alive[j] == U_INVALID;
    }
    for (size_t j = 0; j <= k && !oom; j++)
        (*need)[j] =
            need_of(&r, j ? al->alive[j - 1] : U_INVALID, al->alive[j], letter_at(w, j), &oom);
    free(r.s);
    free(f);
    free(r.fto);
    memo_free(&r.needs);
    u_intern_free(&r.fkeys);
    u_map_free(&r.bmap);
    if (oom) {
        free(*need);
        *need = NULL;
        ex_alive_free(al);
        return -1;
    }
    return 0;
}

void ex_alive_free(ex_alive *al)
{
    u_intern_free(&al->sets);
    free(al->alive);
    memset(al, 0, sizeof *al);
}

/* ---- lasso: the product and its accepting SCCs ---- */

typedef struct {
    uint32_t node; /* the node this frame explores */
    int e;         /* its next successor edge in the automaton */
    uint32_t low;
} frame;

typedef struct {
    const ex_nba *a;
    const ex_word *w;
    u_map id;        /* (j << 32 | q) -> node, when dense is NULL */
    uint32_t *dense; /* j * nstates + q -> node (U_INVALID: none), when small enough */
    uint32_t *q, *j; /* per node: automaton state, position */
    uint32_t *index; /* Tarjan's index; DONE once its SCC is complete */
    uint8_t *good;   /* per node: on an accepting run (once DONE) */
    uint8_t *loop;   /* per node: has an edge to itself */
    size_t n, cap;
    uint32_t next_index;
    uint32_t *stk; /* Tarjan's SCC stack */
    size_t sp, stkcap;
    frame *fr;
    size_t fp, frcap;
    uint64_t *accs; /* acceptance sets met by the SCC being closed */
} product;

#define DONE UINT32_MAX

static size_t next_pos(const ex_word *w, size_t j)
{
    return j + 1 < w->n ? j + 1 : (size_t)w->loop;
}

/* The node (q, j), or U_INVALID. */
static uint32_t node_at(const product *p, int q, size_t j)
{
    if (p->dense)
        return p->dense[j * (size_t)p->a->nstates + (size_t)q];
    return u_map_get(&p->id, (uint64_t)j << 32 | (uint32_t)q);
}

/* The node (q, j), made (and pushed on both stacks) if new; U_INVALID on
 * out of memory.  *made tells whether it is new. */
static uint32_t visit(product *p, int q, size_t j, bool *made)
{
    uint64_t key = (uint64_t)j << 32 | (uint32_t)q;
    uint32_t v = node_at(p, q, j);
    *made = v == U_INVALID;
    if (!*made)
        return v;
    size_t c1 = p->cap, c2 = p->cap, c3 = p->cap, c4 = p->cap;
    if (U_GROW(p->q, p->cap, p->n) || u_grow((void **)&p->j, &c1, p->n, 4, 16) ||
        u_grow((void **)&p->index, &c2, p->n, 4, 16) ||
        u_grow((void **)&p->good, &c3, p->n, 1, 16) ||
        u_grow((void **)&p->loop, &c4, p->n, 1, 16) || U_GROW(p->stk, p->stkcap, p->sp) ||
        U_GROW(p->fr, p->frcap, p->fp))
        return U_INVALID;
    v = (uint32_t)p->n++;
    if (p->dense)
        p->dense[j * (size_t)p->a->nstates + (size_t)q] = v;
    else if (u_map_put(&p->id, key, v))
        return U_INVALID;
    p->q[v] = (uint32_t)q;
    p->j[v] = (uint32_t)j;
    p->index[v] = p->next_index++;
    p->good[v] = p->loop[v] = 0;
    p->stk[p->sp++] = v;
    p->fr[p->fp++] = (frame){v, p->a->succ_off[q], p->index[v]};
    return v;
}

/* Pops the SCC rooted at v: accepting if it has a cycle and meets every
 * acceptance set; good if accepting or some member reaches a good SCC. */
static void close_scc(product *p, uint32_t v)
{
    const ex_nba *a = p->a;
    memset(p->accs, 0, a->acc_words * sizeof *p->accs);
    size_t top = p->sp, size = 0;
    bool good = false, cyc = false;
    do {
        uint32_t m = p->stk[--top];
        size++;
        good |= p->good[m];
        cyc |= p->loop[m];
        for (size_t k = 0; k < a->acc_words; k++)
            p->accs[k] |= a->acc[(size_t)p->q[m] * a->acc_words + k];
        if (m == v)
            break;
    } while (top);
    cyc |= size > 1;
    bool all = true;
    for (int u = 0; u < a->nacc && all; u++)
        all = ex_set_has(p->accs, u);
    good |= cyc && all;
    while (p->sp > top) {
        uint32_t m = p->stk[--p->sp];
        p->index[m] = DONE;
        p->good[m] = good;
    }
}

static int explore(product *p, int q0)
{
    const ex_nba *a = p->a;
    bool made;
    if (visit(p, q0, 0, &made) == U_INVALID)
        return -1;
    if (!made)
        return 0;
    while (p->fp) {
        frame *f = &p->fr[p->fp - 1];
        uint32_t v = f->node;
        int q = (int)p->q[v];
        if (f->e < a->succ_off[q + 1]) {
            int q2 = a->succ[f->e++];
            size_t j2 = next_pos(p->w, p->j[v]);
            if (!relaxed_fits(a, p->w, q2, letter_at(p->w, j2)))
                continue;
            uint32_t w = visit(p, q2, j2, &made);
            if (w == U_INVALID)
                return -1;
            f = &p->fr[p->fp - (made ? 2 : 1)]; /* visit may have moved the frames */
            if (w == v)
                p->loop[v] = 1;
            if (!made) {
                if (p->index[w] == DONE)
                    p->good[v] |= p->good[w];
                else if (p->index[w] < f->low)
                    f->low = p->index[w];
            }
            continue;
        }
        uint32_t low = f->low;
        p->fp--;
        if (low == p->index[v])
            close_scc(p, v);
        if (p->fp) {
            frame *up = &p->fr[p->fp - 1];
            if (p->index[v] == DONE)
                p->good[up->node] |= p->good[v];
            else if (low < up->low)
                up->low = low;
        }
    }
    return 0;
}

int ex_cand_lasso(const ex_nba *a, const ex_word *w, uint64_t **need)
{
    product p = {.a = a, .w = w};
    p.accs = calloc(a->acc_words, sizeof *p.accs);
    *need = calloc(w->n, sizeof **need);
    int rc = p.accs && *need ? 0 : -1;
    if ((size_t)a->nstates * w->n <= (size_t)1 << 24) { /* 64 MB at most: a direct index */
        p.dense = malloc((size_t)a->nstates * w->n * sizeof *p.dense);
        if (p.dense)
            memset(p.dense, 0xff, (size_t)a->nstates * w->n * sizeof *p.dense);
    }
    memo m = {0};
    int oom = 0;
    for (int q = 0; q < a->nstates && !rc; q++)
        if (a->init[q] && relaxed_fits(a, w, q, letter_at(w, 0)))
            rc = explore(&p, q);
    /* witnesses: good nodes entered from good nodes (or at the start) */
    for (size_t v = 0; v < p.n && !rc; v++) {
        if (!p.good[v])
            continue;
        int q = (int)p.q[v];
        size_t j = p.j[v], j2 = next_pos(w, j);
        uint64_t l0 = letter_at(w, j), l2 = letter_at(w, j2);
        bool once0 = w->loop > 0, once2 = j2 < (size_t)w->loop; /* before the loop */
        if (j == 0 && a->init[q])
            (*need)[0] |= once0 ? uncovered_memo(&m, a, w, -1, q, l0, &oom) : required(a, q, l0);
        for (int e = a->succ_off[q]; e < a->succ_off[q + 1]; e++) {
            uint32_t u = node_at(&p, a->succ[e], j2);
            if (u != U_INVALID && p.good[u])
                (*need)[j2] |= once2 ? uncovered_memo(&m, a, w, q, a->succ[e], l2, &oom)
                                     : required(a, a->succ[e], l2);
        }
        rc = oom ? -1 : 0;
    }
    memo_free(&m);
    free(p.dense);
    u_map_free(&p.id);
    free(p.q);
    free(p.j);
    free(p.index);
    free(p.good);
    free(p.loop);
    free(p.stk);
    free(p.fr);
    free(p.accs);
    if (rc) {
        free(*need);
        *need = NULL;
    }
    return rc;
}
