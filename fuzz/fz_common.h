/* fz_common.h - what every libFuzzer harness in fuzz/ shares: the input as a
 * NUL-terminated string, and a check that stays on in optimised builds.
 *
 * The harnesses feed the parsers exactly what a user's file or argument would
 * give them; ASan and UBSan (make fuzz) turn any read past the input, leak or
 * undefined behaviour into a crash, and FZ_CHECK turns a broken promise of the
 * parser (a print that does not parse back, say) into one too.  Header-only so
 * that each harness stays one file and one program.
 */
#ifndef FZ_COMMON_H
#define FZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The input with a NUL appended (the parsers read C strings; a NUL inside the
 * input ends the string as it would for a user).  NULL only when out of memory,
 * which the harness then skips. */
static inline char *fz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s) {
        memcpy(s, data, size);
        s[size] = 0;
    }
    return s;
}

#define FZ_CHECK(cond, ...)                                                                        \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz check failed: %s: ", #cond);                                     \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif
