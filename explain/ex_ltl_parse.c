/* ex_ltl_parse: SPIN and NuSMV LTL syntax into the ex_ltl DAG.
 *
 * The input is tokenised first so that the parser can backtrack: a
 * parenthesis may open a Promela expression, `(x + 1) < y`, or a formula,
 * `(p U q)`; the expression reading is tried first and abandoned when it
 * meets a temporal or boolean operator.  Operator precedence follows each
 * tool: SPIN binds unary operators tightest, then U/W/V (left-assoc), &&,
 * ||, and finally -> and <-> (one left-assoc level); NuSMV the same except
 * -> is right-assoc below <->, and xor/xnor sit with |.
 *
 * The text is a user's (a --formula, a model's ltl block, a NuSMV file), so
 * the parser bounds what it does with it:
 *   - nesting: the parser's recursion, the height of the formula's tree and
 *     of every proposition's expression tree are each at most
 *     EX_LTL_MAX_DEPTH; deeper text is the error "formula nested deeper
 *     than N" with its column.  That bound is what keeps every recursive pass
 *     downstream (normal forms, printing, binding, evaluation) off the end of
 *     the C stack, whatever the input;
 *   - time: linear in the text.  An abandoned expression reading is the only
 *     repeated work, and the reading that starts at a token is the same
 *     every time it is tried (it depends on nothing but the tokens), so a
 *     failed one is remembered per token: nested parentheses around a
 *     formula, `((((p U q))))`, are read as an expression once, not once per
 *     level.  A nesting, height or memory error ends the whole parse, so the
 *     speculation never depends on how deep it started;
 *   - memory: out of memory is an error message, never an abort.
 */
#include "ex_ltl.h"
#include "util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    T_EOF,
    T_NUM,
    T_ID,
    T_LP,
    T_RP,
    T_LB,
    T_RB,
    T_COLON,
    T_AT,
    T_DOT,
    T_ALWAYS,
    T_EVENTUALLY,
    T_NEXT,
    T_UNTIL,
    T_WEAK,
    T_RELEASE,
    T_NOT,
    T_AND,
    T_OR,
    T_IMPL,
    T_EQUIV,
    T_XOR,
    T_XNOR,
    T_TRUE,
    T_FALSE,
    T_LEN,
    T_PAST,
    T_OP /* arithmetic/relational, code in `op` */
} tkind;

typedef struct {
    tkind k;
    int op;
    int64_t num;
    size_t pos, len;
} token;

typedef struct {
    const char *src;
    int dialect;
    token *t;
    size_t nt, cap, at;
    ex_ltl *l;
    char *err;
    size_t errlen;
    int failed;
    int fatal;                 /* nesting, height or memory: the whole parse fails */
    int quiet;                 /* while speculating, ordinary errors are not reported */
    int depth;                 /* current recursion depth of the parse */
    unsigned char *expr_fails; /* per token: the expression reading there fails */
    int *height;               /* per ex_ltl node: height of its tree */
    size_t nheight, capheight;
} parser;

/* ---- errors ------------------------------------------------------------------ */

static void vreport(parser *p, size_t pos, const char *fmt, va_list ap)
{
    int n = snprintf(p->err, p->errlen, "column %zu: ", pos + 1);
    if (n >= 0 && (size_t)n < p->errlen)
        vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
}

/* An ordinary syntax error: the reading being tried does not fit.  While
 * speculating it only abandons the reading. */
