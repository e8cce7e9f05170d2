/*
 * tm_hoa_read.c - the HOA v1 reader (https://adl.github.io/hoaf/) for systems,
 * effects and cause candidates, the format CORP and Spot exchange automata in.
 *
 * Supported: explicit states; Start: (several lines, no conjunctions); AP:;
 * controllable-AP:; Alias:; labels on edges or states (Boolean expressions
 * over AP indices and aliases with t f ! & | and parentheses, turned into
 * DNFs of cubes); acceptance sets on states or edges; Acceptance: t, f, or a
 * conjunction of Inf(k) (generalised Buchi, degeneralised here into
 * state-based Buchi); nested comments.  Everything else that is well formed is
 * ignored (properties:, acc-name:, tool:, ...) except what changes the meaning
 * (universal branching, implicit labels, other acceptance conditions, unknown
 * headers with a capital initial), which is an error.  Every error names
 * FILE:LINE:COL.
 */
#include "temporal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Label expressions as DNFs: arrays of cubes.  Bounded so that a hostile
 * label cannot blow up memory. */
#define MAX_CUBES 4096

typedef struct {
    tm_cube *c;
    size_t n, cap;
} dnf;

typedef enum {
    K_EOF,
    K_HEADER, /* name: */
    K_STRING,
    K_INT,
    K_IDENT, /* t, f, Inf, Fin, other words */
    K_ALIAS,
    K_BODY,
    K_END,
    K_ABORT,
    K_PUNCT /* one of ! & | ( ) [ ] { } */
} kind;

typedef struct {
    kind k;
    const char *s; /* text */
    size_t len;
    unsigned line, col;
    long long num;
} tok;

typedef struct {
    char name[64];
    dnf d;
} alias;

/* Reader state.  Invariant: t is the current token, the text before pos is
 * consumed. */
typedef struct {
    const char *s;
    size_t len, pos;
    unsigned line, col;
    tok t;
    const char *file;
    u_err *err;
    alias *aliases;
    size_t naliases, alias_cap;
} rd;

static int errat(rd *r, unsigned line, unsigned col, const char *fmt, const char *arg)
{
    char msg[300];
    snprintf(msg, sizeof msg, fmt, arg ? arg : "");
    return u_errf(r->err, "%s:%u:%u: %s", r->file, line, col, msg);
}

static int err_tok(rd *r, const char *fmt, const char *arg)
{
    return errat(r, r->t.line, r->t.col, fmt, arg);
}

static void advance(rd *r, size_t n)
{
    for (size_t i = 0; i < n && r->pos < r->len; i++, r->pos++) {
        if (r->s[r->pos] == '\n') {
            r->line++;
            r->col = 1;
        } else {
            r->col++;
        }
    }
}

/* Skips blanks and (nested) comments. */
static int skip(rd *r)
{
    for (;;) {
        while (r->pos < r->len && isspace((unsigned char)r->s[r->pos]))
            advance(r, 1);
        if (r->pos + 1 < r->len && r->s[r->pos] == '/' && r->s[r->pos + 1] == '*') {
            unsigned line = r->line, col = r->col;
            int depth = 0;
            do {
                if (r->pos + 1 >= r->len)
                    return errat(r, line, col, "unterminated comment%s", NULL);
                if (r->s[r->pos] == '/' && r->s[r->pos + 1] == '*') {
                    depth++;
                    advance(r, 2);
                } else if (r->s[r->pos] == '*' && r->s[r->pos + 1] == '/') {
                    depth--;
                    advance(r, 2);
                } else {
                    advance(r, 1);
                }
            } while (depth > 0);
            continue;
        }
        return 0;
    }
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-';
}

