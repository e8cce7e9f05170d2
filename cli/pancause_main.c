/*
 * pancause_main.c - the `pancause` command: one table of subcommands, each the main
 * of its module (explain/ for `explain`, nearest/ for `nearest`, temporal/ for `temporal`).
 * `./pan -C` is the other entry point (spin-model/sm_entry.c): causality checking runs inside
 * SPIN's own pan.
 */
#include "explain.h"
#include "nearest.h"
#include "temporal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*main)(int, char **);
    const char *help;
} COMMANDS[] = {
    {"explain", ex_main,
     "red dots on a counterexample: the causes of the first failure of an LTL\n"
     "            formula (Beer et al.)"},
    {"nearest", nr_main,
     "the closest successful execution to a counterexample and its differences\n"
     "            (Groce's distance metrics)"},
    {"temporal", tm_main,
     "the temporal cause of an omega-regular effect on a lasso trace of a\n"
     "            reactive system, as a Buchi automaton (Finkbeiner et al.)"},
};

static void usage(FILE *f)
{
    fputs("usage: pancause COMMAND [options]   (pancause COMMAND --help for more)\n\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        fprintf(f, "  %-9s %s\n", COMMANDS[i].name, COMMANDS[i].help);
    fputs("\nCausality checking of a SPIN model runs inside pan: spin -a model.pml && "
          "make pan && ./pan -C\n",
          f);
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (!strcmp(argv[1], COMMANDS[i].name)) {
            int rc = COMMANDS[i].main(argc - 2, argv + 2);
            /* a report that could not be written is no report (the eighth probe's P8-5:
             * `explain --json > /dev/full` exited 0 with nothing written) */
            if (fflush(stdout) || ferror(stdout)) {
                fprintf(stderr, "pancause %s: cannot write the standard output: %s\n", argv[1],
                        strerror(errno));
                return rc ? rc : 1;
            }
            return rc;
        }
    fprintf(stderr, "pancause: unknown command '%s' (see pancause --help)\n", argv[1]);
    return 2;
}