static void perr(parser *p, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void perr(parser *p, size_t pos, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = 1;
    if (p->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vreport(p, pos, fmt, ap);
    va_end(ap);
}

/* An error no other reading can avoid; reported even while speculating. */
static void fatal(parser *p, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fatal(parser *p, size_t pos, const char *fmt, ...)
{
    if (p->fatal || (p->failed && !p->quiet))
        return;
    p->failed = p->fatal = 1;
    va_list ap;
    va_start(ap, fmt);
    vreport(p, pos, fmt, ap);
    va_end(ap);
}

static token *cur(parser *p)
{
    return &p->t[p->at];
}

static void oom(parser *p)
{
    fatal(p, cur(p)->pos, "out of memory");
}

static void too_deep(parser *p, size_t pos)
{
    fatal(p, pos, "formula nested deeper than %d", EX_LTL_MAX_DEPTH);
}

/* One level deeper into the recursion; 0, or -1 past the limit. */
static int enter(parser *p)
{
    if (p->depth >= EX_LTL_MAX_DEPTH) {
        too_deep(p, cur(p)->pos);
        return -1;
    }
    p->depth++;
    return 0;
}

static void leave(parser *p)
{
    p->depth--;
}

/* ---- lexer ---------------------------------------------------------------- */

static const struct {
    const char *w;
    tkind k;
    int smv;
} words[] = {
    {"X", T_NEXT, 2},           {"U", T_UNTIL, 2},         {"V", T_RELEASE, 2},
    {"W", T_WEAK, 0},           {"always", T_ALWAYS, 0},   {"eventually", T_EVENTUALLY, 0},
    {"next", T_NEXT, 0},        {"until", T_UNTIL, 0},     {"stronguntil", T_UNTIL, 0},
    {"weakuntil", T_WEAK, 0},   {"release", T_RELEASE, 0}, {"implies", T_IMPL, 0},
    {"equivalent", T_EQUIV, 0}, {"true", T_TRUE, 0},       {"false", T_FALSE, 0},
    {"len", T_LEN, 0},          {"G", T_ALWAYS, 1},        {"F", T_EVENTUALLY, 1},
    {"TRUE", T_TRUE, 1},        {"FALSE", T_FALSE, 1},     {"xor", T_XOR, 1},
    {"xnor", T_XNOR, 1},        {"mod", T_OP, 1},          {"Y", T_PAST, 1},
    {"Z", T_PAST, 1},           {"H", T_PAST, 1},          {"O", T_PAST, 1},
    {"S", T_PAST, 1},           {"T", T_PAST, 1},
};

static int push(parser *p, tkind k, int op, size_t pos, size_t len)
{
    if (U_GROW(p->t, p->cap, p->nt)) {
        p->failed = p->fatal = 1;
        snprintf(p->err, p->errlen, "column %zu: out of memory", pos + 1);
        return -1;
    }
    p->t[p->nt++] = (token){k, op, 0, pos, len};
    return 0;
}

static int ident_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '#';
}

static int lex_word(parser *p, size_t *i)
{
    const char *s = p->src;
    size_t st = *i;
    while (ident_char((unsigned char)s[*i]))
        (*i)++;
    size_t n = *i - st;
    int smv = p->dialect == EX_DIALECT_SMV;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        if (strlen(words[w].w) != n || strncmp(words[w].w, s + st, n) != 0)
            continue;
        if (words[w].smv != 2 && words[w].smv != smv)
            continue;
        return push(p, words[w].k, words[w].k == T_OP ? '%' : 0, st, n);
    }
    return push(p, T_ID, 0, st, n);
}

/* Longest-match punctuation, per dialect; 1 when none matches. */
static int lex_punct(parser *p, size_t *i)
{
    static const struct {
        const char *s;
        tkind k;
        int op;
        int dial; /* 0 SPIN, 1 SMV, 2 both */
    } tab[] = {
        {"<->", T_EQUIV, 0, 2},     {"->", T_IMPL, 0, 2},       {"[]", T_ALWAYS, 0, 0},
        {"<>", T_EVENTUALLY, 0, 0}, {"&&", T_AND, 0, 0},        {"||", T_OR, 0, 0},
        {"==", T_OP, EX_OP_EQ, 0},  {"!=", T_OP, EX_OP_NE, 2},  {"<=", T_OP, EX_OP_LE, 2},
        {">=", T_OP, EX_OP_GE, 2},  {"<<", T_OP, EX_OP_SHL, 2}, {">>", T_OP, EX_OP_SHR, 2},
        {"=", T_OP, EX_OP_EQ, 1},   {"&", T_AND, 0, 1},         {"|", T_OR, 0, 1},
        {"&", T_OP, '&', 0},        {"|", T_OP, '|', 0},        {"^", T_OP, '^', 0},
        {"!", T_NOT, 0, 2},         {"<", T_OP, '<', 2},        {">", T_OP, '>', 2},
        {"+", T_OP, '+', 2},        {"-", T_OP, '-', 2},        {"*", T_OP, '*', 2},
        {"/", T_OP, '/', 2},        {"%", T_OP, '%', 0},        {"~", T_OP, '~', 0},
        {"(", T_LP, 0, 2},          {")", T_RP, 0, 2},          {"[", T_LB, 0, 2},
        {"]", T_RB, 0, 2},          {":", T_COLON, 0, 0},       {".", T_DOT, 0, 2},
        {"@", T_AT, 0, 0},
    };
    for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++) {
        size_t n = strlen(tab[k].s);
        if (tab[k].dial != 2 && tab[k].dial != p->dialect)
            continue;
        if (strncmp(p->src + *i, tab[k].s, n) == 0) {
            *i += n;
            return push(p, tab[k].k, tab[k].op, *i - n, n);
        }
    }
    return 1;
}

