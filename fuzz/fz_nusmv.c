/* fz_nusmv.c - libFuzzer harness for the NuSMV/nuXmv counterexample reader
 * (ex_nusmv_load) and what `pancause explain --nusmv` does with what it read.
 *
 * The input is the file.  A file that loads is explained as the command
 * would: every counterexample that is not skipped goes through ex_explain
 * (parse, bind, first failure, Algorithm 6), and again with --exact where
 * the trace has at most 64 steps, with small budgets so that one input stays
 * fast.  A file that does
 * not load must say why, as FILE:LINE.
 */
#include "explain.h"
#include "fz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = fmemopen((void *)data, size ? size : 1, "r");
    if (!in)
        return 0;
    if (!size)
        fgetc(in); /* an empty file: fmemopen needs one byte */
    ex_smv_cex *c;
    size_t n;
    char err[512] = "";
    int rc = ex_nusmv_load(in, "fuzz.smv", &c, &n, err, sizeof err);
    fclose(in);
    if (rc != 0) {
        FZ_CHECK(!strncmp(err, "fuzz.smv:", 9), "the message names no file: %s", err);
        return 0;
    }
    ex_options o;
    ex_options_default(&o);
    o.max_nba_states = 200;
    o.exact_budget = 30;
    o.refine_budget = 30; /* a budget unit can be a whole lasso evaluation */
    for (size_t i = 0; i < n; i++) {
        if (c[i].skip || c[i].trace.nsteps * (c[i].trace.nvars + 1) > 20000)
            continue;
        for (int exact = 0; exact < 1 + (c[i].trace.nsteps <= 64); exact++) {
            o.exact = exact;
            ex_explanation e;
            if (ex_explain(&c[i].trace, c[i].formula, EX_DIALECT_SMV, &o, &e, err, sizeof err) == 0)
                ex_explanation_free(&e);
            else
                FZ_CHECK(err[0], "ex_explain failed without a message");
        }
    }
    ex_nusmv_free(c, n);
    return 0;
}
