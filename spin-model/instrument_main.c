/*
 * instrument_main.c - pancause-instrument: `make pan`'s source transformation step.
 *
 *   pancause-instrument pan.c pan.h labels.txt glue-path out.c out.h
 *
 * Reads SPIN's generated pan.c and pan.h and the `spin -d` output of the same model
 * and writes the instrumented copies (see sm_instrument.c); out.h must be named
 * pan_cause.h and sit beside out.c, which includes it.  Nothing is written when an
 * anchor does not match: each out file is created under a temporary name and renamed
 * only when complete.
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

static char *read_or_say(const char *path)
{
    char *s = slurp(path);
    if (!s)
        fprintf(stderr, "pancause: cannot read %s: %s\n", path, strerror(errno));
    return s;
}

static int write_or_say(const char *path, const char *text)
{
    int rc = write_atomically(path, text);
    if (rc)
        fprintf(stderr, "pancause: cannot write %s: %s\n", path, strerror(errno));
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr,
                "usage: pancause-instrument pan.c pan.h labels.txt glue-path out.c out.h\n");
        return 2;
    }
    char *src = read_or_say(argv[1]), *hdr = src ? read_or_say(argv[2]) : NULL;
    char *labels = hdr ? read_or_say(argv[3]) : NULL;
    char *out = NULL, *out_h = NULL, *err = NULL;
    int rc = 1;
    if (labels) {
        const char *what = argv[1];
        rc = sm_instrument(src, labels, argv[4], &out, &err);
        if (!rc) {
            what = argv[2];
            rc = sm_instrument_header(hdr, &out_h, &err);
        }
        if (rc)
            fprintf(stderr, "pancause: %s: %s\n", what, err);
        else if (write_or_say(argv[6], out_h) || write_or_say(argv[5], out))
            rc = 1;
    }
    free(out);
    free(out_h);
    free(err);
    free(src);
    free(hdr);
    free(labels);
    return rc ? 1 : 0;
}
