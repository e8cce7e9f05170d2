/* Bad and hostile input to explain's readers and parser (issue 13, part 2):
 * every one is a clear error naming where (FILE:LINE, or the column), never a
 * crash, a read past the input, a stack overflow or a silent guess; sizes far
 * beyond any real input are read in linear time; out of memory is a message.
 * Each test is the regression test of one reported problem; the fuzzers'
 * findings have theirs in fuzz/corpus/. */
#define _GNU_SOURCE /* fopencookie */
#include "explain.h"
#include "util.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Loads NuSMV text; returns the reader's result, the message in err. */
static int smv_load(const char *text, ex_smv_cex **c, size_t *n, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    ck_assert_ptr_nonnull(f);
    int rc = ex_nusmv_load(f, "t.smv", c, n, err, errlen);
    fclose(f);
    return rc;
}

static void smv_fails(const char *text, const char *want)
{
    ex_smv_cex *c;
    size_t n;
    char err[512] = "";
    ck_assert_msg(smv_load(text, &c, &n, err, sizeof err) == -1, "loaded: %s", text);
    ck_assert_msg(strstr(err, want), "error '%s' lacks '%s'", err, want);
    ck_assert_ptr_null(c);
}

/* Loads one counterexample and explains it; returns ex_explain's result. */
static int smv_explain(const char *text, ex_explanation *e, char *err, size_t errlen)
{
    ex_smv_cex *c;
    size_t n;
    ck_assert_msg(smv_load(text, &c, &n, err, errlen) == 0, "load: %s", err);
    ck_assert_uint_eq(n, 1);
    ex_options o;
    ex_options_default(&o);
    int rc = ex_explain(&c[0].trace, c[0].formula, EX_DIALECT_SMV, &o, e, err, errlen);
    ex_nusmv_free(c, n);
    return rc;
}

static void smv_explain_fails(const char *text, const char *want)
{
    ex_explanation e;
    char err[512] = "";
    ck_assert_msg(smv_explain(text, &e, err, sizeof err) == -1, "explained: %s", text);
    ck_assert_msg(strstr(err, want), "error '%s' lacks '%s'", err, want);
}

#define SPEC(f) "-- specification " f "  is false\n  -> State: 1.1 <-\n"

START_TEST(nusmv_value_cut_mid_word)
{
    /* a boolean's value cut off: FAL is a word, but a is boolean */
    smv_fails(SPEC("G a") "    a = TRUE\n  -> State: 1.2 <-\n    a = FAL\n",
              "t.smv:5: a = FAL is a symbolic value, but a was a boolean value on line 3");
    smv_fails(SPEC("G a") "    a = FAL\n  -> State: 1.2 <-\n    a = TRUE\n", "t.smv:5:");
    /* numbers and words cut off are not numbers */
    smv_fails(SPEC("G n < 3") "    n = 1\n  -> State: 1.2 <-\n    n = 12x\n",
              "t.smv:5: '12x' is not a number");
    smv_fails(SPEC("G n < 3") "    n = 0ud8_\n", "t.smv:3: '0ud8_' is not a number");
    smv_fails(SPEC("G n < 3") "    n = -\n", "t.smv:3: '-' is not a value");
    smv_fails(SPEC("G n < 3") "    n = 1/2\n", "t.smv:3: '1/2' is not a number");
    /* too large to tell from a symbol's code */
    smv_fails(SPEC("G n < 3") "    n = 4503599627370496\n",
              "t.smv:3: 4503599627370496 is too large");
    smv_fails(SPEC("G n < 3") "    n = 0ud64_18446744073709551615\n", "is too large");
    /* a word beside a symbol */
    smv_fails(SPEC("G w = 0ud8_1") "    w = 0ud8_1\n  -> State: 1.2 <-\n    w = 0ud\n", "t.smv:5:");
    /* when the cut value is the only one, its use as a truth value shows it */
    smv_explain_fails(SPEC("G a") "    a = FAL\n", "'a' holds symbolic values");
    /* what NuSMV does print still reads: integers beside symbols (an enumeration
     * of both), integers beside words, negative numbers */
    ex_explanation e;
    char err[512];
    ck_assert_int_eq(smv_explain(SPEC("G (m != 3 & n > -2)") "    m = idle\n    n = 0\n"
                                                             "  -> State: 1.2 <-\n    m = 3\n"
                                                             "    n = 0ud8_1\n",
                                 &e, err, sizeof err),
                     0);
    ck_assert_int_eq(e.first_failure, 1);
    ex_explanation_free(&e);
}
END_TEST

