/*
 * eol_internal.h - lexical rules for event names shared by the eol/ sources.
 *
 * The constructor (eol_ast.c), the printer (eol_print.c) and the parser (eol_parse.c) must
 * agree exactly on what an event name is and on when a trailing "_<digits>" is an occurrence
 * index; otherwise a printed formula could parse back to a different tree.  Keeping those
 * rules in one place (implemented in eol_ast.c) makes that agreement structural.  Not part of
 * the module's interface: other modules include eol.h only.
 */
#ifndef EOL_INTERNAL_H
#define EOL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* The parser refuses text that nests deeper than this (parentheses, or the tree it would
 * build), so that the recursive functions of the module (free, print, eval, ...) never
 * exhaust the C stack on a formula read from hostile input. */
#define EOL_MAX_DEPTH 1000

/* Length of the event-name token that starts at s (0 if none starts there).  A name is
 * [A-Za-z_] followed by [A-Za-z0-9_.[\]], except that the token stops before a '.' that is
 * followed by '&' (the ".&" operator) and before a ']' that closes no '[' of the name (the
 * "]&" operator), so that "a.&b" and "a]&b" lex as operators.  *open receives the number of
 * '[' left unclosed at the end of the token. */
size_t eol_name_scan(const char *s, int *open);

/* A name the constructor accepts: the whole string is one token with balanced brackets. */

/* Where the occurrence suffix of a token of length len starts: the index of a '_' that is
 * followed only by one or more digits up to len and that is not the token's first character;
 * len if the token has no such suffix. */
size_t eol_occ_suffix(const char *name, size_t len);

/* A malloc'd copy of the first len bytes of s (NULL when out of memory). */
char *eol_strndup(const char *s, size_t len);

#endif
