/* ex_cli: the `pancause explain` command (cli/pancause_main.c dispatches to
 * ex_main).
 *
 * Reads the counterexample (SPIN model + trail, or a NuSMV output file),
 * explains each failed formula with ex_explain, and prints the table or
 * JSON, writing the HTML viewer on request.  Exit status: 0 explained,
 * 1 bad input, 2 bad usage, 3 nothing to explain (the formula holds or the
 * finite trace does not falsify it).
 */
#include "explain.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char ex_usage[] =
    "usage: pancause explain [options] MODEL.pml [--trail FILE] [--ltl NAME | --formula LTL]\n"
    "       pancause explain [options] --nusmv FILE\n"
    "\n"
    "Marks the causes of the first failure of an LTL formula on a counterexample\n"
    "with red dots (Beer et al., Explaining Counterexamples Using Causality).\n"
    "\n"
    "inputs:\n"
    "  MODEL.pml            SPIN model; its trail is replayed with spin -t\n"
    "  --trail FILE         the trail (default MODEL.pml.trail)\n"
    "  --ltl NAME           explain the model's ltl formula NAME (default: the\n"
    "                       only one, or the one the trail was made with)\n"
    "  --formula LTL        explain this formula (SPIN syntax: [] <> X U W V ! && || -> <->)\n"
    "  --nusmv FILE         NuSMV/nuXmv output: every false LTL specification\n"
    "  --spin PATH          spin executable (default: $SPIN or spin)\n"
    "output:\n"
    "  --json               JSON, one object per explanation per line\n"
    "  --html FILE          write a self-contained waveform viewer\n"
    "  --all-vars           show every variable, not only the formula's\n"
    "method (explain/README.md, Method):\n"
    "  (default)            every cause gets a dot: the candidates, minus those a\n"
    "                       short search proves are not causes\n"
    "  --exact              decide Definition 4 for every dot and show the verdict\n"
    "  --exact-budget N     search steps for --exact (default 10000000)\n"
    "  --refine-budget N    search steps the default mode spends (default 200000)\n"
    "  --algorithm6         the paper's Algorithm 6 instead (linear, not sound)\n"
    "  --nba-states N       automaton size limit for Definition 2 (default 20000)\n"
    "\n"
    "exit status: 0 explained, 1 bad input, 2 bad usage, 3 nothing to explain\n";

typedef struct {
    const char *model, *trail, *ltl, *formula, *nusmv, *html, *spin;
    char *spin_default; /* u_spin()'s, freed by ex_main */
    int json, all_vars;
    ex_options opt;
} ex_cli;

static int ex_usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "pancause explain: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see pancause explain --help)\n");
    return 2;
}

static int ex_number(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v <= 0)
        return -1;
    *out = v;
    return 0;
}

static int ex_parse_args(int argc, char **argv, ex_cli *c)
{
    memset(c, 0, sizeof *c);
    ex_options_default(&c->opt);
    c->spin = c->spin_default = u_spin(); /* $SPIN or spin, as every command's */
    if (!c->spin)
        return ex_usage_error("%s", "out of memory");
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        long n;
        if (!strcmp(a, "--json"))
            c->json = 1;
        else if (!strcmp(a, "--all-vars"))
            c->all_vars = 1;
        else if (!strcmp(a, "--exact"))
            c->opt.exact = 1;
        else if (!strcmp(a, "--algorithm6"))
            c->opt.algorithm6 = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(ex_usage, stdout);
            exit(0);
        } else if (!strcmp(a, "--trail"))
            slot = &c->trail;
        else if (!strcmp(a, "--ltl"))
            slot = &c->ltl;
        else if (!strcmp(a, "--formula"))
            slot = &c->formula;
        else if (!strcmp(a, "--nusmv"))
            slot = &c->nusmv;
        else if (!strcmp(a, "--html"))
            slot = &c->html;
        else if (!strcmp(a, "--spin"))
            slot = &c->spin;
        else if (!strcmp(a, "--exact-budget") || !strcmp(a, "--nba-states") ||
                 !strcmp(a, "--refine-budget")) {
            if (i + 1 >= argc || ex_number(argv[i + 1], &n) != 0)
                return ex_usage_error("%s needs a positive number", a);
            if (a[2] == 'e')
                c->opt.exact_budget = n;
            else if (a[2] == 'r')
                c->opt.refine_budget = n;
            else
                c->opt.max_nba_states = n > 1000000 ? 1000000 : (int)n;
            i++;
        } else if (a[0] == '-' && a[1])
            return ex_usage_error("unknown option %s", a);
        else if (c->model)
            return ex_usage_error("more than one model given (%s)", a);
        else
            c->model = a;
        if (slot) {
            if (i + 1 >= argc)
                return ex_usage_error("%s needs an argument", a);
            *slot = argv[++i];
        }
    }
    if (!c->model == !c->nusmv)
        return ex_usage_error("%s", "give either a SPIN model or --nusmv FILE");
    if (c->ltl && c->formula)
        return ex_usage_error("%s", "--ltl and --formula exclude each other");
    if (c->nusmv && (c->trail || c->ltl || c->formula))
        return ex_usage_error("%s", "--trail, --ltl and --formula apply to SPIN models only");
    if (c->opt.exact && c->opt.algorithm6)
        return ex_usage_error("%s", "--exact and --algorithm6 exclude each other");
    return 0;
}