static int next(rd *r)
{
    if (skip(r) != 0)
        return -1;
    tok *t = &r->t;
    t->line = r->line;
    t->col = r->col;
    t->s = r->s + r->pos;
    t->len = 0;
    if (r->pos >= r->len) {
        t->k = K_EOF;
        return 0;
    }
    char c = r->s[r->pos];
    if (c == '"') {
        size_t i = r->pos + 1;
        while (i < r->len && r->s[i] != '"') {
            if (r->s[i] == '\\' && i + 1 < r->len)
                i++;
            if (r->s[i] == '\n')
                break;
            if (r->s[i] == '\0') /* names are C strings: one would be cut short */
                return err_tok(r, "a NUL byte in a string%s", NULL);
            i++;
        }
        if (i >= r->len || r->s[i] != '"')
            return err_tok(r, "unterminated string%s", NULL);
        t->k = K_STRING;
        t->s = r->s + r->pos + 1;
        t->len = i - r->pos - 1;
        advance(r, i + 1 - r->pos);
        return 0;
    }
    if (isdigit((unsigned char)c)) {
        size_t i = r->pos;
        long long v = 0;
        while (i < r->len && isdigit((unsigned char)r->s[i])) {
            v = v * 10 + (r->s[i] - '0');
            if (v > 1000000000)
                return err_tok(r, "number too large%s", NULL);
            i++;
        }
        t->k = K_INT;
        t->num = v;
        t->len = i - r->pos;
        advance(r, t->len);
        return 0;
    }
    static const char *marks[] = {"--BODY--", "--END--", "--ABORT--"};
    static const kind mk[] = {K_BODY, K_END, K_ABORT};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(marks[i]);
        if (r->len - r->pos >= n && !memcmp(r->s + r->pos, marks[i], n)) {
            t->k = mk[i];
            t->len = n;
            advance(r, n);
            return 0;
        }
    }
    if (c == '@' || isalpha((unsigned char)c) || c == '_') {
        size_t i = r->pos + 1;
        while (i < r->len && word_char(r->s[i]))
            i++;
        t->len = i - r->pos;
        t->k = c == '@' ? K_ALIAS : K_IDENT;
        if (c != '@' && i < r->len && r->s[i] == ':') {
            t->k = K_HEADER;
            advance(r, t->len + 1);
            return 0;
        }
        advance(r, t->len);
        return 0;
    }
    if (strchr("!&|()[]{}", c)) {
        t->k = K_PUNCT;
        t->len = 1;
        advance(r, 1);
        return 0;
    }
    char b[2] = {c, 0};
    return err_tok(r, "unexpected character '%s'", b);
}

static bool is_punct(const rd *r, char c)
{
    return r->t.k == K_PUNCT && r->t.s[0] == c;
}

static bool is_ident(const rd *r, const char *w)
{
    return r->t.k == K_IDENT && r->t.len == strlen(w) && !memcmp(r->t.s, w, r->t.len);
}

/* ---- DNFs ---- */

static int dnf_add(rd *r, dnf *d, tm_cube c)
{
    if (d->n >= MAX_CUBES)
        return err_tok(r, "label too large (more than 4096 cubes in its DNF)%s", NULL);
    if (d->n == d->cap && U_GROW(d->c, d->cap, d->n) != 0)
        return u_oom(r->err);
    d->c[d->n++] = c;
    return 0;
}

static int dnf_and(rd *r, dnf *a, const dnf *b)
{
    dnf out = {NULL, 0, 0};
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = 0; j < b->n; j++)
            if (tm_cube_meets(a->c[i], b->c[j]) &&
                dnf_add(r, &out, tm_cube_and(a->c[i], b->c[j])) != 0) {
                free(out.c);
                return -1;
            }
    free(a->c);
    *a = out;
    return 0;
}

static int dnf_or(rd *r, dnf *a, const dnf *b)
{
    for (size_t j = 0; j < b->n; j++)
        if (dnf_add(r, a, b->c[j]) != 0)
            return -1;
    return 0;
}

/* The negation of a DNF: the conjunction over its cubes of the disjunction of
 * their negated literals. */
static int dnf_not(rd *r, dnf *a)
{
    dnf out = {NULL, 0, 0};
    tm_cube top = {0, 0};
    if (dnf_add(r, &out, top) != 0)
        return -1;
    for (size_t i = 0; i < a->n; i++) {
        dnf neg = {NULL, 0, 0};
        for (uint64_t m = a->c[i].mask; m; m &= m - 1) {
            uint64_t bit = m & -m;
            tm_cube lit = {bit, a->c[i].val & bit ? 0 : bit};
            if (dnf_add(r, &neg, lit) != 0) {
                free(neg.c), free(out.c);
                return -1;
            }
        }
        int rc = dnf_and(r, &out, &neg);
        free(neg.c);
        if (rc != 0) {
            free(out.c);
            return -1;
        }
    }
    free(a->c);
    *a = out;
    return 0;
}

