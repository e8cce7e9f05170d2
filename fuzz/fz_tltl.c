/* fz_tltl.c - libFuzzer harness for the Spot-syntax LTL parser of `pancause
 * temporal` (temporal/tm_ltl_parse.c: --effect, --check and the ltl formulas
 * of SPIN models) and what follows it on a user's formula: printing (which must
 * parse back to a formula that prints the same),
 * negation normal form, and, for small formulas, the translation to a Buchi
 * automaton, which must accept a lasso exactly when direct evaluation says the
 * formula holds there (the lasso's letters are taken from the input's bytes).
 * Refusals must name the column.
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
    tm_ltl l;
    tm_ltl_init(&l);
    int f = tm_ltl_parse(&l, text, &aps, false, "formula", &e);
    if (f < 0) {
        FZ_CHECK(strstr(e.msg, "column") || strstr(e.msg, "empty formula") ||
                     strstr(e.msg, "memory"),
                 "a refusal without a column: %s", e.msg);
    } else {
        char *t = tm_ltl_text(&l, f, &aps);
        FZ_CHECK(t != NULL, "printing failed");
        /* & and | print without the parentheses of their nesting (Spot's n-ary
         * reading), so the text re-parses to an equivalent formula that prints
         * the same, not always to the same node */
        int g = tm_ltl_parse(&l, t, &aps, false, "again", &e);
        FZ_CHECK(g >= 0, "'%s' does not parse back (%s)", t, e.msg);
        char *t2 = tm_ltl_text(&l, g, &aps);
        FZ_CHECK(t2 && !strcmp(t, t2), "'%s' prints back as '%s'", t, t2 ? t2 : "?");
        free(t2);
        free(t);
        int n = tm_ltl_nnf(&l, f, false);
        FZ_CHECK(n >= 0, "normal form failed");
        if (tm_ltl_size(&l, f) <= 12) {
            tm_nba a;
            if (tm_ltl_to_nba(&l, f, 7, 3000, &a, &e) == 0) {
                uint64_t pre[2], cyc[3];
                for (int i = 0; i < 5; i++) {
                    uint64_t v = size > (size_t)i ? data[size - 1 - i] : (uint64_t)i;
                    *(i < 2 ? &pre[i] : &cyc[i - 2]) = v & 7;
                }
                tm_lasso w = {pre, cyc, size % 3, 1 + size % 3};
                int acc = tm_nba_accepts(&a, &w, &e), holds = tm_ltl_holds(&l, f, &w);
                FZ_CHECK(acc < 0 || holds < 0 || acc == holds,
                         "the automaton of '%s' %s a lasso on which the formula %s", text,
                         acc ? "accepts" : "rejects", holds ? "holds" : "fails");
                tm_nba_free(&a);
            }
        }
    }
    tm_ltl_free(&l);
    tm_aps_free(&aps);
    free(text);
    return 0;
}
