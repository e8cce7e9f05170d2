/* ex_expr: construction, printing and evaluation of proposition expressions.
 *
 * Propositions are evaluated once per step and proposition before any
 * temporal reasoning, so this stays a plain tree walk; the trees are a few
 * nodes deep.  Out of memory: the constructors and ex_expr_text return NULL
 * (a constructor frees the operands it was given), as everywhere in the
 * project (README, Conventions); the parser reports it.
 */
#include "ex_expr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ex_expr *ex_expr_new(ex_ekind k)
{
    ex_expr *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->kind = k;
    e->var = -1;
    return e;
}

ex_expr *ex_expr_num(int64_t v)
{
    ex_expr *e = ex_expr_new(EX_E_NUM);
    if (e)
        e->num = v;
    return e;
}

ex_expr *ex_expr_var(const char *name)
{
    ex_expr *e = ex_expr_new(EX_E_VAR);
    if (e && !(e->name = strdup(name))) {
        free(e);
        return NULL;
    }
    return e;
}

ex_expr *ex_expr_op(int op, ex_expr *l, ex_expr *r)
{
    ex_expr *e = ex_expr_new(r ? EX_E_BIN : EX_E_UN);
    if (!e) {
        ex_expr_free(l);
        ex_expr_free(r);
        return NULL;
    }
    e->op = op;
    e->l = l;
    e->r = r;
    return e;
}

void ex_expr_free(ex_expr *e)
{
    if (!e)
        return;
    ex_expr_free(e->l);
    ex_expr_free(e->r);
    free(e->name);
    free(e);
}

static const char *ex_op_text(int op)
{
    static char one[2];
    switch (op) {
    case EX_OP_EQ:
        return "==";
    case EX_OP_NE:
        return "!=";
    case EX_OP_LE:
        return "<=";
    case EX_OP_GE:
        return ">=";
    case EX_OP_SHL:
        return "<<";
    case EX_OP_SHR:
        return ">>";
    default:
        one[0] = (char)op;
        one[1] = 0;
        return one;
    }
}

static void ex_expr_print(FILE *f, const ex_expr *e, int top)
{
    switch (e->kind) {
    case EX_E_NUM:
        fprintf(f, "%lld", (long long)e->num);
        break;
    case EX_E_VAR:
        fputs(e->name, f);
        break;
    case EX_E_UN:
        fputs(ex_op_text(e->op), f);
        ex_expr_print(f, e->l, 0);
        break;
    case EX_E_BIN:
        if (!top)
            fputc('(', f);
        ex_expr_print(f, e->l, 0);
        fprintf(f, " %s ", ex_op_text(e->op));
        ex_expr_print(f, e->r, 0);
        if (!top)
            fputc(')', f);
        break;
    }
}

char *ex_expr_text(const ex_expr *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    ex_expr_print(f, e, 1);
    if (fclose(f) != 0) { /* the stream could not grow its buffer */
        free(buf);
        return NULL;
    }
    return buf;
}

int ex_expr_is_relational(const ex_expr *e)
{
    if (e->kind != EX_E_BIN)
        return 0;
    switch (e->op) {
    case EX_OP_EQ:
    case EX_OP_NE:
    case EX_OP_LE:
    case EX_OP_GE:
    case '<':
    case '>':
        return 1;
    default:
        return 0;
    }
}

/* Shifts and overflow are done on unsigned values so that odd inputs cannot
 * trigger undefined behaviour; the model checker's own integers are smaller. */
static int64_t ex_bin(int op, int64_t a, int64_t b)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (op) {
    case '+':
        return (int64_t)(ua + ub);
    case '-':
        return (int64_t)(ua - ub);
    case '*':
        return (int64_t)(ua * ub);
    case '/':
        return (b == 0 || (a == INT64_MIN && b == -1)) ? 0 : a / b;
    case '%':
        return (b == 0 || (a == INT64_MIN && b == -1)) ? 0 : a % b;
    case '&':
        return a & b;
    case '|':
        return a | b;
    case '^':
        return a ^ b;
    case EX_OP_SHL:
        return (int64_t)(ua << (ub & 63));
    case EX_OP_SHR:
        return a >> (ub & 63);
    case '<':
        return a < b;
    case '>':
        return a > b;
    case EX_OP_LE:
        return a <= b;
    case EX_OP_GE:
        return a >= b;
    case EX_OP_EQ:
        return a == b;
    case EX_OP_NE:
        return a != b;
    default:
        return 0;
    }
}

int64_t ex_expr_eval(const ex_expr *e, const int64_t *row)
{
    switch (e->kind) {
    case EX_E_NUM:
        return e->num;
    case EX_E_VAR:
        return e->var >= 0 ? row[e->var] : 0;
    case EX_E_UN: {
        int64_t v = ex_expr_eval(e->l, row);
        return e->op == '-' ? (int64_t)(0 - (uint64_t)v) : ~v;
    }
    case EX_E_BIN:
        return ex_bin(e->op, ex_expr_eval(e->l, row), ex_expr_eval(e->r, row));
    }
    return 0;
}

void ex_expr_each_var(ex_expr *e, void (*fn)(ex_expr *leaf, void *ctx), void *ctx)
{
    if (!e)
        return;
    if (e->kind == EX_E_VAR)
        fn(e, ctx);
    ex_expr_each_var(e->l, fn, ctx);
    ex_expr_each_var(e->r, fn, ctx);
}

static int ex_digit_val(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

static int ex_parse_word(const char *s, int64_t *v, const char **end)
{
    const char *q = s + 1; /* past the leading 0 */
    int neg_ok = 0, base;
    if (*q == 'u' || *q == 's')
        neg_ok = *q++ == 's';
    switch (*q++) {
    case 'b':
    case 'B':
        base = 2;
        break;
    case 'o':
    case 'O':
        base = 8;
        break;
    case 'd':
    case 'D':
        base = 10;
        break;
    case 'h':
    case 'H':
        base = 16;
        break;
    default:
        return -1;
    }
    while (*q >= '0' && *q <= '9')
        q++;
    if (*q++ != '_')
        return -1;
    int neg = neg_ok && *q == '-';
    q += neg;
    uint64_t acc = 0, most = (uint64_t)INT64_MAX + (uint64_t)neg; /* 2^63 for -2^63 */
    int any = 0;
    for (; ex_digit_val((unsigned char)*q) < base || *q == '_'; q++) {
        if (*q == '_')
            continue;
        uint64_t d = (uint64_t)ex_digit_val((unsigned char)*q);
        if (acc > (most - d) / (uint64_t)base)
            return -1; /* beyond int64_t: refused rather than wrapped */
        acc = acc * (uint64_t)base + d;
        any = 1;
    }
    if (!any)
        return -1;
    *v = neg ? (acc > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)acc) : (int64_t)acc;
    *end = q;
    return 0;
}

int ex_expr_parse_number(const char *s, int64_t *v, const char **end, int smv)
{
    if (smv && s[0] == '0' && s[1] && strchr("usbBoOdDhH", s[1]))
        return ex_parse_word(s, v, end);
    if (*s < '0' || *s > '9')
        return -1;
    uint64_t acc = 0;
    const char *q = s;
    for (; *q >= '0' && *q <= '9'; q++) {
        uint64_t d = (uint64_t)(*q - '0');
        if (acc > ((uint64_t)INT64_MAX - d) / 10)
            return -1; /* beyond int64_t: refused rather than wrapped */
        acc = acc * 10 + d;
    }
    if ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || *q == '_')
        return -1;
    *v = (int64_t)acc;
    *end = q;
    return 0;
}
