/*
 * tm_complement.c - complementation of Buchi automata, the step section 5.2 of
 * the paper needs twice (the effect when it is given as an automaton, and the
 * upward closure whose complement is the cause).
 *
 * Two constructions, chosen by the automaton's structure:
 *   - weak automata (every SCC has only accepting or only rejecting cycles):
 *     a run is accepting iff it ends in an accepting SCC, so the complement is
 *     "every run visits rejecting states infinitely often", a universal Buchi
 *     condition, which the breakpoint construction of Miyano and Hayashi turns
 *     into a deterministic Buchi automaton: states (S, O), S the states the
 *     runs are in, O those runs that owe a rejecting visit since the last
 *     breakpoint; at most 3^n states.  The negations of the paper's arbiter
 *     effects (G !g0, F g0, F G !g0) and everything built from them are weak.
 *   - otherwise Safra-Piterman determinisation (tm_safra.c).
 * The macro-states are interned as uint32 strings (u_intern); letters are
 * enumerated explicitly over the automaton's APs, so the alphabet must stay
 * small (the cause's alphabet is the system's inputs).
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

/* ---- weakness ---- */

/* The automaton without its accepting states' edges: its nontrivial SCCs are
 * exactly the rejecting cycles of a. */
static int rejecting_part(const tm_nba *a, tm_nba *r)
{
    tm_nba_init(r, a->apmask);
    for (uint32_t q = 0; q < a->n; q++)
        if (tm_nba_add_state(r, false) == U_INVALID)
            return -1;
    for (uint32_t q = 0; q < a->n; q++) {
        if (a->s[q].acc)
            continue;
        for (uint32_t i = 0; i < a->s[q].n; i++) {
            const tm_edge *e = &a->s[q].e[i];
            if (!a->s[e->dst].acc && tm_nba_add_edge(r, q, e->dst, e->c) != 0)
                return -1;
        }
    }
    return 0;
}

/* has_cycle[c]: component c has an internal edge. */
static bool *cyclic_components(const tm_nba *a, const uint32_t *comp, int nc)
{
    bool *cyc = calloc((size_t)nc + 1, sizeof *cyc);
    if (!cyc)
        return NULL;
    for (uint32_t q = 0; q < a->n; q++)
        for (uint32_t i = 0; i < a->s[q].n; i++)
            if (comp[a->s[q].e[i].dst] == comp[q])
                cyc[comp[q]] = true;
    return cyc;
}

int tm_nba_weak(const tm_nba *a, tm_nba *normal, bool *weak, u_err *err)
{
    uint32_t n = a->n;
    uint32_t *comp = malloc(((size_t)n + 1) * sizeof *comp);
    uint32_t *rcomp = malloc(((size_t)n + 1) * sizeof *rcomp);
    tm_nba r;
    tm_nba_init(&r, a->apmask);
    bool *cyc = NULL, *rcyc = NULL, *acc_cycle = NULL, *rej_cycle = NULL;
    int nc = comp ? tm_nba_scc(a, comp) : -1;
    if (nc < 0 || !rcomp || rejecting_part(a, &r) != 0)
        goto oom;
    int nr = tm_nba_scc(&r, rcomp);
    if (nr < 0)
        goto oom;
    cyc = cyclic_components(a, comp, nc);
    rcyc = cyclic_components(&r, rcomp, nr);
    acc_cycle = calloc((size_t)nc + 1, sizeof *acc_cycle);
    rej_cycle = calloc((size_t)nc + 1, sizeof *rej_cycle);
    if (!cyc || !rcyc || !acc_cycle || !rej_cycle)
        goto oom;
    for (uint32_t q = 0; q < n; q++) {
        if (a->s[q].acc && cyc[comp[q]])
            acc_cycle[comp[q]] = true;
        if (!a->s[q].acc && rcyc[rcomp[q]])
            rej_cycle[comp[q]] = true;
    }
    *weak = true;
    for (int c = 0; c < nc; c++)
        if (acc_cycle[c] && rej_cycle[c])
            *weak = false;
    if (*weak && normal) {
        if (tm_nba_copy(normal, a) != 0)
            goto oom;
        for (uint32_t q = 0; q < n; q++)
            normal->s[q].acc = acc_cycle[comp[q]];
    }
    free(comp), free(rcomp), free(cyc), free(rcyc), free(acc_cycle), free(rej_cycle);
    tm_nba_free(&r);
    return 0;
oom:
    free(comp), free(rcomp), free(cyc), free(rcyc), free(acc_cycle), free(rej_cycle);
    tm_nba_free(&r);
    return u_oom(err);
}