START_TEST(nusmv_unknown_variable)
{
    smv_explain_fails(SPEC("G (zz)") "    a = TRUE\n",
                      "unknown variable 'zz' in the formula (not in the trace)");
    smv_explain_fails(SPEC("G (n = zz)") "    n = 1\n", "unknown variable 'zz'");
    smv_explain_fails(SPEC("G (zz = yy)") "    n = 1\n", "unknown variable 'zz'");
    /* an enum constant that occurs in the trace is a constant */
    ex_explanation e;
    char err[512];
    ck_assert_int_eq(smv_explain(SPEC("G (st != busy)") "    st = idle\n  -> State: 1.2 <-\n"
                                                        "    st = busy\n",
                                 &e, err, sizeof err),
                     0);
    ck_assert_int_eq(e.first_failure, 1);
    ex_explanation_free(&e);
    /* and so is one compared with an enum variable, though the trace never shows
     * it (NuSMV type-checked the specification) */
    ck_assert_int_eq(smv_explain(SPEC("G (st != error & st != done)") "    st = idle\n"
                                                                      "  -> State: 1.2 <-\n"
                                                                      "    st = done\n",
                                 &e, err, sizeof err),
                     0);
    ck_assert_int_eq(e.first_failure, 1);
    ex_explanation_free(&e);
}
END_TEST

START_TEST(nusmv_loop_without_state)
{
    smv_fails(SPEC("G a") "    a = TRUE\n  -- Loop starts here\n",
              "t.smv:4: '-- Loop starts here' with no state after it");
    smv_fails(SPEC("G a") "    a = TRUE\n  -- Loop starts here\n" SPEC("G b") "    b = TRUE\n",
              "t.smv:4: '-- Loop starts here' with no state after it");
    smv_fails(SPEC("G a") "    a = TRUE\n  -- Loop starts here\n  -- Loop starts here\n",
              "t.smv:5: two loop markers");
    /* with its state, a lasso */
    ex_smv_cex *c;
    size_t n;
    char err[512];
    ck_assert_int_eq(smv_load(SPEC("G a") "    a = TRUE\n  -- Loop starts here\n"
                                          "  -> State: 1.2 <-\n    a = FALSE\n",
                              &c, &n, err, sizeof err),
                     0);
    ck_assert_int_eq(c[0].trace.loop_start, 1);
    ex_nusmv_free(c, n);
}
END_TEST

START_TEST(nusmv_bytes_and_headers)
{
    static const char nul[] = SPEC("G a") "    a = TR\0UE\n";
    FILE *f = fmemopen((void *)nul, sizeof nul - 1, "r");
    ex_smv_cex *c;
    size_t n;
    char err[512] = "";
    ck_assert_int_eq(ex_nusmv_load(f, "t.smv", &c, &n, err, sizeof err), -1);
    fclose(f);
    ck_assert_msg(strstr(err, "t.smv:3: contains a NUL byte"), "%s", err);
    smv_fails("-- specification G a  is false\n  -> State: 1.x <-\n", "t.smv:2: malformed state");
    smv_fails("-- specification G a  is false\n  -> State: 1.1 <- junk\n", "t.smv:2: malformed");
    smv_fails("-- specification G a  is false\n  -> State: 99999999999999999999.1 <-\n",
              "t.smv:2: malformed");
}
END_TEST

/* A million distinct enum symbols (the size) read in linear time: one
 * hash lookup each.  Quadratic lookup took hours here. */
