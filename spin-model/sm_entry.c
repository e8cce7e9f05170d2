/*
 * sm_entry.c - ./pan's entry point: stock pan, or causality checking with -C.
 *
 * pan reads its options by their first letter and already uses -C for columnated
 * trail replay.  That meaning is kept: `-C file`, and -C together with any replay
 * option (-r -g -S -P), go to stock pan unchanged.  `-C` alone starts causality
 * checking: the long options below are taken out, the options a causality search
 * cannot honour are refused, `-c0` is added (report every error, write no trail,
 * never stop early) and the instrumented pan runs.
 */
#include "spinmodel.h"
#include "report.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const HELP_HEAD =
    "usage: ./pan -C [pan options] [--json FILE] [--no-ac2] [--trails DIR]\n"
    "              [--fault-tree FILE] [--html FILE] [--probabilities FILE]\n"
    "              [--budget N] [--exact-states] [--no-prune WHAT] [--one-thread]\n"
    "\n"
    "Causality checking: finds the causes of the hazard (the violation pan\n"
    "reports: a failing assert, a violated never claim / ltl formula, an invalid\n"
    "end state) and prints them as event order logic formulas after pan's usual\n"
    "statistics.  Events are the transitions of labelled statements\n"
    "(`Gf: gate_failed = true`); end*, progress*, accept* labels are not events.\n"
    "\n"
    "  --no-ac2      skip the AC2(2) test: no causal non-occurrence of events\n"
    "                (faster, less memory; the paper's CC1)\n";

static const char *const HELP_TAIL =
    "  --probabilities FILE  basic-event probabilities, `event p` per line (#\n"
    "                comments): into the fault tree and the reports, which\n"
    "                compute the hazard's probability from the minimal cut sets\n"
    "  --budget N    stop each history search after N nodes and report the result\n"
    "                as incomplete (default: 5000000 or 4 per recorded state,\n"
    "                whichever is more; 0 = no limit)\n"
    "  --exact-states  identify recorded states by their full state vector instead\n"
    "                of a 96-bit fingerprint (more memory; no collision risk)\n"
    "  --no-prune WHAT  switch a pruning of the analysis off, to check that it\n"
    "                keeps the causes: superset, dominance, merge, rows, or all\n"
    "                (repeatable; unpruned searches may need a larger --budget)\n"
    "  --one-thread  the analysis on one core: by default a second thread builds\n"
    "                each cause's orders automaton while the first runs the\n"
    "                AC2(2) pass of the one before (same results either way)\n"
    "  --help        this text\n"
    "\n"
    "pan options that still apply: -mN (depth limit), -wN (hash table), -E (invalid\n"
    "end states are no hazard), -A (ignore asserts), -N name (choose an ltl claim).\n"
    "Not with -C: -a -l -f (cycle searches), -i -I (shortest trail), -e -cN -x\n"
    "(trail writing), -r -g -S -P (replay; -C file replays a trail columnated as in\n"
    "stock pan).\n"
    "Build: `spin -a model.pml && make pan` (DFS) or `make pan BFS=1` (BFS).\n";

static int check_option(const char *a);

static const char *const HELP_NEAREST =
    "\n"
    "usage: ./pan -C --nearest TRAIL [pan options] [--json FILE] [--html FILE]\n"
    "              [--good-trail FILE] [--weights WP,WA[,WC]] [--budget N]\n"
    "              [--memlim MB] [--run-to-end] [--assume EXPR]...\n"
    "\n"
    "The closest successful execution to the counterexample TRAIL (a trail of\n"
    "stock pan or of --trails): the run that never violates and ends settled or\n"
    "in a valid end state with the least alignment distance to it (Groce), its\n"
    "differences and their slice; where no such run exists, the nearest lasso\n"
    "(a stem and a loop back into it) that never violates.  It needs every\n"
    "interleaving: build this pan with 'make pan POR=0'.\n"
    "  --json FILE   the result as JSON     --html FILE  as an HTML page\n"
    "  --good-trail FILE  the successful run as a SPIN trail (spin -t -k FILE)\n"
    "  --weights WP,WA[,WC]  integer weights of differing values, actions and\n"
    "                unaligned steps (default 1,1 and WC = variables + 2)\n"
    "  --budget N    search nodes before the result is reported as not exact\n"
    "                (default 50 per recorded state, at least 5e7; 0 = none)\n"
    "  --memlim MB   the search's memory before it stops, not exact, with its\n"
    "                best run (default 3/4 of the memory available; 0 = none)\n"
    "  --run-to-end  b may not stop at a merely settled state: it runs to a valid\n"
    "                end state, or for ever (a lasso) where none can be reached\n"
    "  --assume EXPR every state of b satisfies EXPR, a condition over the\n"
    "                model's variables (x, a[2], P[pid]:x, len(q); ! && || ->);\n"
    "                repeatable: all must hold\n"
    "./pan -C --nearest-graph FILE [pan options]: the recorded graph with every\n"
    "state's values as text (nearest/nr_graph.c), for pancause temporal.\n";