/* label := conj ('|' conj)*;  conj := lit ('&' lit)*;
 * lit := '!' lit | '(' label ')' | t | f | INT | @alias */
static int label_or(rd *r, int naps, dnf *out, int depth);

static int label_lit(rd *r, int naps, dnf *out, int depth)
{
    memset(out, 0, sizeof *out);
    if (depth > 1000)
        return err_tok(r, "label nested too deeply%s", NULL);
    if (is_punct(r, '!')) {
        if (next(r) != 0 || label_lit(r, naps, out, depth + 1) != 0)
            return -1;
        return dnf_not(r, out);
    }
    if (is_punct(r, '(')) {
        if (next(r) != 0 || label_or(r, naps, out, depth + 1) != 0)
            return -1;
        if (!is_punct(r, ')'))
            return err_tok(r, "missing ) in a label%s", NULL);
        return next(r);
    }
    tm_cube c = {0, 0};
    if (is_ident(r, "t")) {
        if (dnf_add(r, out, c) != 0)
            return -1;
        return next(r);
    }
    if (is_ident(r, "f"))
        return next(r);
    if (r->t.k == K_INT) {
        if (r->t.num >= naps) {
            char b[32];
            snprintf(b, sizeof b, "%lld", r->t.num);
            return err_tok(r, "AP index %s out of range", b);
        }
        c.mask = c.val = (uint64_t)1 << r->t.num;
        if (dnf_add(r, out, c) != 0)
            return -1;
        return next(r);
    }
    if (r->t.k == K_ALIAS) {
        for (size_t i = 0; i < r->naliases; i++)
            if (strlen(r->aliases[i].name) == r->t.len &&
                !memcmp(r->aliases[i].name, r->t.s, r->t.len)) {
                if (dnf_or(r, out, &r->aliases[i].d) != 0)
                    return -1;
                return next(r);
            }
        char b[64];
        snprintf(b, sizeof b, "%.*s", (int)(r->t.len < 60 ? r->t.len : 60), r->t.s);
        return err_tok(r, "unknown alias %s", b);
    }
    return err_tok(r, "a label (AP index, t, f, !, alias or parenthesis) is expected here%s", NULL);
}

static int label_and(rd *r, int naps, dnf *out, int depth)
{
    if (label_lit(r, naps, out, depth) != 0)
        return -1;
    while (is_punct(r, '&')) {
        dnf b = {NULL, 0, 0};
        if (next(r) != 0 || label_lit(r, naps, &b, depth) != 0 || dnf_and(r, out, &b) != 0) {
            free(b.c);
            return -1;
        }
        free(b.c);
    }
    return 0;
}

static int label_or(rd *r, int naps, dnf *out, int depth)
{
    if (label_and(r, naps, out, depth) != 0)
        return -1;
    while (is_punct(r, '|')) {
        dnf b = {NULL, 0, 0};
        if (next(r) != 0 || label_and(r, naps, &b, depth) != 0 || dnf_or(r, out, &b) != 0) {
            free(b.c);
            return -1;
        }
        free(b.c);
    }
    return 0;
}

/* '[' label ']' */
static int bracket_label(rd *r, int naps, dnf *out)
{
    memset(out, 0, sizeof *out);
    if (next(r) != 0 || label_or(r, naps, out, 0) != 0)
        return -1;
    if (!is_punct(r, ']'))
        return err_tok(r, "missing ] after a label%s", NULL);
    return next(r);
}

/* '{' INT* '}' as a mask */
static int acc_sets(rd *r, uint64_t *m)
{
    *m = 0;
    if (next(r) != 0)
        return -1;
    while (r->t.k == K_INT) {
        if (r->t.num >= 64)
            return err_tok(r, "acceptance set number too large (at most 63)%s", NULL);
        *m |= (uint64_t)1 << r->t.num;
        if (next(r) != 0)
            return -1;
    }
    if (!is_punct(r, '}'))
        return err_tok(r, "missing } after acceptance sets%s", NULL);
    return next(r);
}

/* ---- the header ---- */

/* What the header says.  acc: 0 t, 1 f, 2 Inf conjunction over sets. */
typedef struct {
    long states;
    uint32_t *start;
    size_t nstart, start_cap;
    int acc_kind;
    uint64_t inf_sets;
    bool have_acc, have_ap;
} header;

