/*
 * tm_simulation.c - the direct-simulation quotient, the reduction tm_reduce.c
 * applies to every automaton it is given.
 *
 * q simulates p (p <= q) when q is accepting whenever p is and every edge of p
 * is matched, letter by letter, by an edge of q into a state that simulates
 * p's target; the greatest such relation is a preorder and L(p) is a subset of
 * L(q).  States that simulate each other are merged (language-preserving for
 * direct simulation: Dill, Hu and Wong), an edge is dropped when a sibling edge
 * with at least its letters leads to a state strictly simulating its target
 * ("little brothers", Bustan and Grumberg), and an initial state is dropped
 * when another initial state strictly simulates it.
 *
 * Three ways to compute the relation, fastest first:
 *   - deterministic automata over few letters: a worklist over pairs, since
 *     (p, q) fails exactly when some letter leads to a failed pair (each
 *     removed pair is pushed to its predecessor pairs once);
 *   - nondeterministic automata over few letters: refinement rounds over the
 *     pairs with successor lists per letter;
 *   - many letters (more than 256): refinement rounds with cube coverage.
 * The relation takes n^2 bits, so automata above SIM_MAX_STATES states are
 * left alone.
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

typedef uint64_t word;

#define SIM_MAX_STATES  4000
#define SIM_MAX_LETTERS 256
/* The delayed game has 2 n^2 nodes; with the duplicator's choices it is
 * solved by nested fixpoints, so smaller automata only. */
#define DELAYED_MAX_STATES 2000
#define GAME_MAX_STATES    200

/* R as an n x n bit matrix: bit q of row p set iff q simulates p. */
typedef struct {
    uint32_t n, W;
    word *bits;
} rel;

static bool rel_get(const rel *r, uint32_t p, uint32_t q)
{
    return r->bits[(size_t)p * r->W + q / 64] >> (q % 64) & 1;
}

static void rel_clear(rel *r, uint32_t p, uint32_t q)
{
    r->bits[(size_t)p * r->W + q / 64] &= ~((word)1 << (q % 64));
}

static int rel_init(rel *r, const tm_nba *a)
{
    r->n = a->n;
    r->W = (a->n + 63) / 64;
    r->bits = calloc((size_t)a->n * r->W + 1, sizeof *r->bits);
    if (!r->bits)
        return -1;
    for (uint32_t p = 0; p < a->n; p++)
        for (uint32_t q = 0; q < a->n; q++)
            if (!a->s[p].acc || a->s[q].acc)
                r->bits[(size_t)p * r->W + q / 64] |= (word)1 << (q % 64);
    return 0;
}

/* ---- explicit letters ---- */

/* Successors (and predecessors) per state and letter, in CSR form:
 * list (p, l) is v[off[p * L + l] .. off[p * L + l + 1]). */
typedef struct {
    uint64_t L;
    size_t *off;
    uint32_t *v;
} table;

static void table_free(table *t)
{
    free(t->off), free(t->v);
}

static int build_table(const tm_nba *a, uint64_t L, bool reverse, table *t)
{
    size_t cells = (size_t)a->n * L;
    t->L = L;
    t->off = calloc(cells + 2, sizeof *t->off);
    t->v = NULL;
    if (!t->off)
        return -1;
    /* two passes: count, then fill */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t p = 0; p < a->n; p++)
            for (uint32_t i = 0; i < a->s[p].n; i++) {
                const tm_edge *e = &a->s[p].e[i];
                for (uint64_t l = 0; l < L; l++) {
                    if (!tm_cube_has(e->c, tm_spread(l, a->apmask)))
                        continue;
                    size_t cell = (size_t)(reverse ? e->dst : p) * L + l;
                    uint32_t who = reverse ? p : e->dst;
                    if (pass == 0)
                        t->off[cell + 1]++;
                    else
                        t->v[t->off[cell]++] = who;
                }
            }
        if (pass == 0) {
            for (size_t c = 0; c < cells; c++)
                t->off[c + 1] += t->off[c];
            t->v = malloc((t->off[cells] + 1) * sizeof *t->v);
            if (!t->v)
                return -1;
        } else {
            /* off[c] was advanced to the end of list c: shift back */
            for (size_t c = cells; c > 0; c--)
                t->off[c] = t->off[c - 1];
            t->off[0] = 0;
        }
    }
    return 0;
}

