/*
 * cc_prob.c - basic-event probabilities and the top event's probability.
 *
 * A user who knows how likely the basic events are (failure rates over a mission
 * time, say) gives them in a small text file, `event probability` per line.  The
 * file is read and checked before pan's search starts (a typo should not cost a long
 * run); the names are matched against the events when the search has named them.
 * The fault tree's minimal cut sets are the gates' sets of basic events (duplicates
 * and supersets dropped).  The top event's probability, with the basic events taken
 * as independent and PAND order and non-occurrence conditions ignored (both can only
 * make the true figure smaller), is P(C1 or ... or Ck) for cut sets Ci: the
 * rare-event approximation sums the products of the cut sets (an upper bound, capped
 * at 1); for up to CC_EXACT_MAX cut sets the exact value comes from
 * inclusion-exclusion over all 2^k - 1 non-empty families of cut sets.
 */
#include "causality.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static char *msg(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = malloc((size_t)n + 1);
    if (s) {
        va_start(ap, f);
        vsnprintf(s, (size_t)n + 1, f, ap);
        va_end(ap);
    }
    return s;
}

void cc_prob_free(cc_probs *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->e[i].name);
    free(p->e);
    free(p->path);
    memset(p, 0, sizeof *p);
}

/* Parses one line (comment already cut).  0: an entry or blank; -1: *err set. */
static int parse_line(char *s, cc_probs *out, int line, char **err)
{
    char *name = strtok(s, " \t\r");
    if (!name)
        return 0;
    char *num = strtok(NULL, " \t\r"), *extra = strtok(NULL, " \t\r"), *end = NULL;
    if (!num || extra) {
        *err = msg("%s:%d: expected `event probability`", out->path, line);
        return -1;
    }
    errno = 0;
    double p = strtod(num, &end);
    if (*end || errno || isnan(p) || p < 0 || p > 1) {
        *err = msg("%s:%d: probability of %s must be a number in [0, 1], not '%s'", out->path, line,
                   name, num);
        return -1;
    }
    for (size_t i = 0; i < out->n; i++)
        if (!strcmp(out->e[i].name, name)) {
            *err = msg("%s:%d: %s was already given on line %d", out->path, line, name,
                       out->e[i].line);
            return -1;
        }
    cc_prob_entry *e = realloc(out->e, (out->n + 1) * sizeof *e);
    if (!e || !(e[out->n].name = strdup(name))) {
        if (e)
            out->e = e;
        *err = msg("%s: out of memory", out->path);
        return -1;
    }
    out->e = e;
    e[out->n].p = p;
    e[out->n].line = line;
    out->n++;
    return 0;
}

int cc_prob_read(const char *path, cc_probs *out, char **err)
{
    memset(out, 0, sizeof *out);
    *err = NULL;
    out->path = strdup(path);
    FILE *f = fopen(path, "r");
    if (!out->path || !f) {
        *err = msg("%s: cannot read: %s", path, strerror(errno));
        if (f)
            fclose(f);
        cc_prob_free(out);
        return -1;
    }
    char *buf = NULL;
    size_t cap = 0;
    int line = 0, rc = 0;
    while (!rc && getline(&buf, &cap, f) >= 0) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        buf[strcspn(buf, "\n")] = 0;
        rc = parse_line(buf, out, line, err);
    }
    free(buf);
    fclose(f);
    if (rc)
        cc_prob_free(out);
    return rc;
}

size_t cc_prob_apply(cc_ftree *t, const cc_probs *p)
{
    size_t unknown = 0;
    for (size_t i = 0; i < p->n; i++) {
        size_t e = 0;
        while (e < t->nev && strcmp(t->ev[e].name, p->e[i].name))
            e++;
        if (e < t->nev) {
            t->ev[e].prob = p->e[i].p;
            continue;
        }
        fprintf(stderr, "pancause: %s:%d: warning: %s is no event of the model; ignored\n", p->path,
                p->e[i].line, p->e[i].name);
        unknown++;
    }
    return unknown;
}

/* ---- cut sets ---- */

/* Cut sets as bit sets over the event types, words per set. */
typedef struct {
    uint64_t *bits; /* ncuts x words */
    size_t ncuts, words;
} cc_cuts;

static bool subset(const uint64_t *a, const uint64_t *b, size_t w)
{
    for (size_t i = 0; i < w; i++)
        if (a[i] & ~b[i])
            return false;
    return true;
}

/* The gates' event sets without duplicates and supersets. */
static int min_cuts(const cc_ftree *t, cc_cuts *c)
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

static double product(const cc_ftree *t, const uint64_t *set, size_t words)
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
static double incl_excl(const cc_ftree *t, const cc_cuts *c, size_t from, uint64_t *uni, int size)
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

int cc_prob_top(const cc_ftree *t, cc_topprob *out)
{
    memset(out, 0, sizeof *out);
    for (size_t e = 0; e < t->nev; e++)
        if (cc_ftree_used(t, e) && t->ev[e].prob < 0) {
            out->missing = t->ev[e].name;
            return 1;
        }
    if (!t->ngate)
        return 1;
    cc_cuts c;
    if (min_cuts(t, &c)) {
        free(c.bits);
        return -1;
    }
    out->ncuts = c.ncuts;
    for (size_t i = 0; i < c.ncuts; i++)
        out->rare += product(t, c.bits + i * c.words, c.words);
    if (out->rare > 1)
        out->rare = 1;
    if (c.ncuts <= CC_EXACT_MAX) {
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