static int parse_acceptance(rd *r, header *h, int depth)
{
    /* cond := atom ('&' atom)*; atom := t | f | Inf(k) | '(' cond ')' */
    if (depth > 100)
        return err_tok(r, "acceptance condition nested too deeply%s", NULL);
    for (;;) {
        if (is_punct(r, '(')) {
            if (next(r) != 0 || parse_acceptance(r, h, depth + 1) != 0)
                return -1;
            if (!is_punct(r, ')'))
                return err_tok(r, "missing ) in the acceptance condition%s", NULL);
            if (next(r) != 0)
                return -1;
        } else if (is_ident(r, "t")) {
            if (next(r) != 0)
                return -1;
        } else if (is_ident(r, "f")) {
            h->acc_kind = 1;
            if (next(r) != 0)
                return -1;
        } else if (is_ident(r, "Inf")) {
            if (next(r) != 0 || !is_punct(r, '('))
                return err_tok(r, "Inf must be followed by (%s", NULL);
            if (next(r) != 0)
                return -1;
            if (r->t.k != K_INT || r->t.num >= 64)
                return err_tok(r, "acceptance set number (0..63) expected%s", NULL);
            h->inf_sets |= (uint64_t)1 << r->t.num;
            if (h->acc_kind == 0)
                h->acc_kind = 2;
            if (next(r) != 0 || !is_punct(r, ')'))
                return err_tok(r, "missing ) after Inf(%s", NULL);
            if (next(r) != 0)
                return -1;
        } else if (is_ident(r, "Fin") || is_punct(r, '!')) {
            return err_tok(r,
                           "unsupported acceptance condition (only t, f and conjunctions of "
                           "Inf(k): Buchi and generalised Buchi)%s",
                           NULL);
        } else {
            return err_tok(r, "acceptance condition expected%s", NULL);
        }
        if (is_punct(r, '|'))
            return err_tok(r,
                           "unsupported acceptance condition (disjunction; only conjunctions of "
                           "Inf(k) are supported)%s",
                           NULL);
        if (!is_punct(r, '&'))
            return 0;
        if (next(r) != 0)
            return -1;
    }
}

/* Skips the values of an ignored header item. */
static int skip_item(rd *r)
{
    while (r->t.k != K_HEADER && r->t.k != K_BODY && r->t.k != K_EOF)
        if (next(r) != 0)
            return -1;
    return 0;
}

static bool item(const rd *r, const char *name)
{
    return r->t.len == strlen(name) && !memcmp(r->t.s, name, r->t.len);
}

static int int_value(rd *r, long *v, const char *what)
{
    if (next(r) != 0)
        return -1;
    if (r->t.k != K_INT)
        return err_tok(r, "%s: a number is expected", what);
    *v = (long)r->t.num;
    return next(r);
}

