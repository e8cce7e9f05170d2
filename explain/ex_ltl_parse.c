/* ex_ltl_parse: SPIN and NuSMV LTL syntax into the ex_ltl DAG.
 *
 * The input is tokenised first so that the parser can backtrack: a
 * parenthesis may open a Promela expression, `(x + 1) < y`, or a formula,
 * `(p U q)`; the expression reading is tried first and abandoned when it
 * meets a temporal or boolean operator.  Operator precedence follows each
 * tool: SPIN binds unary operators tightest, then U/W/V (left-assoc), &&,
 * ||, and finally -> and <-> (one left-assoc level); NuSMV the same except
 * -> is right-assoc below <->, and xor/xnor sit with |.
 */
#include "ex_ltl.h"

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
} ex_tkind;

typedef struct {
    ex_tkind k;
    int op;
    int64_t num;
    size_t pos, len;
} ex_tok;

typedef struct {
    const char *src;
    int dialect;
    ex_tok *t;
    size_t nt, cap, at;
    ex_ltl *l;
    char *err;
    size_t errlen;
    int failed;
    int quiet; /* while speculating, errors are not reported */
} ex_parser;

/* ---- lexer ---------------------------------------------------------------- */

static const struct {
    const char *w;
    ex_tkind k;
    int smv;
} ex_words[] = {
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

static void ex_perr(ex_parser *p, size_t pos, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = 1;
    if (p->quiet)
        return;
    int n = snprintf(p->err, p->errlen, "column %zu: ", pos + 1);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < p->errlen)
        vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

static void ex_push(ex_parser *p, ex_tkind k, int op, size_t pos, size_t len)
{
    if (p->nt == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 32;
        p->t = realloc(p->t, p->cap * sizeof *p->t);
        if (!p->t)
            abort();
    }
    p->t[p->nt++] = (ex_tok){k, op, 0, pos, len};
}

static int ex_ident_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '#';
}

static int ex_lex_word(ex_parser *p, size_t *i)
{
    const char *s = p->src;
    size_t st = *i;
    while (ex_ident_char((unsigned char)s[*i]))
        (*i)++;
    size_t n = *i - st;
    int smv = p->dialect == EX_DIALECT_SMV;
    for (size_t w = 0; w < sizeof ex_words / sizeof ex_words[0]; w++) {
        if (strlen(ex_words[w].w) != n || strncmp(ex_words[w].w, s + st, n) != 0)
            continue;
        if (ex_words[w].smv != 2 && ex_words[w].smv != smv)
            continue;
        ex_push(p, ex_words[w].k, ex_words[w].k == T_OP ? '%' : 0, st, n);
        return 1;
    }
    ex_push(p, T_ID, 0, st, n);
    return 1;
}

/* Longest-match punctuation, per dialect. */
static int ex_lex_punct(ex_parser *p, size_t *i)
{
    static const struct {
        const char *s;
        ex_tkind k;
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
    };
    for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++) {
        size_t n = strlen(tab[k].s);
        if (tab[k].dial != 2 && tab[k].dial != p->dialect)
            continue;
        if (strncmp(p->src + *i, tab[k].s, n) == 0) {
            ex_push(p, tab[k].k, tab[k].op, *i, n);
            *i += n;
            return 1;
        }
    }
    return 0;
}

static int ex_lex(ex_parser *p)
{
    const char *s = p->src;
    size_t i = 0;
    while (s[i]) {
        unsigned char c = (unsigned char)s[i];
        if (isspace(c)) {
            i++;
        } else if (isdigit(c)) {
            const char *end;
            int64_t v;
            if (ex_expr_parse_number(s + i, &v, &end, p->dialect == EX_DIALECT_SMV) != 0) {
                ex_perr(p, i, "malformed number");
                return -1;
            }
            ex_push(p, T_NUM, 0, i, (size_t)(end - (s + i)));
            p->t[p->nt - 1].num = v;
            i = (size_t)(end - s);
        } else if (isalpha(c) || c == '_') {
            ex_lex_word(p, &i);
        } else if (!ex_lex_punct(p, &i)) {
            ex_perr(p, i, "unexpected character '%c'", c);
            return -1;
        }
    }
    ex_push(p, T_EOF, 0, i, 0);
    return 0;
}