START_TEST(nusmv_many_symbols_linear)
{
    enum { N = 1000000 };
    char *text = malloc((size_t)N * 48 + 64);
    ck_assert_ptr_nonnull(text);
    size_t len = (size_t)sprintf(text, "-- specification G (v != s0)  is false\n");
    for (int i = 1; i <= N; i++)
        len += (size_t)sprintf(text + len, "-> State: 1.%d <-\nv = s%d\n", i, N - i);
    double t0 = u_seconds();
    ex_smv_cex *c;
    size_t n;
    char err[512];
    ck_assert_int_eq(smv_load(text, &c, &n, err, sizeof err), 0);
    double secs = u_seconds() - t0;
    ck_assert_uint_eq(c[0].trace.nsyms, N);
    ck_assert_uint_eq(c[0].trace.nsteps, N);
    ck_assert_msg(secs < 10, "%d symbols took %.1f s", N, secs);
    ex_nusmv_free(c, n);
    free(text);
}
END_TEST

/* An endless trace, as a stream: the reader runs out of memory under an address
 * space limit and says so (it used to abort).  In a child process, so the limit
 * stays there; not under AddressSanitizer, which reserves terabytes of address
 * space up front. */
typedef struct {
    long state;
    char buf[4096];
    size_t len, off;
} endless;

static ssize_t endless_read(void *cookie, char *out, size_t size)
{
    endless *e = cookie;
    if (e->off == e->len) {
        e->off = 0;
        if (e->state++ == 0) {
            e->len = (size_t)sprintf(e->buf, "-- specification G (v0 >= 0)  is false\n"
                                             "-> State: 1.1 <-\n");
            for (int v = 0; v < 100; v++)
                e->len += (size_t)sprintf(e->buf + e->len, "v%d = 0\n", v);
        } else {
            e->len = (size_t)sprintf(e->buf, "-> State: 1.%ld <-\nv%ld = %ld\n", e->state,
                                     e->state % 100, e->state % 1000);
        }
    }
    size_t k = e->len - e->off < size ? e->len - e->off : size;
    memcpy(out, e->buf + e->off, k);
    e->off += k;
    return (ssize_t)k;
}

START_TEST(nusmv_out_of_memory_is_a_message)
{
#if defined(__SANITIZE_ADDRESS__)
    return;
#endif
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fd[0]);
        long pages = 0;
        FILE *st = fopen("/proc/self/statm", "r");
        if (!st || fscanf(st, "%ld", &pages) != 1)
            _exit(2);
        fclose(st);
        rlim_t lim = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)256 << 20);
        struct rlimit rl = {lim, lim};
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(2);
        endless e = {0};
        FILE *f = fopencookie(&e, "r", (cookie_io_functions_t){.read = endless_read});
        ex_smv_cex *c;
        size_t n;
        char err[512] = "";
        int rc = f ? ex_nusmv_load(f, "endless.smv", &c, &n, err, sizeof err) : 0;
        if (write(fd[1], err, strlen(err) + 1) < 0)
            _exit(2);
        _exit(rc == -1 ? 0 : 1);
    }
    close(fd[1]);
    char msg[512] = "";
    ssize_t got = read(fd[0], msg, sizeof msg - 1);
    close(fd[0]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d, message '%s'", status,
                  msg);
    ck_assert_int_gt(got, 0);
    ck_assert_msg(strstr(msg, "endless.smv:") && strstr(msg, "out of memory"), "%s", msg);
}
END_TEST

/* ---- the LTL parser -------------------------------------------------------- */

static char *repeat(const char *pre, int n, const char *mid, const char *post, int m)
{
    size_t lp = strlen(pre), lq = strlen(post);
    char *s = malloc((size_t)n * lp + strlen(mid) + (size_t)m * lq + 1), *p = s;
    ck_assert_ptr_nonnull(s);
    for (int i = 0; i < n; i++, p += lp)
        memcpy(p, pre, lp);
    p = stpcpy(p, mid);
    for (int i = 0; i < m; i++, p += lq)
        memcpy(p, post, lq);
    *p = 0;
    return s;
}

