/*
 * tm_safra.c - complementation of any Buchi automaton by determinisation: the
 * Safra-Piterman construction gives a deterministic parity automaton, whose
 * complement (odd least priority seen infinitely often) is turned back into a
 * Buchi automaton.  tm_complement.c uses it when the automaton is not weak
 * (effects such as F G o, whose negation G F !o needs the general case).
 *
 * Safra trees with Piterman's compact names.  A tree is a list of nodes named
 * 1..m; invariants: a node's name is smaller than its children's and than its
 * younger siblings' (names are creation order, compacted after removals);
 * children's labels are disjoint subsets of their parent's label, and every
 * node owns a state none of its children has, so m <= n.  One step on letter a:
 *   1. every node whose label meets F gets a new youngest child labelled with
 *      that intersection (names m+1, m+2, ... in name order);
 *   2. every label is replaced by its successors on a;
 *   3. horizontal merge: a state stays only in the oldest child (and its
 *      ancestors) that has it;
 *   4. nodes with empty labels are removed;
 *   5. vertical merge: a node whose label equals the union of its children's
 *      is marked and loses its descendants;
 *   6. the step's priority is min(2r - 1, 2g), r the least removed name, g the
 *      least marked name (4n + 1, odd, when neither), and names are compacted.
 * A word is accepted iff the least priority seen infinitely often is even:
 * eventually the names up to a node's are never removed again, so its name is
 * stable, and it is marked infinitely often iff some run visits F infinitely
 * often (Safra's argument).  Bound: at most 2 n^n n! trees (Piterman, 2007).
 *
 * Complement to Buchi: a copy that follows the parity automaton and may jump,
 * for an odd j, into a copy that only allows priorities >= j and accepts after
 * a priority-j step ((tree, j, just-saw-j) states).
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

typedef uint64_t word;

/* A tree under construction.  Invariant: nodes 1..m are in use (index 0
 * unused); parent[1] == 0; label(i) is W words at lab + i * W. */
typedef struct {
    uint32_t m;
    uint32_t *parent;
    word *lab;
    bool *green, *removed;
} tree;

typedef struct {
    const tm_nba *a;
    uint32_t n, W; /* states, words per label */
    word *F;       /* accepting states */
    tree t;        /* the working tree, room for 2n + 1 nodes */
    word *tmp, *claim;
    uint32_t *map;
    u_intern trees; /* tree keys -> DPA state ids */
    uint32_t *key;
    size_t keycap;
} safra;

static word *lab(const safra *s, const tree *t, uint32_t i)
{
    return t->lab + (size_t)i * s->W;
}

static bool empty_set(const safra *s, const word *x)
{
    for (uint32_t k = 0; k < s->W; k++)
        if (x[k])
            return false;
    return true;
}

/* to = successors of from on letter */
static void post(const safra *s, const word *from, uint64_t letter, word *to)
{
    memset(to, 0, s->W * sizeof *to);
    for (uint32_t k = 0; k < s->W; k++)
        for (word b = from[k]; b; b &= b - 1) {
            uint32_t q = k * 64 + (uint32_t)__builtin_ctzll(b);
            const tm_state *st = &s->a->s[q];
            for (uint32_t j = 0; j < st->n; j++)
                if (tm_cube_has(st->e[j].c, letter))
                    to[st->e[j].dst / 64] |= (word)1 << (st->e[j].dst % 64);
        }
}

/* uint32 slots of a tree key before its labels: [m, pad, parent[1..m]],
 * rounded up to even so that the labels are 8-byte aligned in u_intern's
 * 8-byte aligned keys. */
static size_t head_len(uint32_t m)
{
    return ((size_t)m + 3) & ~(size_t)1;
}

/* Decodes DPA state id into s->t. */
static void load(safra *s, uint32_t id)
{
    const uint32_t *k = u_intern_key(&s->trees, id);
    tree *t = &s->t;
    t->m = k[0];
    const word *labels = (const word *)(k + head_len(k[0]));
    for (uint32_t i = 1; i <= t->m; i++) {
        t->parent[i] = k[1 + i];
        memcpy(lab(s, t, i), labels + (size_t)(i - 1) * s->W, s->W * sizeof(word));
    }
}