/* ---- expressions ----------------------------------------------------------- */

static ex_tok *ex_cur(ex_parser *p)
{
    return &p->t[p->at];
}

static void ex_tokdesc(ex_parser *p, char *buf, size_t n)
{
    ex_tok *t = ex_cur(p);
    if (t->k == T_EOF)
        snprintf(buf, n, "end of formula");
    else
        snprintf(buf, n, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), p->src + t->pos);
}

static void ex_expect_err(ex_parser *p, const char *what)
{
    char d[64];
    ex_tokdesc(p, d, sizeof d);
    ex_perr(p, ex_cur(p)->pos, "expected %s but found %s", what, d);
}

static ex_expr *ex_p_top(ex_parser *p);

static int ex_const_index(ex_parser *p, int64_t *v)
{
    size_t pos = ex_cur(p)->pos;
    ex_expr *e = ex_p_top(p);
    if (!e)
        return -1;
    int has_var = 0;
    ex_expr *stack[64];
    int sp = 0;
    stack[sp++] = e;
    while (sp) {
        ex_expr *x = stack[--sp];
        if (x->kind == EX_E_VAR)
            has_var = 1;
        if (x->l && sp < 63)
            stack[sp++] = x->l;
        if (x->r && sp < 63)
            stack[sp++] = x->r;
    }
    if (has_var) {
        ex_expr_free(e);
        ex_perr(p, pos, "array and process indices must be constants");
        return -1;
    }
    *v = ex_expr_eval(e, NULL);
    ex_expr_free(e);
    return 0;
}

/* name := ID ['[' const ']'] { ('.' | ':') ID ['[' const ']'] }
 * Built as canonical text: arr[1], P[0]:y, s.f */
static char *ex_p_name(ex_parser *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    if (!o)
        abort();
    for (;;) {
        ex_tok *t = ex_cur(p);
        if (t->k != T_ID) {
            ex_expect_err(p, "a variable name");
            break;
        }
        fprintf(o, "%.*s", (int)t->len, p->src + t->pos);
        p->at++;
        if (ex_cur(p)->k == T_LB) {
            p->at++;
            int64_t v;
            if (ex_const_index(p, &v) != 0)
                break;
            if (ex_cur(p)->k != T_RB) {
                ex_expect_err(p, "']'");
                break;
            }
            p->at++;
            fprintf(o, "[%lld]", (long long)v);
        }
        ex_tkind k = ex_cur(p)->k;
        if (k != T_DOT && k != T_COLON)
            break;
        fputc(k == T_DOT ? '.' : ':', o);
        p->at++;
    }
    fclose(o);
    if (p->failed) {
        free(buf);
        return NULL;
    }
    return buf;
}

static ex_expr *ex_p_primary(ex_parser *p)
{
    ex_tok *t = ex_cur(p);
    switch (t->k) {
    case T_NUM:
        p->at++;
        return ex_expr_num(t->num);
    case T_TRUE:
    case T_FALSE:
        p->at++;
        return ex_expr_num(t->k == T_TRUE);
    case T_OP:
        if (t->op == '-' || t->op == '~') {
            p->at++;
            ex_expr *e = ex_p_primary(p);
            return e ? ex_expr_op(t->op, e, NULL) : NULL;
        }
        break;
    case T_LP: {
        p->at++;
        ex_expr *e = ex_p_top(p);
        if (e && ex_cur(p)->k != T_RP) {
            ex_expect_err(p, "')'");
            ex_expr_free(e);
            return NULL;
        }
        p->at++;
        return e;
    }
    case T_LEN: {
        p->at++;
        if (ex_cur(p)->k != T_LP) {
            ex_expect_err(p, "'(' after len");
            return NULL;
        }
        p->at++;
        char *n = ex_p_name(p);
        if (!n)
            return NULL;
        if (ex_cur(p)->k != T_RP) {
            ex_expect_err(p, "')'");
            free(n);
            return NULL;
        }
        p->at++;
        size_t fl = strlen(n) + 6;
        char *full = malloc(fl);
        if (!full)
            abort();
        snprintf(full, fl, "len(%s)", n);
        ex_expr *e = ex_expr_var(full);
        free(n);
        free(full);
        return e;
    }
    case T_ID: {
        char *n = ex_p_name(p);
        if (!n)
            return NULL;
        ex_expr *e = ex_expr_var(n);
        free(n);
        return e;
    }
    case T_PAST:
        ex_perr(p, t->pos, "past-time operator '%.*s' is not supported", (int)t->len,
                p->src + t->pos);
        return NULL;
    default:
        break;
    }
    ex_expect_err(p, "an expression");
    return NULL;
}