static int lex(parser *p)
{
    const char *s = p->src;
    size_t i = 0;
    while (s[i]) {
        unsigned char c = (unsigned char)s[i];
        int rc = 0;
        if (isspace(c)) {
            i++;
        } else if (isdigit(c)) {
            const char *end;
            int64_t v;
            if (ex_expr_parse_number(s + i, &v, &end, p->dialect == EX_DIALECT_SMV) != 0) {
                perr(p, i, "malformed number, or one beyond 2^63 - 1");
                return -1;
            }
            rc = push(p, T_NUM, 0, i, (size_t)(end - (s + i)));
            if (!rc)
                p->t[p->nt - 1].num = v;
            i = (size_t)(end - s);
        } else if (isalpha(c) || c == '_') {
            rc = lex_word(p, &i);
        } else if ((rc = lex_punct(p, &i)) == 1) {
            if (isprint(c))
                perr(p, i, "unexpected character '%c'", c);
            else
                perr(p, i, "unexpected byte 0x%02x", c);
            return -1;
        }
        if (rc)
            return -1;
    }
    return push(p, T_EOF, 0, i, 0);
}

/* ---- expressions ----------------------------------------------------------- */

static void tokdesc(parser *p, char *buf, size_t n)
{
    token *t = cur(p);
    if (t->k == T_EOF)
        snprintf(buf, n, "end of formula");
    else
        snprintf(buf, n, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), p->src + t->pos);
}

static void expect_err(parser *p, const char *what)
{
    char d[64];
    tokdesc(p, d, sizeof d);
    perr(p, cur(p)->pos, "expected %s but found %s", what, d);
}

/* Expressions with their tree's height in *h.  NULL on any error. */
static ex_expr *p_top(parser *p, int *h);

/* e, or NULL (freeing e's parts) when e could not be allocated. */
static ex_expr *made(parser *p, ex_expr *e)
{
    if (!e)
        oom(p);
    return e;
}

static ex_expr *mk_op(parser *p, int op, ex_expr *l, ex_expr *r, int *h, int hl, int hr, size_t pos)
{
    *h = 1 + (hl > hr ? hl : hr);
    if (*h > EX_LTL_MAX_DEPTH) {
        ex_expr_free(l);
        ex_expr_free(r);
        too_deep(p, pos);
        return NULL;
    }
    return made(p, ex_expr_op(op, l, r));
}

static int has_var(const ex_expr *e)
{
    return e && (e->kind == EX_E_VAR || has_var(e->l) || has_var(e->r));
}

static int const_index(parser *p, int64_t *v)
{
    size_t pos = cur(p)->pos;
    int h;
    ex_expr *e = p_top(p, &h);
    if (!e)
        return -1;
    if (has_var(e)) {
        ex_expr_free(e);
        perr(p, pos, "array and process indices must be constants");
        return -1;
    }
    *v = ex_expr_eval(e, NULL);
    ex_expr_free(e);
    return 0;
}

/* name := ID ['[' const ']'] { ('.' | ':') ID ['[' const ']'] } ['@' ID]
 * Built as canonical text: arr[1], P[0]:y, s.f, P[0]@crit (SPIN: process 0 at label
 * crit, a column ex_loc.c makes when the formula is bound) */