static void help(void)
{
    fputs(HELP_HEAD, stdout);
    rp_help(stdout);
    fputs(HELP_TAIL, stdout);
    fputs(HELP_NEAREST, stdout);
}

/* --weights WP,WA[,WC]: non-negative integers (nr_parse_weights, fuzzed by
 * fuzz/fz_weights.c). */
static int weights_option(nr_options *o, const char *v)
{
    if (nr_parse_weights(v, &o->wp, &o->wa, &o->wc)) {
        fprintf(stderr, "pan: --weights needs WP,WA or WP,WA,WC: integers >= 0 (./pan -C "
                        "--help)\n");
        return 2;
    }
    return 0;
}

/* The options of -C --nearest; 0, 2 on a bad one, -1 when a is none of them. */
static int nearest_option(smh_config *cfg, const char *a, const char *val, int *used)
{
    nr_options *o = &cfg->nearest;
    const char **path = !strcmp(a, "--nearest")         ? &o->trail
                        : !strcmp(a, "--nearest-graph") ? &o->graph
                        : !strcmp(a, "--json")          ? &o->json
                        : !strcmp(a, "--html")          ? &o->html
                        : !strcmp(a, "--good-trail")    ? &o->good_trail
                        : !strcmp(a, "--model-name")    ? &o->model_name
                                                        : NULL;
    *used = 1;
    if (path) {
        if (!val) {
            fprintf(stderr, "pan: %s needs a file name (./pan -C --help)\n", a);
            return 2;
        }
        *path = val;
        return 0;
    }
    if (!strcmp(a, "--weights"))
        return weights_option(o, val);
    if (!strcmp(a, "--budget") && nr_parse_amount(val, NR_BUDGET_MAX, &o->budget)) {
        fprintf(stderr, "pan: --budget needs a number of search nodes, 0 .. %g\n", NR_BUDGET_MAX);
        return 2;
    }
    if (!strcmp(a, "--memlim") && nr_parse_amount(val, NR_MEMLIM_MAX, &o->memlim)) {
        fprintf(stderr, "pan: --memlim needs a number of megabytes, 0 .. %g\n", NR_MEMLIM_MAX);
        return 2;
    }
    if (!strcmp(a, "--budget") || !strcmp(a, "--memlim"))
        return 0;
    if (!strcmp(a, "--assume")) {
        u_err err = {{0}};
        if (nr_assume_add(o->assume, &o->nassume, val, &err)) {
            fprintf(stderr, "pan: %s\n", err.msg);
            return 2;
        }
        return 0;
    }
    if (!strcmp(a, "--run-to-end")) {
        o->run_to_end = true;
        *used = 0;
        return 0;
    }
    if (!strcmp(a, "--trail-not-kept")) { /* pancause nearest's own (nr_cli.c) */
        o->trail_not_kept = true;
        *used = 0;
        return 0;
    }
    if (!strcmp(a, "--exact-states")) {
        cfg->exact = 1;
        *used = 0;
        return 0;
    }
    *used = 0;
    return -1;
}

static bool nearest_requested(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--nearest") || !strcmp(argv[i], "--nearest-graph"))
            return true;
    return false;
}

/* The command line of ./pan -C --nearest: its own options, pan's as with -C. */
static int nearest_args(smh_config *cfg, int argc, char **argv, char **av, int *n)
{
    cfg->nearest_on = 1;
    cfg->nearest = (nr_options){
        .wp = 1, .wa = 1, .wc = -1, .budget = -1, .memlim = -1, .unicode = cfg->color != 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-C"))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help();
            return 3;
        }
        int used, rc = strncmp(a, "--", 2)
                           ? -1
                           : nearest_option(cfg, a, i + 1 < argc ? argv[i + 1] : NULL, &used);
        if (rc > 0)
            return rc;
        if (rc == 0) {
            i += used;
            continue;
        }
        if (!strncmp(a, "--", 2)) {
            fprintf(stderr, "pan: %s is no option of -C --nearest (./pan -C --help)\n", a);
            return 2;
        }
        if (a[0] == '-' && (rc = check_option(a)))
            return rc;
        av[(*n)++] = argv[i];
    }
    u_err err = {{0}};
    if (nr_check_outputs(&cfg->nearest, &err)) {
        fprintf(stderr, "pan: %s\n", err.msg);
        return 2;
    }
    return 0;
}

