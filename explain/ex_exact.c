/* ex_exact: brute-force search over contingency sets (Definition 4).
 *
 * NP-complete in general (Lemma 5), so this is for small instances: the
 * budget bounds the number of contingency sets evaluated.  Each evaluation
 * runs the automaton (or the lasso labelling) over the modified path.
 * Bottom-valued pairs already in Algorithm 6's set are tried first, as the
 * contingencies that matter usually lie on failure paths.
 */
#include "ex_exact.h"

#include "ex_eval.h"

#include <stdlib.h>
#include <string.h>

static int ex_is_false(const ex_exact_ctx *c, const uint64_t *path, size_t len, uint64_t *s1,
                       uint64_t *s2)
{
    if (c->loop >= 0)
        return !ex_eval_trace(c->l, c->tab, path, len, c->loop, 0);
    ex_nba_start(c->nba, path[0], s1);
    for (size_t i = 1; i < len && !ex_nba_set_empty(c->nba, s1); i++) {
        ex_nba_step(c->nba, s1, path[i], s2);
        memcpy(s1, s2, c->nba->words * sizeof *s1);
    }
    return ex_nba_set_empty(c->nba, s1);
}

static int ex_in_dots(const ex_pdot *d, size_t n, size_t step, int prop)
{
    for (size_t i = 0; i < n; i++)
        if (d[i].step == step && d[i].prop == prop)
            return 1;
    return 0;
}

/* Bottom-valued pairs other than `skip`, Algorithm 6's first. */
static size_t ex_bottom_pairs(const ex_exact_ctx *c, const uint64_t *path, size_t len,
                              const ex_pdot *dots, size_t nd, ex_pdot skip, ex_pdot *out)
{
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < len; i++)
            for (int p = 0; p < 64; p++) {
                int v = (int)((path[i] >> p) & 1);
                int bottom = (!v && ((c->pos >> p) & 1)) || (v && ((c->neg >> p) & 1));
                if (!bottom || (i == skip.step && p == skip.prop))
                    continue;
                if (ex_in_dots(dots, nd, i, p) == (pass == 0))
                    out[n++] = (ex_pdot){i, p};
            }
    return n;
}

static int ex_decide_one(ex_exact_ctx *c, const uint64_t *path, size_t len, const ex_pdot *dots,
                         size_t nd, ex_pdot cand, uint64_t *work, ex_pdot *pairs, size_t *idx,
                         uint64_t *s1, uint64_t *s2)
{
    size_t m = ex_bottom_pairs(c, path, len, dots, nd, cand, pairs);
    for (size_t size = 0; size <= m; size++) {
        for (size_t j = 0; j < size; j++)
            idx[j] = j;
        for (;;) {
            if (c->budget <= 0)
                return EX_EXACT_UNDECIDED;
            c->budget--;
            memcpy(work, path, len * sizeof *work);
            for (size_t j = 0; j < size; j++)
                work[pairs[idx[j]].step] ^= 1ull << pairs[idx[j]].prop;
            if (ex_is_false(c, work, len, s1, s2)) {
                work[cand.step] ^= 1ull << cand.prop;
                if (!ex_is_false(c, work, len, s1, s2))
                    return EX_EXACT_YES;
            }
            /* next combination of `size` out of m */
            size_t j = size;
            while (j > 0 && idx[j - 1] == m - size + j - 1)
                j--;
            if (j == 0)
                break;
            idx[j - 1]++;
            for (size_t t = j; t < size; t++)
                idx[t] = idx[t - 1] + 1;
        }
    }
    return EX_EXACT_NO;
}

void ex_exact_decide(ex_exact_ctx *c, const uint64_t *path, size_t len, const ex_pdot *cand,
                     size_t ncand, int *verdict)
{
    uint64_t *work = malloc((len + 1) * sizeof *work);
    size_t maxpairs = len * (size_t)__builtin_popcountll(c->pos | c->neg) + 1;
    ex_pdot *pairs = malloc(maxpairs * sizeof *pairs);
    size_t *idx = malloc(maxpairs * sizeof *idx);
    size_t words = c->nba ? c->nba->words : 1;
    uint64_t *s1 = malloc(words * sizeof *s1), *s2 = malloc(words * sizeof *s2);
    if (!work || !pairs || !idx || !s1 || !s2)
        abort();
    for (size_t i = 0; i < ncand; i++)
        verdict[i] = ex_decide_one(c, path, len, cand, ncand, cand[i], work, pairs, idx, s1, s2);
    free(work);
    free(pairs);
    free(idx);
    free(s1);
    free(s2);
}