/* Interns s->t (names already compact); the id or U_INVALID.  Key layout:
 * head_len(m) slots, then m labels of W words. */
static uint32_t store(safra *s, bool *fresh)
{
    const tree *t = &s->t;
    size_t head = head_len(t->m);
    size_t need = head + (size_t)t->m * s->W * 2;
    if (need > s->keycap) {
        uint32_t *k = realloc(s->key, need * 2 * sizeof *k);
        if (!k)
            return U_INVALID;
        s->key = k;
        s->keycap = need * 2;
    }
    memset(s->key, 0, head * sizeof *s->key);
    s->key[0] = t->m;
    for (uint32_t i = 1; i <= t->m; i++)
        s->key[1 + i] = t->parent[i];
    word *labels = (word *)(s->key + head);
    for (uint32_t i = 1; i <= t->m; i++)
        memcpy(labels + (size_t)(i - 1) * s->W, lab(s, t, i), s->W * sizeof(word));
    return u_intern_put(&s->trees, s->key, need * sizeof *s->key, fresh);
}

/* One Safra step of s->t on letter; returns the priority. */
static uint32_t step(safra *s, uint64_t letter)
{
    tree *t = &s->t;
    uint32_t W = s->W, m0 = t->m, m = m0;
    /* 1. branch on accepting states */
    for (uint32_t i = 1; i <= m0; i++) {
        word *x = lab(s, t, i);
        bool any = false;
        for (uint32_t k = 0; k < W; k++)
            any |= (x[k] & s->F[k]) != 0;
        if (!any)
            continue;
        m++;
        t->parent[m] = i;
        word *y = lab(s, t, m);
        for (uint32_t k = 0; k < W; k++)
            y[k] = x[k] & s->F[k];
    }
    /* 2. successors */
    for (uint32_t i = 1; i <= m; i++) {
        post(s, lab(s, t, i), letter, s->tmp);
        memcpy(lab(s, t, i), s->tmp, W * sizeof(word));
        t->green[i] = t->removed[i] = false;
    }
    /* 3. horizontal merge, in name order: parents and older siblings first.
     * claim(i) holds the states i's children processed so far have kept. */
    memset(s->claim, 0, (size_t)(m + 1) * W * sizeof(word));
    for (uint32_t i = 2; i <= m; i++) {
        word *x = lab(s, t, i), *pc = s->claim + (size_t)t->parent[i] * W;
        const word *pl = lab(s, t, t->parent[i]);
        for (uint32_t k = 0; k < W; k++) {
            x[k] &= pl[k] & ~pc[k];
            pc[k] |= x[k];
        }
    }
    /* 4. remove empty nodes (a node under a removed one is empty too) */
    uint32_t rmin = 0, gmin = 0;
    for (uint32_t i = 1; i <= m; i++)
        if (empty_set(s, lab(s, t, i)) || (i > 1 && t->removed[t->parent[i]])) {
            t->removed[i] = true;
            if (!rmin)
                rmin = i;
        }
    /* 5. vertical merge: children's union is claim(i) */
    for (uint32_t i = 1; i <= m; i++) {
        if (t->removed[i])
            continue;
        if (i > 1 && (t->removed[t->parent[i]] || t->green[t->parent[i]])) {
            /* descendant of a merged node */
            t->removed[i] = true;
            if (!rmin || i < rmin)
                rmin = i;
            continue;
        }
        const word *x = lab(s, t, i), *c = s->claim + (size_t)i * W;
        if (!memcmp(x, c, W * sizeof(word))) {
            t->green[i] = true;
            if (!gmin)
                gmin = i;
        }
    }
    /* green nodes' descendants were marked removed above; a green node itself
     * stays.  Priority, then compact names. */
    uint32_t pr = 4 * s->n + 1;
    if (rmin && 2 * rmin - 1 < pr)
        pr = 2 * rmin - 1;
    if (gmin && 2 * gmin < pr)
        pr = 2 * gmin;
    uint32_t k = 0;
    for (uint32_t i = 1; i <= m; i++) {
        if (t->removed[i]) {
            s->map[i] = 0;
            continue;
        }
        s->map[i] = ++k;
        t->parent[k] = i == 1 ? 0 : s->map[t->parent[i]];
        if (k != i)
            memcpy(lab(s, t, k), lab(s, t, i), W * sizeof(word));
    }
    t->m = k;
    return pr;
}

