/* ex_exact: Definition 4 by search (what and why in ex_exact.h). */
#include "ex_exact.h"

#include "ex_eval.h"

#include <stdlib.h>
#include <string.h>

static uint64_t letter_at(const ex_word *w, size_t i)
{
    return ex_letter_at(w->letters, w->n, w->loop, i);
}

/* ---- finite failure ---- */

/* A set of uint64 keys in insertion order (pairs, or single states). */
typedef struct {
    u_map seen;
    uint64_t *v;
    size_t n, cap;
} keyset;

static int ks_add(keyset *s, uint64_t key)
{
    if (u_map_get(&s->seen, key) != U_INVALID)
        return 0;
    if (U_GROW(s->v, s->cap, s->n) || u_map_put(&s->seen, key, 1))
        return -1;
    s->v[s->n++] = key;
    return 0;
}

static void ks_clear(keyset *s)
{
    u_map_free(&s->seen);
    s->n = 0;
}

static void ks_free(keyset *s)
{
    u_map_free(&s->seen);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* Does DFA set x meet the states alive at position j? */
static bool meets(const ex_dfa *d, uint32_t x, const ex_alive *al, size_t j)
{
    const uint64_t *a = ex_dfa_set(d, x), *b = u_intern_key(&al->sets, al->alive[j]);
    for (size_t i = 0; i < d->a->words; i++)
        if (a[i] & b[i])
            return true;
    return false;
}

/* The DFA states before each position 0..upto under every choice of
 * relaxed letters: level j is lv[off[j] .. off[j + 1]).  1 when the budget
 * ran out, -1 when out of memory. */
static int levels(ex_dfa *d, const ex_word *w, size_t upto, uint32_t **lv, size_t **off,
                  long *budget)
{
    keyset cur = {0}, next = {0};
    size_t n = 0, cap = 0;
    *lv = NULL;
    *off = calloc(upto + 2, sizeof **off);
    int rc = !*off || ks_add(&cur, EX_DFA_INIT) ? -1 : 0;
    for (size_t j = 0; !rc; j++) {
        (*off)[j] = n;
        for (size_t i = 0; i < cur.n && !rc; i++) {
            if (U_GROW(*lv, cap, n))
                rc = -1;
            else
                (*lv)[n++] = (uint32_t)cur.v[i];
        }
        if (rc || j == upto)
            break;
        (*off)[j + 1] = n;
        ks_clear(&next);
        uint64_t ell = letter_at(w, j), bot = ex_bottom(w, ell);
        for (size_t i = 0; i < cur.n && !rc; i++)
            for (uint64_t s = bot;; s = (s - 1) & bot) {
                if (--*budget < 0) {
                    rc = 1;
                    break;
                }
                uint32_t t = ex_dfa_next(d, (uint32_t)cur.v[i], ell ^ s);
                if (t == U_INVALID || (t != EX_DFA_EMPTY && ks_add(&next, t)))
                    rc = -1;
                if (rc || !s)
                    break;
            }
        keyset tmp = cur;
        cur = next;
        next = tmp;
    }
    if (!rc)
        (*off)[upto + 1] = n;
    ks_free(&cur);
    ks_free(&next);
    return rc;
}

#define PAIR(a, b) ((uint64_t)(a) << 32 | (b))

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Adds the pair (x1, x2) reached after position j, or settles the search:
 * returns 1 when the candidate is a cause, 0 to go on, -1 out of memory. */
static int step_pair(ex_dfa *d, const ex_alive *al, size_t j, keyset *next, uint32_t x1,
                     uint32_t x2)
{
    if (x1 == U_INVALID || x2 == U_INVALID)
        return -1;
    if (x2 == EX_DFA_EMPTY || x1 == x2 || !meets(d, x2, al, j))
        return 0; /* the second world fails at k, or both fare alike */
    if (x1 == EX_DFA_EMPTY)
        return 1; /* the first has failed for good; the second can survive to k */
    if (ex_dfa_covers(d, x1, x2))
        return 0; /* the first survives wherever the second does */
    return ks_add(next, PAIR(x1, x2));
}

static int decide_one(ex_dfa *d, const ex_word *w, size_t k, const ex_alive *al, const uint32_t *lv,
                      const size_t *off, ex_pdot c, long *budget)
{
    keyset cur = {0}, next = {0};
    uint64_t pbit = 1ull << c.prop;
    int rc = 0;
    uint64_t ell = letter_at(w, c.step), bot = ex_bottom(w, ell) & ~pbit;
    for (size_t i = off[c.step]; i < off[c.step + 1] && !rc; i++)
        for (uint64_t s = bot;; s = (s - 1) & bot) {
            if ((*budget -= 2) < 0) {
                rc = 2;
                break;
            }
            rc = step_pair(d, al, c.step, &cur, ex_dfa_next(d, lv[i], ell ^ s),
                           ex_dfa_next(d, lv[i], ell ^ s ^ pbit));
            if (rc || !s)
                break;
        }
    for (size_t j = c.step + 1; j <= k && !rc && cur.n; j++) {
        ks_clear(&next);
        ell = letter_at(w, j);
        bot = ex_bottom(w, ell);
        for (size_t i = 0; i < cur.n && !rc; i++)
            for (uint64_t s = bot;; s = (s - 1) & bot) {
                if ((*budget -= 2) < 0) {
                    rc = 2;
                    break;
                }
                uint32_t x1 = (uint32_t)(cur.v[i] >> 32), x2 = (uint32_t)cur.v[i];
                rc = step_pair(d, al, j, &next, ex_dfa_next(d, x1, ell ^ s),
                               ex_dfa_next(d, x2, ell ^ s));
                if (rc || !s)
                    break;
            }
        keyset tmp = cur;
        cur = next;
        next = tmp;
    }
    ks_free(&cur);
    ks_free(&next);
    return rc == 1 ? EX_EXACT_YES : rc == 2 ? EX_EXACT_UNDECIDED : rc < 0 ? -2 : EX_EXACT_NO;
}

/* ---- the screen ---- */

#define SCREEN_WORK 4096 /* (state, letter) pairs per position at most */

typedef struct {
    u_intern levels; /* sorted DFA id lists -> ids */
    u_intern keys;   /* (level, alive set, letter) -> result index */
    uint32_t *next;  /* per result: the level after */
    uint64_t *mask;  /* per result: the propositions that pass */
    size_t ncap, mcap;
} screen;

/* One position: the propositions that pass, and the level after it.  *next
 * is U_INVALID when the position is too costly to screen.  0 or -1 (OOM). */
static int screen_step(ex_dfa *d, screen *sc, const ex_word *w, const ex_alive *al, size_t i,
                       uint32_t level, uint64_t *mask, uint32_t *next, long *budget)
{
    uint64_t ell = letter_at(w, i), bot = ex_bottom(w, ell);
    struct {
        uint32_t level, alive;
        uint64_t letter;
    } key = {level, al->alive[i], ell};
    bool fresh;
    uint32_t r = u_intern_put(&sc->keys, &key, sizeof key, &fresh);
    if (r == U_INVALID)
        return -1;
    if (!fresh) {
        *mask = sc->mask[r];
        *next = sc->next[r];
        return 0;
    }
    size_t cnt = u_intern_len(&sc->levels, level) / sizeof(uint32_t);
    const uint32_t *ids = u_intern_key(&sc->levels, level);
    size_t nletters = (size_t)1 << __builtin_popcountll(bot);
    *mask = ~0ull;
    *next = U_INVALID;
    if (__builtin_popcountll(bot) > 12 || cnt * nletters > SCREEN_WORK)
        goto store;
    keyset after = {0};
    uint64_t pass = 0;
    int rc = 0;
    for (size_t x = 0; x < cnt && !rc; x++) {
        cnt = u_intern_len(&sc->levels, level) / sizeof(uint32_t);
        ids = u_intern_key(&sc->levels, level); /* interning below may move it */
        uint32_t from = ids[x];
        for (uint64_t s = bot;; s = (s - 1) & bot) {
            *budget -= 1 + __builtin_popcountll(bot & ~s);
            uint32_t x1 = ex_dfa_next(d, from, ell ^ s);
            if (x1 == U_INVALID || (x1 != EX_DFA_EMPTY && ks_add(&after, x1))) {
                rc = -1;
                break;
            }
            for (uint64_t m = bot & ~s & ~pass; m; m &= m - 1) {
                uint64_t pbit = m & -m;
                uint32_t x2 = ex_dfa_next(d, from, ell ^ s ^ pbit);
                if (x2 == U_INVALID) {
                    rc = -1;
                    break;
                }
                if (x2 != EX_DFA_EMPTY && meets(d, x2, al, i) && !ex_dfa_covers(d, x1, x2))
                    pass |= pbit;
            }
            if (rc || !s)
                break;
        }
    }
    if (!rc) {
        /* the next level as a sorted list of ids */
        uint32_t *list = malloc((after.n + 1) * sizeof *list);
        rc = list ? 0 : -1;
        for (size_t x = 0; !rc && x < after.n; x++)
            list[x] = (uint32_t)after.v[x];
        if (!rc) {
            qsort(list, after.n, sizeof *list, cmp_u32);
            *next = u_intern_put(&sc->levels, list, after.n * sizeof *list, &fresh);
            rc = *next == U_INVALID ? -1 : 0;
        }
        free(list);
        *mask = pass;
    }
    ks_free(&after);
    if (rc)
        return -1;
store:
    if (u_grow((void **)&sc->next, &sc->ncap, r, sizeof *sc->next, 64) ||
        u_grow((void **)&sc->mask, &sc->mcap, r, sizeof *sc->mask, 64))
        return -1;
    sc->next[r] = *next;
    sc->mask[r] = *mask;
    return 0;
}

int ex_screen_finite(ex_dfa *d, const ex_word *w, size_t k, const ex_alive *al, uint64_t *need,
                     long *budget)
{
    screen sc = {0};
    uint32_t init = EX_DFA_INIT;
    bool fresh;
    uint32_t level = u_intern_put(&sc.levels, &init, sizeof init, &fresh);
    int rc = level == U_INVALID ? -1 : 0;
    for (size_t i = 0; i <= k && !rc && level != U_INVALID && *budget > 0; i++) {
        uint64_t mask = ~0ull;
        rc = screen_step(d, &sc, w, al, i, level, &mask, &level, budget);
        need[i] &= mask;
    }
    u_intern_free(&sc.levels);
    u_intern_free(&sc.keys);
    free(sc.next);
    free(sc.mask);
    return rc;
}

int ex_exact_finite(ex_dfa *d, const ex_word *w, size_t k, const ex_alive *al, const ex_pdot *cand,
                    size_t ncand, int *verdict, long *budget)
{
    size_t upto = 0;
    for (size_t c = 0; c < ncand; c++) {
        verdict[c] = EX_EXACT_UNDECIDED;
        if (cand[c].step > upto)
            upto = cand[c].step;
    }
    if (!ncand)
        return 0;
    uint32_t *lv;
    size_t *off;
    int rc = levels(d, w, upto, &lv, &off, budget);
    for (size_t c = 0; c < ncand && !rc && *budget > 0; c++) {
        int v = decide_one(d, w, k, al, lv, off, cand[c], budget);
        if (v == -2)
            rc = -1;
        else
            verdict[c] = v;
    }
    free(lv);
    free(off);
    return rc < 0 ? -1 : 0;
}

/* ---- infinite failure on a lasso ---- */

typedef struct {
    size_t step;
    uint64_t bit;
} flip;

/* 1 if the lasso with the flips of mask `set` applied satisfies the
 * formula, 0 if not, -1 out of memory. */
static int sat_with(const ex_ltl *l, int tab, const ex_word *w, uint64_t *buf, const flip *f,
                    size_t nf, uint64_t set)
{
    memcpy(buf, w->letters, w->n * sizeof *buf);
    for (size_t i = 0; i < nf; i++)
        if ((set >> i) & 1)
            buf[f[i].step] ^= f[i].bit;
    return ex_eval_trace(l, tab, buf, w->n, w->loop, 0);
}

/* What one lasso evaluation costs of the budget (ex_exact.h). */
static long eval_cost(const ex_word *w)
{
    return 1 + (long)(w->n / 64);
}

/* Every subset: sat[] as a bitmap, then each candidate read off it. */
static int lasso_all(const ex_ltl *l, int tab, const ex_word *w, const flip *f, size_t nf,
                     const size_t *ci, size_t ncand, int *verdict, uint64_t *buf)
{
    size_t nsets = (size_t)1 << nf;
    uint8_t *sat = calloc(nsets / 8 + 1, 1);
    if (!sat)
        return -1;
    for (size_t s = 0; s < nsets; s++) {
        int v = sat_with(l, tab, w, buf, f, nf, s);
        if (v < 0) {
            free(sat);
            return -1;
        }
        if (v)
            sat[s >> 3] |= (uint8_t)(1u << (s & 7));
    }
#define SAT(s) ((sat[(s) >> 3] >> ((s)&7)) & 1)
    for (size_t c = 0; c < ncand; c++) {
        if (ci[c] == SIZE_MAX) {
            verdict[c] = EX_EXACT_NO; /* not bottom-valued on a displayed step */
            continue;
        }
        size_t x = (size_t)1 << ci[c];
        verdict[c] = EX_EXACT_NO;
        for (size_t s = 0; s < nsets && verdict[c] == EX_EXACT_NO; s++)
            if (!(s & x) && !SAT(s) && SAT(s | x))
                verdict[c] = EX_EXACT_YES;
    }
#undef SAT
    free(sat);
    return 0;
}

/* Sets A by increasing size (as bit masks over f) until the budget runs out:
 * proves causes; whatever is not proven stays undecided. */
static int lasso_some(const ex_ltl *l, int tab, const ex_word *w, const flip *f, size_t nf,
                      const size_t *ci, size_t ncand, int *verdict, uint64_t *buf, long *budget)
{
    size_t open = 0;
    for (size_t c = 0; c < ncand; c++)
        open += verdict[c] == EX_EXACT_UNDECIDED;
    for (size_t r = 0; r <= nf && r < 64 && open && *budget > 0; r++) {
        /* the r-subsets of nf bits in increasing order (Gosper's hack) */
        uint64_t set = r ? (((uint64_t)1 << r) - 1) : 0;
        while (open && *budget > 0) {
            *budget -= eval_cost(w);
            int v = sat_with(l, tab, w, buf, f, nf, set);
            if (v < 0)
                return -1;
            for (size_t c = 0; c < ncand && !v; c++) {
                if (verdict[c] != EX_EXACT_UNDECIDED || ci[c] == SIZE_MAX || ((set >> ci[c]) & 1))
                    continue;
                *budget -= eval_cost(w);
                int v2 = sat_with(l, tab, w, buf, f, nf, set | (uint64_t)1 << ci[c]);
                if (v2 < 0)
                    return -1;
                if (v2) {
                    verdict[c] = EX_EXACT_YES;
                    open--;
                }
            }
            if (!r)
                break;
            uint64_t lo = set & -set, hi = set + lo;
            set = (((hi ^ set) >> 2) / lo) | hi;
            if (nf < 64 && set >> nf)
                break;
        }
    }
    return 0;
}

int ex_exact_lasso(const ex_ltl *l, int tab, const ex_word *w, const ex_pdot *cand, size_t ncand,
                   int *verdict, long *budget)
{
    size_t nf = 0, cap = 0;
    flip *f = NULL;
    for (size_t j = 0; j < w->n; j++) {
        uint64_t bot = ex_bottom(w, w->letters[j]);
        for (int p = 0; p < 64; p++)
            if ((bot >> p) & 1) {
                if (U_GROW(f, cap, nf)) {
                    free(f);
                    return -1;
                }
                f[nf++] = (flip){j, 1ull << p};
            }
    }
    for (size_t c = 0; c < ncand; c++)
        verdict[c] = EX_EXACT_UNDECIDED;
    if (nf > 63) { /* masks of 64 bits: beyond them nothing is decided */
        free(f);
        return 0;
    }
    size_t *ci = malloc((ncand + 1) * sizeof *ci);
    uint64_t *buf = malloc((w->n + 1) * sizeof *buf);
    int rc = ci && buf ? 0 : -1;
    for (size_t c = 0; c < ncand && !rc; c++) {
        ci[c] = SIZE_MAX;
        for (size_t i = 0; i < nf; i++)
            if (f[i].step == cand[c].step && f[i].bit == 1ull << cand[c].prop)
                ci[c] = i;
    }
    if (!rc && nf < 40 && ((long)1 << nf) <= *budget / eval_cost(w)) {
        *budget -= ((long)1 << nf) * eval_cost(w);
        rc = lasso_all(l, tab, w, f, nf, ci, ncand, verdict, buf);
    } else if (!rc) {
        rc = lasso_some(l, tab, w, f, nf, ci, ncand, verdict, buf, budget);
    }
    free(f);
    free(ci);
    free(buf);
    return rc;
}
