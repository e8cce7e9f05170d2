/*
 * nr_cli.c - `pancause nearest MODEL.pml`: the front end of the nearest search.
 *
 * The search itself runs inside pan (`./pan -C --nearest TRAIL`, spin-model/ and
 * nr_pan.c), because only pan's own code can read its state vectors.  This command
 * does what a user would otherwise type: in a scratch directory it copies the model,
 * runs `spin -a`, builds pan with the project's `make pan`, takes the trail (the one
 * given, MODEL.pml.trail beside the model, or else the one stock pan writes when run
 * there) and runs the nearest search with the output paths made absolute.  It exits
 * with that pan's status (2 for bad options, 1 when a step before it fails, with the
 * step's output) and removes the scratch directory unless --keep.
 */
#include "nr_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char USAGE[] =
    "usage: pancause nearest MODEL.pml [--trail FILE] [--json FILE] [--html FILE]\n"
    "                        [--good-trail FILE] [--weights WP,WA[,WC]] [--budget N]\n"
    "                        [--memlim MB] [--with-explain] [--with-causes] [--run-to-end]\n"
    "                        [--assume EXPR]... [--bfs] [--keep] [-- PAN OPTIONS]\n"
    "\n"
    "The closest successful execution to a counterexample of MODEL.pml (Groce's\n"
    "distance): the run that never violates and ends settled (no violation by silent\n"
    "moves) or in a valid end state, nearest to the counterexample under the\n"
    "alignment distance, the differences and their slice.  When the model has no\n"
    "such run, the nearest run that loops for ever without violating (a lasso:\n"
    "its stem and one pass of its loop; the good trail marks the loop as pan does).\n"
    "  --trail FILE  the counterexample (default MODEL.pml.trail beside the model;\n"
    "                without one, stock pan's own is made first)\n"
    "  --json FILE, --html FILE, --good-trail FILE  outputs (the good run as a trail)\n"
    "  --weights WP,WA[,WC]  weights (default 1,1 and WC = variables + 2)\n"
    "  --budget N    search nodes before the result is marked not exact\n"
    "  --memlim MB   the search's memory before it stops, not exact, with its best\n"
    "                run (default 3/4 of the memory available; 0 = none)\n"
    "  --run-to-end  b runs to a valid end state (or for ever, a lasso, where none\n"
    "                is reachable) instead of stopping once it is settled\n"
    "  --assume EXPR  every state of b satisfies EXPR, a condition over the\n"
    "                model's variables (x, a[2], P[pid]:x, len(q); ! && || ->);\n"
    "                repeatable: all must hold\n"
    "  --with-explain  on the --html page, pancause explain's red dots for the\n"
    "                trail's ltl formula on a's steps\n"
    "  --with-causes   on the --html page, the causes ./pan -C finds (labelled\n"
    "                statements), their events on a's steps\n"
    "  --bfs         build pan's breadth-first search (make pan BFS=1)\n"
    "  --keep        keep the scratch directory (its path is printed)\n"
    "  -- ...        options for pan (-mN, -E, -A, -N name, ...)\n";

typedef struct {
    const char *model, *trail, *json, *html, *good, *weights, *budget, *memlim;
    bool bfs, keep, with_explain, with_causes, run_to_end;
    const char *assume[NR_MAX_ASSUME];
    int nassume;
    char **pan;
    int npan;
} cli;

static int parse(int argc, char **argv, cli *c)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char **val = !strcmp(a, "--trail")        ? &c->trail
                           : !strcmp(a, "--json")       ? &c->json
                           : !strcmp(a, "--html")       ? &c->html
                           : !strcmp(a, "--good-trail") ? &c->good
                           : !strcmp(a, "--weights")    ? &c->weights
                           : !strcmp(a, "--budget")     ? &c->budget
                           : !strcmp(a, "--memlim")     ? &c->memlim
                                                        : NULL;
        if (val) {
            if (i + 1 >= argc) {
                fprintf(stderr, "pancause nearest: %s needs a value\n", a);
                return 2;
            }
            *val = argv[++i];
        } else if (!strcmp(a, "--assume")) {
            u_err err = {{0}};
            if (nr_assume_add(c->assume, &c->nassume, i + 1 < argc ? argv[++i] : NULL, &err)) {
                fprintf(stderr, "pancause nearest: %s\n", err.msg);
                return 2;
            }
        } else if (!strcmp(a, "--bfs"))
            c->bfs = true;
        else if (!strcmp(a, "--keep"))
            c->keep = true;
        else if (!strcmp(a, "--with-explain"))
            c->with_explain = true;
        else if (!strcmp(a, "--with-causes"))
            c->with_causes = true;
        else if (!strcmp(a, "--run-to-end"))
            c->run_to_end = true;
        else if (!strcmp(a, "--")) {
            c->pan = argv + i + 1;
            c->npan = argc - i - 1;
            break;
        } else if (a[0] == '-') {
            fprintf(stderr, "pancause nearest: unknown option %s\n%s", a, USAGE);
            return 2;
        } else if (!c->model)
            c->model = a;
        else {
            fprintf(stderr, "pancause nearest: one model only (%s)\n", a);
            return 2;
        }
    }
    if (!c->model) {
        fputs(USAGE, stderr);
        return 2;
    }
    if ((c->with_explain || c->with_causes) && !c->html) {
        fprintf(stderr, "pancause nearest: --with-explain and --with-causes mark the --html "
                        "page: give --html FILE\n");
        return 2;
    }
    return 0;
}