static char *p_name(parser *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    if (!o) {
        oom(p);
        return NULL;
    }
    for (;;) {
        token *t = cur(p);
        if (t->k != T_ID) {
            expect_err(p, "a variable name");
            break;
        }
        fprintf(o, "%.*s", (int)t->len, p->src + t->pos);
        p->at++;
        if (cur(p)->k == T_LB) {
            p->at++;
            int64_t v;
            if (enter(p))
                break;
            int rc = const_index(p, &v);
            leave(p);
            if (rc != 0)
                break;
            if (cur(p)->k != T_RB) {
                expect_err(p, "']'");
                break;
            }
            p->at++;
            fprintf(o, "[%lld]", (long long)v);
        }
        tkind k = cur(p)->k;
        if (k == T_AT) {
            p->at++;
            if (cur(p)->k != T_ID) {
                expect_err(p, "a label name after '@'");
                break;
            }
            fprintf(o, "@%.*s", (int)cur(p)->len, p->src + cur(p)->pos);
            p->at++;
            break;
        }
        if (k != T_DOT && k != T_COLON)
            break;
        fputc(k == T_DOT ? '.' : ':', o);
        p->at++;
    }
    if (fclose(o) != 0 && !p->failed)
        oom(p);
    if (p->failed) {
        free(buf);
        return NULL;
    }
    return buf;
}

static ex_expr *var_leaf(parser *p, const char *fmt, const char *name, int *h)
{
    char *full = u_fmt(fmt, name);
    ex_expr *e = full ? ex_expr_var(full) : NULL;
    free(full);
    *h = 1;
    return made(p, e);
}

static ex_expr *p_primary(parser *p, int *h)
{
    token *t = cur(p);
    *h = 1;
    switch (t->k) {
    case T_NUM:
        p->at++;
        return made(p, ex_expr_num(t->num));
    case T_TRUE:
    case T_FALSE:
        p->at++;
        return made(p, ex_expr_num(t->k == T_TRUE));
    case T_OP:
        if (t->op == '-' || t->op == '~') {
            p->at++;
            if (enter(p))
                return NULL;
            int ha;
            ex_expr *e = p_primary(p, &ha);
            leave(p);
            return e ? mk_op(p, t->op, e, NULL, h, ha, 0, t->pos) : NULL;
        }
        break;
    case T_LP: {
        p->at++;
        if (enter(p))
            return NULL;
        ex_expr *e = p_top(p, h);
        leave(p);
        if (!e) /* the error is set; never step past the token it stopped at */
            return NULL;
        if (cur(p)->k != T_RP) {
            expect_err(p, "')'");
            ex_expr_free(e);
            return NULL;
        }
        p->at++;
        return e;
    }
    case T_LEN: {
        p->at++;
        if (cur(p)->k != T_LP) {
            expect_err(p, "'(' after len");
            return NULL;
        }
        p->at++;
        char *n = p_name(p);
        if (!n)
            return NULL;
        if (cur(p)->k != T_RP) {
            expect_err(p, "')'");
            free(n);
            return NULL;
        }
        p->at++;
        ex_expr *e = var_leaf(p, "len(%s)", n, h);
        free(n);
        return e;
    }
    case T_ID: {
        char *n = p_name(p);
        if (!n)
            return NULL;
        ex_expr *e = var_leaf(p, "%s", n, h);
        free(n);
        return e;
    }
    case T_PAST:
        perr(p, t->pos, "past-time operator '%.*s' is not supported", (int)t->len, p->src + t->pos);
        return NULL;
    default:
        break;
    }
    expect_err(p, "an expression");
    return NULL;
}

/* Binary levels, loosest first; a level is a list of operator codes. */
static const int levels[][6] = {
    {'|'},
    {'^'},
    {'&'},
    {EX_OP_EQ, EX_OP_NE},
    {'<', '>', EX_OP_LE, EX_OP_GE},
    {EX_OP_SHL, EX_OP_SHR},
    {'+', '-'},
    {'*', '/', '%'},
};
#define NLEVELS (int)(sizeof levels / sizeof levels[0])

/* The level of the binary operator at the current token, or -1. */
static int op_level(parser *p)
{
    token *t = cur(p);
    if (t->k != T_OP)
        return -1;
    for (int lv = 0; lv < NLEVELS; lv++)
        for (int i = 0; i < 6 && levels[lv][i]; i++)
            if (levels[lv][i] == t->op)
                return lv;
    return -1;
}

/* Operators of level lv and tighter, left-associative (precedence climbing:
 * the recursion per parenthesis is at most NLEVELS deep). */
static ex_expr *p_binary(parser *p, int lv, int *h)
{
    ex_expr *e = p_primary(p, h);
    for (int olv; e && (olv = op_level(p)) >= lv;) {
        token *t = cur(p);
        p->at++;
        int hr;
        ex_expr *r = p_binary(p, olv + 1, &hr);
        if (!r) {
            ex_expr_free(e);
            return NULL;
        }
        e = mk_op(p, t->op, e, r, h, *h, hr, t->pos);
    }
    return e;
}

