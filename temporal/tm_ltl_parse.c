/*
 * tm_ltl_parse.c - Spot's LTL syntax (the effects and cause candidates users
 * write for CORP), by recursive descent over Spot's precedence table, loosest
 * first:
 *     -> => --> <-> <=> <-->     right-associative, one level
 *     | || \/ +
 *     xor ^
 *     & && /\ *
 *     U R V W M                  right-associative
 *     ! ~ X F G [] <>            unary, tightest
 * Atoms: identifiers [A-Za-z_][A-Za-z0-9_.]* that are no operator word,
 * "double-quoted" names, true/1, false/0.  Errors give the column.
 */
#include "temporal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    T_EOF,
    T_LP,
    T_RP,
    T_IMPL,
    T_EQUIV,
    T_OR,
    T_XOR,
    T_AND,
    T_BIN,   /* U R V W M: op in tok.op */
    T_UNARY, /* ! X F G: op in tok.op */
    T_AP,
    T_CONST
} tkind;

typedef struct {
    tkind k;
    tm_lop op;
    size_t at, len; /* position of the token's text */
    bool value;     /* T_CONST */
} token;

/* Parser state.  Invariant: tok is the token starting at or after pos. */
typedef struct {
    const char *s;
    size_t pos;
    token tok;
    tm_ltl *l;
    tm_aps *aps;
    bool add_aps;
    const char *what;
    u_err *err;
    int depth;
} parser;

static int fail(parser *p, size_t at, const char *msg)
{
    return u_errf(p->err, "%s: column %zu: %s", p->what, at + 1, msg);
}