/* The deterministic parity automaton: dst[id * L + l], pri[id * L + l]. */
typedef struct {
    uint32_t *dst, *pri;
    size_t cap;
    uint32_t n;
} dpa;

static int determinise(safra *s, uint64_t L, uint32_t budget, const char *what, dpa *d, u_err *err)
{
    tree *t = &s->t;
    /* initial tree: one root with the initial states (none: the empty tree) */
    t->m = 0;
    if (s->a->ninit) {
        t->m = 1;
        t->parent[1] = 0;
        memset(lab(s, t, 1), 0, s->W * sizeof(word));
        for (uint32_t i = 0; i < s->a->ninit; i++)
            lab(s, t, 1)[s->a->init[i] / 64] |= (word)1 << (s->a->init[i] % 64);
    }
    bool fresh;
    if (store(s, &fresh) == U_INVALID)
        return u_oom(err);
    for (uint32_t id = 0; id < s->trees.n; id++) {
        if ((size_t)(id + 1) * L > d->cap) {
            size_t cap = d->cap ? d->cap * 2 : L * 64;
            while (cap < (size_t)(id + 1) * L)
                cap *= 2;
            uint32_t *x = realloc(d->dst, cap * sizeof *x);
            if (!x)
                return u_oom(err);
            d->dst = x;
            x = realloc(d->pri, cap * sizeof *x);
            if (!x)
                return u_oom(err);
            d->pri = x;
            d->cap = cap;
        }
        for (uint64_t l = 0; l < L; l++) {
            load(s, id);
            uint32_t pr = step(s, tm_spread(l, s->a->apmask));
            uint32_t to = store(s, &fresh);
            if (to == U_INVALID)
                return u_oom(err);
            if (fresh && s->trees.n > budget)
                return u_errf(err,
                              "complementing %s (Safra-Piterman determinisation) exceeds %u "
                              "states",
                              what, budget);
            d->dst[(size_t)id * L + l] = to;
            d->pri[(size_t)id * L + l] = pr;
        }
    }
    d->n = (uint32_t)s->trees.n;
    return 0;
}

/* The complement of the parity automaton as a Buchi automaton: copy 0 follows
 * the parity automaton (its state ids are the tree ids); copy j, for odd j,
 * allows only priorities >= j and accepts right after a priority-j step.
 * Invariant: out state q is (tree_of[q], j_of[q], acc) and ids maps
 * (tree, j, seen) to the states of the copies j > 0. */
typedef struct {
    tm_nba *out;
    u_map ids;
    uint32_t *tree_of, *j_of;
    size_t cap;
    uint32_t budget;
} pbuchi;

static uint32_t pb_state(pbuchi *b, uint32_t tr, uint32_t j, bool seen, const char *what,
                         u_err *err)
{
    uint64_t k = (uint64_t)tr << 32 | (uint64_t)j << 1 | seen;
    uint32_t id = j == 0 ? tr : u_map_get(&b->ids, k);
    if (id != U_INVALID && id < b->out->n)
        return id;
    if (b->out->n >= b->budget) {
        u_errf(err, "complementing %s (parity to Buchi) exceeds %u states", what, b->budget);
        return U_INVALID;
    }
    size_t c1 = b->cap, c2 = b->cap;
    id = b->out->n;
    if (U_GROW(b->tree_of, c1, id) != 0 || U_GROW(b->j_of, c2, id) != 0) {
        u_oom(err);
        return U_INVALID;
    }
    b->cap = c1 < c2 ? c1 : c2;
    if (tm_nba_add_state(b->out, seen) == U_INVALID || (j != 0 && u_map_put(&b->ids, k, id) != 0)) {
        u_oom(err);
        return U_INVALID;
    }
    b->tree_of[id] = tr;
    b->j_of[id] = j;
    return id;
}

