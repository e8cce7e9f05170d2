/*
 * instrument_main.c - pancause-instrument: `make pan`'s source transformation step.
 *
 *   pancause-instrument pan.c pan.h labels.txt glue-path out.c out.h
 *
 * Reads SPIN's generated pan.c and pan.h and the `spin -d` output of the same model
 * (and pan.t and pan.m, which pan.c includes, from beside pan.c: their transitions and
 * merged statements become tables for the nearest search's source lines) and writes the
 * instrumented copies (see sm_instrument.c); out.h must be named pan_cause.h and sit beside out.c,
 * which includes it.  Nothing is written when an anchor does not match: each out file is created
 * under a temporary name and renamed only when complete.
 */
#include "spinmodel.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file beside pan.c (pan.t, pan.m: SPIN writes them together; the model, which
 * spin -a names relative to where it ran); NULL when it cannot be read. */
static char *read_beside(const char *pan_c, const char *name)
{
    const char *slash = strrchr(pan_c, '/');
    char *path = slash ? u_fmt("%.*s/%s", (int)(slash - pan_c), pan_c, name) : u_fmt("%s", name);
    u_err ignore = {{0}};
    char *t = path ? u_read_file(path, NULL, &ignore) : NULL;
    free(path);
    return t;
}

/* The model's line that declares global `name` (a type word before the name on it),
 * 0 when none is found: for the message about a hidden variable's name. */
static int decl_line(const char *model, const char *name)
{
    static const char *const TYPES[] = {"bit",   "bool", "byte", "short",  "int",  "unsigned",
                                        "mtype", "chan", "pid",  "hidden", "local"};
    size_t n = strlen(name);
    int line = 1;
    for (const char *l = model; l && *l; line++) {
        const char *e = strchr(l, '\n');
        e = e ? e : l + strlen(l);
        for (const char *w = l; w + n <= e; w++) {
            bool word = !strncmp(w, name, n) &&
                        (w == l || !(isalnum((unsigned char)w[-1]) || w[-1] == '_')) &&
                        !(isalnum((unsigned char)w[n]) || w[n] == '_');
            for (size_t k = 0; word && k < sizeof TYPES / sizeof TYPES[0]; k++) {
                const char *t = strstr(l, TYPES[k]);
                if (t && t < w)
                    return line;
            }
        }
        l = *e ? e + 1 : e;
    }
    return 0;
}

/* A hidden variable named like a local of pan's search (sm_hidden_clash): the message
 * names the model's file and line; 1 when there is one (the message printed). */
static int hidden_clash(const char *pan_c, const char *pan_h, const char *pan_m)
{
    char name[64];
    if (!sm_hidden_clash(pan_h, pan_m, name, sizeof name))
        return 0;
    const char *ps = strstr(pan_h, "#define PanSource");
    char model[4096] = "the model";
    const char *q = ps ? strchr(ps, '"') : NULL, *qe = q ? strchr(q + 1, '"') : NULL;
    if (qe && qe - q - 1 < (long)sizeof model)
        snprintf(model, sizeof model, "%.*s", (int)(qe - q - 1), q + 1);
    u_err ignore = {{0}};
    char *src = model[0] == '/' ? u_read_file(model, NULL, &ignore) : read_beside(pan_c, model);
    int line = src ? decl_line(src, name) : 0;
    char at[32] = "";
    if (line > 0)
        snprintf(at, sizeof at, ":%d", line);
    fprintf(stderr,
            "pancause: %s%s: the global variable '%s' is never read, so SPIN keeps it out of "
            "the state as a C variable '%s', which a variable of pan's own search of that name "
            "hides where the model's statements run: an assignment to it would change the "
            "search, not the variable (stock pan too). Rename it, or let a statement read it.\n",
            model, at, name, name);
    free(src);
    return 1;
}

static int put_text(FILE *f, const void *text)
{
    return fputs(text, f) < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr,
                "usage: pancause-instrument pan.c pan.h labels.txt glue-path out.c out.h\n");
        return 2;
    }
    u_err err = {{0}};
    char *src = u_read_file(argv[1], NULL, &err);
    char *hdr = src ? u_read_file(argv[2], NULL, &err) : NULL;
    char *labels = hdr ? u_read_file(argv[3], NULL, &err) : NULL;
    char *pan_t = labels ? read_beside(argv[1], "pan.t") : NULL;
    char *pan_m = labels ? read_beside(argv[1], "pan.m") : NULL;
    char *out = NULL, *out_h = NULL;
    int rc = -1;
    bool clash = labels && hidden_clash(argv[1], hdr, pan_m); /* told; nothing built */
    if (labels && !clash) {
        const char *what = argv[1];
        rc = sm_instrument(src, labels, pan_t, pan_m, argv[4], &out, &err);
        if (!rc) {
            what = argv[2];
            rc = sm_instrument_header(hdr, &out_h, &err);
        }
        if (rc) { /* name the file the message is about */
            u_err e2 = {{0}};
            u_errf(&e2, "%s: %s", what, err.msg);
            err = e2;
        } else
            rc = u_write_file(argv[6], put_text, out_h, &err) ||
                 u_write_file(argv[5], put_text, out, &err);
    }
    if (rc && !clash)
        fprintf(stderr, "pancause: %s\n", err.msg);
    free(out);
    free(out_h);
    free(src);
    free(hdr);
    free(labels);
    free(pan_t);
    free(pan_m);
    return rc ? 1 : 0;
}