/* Binary levels, loosest first; a level is a list of operator codes. */
static const int ex_levels[][6] = {
    {'|'},
    {'^'},
    {'&'},
    {EX_OP_EQ, EX_OP_NE},
    {'<', '>', EX_OP_LE, EX_OP_GE},
    {EX_OP_SHL, EX_OP_SHR},
    {'+', '-'},
    {'*', '/', '%'},
};
#define EX_NLEVELS (int)(sizeof ex_levels / sizeof ex_levels[0])

static int ex_at_level(ex_parser *p, int lv)
{
    ex_tok *t = ex_cur(p);
    if (t->k != T_OP)
        return 0;
    for (int i = 0; i < 6 && ex_levels[lv][i]; i++)
        if (ex_levels[lv][i] == t->op)
            return 1;
    return 0;
}

static ex_expr *ex_p_level(ex_parser *p, int lv)
{
    if (lv == EX_NLEVELS)
        return ex_p_primary(p);
    ex_expr *e = ex_p_level(p, lv + 1);
    while (e && ex_at_level(p, lv)) {
        int op = ex_cur(p)->op;
        p->at++;
        ex_expr *r = ex_p_level(p, lv + 1);
        if (!r) {
            ex_expr_free(e);
            return NULL;
        }
        e = ex_expr_op(op, e, r);
    }
    return e;
}

/* SMV has no bitwise operators: & and | are its boolean connectives. */
static ex_expr *ex_p_top(ex_parser *p)
{
    return ex_p_level(p, p->dialect == EX_DIALECT_SMV ? 3 : 0);
}

/* ---- formulas ---------------------------------------------------------------- */

static int ex_p_impl(ex_parser *p);

static int ex_follows_prop(ex_tkind k)
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

static int ex_make_prop(ex_parser *p, ex_expr *e, size_t pos)
{
    if (!ex_expr_is_relational(e))
        e = ex_expr_op(EX_OP_NE, e, ex_expr_num(0));
    int f = ex_ltl_prop(p->l, e);
    if (f < 0)
        ex_perr(p, pos, "more than %d distinct propositions", EX_MAX_PROPS);
    return f;
}

/* Tries the expression reading of what follows; on failure rewinds. */
static int ex_try_prop(ex_parser *p)
{
    size_t save = p->at, pos = ex_cur(p)->pos;
    int was_quiet = p->quiet;
    p->quiet = 1;
    ex_expr *e = ex_p_top(p);
    int ok = e && !p->failed && ex_follows_prop(ex_cur(p)->k);
    p->quiet = was_quiet;
    if (!ok) {
        ex_expr_free(e);
        p->failed = 0;
        p->at = save;
        return -2;
    }
    return ex_make_prop(p, e, pos);
}

static int ex_p_atom(ex_parser *p)
{
    ex_tok *t = ex_cur(p);
    if ((t->k == T_TRUE || t->k == T_FALSE) && ex_follows_prop(p->t[p->at + 1].k)) {
        p->at++;
        return ex_ltl_mk(p->l, t->k == T_TRUE ? EX_L_TRUE : EX_L_FALSE, -1, -1);
    }
    int f = ex_try_prop(p);
    if (f != -2)
        return f;
    if (t->k == T_LP) {
        p->at++;
        f = ex_p_impl(p);
        if (f < 0)
            return -1;
        if (ex_cur(p)->k != T_RP) {
            ex_expect_err(p, "')'");
            return -1;
        }
        p->at++;
        return f;
    }
    /* Not a formula either: report the expression reading's error. */
    ex_expr *e = ex_p_top(p);
    if (e) {
        ex_expr_free(e);
        ex_expect_err(p, "an operator or ')'");
    }
    return -1;
}