static int parity_complement(const safra *s, const dpa *d, uint64_t L, uint32_t budget,
                             const char *what, tm_nba *out, u_err *err)
{
    uint32_t maxp = 4 * s->n + 1;
    tm_nba_init(out, s->a->apmask);
    pbuchi b = {out, {0}, NULL, NULL, 0, budget};
    /* copy 0 first, so that its ids are the tree ids */
    for (uint32_t i = 0; i < d->n; i++)
        if (pb_state(&b, i, 0, false, what, err) == U_INVALID)
            goto fail;
    if (d->n && tm_nba_add_init(out, 0) != 0)
        goto oom;
    for (uint32_t q = 0; q < out->n; q++) {
        uint32_t tr = b.tree_of[q], j = b.j_of[q];
        for (uint64_t l = 0; l < L; l++) {
            uint32_t to = d->dst[(size_t)tr * L + l], p = d->pri[(size_t)tr * L + l];
            tm_cube c = {s->a->apmask, tm_spread(l, s->a->apmask)};
            /* copy 0 stays and may jump into every copy jj <= p; a copy jj
             * stays while p >= jj */
            uint32_t lo = j == 0 ? 0 : j, hi = j == 0 ? (p < maxp ? p : maxp) : j;
            if (j != 0 && p < j)
                continue;
            for (uint32_t jj = lo; jj <= hi; jj += jj == 0 ? 1 : 2) {
                uint32_t target = pb_state(&b, to, jj, jj != 0 && p == jj, what, err);
                if (target == U_INVALID)
                    goto fail;
                if (tm_nba_add_edge(out, q, target, c) != 0)
                    goto oom;
            }
        }
    }
    free(b.tree_of), free(b.j_of);
    u_map_free(&b.ids);
    return 0;
oom:
    u_oom(err);
fail:
    free(b.tree_of), free(b.j_of);
    u_map_free(&b.ids);
    tm_nba_free(out);
    return -1;
}

int tm_complement_safra(const tm_nba *a, uint32_t budget, const char *what, tm_nba *out, u_err *err)
{
    safra s;
    memset(&s, 0, sizeof s);
    s.a = a;
    s.n = a->n;
    s.W = (a->n + 63) / 64;
    if (s.W == 0)
        s.W = 1;
    size_t nodes = 2 * (size_t)a->n + 2;
    s.F = calloc(s.W, sizeof *s.F);
    s.t.parent = calloc(nodes, sizeof *s.t.parent);
    s.t.lab = calloc(nodes * s.W, sizeof *s.t.lab);
    s.t.green = calloc(nodes, sizeof *s.t.green);
    s.t.removed = calloc(nodes, sizeof *s.t.removed);
    s.tmp = calloc(s.W, sizeof *s.tmp);
    s.claim = calloc(nodes * s.W, sizeof *s.claim);
    s.map = calloc(nodes, sizeof *s.map);
    dpa d = {NULL, NULL, 0, 0};
    int r = -1;
    if (!s.F || !s.t.parent || !s.t.lab || !s.t.green || !s.t.removed || !s.tmp || !s.claim ||
        !s.map) {
        u_oom(err);
        goto done;
    }
    for (uint32_t q = 0; q < a->n; q++)
        if (a->s[q].acc)
            s.F[q / 64] |= (word)1 << (q % 64);
    uint64_t L = tm_nba_letters(a);
    if (determinise(&s, L, budget, what, &d, err) != 0)
        goto done;
    if (parity_complement(&s, &d, L, budget, what, out, err) != 0)
        goto done;
    r = tm_nba_merge_edges(out, err);
done:
    free(s.F), free(s.t.parent), free(s.t.lab), free(s.t.green), free(s.t.removed);
    free(s.tmp), free(s.claim), free(s.map), free(s.key);
    u_intern_free(&s.trees);
    free(d.dst), free(d.pri);
    return r;
}