/* The steps in the scratch directory w: spin -a, make pan, maybe stock pan's trail,
 * then the search. */
static int work(const cli *c, const char *root, const char *w, const char *base)
{
    char *log = u_fmt("%s/step.log", w), *mk = u_fmt("%s/Makefile", root);
    char *trail = NULL;
    bool made = false; /* trail is stock pan's, made here in w */
    int rc = 1;
    if (!log || !mk)
        goto done;
    char *sp = u_spin();
    char *spin[] = {sp, "-a", (char *)base, NULL};
    int src = sp ? u_run(w, spin, log) : -1;
    free(sp);
    if (src) {
        fprintf(stderr, "pancause nearest: spin -a %s failed:\n", base);
        u_show_log(log);
        goto done;
    }
    char *beside = c->trail ? NULL : u_fmt("%s.trail", c->model);
    if (c->trail)
        trail = u_absolute(c->trail);
    else if (beside && u_is_file(beside)) /* absolute: pan runs in the scratch directory */
        trail = u_absolute(beside);
    free(beside);
    /* POR=0: the nearest run may be an interleaving pan's reduction would drop.
     * CAUSAL_ONLY=1 when there is a trail: the stock copy of pan is needed only to
     * make one, and leaving it out halves the build. */
    char *make[9] = {"make", "-s", "-f", mk, "pan", "POR=0"}; /* + BFS, CAUSAL_ONLY, NULL */
    int nm = 6;
    if (c->bfs)
        make[nm++] = "BFS=1";
    if (trail)
        make[nm++] = "CAUSAL_ONLY=1";
    make[nm] = NULL;
    if (u_run(w, make, log)) {
        fprintf(stderr, "pancause nearest: make pan failed:\n");
        u_show_log(log);
        goto done;
    }
    if (!c->trail && !trail) {
        /* no counterexample yet: stock pan (the same ./pan without -C) makes one */
        free(trail);
        trail = u_fmt("%s/%s.trail", w, base);
        char **sv = calloc((size_t)c->npan + 2, sizeof *sv);
        if (!sv || !trail)
            goto done;
        sv[0] = "./pan";
        for (int i = 0; i < c->npan; i++)
            sv[i + 1] = c->pan[i];
        u_run(w, sv, log);
        free(sv);
        if (!u_is_file(trail)) {
            fprintf(stderr,
                    "pancause nearest: no trail given and stock pan finds no error in "
                    "%s: nothing to explain\n",
                    c->model);
            goto done;
        }
        made = true;
        printf("pancause nearest: no trail given; stock pan's counterexample is used (not "
               "kept: run pan beside the model to keep it)\n");
        fflush(stdout);
    }
    char *json = c->json ? u_absolute(c->json) : NULL, *html = c->html ? u_absolute(c->html) : NULL;
    char *good = c->good ? u_absolute(c->good) : NULL;
    char **pv = calloc((size_t)c->npan + 24 + 2 * NR_MAX_ASSUME, sizeof *pv);
    if (pv && trail) {
        int n = 0;
        pv[n++] = "./pan";
        pv[n++] = "-C";
        pv[n++] = "--nearest";
        pv[n++] = trail;
        if (!c->trail && made) /* in w, which is deleted: the reports must not name it */
            pv[n++] = "--trail-not-kept";
        pv[n++] = "--model-name"; /* the reports name the model as the user did */
        pv[n++] = (char *)c->model;
#define OPT(name, v)                                                                               \
    if (v) {                                                                                       \
        pv[n++] = name;                                                                            \
        pv[n++] = (char *)(v);                                                                     \
    }
        OPT("--json", json);
        OPT("--html", html);
        OPT("--good-trail", good);
        OPT("--weights", c->weights);
        OPT("--budget", c->budget);
        OPT("--memlim", c->memlim);
#undef OPT
        if (c->run_to_end)
            pv[n++] = "--run-to-end";
        for (int i = 0; i < c->nassume; i++) {
            pv[n++] = "--assume";
            pv[n++] = (char *)c->assume[i];
        }
        for (int i = 0; i < c->npan; i++)
            pv[n++] = c->pan[i];
        fflush(stdout);
        rc = u_run(w, pv, NULL);
        if (rc < 0) {
            fprintf(stderr, "pancause nearest: cannot run ./pan in %s\n", w);
            rc = 1;
        }
        char *model = u_fmt("%s/%s", w, base);
        u_err err = {{0}};
        if (!rc && (c->with_explain || c->with_causes) &&
            (!model || nr_marks_add(html, w, model, trail, c->with_explain, c->with_causes, c->pan,
                                    c->npan, &err))) {
            fprintf(stderr, "pancause nearest: the other explanations: %s\n",
                    model ? err.msg : "out of memory");
            rc = 1;
        }
        free(model);
    }
    free(pv);
    free(json);
    free(html);
    free(good);
done:
    free(trail);
    free(log);
    free(mk);
    return rc;
}

