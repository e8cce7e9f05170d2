/*
 * rp_writers.c - the table of output formats, and the report run that uses it.
 *
 * One row per format.  sm_entry.c's option parser asks rp_writer_for() which row
 * takes `--option PATH` (by the path's extension where several rows share an
 * option), and checks the path before pan's search; --help prints the rows' help;
 * rp_report() writes the text report and then every requested row.  To add a format:
 * write its write function in a file of its own and add its row here.
 *
 * Order of the run: rows marked in `first` (the trails) are written before the text
 * report, because the text, JSON and HTML reports name the trail files.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* Each writer lives in its own file (rp_json.c, rp_trail.c, rp_dot.c, rp_mef.c,
 * rp_ftjson.c, rp_html.c). */
int rp_write_json(rp_in *in, const char *path, u_err *err);
int rp_write_trails(rp_in *in, const char *dir, u_err *err);
int rp_write_dot(rp_in *in, const char *path, u_err *err);
int rp_write_mef(rp_in *in, const char *path, u_err *err);
int rp_write_ftjson(rp_in *in, const char *path, u_err *err);
int rp_write_html(rp_in *in, const char *path, u_err *err);

const rp_writer rp_writers[] = {
    {"--trails", "/",
     "--trails DIR  write a SPIN trail per cause into DIR: <model>N.trail (its\n"
     "                witness) and <model>N.good.trail (where a non-occurrence\n"
     "                prevents the hazard); replay: spin -k FILE -p model.pml",
     rp_write_trails},
    {"--json", NULL, "--json FILE   also write the result as JSON to FILE", rp_write_json},
    {"--fault-tree", ".dot .gv",
     "--fault-tree FILE  write the causes as a fault tree; FILE's extension says\n"
     "                how: .dot (Graphviz), .xml (Open-PSA MEF), .json",
     rp_write_dot},
    {"--fault-tree", ".xml", NULL, rp_write_mef},
    {"--fault-tree", ".json", NULL, rp_write_ftjson},
    {"--html", ".html .htm",
     "--html FILE   write a self-contained HTML report (causes, fault tree,\n"
     "                witness timelines, probabilities, statistics)",
     rp_write_html},
};
const size_t rp_nwriters = sizeof rp_writers / sizeof rp_writers[0];
_Static_assert(sizeof rp_writers / sizeof rp_writers[0] <=
                   sizeof((rp_request *)0)->path / sizeof(char *),
               "rp_request has a path per writer row");

/* Whether path ends in one of the space-separated extensions. */
static bool has_ext(const char *path, const char *exts)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return false;
    size_t n = strlen(dot);
    for (const char *e = exts; *e;) {
        size_t k = strcspn(e, " ");
        if (k == n && !strncmp(e, dot, n))
            return true;
        e += k + (e[k] == ' ');
    }
    return false;
}

/* "  .dot (or .gv), .xml, .json" for a message: every extension of the option. */
static void list_exts(const char *option, char *buf, size_t n)
{
    buf[0] = 0;
    for (size_t i = 0; i < rp_nwriters; i++)
        if (!strcmp(rp_writers[i].option, option) && rp_writers[i].exts) {
            size_t used = strlen(buf);
            snprintf(buf + used, n - used, "%s%s", used ? " " : "", rp_writers[i].exts);
        }
}

int rp_writer_for(const char *option, const char *path, u_err *err)
{
    bool known = false;
    for (size_t i = 0; i < rp_nwriters; i++) {
        const rp_writer *w = &rp_writers[i];
        if (strcmp(w->option, option))
            continue;
        known = true;
        if (w->exts && strcmp(w->exts, "/") && !has_ext(path, w->exts))
            continue;
        int rc = w->exts && !strcmp(w->exts, "/") ? u_check_output_dir(path, err)
                                                  : u_check_output(path, err);
        return rc ? -2 : (int)i;
    }
    if (!known)
        return -1;
    char exts[128];
    list_exts(option, exts, sizeof exts);
    size_t first = strcspn(exts, " ");
    u_errf(err, "%s %s: unknown format: the extension says which (%s); e.g. name it FILE%.*s",
           option, path, exts, (int)first, exts);
    return -2;
}

void rp_help(FILE *f)
{
    for (size_t i = 0; i < rp_nwriters; i++)
        if (rp_writers[i].help)
            fprintf(f, "  %s\n", rp_writers[i].help);
}

rp_ftree *rp_tree(rp_in *in)
{
    if (in->tree)
        return in->tree;
    const char *hazard = in->run->hazard ? in->run->hazard : "the hazard (not reached)";
    in->tree = rp_ftree_build(in->r, in->names, in->nevents, in->run->model, hazard);
    if (in->tree) {
        in->tree->caveat = rp_every_cause_caveat(in);
        in->tree->why = in->run->why;
        in->tree->nwhy = in->run->nwhy;
        in->tree->uncaused = in->r->nuncaused > 0;
    }
    if (in->tree && in->probs)
        rp_prob_apply(in->tree, in->probs);
    return in->tree;
}

/* One output; its failure is reported at once, and the others still run. */
static int run_writer(rp_in *in, size_t i, const char *path)
{
    u_err err = {{0}};
    if (!rp_writers[i].write(in, path, &err))
        return 0;
    fprintf(stderr, "pancause: %s\n", err.msg[0] ? err.msg : "out of memory");
    return -1;
}

int rp_report(rp_in *in, const rp_request *req, FILE *out, bool unicode)
{
    int rc = 0;
    if (req->path[RP_TRAILS])
        rc |= run_writer(in, RP_TRAILS, req->path[RP_TRAILS]);
    fflush(out);
    if (rp_text(out, in, unicode))
        rc = -1;
    fflush(out);
    for (size_t i = 0; i < rp_nwriters; i++)
        if (i != RP_TRAILS && req->path[i])
            rc |= run_writer(in, i, req->path[i]);
    return rc ? -1 : 0;
}

void rp_in_release(rp_in *in)
{
    size_t n = in->r ? in->r->ncauses : 0;
    for (size_t i = 0; i < n; i++) {
        if (in->trails)
            free(in->trails[i]);
        if (in->good_trails)
            free(in->good_trails[i]);
    }
    free(in->trails);
    free(in->good_trails);
    rp_ftree_free(in->tree);
    in->trails = in->good_trails = NULL;
    in->tree = NULL;
}