static int parse_header(rd *r, header *h, tm_hoa *out)
{
    if (r->t.k != K_HEADER || !item(r, "HOA"))
        return err_tok(r, "the file must start with HOA: v1%s", NULL);
    if (next(r) != 0)
        return -1;
    if (r->t.k != K_IDENT || r->t.len != 2 || memcmp(r->t.s, "v1", 2))
        return err_tok(r, "only HOA version v1 is supported%s", NULL);
    if (next(r) != 0)
        return -1;
    while (r->t.k == K_HEADER) {
        tok hd = r->t;
        if (item(r, "States")) {
            if (int_value(r, &h->states, "States") != 0)
                return -1;
        } else if (item(r, "Start")) {
            long s;
            if (int_value(r, &s, "Start") != 0)
                return -1;
            if (is_punct(r, '&'))
                return err_tok(r, "universal initial states are not supported%s", NULL);
            if (h->nstart == h->start_cap && U_GROW(h->start, h->start_cap, h->nstart) != 0)
                return u_oom(r->err);
            h->start[h->nstart++] = (uint32_t)s;
        } else if (item(r, "AP")) {
            long n;
            if (h->have_ap) /* a second list would renumber the first's APs */
                return errat(r, hd.line, hd.col, "AP: given twice%s", NULL);
            if (int_value(r, &n, "AP") != 0)
                return -1;
            if (n > TM_MAX_APS)
                return errat(r, hd.line, hd.col, "more than 64 atomic propositions%s", NULL);
            for (long i = 0; i < n; i++) {
                if (r->t.k != K_STRING)
                    return err_tok(r, "AP: fewer names than announced%s", NULL);
                if (tm_aps_find(&out->aps, r->t.s, r->t.len) >= 0)
                    return err_tok(r, "AP: duplicate name%s", NULL);
                if (tm_aps_add(&out->aps, r->t.s, r->t.len, r->err) < 0 || next(r) != 0)
                    return -1;
            }
            if (r->t.k == K_STRING)
                return err_tok(r, "AP: more names than announced%s", NULL);
            h->have_ap = true;
        } else if (item(r, "controllable-AP")) {
            if (next(r) != 0)
                return -1;
            out->has_controllable = true;
            while (r->t.k == K_INT) {
                if (r->t.num >= out->aps.n)
                    return err_tok(r,
                                   "controllable-AP: index out of range (AP: must come "
                                   "first)%s",
                                   NULL);
                if (out->controllable & (uint64_t)1 << r->t.num)
                    return err_tok(r, "controllable-AP: an index given twice%s", NULL);
                out->controllable |= (uint64_t)1 << r->t.num;
                if (next(r) != 0)
                    return -1;
            }
        } else if (item(r, "Acceptance")) {
            long n;
            if (int_value(r, &n, "Acceptance") != 0 || parse_acceptance(r, h, 0) != 0)
                return -1;
            h->have_acc = true;
        } else if (item(r, "Alias")) {
            if (next(r) != 0)
                return -1;
            if (r->t.k != K_ALIAS)
                return err_tok(r, "Alias: @name expected%s", NULL);
            if (r->naliases == r->alias_cap && U_GROW(r->aliases, r->alias_cap, r->naliases))
                return u_oom(r->err);
            alias *al = &r->aliases[r->naliases];
            memset(al, 0, sizeof *al); /* freed below when the label fails, even unread */
            snprintf(al->name, sizeof al->name, "%.*s", (int)(r->t.len < 63 ? r->t.len : 63),
                     r->t.s);
            if (next(r) != 0 || label_or(r, out->aps.n, &al->d, 0) != 0) {
                free(al->d.c);
                return -1;
            }
            r->naliases++;
        } else if (item(r, "name")) {
            if (next(r) != 0)
                return -1;
            if (r->t.k == K_STRING && !out->name) {
                out->name = u_fmt("%.*s", (int)r->t.len, r->t.s);
                if (!out->name)
                    return u_oom(r->err);
            }
            if (skip_item(r) != 0)
                return -1;
        } else if (isupper((unsigned char)r->t.s[0]) && !item(r, "HOA")) {
            char b[64];
            snprintf(b, sizeof b, "%.*s", (int)(r->t.len < 60 ? r->t.len : 60), r->t.s);
            return err_tok(r, "unsupported header %s: (it would change the meaning)", b);
        } else {
            if (next(r) != 0 || skip_item(r) != 0)
                return -1;
        }
    }
    if (r->t.k != K_BODY)
        return err_tok(r, "--BODY-- expected%s", NULL);
    if (!h->have_acc)
        return err_tok(r, "no Acceptance: header%s", NULL);
    return next(r);
}

/* ---- the body ---- */

/* The raw automaton: per state its edges with DNF labels and marks. */
typedef struct {
    uint32_t src, dst;
    tm_cube c;
    uint64_t marks;
} raw_edge;

typedef struct {
    raw_edge *e;
    size_t n, cap;
    uint64_t *state_marks; /* per state */
    bool *declared;
    long nstates;
} raw;

static int raw_add(rd *r, raw *w, uint32_t src, uint32_t dst, const dnf *d, uint64_t marks)
{
    for (size_t i = 0; i < d->n; i++) {
        if (w->n == w->cap && U_GROW(w->e, w->cap, w->n) != 0)
            return u_oom(r->err);
        raw_edge *e = &w->e[w->n++];
        e->src = src, e->dst = dst, e->c = d->c[i], e->marks = marks;
    }
    return 0;
}

