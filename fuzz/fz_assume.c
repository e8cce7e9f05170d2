/* fz_assume.c - libFuzzer harness for `--assume EXPR` (nearest/nr_assume.c), the
 * condition both `pancause nearest` and `./pan -C --nearest` read from the user: the
 * ltl parser of pancause explain (fz_ltl fuzzes it as a formula) and, new here, the
 * refusal of temporal operators, the binding of names to a model's variables and the
 * evaluation in its states.
 *
 * The input is the argument as a C string.  Refused, the message must name a column
 * or the temporal operator.  Accepted, it is bound to a small hand-built model (globals
 * x, a[0..1], an mtype c, a channel q; process P(0) with a local i in state 0 only)
 * and evaluated in both states, where it must give 1, 0 or -1 (a variable absent);
 * bind may refuse a name, saying --assume.  Two rewritings must then agree with it in
 * each state: "(E)" the same value, and "!(E)" the opposite where E is defined (the
 * same -1 where it is not), so that a slip between the two readings is caught, not
 * only crashes.
 */
#include "nr_internal.h"

#include "fz_common.h"

#include <limits.h>

static const char *const PROCS[] = {"P"};
static const short SRC0[] = {0, 10, 11, 12};
static const short *const SRC[] = {SRC0};
static const int NSTATES[] = {4};
static nr_model *M;

static void setup(void)
{
    u_err err = {{0}};
    const int q[] = {1, 1, 1, 2};
    if (!(M = nr_model_new()) || nr_model_procs(M, PROCS, 1, SRC, NSTATES))
        abort();
    nr_val_mtype(M, "red", 1);
    nr_val_mtype(M, "green", 2);
    for (uint32_t s = 0; s < 2; s++) {
        nr_val_begin(M);
        nr_val_scope(M, -1, -1, 0);
        nr_val_scalar(M, "now.x", "byte", -1, s ? 0 : 3);
        nr_val_scalar(M, "now.a[_i]", "byte", 0, 1);
        nr_val_scalar(M, "now.a[_i]", "byte", 1, 2);
        nr_val_scalar(M, "now.c", "mtype", -1, 2);
        nr_val_chan(M, "q", 1, q, 4);
        if (!s) {
            nr_val_scope(M, 0, 0, 2);
            nr_val_scalar(M, "((P0 *)pptr(pid))->i", "byte", -1, 5);
        }
        if (nr_val_end(M, s, false, false, &err))
            abort();
    }
}

/* Parses and binds e; its values in states 0 and 1 into v.  0 accepted, 1 refused by
 * the parser, 2 by bind. */
static int values(const char *e, int v[2])
{
    nr_assume *A;
    u_err err = {{0}};
    if (nr_assume_parse(e, &A, &err)) {
        FZ_CHECK(A == NULL && (strstr(err.msg, "column") || strstr(err.msg, "is temporal")),
                 "refused without a column: %s", err.msg);
        return 1;
    }
    if (nr_assume_bind(A, M, &err)) {
        FZ_CHECK(strstr(err.msg, "--assume"), "bind's message does not say --assume: %s", err.msg);
        nr_assume_free(A);
        return 2;
    }
    for (uint32_t s = 0; s < 2; s++) {
        v[s] = nr_assume_holds(A, s);
        FZ_CHECK(v[s] >= -1 && v[s] <= 1, "value %d", v[s]);
    }
    nr_assume_free(A);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!M)
        setup();
    char *e = fz_string(data, size);
    if (!e || size > 1000) {
        free(e);
        return 0;
    }
    int v[2], w[2];
    if (values(e, v) == 0) {
        char *p = u_fmt("(%s)", e), *n = u_fmt("!(%s)", e);
        if (p && n) {
            int rp = values(p, w);
            /* the parenthesised form may only hit the nesting limit or, for a prefix of a
             * temporal formula, read on ("(E)" of "x) U (y" is temporal) */
            FZ_CHECK(rp == 1 || (rp == 0 && w[0] == v[0] && w[1] == v[1]),
                     "(E) differs from E: \"%s\"", e);
            if (values(n, w) == 0)
                for (int s = 0; s < 2; s++)
                    FZ_CHECK(w[s] == (v[s] < 0 ? -1 : !v[s]), "!(E) is %d where E is %d: \"%s\"",
                             w[s], v[s], e);
        }
        free(p);
        free(n);
    }
    free(e);
    return 0;
}
