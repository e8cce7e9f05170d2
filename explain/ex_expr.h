/* ex_expr: the Promela/SMV expressions that serve as atomic propositions.
 *
 * A proposition such as `x + 1 < arr[2]` is kept as a small tree.  Its
 * identifiers are names as they appear in a trace (`x`, `arr[2]`,
 * `P[0]:y`, `len(c)`, `s.f`); binding resolves them to trace columns or to
 * symbolic constants (mtype/enum values), after which the tree is evaluated
 * at every step.  Values are int64; symbols are interned codes (ex_trace.h).
 */
#ifndef EX_EXPR_H
#define EX_EXPR_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    EX_E_NUM, /* literal, or a resolved symbolic constant */
    EX_E_VAR, /* trace variable; `var` is its column once bound */
    EX_E_UN,  /* unary: op is '-', '~' */
    EX_E_BIN  /* binary arithmetic, bitwise or relational */
} ex_ekind;

/* Binary operators beyond single characters (+ - * / % < > & | ^). */
enum { EX_OP_EQ = 256, EX_OP_NE, EX_OP_LE, EX_OP_GE, EX_OP_SHL, EX_OP_SHR };

typedef struct ex_expr {
    ex_ekind kind;
    int op;
    int64_t num;
    char *name; /* EX_E_VAR: canonical name */
    int var;    /* EX_E_VAR: bound column, -1 until bound */
    struct ex_expr *l, *r;
} ex_expr;

ex_expr *ex_expr_num(int64_t v);
ex_expr *ex_expr_var(const char *name);
ex_expr *ex_expr_op(int op, ex_expr *l, ex_expr *r); /* r NULL: unary */
/* (The three constructors return NULL when out of memory; ex_expr_op then
 * has freed l and r.) */
void ex_expr_free(ex_expr *e);

/* Canonical text, fully determined by the tree (used to intern propositions);
 * malloc'd, NULL when out of memory. */
char *ex_expr_text(const ex_expr *e);

/* True when the operator yields a truth value (relational). */
int ex_expr_is_relational(const ex_expr *e);

/* Value at one step; `row` maps bound columns to values.  Division by zero
 * yields 0 (documented in README). */
int64_t ex_expr_eval(const ex_expr *e, const int64_t *row);

/* Reads a decimal literal, or with smv set also a NuSMV word constant such
 * as 0ud8_200 or 0sb4_1010; returns 0 and sets *end past it, -1 if malformed or
 * beyond int64_t (INT64_MAX; a signed word down to INT64_MIN). */
int ex_expr_parse_number(const char *s, int64_t *v, const char **end, int smv);

/* Calls fn for each variable leaf. */
void ex_expr_each_var(ex_expr *e, void (*fn)(ex_expr *leaf, void *ctx), void *ctx);

#endif