/* SMV has no bitwise operators: & and | are its boolean connectives.  While
 * speculating, a reading known to fail is not tried again. */
static ex_expr *p_top(parser *p, int *h)
{
    size_t at = p->at;
    if (p->quiet && p->expr_fails[at]) {
        p->failed = 1;
        return NULL;
    }
    ex_expr *e = p_binary(p, p->dialect == EX_DIALECT_SMV ? 3 : 0, h);
    if (!e && p->quiet)
        p->expr_fails[at] = 1;
    return e;
}

/* ---- formulas ---------------------------------------------------------------- */

/* Records the height of every node made since the last call (children are
 * always older than their parents).  0, or -1 when out of memory. */
static int sync_heights(parser *p)
{
    while (p->nheight < p->l->len) {
        if (U_GROW(p->height, p->capheight, p->nheight))
            return -1;
        const ex_lnode *n = &p->l->n[p->nheight];
        int x = n->a >= 0 ? p->height[n->a] : 0, y = n->b >= 0 ? p->height[n->b] : 0;
        p->height[p->nheight++] = 1 + (x > y ? x : y);
    }
    return 0;
}

/* ex_ltl_mk with the height bound; -1 with the error set (also when an
 * operand is -1: its error is set already). */
static int mk(parser *p, ex_lop op, int a, int b, size_t pos)
{
    int leaf = op == EX_L_TRUE || op == EX_L_FALSE;
    int unary = op == EX_L_NOT || op == EX_L_X || op == EX_L_F || op == EX_L_G;
    if (!leaf && (a < 0 || (!unary && b < 0)))
        return -1;
    int ha = a >= 0 ? p->height[a] : 0, hb = b >= 0 ? p->height[b] : 0;
    if (1 + (ha > hb ? ha : hb) > EX_LTL_MAX_DEPTH) {
        too_deep(p, pos);
        return -1;
    }
    int f = ex_ltl_mk(p->l, op, a, b);
    if (f < 0 || sync_heights(p)) {
        oom(p);
        return -1;
    }
    return f;
}

static int p_impl(parser *p);

static int follows_prop(tkind k)
{
    switch (k) {
    case T_EOF:
    case T_RP:
    case T_AND:
    case T_OR:
    case T_IMPL:
    case T_EQUIV:
    case T_UNTIL:
    case T_WEAK:
    case T_RELEASE:
    case T_XOR:
    case T_XNOR:
        return 1;
    default:
        return 0;
    }
}

static int make_prop(parser *p, ex_expr *e, int h, size_t pos)
{
    if (!ex_expr_is_relational(e)) {
        ex_expr *zero = made(p, ex_expr_num(0));
        e = zero ? mk_op(p, EX_OP_NE, e, zero, &h, h, 1, pos) : (ex_expr_free(e), NULL);
        if (!e)
            return -1;
    }
    int f = ex_ltl_prop(p->l, e);
    if (f < 0 && p->l->oom) {
        oom(p);
        return -1;
    }
    if (f < 0) {
        perr(p, pos, "more than %d distinct propositions", EX_MAX_PROPS);
        return -1;
    }
    if (sync_heights(p)) {
        oom(p);
        return -1;
    }
    return f;
}

/* Tries the expression reading of what follows; on failure rewinds and
 * returns -2 (or -1 when the error is fatal). */
static int try_prop(parser *p)
{
    size_t save = p->at, pos = cur(p)->pos;
    int was_quiet = p->quiet, h;
    p->quiet = 1;
    ex_expr *e = p_top(p, &h);
    int ok = e && !p->failed && follows_prop(cur(p)->k);
    p->quiet = was_quiet;
    if (!ok) {
        ex_expr_free(e);
        if (p->fatal)
            return -1;
        p->failed = 0;
        p->at = save;
        return -2;
    }
    return make_prop(p, e, h, pos);
}