static void parse_fails(const char *text, int dialect, const char *want)
{
    ex_ltl l;
    ex_ltl_init(&l);
    char err[256] = "";
    ck_assert_int_eq(ex_ltl_parse(&l, text, dialect, err, sizeof err), -1);
    ck_assert_msg(strstr(err, want), "error '%s' lacks '%s'", err, want);
    ex_ltl_free(&l);
}

static void deep_fails(char *text, int dialect)
{
    parse_fails(text, dialect, "formula nested deeper than 1000");
    free(text);
}

START_TEST(ltl_nesting_is_limited)
{
    for (int d = 0; d < 2; d++) {
        deep_fails(repeat("(", 30000, "p", ")", 30000), d);
        deep_fails(repeat("X ", 200000, "p", "", 0), d);
        deep_fails(repeat("!", 200000, "p", "", 0), d);
        deep_fails(repeat(d ? "G " : "[] ", 200000, "p", "", 0), d);
        deep_fails(repeat(d ? "p & " : "p && ", 200000, "p", "", 0), d);
        deep_fails(repeat("p U ", 200000, "p", "", 0), d);
        deep_fails(repeat(d ? "p -> " : "p <-> ", 200000, "p", "", 0), d);
        deep_fails(repeat("1 + ", 200000, "1 > x", "", 0), d);
        deep_fails(repeat("-", 200000, "x > 0", "", 0), d);
        deep_fails(repeat("x > (", 30000, "1", ")", 30000), d);
    }
    deep_fails(repeat("a[", 30000, "1", "]", 30000), EX_DIALECT_SPIN);
    deep_fails(repeat("X ", 1000, "p", "", 0), EX_DIALECT_SPIN);
    /* the column says where */
    char *s = repeat("(", 2000, "p", ")", 2000);
    parse_fails(s, EX_DIALECT_SPIN, "column 1002: formula nested deeper than 1000");
    free(s);
}
END_TEST

/* Formulas just within the limit go through every pass (normal forms,
 * binding, Algorithm 6, exact mode) without exhausting the stack, also under
 * AddressSanitizer's larger frames. */
START_TEST(ltl_within_the_limit_is_explained)
{
    ex_trace t;
    ex_trace_init(&t);
    ex_trace_add_step(&t);
    ex_trace_set(&t, ex_trace_var(&t, "p"), 0);
    ex_trace_set(&t, ex_trace_var(&t, "q"), 0);
    ex_trace_set(&t, ex_trace_var(&t, "x"), 0);
    ex_options o;
    ex_options_default(&o);
    o.exact = 1;
    o.exact_budget = 100;
    o.max_nba_states = 100;
    char *f[] = {
        repeat("(", 998, "p U q", ")", 998),   repeat("X ", 999, "p", "", 0),
        repeat("!", 999, "p", "", 0),          repeat("p && ", 998, "q", "", 0),
        repeat("(p <-> ", 998, "q", ")", 998), repeat("p W (", 499, "q", ")", 499),
        repeat("1 + ", 998, "1 > x", "", 0),   repeat("-", 998, "x < 1", "", 0),
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        ex_explanation e;
        char err[1024];
        ck_assert_msg(ex_explain(&t, f[i], EX_DIALECT_SPIN, &o, &e, err, sizeof err) == 0,
                      "formula %zu: %s", i, err);
        ex_explanation_free(&e);
        free(f[i]);
    }
    ex_trace_free(&t);
}
END_TEST

