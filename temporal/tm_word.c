/*
 * tm_word.c - lasso words in Spot's syntax, `l1;l2;cycle{l3;l4}` (the trace
 * CORP takes, and the counterexamples pancause prints), where each letter is a
 * conjunction of literals: `a&!b`, `true`, `1`, parentheses around a
 * conjunction.  A letter is kept as a cube: APs it does not mention are left
 * open (tm_cause.c decides what that means for inputs and outputs).  Errors
 * give the column.
 */
#include "temporal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Parser state.  Invariant: pos is the next unread character. */
typedef struct {
    const char *s;
    size_t pos;
    const tm_aps *aps;
    const char *what;
    u_err *err;
} wp;

static int fail(wp *p, size_t at, const char *msg)
{
    return u_errf(p->err, "%s: column %zu: %s", p->what, at + 1, msg);
}

static void blanks(wp *p)
{
    while (isspace((unsigned char)p->s[p->pos]))
        p->pos++;
}

static bool ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* conjunction := lit ('&' lit)*, lit := '!'* (name | true | 1 | '(' conj ')') */
static int conjunction(wp *p, tm_cube *c, int depth);

static int literal(wp *p, tm_cube *c, int depth)
{
    bool neg = false;
    blanks(p);
    size_t at = p->pos;
    while (p->s[p->pos] == '!' || p->s[p->pos] == '~') {
        neg = !neg;
        p->pos++;
        blanks(p);
    }
    char ch = p->s[p->pos];
    if (ch == '(') {
        if (neg)
            return fail(p, at, "a letter must be a conjunction of literals (no negated group)");
        if (depth > 100)
            return fail(p, p->pos, "nested too deeply");
        p->pos++;
        if (conjunction(p, c, depth + 1) != 0)
            return -1;
        blanks(p);
        if (p->s[p->pos] != ')')
            return fail(p, p->pos, "missing )");
        p->pos++;
        return 0;
    }
    const char *name;
    size_t len;
    if (ch == '"') {
        const char *e = strchr(p->s + p->pos + 1, '"');
        if (!e)
            return fail(p, p->pos, "unterminated \"");
        name = p->s + p->pos + 1;
        len = (size_t)(e - name);
        p->pos += len + 2;
    } else if (ident_start(ch) || ch == '1' || ch == '0') {
        name = p->s + p->pos;
        len = 1;
        if (ident_start(ch))
            while (ident_char(name[len]))
                len++;
        p->pos += len;
        bool t = (len == 4 && !strncmp(name, "true", 4)) || (len == 1 && *name == '1');
        bool f = (len == 5 && !strncmp(name, "false", 5)) || (len == 1 && *name == '0');
        if (t || f) {
            if (t != neg)
                return 0;
            return fail(p, at, "a letter cannot be false");
        }
    } else {
        return fail(p, p->pos, ch ? "a literal is expected here" : "the word ends too early");
    }
    int ap = tm_aps_find(p->aps, name, len);
    if (ap < 0) {
        char msg[200];
        snprintf(msg, sizeof msg, "unknown atomic proposition '%.*s'", (int)(len < 80 ? len : 80),
                 name);
        return fail(p, at, msg);
    }
    uint64_t bit = (uint64_t)1 << ap, v = neg ? 0 : bit;
    if ((c->mask & bit) && (c->val & bit) != v)
        return fail(p, at, "contradictory letter (a proposition both true and false)");
    c->mask |= bit;
    c->val |= v;
    return 0;
}

static int conjunction(wp *p, tm_cube *c, int depth)
{
    if (literal(p, c, depth) != 0)
        return -1;
    for (;;) {
        blanks(p);
        if (p->s[p->pos] == '&') {
            p->pos += p->s[p->pos + 1] == '&' ? 2 : 1;
            if (literal(p, c, depth) != 0)
                return -1;
        } else if (p->s[p->pos] == '|') {
            return fail(p, p->pos, "a letter must be a conjunction of literals (no |)");
        } else {
            return 0;
        }
    }
}

static int push(wp *p, tm_cube **v, size_t *n, size_t *cap, tm_cube c)
{
    if (*n == *cap && u_grow((void **)v, cap, *n, sizeof **v, 8) != 0)
        return u_oom(p->err);
    (*v)[(*n)++] = c;
    return 0;
}

