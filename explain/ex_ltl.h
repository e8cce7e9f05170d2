/* ex_ltl: LTL formulas over propositions, shared as a hash-consed DAG.
 *
 * One ex_ltl holds every formula built for one explanation: the formula as
 * written, and the two negation normal forms derived from it: the tableau's
 * (X, U, R, and, or over literals) and Algorithm 6's (X, G, U, and, or over
 * literals, as in Beer et al.).  Hash-consing makes structurally equal
 * subformulas one node, so "the value of subformula psi at step i" is an
 * array indexed by node, and children always have smaller ids than parents.
 * Propositions are interned by canonical text, so `x<4` written twice is one
 * signal.  Parsing lives in ex_ltl_parse.c.
 */
#ifndef EX_LTL_H
#define EX_LTL_H

#include "ex_expr.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>

typedef enum {
    EX_L_TRUE,
    EX_L_FALSE,
    EX_L_PROP, /* proposition `prop` */
    EX_L_NOT,
    EX_L_AND,
    EX_L_OR,
    EX_L_IMPL,
    EX_L_EQUIV,
    EX_L_X,
    EX_L_F,
    EX_L_G,
    EX_L_U,
    EX_L_W,
    EX_L_R /* release, SPIN's V */
} ex_lop;

typedef struct {
    ex_lop op;
    int a, b; /* children, -1 when absent */
    int prop; /* EX_L_PROP: index into props */
} ex_lnode;

typedef struct {
    ex_expr *expr; /* owned */
    char *text;    /* canonical text */
} ex_prop;

/* Propositions are the letters' bits; more would not fit a uint64_t letter. */
#define EX_MAX_PROPS 64

typedef struct {
    ex_lnode *n;
    size_t len, cap;
    u_intern nodes; /* (op, a, b, prop) -> node id: the hash-consing */
    ex_prop props[EX_MAX_PROPS];
    int nprops;
    int oom; /* sticky: a node could not be made; every result since is -1 */
} ex_ltl;

void ex_ltl_init(ex_ltl *l);
void ex_ltl_free(ex_ltl *l);

int ex_ltl_mk(ex_ltl *l, ex_lop op, int a, int b);
/* Interns the proposition (taking ownership of e); -1 when there are too many. */
int ex_ltl_prop(ex_ltl *l, ex_expr *e);

/* Negation normal forms.  `consts[p]` is -1 for a real signal, 0 or 1 for a
 * proposition found constant after binding (NULL: none).  Algorithm 6 style
 * rewrites F a = true U a, a W b = (a U b) | G a, a R b = (b U (a & b)) | G b;
 * tableau style keeps U and R with G a = false R a, F a = true U a,
 * a W b = b R (a | b).  Both simplify constants away. */
enum { EX_NNF_ALG6, EX_NNF_TABLEAU };
int ex_ltl_nnf(ex_ltl *l, int f, int style, const signed char *consts);

/* Number of operator and atom occurrences of the tree under f (|phi|). */
size_t ex_ltl_size(const ex_ltl *l, int f);

/* Text in SPIN syntax with full parentheses; caller frees. */
char *ex_ltl_text(const ex_ltl *l, int f);

/* Definition 1's polarities of the formula f as written: bit p of *pos
 * when p occurs under an even number of negations (an implication's
 * antecedent counting as one), of *neg when under an odd number; both for
 * the operands of <->, xor and xnor.  Propositions that consts marks
 * constant have no pairs and are left out (consts may be NULL).  0, or -1
 * when out of memory. */
int ex_ltl_polarity(const ex_ltl *l, int f, const signed char *consts, uint64_t *pos,
                    uint64_t *neg);

/* Parsing.  Dialect SPIN: [] <> X U W V ! && || -> <-> and SPIN's words,
 * Promela expressions as propositions.  Dialect SMV: G F X U V ! & | -> <->
 * xor xnor, SMV expressions (= for equality, mod).  Returns the root or -1
 * with a message "column N: ..." in err.  Text nested deeper than
 * EX_LTL_MAX_DEPTH (the parse's recursion, the formula's tree, or a
 * proposition's expression tree) is refused, so that every recursive pass
 * over a parsed formula stays within that depth (ex_nnf_rec recurses once
 * per level of the tree it rewrites); time is linear in the text. */
#define EX_LTL_MAX_DEPTH 1000
enum { EX_DIALECT_SPIN, EX_DIALECT_SMV };
int ex_ltl_parse(ex_ltl *l, const char *text, int dialect, char *err, size_t errlen);

#endif