static void ex_print(const ex_cli *c, const ex_trace *t, const ex_explanation *e)
{
    if (c->json)
        ex_render_json(stdout, t, e);
    else if (ex_render_table(stdout, t, e, isatty(1) && !getenv("NO_COLOR"), c->all_vars))
        fputs("pancause explain: out of memory while printing the table\n", stderr);
}

/* Tells why there is nothing to explain; returns the exit status. */
static int ex_nothing(const char *where, const ex_explanation *e)
{
    if (e->result == EX_RESULT_HOLDS)
        fprintf(stderr,
                "pancause explain: %snothing to explain: the formula '%s' holds on this trace\n",
                where, e->formula);
    else
        fprintf(stderr,
                "pancause explain: %snothing to explain: this finite trace does not falsify '%s' "
                "(some continuation satisfies it; its value is unknown by Definition 2)\n",
                where, e->formula);
    return 3;
}

typedef struct {
    const ex_trace *const *t;
    const ex_explanation *const *e;
    size_t n;
    int all_vars;
} ex_page;

static int ex_put_html(FILE *f, const void *arg)
{
    const ex_page *p = arg;
    ex_render_html(f, p->t, p->e, p->n, p->all_vars);
    return 0;
}

/* Through u_write_file, as every output of the project: whole or not at all. */
static int ex_write_html(const char *path, const ex_trace *const *t, const ex_explanation *const *e,
                         size_t n, int all_vars)
{
    ex_page p = {t, e, n, all_vars};
    u_err err = {{0}};
    if (u_write_file(path, ex_put_html, &p, &err) == 0)
        return 0;
    fprintf(stderr, "pancause explain: %s\n", err.msg);
    return 1;
}

static int ex_run_spin(const ex_cli *c)
{
    ex_trace t;
    ex_trace_init(&t);
    char err[1024];
    char *formula = NULL;
    int rc = 0;
    if (ex_spin_load(c->spin, c->model, c->trail, c->ltl, &t, c->formula ? NULL : &formula, err,
                     sizeof err) != 0) {
        fprintf(stderr, "pancause explain: %s\n", err);
        ex_trace_free(&t);
        return 1;
    }
    ex_explanation e;
    if (ex_explain(&t, c->formula ? c->formula : formula, EX_DIALECT_SPIN, &c->opt, &e, err,
                   sizeof err) != 0) {
        fprintf(stderr, "pancause explain: %s%s\n", c->formula ? "--formula: " : "", err);
        rc = 1;
    } else if (e.result == EX_RESULT_HOLDS || e.result == EX_RESULT_UNKNOWN) {
        if (c->json)
            ex_render_json(stdout, &t, &e);
        rc = ex_nothing("", &e);
        ex_explanation_free(&e);
    } else {
        ex_print(c, &t, &e);
        const ex_trace *tp = &t;
        const ex_explanation *ep = &e;
        if (c->html)
            rc = ex_write_html(c->html, &tp, &ep, 1, c->all_vars);
        ex_explanation_free(&e);
    }
    free(formula);
    ex_trace_free(&t);
    return rc;
}