START_TEST(ltl_never_reads_past_the_end)
{
    /* the fuzzer's two: a failed inner parse at '(' stepped past the end */
    parse_fails("(~~~(((((((((~(~(~(~~", EX_DIALECT_SPIN, "end of formula");
    parse_fails("p -(", EX_DIALECT_SPIN, "end of formula");
    parse_fails("p -(", EX_DIALECT_SMV, "end of formula");
    /* every prefix of long formulas: an error or a formula, never a stray read
     * (AddressSanitizer checks under make SAN=1) */
    const char *spin = "([] (x + (y * 2)) U (len(c) > arr[1+1])) -> <> !(P[0]:z == -(~3)) V s.f";
    const char *smv =
        "G ((x + (y * 2)) = 0ud8_3 -> F (st != idle xor X p)) <-> (q V (r mod 4 = 1))";
    for (int d = 0; d < 2; d++) {
        const char *full = d ? smv : spin;
        for (size_t n = 0; n <= strlen(full); n++) {
            char *pre = strndup(full, n);
            ex_ltl l;
            ex_ltl_init(&l);
            char err[256] = "";
            int f = ex_ltl_parse(&l, pre, d ? EX_DIALECT_SMV : EX_DIALECT_SPIN, err, sizeof err);
            ck_assert_msg(f >= 0 || strstr(err, "column"), "prefix '%s': '%s'", pre, err);
            ex_ltl_free(&l);
            free(pre);
        }
    }
    parse_fails("p \x01", EX_DIALECT_SPIN, "unexpected byte 0x01");
}
END_TEST

/* Nested parentheses around a formula are read as an expression once, not
 * once per level (that was cubic here: 900 groups nested 900 deep took 15 s;
 * now 0.2 s, 1.2 s under AddressSanitizer). */
START_TEST(ltl_parse_is_linear)
{
    enum { G = 900 };
    char *group = repeat("(", G, "p U q", ")", G);
    size_t gl = strlen(group);
    char *f = malloc(G * (gl + 4) + 1), *p = f;
    for (int i = 0; i < G; i++) {
        if (i)
            p = stpcpy(p, " && ");
        p = stpcpy(p, group);
    }
    double t0 = u_seconds();
    ex_ltl l;
    ex_ltl_init(&l);
    char err[256];
    ck_assert_msg(ex_ltl_parse(&l, f, EX_DIALECT_SPIN, err, sizeof err) >= 0, "%s", err);
    double secs = u_seconds() - t0;
    ck_assert_msg(secs < 4, "%zu characters took %.2f s", strlen(f), secs);
    ex_ltl_free(&l);
    free(group);
    free(f);
}
END_TEST

/* ---- SPIN's output and trails --------------------------------------------- */

START_TEST(trail_lines_are_checked)
{
    long steps, line;
    char err[256] = "";
    const char *ok = "-2:2:-2\n-4:-4:-4\n1:0:14\n2:1:4\n-1:-1:-1\n3:0:14\r\n";
    ck_assert_int_eq(ex_trail_read(ok, "m.trail", 2, &steps, &line, err, sizeof err), 0);
    ck_assert_int_eq(steps, 3);
    ck_assert_int_eq(line, 6);
    ck_assert_int_eq(ex_trail_read("", "m.trail", 0, &steps, &line, err, sizeof err), 0);
    ck_assert_int_eq(steps, 0);
    ck_assert_int_eq(line, 0);
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"1:0:14\nhello\n", "m.trail:2: not a trail line: 'hello'"},
        {"1:0\n", "m.trail:1:"},
        {"1:0:14:3\n", "m.trail:1:"},
        {"1:0:99999999999\n", "m.trail:1:"},
        {"1::14\n", "m.trail:1:"},
        {"\n", "m.trail:1:"},
        {"1:0:14\n\n2:0:1\n", "m.trail:2:"},
        {"-:0:1\n", "m.trail:1:"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(ex_trail_read(bad[i].text, "m.trail", 0, &steps, &line, err, sizeof err),
                         -1);
        ck_assert_msg(strstr(err, bad[i].want), "'%s': '%s'", bad[i].text, err);
    }
}
END_TEST

/* Names of any length are kept whole (they were cut at 510 bytes, so two long
 * names could become one), and a number too large to tell from a symbol's code
 * stays text. */