/* Deterministic automata: the worklist over failed pairs. */
static int simulation_det(const tm_nba *a, uint64_t L, rel *r)
{
    table post = {0, NULL, NULL}, pre = {0, NULL, NULL};
    uint64_t *stack = NULL;
    size_t sp = 0, cap = 0;
    if (build_table(a, L, false, &post) != 0 || build_table(a, L, true, &pre) != 0)
        goto oom;
    uint32_t n = a->n;
    /* pairs failing by acceptance were never in R; those where p has a letter q
     * lacks fail now */
    for (uint32_t p = 0; p < n; p++)
        for (uint32_t q = 0; q < n; q++) {
            bool fails = !rel_get(r, p, q);
            for (uint64_t l = 0; l < L && !fails; l++) {
                size_t cp = (size_t)p * L + l, cq = (size_t)q * L + l;
                fails = post.off[cp + 1] > post.off[cp] && post.off[cq + 1] == post.off[cq];
            }
            if (!fails)
                continue;
            rel_clear(r, p, q);
            if (sp == cap && U_GROW(stack, cap, sp) != 0)
                goto oom;
            stack[sp++] = (uint64_t)p << 32 | q;
        }
    while (sp > 0) {
        uint64_t x = stack[--sp];
        uint32_t p2 = (uint32_t)(x >> 32), q2 = (uint32_t)x;
        for (uint64_t l = 0; l < L; l++) {
            size_t cp = (size_t)p2 * L + l, cq = (size_t)q2 * L + l;
            for (size_t i = pre.off[cp]; i < pre.off[cp + 1]; i++)
                for (size_t j = pre.off[cq]; j < pre.off[cq + 1]; j++) {
                    uint32_t p = pre.v[i], q = pre.v[j];
                    if (!rel_get(r, p, q))
                        continue;
                    rel_clear(r, p, q);
                    if (sp == cap && U_GROW(stack, cap, sp) != 0)
                        goto oom;
                    stack[sp++] = (uint64_t)p << 32 | q;
                }
        }
    }
    table_free(&post), table_free(&pre);
    free(stack);
    return 0;
oom:
    table_free(&post), table_free(&pre);
    free(stack);
    return -1;
}

/* Nondeterministic automata over few letters.  With Pre_l(X) = the states
 * with an l-successor in X, q can simulate p only if q is in Pre_l(R(p')) for
 * every l-successor p' of p; rows shrink until nothing changes.  Pre_l(R(p'))
 * is cached per (p', l) and recomputed when row p' changed; a changed row puts
 * its predecessors back on the worklist. */
static int simulation_letters(const tm_nba *a, uint64_t L, rel *r)
{
    uint32_t n = a->n;
    size_t W = r->W;
    table post = {0, NULL, NULL}, pre = {0, NULL, NULL};
    word *cache = malloc(((size_t)n * L * W + 1) * sizeof *cache);
    word *row = malloc((W + 1) * sizeof *row);
    uint32_t *stamp = calloc((size_t)n * L + 1, sizeof *stamp); /* version cached */
    uint32_t *version = calloc((size_t)n + 1, sizeof *version);
    uint32_t *queue = malloc(((size_t)n + 1) * sizeof *queue);
    bool *queued = calloc((size_t)n + 1, sizeof *queued);
    int rc = -1;
    if (!cache || !row || !stamp || !version || !queue || !queued ||
        build_table(a, L, false, &post) != 0 || build_table(a, L, true, &pre) != 0)
        goto done;
    for (uint32_t p = 0; p < n; p++)
        version[p] = 1;
    size_t head = 0, count = n;
    for (uint32_t p = 0; p < n; p++) {
        queue[p] = p;
        queued[p] = true;
    }
    while (count > 0) {
        uint32_t p = queue[head];
        head = (head + 1) % n;
        count--;
        queued[p] = false;
        memcpy(row, r->bits + (size_t)p * W, W * sizeof *row);
        for (uint64_t l = 0; l < L; l++) {
            size_t cp = (size_t)p * L + l;
            for (size_t i = post.off[cp]; i < post.off[cp + 1]; i++) {
                uint32_t p2 = post.v[i];
                size_t c = (size_t)p2 * L + l;
                word *pl = cache + c * W;
                if (stamp[c] != version[p2]) {
                    /* Pre_l(R(p2)) */
                    memset(pl, 0, W * sizeof *pl);
                    const word *rp2 = r->bits + (size_t)p2 * W;
                    for (size_t k = 0; k < W; k++)
                        for (word bits = rp2[k]; bits; bits &= bits - 1) {
                            uint32_t q2 = (uint32_t)(k * 64 + (size_t)__builtin_ctzll(bits));
                            size_t cq = (size_t)q2 * L + l;
                            for (size_t j = pre.off[cq]; j < pre.off[cq + 1]; j++)
                                pl[pre.v[j] / 64] |= (word)1 << (pre.v[j] % 64);
                        }
                    stamp[c] = version[p2];
                }
                for (size_t k = 0; k < W; k++)
                    row[k] &= pl[k];
            }
        }
        row[p / 64] |= (word)1 << (p % 64); /* reflexive */
        if (!memcmp(row, r->bits + (size_t)p * W, W * sizeof *row))
            continue;
        memcpy(r->bits + (size_t)p * W, row, W * sizeof *row);
        version[p]++;
        /* rows of p's predecessors may shrink now */
        for (uint64_t l = 0; l < L; l++) {
            size_t cp = (size_t)p * L + l;
            for (size_t j = pre.off[cp]; j < pre.off[cp + 1]; j++) {
                uint32_t u = pre.v[j];
                if (!queued[u]) {
                    queued[u] = true;
                    queue[(head + count) % n] = u;
                    count++;
                }
            }
        }
    }
    rc = 0;
done:
    table_free(&post), table_free(&pre);
    free(cache), free(row), free(stamp), free(version), free(queue), free(queued);
    return rc;
}