static int noprune_option(smh_config *cfg, const char *what)
{
    static const struct {
        const char *name;
        unsigned bit;
    } P[] = {
        {"superset", CC_NOPRUNE_SUPERSET},
        {"dominance", CC_NOPRUNE_DOMINANCE},
        {"merge", CC_NOPRUNE_MERGE},
        {"rows", CC_NOPRUNE_ROWS},
        {"all", CC_NOPRUNE_SUPERSET | CC_NOPRUNE_DOMINANCE | CC_NOPRUNE_MERGE | CC_NOPRUNE_ROWS}};
    for (size_t k = 0; what && k < sizeof P / sizeof P[0]; k++)
        if (!strcmp(what, P[k].name)) {
            cfg->noprune |= P[k].bit;
            return 0;
        }
    fprintf(stderr, "pan: --no-prune needs one of superset, dominance, merge, rows, all (./pan -C "
                    "--help)\n");
    return 2;
}

static bool is_replay_flag(const char *a)
{
    return a[0] == '-' && strchr("rgSP", a[1]) && a[1];
}

/* -C alone, with no trail file after it and no replay option anywhere. */
static bool causality_requested(int argc, char **argv)
{
    bool c = false;
    for (int i = 1; i < argc; i++) {
        if (is_replay_flag(argv[i]))
            return false;
        if (!strcmp(argv[i], "-C")) {
            if (i + 1 < argc && argv[i + 1][0] != '-')
                return false; /* -C trailfile: columnated replay */
            c = true;
        }
    }
    return c;
}

static int refuse(const char *opt, const char *why)
{
    fprintf(stderr, "pan: %s cannot be used with -C: %s (./pan -C --help)\n", opt, why);
    return 2;
}

/* Checks one pan option for a causality run; 0 if it may pass through. */
static int check_option(const char *a)
{
    switch (a[1]) {
    case 'a':
    case 'l':
    case 'f':
        return refuse(a, "causality checking is a safety search");
    case 'i':
    case 'I':
        return refuse(a, "it shortens the search to one error");
    case 'e':
    case 'c':
    case 'x':
        return refuse(a, "pancause decides which errors to follow (trails: --trails DIR)");
    case 'w':
        /* pan's hash table has 2^N slots; from N = 63 on its size overflows and stock pan
         * crashes (a new user's probe, 2026-11-28); N > 40 cannot be allocated anyway */
        if (a[2] && atoi(a + 2) > 40)
            return refuse(a, "pan's hash table would have more than 2^40 slots (pan "
                             "crashes from -w63 on); -w40 is the most");
        return 0;
    default:
        return 0;
    }
}

/* The probabilities, read and checked once before the search (a typo should cost
 * no search time) and used by the report at the end. */
static rp_probs probs;

/* An output option of the writer table (report.h) with its path, checked now so
 * that a long search does not end in "cannot write".  0, 2 on a bad value, or -1
 * when `opt` is no writer's option. */
static int output_option(smh_config *cfg, const char *opt, const char *val)
{
    u_err err = {{0}};
    int row = rp_writer_for(opt, val ? val : "", &err);
    if (row == -1)
        return -1;
    if (!val) {
        fprintf(stderr, "pan: %s needs a %s (./pan -C --help)\n", opt,
                strcmp(opt, "--trails") ? "file name" : "directory");
        return 2;
    }
    if (row < 0) {
        fprintf(stderr, "pan: %s\n", err.msg);
        return 2;
    }
    cfg->out.path[row] = val;
    return 0;
}

static int probabilities_option(smh_config *cfg, const char *val)
{
    u_err err = {{0}};
    if (!val) {
        fprintf(stderr, "pan: --probabilities needs a file name (./pan -C --help)\n");
        return 2;
    }
    rp_prob_free(&probs);
    if (rp_prob_read(val, &probs, &err)) {
        fprintf(stderr, "pan: --probabilities %s\n", err.msg);
        return 2;
    }
    cfg->probs = &probs;
    return 0;
}

