/*
 * rp_prob.c - basic-event probabilities and the top event's probability.
 *
 * A user who knows how likely the basic events are (failure rates over a mission
 * time, say) gives them in a small text file, `event probability` per line.  The
 * file is read and checked once, before pan's search starts (a typo should not cost
 * a long run), in time linear in its size: names are interned, so a repeated name is
 * found by one lookup.  The names are matched against the events when the search has
 * named them.  The fault tree's minimal cut sets are the gates' sets of basic events
 * (duplicates and supersets dropped).  The top event's probability, with the basic
 * events taken as independent and PAND order and non-occurrence conditions ignored
 * (both can only make the true figure smaller), is P(C1 or ... or Ck) for cut sets
 * Ci: the rare-event approximation sums the products of the cut sets (an upper
 * bound, capped at 1); for up to RP_EXACT_MAX cut sets the exact value comes from
 * inclusion-exclusion over all 2^k - 1 non-empty families of cut sets.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rp_prob_free(rp_probs *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->e[i].name);
    free(p->e);
    free(p->path);
    memset(p, 0, sizeof *p);
}

/* Splits off the next blank-separated field of *s (NULL when none). */
static char *field(char **s)
{
    char *p = *s + strspn(*s, " \t\r");
    if (!*p)
        return NULL;
    char *end = p + strcspn(p, " \t\r");
    *s = *end ? end + 1 : end;
    *end = 0;
    return p;
}

/* Parses one line (comment already cut).  0: an entry or blank; -1: err set. */
static int parse_line(char *s, rp_probs *out, u_intern *seen, int line, u_err *err)
{
    char *name = field(&s);
    if (!name)
        return 0;
    char *num = field(&s), *extra = field(&s), *end = NULL;
    if (!num || extra)
        return u_errf(err, "%s:%d: expected `event probability`", out->path, line);
    errno = 0;
    double p = strtod(num, &end);
    if (*end || errno || isnan(p) || p < 0 || p > 1)
        return u_errf(err, "%s:%d: probability of %s must be a number in [0, 1], not '%s'",
                      out->path, line, name, num);
    bool fresh;
    uint32_t id = u_intern_put(seen, name, strlen(name), &fresh);
    if (id == U_INVALID)
        return u_oom(err);
    if (!fresh)
        return u_errf(err, "%s:%d: %s was already given on line %d", out->path, line, name,
                      out->e[id].line);
    if (U_GROW(out->e, out->cap, out->n) || !(out->e[out->n].name = strdup(name)))
        return u_oom(err);
    out->e[out->n].p = p;
    out->e[out->n].line = line;
    out->n++;
    return 0;
}

int rp_prob_read(const char *path, rp_probs *out, u_err *err)
{
    memset(out, 0, sizeof *out);
    u_err why = {{0}};
    char *text = u_read_file(path, NULL, &why);
    if (!text)
        return u_errf(err, "cannot read %s", why.msg);
    out->path = strdup(path);
    u_intern seen = {0};
    int rc = out->path ? 0 : u_oom(err), line = 0;
    for (char *s = text; !rc && *s;) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = 0;
        line++;
        char *hash = strchr(s, '#');
        if (hash)
            *hash = 0;
        rc = parse_line(s, out, &seen, line, err);
        s = nl ? nl + 1 : s + strlen(s);
    }
    u_intern_free(&seen);
    free(text);
    if (rc)
        rp_prob_free(out);
    return rc;
}

size_t rp_prob_apply(rp_ftree *t, const rp_probs *p)
{
    u_intern names = {0};
    bool fresh, ok = true;
    for (size_t e = 0; e < t->nev && ok; e++)
        ok = u_intern_put(&names, t->ev[e].name, strlen(t->ev[e].name), &fresh) != U_INVALID;
    size_t unknown = 0;
    for (size_t i = 0; i < p->n; i++) {
        uint32_t e = ok ? u_intern_find(&names, p->e[i].name, strlen(p->e[i].name)) : U_INVALID;
        for (size_t k = 0; !ok && k < t->nev; k++) /* out of memory: the slow way */
            if (!strcmp(t->ev[k].name, p->e[i].name))
                e = (uint32_t)k;
        if (e != U_INVALID) {
            t->ev[e].prob = p->e[i].p;
            continue;
        }
        fprintf(stderr, "pancause: %s:%d: warning: %s is no event of the model; ignored\n", p->path,
                p->e[i].line, p->e[i].name);
        unknown++;
    }
    u_intern_free(&names);
    return unknown;
}

/* ---- cut sets ---- */

/* Cut sets as bit sets over the event types, words per set. */
typedef struct {
    uint64_t *bits; /* ncuts x words */
    size_t ncuts, words;
} rp_cuts;

static bool subset(const uint64_t *a, const uint64_t *b, size_t w)
{
    for (size_t i = 0; i < w; i++)
        if (a[i] & ~b[i])
            return false;
    return true;
}

