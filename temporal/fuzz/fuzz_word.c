/*
 * fuzz_word.c - libFuzzer harness for the lasso word parser (tm_word.c) and,
 * on the same input, the Spot-syntax LTL parser (tm_ltl_parse.c): any text is
 * either refused with a message naming the column or parsed; parsed words
 * print back in the same syntax and parse again to the same letters, parsed
 * formulas print back and parse again.  Build and run:
 * temporal/fuzz/README.md.
 */
#include "temporal.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    tm_aps aps = {0};
    u_err e = {{0}};
    tm_aps_add(&aps, "a", 1, &e);
    tm_aps_add(&aps, "b", 1, &e);
    tm_aps_add(&aps, "c.d", 3, &e);
    tm_word w;
    if (tm_word_parse(text, &aps, "word", &w, &e) == 0) {
        /* the letters' values, printed with every AP they fix, read back */
        tm_lasso l = {calloc(w.npre + 1, 8), calloc(w.ncyc + 1, 8), w.npre, w.ncyc};
        if (l.pre && l.cyc) {
            for (size_t i = 0; i < w.npre; i++)
                l.pre[i] = w.pre[i].val;
            for (size_t i = 0; i < w.ncyc; i++)
                l.cyc[i] = w.cyc[i].val;
            char *t = tm_lasso_text(&l, 7, &aps);
            tm_word w2;
            if (!t || tm_word_parse(t, &aps, "again", &w2, &e) != 0 || w2.npre != w.npre ||
                w2.ncyc != w.ncyc)
                abort();
            for (size_t i = 0; i < w.ncyc; i++)
                if (w2.cyc[i].val != w.cyc[i].val)
                    abort();
            tm_word_free(&w2);
            free(t);
        }
        tm_lasso_free(&l);
        tm_word_free(&w);
    } else if (!strstr(e.msg, "column")) {
        abort();
    }
    tm_ltl l;
    tm_ltl_init(&l);
    memset(&e, 0, sizeof e);
    int f = tm_ltl_parse(&l, text, &aps, false, "formula", &e);
    if (f >= 0) {
        char *t = tm_ltl_text(&l, f, &aps);
        if (!t || tm_ltl_parse(&l, t, &aps, false, "again", &e) < 0)
            abort();
        free(t);
    }
    tm_ltl_free(&l);
    tm_aps_free(&aps);
    free(text);
    return 0;
}
