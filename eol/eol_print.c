/*
 * eol_print.c - EOL formulas to text, in ASCII or Unicode, with the fewest parentheses.
 *
 * pancause reports causes by printing the formulas the causality checker built, and the tests
 * parse those strings back (eol_parse.c), so the printer's one hard duty is that
 * eol_parse(eol_print(x)) is eol_equal to x for every tree the constructors can build, in
 * both styles.  The text is also read by people, hence no redundant parentheses.
 *
 * Binding, tightest first (eol.h): '!' (level 3, like an event); the order operators
 * '.&', '&[', ']&', '&<'...'>&' (level 2); '&' and '|' (level 1).  Binary operators of one
 * level associate to the left, so a left operand needs parentheses only when its level is
 * lower than the operator's, a right operand also when it is equal.  The middle of
 * "a &< phi >& b" is enclosed by the two halves of the operator and never needs any.
 *
 * Unicode renderings (read back by the parser): ! = U+00AC, & = U+2227, | = U+2228,
 * .& = U+2227 U+0307, &[ = "U+2227 [", ]& = "U+2227 ]" (the paper writes phi AND] psi for
 * UNTIL, so the bracket follows the wedge in both interval operators), &< and >& =
 * "U+2227 <" and "U+2227 >".
 *
 * Event names: occurrence i > 0 prints as Name_i.  A name that itself ends in "_<digits>"
 * (e.g. "x_2") with occurrence 0 prints as "x_2_0", because the bare "x_2" would read back
 * as the second occurrence of x; the parser reads a trailing "_0" as "any occurrence".
 */
#include "eol.h"
#include "eol_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing output string; after a failed allocation every append is a no-op. */
typedef struct {
    char *buf;
    size_t len, cap;
    bool failed;
} eol_sbuf;

