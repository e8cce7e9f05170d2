/*
 * sm_labels.c - which Promela statements are events.
 *
 * pan.c does not keep the names of user labels, so `make pan` asks SPIN itself:
 * `spin -d model.pml` prints the symbol table, one line per label with the label's
 * state number in its proctype ("label<TAB>Gf<TAB>7<TAB><Gate><TAB>{scope ...}"; inside
 * an inline the scope names the instance too, "<Gate i1>").
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

const char *sm_event_proc(const char *proc)
{
    return strcmp(proc, ":init:") ? proc : "init";
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

/* Calls row(f, ctx) for every line of `spin -d` output whose first field, trailing
 * blanks aside, is kind ("label", "chan"; NULL: every line), with at least four fields split in
 * place (f[SM_ROW_FIELDS]; absent fields NULL, the last holds the rest of the line); stops at the
 * first non-zero return.  0, or -1 (out of memory, or row's). */
#define SM_ROW_FIELDS 16
static int each_row(const char *text, const char *kind, int (*row)(char **f, void *ctx), void *ctx)
{
    char *copy = strdup(text);
    if (!copy)
        return -1;
    int rc = 0;
    size_t k = kind ? strlen(kind) : 0;
    char *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line && !rc;
         line = strtok_r(NULL, "\n", &save)) {
        char *f[SM_ROW_FIELDS] = {0};
        if ((!kind || strncmp(line, kind, k) == 0) && split_tabs(line, f, SM_ROW_FIELDS) >= 4 &&
            (!kind || strspn(f[0] + k, " ") == strlen(f[0] + k)))
            rc = row(f, ctx);
    }
    free(copy);
    return rc;
}

typedef struct {
    sm_label *l;
    size_t n, cap;
} labels;

static int add_label(char **f, void *ctx)
{
    labels *x = ctx;
    size_t plen = strlen(f[3]);
    if (plen < 2 || f[3][0] != '<' || f[3][plen - 1] != '>')
        return 0; /* not a proctype scope: ignore */
    if (sm_label_reserved(f[1]))
        return 0;
    if (U_GROW(x->l, x->cap, x->n))
        return -1;
    sm_label *l = &x->l[x->n];
    l->label = strdup(f[1]);
    l->state = atoi(f[2]);
    /* a label inside an inline is scoped "<P i1>" (the proctype, then the inline's
     * instance): the proctype is the first word */
    l->proc = strndup(f[3] + 1, strcspn(f[3] + 1, " >"));
    if (!l->label || !l->proc) {
        free(l->label);
        free(l->proc);
        return -1;
    }
    x->n++;
    return 0;
}

int sm_labels_parse(const char *text, sm_label **out)
{
    labels x = {NULL, 0, 0};
    *out = NULL;
    if (each_row(text, "label", add_label, &x)) {
        sm_labels_free(x.l, (int)x.n);
        return -1;
    }
    *out = x.l;
    return (int)x.n;
}

void sm_labels_free(sm_label *l, int n)
{
    for (int i = 0; i < n; i++) {
        free(l[i].label);
        free(l[i].proc);
    }
    free(l);
}

typedef struct {
    char **name;
    unsigned char *zero;
    size_t n, cap;
    int all_global;
} chans;

static int add_chan(char **f, void *ctx)
{
    chans *x = ctx;
    if (strcmp(f[3], "<:global:>") != 0) {
        x->all_global = 0; /* a local channel, a parameter or a field: may alias */
        return 0;
    }
    /* "chan NAME CAP <:global:> <variable> NFIELDS TYPE ...": a global declared without
     * a queue (no fields: it will hold another channel) or a message field of type chan
     * (a channel sent around) makes a name no longer say which queue it is (the fifth
     * probe's P5-6: `alias = r; ... alias?a`) */
    if (!f[5] || atoi(f[5]) == 0)
        x->all_global = 0;
    for (int i = 6; i < SM_ROW_FIELDS && f[i]; i++)
        if (!strncmp(f[i], "chan", 4) && (f[i][4] == ' ' || f[i][4] == '\t' || !f[i][4]))
            x->all_global = 0;
    if (U_GROW_ALL(x->cap, x->n, 16, U_ARR(x->name), U_ARR(x->zero)))
        return -1;
    if (!(x->name[x->n] = strdup(f[1])))
        return -1;
    x->zero[x->n++] = !strcmp(f[2], "0"); /* the capacity: 0 is a rendezvous */
    return 0;
}

int sm_chans_parse(const char *text, char ***out, unsigned char **zero, int *all_global)
{
    chans x = {NULL, NULL, 0, 0, 1};
    *out = NULL;
    *zero = NULL;
    *all_global = 1;
    if (each_row(text, "chan", add_chan, &x)) {
        sm_chans_free(x.name, x.zero, (int)x.n);
        return -1;
    }
    *out = x.name;
    *zero = x.zero;
    *all_global = x.all_global;
    return (int)x.n;
}

void sm_chans_free(char **c, unsigned char *zero, int n)
{
    for (int i = 0; i < n; i++)
        free(c[i]);
    free(c);
    free(zero);
}

typedef struct {
    char **name;
    size_t n, cap;
} globals;

static int add_global(char **f, void *ctx)
{
    globals *x = ctx;
    size_t k = strcspn(f[0], " ");
    if (strcmp(f[3], "<:global:>") || !f[4] || strcmp(f[4], "<constant>") == 0 ||
        (k == 4 && !strncmp(f[0], "chan", 4)) || (k == 8 && !strncmp(f[0], "proctype", 8)) ||
        (k == 5 && !strncmp(f[0], "label", 5)))
        return 0;
    if (U_GROW(x->name, x->cap, x->n))
        return -1;
    return (x->name[x->n] = strndup(f[1], strcspn(f[1], "["))) ? (int)(x->n++, 0) : -1;
}

int sm_globals_parse(const char *text, char ***out)
{
    globals x = {0};
    *out = NULL;
    if (each_row(text, NULL, add_global, &x)) {
        sm_chans_free(x.name, NULL, (int)x.n);
        return -1;
    }
    *out = x.name;
    return (int)x.n;
}