START_TEST(spin_values_of_any_size)
{
    char *a = repeat("a", 2000, "1", "", 0), *b = repeat("a", 2000, "2", "", 0);
    char *replay = malloc(5000);
    sprintf(replay,
            "  1:\tproc  0 (P:1) m.pml:1 (state 1)\t[x = 1]\n\t\t%s = 1\n\t\t%s = 2\n"
            "\t\tbig = 9007199254740993\n",
            a, b);
    FILE *r = fmemopen(replay, strlen(replay), "r");
    ex_trace t;
    ex_trace_init(&t);
    ex_spin_info info;
    ck_assert_int_eq(ex_spin_parse(NULL, r, NULL, 0, &t, &info), 0);
    fclose(r);
    ck_assert_int_ge(ex_trace_find(&t, a), 0);
    ck_assert_int_ge(ex_trace_find(&t, b), 0);
    ck_assert_int_ne(ex_trace_find(&t, a), ex_trace_find(&t, b));
    int big = ex_trace_find(&t, "big");
    ck_assert_int_ge(big, 0);
    char text[64];
    ex_trace_value_text(&t, big, t.nsteps - 1, text, sizeof text);
    ck_assert_str_eq(text, "9007199254740993");
    ex_spin_info_free(&info);
    ex_trace_free(&t);
    free(a);
    free(b);
    free(replay);
}
END_TEST

/* Many ltl blocks and nested-looking mtype declarations: one pass each. */
START_TEST(spin_meta_linear)
{
    enum { N = 200000 };
    char *out = malloc((size_t)N * 32 + 1), *p = out;
    for (int i = 0; i < N; i++)
        p += sprintf(p, "ltl f%d: [] (x < %d)\n", i, i);
    FILE *r = fmemopen(out, (size_t)(p - out), "r");
    ex_trace t;
    ex_trace_init(&t);
    ex_spin_info info;
    double t0 = u_seconds();
    ck_assert_int_eq(ex_spin_parse(NULL, r, NULL, 0, &t, &info), 0);
    fclose(r);
    ck_assert_uint_eq(info.nltl, N);
    ck_assert_str_eq(info.ltl_texts[N - 1], "[] (x < 199999)");
    ex_spin_info_free(&info);
    char *model = repeat("mtype = { a", N, "", " }", 1);
    ck_assert_int_eq(ex_spin_mtypes(model, &t), 0);
    ck_assert_int_ge(ex_trace_find_sym(&t, "a"), 0);
    double secs = u_seconds() - t0;
    ck_assert_msg(secs < 5, "took %.1f s", secs);
    ex_trace_free(&t);
    free(model);
    free(out);
}
END_TEST

/* The replay's rules of the eighth probe, on spin 6.5.2's text: a struct-typed local
 * printed with the pid plus one (a never claim's slot) is named by the process it is
 * printed under (P8-6); a rendezvous's send and receive are one position, numbered by
 * the receive (P8-3); a process's locals are undefined from its termination until a new
 * process with its pid prints them (P8-1). */
