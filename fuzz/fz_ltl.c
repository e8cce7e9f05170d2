/* fz_ltl.c - libFuzzer harness for the LTL parser (ex_ltl_parse) in both
 * dialects, the passes every parsed formula goes through, and the Buchi
 * automaton of small formulas.
 *
 * The first byte chooses the dialect (even: SPIN, odd: NuSMV), the rest is
 * the formula, as `--formula`, an `ltl` block or a NuSMV specification would
 * give it.  A formula that parses gets both negation normal forms (with every
 * proposition once constant, to reach the constant simplifications), its
 * text, size and polarity; one whose tree has at most 24 nodes also gets the
 * tableau automaton (ex_nba, capped at 300 states) and a run of it over
 * letters taken from the input.  A failed parse must say why.
 */
#include "ex_ltl.h"
#include "ex_nba.h"
#include "fz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int dialect = data[0] & 1 ? EX_DIALECT_SMV : EX_DIALECT_SPIN;
    char *s = fz_string(data + 1, size - 1);
    if (!s)
        return 0;
    ex_ltl l;
    ex_ltl_init(&l);
    char err[256] = "";
    int f = ex_ltl_parse(&l, s, dialect, err, sizeof err);
    if (f < 0) {
        FZ_CHECK(err[0], "no message for a formula that does not parse");
        ex_ltl_free(&l);
        free(s);
        return 0;
    }
    signed char consts[EX_MAX_PROPS];
    for (int p = 0; p < EX_MAX_PROPS; p++)
        consts[p] = p < l.nprops ? (signed char)((data[0] >> 1 >> (p % 7)) % 3 - 1) : -1;
    int tab = ex_ltl_nnf(&l, f, EX_NNF_TABLEAU, NULL);
    (void)ex_ltl_nnf(&l, ex_ltl_mk(&l, EX_L_NOT, f, -1), EX_NNF_TABLEAU, consts);
    (void)ex_ltl_nnf(&l, f, EX_NNF_ALG6, consts);
    int alg6 = ex_ltl_nnf(&l, f, EX_NNF_ALG6, NULL);
    char *text = ex_ltl_text(&l, f);
    free(text);
    uint64_t pos, neg;
    (void)ex_ltl_polarity(&l, alg6, NULL, &pos, &neg);
    if (ex_ltl_size(&l, f) <= 24) {
        ex_nba a;
        if (ex_nba_build(&l, tab, 300, &a) == 0) {
            uint64_t *set = calloc(2 * a.words + 1, sizeof *set), *next = set + a.words;
            for (size_t i = 0; set && i < size && i < 16; i++) {
                uint64_t letter = data[i] * 0x9E3779B97F4A7C15ull;
                if (i == 0) {
                    ex_nba_start(&a, letter, set);
                } else {
                    ex_nba_step(&a, set, letter, next);
                    memcpy(set, next, a.words * sizeof *set);
                }
                if (ex_nba_set_empty(&a, set))
                    break;
            }
            free(set);
            ex_nba_free(&a);
        }
    }
    ex_ltl_free(&l);
    free(s);
    return 0;
}
