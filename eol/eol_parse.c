/*
 * eol_parse.c - recursive-descent parser for EOL formulas in the ASCII and Unicode forms.
 *
 * Tests and tools read formulas that eol_print.c wrote (or that people typed) back into trees
 * with eol_parse; the two files are each other's inverse.  The grammar, loosest level first:
 *
 *   expr  := order (('&' | '|') order)*                    left-associative
 *   order := unary ('.&' unary | '&[' unary | ']&' unary
 *                   | '&<' expr '>&' unary)*               left-associative
 *   unary := '!' unary | '(' expr ')' | event
 *   event := name, optionally with an occurrence suffix '_' digits
 *
 * The operands Def. 5 requires to be simple (the operand of '!', the right operand of '&[',
 * the left operand of ']&', the middle of '&<' '>&') are checked once parsed; a complex one is
 * an error, as it is for the constructors.  Both spellings of every operator are accepted
 * anywhere (eol_print.c lists the Unicode ones); whitespace separates tokens and is
 * otherwise ignored.  Event names follow eol_name_scan (eol_internal.h); a trailing
 * "_<digits>" after a non-empty name is the occurrence index ("_0": any occurrence).
 *
 * Errors: the first one stops the parse; its message starts with "column N:", N counting
 * characters (Unicode code points) from 1, and says what was expected or found.
 */
#include "eol.h"
#include "eol_internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    EOL_T_END,
    EOL_T_BAD, /* a character that starts no token */
    EOL_T_NAME,
    EOL_T_NOT,
    EOL_T_AND,
    EOL_T_OR,
    EOL_T_ORD,
    EOL_T_FROM,
    EOL_T_UNTIL,
    EOL_T_BOPEN,  /* &< */
    EOL_T_BCLOSE, /* >& */
    EOL_T_LPAREN,
    EOL_T_RPAREN,
} eol_tok_kind;

typedef struct {
    eol_tok_kind kind;
    size_t pos, len; /* byte offset and length in the text */
} eol_token;

typedef struct {
    const char *text;
    eol_token tok; /* the current (next unconsumed) token */
    int nesting;   /* current recursion depth of the parse functions */
    char *err;     /* first error message, or NULL */
    bool oom;
} eol_parser;

/* --- lexer ------------------------------------------------------------------------------ */

/* Length of the UTF-8 character at s if it is well formed, else 0. */
static size_t eol_utf8_len(const unsigned char *s)
{
    size_t len = s[0] >= 0xf0 && s[0] < 0xf8   ? 4
                 : s[0] >= 0xe0 && s[0] < 0xf0 ? 3
                 : s[0] >= 0xc0 && s[0] < 0xe0 ? 2
                                               : 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return len;
}

/* The operators that start with the Unicode wedge U+2227 (3 bytes at s). */
static eol_token eol_lex_wedge(const char *s, size_t pos)
{
    const char *next = s + 3;

    if (strncmp(next, "\xcc\x87", 2) == 0)
        return (eol_token){EOL_T_ORD, pos, 5};
    switch (*next) {
    case '[':
        return (eol_token){EOL_T_FROM, pos, 4};
    case ']':
        return (eol_token){EOL_T_UNTIL, pos, 4};
    case '<':
        return (eol_token){EOL_T_BOPEN, pos, 4};
    case '>':
        return (eol_token){EOL_T_BCLOSE, pos, 4};
    default:
        return (eol_token){EOL_T_AND, pos, 3};
    }
}

/* ASCII operators of two characters, where the first character alone is no token. */
static eol_token eol_lex_pair(const char *s, size_t pos, char second, eol_tok_kind kind)
{
    if (s[1] == second)
        return (eol_token){kind, pos, 2};
    return (eol_token){EOL_T_BAD, pos, 1};
}