static int parse_body(rd *r, const header *h, tm_hoa *out, raw *w)
{
    long cur = -1;
    dnf slabel = {NULL, 0, 0};
    bool have_slabel = false;
    w->nstates = h->states;
    w->state_marks = calloc((size_t)h->states + 1, sizeof *w->state_marks);
    w->declared = calloc((size_t)h->states + 1, sizeof *w->declared);
    if (!w->state_marks || !w->declared)
        return u_oom(r->err);
    while (r->t.k != K_END) {
        if (r->t.k == K_EOF || r->t.k == K_ABORT) {
            free(slabel.c);
            return err_tok(r,
                           r->t.k == K_EOF ? "--END-- expected before the end of the file%s"
                                           : "the automaton was aborted (--ABORT--)%s",
                           NULL);
        }
        if (r->t.k == K_HEADER && item(r, "State")) {
            free(slabel.c);
            memset(&slabel, 0, sizeof slabel);
            have_slabel = false;
            if (next(r) != 0)
                return -1;
            if (is_punct(r, '[')) {
                if (bracket_label(r, out->aps.n, &slabel) != 0) {
                    free(slabel.c);
                    return -1;
                }
                have_slabel = true;
            }
            if (r->t.k != K_INT) {
                free(slabel.c);
                return err_tok(r, "State: a state number is expected%s", NULL);
            }
            if (r->t.num >= h->states) {
                free(slabel.c);
                return err_tok(r, "state number out of range (States: says fewer)%s", NULL);
            }
            cur = (long)r->t.num;
            if (w->declared[cur]) {
                free(slabel.c);
                return err_tok(r, "state declared twice%s", NULL);
            }
            w->declared[cur] = true;
            if (next(r) != 0) {
                free(slabel.c);
                return -1;
            }
            if (r->t.k == K_STRING && next(r) != 0) {
                free(slabel.c);
                return -1;
            }
            if (is_punct(r, '{') && acc_sets(r, &w->state_marks[cur]) != 0) {
                free(slabel.c);
                return -1;
            }
            continue;
        }
        if (cur < 0)
            return err_tok(r, "State: expected%s", NULL);
        unsigned line = r->t.line, col = r->t.col;
        dnf d = {NULL, 0, 0};
        if (is_punct(r, '[')) {
            if (bracket_label(r, out->aps.n, &d) != 0) {
                free(d.c), free(slabel.c);
                return -1;
            }
            if (have_slabel && dnf_and(r, &d, &slabel) != 0) {
                free(d.c), free(slabel.c);
                return -1;
            }
        } else if (have_slabel) {
            if (dnf_or(r, &d, &slabel) != 0) {
                free(d.c), free(slabel.c);
                return -1;
            }
        } else if (r->t.k == K_INT) {
            free(slabel.c);
            return errat(r, line, col,
                         "implicit labels are not supported (write [label] before "
                         "the target)%s",
                         NULL);
        } else {
            free(slabel.c);
            return err_tok(r, "an edge ([label] target) or State: expected%s", NULL);
        }
        if (r->t.k != K_INT) {
            free(d.c), free(slabel.c);
            return err_tok(r, "an edge target (state number) is expected%s", NULL);
        }
        if (r->t.num >= h->states) {
            free(d.c), free(slabel.c);
            return err_tok(r, "edge target out of range (States: says fewer)%s", NULL);
        }
        uint32_t dst = (uint32_t)r->t.num;
        uint64_t marks = 0;
        if (next(r) != 0 ||
            (is_punct(r, '&') && err_tok(r, "universal branching is not supported%s", NULL) != 0)) {
            free(d.c), free(slabel.c);
            return -1;
        }
        if (is_punct(r, '{') && acc_sets(r, &marks) != 0) {
            free(d.c), free(slabel.c);
            return -1;
        }
        int rc = raw_add(r, w, (uint32_t)cur, dst, &d, marks);
        free(d.c);
        if (rc != 0) {
            free(slabel.c);
            return -1;
        }
    }
    free(slabel.c);
    return 0;
}

/* Builds out->a from the raw automaton: generalised Buchi over inf_sets
 * (marks of an edge = its own | its source state's) degeneralised with a level
 * counter; t: every state accepting; f: none. */