/* The gates' event sets without duplicates and supersets. */
static int min_cuts(const rp_ftree *t, rp_cuts *c)
{
    c->words = (t->nev + 63) / 64 + 1;
    c->ncuts = 0;
    uint64_t *all = calloc(t->ngate * c->words + 1, sizeof *all);
    c->bits = calloc(t->ngate * c->words + 1, sizeof *c->bits);
    if (!all || !c->bits) {
        free(all);
        return -1;
    }
    for (size_t i = 0; i < t->ngate; i++)
        for (size_t k = 0; k < t->gate[i].ninputs; k++) {
            size_t e = t->gate[i].inputs[k];
            all[i * c->words + e / 64] |= (uint64_t)1 << (e % 64);
        }
    for (size_t i = 0; i < t->ngate; i++) {
        bool keep = true;
        for (size_t j = 0; j < t->ngate && keep; j++) {
            if (j == i || !subset(all + j * c->words, all + i * c->words, c->words))
                continue;
            /* j's set is inside i's: i is not minimal, unless they are equal and i
             * is the first of the equal ones */
            keep = subset(all + i * c->words, all + j * c->words, c->words) && i < j;
        }
        if (keep)
            memcpy(c->bits + c->ncuts++ * c->words, all + i * c->words, c->words * sizeof *all);
    }
    free(all);
    return 0;
}

int rp_cut_sets(const rp_ftree *t, rp_cut **out, size_t *n)
{
    rp_cuts c;
    *out = NULL;
    *n = 0;
    if (min_cuts(t, &c)) {
        free(c.bits);
        return -1;
    }
    rp_cut *v = calloc(c.ncuts + 1, sizeof *v);
    for (size_t i = 0; v && i < c.ncuts; i++) {
        const uint64_t *set = c.bits + i * c.words;
        size_t k = 0;
        for (size_t w = 0; w < c.words; w++)
            k += (size_t)__builtin_popcountll(set[w]);
        if (!(v[i].ev = malloc((k + 1) * sizeof *v[i].ev))) {
            rp_cut_sets_free(v, i);
            v = NULL;
            break;
        }
        for (size_t w = 0; w < c.words; w++)
            for (uint64_t b = set[w]; b; b &= b - 1)
                v[i].ev[v[i].n++] = w * 64 + (size_t)__builtin_ctzll(b);
    }
    free(c.bits);
    if (!v)
        return -1;
    *out = v;
    *n = c.ncuts;
    return 0;
}

void rp_cut_sets_free(rp_cut *c, size_t n)
{
    for (size_t i = 0; c && i < n; i++)
        free(c[i].ev);
    free(c);
}

static double product(const rp_ftree *t, const uint64_t *set, size_t words)
{
    double p = 1;
    for (size_t w = 0; w < words; w++)
        for (uint64_t b = set[w]; b; b &= b - 1) {
            size_t e = w * 64 + (size_t)__builtin_ctzll(b);
            p *= t->ev[e].prob;
        }
    return p;
}

/* Inclusion-exclusion: sum over non-empty families F of (-1)^(|F|+1) P(union F),
 * enumerated depth-first so that each family's union is built once. */
static double incl_excl(const rp_ftree *t, const rp_cuts *c, size_t from, uint64_t *uni, int size)
{
    double sum = 0;
    uint64_t *next = uni + c->words;
    for (size_t i = from; i < c->ncuts; i++) {
        for (size_t w = 0; w < c->words; w++)
            next[w] = uni[w] | c->bits[i * c->words + w];
        double p = product(t, next, c->words);
        sum += (size % 2 == 0 ? p : -p) + incl_excl(t, c, i + 1, next, size + 1);
    }
    return sum;
}

int rp_prob_top(const rp_ftree *t, rp_topprob *out)
{
    memset(out, 0, sizeof *out);
    for (size_t e = 0; e < t->nev; e++)
        if (rp_ftree_used(t, e) && t->ev[e].prob < 0) {
            out->missing = t->ev[e].name;
            return 1;
        }
    if (t->uncaused) { /* an input without a probability (rp_ftree.uncaused) */
        out->missing = RP_UNCAUSED_TEXT;
        return 1;
    }
    if (!t->ngate)
        return 1;
    rp_cuts c;
    if (min_cuts(t, &c)) {
        free(c.bits);
        return -1;
    }
    out->ncuts = c.ncuts;
    for (size_t i = 0; i < c.ncuts; i++)
        out->rare += product(t, c.bits + i * c.words, c.words);
    if (out->rare > 1)
        out->rare = 1;
    if (c.ncuts <= RP_EXACT_MAX) {
        uint64_t *stack = calloc((c.ncuts + 1) * c.words, sizeof *stack);
        if (!stack) {
            free(c.bits);
            return -1;
        }
        out->exact = incl_excl(t, &c, 0, stack, 0);
        out->has_exact = true;
        free(stack);
    }
    free(c.bits);
    return 0;
}