/* Many letters: coverage of p's edge cubes by q's matching edges. */
static bool matches(const tm_nba *a, const rel *r, uint32_t p, uint32_t q, tm_cube *buf)
{
    const tm_state *sp = &a->s[p], *sq = &a->s[q];
    for (uint32_t i = 0; i < sp->n; i++) {
        tm_cube c = sp->e[i].c;
        uint32_t t = sp->e[i].dst, k = 0;
        for (uint32_t j = 0; j < sq->n; j++)
            if (tm_cube_meets(sq->e[j].c, c) && rel_get(r, t, sq->e[j].dst))
                buf[k++] = sq->e[j].c;
        if (!tm_cubes_cover(buf, k, c, a->apmask))
            return false;
    }
    return true;
}

static int simulation_cubes(const tm_nba *a, rel *r)
{
    uint32_t maxdeg = 1;
    for (uint32_t q = 0; q < a->n; q++)
        if (a->s[q].n > maxdeg)
            maxdeg = a->s[q].n;
    tm_cube *buf = malloc(maxdeg * sizeof *buf);
    if (!buf)
        return -1;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t p = 0; p < a->n; p++)
            for (uint32_t q = 0; q < a->n; q++)
                if (q != p && rel_get(r, p, q) && !matches(a, r, p, q, buf)) {
                    rel_clear(r, p, q);
                    changed = true;
                }
    }
    free(buf);
    return 0;
}

static int simulation(const tm_nba *a, rel *r)
{
    if (rel_init(r, a) != 0)
        return -1;
    uint64_t L = tm_nba_letters(a);
    int rc;
    if (L <= SIM_MAX_LETTERS && tm_nba_deterministic(a))
        rc = simulation_det(a, L, r);
    else if (L <= SIM_MAX_LETTERS)
        rc = simulation_letters(a, L, r);
    else
        rc = simulation_cubes(a, r);
    if (rc != 0)
        free(r->bits);
    return rc;
}

/* ---- the quotient ---- */

static bool cube_implies(tm_cube a, tm_cube b)
{
    return (b.mask & ~a.mask) == 0 && ((a.val ^ b.val) & b.mask) == 0;
}

/* Drops a state's edges to little brothers and exact duplicates. */
static void prune_state(tm_state *s, const rel *r)
{
    for (uint32_t i = 0; i < s->n;) {
        bool drop = false;
        for (uint32_t j = 0; j < s->n && !drop; j++) {
            if (j == i || !cube_implies(s->e[i].c, s->e[j].c))
                continue;
            uint32_t t1 = s->e[i].dst, t2 = s->e[j].dst;
            if (t1 == t2)
                /* same target, fewer letters: keep the larger; among equal
                 * cubes keep the first */
                drop = !cube_implies(s->e[j].c, s->e[i].c) || j < i;
            else
                drop = rel_get(r, t1, t2) && !rel_get(r, t2, t1);
        }
        if (drop)
            s->e[i] = s->e[--s->n];
        else
            i++;
    }
}