static int ex_run_nusmv(const ex_cli *c)
{
    FILE *in = fopen(c->nusmv, "r");
    if (!in) {
        fprintf(stderr, "pancause explain: cannot read %s: %s\n", c->nusmv, strerror(errno));
        return 1;
    }
    char err[1024];
    ex_smv_cex *cx;
    size_t n;
    int rc = ex_nusmv_load(in, c->nusmv, &cx, &n, err, sizeof err);
    fclose(in);
    if (rc != 0) {
        fprintf(stderr, "pancause explain: %s\n", err);
        return 1;
    }
    ex_explanation *ex = calloc(n + 1, sizeof *ex);
    const ex_trace **tp = calloc(n + 1, sizeof *tp);
    const ex_explanation **ep = calloc(n + 1, sizeof *ep);
    size_t shown = 0;
    int bad = 0;
    int oom = !ex || !tp || !ep;
    if (oom) {
        fprintf(stderr, "pancause explain: out of memory\n");
        bad = 1;
    }
    for (size_t i = 0; i < n && !oom; i++) {
        char where[512];
        snprintf(where, sizeof where, "%s:%d: ", c->nusmv, cx[i].line);
        if (cx[i].holds) {
            ex_explanation h = {.formula = cx[i].formula,
                                .result = EX_RESULT_HOLDS,
                                .first_failure = -1,
                                .first_shown = -1,
                                .loop_start = -1};
            if (c->json)
                ex_render_json(stdout, &cx[i].trace, &h);
            else
                fprintf(stderr, "pancause explain: %s'%s' is true (NuSMV): nothing to explain\n",
                        where, cx[i].formula);
            continue;
        }
        if (cx[i].skip) {
            ex_explanation s = {.formula = cx[i].formula,
                                .result = EX_RESULT_SKIPPED,
                                .first_failure = -1,
                                .first_shown = -1,
                                .loop_start = -1};
            snprintf(s.note, sizeof s.note, "%s", cx[i].skip);
            if (c->json)
                ex_render_json(stdout, &cx[i].trace, &s);
            fprintf(stderr, "pancause explain: %sskipping '%s': %s\n", where, cx[i].formula,
                    cx[i].skip);
            continue;
        }
        ex_explanation *e = &ex[shown];
        if (ex_explain(&cx[i].trace, cx[i].formula, EX_DIALECT_SMV, &c->opt, e, err, sizeof err) !=
            0) {
            fprintf(stderr, "pancause explain: %s%s\n", where, err);
            bad = 1;
            continue;
        }
        if (e->result == EX_RESULT_HOLDS || e->result == EX_RESULT_UNKNOWN) {
            /* a JSON record for every specification, so that line i of the
             * output belongs to the i-th one */
            if (c->json)
                ex_render_json(stdout, &cx[i].trace, e);
            ex_nothing(where, e);
            ex_explanation_free(e);
            continue;
        }
        ex_print(c, &cx[i].trace, e);
        tp[shown] = &cx[i].trace;
        ep[shown++] = e;
    }
    size_t nfalse = 0;
    for (size_t i = 0; i < n; i++)
        nfalse += !cx[i].holds;
    if (nfalse == 0 && !bad)
        fprintf(stderr, "pancause explain: %s: no false specification to explain\n", c->nusmv);
    if (c->html && shown && ex_write_html(c->html, tp, ep, shown, c->all_vars) != 0)
        bad = 1;
    for (size_t i = 0; i < shown; i++)
        ex_explanation_free(&ex[i]);
    free(ex);
    free(tp);
    free(ep);
    ex_nusmv_free(cx, n);
    return bad ? 1 : shown ? 0 : 3;
}

int ex_main(int argc, char **argv)
{
    ex_cli c;
    int rc = ex_parse_args(argc, argv, &c);
    u_err err = {{0}}; /* before spin's replay, which can be long */
    if (rc == 0 && c.html && u_check_output(c.html, &err)) {
        fprintf(stderr, "pancause explain: --html %s\n", err.msg);
        rc = 1;
    } else if (rc == 0)
        rc = c.model ? ex_run_spin(&c) : ex_run_nusmv(&c);
    free(c.spin_default);
    return rc;
}
