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
#include "causality.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const HELP =
    "usage: ./pan -C [pan options] [--json FILE] [--no-ac2] [--trails DIR]\n"
    "              [--fault-tree FILE] [--html FILE] [--probabilities FILE]\n"
    "              [--budget N] [--exact-states] [--no-prune WHAT]\n"
    "\n"
    "Causality checking: finds the causes of the hazard (the violation pan\n"
    "reports: a failing assert, a violated never claim / ltl formula, an invalid\n"
    "end state) and prints them as event order logic formulas after pan's usual\n"
    "statistics.  Events are the transitions of labelled statements\n"
    "(`Gf: gate_failed = true`); end*, progress*, accept* labels are not events.\n"
    "\n"
    "  --json FILE   also write the result as JSON to FILE\n"
    "  --no-ac2      skip the AC2(2) test: no causal non-occurrence of events\n"
    "                (faster, less memory; the paper's CC1)\n"
    "  --trails DIR  write a SPIN trail per cause into DIR: <model>N.trail (its\n"
    "                witness) and <model>N.good.trail (where a non-occurrence\n"
    "                prevents the hazard); replay: spin -k FILE -p model.pml\n"
    "  --fault-tree FILE  write the causes as a fault tree; FILE's extension says\n"
    "                how: .dot (Graphviz), .xml (Open-PSA MEF), .json\n"
    "  --html FILE   write a self-contained HTML report (causes, fault tree,\n"
    "                witness timelines, probabilities, statistics)\n"
    "  --probabilities FILE  basic-event probabilities, `event p` per line (#\n"
    "                comments): into the fault tree and the HTML report, which\n"
    "                computes the hazard's probability from the minimal cut sets\n"
    "  --budget N    stop each history search after N nodes and report the result\n"
    "                as incomplete (default: 5000000 or 4 per recorded state,\n"
    "                whichever is more; 0 = no limit)\n"
    "  --exact-states  identify recorded states by their full state vector instead\n"
    "                of a 96-bit fingerprint (more memory; no collision risk)\n"
    "  --no-prune WHAT  switch a pruning of the history search off, to check that\n"
    "                it keeps the causes: superset, dominance, merge, or all\n"
    "                (repeatable; unpruned searches may need a larger --budget)\n"
    "  --help        this text\n"
    "\n"
    "pan options that still apply: -mN (depth limit), -wN (hash table), -E (invalid\n"
    "end states are no hazard), -A (ignore asserts), -N name (choose an ltl claim).\n"
    "Not with -C: -a -l -f (cycle searches), -i -I (shortest trail), -e -cN -x\n"
    "(trail writing), -r -g -S -P (replay; -C file replays a trail columnated as in\n"
    "stock pan).\n"
    "Build: `spin -a model.pml && make pan` (DFS) or `make pan BFS=1` (BFS).\n";

static int noprune_option(smh_config *cfg, const char *what)
{
    static const struct {
        const char *name;
        unsigned bit;
    } P[] = {{"superset", CC_NOPRUNE_SUPERSET},
             {"dominance", CC_NOPRUNE_DOMINANCE},
             {"merge", CC_NOPRUNE_MERGE},
             {"all", CC_NOPRUNE_SUPERSET | CC_NOPRUNE_DOMINANCE | CC_NOPRUNE_MERGE}};
    for (size_t k = 0; what && k < sizeof P / sizeof P[0]; k++)
        if (!strcmp(what, P[k].name)) {
            cfg->noprune |= P[k].bit;
            return 0;
        }
    fprintf(stderr,
            "pan: --no-prune needs one of superset, dominance, merge, all (./pan -C --help)\n");
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
    default:
        return 0;
    }
}

/* The report options: each takes a value; file formats and the probability file
 * are checked here, before the search, so that a typo costs no search time. */
static int output_option(smh_config *cfg, const char *opt, const char *val)
{
    if (!val) {
        fprintf(stderr, "pan: %s needs a %s (./pan -C --help)\n", opt,
                strcmp(opt, "--trails") ? "file name" : "directory");
        return 2;
    }
    if (!strcmp(opt, "--trails")) {
        cfg->trails = val;
    } else if (!strcmp(opt, "--fault-tree")) {
        if (cc_ftree_format(val) < 0) {
            fprintf(stderr,
                    "pan: --fault-tree %s: unknown format; the extension says which: "
                    ".dot (Graphviz), .xml (Open-PSA MEF), .json\n",
                    val);
            return 2;
        }
        cfg->tree = val;
    } else if (!strcmp(opt, "--html")) {
        const char *dot = strrchr(val, '.');
        if (!dot || (strcmp(dot, ".html") && strcmp(dot, ".htm"))) {
            fprintf(stderr, "pan: --html %s: the report is HTML; name it FILE.html\n", val);
            return 2;
        }
        cfg->html = val;
    } else {
        cc_probs p;
        char *err = NULL;
        if (cc_prob_read(val, &p, &err)) {
            fprintf(stderr, "pan: --probabilities %s\n", err ? err : "out of memory");
            free(err);
            return 2;
        }
        cc_prob_free(&p);
        cfg->prob = val;
    }
    return 0;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static bool utf8_terminal(void)
{
    const char *v[] = {getenv("LC_ALL"), getenv("LC_CTYPE"), getenv("LANG")};
    for (int i = 0; i < 3; i++)
        if (v[i] && *v[i])
            return strstr(v[i], "UTF-8") || strstr(v[i], "utf8") || strstr(v[i], "UTF8");
    return false;
}

int sm_main(int argc, char **argv, int (*stock_main)(int, char **),
            int (*causal_main)(int, char **))
{
    if (!causality_requested(argc, argv))
        return stock_main(argc, argv);
    smh_config cfg = {.ac2 = 1, .color = utf8_terminal(), .start = now_seconds(), .budget = -1};
    char **av = calloc((size_t)argc + 2, sizeof *av);
    if (!av) {
        fprintf(stderr, "pan: out of memory\n");
        return 1;
    }
    int n = 0, rc = 0;
    av[n++] = argv[0];
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-C"))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(HELP, stdout);
            free(av);
            return 0;
        } else if (!strcmp(a, "--no-ac2")) {
            cfg.ac2 = 0;
        } else if (!strcmp(a, "--json")) {
            if (i + 1 == argc) {
                fprintf(stderr, "pan: --json needs a file name (./pan -C --help)\n");
                rc = 2;
            } else
                cfg.json = argv[++i];
        } else if (!strcmp(a, "--trails") || !strcmp(a, "--fault-tree") || !strcmp(a, "--html") ||
                   !strcmp(a, "--probabilities")) {
            rc = output_option(&cfg, a, i + 1 < argc ? argv[++i] : NULL);
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
    if (!rc && cfg.prob && !cfg.tree && !cfg.html) {
        fprintf(stderr, "pan: --probabilities needs --fault-tree or --html (./pan -C --help)\n");
        rc = 2;
    }
    if (!rc) {
        av[n++] = "-c0";
        av[n] = NULL;
        smh_configure(&cfg);
        rc = causal_main(n, av);
    }
    free(av);
    return rc;
}