/* Merges the classes of the equivalence "r both ways" into a new automaton:
 * edges are the union of the members' edges; a class is accepting when a member
 * is (for direct simulation all members agree).  With prune, little brothers
 * go as well (sound for direct simulation only). */
static int quotient_by(tm_nba *a, const rel *r, bool prune, u_err *err)
{
    uint32_t *cls = malloc(((size_t)a->n + 1) * sizeof *cls);
    uint32_t *rep = malloc(((size_t)a->n + 1) * sizeof *rep);
    rel rc = {0, 0, NULL};
    tm_nba b;
    tm_nba_init(&b, a->apmask);
    if (!cls || !rep)
        goto oom;
    uint32_t nc = 0;
    for (uint32_t p = 0; p < a->n; p++) {
        cls[p] = U_INVALID;
        for (uint32_t c = 0; c < nc; c++)
            if (rel_get(r, p, rep[c]) && rel_get(r, rep[c], p)) {
                cls[p] = c;
                break;
            }
        if (cls[p] == U_INVALID) {
            rep[nc] = p;
            cls[p] = nc++;
        }
    }
    if (nc == a->n) {
        free(cls), free(rep);
        return 0;
    }
    for (uint32_t c = 0; c < nc; c++)
        if (tm_nba_add_state(&b, false) == U_INVALID)
            goto oom;
    for (uint32_t p = 0; p < a->n; p++) {
        b.s[cls[p]].acc |= a->s[p].acc;
        for (uint32_t i = 0; i < a->s[p].n; i++)
            if (tm_nba_add_edge(&b, cls[p], cls[a->s[p].e[i].dst], a->s[p].e[i].c) != 0)
                goto oom;
    }
    /* the relation on classes: that of their representatives */
    rc.n = nc;
    rc.W = (nc + 63) / 64;
    rc.bits = calloc((size_t)nc * rc.W + 1, sizeof(word));
    if (!rc.bits)
        goto oom;
    for (uint32_t x = 0; x < nc; x++)
        for (uint32_t y = 0; y < nc; y++)
            if (rel_get(r, rep[x], rep[y]))
                rc.bits[(size_t)x * rc.W + y / 64] |= (word)1 << (y % 64);
    if (tm_nba_merge_edges(&b, err) != 0)
        goto fail;
    if (prune)
        for (uint32_t c = 0; c < nc; c++)
            prune_state(&b.s[c], &rc);
    for (uint32_t i = 0; i < a->ninit; i++) {
        uint32_t c = cls[a->init[i]];
        bool dominated = false;
        for (uint32_t j = 0; j < a->ninit && !dominated && prune; j++) {
            uint32_t d = cls[a->init[j]];
            dominated = d != c && rel_get(&rc, c, d) && !rel_get(&rc, d, c);
        }
        if (!dominated && tm_nba_add_init(&b, c) != 0)
            goto oom;
    }
    free(rc.bits), free(cls), free(rep);
    tm_nba_free(a);
    *a = b;
    return 0;
oom:
    u_oom(err);
fail:
    free(rc.bits), free(cls), free(rep);
    tm_nba_free(&b);
    return -1;
}

int tm_nba_simulation_quotient(tm_nba *a, u_err *err)
{
    if (a->n == 0 || a->n > SIM_MAX_STATES)
        return 0;
    rel r;
    if (simulation(a, &r) != 0)
        return u_oom(err);
    int rc = quotient_by(a, &r, true, err);
    free(r.bits);
    return rc;
}

/* ---- delayed simulation of deterministic automata ---- */

/* The delayed-simulation game (Etessami, Wilke, Schuller) on a deterministic
 * automaton has no choice for the duplicator, so it is a graph over nodes
 * (p, q, b), b = "p has accepted since q last did": the spoiler picks letters
 * and wins by reaching a letter p can read and q cannot, or a cycle on which
 * b stays 1.  q delayed-simulates p iff (p, q, acc(p) and not acc(q)) is not
 * losing.  Node (p, q, b) is index (p * n + q) * 2 + b. */