START_TEST(spin_positions_ends_and_struct_names)
{
    static const char replay[] = "  2:\tproc  1 (P:1) m.pml:3 (state 1)\t[s.f = 4]\n"
                                 "\t\tP(1):y = 5\n\t\tP(2):s.f = 4\n"
                                 "  4:\tproc  1 (P:1) m.pml:3 Sent 4\t-> queue 1 (c)\n"
                                 "  4:\tproc  1 (P:1) m.pml:3 (state 2)\t[c!4]\n"
                                 "\t\tP(1):y = 5\n\t\tP(2):s.f = 4\n"
                                 "  5:\tproc  0 (Q:1) m.pml:5 (state 1)\t[c?v]\n"
                                 "\t\tQ(0):v = 4\n"
                                 "  7: proc 1 terminates\n"
                                 "  9:\tproc  0 (Q:1) m.pml:5 (state 2)\t[v = 0]\n"
                                 "\t\tQ(0):v = 0\n"
                                 "spin: trail ends after 10 steps\n";
    FILE *r = fmemopen((char *)replay, strlen(replay), "r");
    ex_trace t;
    ex_trace_init(&t);
    ex_spin_info info;
    ck_assert_int_eq(ex_spin_parse(NULL, r, NULL, 0, &t, &info), 0);
    fclose(r);
    /* s.f = 4, the handshake, the end, v = 0 (no initial dump: no state before them) */
    ck_assert_uint_eq(t.nsteps, 4);
    int sf = ex_trace_find(&t, "P[1]:s.f"), y = ex_trace_find(&t, "P[1]:y");
    int v = ex_trace_find(&t, "Q[0]:v");
    ck_assert_int_ge(sf, 0);
    ck_assert_int_ge(y, 0);
    ck_assert_int_ge(v, 0);
    ck_assert_int_lt(ex_trace_find(&t, "P[2]:s.f"), 0);
    ck_assert_int_eq(t.vars[v].v[1], 4); /* the receive's value is the handshake's */
    char text[32];
    const char *want_y[] = {"5", "5", "-", "-"};
    for (size_t i = 0; i < t.nsteps; i++) {
        ex_trace_value_text(&t, y, i, text, sizeof text);
        ck_assert_str_eq(text, want_y[i]);
        ck_assert_int_eq(ex_trace_defined(&t, sf, i), i < 2);
    }
    ck_assert_int_eq(t.vars[sf].v[2], 0); /* an ended process's slot reads 0, as in pan */
    long *nums;
    size_t n;
    ck_assert_int_eq(ex_spin_positions(replay, &nums, &n), 0);
    ck_assert_uint_eq(n, t.nsteps);
    ck_assert_int_eq(nums[0], 2);
    ck_assert_int_eq(nums[1], 5);
    ck_assert_int_eq(nums[2], 7);
    free(nums);
    ex_spin_info_free(&info);
    ex_trace_free(&t);
}
END_TEST

/* mtype names compute with SPIN's numbers (P8-10): each declaration from its last name,
 * after the same mtype's earlier declarations; an `mtype:m` from 1 on its own. */
START_TEST(spin_mtype_numbers)
{
    ex_trace t;
    ex_trace_init(&t);
    ck_assert_int_eq(ex_spin_mtypes("mtype = { red, green, blue };\nmtype:f = { apple, pear };\n"
                                    "mtype = {cyan,magenta}\nmtype:f = { plum }",
                                    &t),
                     0);
    const char *names[] = {"red", "green", "blue", "cyan", "magenta", "apple", "pear", "plum"};
    const int64_t want[] = {3, 2, 1, 5, 4, 2, 1, 3};
    for (int i = 0; i < 8; i++) {
        int64_t code = ex_trace_find_sym(&t, names[i]);
        ck_assert_int_ge(code, EX_SYM_BASE);
        ck_assert_int_eq(ex_trace_eval_value(&t, code), want[i]);
    }
    ck_assert_int_eq(ex_trace_eval_value(&t, 7), 7);
    ex_trace_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("inputs");
    TCase *tc = tcase_create("inputs");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, nusmv_value_cut_mid_word);
    tcase_add_test(tc, nusmv_unknown_variable);
    tcase_add_test(tc, nusmv_loop_without_state);
    tcase_add_test(tc, nusmv_bytes_and_headers);
    tcase_add_test(tc, nusmv_many_symbols_linear);
    tcase_add_test(tc, nusmv_out_of_memory_is_a_message);
    tcase_add_test(tc, ltl_nesting_is_limited);
    tcase_add_test(tc, ltl_within_the_limit_is_explained);
    tcase_add_test(tc, ltl_never_reads_past_the_end);
    tcase_add_test(tc, ltl_parse_is_linear);
    tcase_add_test(tc, trail_lines_are_checked);
    tcase_add_test(tc, spin_values_of_any_size);
    tcase_add_test(tc, spin_meta_linear);
    tcase_add_test(tc, spin_positions_ends_and_struct_names);
    tcase_add_test(tc, spin_mtype_numbers);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
