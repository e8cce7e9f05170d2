/*
 * u_err.c - the error convention (util.h) and formatting into fresh memory.
 *
 * A u_err is a fixed buffer so that recording an error never allocates: "out of
 * memory" can always be reported.  The first message wins, because the first
 * failure is the cause and later ones are its consequences.
 */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int u_errf(u_err *e, const char *fmt, ...)
{
    if (!e || e->msg[0])
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    if (!e->msg[0]) /* an empty message would read as "no error" */
        snprintf(e->msg, sizeof e->msg, "error");
    return -1;
}

int u_oom(u_err *e)
{
    return u_errf(e, "out of memory");
}

char *u_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* The capacity that replaces cap when index n does not fit: double, or `first` to
 * start with, and at least n + 1.  One rule for u_grow and u_grow_all. */
static size_t next_cap(size_t cap, size_t n, size_t first)
{
    size_t c = cap ? 2 * cap : (first ? first : 16);
    return c < n + 1 ? n + 1 : c;
}

int u_grow(void **v, size_t *cap, size_t n, size_t elem, size_t first)
{
    if (n < *cap && *v)
        return 0;
    size_t c = next_cap(*cap, n, first);
    if (c > SIZE_MAX / (elem ? elem : 1))
        return -1;
    void *p = realloc(*v, c * elem);
    if (!p)
        return -1;
    *v = p;
    *cap = c;
    return 0;
}

int u_grow_all(size_t *cap, size_t n, size_t first, const u_arr *arrs, size_t count)
{
    if (n < *cap)
        return 0;
    size_t c = next_cap(*cap, n, first);
    for (size_t k = 0; k < count; k++) {
        size_t elem = arrs[k].elem ? arrs[k].elem : 1;
        if (c > SIZE_MAX / elem)
            return -1;
        void *p = realloc(*arrs[k].v, c * elem);
        if (!p)
            return -1;
        *arrs[k].v = p;
    }
    *cap = c;
    return 0;
}
