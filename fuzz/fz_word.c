/* fz_word.c - libFuzzer harness for the lasso word parser of `pancause
 * temporal --trace` (temporal/tm_word.c, Spot's word syntax): any text is
 * either refused with a message naming the column or parsed; parsed words print
 * back in the same syntax and parse again to the same letters.  (The Spot LTL
 * parser has its own harness, fz_tltl.c.)
 */
#include "fz_common.h"
#include "temporal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fz_string(data, size);
    if (!text)
        return 0;
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
    tm_aps_free(&aps);
    free(text);
    return 0;
}