static int ex_p_unary(ex_parser *p)
{
    ex_tok *t = ex_cur(p);
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
        ex_perr(p, t->pos, "past-time operator '%.*s' is not supported", (int)t->len,
                p->src + t->pos);
        return -1;
    default:
        return ex_p_atom(p);
    }
    p->at++;
    int a = ex_p_unary(p);
    return a < 0 ? -1 : ex_ltl_mk(p->l, op, a, -1);
}

static int ex_p_until(ex_parser *p)
{
    int f = ex_p_unary(p);
    for (;;) {
        ex_tkind k = ex_cur(p)->k;
        if (f < 0 || (k != T_UNTIL && k != T_WEAK && k != T_RELEASE))
            return f;
        p->at++;
        int b = ex_p_unary(p);
        if (b < 0)
            return -1;
        f = ex_ltl_mk(p->l, k == T_UNTIL ? EX_L_U : k == T_WEAK ? EX_L_W : EX_L_R, f, b);
    }
}

static int ex_p_and(ex_parser *p)
{
    int f = ex_p_until(p);
    while (f >= 0 && ex_cur(p)->k == T_AND) {
        p->at++;
        int b = ex_p_until(p);
        f = b < 0 ? -1 : ex_ltl_mk(p->l, EX_L_AND, f, b);
    }
    return f;
}

static int ex_p_or(ex_parser *p)
{
    int f = ex_p_and(p);
    for (;;) {
        ex_tkind k = ex_cur(p)->k;
        if (f < 0 || (k != T_OR && k != T_XOR && k != T_XNOR))
            return f;
        p->at++;
        int b = ex_p_and(p);
        if (b < 0)
            return -1;
        if (k == T_OR)
            f = ex_ltl_mk(p->l, EX_L_OR, f, b);
        else if (k == T_XNOR)
            f = ex_ltl_mk(p->l, EX_L_EQUIV, f, b);
        else
            f = ex_ltl_mk(p->l, EX_L_NOT, ex_ltl_mk(p->l, EX_L_EQUIV, f, b), -1);
    }
}

static int ex_p_impl(ex_parser *p)
{
    int f = ex_p_or(p);
    if (p->dialect == EX_DIALECT_SMV) {
        while (f >= 0 && ex_cur(p)->k == T_EQUIV) {
            p->at++;
            int b = ex_p_or(p);
            f = b < 0 ? -1 : ex_ltl_mk(p->l, EX_L_EQUIV, f, b);
        }
        if (f >= 0 && ex_cur(p)->k == T_IMPL) {
            p->at++;
            int b = ex_p_impl(p);
            f = b < 0 ? -1 : ex_ltl_mk(p->l, EX_L_IMPL, f, b);
        }
        return f;
    }
    for (;;) {
        ex_tkind k = ex_cur(p)->k;
        if (f < 0 || (k != T_IMPL && k != T_EQUIV))
            return f;
        p->at++;
        int b = ex_p_or(p);
        if (b < 0)
            return -1;
        f = ex_ltl_mk(p->l, k == T_IMPL ? EX_L_IMPL : EX_L_EQUIV, f, b);
    }
}

int ex_ltl_parse(ex_ltl *l, const char *text, int dialect, char *err, size_t errlen)
{
    ex_parser p = {text, dialect, NULL, 0, 0, 0, l, err, errlen, 0, 0};
    int f = -1;
    if (ex_lex(&p) == 0) {
        f = ex_p_impl(&p);
        if (f >= 0 && ex_cur(&p)->k != T_EOF) {
            ex_expect_err(&p, "an operator");
            f = -1;
        }
        if (p.failed)
            f = -1;
    }
    free(p.t);
    return f;
}
