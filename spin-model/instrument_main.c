/*
 * instrument_main.c - pancause-instrument: `make pan`'s source transformation step.
 *
 *   pancause-instrument pan.c labels.txt glue-path out.c
 *
 * Reads SPIN's generated pan.c and the `spin -d` output of the same model and writes
 * the instrumented copy (see sm_instrument.c).  Nothing is written when an anchor
 * does not match: the out file is created under a temporary name and renamed only
 * when complete.
 */
#include "spinmodel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    size_t got;
    while (s && (got = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *t = realloc(s, cap *= 2);
            if (!t) {
                free(s);
                s = NULL;
            }
            s = t;
        }
    }
    if (s)
        s[len] = 0;
    if (ferror(f)) {
        free(s);
        s = NULL;
    }
    fclose(f);
    return s;
}

static int write_atomically(const char *path, const char *text)
{
    size_t n = strlen(path) + 8;
    char *tmp = malloc(n);
    if (!tmp)
        return -1;
    snprintf(tmp, n, "%s.part", path);
    FILE *f = fopen(tmp, "wb");
    int rc = -1;
    if (f) {
        size_t len = strlen(text);
        rc = fwrite(text, 1, len, f) == len ? 0 : -1;
        rc |= fclose(f);
        if (!rc)
            rc = rename(tmp, path);
        if (rc)
            remove(tmp);
    }
    free(tmp);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: pancause-instrument pan.c labels.txt glue-path out.c\n");
        return 2;
    }
    char *src = slurp(argv[1]);
    if (!src) {
        fprintf(stderr, "pancause: cannot read %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    char *labels = slurp(argv[2]);
    if (!labels) {
        fprintf(stderr, "pancause: cannot read %s: %s\n", argv[2], strerror(errno));
        free(src);
        return 1;
    }
    char *out = NULL, *err = NULL;
    int rc = sm_instrument(src, labels, argv[3], &out, &err);
    if (rc) {
        fprintf(stderr, "pancause: %s: %s\n", argv[1], err);
    } else if (write_atomically(argv[4], out)) {
        fprintf(stderr, "pancause: cannot write %s: %s\n", argv[4], strerror(errno));
        rc = 1;
    }
    free(out);
    free(err);
    free(src);
    free(labels);
    return rc ? 1 : 0;
}