int nr_main(int argc, char **argv)
{
    cli c = {0};
    if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
        fputs(USAGE, stdout);
        return 0;
    }
    int rc = parse(argc, argv, &c);
    if (rc)
        return rc;
    if (!u_is_file(c.model)) {
        fprintf(stderr, "pancause nearest: cannot read %s\n", c.model);
        return 2;
    }
    /* an output over the model, the counterexample or another output destroys it (the
     * eighth probe's P8-2: `--json model.pml` replaced the model, exit 0) */
    char *beside = u_fmt("%s.trail", c.model);
    const char *outs[] = {c.json, c.html, c.good}, *ins[] = {c.model, c.trail, beside};
    u_err derr = {{0}};
    int distinct = beside ? u_check_distinct(outs, 3, ins, 3, &derr) : u_oom(&derr);
    free(beside);
    if (distinct) {
        fprintf(stderr, "pancause nearest: %s\n", derr.msg);
        return 2;
    }
    long wt[3];
    if (c.weights && nr_parse_weights(c.weights, &wt[0], &wt[1], &wt[2])) {
        fprintf(stderr,
                "pancause nearest: --weights %s: give WP,WA or WP,WA,WC, integers 0 .. %d\n",
                c.weights, NR_WEIGHT_MAX);
        return 2;
    }
    double amount;
    if (c.budget && nr_parse_amount(c.budget, NR_BUDGET_MAX, &amount)) {
        fprintf(stderr, "pancause nearest: --budget %s: give a number of search nodes, 0 .. %g\n",
                c.budget, NR_BUDGET_MAX);
        return 2;
    }
    if (c.memlim && nr_parse_amount(c.memlim, NR_MEMLIM_MAX, &amount)) {
        fprintf(stderr, "pancause nearest: --memlim %s: give a number of megabytes, 0 .. %g\n",
                c.memlim, NR_MEMLIM_MAX);
        return 2;
    }
    if (c.trail && !u_is_file(c.trail)) {
        fprintf(stderr, "pancause nearest: cannot read the trail %s\n", c.trail);
        return 2;
    }
    nr_options o = {.json = c.json, .html = c.html, .good_trail = c.good};
    u_err err = {{0}};
    if (nr_check_outputs(&o, &err)) {
        fprintf(stderr, "pancause nearest: %s\n", err.msg);
        return 2;
    }
    char *root = u_project_root();
    if (!root) {
        fprintf(stderr, "pancause nearest: cannot find the pancause sources (set "
                        "PANCAUSE_ROOT to the directory with the Makefile)\n");
        return 1;
    }
    char *w = u_scratch_open("nearest", c.model, c.keep, &err);
    if (!w) {
        fprintf(stderr, "pancause nearest: %s\n", err.msg);
        rc = 1;
    } else
        rc = work(&c, root, w, u_base_name(c.model));
    u_scratch_close("nearest", w, c.keep);
    free(root);
    return rc;
}
