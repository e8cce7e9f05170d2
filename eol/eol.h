/*
 * eol.h - event order logic (EOL): formulas, printer, parser, evaluator.
 *
 * EOL (Leitner-Fischer & Leue, Def. 5/6) is the language pancause states causes in.
 * The causality checker builds a formula per cause with the constructors below and
 * prints it; tests parse printed formulas back and evaluate them on traces
 * (sigma |=e psi) to check a cause against its witnesses.  This header is the whole
 * interface of the module.
 *
 * Syntax (ASCII form, what eol_parse reads and eol_print writes with EOL_ASCII):
 *   event      Name or Name_3           (event variable; _i = i-th occurrence)
 *   !phi       negation                 (unicode: ¬)
 *   a & b      unordered conjunction    (∧)
 *   a | b      disjunction              (∨)
 *   a .& b     ordered conjunction      (∧̇ : a occurs before b)
 *   p &[ phi   phi holds from where p is satisfied to the end        (∧[)
 *   phi ]& p   phi holds from the start until p is satisfied          (∧])
 *   a &< phi >& b   phi holds between a and b                        (∧< phi ∧>)
 * Binding (tightest first): ! ; then .& &[ ]& &< >& ; then & | (left associative).
 * Parentheses group.  The printer emits the fewest parentheses that parse back to the
 * same tree.  The middle of &< >& needs none ("a &< !c | d >& b").
 * Unicode operators: ¬ ∧ ∨, ∧̇ (U+2227 U+0307), "∧[", "∧]" (the paper's phi ∧] psi),
 * "∧<" "∧>"; the parser reads both spellings, even mixed.
 *
 * Event names: [A-Za-z_][A-Za-z0-9_.[\]]* with balanced brackets ("Proc.L", "Proc[2].L").
 * A trailing "_<digits>" after a non-empty name is the occurrence index, so a name that
 * itself ends in _digits prints with occurrence 0 as "x_2_0" ("_0" reads as any occurrence).
 * Def. 5 allows only simple formulas under !, after &[, before ]&, and between &< and >&;
 * the constructors and the parser reject anything else there.
 */
#ifndef EOL_H
#define EOL_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    EOL_EVENT,   /* name, occ */
    EOL_NOT,     /* a */
    EOL_AND,     /* a & b */
    EOL_OR,      /* a | b */
    EOL_ORD,     /* a .& b */
    EOL_FROM,    /* a &[ b   (b is the simple formula that holds to the end) */
    EOL_UNTIL,   /* a ]& b   (a is the simple formula that holds from the start) */
    EOL_BETWEEN, /* a &< b >& c  (b is the simple formula that holds in between) */
} eol_kind;

typedef struct eol_node {
    eol_kind kind;
    char *name;                 /* EOL_EVENT: event type name, owned */
    int occ;                    /* EOL_EVENT: occurrence index >= 1, or 0 = "any occurrence" */
    struct eol_node *a, *b, *c; /* operands, owned */
} eol_node;

/* Constructors take ownership of their operands; NULL operands yield NULL.  They also
 * yield NULL (freeing the operands) for an invalid name, occ < 0, a complex formula in a
 * simple slot, or when out of memory; so every tree they build prints and parses back. */
eol_node *eol_event(const char *name, int occ);
/* Whether name can be an event type of a formula (what eol_event accepts): callers that
 * make names check them here, so a bad name is not taken for an allocation failure. */
bool eol_name_valid(const char *name);
eol_node *eol_not(eol_node *a);
eol_node *eol_and(eol_node *a, eol_node *b);
eol_node *eol_or(eol_node *a, eol_node *b);
eol_node *eol_ord(eol_node *a, eol_node *b);
eol_node *eol_from(eol_node *a, eol_node *simple);
eol_node *eol_until(eol_node *simple, eol_node *b);
eol_node *eol_between(eol_node *a, eol_node *simple, eol_node *c);
eol_node *eol_copy(const eol_node *n);
void eol_free(eol_node *n);
bool eol_equal(const eol_node *x, const eol_node *y);
/* A simple formula (Def. 5) uses only events, !, & and |. */
bool eol_is_simple(const eol_node *n);

typedef enum { EOL_ASCII, EOL_UNICODE } eol_style;

/* Returns a malloc'd string.  Occurrence 0 prints as the bare name, occurrence i as
 * Name_i. */
char *eol_print(const eol_node *n, eol_style style);

/* Parses the ASCII form (the Unicode form too).  On error returns NULL and, if err is
 * not NULL, stores a malloc'd message "column N: ..." (N counts characters from 1).
 * Text nested deeper than 1000 levels is an error. */
eol_node *eol_parse(const char *text, char **err);

/* A finite trace sigma = s0 a1 s1 ... an sn, given by its n actions.  Action j
 * (1-based) is the occ-th occurrence of event type name; silent actions are not
 * listed (they change no event variable).  An EOL_EVENT with occ == 0 holds at s_j
 * when a_j has its name, whatever the occurrence. */
typedef struct {
    const char *name;
    int occ;
} eol_action;

/* sigma |=e psi per Def. 6 on sigma[0..n], as settled at the top of eol_eval.c (the
 * interval operators bind to where their operands are first / last satisfied).  NULL or
 * incomplete trees satisfy nothing.  Aborts if out of memory (O(nodes * n) words). */
bool eol_eval(const eol_node *psi, const eol_action *trace, size_t n);

#endif
