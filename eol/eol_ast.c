/*
 * eol_ast.c - EOL formula trees: constructors, copy, free, structural equality, simplicity,
 * and the lexical rules for event names (eol_internal.h).
 *
 * Every other part of eol/ and of pancause builds formulas through these constructors, so
 * they are where the well-formedness of a tree is enforced: an event name that the parser
 * could not read back, a negative occurrence index, or a complex formula where Def. 5 demands
 * a simple one (under '!', after '&[', before ']&', between '&<' and '>&') makes the
 * constructor free its operands and return NULL.  Hence every tree built this way prints to
 * text that parses back to an equal tree (eol_print.c, eol_parse.c).
 */
#include "eol.h"
#include "eol_internal.h"

#include <stdlib.h>
#include <string.h>

static bool eol_is_alpha(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static bool eol_is_digit(int c)
{
    return c >= '0' && c <= '9';
}

size_t eol_name_scan(const char *s, int *open)
{
    size_t i = 0;
    int depth = 0;

    if (!eol_is_alpha((unsigned char)s[0])) {
        *open = 0;
        return 0;
    }
    for (i = 1;; i++) {
        int c = (unsigned char)s[i];
        if (eol_is_alpha(c) || eol_is_digit(c))
            continue;
        if (c == '.' && s[i + 1] != '&')
            continue;
        if (c == '[') {
            depth++;
            continue;
        }
        if (c == ']' && depth > 0) {
            depth--;
            continue;
        }
        break;
    }
    *open = depth;
    return i;
}

bool eol_name_valid(const char *name)
{
    int open = 0;
    size_t len = eol_name_scan(name, &open);
    return len > 0 && name[len] == '\0' && open == 0;
}

size_t eol_occ_suffix(const char *name, size_t len)
{
    size_t i = len;

    while (i > 0 && eol_is_digit((unsigned char)name[i - 1]))
        i--;
    /* The suffix needs at least one digit, an underscore, and a non-empty name before it. */
    if (i == len || i < 2 || name[i - 1] != '_')
        return len;
    return i - 1;
}

char *eol_strndup(const char *s, size_t len)
{
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, s, len);
    copy[len] = '\0';
    return copy;
}

/* The common tail of the constructors: a node of kind k owning a, b, c, or NULL (with the
 * operands freed) when an operand is missing, ill-formed (ok == false) or memory runs out. */
static eol_node *eol_make(eol_kind k, eol_node *a, eol_node *b, eol_node *c, int arity, bool ok)
{
    bool missing = !a || (arity >= 2 && !b) || (arity >= 3 && !c);
    eol_node *n = NULL;

    if (!missing && ok)
        n = calloc(1, sizeof *n);
    if (!n) {
        eol_free(a);
        eol_free(b);
        eol_free(c);
        return NULL;
    }
    n->kind = k;
    n->a = a;
    n->b = b;
    n->c = c;
    return n;
}

eol_node *eol_event(const char *name, int occ)
{
    eol_node *n;

    if (!name || occ < 0 || !eol_name_valid(name))
        return NULL;
    n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->kind = EOL_EVENT;
    n->occ = occ;
    n->name = eol_strndup(name, strlen(name));
    if (!n->name) {
        free(n);
        return NULL;
    }
    return n;
}

eol_node *eol_not(eol_node *a)
{
    return eol_make(EOL_NOT, a, NULL, NULL, 1, eol_is_simple(a));
}

eol_node *eol_and(eol_node *a, eol_node *b)
{
    return eol_make(EOL_AND, a, b, NULL, 2, true);
}

eol_node *eol_or(eol_node *a, eol_node *b)
{
    return eol_make(EOL_OR, a, b, NULL, 2, true);
}

eol_node *eol_ord(eol_node *a, eol_node *b)
{
    return eol_make(EOL_ORD, a, b, NULL, 2, true);
}

eol_node *eol_from(eol_node *a, eol_node *simple)
{
    return eol_make(EOL_FROM, a, simple, NULL, 2, eol_is_simple(simple));
}

eol_node *eol_until(eol_node *simple, eol_node *b)
{
    return eol_make(EOL_UNTIL, simple, b, NULL, 2, eol_is_simple(simple));
}

eol_node *eol_between(eol_node *a, eol_node *simple, eol_node *c)
{
    return eol_make(EOL_BETWEEN, a, simple, c, 3, eol_is_simple(simple));
}

eol_node *eol_copy(const eol_node *n)
{
    eol_node *copy;

    if (!n)
        return NULL;
    copy = calloc(1, sizeof *copy);
    if (!copy)
        return NULL;
    copy->kind = n->kind;
    copy->occ = n->occ;
    /* Copy each part that exists; a part that exists but failed to copy is out of memory. */
    if (n->name)
        copy->name = eol_strndup(n->name, strlen(n->name));
    copy->a = eol_copy(n->a);
    copy->b = eol_copy(n->b);
    copy->c = eol_copy(n->c);
    if ((n->name && !copy->name) || (n->a && !copy->a) || (n->b && !copy->b) ||
        (n->c && !copy->c)) {
        eol_free(copy);
        return NULL;
    }
    return copy;
}

void eol_free(eol_node *n)
{
    if (!n)
        return;
    eol_free(n->a);
    eol_free(n->b);
    eol_free(n->c);
    free(n->name);
    free(n);
}

bool eol_equal(const eol_node *x, const eol_node *y)
{
    if (!x || !y)
        return x == y;
    if (x->kind != y->kind)
        return false;
    if (x->kind == EOL_EVENT)
        return x->occ == y->occ && x->name && y->name && strcmp(x->name, y->name) == 0;
    return eol_equal(x->a, y->a) && eol_equal(x->b, y->b) && eol_equal(x->c, y->c);
}

bool eol_is_simple(const eol_node *n)
{
    if (!n)
        return false;
    switch (n->kind) {
    case EOL_EVENT:
        return true;
    case EOL_NOT:
        return eol_is_simple(n->a);
    case EOL_AND:
    case EOL_OR:
        return eol_is_simple(n->a) && eol_is_simple(n->b);
    default:
        return false;
    }
}