/* ---- successor sets ---- */

/* Scratch space for successor sets.  Invariant: mark[q] == gen exactly for the
 * states already in the set being built. */
typedef struct {
    uint32_t *mark, gen;
    uint32_t *buf;
    size_t cap;
} succset;

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* The sorted successors of set[0..n) on letter, into ss->buf; their count or
 * -1 (out of memory). */
static long successors(const tm_nba *a, succset *ss, const uint32_t *set, size_t n, uint64_t letter)
{
    ss->gen++;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const tm_state *s = &a->s[set[i]];
        for (uint32_t j = 0; j < s->n; j++) {
            uint32_t d = s->e[j].dst;
            if (ss->mark[d] == ss->gen || !tm_cube_has(s->e[j].c, letter))
                continue;
            ss->mark[d] = ss->gen;
            if (k == ss->cap && U_GROW(ss->buf, ss->cap, k) != 0)
                return -1;
            ss->buf[k++] = d;
        }
    }
    if (k > 1)
        qsort(ss->buf, k, sizeof *ss->buf, cmp_u32);
    return (long)k;
}

/* ---- the breakpoint construction ---- */

/* A macro-state (S, O) as the key [|S|, S..., O...] (both sorted). */
typedef struct {
    uint32_t *v;
    size_t cap;
} keybuf;

static int make_key(keybuf *kb, const uint32_t *S, size_t ns, const uint32_t *O, size_t no,
                    size_t *len)
{
    size_t need = 1 + ns + no;
    if (need > kb->cap) {
        uint32_t *v = realloc(kb->v, need * 2 * sizeof *v);
        if (!v)
            return -1;
        kb->v = v;
        kb->cap = need * 2;
    }
    kb->v[0] = (uint32_t)ns;
    memcpy(kb->v + 1, S, ns * sizeof *S);
    memcpy(kb->v + 1 + ns, O, no * sizeof *O);
    *len = need * sizeof *kb->v;
    return 0;
}

/* The breakpoint construction with acceptance on transitions: a step whose
 * owing set empties is accepting and starts the next round at once (owing:
 * every accepting-SCC state of the new S), so no state has an empty owing set
 * unless S has no accepting state. */