static int delayed_det(const tm_nba *a, uint64_t L, rel *r)
{
    uint32_t n = a->n;
    size_t N = (size_t)n * n * 2;
    table post = {0, NULL, NULL}, pre = {0, NULL, NULL};
    uint8_t *lose = calloc(N, 1), *inX = calloc(N, 1);
    uint16_t *cnt = calloc(N, sizeof *cnt);
    uint32_t *stack = NULL;
    size_t sp = 0, cap = 0;
    if (!lose || !inX || !cnt || build_table(a, L, false, &post) != 0 ||
        build_table(a, L, true, &pre) != 0)
        goto oom;
#define SUCC(p, l)                                                                                 \
    (post.off[(size_t)(p)*L + (l) + 1] > post.off[(size_t)(p)*L + (l)]                             \
         ? post.v[post.off[(size_t)(p)*L + (l)]]                                                   \
         : U_INVALID)
#define PUSH(v)                                                                                    \
    do {                                                                                           \
        if (sp == cap && U_GROW(stack, cap, sp) != 0)                                              \
            goto oom;                                                                              \
        stack[sp++] = (uint32_t)(v);                                                               \
    } while (0)
    /* X: b=1 nodes with an infinite b=1 path (remove nodes without a b=1
     * successor until none is left) */
    for (uint32_t p = 0; p < n; p++)
        for (uint32_t q = 0; q < n; q++) {
            size_t v = ((size_t)p * n + q) * 2 + 1;
            inX[v] = 1;
            for (uint64_t l = 0; l < L; l++) {
                uint32_t p2 = SUCC(p, l), q2 = SUCC(q, l);
                if (p2 != U_INVALID && q2 != U_INVALID && !a->s[q2].acc)
                    cnt[v]++;
            }
            if (cnt[v] == 0)
                PUSH(v);
        }
    while (sp > 0) {
        size_t v = stack[--sp];
        inX[v] = 0;
        uint32_t p2 = (uint32_t)(v / 2 / n), q2 = (uint32_t)(v / 2 % n);
        if (a->s[q2].acc)
            continue; /* no b = 1 edge enters a node where q accepts */
        for (uint64_t l = 0; l < L; l++) {
            size_t cp = (size_t)p2 * L + l, cq = (size_t)q2 * L + l;
            for (size_t i = pre.off[cp]; i < pre.off[cp + 1]; i++)
                for (size_t j = pre.off[cq]; j < pre.off[cq + 1]; j++) {
                    size_t u = ((size_t)pre.v[i] * n + pre.v[j]) * 2 + 1;
                    if (inX[u] && cnt[u] > 0 && --cnt[u] == 0)
                        PUSH(u);
                }
        }
    }
    /* losing: backward closure of X and of the nodes where q cannot follow */
    for (uint32_t p = 0; p < n; p++)
        for (uint32_t q = 0; q < n; q++)
            for (int b = 0; b < 2; b++) {
                size_t v = ((size_t)p * n + q) * 2 + b;
                bool bad = inX[v];
                for (uint64_t l = 0; l < L && !bad; l++)
                    bad = SUCC(p, l) != U_INVALID && SUCC(q, l) == U_INVALID;
                if (bad) {
                    lose[v] = 1;
                    PUSH(v);
                }
            }
    while (sp > 0) {
        size_t v = stack[--sp];
        uint32_t p2 = (uint32_t)(v / 2 / n), q2 = (uint32_t)(v / 2 % n);
        int b2 = (int)(v % 2);
        for (uint64_t l = 0; l < L; l++) {
            size_t cp = (size_t)p2 * L + l, cq = (size_t)q2 * L + l;
            for (size_t i = pre.off[cp]; i < pre.off[cp + 1]; i++)
                for (size_t j = pre.off[cq]; j < pre.off[cq + 1]; j++)
                    for (int b = 0; b < 2; b++) {
                        /* the b that lead to b2: discharged when q2 accepts */
                        int to = a->s[q2].acc ? 0 : (b || a->s[p2].acc);
                        if (to != b2)
                            continue;
                        size_t u = ((size_t)pre.v[i] * n + pre.v[j]) * 2 + b;
                        if (!lose[u]) {
                            lose[u] = 1;
                            PUSH(u);
                        }
                    }
        }
    }
#undef SUCC
#undef PUSH
    for (uint32_t p = 0; p < n; p++)
        for (uint32_t q = 0; q < n; q++) {
            size_t v = ((size_t)p * n + q) * 2 + (a->s[p].acc && !a->s[q].acc);
            if (lose[v])
                rel_clear(r, p, q);
            else
                r->bits[(size_t)p * r->W + q / 64] |= (word)1 << (q % 64);
        }
    free(lose), free(inX), free(cnt), free(stack);
    table_free(&post), table_free(&pre);
    return 0;
oom:
    free(lose), free(inX), free(cnt), free(stack);
    table_free(&post), table_free(&pre);
    return -1;
}