static int p_atom(parser *p)
{
    token *t = cur(p);
    if ((t->k == T_TRUE || t->k == T_FALSE) && follows_prop(p->t[p->at + 1].k)) {
        p->at++;
        return mk(p, t->k == T_TRUE ? EX_L_TRUE : EX_L_FALSE, -1, -1, t->pos);
    }
    int f = try_prop(p);
    if (f != -2)
        return f;
    if (t->k == T_LP) {
        p->at++;
        if (enter(p))
            return -1;
        f = p_impl(p);
        leave(p);
        if (f < 0)
            return -1;
        if (cur(p)->k != T_RP) {
            expect_err(p, "')'");
            return -1;
        }
        p->at++;
        return f;
    }
    /* Not a formula either: report the expression reading's error. */
    int h;
    ex_expr *e = p_top(p, &h);
    if (e) {
        ex_expr_free(e);
        expect_err(p, "an operator or ')'");
    }
    return -1;
}

static int p_unary(parser *p)
{
    token *t = cur(p);
    ex_lop op;
    switch (t->k) {
    case T_NOT:
        op = EX_L_NOT;
        break;
    case T_ALWAYS:
        op = EX_L_G;
        break;
    case T_EVENTUALLY:
        op = EX_L_F;
        break;
    case T_NEXT:
        op = EX_L_X;
        break;
    case T_PAST:
        perr(p, t->pos, "past-time operator '%.*s' is not supported", (int)t->len, p->src + t->pos);
        return -1;
    default:
        return p_atom(p);
    }
    p->at++;
    if (enter(p))
        return -1;
    int a = p_unary(p);
    leave(p);
    return a < 0 ? -1 : mk(p, op, a, -1, t->pos);
}

static int p_until(parser *p)
{
    int f = p_unary(p);
    for (;;) {
        token *t = cur(p);
        if (f < 0 || (t->k != T_UNTIL && t->k != T_WEAK && t->k != T_RELEASE))
            return f;
        p->at++;
        int b = p_unary(p);
        f = mk(p, t->k == T_UNTIL ? EX_L_U : t->k == T_WEAK ? EX_L_W : EX_L_R, f, b, t->pos);
    }
}

static int p_and(parser *p)
{
    int f = p_until(p);
    while (f >= 0 && cur(p)->k == T_AND) {
        size_t pos = cur(p)->pos;
        p->at++;
        f = mk(p, EX_L_AND, f, p_until(p), pos);
    }
    return f;
}

static int p_or(parser *p)
{
    int f = p_and(p);
    for (;;) {
        token *t = cur(p);
        if (f < 0 || (t->k != T_OR && t->k != T_XOR && t->k != T_XNOR))
            return f;
        p->at++;
        int b = p_and(p);
        if (t->k == T_OR)
            f = mk(p, EX_L_OR, f, b, t->pos);
        else if (t->k == T_XNOR)
            f = mk(p, EX_L_EQUIV, f, b, t->pos);
        else
            f = mk(p, EX_L_NOT, mk(p, EX_L_EQUIV, f, b, t->pos), -1, t->pos);
    }
}

static int p_impl(parser *p)
{
    int f = p_or(p);
    if (p->dialect == EX_DIALECT_SMV) {
        while (f >= 0 && cur(p)->k == T_EQUIV) {
            size_t pos = cur(p)->pos;
            p->at++;
            f = mk(p, EX_L_EQUIV, f, p_or(p), pos);
        }
        if (f >= 0 && cur(p)->k == T_IMPL) {
            size_t pos = cur(p)->pos;
            p->at++;
            if (enter(p))
                return -1;
            int b = p_impl(p);
            leave(p);
            f = mk(p, EX_L_IMPL, f, b, pos);
        }
        return f;
    }
    for (;;) {
        token *t = cur(p);
        if (f < 0 || (t->k != T_IMPL && t->k != T_EQUIV))
            return f;
        p->at++;
        f = mk(p, t->k == T_IMPL ? EX_L_IMPL : EX_L_EQUIV, f, p_or(p), t->pos);
    }
}

int ex_ltl_parse(ex_ltl *l, const char *text, int dialect, char *err, size_t errlen)
{
    parser p = {.src = text, .dialect = dialect, .l = l, .err = err, .errlen = errlen};
    int f = -1;
    if (lex(&p) == 0) {
        p.expr_fails = calloc(p.nt, 1);
        if (!p.expr_fails || sync_heights(&p)) /* nodes made before this parse */
            oom(&p);
        else
            f = p_impl(&p);
        if (f >= 0 && cur(&p)->k != T_EOF)
            expect_err(&p, "an operator");
        if (p.failed)
            f = -1;
    }
    free(p.t);
    free(p.expr_fails);
    free(p.height);
    return f;
}
