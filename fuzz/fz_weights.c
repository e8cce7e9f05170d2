/* fz_weights.c - libFuzzer harness for `--weights WP,WA[,WC]` (nr_parse_weights, which
 * both `pancause nearest` and `./pan -C --nearest` call on the user's argument).
 *
 * The input is the argument as a C string.  The harness holds its own reading of the
 * README's rule (two or three fields separated by commas, each a non-empty run of
 * decimal digits whose value is at most NR_WEIGHT_MAX, nothing else) and checks that
 * the parser accepts exactly those strings, with the same values, leaves its outputs
 * untouched when it refuses, and that the accepted weights printed back parse to the
 * same weights.  The same string also goes to nr_parse_amount (--budget, --memlim): what
 * it accepts is a decimal number (digits, a point, an exponent) between 0 and its
 * maximum, and a run of up to nine digits is always accepted with its value.
 */
#include "nearest.h"

#include "fz_common.h"

/* The rule, field by field: *n fields into w; false when the string breaks it. */
static int spec(const char *s, long w[3])
{
    int n = 0;
    const char *f = s;
    for (;;) {
        const char *c = strchr(f, ',');
        size_t len = c ? (size_t)(c - f) : strlen(f);
        if (len == 0 || n == 3)
            return -1;
        long v = 0;
        for (size_t k = 0; k < len; k++) {
            if (f[k] < '0' || f[k] > '9')
                return -1;
            if (v <= NR_WEIGHT_MAX)
                v = 10 * v + (f[k] - '0');
        }
        if (v > NR_WEIGHT_MAX)
            return -1;
        w[n++] = v;
        if (!c)
            break;
        f = c + 1;
    }
    return n >= 2 ? n : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fz_string(data, size);
    if (!s)
        return 0;
    long w[3] = {-7, -7, -7}, x[3] = {0, 0, -1};
    int rc = nr_parse_weights(s, &w[0], &w[1], &w[2]);
    int n = spec(s, x);
    FZ_CHECK((rc == 0) == (n > 0), "parser says %d, the rule %d fields: \"%s\"", rc, n, s);
    if (rc) {
        FZ_CHECK(w[0] == -7 && w[1] == -7 && w[2] == -7, "a refused string set weights");
    } else {
        if (n == 2)
            x[2] = -1;
        FZ_CHECK(w[0] == x[0] && w[1] == x[1] && w[2] == x[2], "%ld,%ld,%ld for \"%s\"", w[0], w[1],
                 w[2], s);
        char back[64];
        if (w[2] >= 0)
            snprintf(back, sizeof back, "%ld,%ld,%ld", w[0], w[1], w[2]);
        else
            snprintf(back, sizeof back, "%ld,%ld", w[0], w[1]);
        long y[3];
        FZ_CHECK(!nr_parse_weights(back, &y[0], &y[1], &y[2]) && y[0] == w[0] && y[1] == w[1] &&
                     y[2] == w[2],
                 "printed \"%s\" does not read back", back);
    }
    FZ_CHECK(nr_parse_weights(NULL, &w[0], &w[1], &w[2]) == -1, "NULL accepted");
    double a = -7;
    int ra = nr_parse_amount(s, NR_MEMLIM_MAX, &a);
    size_t len = strlen(s), digits = strspn(s, "0123456789");
    if (ra)
        FZ_CHECK(a == -7, "a refused amount was set: \"%s\"", s);
    else
        FZ_CHECK(a >= 0 && a <= NR_MEMLIM_MAX && strspn(s, "0123456789.eE+-") == len &&
                     (s[0] == '.' || (s[0] >= '0' && s[0] <= '9')),
                 "accepted amount %g from \"%s\"", a, s);
    if (len && len <= 9 && digits == len)
        FZ_CHECK(!ra && a == strtod(s, NULL), "refused the amount \"%s\"", s);
    free(s);
    return 0;
}