/* letters separated by ';' up to (not including) the terminator `end` */
static int letters(wp *p, tm_cube **v, size_t *n, char end, bool stop_at_cycle)
{
    size_t cap = 0;
    for (;;) {
        blanks(p);
        if (stop_at_cycle && !strncmp(p->s + p->pos, "cycle", 5) && !ident_char(p->s[p->pos + 5]))
            return 0;
        if (p->s[p->pos] == end && end)
            return 0;
        tm_cube c = {0, 0};
        if (conjunction(p, &c, 0) != 0 || push(p, v, n, &cap, c) != 0)
            return -1;
        blanks(p);
        if (p->s[p->pos] == ';') {
            p->pos++;
            continue;
        }
        if (p->s[p->pos] == end && end)
            return 0;
        return fail(p, p->pos,
                    p->s[p->pos] ? "';' expected between letters"
                                 : "the word must end in cycle{...}");
    }
}

int tm_word_parse(const char *text, const tm_aps *aps, const char *what, tm_word *w, u_err *err)
{
    memset(w, 0, sizeof *w);
    wp p = {text, 0, aps, what, err};
    if (letters(&p, &w->pre, &w->npre, 0, true) != 0)
        goto fail;
    blanks(&p);
    if (strncmp(text + p.pos, "cycle", 5)) {
        fail(&p, p.pos, "cycle{...} expected");
        goto fail;
    }
    p.pos += 5;
    blanks(&p);
    if (text[p.pos] != '{') {
        fail(&p, p.pos, "{ expected after cycle");
        goto fail;
    }
    p.pos++;
    blanks(&p);
    if (text[p.pos] == '}') {
        fail(&p, p.pos, "the cycle must have at least one letter");
        goto fail;
    }
    if (letters(&p, &w->cyc, &w->ncyc, '}', false) != 0)
        goto fail;
    p.pos++;
    blanks(&p);
    if (text[p.pos]) {
        fail(&p, p.pos, "text after the cycle");
        goto fail;
    }
    return 0;
fail:
    tm_word_free(w);
    return -1;
}

void tm_word_free(tm_word *w)
{
    free(w->pre);
    free(w->cyc);
    memset(w, 0, sizeof *w);
}

static int put_text(char **s, size_t *len, size_t *cap, const char *t)
{
    size_t k = strlen(t);
    if (*len + k + 1 > *cap) {
        char *x = realloc(*s, (*len + k + 1) * 2);
        if (!x)
            return -1;
        *s = x;
        *cap = (*len + k + 1) * 2;
    }
    memcpy(*s + *len, t, k + 1);
    *len += k;
    return 0;
}

static int put_letter(char **s, size_t *len, size_t *cap, uint64_t letter, uint64_t mask,
                      const tm_aps *aps)
{
    if (!mask)
        return put_text(s, len, cap, "true");
    for (uint64_t m = mask; m; m &= m - 1) {
        int ap = __builtin_ctzll(m);
        if ((m != mask && put_text(s, len, cap, "&") != 0) ||
            (!(letter >> ap & 1) && put_text(s, len, cap, "!") != 0) ||
            put_text(s, len, cap, ap < aps->n ? aps->name[ap] : "?") != 0)
            return -1;
    }
    return 0;
}

char *tm_letter_text(uint64_t letter, uint64_t apmask, const tm_aps *aps)
{
    char *s = NULL;
    size_t len = 0, cap = 0;
    if (put_text(&s, &len, &cap, "") != 0 || put_letter(&s, &len, &cap, letter, apmask, aps) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

char *tm_lasso_text(const tm_lasso *w, uint64_t apmask, const tm_aps *aps)
{
    char *s = NULL;
    size_t len = 0, cap = 0;
    if (put_text(&s, &len, &cap, "") != 0)
        return NULL;
    for (size_t i = 0; i < w->npre; i++)
        if (put_letter(&s, &len, &cap, w->pre[i], apmask, aps) != 0 ||
            put_text(&s, &len, &cap, ";") != 0)
            goto oom;
    if (put_text(&s, &len, &cap, "cycle{") != 0)
        goto oom;
    for (size_t i = 0; i < w->ncyc; i++)
        if ((i && put_text(&s, &len, &cap, ";") != 0) ||
            put_letter(&s, &len, &cap, w->cyc[i], apmask, aps) != 0)
            goto oom;
    if (put_text(&s, &len, &cap, "}") != 0)
        goto oom;
    return s;
oom:
    free(s);
    return NULL;
}