static int build(rd *r, const header *h, const raw *w, tm_hoa *out)
{
    uint64_t apmask = out->aps.n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << out->aps.n) - 1);
    tm_nba *a = &out->a;
    tm_nba_init(a, apmask);
    out->acc_all = h->acc_kind == 0;
    int k = h->acc_kind == 2 ? tm_popcount(h->inf_sets) : 0;
    uint64_t sets[64];
    for (int i = 0, j = 0; i < 64; i++)
        if (h->inf_sets >> i & 1)
            sets[j++] = (uint64_t)1 << i;
    /* state (q, level) = level * nstates + q; levels 0..k (k accepting) */
    long ns = w->nstates;
    int levels = h->acc_kind == 2 ? k + 1 : 1;
    /* plain state-based Buchi needs no levels */
    bool edge_marks = false;
    for (size_t i = 0; i < w->n; i++)
        edge_marks |= (w->e[i].marks & h->inf_sets) != 0;
    bool direct = h->acc_kind == 2 && k == 1 && !edge_marks;
    if (direct)
        levels = 1;
    if ((double)ns * levels > 50000000.0)
        return u_errf(r->err, "%s: automaton too large", r->file);
    for (int lv = 0; lv < levels; lv++)
        for (long q = 0; q < ns; q++) {
            bool acc = h->acc_kind == 0 || (h->acc_kind == 2 && lv == k) ||
                       (direct && (w->state_marks[q] & h->inf_sets));
            if (tm_nba_add_state(a, acc) == U_INVALID)
                return u_oom(r->err);
        }
    for (size_t i = 0; i < w->n; i++) {
        const raw_edge *e = &w->e[i];
        uint64_t marks = e->marks | w->state_marks[e->src];
        for (int lv = 0; lv < levels; lv++) {
            int l2 = lv == k ? 0 : lv;
            while (l2 < k && (marks & sets[l2]))
                l2++;
            if (h->acc_kind != 2 || direct)
                l2 = 0;
            if (tm_nba_add_edge(a, (uint32_t)(lv * ns + e->src), (uint32_t)(l2 * ns + e->dst),
                                e->c) != 0)
                return u_oom(r->err);
        }
    }
    for (size_t i = 0; i < h->nstart; i++) {
        if ((long)h->start[i] >= ns)
            return u_errf(r->err, "%s: Start: state %u out of range", r->file, h->start[i]);
        if (tm_nba_add_init(a, h->start[i]) != 0)
            return u_oom(r->err);
    }
    if (levels > 1)
        return tm_nba_trim(a, r->err);
    return 0;
}

int tm_hoa_parse(const char *text, size_t len, const char *file, tm_hoa *h, u_err *err)
{
    memset(h, 0, sizeof *h);
    tm_nba_init(&h->a, 0);
    rd r = {text, len, 0, 1, 1, {K_EOF, NULL, 0, 0, 0, 0}, file, err, NULL, 0, 0};
    header hd;
    memset(&hd, 0, sizeof hd);
    hd.states = -1;
    raw w = {NULL, 0, 0, NULL, NULL, 0};
    int rc = -1;
    if (next(&r) != 0 || parse_header(&r, &hd, h) != 0)
        goto done;
    if (hd.states < 0) {
        u_errf(err, "%s: no States: header (required here)", file);
        goto done;
    }
    if (hd.states > 10000000) {
        u_errf(err, "%s: too many states", file);
        goto done;
    }
    if (parse_body(&r, &hd, h, &w) != 0 || build(&r, &hd, &w, h) != 0)
        goto done;
    /* one automaton per file: text after --END-- was dropped without a word (the
     * eighth probe's P8-7g) */
    if (next(&r) != 0)
        goto done;
    if (r.t.k != K_EOF) {
        err_tok(&r, "one automaton per file: nothing may follow --END--%s", NULL);
        goto done;
    }
    rc = 0;
done:
    for (size_t i = 0; i < r.naliases; i++)
        free(r.aliases[i].d.c);
    free(r.aliases);
    free(hd.start);
    free(w.e), free(w.state_marks), free(w.declared);
    if (rc != 0)
        tm_hoa_free(h);
    return rc;
}

int tm_hoa_read(const char *path, tm_hoa *h, u_err *err)
{
    size_t len;
    memset(h, 0, sizeof *h);
    char *text = u_read_file(path, &len, err);
    if (!text)
        return -1;
    int rc = tm_hoa_parse(text, len, path, h, err);
    free(text);
    return rc;
}

void tm_hoa_free(tm_hoa *h)
{
    tm_aps_free(&h->aps);
    tm_nba_free(&h->a);
    free(h->name);
    memset(h, 0, sizeof *h);
}
