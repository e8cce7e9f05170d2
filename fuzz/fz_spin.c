/* fz_spin.c - libFuzzer harness for the reader of SPIN's replay output
 * (ex_spin_parse: the text of `spin -t -p -g -l -w -b` and of the one-step
 * `spin -t -u1` dump), the mtype reader of model texts, and what `pancause
 * explain` does with a trace read that way.
 *
 * The input is the one-step dump and the replay separated by a line "--8<--"
 * (without one it is the replay alone); spin itself is not run.  The dump
 * part also serves as the state dump after every process start the replay
 * shows (ex_spin_creations), and the replay part is also read as a model for
 * its mtype declarations and as `spin -d`'s symbol table for channels
 * (ex_spin_channels) and labels (ex_locs_labels, for the formulas' P[k]@L).  A trace that
 * reads is explained against each ltl formula the replay named (small
 * budgets, and with --exact where the trace has at most 64 steps).
 */
#define _GNU_SOURCE /* memmem */
#include "explain.h"
#include "fz_common.h"

static FILE *open_text(const char *s, size_t n)
{
    return n ? fmemopen((void *)s, n, "r") : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fz_string(data, size);
    if (!s)
        return 0;
    const char *cut = memmem(s, size, "--8<--\n", 7);
    FILE *initial = cut ? open_text(s, (size_t)(cut - s)) : NULL;
    const char *rest = cut ? cut + 7 : s;
    size_t nrest = size - (size_t)(rest - s);
    FILE *replay = fmemopen((void *)(nrest ? rest : "\n"), nrest ? nrest : 1, "r");
    ex_trace t;
    ex_trace_init(&t);
    ex_spin_info info;
    memset(&info, 0, sizeof info);
    /* the dumps after process starts: the first part of the input after each start the
     * replay has (so apply_dump reads arbitrary text at arbitrary steps) */
    long *depths = NULL;
    size_t nd = 0;
    ex_spin_dump *dumps = NULL;
    if (ex_spin_creations(rest, &depths, &nd) == 0 && nd && (dumps = calloc(nd, sizeof *dumps))) {
        for (size_t i = 0; i < nd; i++) {
            FZ_CHECK(i == 0 || depths[i] > depths[i - 1], "start depths not ascending");
            dumps[i].depth = depths[i];
            dumps[i].text = cut ? s : "";
        }
    }
    if (cut)
        s[cut - s] = 0; /* the dump text ends at the cut */
    int rc = replay && ex_spin_mtypes(rest, &t) == 0
                 ? ex_spin_parse(initial, replay, dumps, dumps ? nd : 0, &t, &info)
                 : -1;
    if (rc == 0 && (ex_spin_channels(rest, &t) != 0 || ex_locs_labels(&t, rest) != 0))
        rc = -1;
    free(depths);
    free(dumps);
    if (initial)
        fclose(initial);
    if (replay)
        fclose(replay);
    if (rc == 0 && t.nsteps * (t.nvars + 1) <= 20000) {
        FZ_CHECK(t.nsteps > 0, "a parsed replay has no state");
        ex_options o;
        ex_options_default(&o);
        o.max_nba_states = 200;
        o.exact_budget = 30;
        o.refine_budget = 30; /* a budget unit can be a whole lasso evaluation */
        for (size_t i = 0; i < info.nltl && i < 4; i++)
            for (int exact = 0; exact < 1 + (t.nsteps <= 64); exact++) {
                o.exact = exact;
                ex_explanation e;
                char err[512] = "";
                if (ex_explain(&t, info.ltl_texts[i], EX_DIALECT_SPIN, &o, &e, err, sizeof err) ==
                    0)
                    ex_explanation_free(&e);
                else
                    FZ_CHECK(err[0], "ex_explain failed without a message");
            }
    }
    ex_spin_info_free(&info);
    ex_trace_free(&t);
    free(s);
    return 0;
}