static bool utf8_terminal(void)
{
    const char *v[] = {getenv("LC_ALL"), getenv("LC_CTYPE"), getenv("LANG")};
    for (int i = 0; i < 3; i++)
        if (v[i] && *v[i])
            return strstr(v[i], "UTF-8") || strstr(v[i], "utf8") || strstr(v[i], "UTF8");
    return false;
}

/* No output of -C over the model, the counterexample, the probabilities or another
 * output (the eighth probe's P8-2 found --json MODEL.pml replacing the model in
 * pancause nearest; pan -C takes the same care).  0, or 2 with the message printed. */
static int distinct_outputs(const smh_config *cfg, const char *model, const char *probs)
{
    const nr_options *o = &cfg->nearest;
    const char *outs[sizeof cfg->out.path / sizeof cfg->out.path[0] + 4];
    int n = 0;
    for (size_t i = 0; i < rp_nwriters; i++)
        if (i != RP_TRAILS)
            outs[n++] = cfg->out.path[i];
    if (cfg->nearest_on) {
        outs[n++] = o->json;
        outs[n++] = o->html;
        outs[n++] = o->good_trail;
        outs[n++] = o->graph;
    }
    const char *ins[] = {model, probs, cfg->nearest_on ? o->trail : NULL};
    u_err err = {{0}};
    if (u_check_distinct(outs, n, ins, 3, &err)) {
        fprintf(stderr, "pan: %s\n", err.msg);
        return 2;
    }
    return 0;
}

int sm_main(int argc, char **argv, int (*stock_main)(int, char **),
            int (*causal_main)(int, char **), const char *refusal, const char *model)
{
    if (!causality_requested(argc, argv))
        return stock_main(argc, argv);
    if (refusal) {
        fprintf(stderr, "pan: -C: %s\n", refusal);
        return 2;
    }
    smh_config cfg = {.ac2 = 1, .color = utf8_terminal(), .start = u_seconds(), .budget = -1};
    char **av = calloc((size_t)argc + 2, sizeof *av);
    if (!av) {
        fprintf(stderr, "pan: out of memory\n");
        return 1;
    }
    int n = 0, rc = 0;
    const char *probs_path = NULL;
    av[n++] = argv[0];
    if (nearest_requested(argc, argv)) {
        rc = nearest_args(&cfg, argc, argv, av, &n);
        if (rc == 3) { /* --help */
            free(av);
            return 0;
        }
        argc = 0; /* the loop below has nothing left to read */
    }
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-C"))
            continue;
        int out;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help();
            free(av);
            return 0;
        } else if (!strcmp(a, "--no-ac2")) {
            cfg.ac2 = 0;
        } else if (!strncmp(a, "--", 2) &&
                   (out = output_option(&cfg, a, i + 1 < argc ? argv[i + 1] : NULL)) != -1) {
            rc = out;
            i++;
        } else if (!strcmp(a, "--probabilities")) {
            probs_path = i + 1 < argc ? argv[i + 1] : NULL;
            rc = probabilities_option(&cfg, i + 1 < argc ? argv[++i] : NULL);
        } else if (!strcmp(a, "--budget")) {
            char *end = NULL;
            cfg.budget = i + 1 < argc ? strtod(argv[i + 1], &end) : -1;
            if (!end || *end || cfg.budget < 0) {
                fprintf(stderr, "pan: --budget needs a number of history nodes >= 0 "
                                "(./pan -C --help)\n");
                rc = 2;
            }
            i++;
        } else if (!strcmp(a, "--exact-states")) {
            cfg.exact = 1;
        } else if (!strcmp(a, "--one-thread")) {
            cfg.one_thread = 1;
        } else if (!strcmp(a, "--no-prune")) {
            rc = noprune_option(&cfg, i + 1 < argc ? argv[++i] : NULL);
        } else if (!strncmp(a, "--", 2)) {
            fprintf(stderr, "pan: unknown option %s (./pan -C --help)\n", a);
            rc = 2;
        } else if (a[0] == '-') {
            rc = check_option(a);
            av[n++] = argv[i];
        } else {
            av[n++] = argv[i]; /* e.g. the argument of -N */
        }
    }

    if (!rc)
        rc = distinct_outputs(&cfg, model, probs_path);
    if (!rc) {
        av[n++] = "-c0";
        av[n] = NULL;
        smh_configure(&cfg);
        rc = causal_main(n, av);
    }
    free(av);
    return rc;
}