static bool starts(const char *s, const char *w)
{
    return !strncmp(s, w, strlen(w));
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

static int next(parser *p)
{
    const char *s = p->s;
    while (isspace((unsigned char)s[p->pos]))
        p->pos++;
    token *t = &p->tok;
    t->at = p->pos;
    t->len = 1;
    const char *c = s + p->pos;
    static const struct {
        const char *text;
        tkind k;
        tm_lop op;
    } sym[] = {
        {"<-->", T_EQUIV, TM_L_EQUIV}, {"<->", T_EQUIV, TM_L_EQUIV}, {"<=>", T_EQUIV, TM_L_EQUIV},
        {"-->", T_IMPL, TM_L_IMPL},    {"->", T_IMPL, TM_L_IMPL},    {"=>", T_IMPL, TM_L_IMPL},
        {"[]", T_UNARY, TM_L_G},       {"<>", T_UNARY, TM_L_F},      {"||", T_OR, TM_L_OR},
        {"|", T_OR, TM_L_OR},          {"\\/", T_OR, TM_L_OR},       {"+", T_OR, TM_L_OR},
        {"&&", T_AND, TM_L_AND},       {"&", T_AND, TM_L_AND},       {"/\\", T_AND, TM_L_AND},
        {"*", T_AND, TM_L_AND},        {"^", T_XOR, TM_L_XOR},       {"!", T_UNARY, TM_L_NOT},
        {"~", T_UNARY, TM_L_NOT},      {"(", T_LP, TM_L_TRUE},       {")", T_RP, TM_L_TRUE},
    };
    if (!*c) {
        t->k = T_EOF;
        t->len = 0;
        return 0;
    }
    for (size_t i = 0; i < sizeof sym / sizeof sym[0]; i++)
        if (starts(c, sym[i].text)) {
            t->k = sym[i].k;
            t->op = sym[i].op;
            t->len = strlen(sym[i].text);
            p->pos += t->len;
            return 0;
        }
    if (*c == '"') {
        const char *e = strchr(c + 1, '"');
        if (!e)
            return fail(p, p->pos, "unterminated \"");
        t->k = T_AP;
        t->at = p->pos + 1;
        t->len = (size_t)(e - c - 1);
        p->pos += t->len + 2;
        return 0;
    }
    if (*c == '0' || *c == '1') {
        t->k = T_CONST;
        t->value = *c == '1';
        p->pos++;
        return 0;
    }
    if (isalpha((unsigned char)*c) || *c == '_') {
        size_t n = 0;
        while (ident_char(c[n]))
            n++;
        t->len = n;
        p->pos += n;
        static const struct {
            const char *w;
            tkind k;
            tm_lop op;
        } words[] = {{"X", T_UNARY, TM_L_X}, {"F", T_UNARY, TM_L_F}, {"G", T_UNARY, TM_L_G},
                     {"U", T_BIN, TM_L_U},   {"R", T_BIN, TM_L_R},   {"V", T_BIN, TM_L_R},
                     {"W", T_BIN, TM_L_W},   {"M", T_BIN, TM_L_M},   {"xor", T_XOR, TM_L_XOR}};
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
            if (strlen(words[i].w) == n && !strncmp(c, words[i].w, n)) {
                t->k = words[i].k;
                t->op = words[i].op;
                return 0;
            }
        if ((n == 4 && !strncmp(c, "true", 4)) || (n == 5 && !strncmp(c, "false", 5))) {
            t->k = T_CONST;
            t->value = n == 4;
            return 0;
        }
        t->k = T_AP;
        return 0;
    }
    char msg[64];
    snprintf(msg, sizeof msg, "unexpected character '%c'", *c);
    return fail(p, p->pos, msg);
}

static int equiv(parser *p);

static int node(parser *p, tm_lop op, int a, int b)
{
    bool unary_op = op == TM_L_NOT || op == TM_L_X || op == TM_L_F || op == TM_L_G;
    if (a < 0 || (!unary_op && b < 0))
        return -1;
    int id = tm_ltl_mk(p->l, op, a, b, -1);
    if (id < 0)
        return u_oom(p->err);
    return id;
}

static int atom(parser *p)
{
    token t = p->tok;
    if (t.k == T_LP) {
        if (++p->depth > 10000)
            return fail(p, t.at, "formula nested too deeply");
        if (next(p) != 0)
            return -1;
        int f = equiv(p);
        p->depth--;
        if (f < 0)
            return -1;
        if (p->tok.k != T_RP)
            return fail(p, p->tok.at, "missing )");
        if (next(p) != 0)
            return -1;
        return f;
    }
    if (t.k == T_CONST) {
        if (next(p) != 0)
            return -1;
        int id = tm_ltl_mk(p->l, t.value ? TM_L_TRUE : TM_L_FALSE, -1, -1, -1);
        return id < 0 ? u_oom(p->err) : id;
    }
    if (t.k == T_AP) {
        int ap = p->add_aps ? tm_aps_add(p->aps, p->s + t.at, t.len, p->err)
                            : tm_aps_find(p->aps, p->s + t.at, t.len);
        if (ap < 0 && !p->add_aps) {
            char known[256] = "";
            for (int i = 0; i < p->aps->n && strlen(known) < 200; i++) {
                strcat(known, i ? ", " : "");
                strncat(known, p->aps->name[i], 40);
            }
            return u_errf(p->err, "%s: column %zu: unknown atomic proposition '%.*s' (known: %s)",
                          p->what, t.at + 1, (int)t.len, p->s + t.at, known);
        }
        if (ap < 0)
            return -1;
        if (next(p) != 0)
            return -1;
        int id = tm_ltl_mk(p->l, TM_L_AP, -1, -1, ap);
        return id < 0 ? u_oom(p->err) : id;
    }
    if (t.k == T_EOF)
        return fail(p, t.at, "formula ends where an operand is expected");
    return fail(p, t.at, "an operand is expected here");
}

static int unary(parser *p)
{
    if (p->tok.k != T_UNARY)
        return atom(p);
    if (++p->depth > 10000)
        return fail(p, p->tok.at, "formula nested too deeply");
    tm_lop op = p->tok.op;
    if (next(p) != 0)
        return -1;
    int a = unary(p);
    p->depth--;
    return node(p, op, a, -1);
}

static int until(parser *p) /* right-associative */
{
    int a = unary(p);
    if (a < 0 || p->tok.k != T_BIN)
        return a;
    tm_lop op = p->tok.op;
    if (++p->depth > 10000)
        return fail(p, p->tok.at, "formula nested too deeply");
    if (next(p) != 0)
        return -1;
    int b = until(p);
    p->depth--;
    return node(p, op, a, b);
}

/* One left-associative level: operands by sub, operator token k. */
static int left_level(parser *p, int (*sub)(parser *), tkind k, tm_lop op)
{
    int a = sub(p);
    while (a >= 0 && p->tok.k == k) {
        if (next(p) != 0)
            return -1;
        a = node(p, op, a, sub(p));
    }
    return a;
}

static int and_level(parser *p)
{
    return left_level(p, until, T_AND, TM_L_AND);
}

static int xor_level(parser *p)
{
    return left_level(p, and_level, T_XOR, TM_L_XOR);
}

static int or_level(parser *p)
{
    return left_level(p, xor_level, T_OR, TM_L_OR);
}

static int equiv(parser *p) /* -> and <->: one right-associative level */
{
    int a = or_level(p);
    if (a < 0 || (p->tok.k != T_IMPL && p->tok.k != T_EQUIV))
        return a;
    tm_lop op = p->tok.op;
    if (++p->depth > 10000)
        return fail(p, p->tok.at, "formula nested too deeply");
    if (next(p) != 0)
        return -1;
    int b = equiv(p);
    p->depth--;
    return node(p, op, a, b);
}

int tm_ltl_parse(tm_ltl *l, const char *text, tm_aps *aps, bool add_aps, const char *what,
                 u_err *err)
{
    parser p = {text, 0, {T_EOF, TM_L_TRUE, 0, 0, false}, l, aps, add_aps, what, err, 0};
    if (next(&p) != 0)
        return -1;
    if (p.tok.k == T_EOF)
        return u_errf(err, "%s: empty formula", what);
    int f = equiv(&p);
    if (f < 0)
        return -1;
    if (p.tok.k != T_EOF)
        return fail(&p, p.tok.at, p.tok.k == T_RP ? "unmatched )" : "unexpected text");
    return f;
}