static eol_token eol_lex_ascii(const char *s, size_t pos)
{
    int open;
    size_t len;

    switch (*s) {
    case '!':
        return (eol_token){EOL_T_NOT, pos, 1};
    case '|':
        return (eol_token){EOL_T_OR, pos, 1};
    case '(':
        return (eol_token){EOL_T_LPAREN, pos, 1};
    case ')':
        return (eol_token){EOL_T_RPAREN, pos, 1};
    case '&':
        if (s[1] == '[')
            return (eol_token){EOL_T_FROM, pos, 2};
        if (s[1] == '<')
            return (eol_token){EOL_T_BOPEN, pos, 2};
        return (eol_token){EOL_T_AND, pos, 1};
    case '.':
        return eol_lex_pair(s, pos, '&', EOL_T_ORD);
    case ']':
        return eol_lex_pair(s, pos, '&', EOL_T_UNTIL);
    case '>':
        return eol_lex_pair(s, pos, '&', EOL_T_BCLOSE);
    default:
        len = eol_name_scan(s, &open);
        if (len > 0)
            return (eol_token){EOL_T_NAME, pos, len};
        return (eol_token){EOL_T_BAD, pos, 1};
    }
}

static eol_token eol_lex(const char *text, size_t pos)
{
    const char *s;
    size_t ulen;

    while (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r')
        pos++;
    s = text + pos;
    if (*s == '\0')
        return (eol_token){EOL_T_END, pos, 0};
    if ((unsigned char)*s < 0x80)
        return eol_lex_ascii(s, pos);
    if (strncmp(s, "\xc2\xac", 2) == 0)
        return (eol_token){EOL_T_NOT, pos, 2};
    if (strncmp(s, "\xe2\x88\xa8", 3) == 0)
        return (eol_token){EOL_T_OR, pos, 3};
    if (strncmp(s, "\xe2\x88\xa7", 3) == 0)
        return eol_lex_wedge(s, pos);
    ulen = eol_utf8_len((const unsigned char *)s);
    return (eol_token){EOL_T_BAD, pos, ulen ? ulen : 1};
}

static void eol_advance(eol_parser *p)
{
    p->tok = eol_lex(p->text, p->tok.pos + p->tok.len);
}

/* --- errors ----------------------------------------------------------------------------- */

static size_t eol_column(const char *text, size_t pos)
{
    size_t col = 1;

    for (size_t i = 0; i < pos; i++)
        if (((unsigned char)text[i] & 0xc0) != 0x80)
            col++;
    return col;
}

/* Records "column N: <message>" for byte offset pos, unless an error is already recorded. */
static void eol_fail(eol_parser *p, size_t pos, const char *fmt, ...)
{
    char prefix[40];
    va_list ap;
    int plen, mlen;

    if (p->err || p->oom)
        return;
    plen = snprintf(prefix, sizeof prefix, "column %zu: ", eol_column(p->text, pos));
    va_start(ap, fmt);
    mlen = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (plen < 0 || mlen < 0 || !(p->err = malloc((size_t)plen + (size_t)mlen + 1))) {
        p->oom = true;
        return;
    }
    memcpy(p->err, prefix, (size_t)plen);
    va_start(ap, fmt);
    vsnprintf(p->err + plen, (size_t)mlen + 1, fmt, ap);
    va_end(ap);
}

/* Reports the current token as unexpected where `wanted` was needed.  A character that
 * starts no token is reported as such, since that is the actual mistake. */
static void eol_fail_here(eol_parser *p, const char *wanted)
{
    const eol_token *t = &p->tok;
    const char *src = p->text + t->pos;

    if (t->kind == EOL_T_BAD && eol_utf8_len((const unsigned char *)src) == 0 &&
        (unsigned char)*src >= 0x80)
        eol_fail(p, t->pos, "invalid byte 0x%02x", (unsigned char)*src);
    else if (t->kind == EOL_T_BAD)
        eol_fail(p, t->pos, "unexpected character '%.*s'", (int)t->len, src);
    else if (t->kind == EOL_T_END)
        eol_fail(p, t->pos, "%s, found end of input", wanted);
    else
        eol_fail(p, t->pos, "%s, found '%.*s'", wanted, (int)t->len, src);
}

/* Enters one level of recursion; false (with an error) past EOL_MAX_DEPTH. */
static bool eol_enter(eol_parser *p)
{
    if (++p->nesting > EOL_MAX_DEPTH) {
        eol_fail(p, p->tok.pos, "formula nested deeper than %d levels", EOL_MAX_DEPTH);
        return false;
    }
    return true;
}

/* A constructor's NULL when all its operands were present means memory ran out (the parser
 * checks well-formedness before calling constructors). */
static eol_node *eol_built(eol_parser *p, eol_node *n)
{
    if (!n)
        p->oom = true;
    return n;
}

/* Tree depth bookkeeping: the parser refuses trees deeper than EOL_MAX_DEPTH too, since a
 * long chain "a & a & ..." builds a deep tree without any recursion in the parser. */
static eol_node *eol_deep_check(eol_parser *p, eol_node *n, int *depth, int d, size_t pos)
{
    *depth = d;
    if (n && d > EOL_MAX_DEPTH) {
        eol_fail(p, pos, "formula nested deeper than %d levels", EOL_MAX_DEPTH);
        eol_free(n);
        return NULL;
    }
    return n;
}

static int eol_max(int x, int y)
{
    return x > y ? x : y;
}

/* --- grammar ---------------------------------------------------------------------------- */

static eol_node *eol_parse_expr(eol_parser *p, int *depth);

static eol_node *eol_parse_event(eol_parser *p)
{
    const char *s = p->text + p->tok.pos;
    size_t len = p->tok.len, cut = eol_occ_suffix(s, len);
    long occ = 0;
    int open;
    char *name;
    eol_node *n;

    eol_name_scan(s, &open);
    if (open > 0) {
        eol_fail(p, p->tok.pos, "unbalanced '[' in event name '%.*s'", (int)len, s);
        return NULL;
    }
    for (size_t i = cut + 1; i < len; i++) {
        occ = occ * 10 + (s[i] - '0');
        if (occ > INT_MAX) {
            eol_fail(p, p->tok.pos + cut, "occurrence index too large");
            return NULL;
        }
    }
    if (!(name = eol_strndup(s, cut))) {
        p->oom = true;
        return NULL;
    }
    n = eol_built(p, eol_event(name, (int)occ));
    free(name);
    eol_advance(p);
    return n;
}

static eol_node *eol_parse_unary(eol_parser *p, int *depth);

static eol_node *eol_parse_not(eol_parser *p, int *depth)
{
    size_t pos = p->tok.pos;
    eol_node *a;

    eol_advance(p);
    if (!(a = eol_parse_unary(p, depth)))
        return NULL;
    if (!eol_is_simple(a)) {
        eol_fail(p, pos, "'!' applies only to a simple formula (events, !, &, |)");
        eol_free(a);
        return NULL;
    }
    return eol_deep_check(p, eol_built(p, eol_not(a)), depth, *depth + 1, pos);
}

static eol_node *eol_parse_group(eol_parser *p, int *depth)
{
    size_t pos = p->tok.pos;
    eol_node *e;

    eol_advance(p);
    if (!(e = eol_parse_expr(p, depth)))
        return NULL;
    if (p->tok.kind != EOL_T_RPAREN) {
        char wanted[64];
        snprintf(wanted, sizeof wanted, "expected ')' to close '(' of column %zu",
                 eol_column(p->text, pos));
        eol_fail_here(p, wanted);
        eol_free(e);
        return NULL;
    }
    eol_advance(p);
    return e;
}

static eol_node *eol_parse_unary(eol_parser *p, int *depth)
{
    eol_node *n = NULL;

    *depth = 0;
    if (!eol_enter(p))
        return NULL;
    switch (p->tok.kind) {
    case EOL_T_NOT:
        n = eol_parse_not(p, depth);
        break;
    case EOL_T_LPAREN:
        n = eol_parse_group(p, depth);
        break;
    case EOL_T_NAME:
        *depth = 1;
        n = eol_parse_event(p);
        break;
    default:
        eol_fail_here(p, "missing operand: expected an event, '!' or '('");
        break;
    }
    p->nesting--;
    return n;
}

/* The middle of "a &< phi >& b": a whole expression, closed by '>&'. */
static eol_node *eol_parse_middle(eol_parser *p, size_t open_pos, int *depth)
{
    size_t pos = p->tok.pos;
    eol_node *m;

    if (!eol_enter(p))
        return NULL;
    m = eol_parse_expr(p, depth);
    p->nesting--;
    if (!m)
        return NULL;
    if (p->tok.kind != EOL_T_BCLOSE) {
        char wanted[64];
        snprintf(wanted, sizeof wanted, "expected '>&' to close '&<' of column %zu",
                 eol_column(p->text, open_pos));
        eol_fail_here(p, wanted);
    } else if (!eol_is_simple(m)) {
        eol_fail(p, pos, "the formula between '&<' and '>&' must be simple (events, !, &, |)");
    } else {
        eol_advance(p);
        return m;
    }
    eol_free(m);
    return NULL;
}

/* One order operator applied to `left` (consumed): the operator is the current token. */
static eol_node *eol_parse_order_step(eol_parser *p, eol_node *left, int *depth)
{
    eol_tok_kind op = p->tok.kind;
    size_t pos = p->tok.pos;
    eol_node *mid = NULL, *right = NULL;
    int md = 0, rd = 0;

    if (op == EOL_T_UNTIL && !eol_is_simple(left)) {
        eol_fail(p, pos, "the formula before ']&' must be simple (events, !, &, |)");
        eol_free(left);
        return NULL;
    }
    eol_advance(p);
    if (op == EOL_T_BOPEN && !(mid = eol_parse_middle(p, pos, &md))) {
        eol_free(left);
        return NULL;
    }
    size_t rpos = p->tok.pos;
    if (!(right = eol_parse_unary(p, &rd))) {
        eol_free(left);
        eol_free(mid);
        return NULL;
    }
    if (op == EOL_T_FROM && !eol_is_simple(right)) {
        eol_fail(p, rpos, "the formula after '&[' must be simple (events, !, &, |)");
        eol_free(left);
        eol_free(right);
        return NULL;
    }
    eol_node *n = op == EOL_T_ORD     ? eol_ord(left, right)
                  : op == EOL_T_FROM  ? eol_from(left, right)
                  : op == EOL_T_UNTIL ? eol_until(left, right)
                                      : eol_between(left, mid, right);
    return eol_deep_check(p, eol_built(p, n), depth, eol_max(*depth, eol_max(md, rd)) + 1, pos);
}

static bool eol_is_order_op(eol_tok_kind k)
{
    return k == EOL_T_ORD || k == EOL_T_FROM || k == EOL_T_UNTIL || k == EOL_T_BOPEN;
}

static eol_node *eol_parse_order(eol_parser *p, int *depth)
{
    eol_node *left = eol_parse_unary(p, depth);

    while (left && eol_is_order_op(p->tok.kind))
        left = eol_parse_order_step(p, left, depth);
    return left;
}

static eol_node *eol_parse_expr(eol_parser *p, int *depth)
{
    eol_node *left = eol_parse_order(p, depth);

    while (left && (p->tok.kind == EOL_T_AND || p->tok.kind == EOL_T_OR)) {
        eol_tok_kind op = p->tok.kind;
        size_t pos = p->tok.pos;
        eol_node *right;
        int rd;

        eol_advance(p);
        if (!(right = eol_parse_order(p, &rd))) {
            eol_free(left);
            return NULL;
        }
        left = op == EOL_T_AND ? eol_and(left, right) : eol_or(left, right);
        left = eol_deep_check(p, eol_built(p, left), depth, eol_max(*depth, rd) + 1, pos);
    }
    return left;
}

/* What is left after a complete formula can only be a mistake; name the likely one. */
static void eol_fail_trailing(eol_parser *p)
{
    switch (p->tok.kind) {
    case EOL_T_RPAREN:
        eol_fail(p, p->tok.pos, "unbalanced ')': no '(' to close");
        break;
    case EOL_T_BCLOSE:
        eol_fail(p, p->tok.pos, "'>&' without a preceding '&<'");
        break;
    default:
        eol_fail_here(p, "expected an operator or the end of the formula");
        break;
    }
}

eol_node *eol_parse(const char *text, char **err)
{
    eol_parser p = {0};
    eol_node *n = NULL;
    int depth;

    if (err)
        *err = NULL;
    p.text = text ? text : ""; /* no text reads as an empty formula: a missing operand */
    p.tok = eol_lex(p.text, 0);
    n = eol_parse_expr(&p, &depth);
    if (n && p.tok.kind != EOL_T_END) {
        eol_fail_trailing(&p);
        eol_free(n);
        n = NULL;
    }
    if (n)
        return n;
    /* Every failure records a message except running out of memory. */
    if (!p.err)
        p.err = eol_strndup("out of memory", 13);
    if (err)
        *err = p.err;
    else
        free(p.err);
    return n;
}