static void eol_sb_put(eol_sbuf *sb, const char *s, size_t n)
{
    if (sb->failed)
        return;
    if (sb->len + n + 1 > sb->cap) {
        size_t cap = sb->cap ? sb->cap : 64;
        char *grown;
        while (sb->len + n + 1 > cap)
            cap *= 2;
        grown = realloc(sb->buf, cap);
        if (!grown) {
            sb->failed = true;
            return;
        }
        sb->buf = grown;
        sb->cap = cap;
    }
    memcpy(sb->buf + sb->len, s, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
}

static void eol_sb_puts(eol_sbuf *sb, const char *s)
{
    eol_sb_put(sb, s, strlen(s));
}

/* Operator spellings, indexed by style then by the slot below. */
enum {
    EOL_OP_NOT,
    EOL_OP_AND,
    EOL_OP_OR,
    EOL_OP_ORD,
    EOL_OP_FROM,
    EOL_OP_UNTIL,
    EOL_OP_BOPEN,
    EOL_OP_BCLOSE,
    EOL_OP_COUNT
};

/* The Unicode spellings are written as UTF-8 bytes, which is what the parser matches, whatever
 * the compiler's execution character set. */
#define EOL_U_NOT "\xc2\xac"     /* U+00AC */
#define EOL_U_AND "\xe2\x88\xa7" /* U+2227 */
#define EOL_U_OR  "\xe2\x88\xa8" /* U+2228 */
#define EOL_U_DOT "\xcc\x87"     /* U+0307, combining dot above */

static const char *const eol_ops[2][EOL_OP_COUNT] = {
    [EOL_ASCII] = {"!", "&", "|", ".&", "&[", "]&", "&<", ">&"},
    [EOL_UNICODE] = {EOL_U_NOT, EOL_U_AND, EOL_U_OR, EOL_U_AND EOL_U_DOT, EOL_U_AND "[",
                     EOL_U_AND "]", EOL_U_AND "<", EOL_U_AND ">"},
};

static int eol_level(const eol_node *n)
{
    switch (n->kind) {
    case EOL_AND:
    case EOL_OR:
        return 1;
    case EOL_ORD:
    case EOL_FROM:
    case EOL_UNTIL:
    case EOL_BETWEEN:
        return 2;
    default:
        return 3;
    }
}

/* A tree the printer can write: known kinds, every operand present, events named. */
static bool eol_printable(const eol_node *n)
{
    if (!n)
        return false;
    switch (n->kind) {
    case EOL_EVENT:
        return n->name != NULL && n->occ >= 0;
    case EOL_NOT:
        return eol_printable(n->a);
    case EOL_AND:
    case EOL_OR:
    case EOL_ORD:
    case EOL_FROM:
    case EOL_UNTIL:
        return eol_printable(n->a) && eol_printable(n->b);
    case EOL_BETWEEN:
        return eol_printable(n->a) && eol_printable(n->b) && eol_printable(n->c);
    }
    return false;
}

static void eol_print_event(eol_sbuf *sb, const eol_node *n)
{
    size_t len = strlen(n->name);
    char suffix[24];

    eol_sb_put(sb, n->name, len);
    if (n->occ > 0) {
        snprintf(suffix, sizeof suffix, "_%d", n->occ);
        eol_sb_puts(sb, suffix);
    } else if (eol_occ_suffix(n->name, len) < len) {
        eol_sb_puts(sb, "_0");
    }
}

static void eol_print_node(eol_sbuf *sb, const eol_node *n, eol_style st);

/* Prints an operand that must bind at least as tightly as min_level to parse back in place. */
static void eol_print_operand(eol_sbuf *sb, const eol_node *n, eol_style st, int min_level)
{
    bool parens = eol_level(n) < min_level;

    if (parens)
        eol_sb_puts(sb, "(");
    eol_print_node(sb, n, st);
    if (parens)
        eol_sb_puts(sb, ")");
}

/* Left-associative binary operator of the given level. */
static void eol_print_binary(eol_sbuf *sb, const eol_node *n, eol_style st, int op, int level)
{
    eol_print_operand(sb, n->a, st, level);
    eol_sb_puts(sb, " ");
    eol_sb_puts(sb, eol_ops[st][op]);
    eol_sb_puts(sb, " ");
    eol_print_operand(sb, n->b, st, level + 1);
}

static void eol_print_between(eol_sbuf *sb, const eol_node *n, eol_style st)
{
    eol_print_operand(sb, n->a, st, 2);
    eol_sb_puts(sb, " ");
    eol_sb_puts(sb, eol_ops[st][EOL_OP_BOPEN]);
    eol_sb_puts(sb, " ");
    eol_print_node(sb, n->b, st);
    eol_sb_puts(sb, " ");
    eol_sb_puts(sb, eol_ops[st][EOL_OP_BCLOSE]);
    eol_sb_puts(sb, " ");
    eol_print_operand(sb, n->c, st, 3);
}

static void eol_print_node(eol_sbuf *sb, const eol_node *n, eol_style st)
{
    switch (n->kind) {
    case EOL_EVENT:
        eol_print_event(sb, n);
        break;
    case EOL_NOT:
        eol_sb_puts(sb, eol_ops[st][EOL_OP_NOT]);
        eol_print_operand(sb, n->a, st, 3);
        break;
    case EOL_AND:
        eol_print_binary(sb, n, st, EOL_OP_AND, 1);
        break;
    case EOL_OR:
        eol_print_binary(sb, n, st, EOL_OP_OR, 1);
        break;
    case EOL_ORD:
        eol_print_binary(sb, n, st, EOL_OP_ORD, 2);
        break;
    case EOL_FROM:
        eol_print_binary(sb, n, st, EOL_OP_FROM, 2);
        break;
    case EOL_UNTIL:
        eol_print_binary(sb, n, st, EOL_OP_UNTIL, 2);
        break;
    case EOL_BETWEEN:
        eol_print_between(sb, n, st);
        break;
    }
}

char *eol_print(const eol_node *n, eol_style style)
{
    eol_sbuf sb = {0};

    if ((style != EOL_ASCII && style != EOL_UNICODE) || !eol_printable(n))
        return NULL;
    eol_print_node(&sb, n, style);
    if (sb.failed) {
        free(sb.buf);
        return NULL;
    }
    return sb.buf;
}