static int breakpoint_tdba(const tm_nba *w, uint32_t budget, const char *what, tm_tdba *d,
                           u_err *err)
{
    tm_tdba_init(d, w->apmask);
    u_intern ms = {0};
    succset ss = {calloc((size_t)w->n + 1, sizeof(uint32_t)), 0, NULL, 0};
    keybuf kb = {NULL, 0};
    size_t scap = (size_t)w->n + 1;
    uint32_t *S = malloc(scap * sizeof *S), *O = malloc(scap * sizeof *O);
    uint32_t *S2 = malloc(scap * sizeof *S2), *O2 = malloc(scap * sizeof *O2);
    if (!ss.mark || !S || !O || !S2 || !O2)
        goto oom;
    size_t ns = 0, no = 0, len;
    for (uint32_t i = 0; i < w->ninit; i++)
        S[ns++] = w->init[i];
    qsort(S, ns, sizeof *S, cmp_u32);
    for (size_t i = 0; i < ns; i++)
        if (w->s[S[i]].acc)
            O[no++] = S[i];
    bool fresh;
    if (make_key(&kb, S, ns, O, no, &len) != 0 || u_intern_put(&ms, kb.v, len, &fresh) != 0 ||
        tm_tdba_add_state(d) == U_INVALID)
        goto oom;
    d->init = 0;
    for (uint32_t m = 0; m < d->n; m++) {
        const uint32_t *key = u_intern_key(&ms, m);
        ns = key[0];
        no = u_intern_len(&ms, m) / sizeof(uint32_t) - 1 - ns;
        memcpy(S, key + 1, ns * sizeof *S);
        memcpy(O, key + 1 + ns, no * sizeof *O);
        for (uint64_t l = 0; l < d->L; l++) {
            uint64_t letter = tm_spread(l, w->apmask);
            long ns2 = successors(w, &ss, S, ns, letter);
            if (ns2 < 0)
                goto oom;
            if (ns2 > 0)
                memcpy(S2, ss.buf, (size_t)ns2 * sizeof *S2);
            long no2 = no == 0 ? 0 : successors(w, &ss, O, no, letter);
            if (no2 < 0)
                goto oom;
            size_t k = 0;
            for (long i = 0; i < no2; i++)
                if (w->s[ss.buf[i]].acc)
                    O2[k++] = ss.buf[i];
            bool acc = k == 0;
            if (acc) /* breakpoint: everything in S' owes again */
                for (long i = 0; i < ns2; i++)
                    if (w->s[S2[i]].acc)
                        O2[k++] = S2[i];
            if (make_key(&kb, S2, (size_t)ns2, O2, k, &len) != 0)
                goto oom;
            uint32_t id = u_intern_put(&ms, kb.v, len, &fresh);
            if (id == U_INVALID)
                goto oom;
            if (fresh) {
                if (d->n >= budget) {
                    u_errf(err, "complementing %s (breakpoint construction) exceeds %u states",
                           what, budget);
                    goto fail;
                }
                /* the state may move the table: index it only after */
                if (tm_tdba_add_state(d) == U_INVALID)
                    goto oom;
            }
            d->succ[(size_t)m * d->L + l] = id;
            d->acc[(size_t)m * d->L + l] = acc;
        }
    }
    u_intern_free(&ms);
    free(ss.mark), free(ss.buf), free(kb.v), free(S), free(O), free(S2), free(O2);
    return 0;
oom:
    u_oom(err);
fail:
    u_intern_free(&ms);
    free(ss.mark), free(ss.buf), free(kb.v), free(S), free(O), free(S2), free(O2);
    tm_tdba_free(d);
    return -1;
}

int tm_complement_breakpoint(const tm_nba *w, uint32_t budget, const char *what, tm_nba *out,
                             u_err *err)
{
    tm_tdba d;
    tm_nba_init(out, w->apmask);
    if (breakpoint_tdba(w, budget, what, &d, err) != 0)
        return -1;
    int rc = tm_tdba_reduce(&d, err) != 0 ? -1 : tm_tdba_to_nba(&d, out, err);
    tm_tdba_free(&d);
    return rc;
}

/* ---- the choice ---- */

int tm_nba_complement(const tm_nba *a, tm_comp_method m, uint32_t budget, const char *what,
                      tm_nba *out, tm_comp_method *used, u_err *err)
{
    if (tm_popcount(a->apmask) > 20)
        return u_errf(err, "complementing %s: %d atomic propositions are too many letters", what,
                      tm_popcount(a->apmask));
    if (m != TM_COMP_SAFRA) {
        tm_nba normal;
        bool weak;
        if (tm_nba_weak(a, &normal, &weak, err) != 0)
            return -1;
        if (weak) {
            int r = tm_complement_breakpoint(&normal, budget, what, out, err);
            tm_nba_free(&normal);
            if (used)
                *used = TM_COMP_BREAKPOINT;
            return r;
        }
        if (m == TM_COMP_BREAKPOINT)
            return u_errf(err, "complementing %s: the automaton is not weak", what);
    }
    if (used)
        *used = TM_COMP_SAFRA;
    return tm_complement_safra(a, budget, what, out, err);
}
