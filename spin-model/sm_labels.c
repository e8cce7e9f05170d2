/*
 * sm_labels.c - which Promela statements are events.
 *
 * pan.c does not keep the names of user labels, so `make pan` asks SPIN itself:
 * `spin -d model.pml` prints the symbol table, one line per label with the label's
 * state number in its proctype ("label<TAB>Gf<TAB>7<TAB><Gate><TAB>{scope ...}").
 * These state numbers are the ones pan.c uses for a process's program counter, so a
 * move whose source (proctype, state) carries a label is that event.  The same
 * table's channel lines ("chan<TAB>q<TAB>0<TAB><:global:>...": name, capacity, scope)
 * tell the partial order reduction which channels are global and which of them are
 * rendezvous channels (sm_chans_parse, sm_glue.c.inc).
 */
#include "spinmodel.h"

#include <stdlib.h>
#include <string.h>

int sm_label_reserved(const char *l)
{
    return !strncmp(l, "end", 3) || !strncmp(l, "progress", 8) || !strncmp(l, "accept", 6);
}

/* Splits one tab-separated line in place into at most max fields. */
static int split_tabs(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = 0;
        p = t + 1;
    }
    return n;
}

static int add_label(sm_label **out, int *n, int *cap, char **f)
{
    size_t plen = strlen(f[3]);
    if (plen < 2 || f[3][0] != '<' || f[3][plen - 1] != '>')
        return 0; /* not a proctype scope: ignore */
    if (sm_label_reserved(f[1]))
        return 0;
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 32;
        sm_label *m = realloc(*out, (size_t)c * sizeof *m);
        if (!m)
            return -1;
        *out = m;
        *cap = c;
    }
    sm_label *l = &(*out)[*n];
    l->label = strdup(f[1]);
    l->state = atoi(f[2]);
    l->proc = strndup(f[3] + 1, plen - 2);
    if (!l->label || !l->proc) {
        free(l->label);
        free(l->proc);
        return -1;
    }
    (*n)++;
    return 0;
}

int sm_labels_parse(const char *text, sm_label **out)
{
    char *copy = strdup(text);
    int n = 0, cap = 0, rc = 0;
    *out = NULL;
    if (!copy)
        return -1;
    char *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line && !rc;
         line = strtok_r(NULL, "\n", &save)) {
        char *f[5];
        if (strncmp(line, "label\t", 6) != 0)
            continue;
        if (split_tabs(line, f, 5) >= 4)
            rc = add_label(out, &n, &cap, f);
    }
    free(copy);
    if (rc) {
        sm_labels_free(*out, n);
        *out = NULL;
        return -1;
    }
    return n;
}

void sm_labels_free(sm_label *l, int n)
{
    for (int i = 0; i < n; i++) {
        free(l[i].label);
        free(l[i].proc);
    }
    free(l);
}

int sm_chans_parse(const char *text, char ***out, unsigned char **zero, int *all_global)
{
    char *copy = strdup(text);
    int n = 0, cap = 0, rc = 0;
    *out = NULL;
    *zero = NULL;
    *all_global = 1;
    if (!copy)
        return -1;
    char *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line && !rc;
         line = strtok_r(NULL, "\n", &save)) {
        char *f[5];
        if (strncmp(line, "chan", 4) != 0 || split_tabs(line, f, 5) < 4 ||
            strspn(f[0] + 4, " ") != strlen(f[0] + 4))
            continue;
        if (strcmp(f[3], "<:global:>") != 0) {
            *all_global = 0; /* a local channel, a parameter or a field: may alias */
            continue;
        }
        if (n == cap) {
            int nc = cap ? 2 * cap : 16;
            char **g = realloc(*out, (size_t)nc * sizeof *g);
            unsigned char *z = g ? realloc(*zero, (size_t)nc) : NULL;
            if (g)
                *out = g;
            if (!z) {
                rc = -1;
                break;
            }
            *zero = z;
            cap = nc;
        }
        if (!((*out)[n] = strdup(f[1])))
            rc = -1;
        else
            (*zero)[n++] = !strcmp(f[2], "0"); /* the capacity: 0 is a rendezvous */
    }
    free(copy);
    if (rc) {
        sm_chans_free(*out, *zero, n);
        *out = NULL;
        *zero = NULL;
        return -1;
    }
    return n;
}

void sm_chans_free(char **c, unsigned char *zero, int n)
{
    for (int i = 0; i < n; i++)
        free(c[i]);
    free(c);
    free(zero);
}