/* The delayed-simulation game on a nondeterministic automaton: the duplicator
 * answers the spoiler's letter and move, and wins when b = 0 infinitely often,
 * a Buchi condition: W = nu Z. mu Y. (b = 0 and CPre(Z)) or CPre(Y), where
 * CPre(X) holds at (p, q, b) when every move p -l-> p' has an answer q -l-> q'
 * with (p', q', b') in X. */
static bool cpre(const tm_nba *a, const table *post, const uint8_t *X, uint32_t p, uint32_t q,
                 int b)
{
    uint32_t n = a->n;
    for (uint64_t l = 0; l < post->L; l++) {
        size_t cp = (size_t)p * post->L + l, cq = (size_t)q * post->L + l;
        for (size_t i = post->off[cp]; i < post->off[cp + 1]; i++) {
            uint32_t p2 = post->v[i];
            bool answered = false;
            for (size_t j = post->off[cq]; j < post->off[cq + 1] && !answered; j++) {
                uint32_t q2 = post->v[j];
                int b2 = a->s[q2].acc ? 0 : (b || a->s[p2].acc);
                answered = X[((size_t)p2 * n + q2) * 2 + b2];
            }
            if (!answered)
                return false;
        }
    }
    return true;
}

static int delayed_game(const tm_nba *a, uint64_t L, rel *r)
{
    uint32_t n = a->n;
    size_t N = (size_t)n * n * 2;
    table post = {0, NULL, NULL};
    uint8_t *Z = malloc(N), *Y = malloc(N);
    if (!Z || !Y || build_table(a, L, false, &post) != 0) {
        free(Z), free(Y), table_free(&post);
        return -1;
    }
    memset(Z, 1, N);
    for (bool zchanged = true; zchanged;) {
        memset(Y, 0, N);
        for (bool ychanged = true; ychanged;) {
            ychanged = false;
            for (size_t v = 0; v < N; v++) {
                if (Y[v])
                    continue;
                uint32_t p = (uint32_t)(v / 2 / n), q = (uint32_t)(v / 2 % n);
                int b = (int)(v % 2);
                if ((b == 0 && cpre(a, &post, Z, p, q, b)) || cpre(a, &post, Y, p, q, b)) {
                    Y[v] = 1;
                    ychanged = true;
                }
            }
        }
        zchanged = memcmp(Y, Z, N) != 0;
        memcpy(Z, Y, N);
    }
    for (uint32_t p = 0; p < n; p++)
        for (uint32_t q = 0; q < n; q++)
            if (Z[((size_t)p * n + q) * 2 + (a->s[p].acc && !a->s[q].acc)])
                r->bits[(size_t)p * r->W + q / 64] |= (word)1 << (q % 64);
    free(Z), free(Y), table_free(&post);
    return 0;
}

int tm_nba_delayed_quotient(tm_nba *a, u_err *err)
{
    uint64_t L = tm_nba_letters(a);
    bool det = tm_nba_deterministic(a);
    if (a->n < 2 || L > SIM_MAX_LETTERS || a->n > (det ? DELAYED_MAX_STATES : GAME_MAX_STATES))
        return 0;
    rel r;
    r.n = a->n;
    r.W = (a->n + 63) / 64;
    r.bits = calloc((size_t)a->n * r.W + 1, sizeof *r.bits);
    if (!r.bits || (det ? delayed_det(a, L, &r) : delayed_game(a, L, &r)) != 0) {
        free(r.bits);
        return u_oom(err);
    }
    int rc = quotient_by(a, &r, false, err);
    free(r.bits);
    return rc;
}
