/*
 * nr_model.c - the model as the nearest search sees it: its variables and their
 * values in every recorded state, its transitions' source lines and texts, and what
 * those texts read and write (nr_reads, nr_writer_line: the slice's data dependences
 * and the line a value Δ names).
 *
 * pan's glue decodes each state it records with pan's own printing code (c_globals,
 * c_locals, c_chandump, captured: sm_glue.c.inc) and reports its variables here, scope
 * by scope in pan's print order.  A variable is identified by (scope, position): the
 * k-th value printed for process pid of proctype t is the same variable in every
 * state.  Its name is taken once, from the print call's argument text.  The values of
 * a state are stored in one int32 array per state, in the order of its *layout*: the
 * sorted ids of the variables it has (interned, so states with the same processes
 * share one), regular variables first, then the processes' control locations (pcs,
 * which locate steps but are no variables of Δp).  Two states with one layout are
 * compared position by position; others by merging the two id lists.  A channel's
 * value is the id of its interned (qid, contents).
 *
 * Invariants: lay_of[s] is NR_NONE or a layout id, and then val[off[s] ..
 * off[s] + lay[lay_of[s]].n) are s's values; every scope's var[] grows only; a
 * variable's kind never changes; nprev != 0 means prev_var[0 .. nprev) is the last
 * stored state's arrival sequence, prev_lay its layout and perm[i] the sorted position
 * of its i-th arrival (nr_val_end's fast path relies on it).
 */
#include "nr_internal.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

nr_model *nr_model_new(void)
{
    nr_model *m = calloc(1, sizeof *m);
    return m;
}

void nr_model_free(nr_model *m)
{
    if (!m)
        return;
    for (int p = 0; m->tid_at && p < m->nprocs; p++)
        free(m->tid_at[p]);
    free(m->tid_at);
    free(m->tid_len);
    free(m->mfirst);
    free(m->mhop);
    for (size_t i = 0; i < m->nvars; i++) {
        free(m->var[i].name);
        free(m->var[i].base);
    }
    free(m->var);
    for (size_t i = 0; i < m->nscopes; i++)
        free(m->scope[i].var);
    free(m->scope);
    u_map_free(&m->scope_of);
    for (size_t i = 0; i < m->nmtypes; i++)
        free(m->mtype[i].name);
    free(m->mtype);
    u_intern_free(&m->chans);
    u_intern_free(&m->layouts);
    free(m->lay);
    free(m->lay_of);
    free(m->off);
    free(m->vend);
    free(m->val);
    free(m->cur_var);
    free(m->cur_val);
    free(m->prev_var);
    free(m->perm);
    free(m->chan_last);
    free(m->source);
    free(m);
}

int nr_model_procs(nr_model *m, const char *const *names, int n, const short *const *src,
                   const int *nstates)
{
    m->procnames = names;
    m->nprocs = n;
    m->src = src;
    m->nstates = nstates;
    return 0;
}

const char *nr_proc_name(const nr_model *m, int proctype)
{
    return proctype >= 0 && proctype < m->nprocs && m->procnames[proctype] ? m->procnames[proctype]
                                                                           : "?";
}

/* ---- transitions ---- */

int nr_model_trans(nr_model *m, const nr_trans *t, int n)
{
    m->trans = t;
    m->ntrans = (size_t)n;
    if (m->nprocs <= 0)
        return 0;
    m->tid_at = calloc((size_t)m->nprocs, sizeof *m->tid_at);
    m->tid_len = calloc((size_t)m->nprocs, sizeof *m->tid_len);
    if (!m->tid_at || !m->tid_len)
        return -1;
    for (int i = 0; i < n; i++) {
        int p = t[i].proctype, id = t[i].tid;
        if (p < 0 || p >= m->nprocs || id < 0)
            continue;
        if (id >= m->tid_len[p]) {
            int len = id + 16;
            int *a = realloc(m->tid_at[p], (size_t)len * sizeof *a);
            if (!a)
                return -1;
            for (int k = m->tid_len[p]; k < len; k++)
                a[k] = -1;
            m->tid_at[p] = a;
            m->tid_len[p] = len;
        }
        /* the IF/DO chains carry the compound's own id; the options are elsewhere */
        bool chain = !strcmp(t[i].text, "IF") || !strcmp(t[i].text, "DO");
        int *at = &m->tid_at[p][id];
        if (*at < 0 || (!chain && (!strcmp(t[*at].text, "IF") || !strcmp(t[*at].text, "DO"))))
            *at = i;
    }
    return 0;
}

/* The trans index of the statement of (proctype, state) that a merge row names: one
 * SPIN prints (not a jump), -1 when none. */
static int hop_at(const nr_model *m, int proctype, int state)
{
    for (size_t i = 0; i < m->ntrans; i++) {
        const nr_trans *t = &m->trans[i];
        if (t->proctype == proctype && t->state == state)
            return !strcmp(t->text, ".(goto)") || !strncmp(t->text, "goto ", 5) ||
                           !strcmp(t->text, "break")
                       ? -1
                       : (int)i;
    }
    return -1;
}

/* Whether m->trans[i] is the move of a merge row's (proctype, state): a transition
 * of its own (tid >= 0), not an IF/DO pseudo-transition. */
static bool head_is(const nr_model *m, size_t i, int proctype, int state)
{
    const nr_trans *t = &m->trans[i];
    return t->proctype == proctype && t->state == state && t->tid >= 0 && strcmp(t->text, "IF") &&
           strcmp(t->text, "DO");
}

int nr_model_merges(nr_model *m, const int (*rows)[3], int n)
{
    free(m->mfirst);
    free(m->mhop);
    m->mhop = NULL;
    m->mfirst = calloc(m->ntrans + 1, sizeof *m->mfirst);
    int *hop = n > 0 ? malloc((size_t)n * sizeof *hop) : NULL;
    if (!m->mfirst || (n > 0 && !hop)) {
        free(hop);
        return -1;
    }
    size_t total = 0;
    for (int r = 0; r < n; r++) {
        hop[r] = hop_at(m, rows[r][0], rows[r][2]);
        for (size_t i = 0; hop[r] >= 0 && i < m->ntrans; i++)
            if (head_is(m, i, rows[r][0], rows[r][1])) {
                m->mfirst[i + 1]++;
                total++;
            }
    }
    for (size_t i = 0; i < m->ntrans; i++)
        m->mfirst[i + 1] += m->mfirst[i];
    m->mhop = malloc((total + 1) * sizeof *m->mhop);
    int *at = calloc(m->ntrans + 1, sizeof *at);
    if (!m->mhop || !at) {
        free(hop);
        free(at);
        return -1;
    }
    for (int r = 0; r < n; r++) /* rows in execution order: filled in that order */
        for (size_t i = 0; hop[r] >= 0 && i < m->ntrans; i++)
            if (head_is(m, i, rows[r][0], rows[r][1]))
                m->mhop[m->mfirst[i] + at[i]++] = hop[r];
    free(hop);
    free(at);
    return 0;
}

size_t nr_merged(const nr_model *m, int proctype, int tid, const int **hops)
{
    int t = nr_trans_of(m, proctype, tid);
    if (t < 0 || !m->mfirst) {
        *hops = NULL;
        return 0;
    }
    *hops = m->mhop + m->mfirst[t];
    return (size_t)(m->mfirst[t + 1] - m->mfirst[t]);
}

int nr_trans_line(const nr_model *m, int t)
{
    if (t < 0 || (size_t)t >= m->ntrans || !m->src)
        return 0;
    int p = m->trans[t].proctype, st = m->trans[t].state;
    return p >= 0 && p < m->nprocs && m->src[p] && st >= 0 && st < m->nstates[p] ? m->src[p][st]
                                                                                 : 0;
}

int nr_trans_of(const nr_model *m, int proctype, int tid)
{
    if (!m->tid_at || proctype < 0 || proctype >= m->nprocs || tid < 0 ||
        tid >= m->tid_len[proctype])
        return -1;
    return m->tid_at[proctype][tid];
}

int nr_line(const nr_model *m, int proctype, int tid)
{
    int i = nr_trans_of(m, proctype, tid);
    if (i < 0 || !m->src || !m->src[proctype])
        return 0;
    int st = m->trans[i].state;
    return st >= 0 && st < m->nstates[proctype] ? m->src[proctype][st] : 0;
}

const char *nr_text(const nr_model *m, int proctype, int tid)
{
    int i = nr_trans_of(m, proctype, tid);
    return i < 0 ? "?" : m->trans[i].text;
}

/* ---- variables ---- */

/* The expression a print call printed: its last argument ("now.a[ 1 ].b",
 * "((P0 *)pptr(pid))->x[l_in]"), without pan's access path, the loop index replaced
 * by index, blanks dropped: "a[1].b", "x[2]". */
static char *expr_name(const char *args, int index)
{
    int depth = 0;
    bool quoted = false;
    const char *last = args;
    for (const char *p = args; *p; p++) {
        if (quoted) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                quoted = false;
        } else if (*p == '"')
            quoted = true;
        else if (*p == '(' || *p == '[')
            depth++;
        else if (*p == ')' || *p == ']')
            depth--;
        else if (*p == ',' && depth == 0)
            last = p + 1;
    }
    const char *arrow = strstr(last, ")->");
    for (const char *q = arrow; q; q = strstr(q + 3, ")->"))
        arrow = q;
    if (arrow)
        last = arrow + 3;
    else {
        while (isspace((unsigned char)*last))
            last++;
        if (!strncmp(last, "now.", 4))
            last += 4;
    }
    size_t len = strlen(last);
    char *out = malloc(len + 24);
    if (!out)
        return NULL;
    size_t o = 0;
    for (const char *p = last; *p; p++) {
        if (isspace((unsigned char)*p))
            continue;
        if (*p == '[' && index >= 0) { /* a loop index, not a constant: the element */
            const char *q = p + 1;
            while (isspace((unsigned char)*q))
                q++;
            if (isalpha((unsigned char)*q) || *q == '_') {
                const char *close = strchr(q, ']');
                if (close) {
                    o += (size_t)sprintf(out + o, "[%d]", index);
                    p = close;
                    continue;
                }
            }
        }
        out[o++] = *p;
    }
    out[o] = 0;
    return out;
}

static uint32_t new_var(nr_model *m, const nr_scope *sc, char *name, uint8_t kind)
{
    if (!name || U_GROW(m->var, m->varcap, m->nvars)) {
        free(name);
        m->oom = true;
        return NR_NONE;
    }
    size_t b = strcspn(name, "[.");
    char *base = strndup(name, b);
    char *full =
        sc->pid < 0 ? name : u_fmt("%s(%d):%s", nr_proc_name(m, sc->proctype), sc->pid, name);
    if (full != name)
        free(name);
    if (!base || !full) {
        free(base);
        free(full);
        m->oom = true;
        return NR_NONE;
    }
    m->var[m->nvars] = (nr_var){full, base, sc->pid, sc->proctype, kind};
    return (uint32_t)m->nvars++;
}

static int push_cur(nr_model *m, uint32_t var, int32_t v)
{
    if (var == NR_NONE)
        return -1;
    size_t cap = m->curcap;
    if (U_GROW(m->cur_var, cap, m->ncur) ||
        (cap != m->curcap && !(m->cur_val = realloc(m->cur_val, cap * sizeof *m->cur_val)))) {
        m->oom = true;
        return -1;
    }
    m->curcap = cap;
    m->cur_var[m->ncur] = var;
    m->cur_val[m->ncur++] = v;
    return 0;
}

/* The variable at the scope's next position, made on first sight.  kind says what the
 * printing was; a position printed otherwise than before is a decoding error. */
static uint32_t next_var(nr_model *m, uint8_t kind, char *(*name)(const void *), const void *arg)
{
    if (m->cur_scope >= m->nscopes)
        return NR_NONE;
    nr_scope *sc = &m->scope[m->cur_scope];
    size_t k = m->cur_k++;
    if (k < sc->n) {
        uint32_t v = sc->var[k];
        if (m->var[v].kind != kind) {
            m->cur_bad = true;
            m->bad_what = m->var[v].name;
        }
        return v;
    }
    if (U_GROW(sc->var, sc->cap, sc->n)) {
        m->oom = true;
        return NR_NONE;
    }
    uint32_t v = new_var(m, sc, name(arg), kind);
    if (v != NR_NONE)
        sc->var[sc->n++] = v;
    return v;
}

void nr_val_begin(nr_model *m)
{
    m->ncur = 0;
    m->cur_scope = NR_NONE;
    m->cur_k = 0;
    m->cur_bad = false;
}

static char *pc_name(const void *arg)
{
    (void)arg;
    return strdup("pc");
}

void nr_val_scope(nr_model *m, int pid, int proctype, int pc)
{
    uint64_t key = (uint64_t)(uint32_t)(pid + 1) << 32 | (uint32_t)(proctype + 1);
    uint32_t i = u_map_get(&m->scope_of, key);
    if (i == U_INVALID) {
        if (U_GROW(m->scope, m->scopecap, m->nscopes) ||
            u_map_put(&m->scope_of, key, (uint32_t)m->nscopes)) {
            m->oom = true;
            return;
        }
        m->scope[m->nscopes] = (nr_scope){pid, proctype, NULL, 0, 0};
        i = (uint32_t)m->nscopes++;
    }
    m->cur_scope = i;
    m->cur_k = 0;
    if (pid >= 0)
        push_cur(m, next_var(m, NR_V_PC, pc_name, NULL), pc);
}

typedef struct {
    const char *args;
    int index;
} expr_arg;

static char *scalar_name(const void *arg)
{
    const expr_arg *e = arg;
    return expr_name(e->args, e->index);
}

void nr_val_scalar(nr_model *m, const char *args, const char *type, int index, int value)
{
    expr_arg e = {args, index};
    /* the first letter spares a strcmp per variable per state */
    uint8_t kind = type && type[0] == 'm' && !strcmp(type, "mtype") ? NR_V_MTYPE : NR_V_INT;
    push_cur(m, next_var(m, kind, scalar_name, &e), value);
}

static char *chan_name(const void *arg)
{
    return strdup(arg);
}

/* The chans id of key (len bytes) for variable var: its id in the state decoded last
 * when the contents are the same, else interned.  U_INVALID when out of memory. */
static uint32_t chan_id(nr_model *m, uint32_t var, const int32_t *key, size_t len)
{
    if (var < m->chan_lastcap && m->chan_last[var]) {
        uint32_t id = m->chan_last[var] - 1;
        if (u_intern_len(&m->chans, id) == len && !memcmp(u_intern_key(&m->chans, id), key, len))
            return id;
    }
    bool fresh;
    uint32_t id = u_intern_put(&m->chans, key, len, &fresh);
    if (id == U_INVALID)
        return id;
    size_t old = m->chan_lastcap;
    if (U_GROW(m->chan_last, m->chan_lastcap, var))
        return id; /* only the cache is lost */
    memset(m->chan_last + old, 0, (m->chan_lastcap - old) * sizeof *m->chan_last);
    m->chan_last[var] = id + 1;
    return id;
}

void nr_val_chan(nr_model *m, const char *name, int qid, const int *fields, int n)
{
    uint32_t var = next_var(m, NR_V_CHAN, chan_name, name);
    if (var == NR_NONE)
        return; /* out of memory (marked), or no scope open: dropped, as scalars are */
    int32_t small[64], *key = n < 64 ? small : malloc(((size_t)n + 1) * sizeof *key);
    if (!key) {
        m->oom = true;
        return;
    }
    key[0] = qid;
    memcpy(key + 1, fields, (size_t)n * sizeof *key);
    uint32_t id = chan_id(m, var, key, ((size_t)n + 1) * sizeof *key);
    if (key != small)
        free(key);
    if (id == U_INVALID) {
        m->oom = true;
        return;
    }
    push_cur(m, var, (int32_t)id);
}

void nr_val_mtype(nr_model *m, const char *name, int value)
{
    for (size_t i = 0; i < m->nmtypes; i++)
        if (m->mtype[i].value == value)
            return;
    if (U_GROW(m->mtype, m->mtypecap, m->nmtypes) || !(m->mtype[m->nmtypes].name = strdup(name))) {
        m->oom = true;
        return;
    }
    m->mtype[m->nmtypes++].value = value;
}

/* ---- per-state storage ---- */

static int cmp_key(const void *x, const void *y, const nr_model *m)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    bool pa = m->var[a].kind == NR_V_PC, pb = m->var[b].kind == NR_V_PC;
    if (pa != pb)
        return pa ? 1 : -1;
    return (a > b) - (a < b);
}

/* Sorts the current (var, value) pairs by cmp_key (insertion sort: a state has a few
 * dozen variables and they arrive nearly sorted). */
static void sort_cur(nr_model *m)
{
    for (size_t i = 1; i < m->ncur; i++) {
        uint32_t v = m->cur_var[i];
        int32_t x = m->cur_val[i];
        size_t j = i;
        while (j > 0 && cmp_key(&m->cur_var[j - 1], &v, m) > 0) {
            m->cur_var[j] = m->cur_var[j - 1];
            m->cur_val[j] = m->cur_val[j - 1];
            j--;
        }
        m->cur_var[j] = v;
        m->cur_val[j] = x;
    }
}

static int grow_states(nr_model *m, uint32_t s)
{
    size_t old = m->statecap;
    if (U_GROW_ALL(m->statecap, s, 4096, U_ARR(m->lay_of), U_ARR(m->off), U_ARR(m->vend)))
        return -1;
    for (size_t i = old; i < m->statecap; i++) {
        m->lay_of[i] = NR_NONE;
        m->vend[i] = 0;
    }
    return 0;
}

static uint32_t layout(nr_model *m)
{
    bool fresh;
    uint32_t id = u_intern_put(&m->layouts, m->cur_var, m->ncur * sizeof *m->cur_var, &fresh);
    if (id == U_INVALID || !fresh)
        return id;
    if (U_GROW(m->lay, m->laycap, m->nlay))
        return U_INVALID;
    uint32_t nreg = 0;
    while (nreg < m->ncur && m->var[m->cur_var[nreg]].kind != NR_V_PC)
        nreg++;
    m->lay[m->nlay++] = (nr_layout){u_intern_key(&m->layouts, id), (uint32_t)m->ncur, nreg};
    /* the interned keys may move when the arena grows: refresh every pointer */
    for (size_t i = 0; i < m->nlay; i++)
        m->lay[i].var = u_intern_key(&m->layouts, (uint32_t)i);
    return id;
}

/* Room for n more values in m->val; -1 when out of memory. */
static int val_room(nr_model *m, size_t n)
{
    if (m->nval + n >= UINT32_MAX)
        return -1;
    return n ? u_grow((void **)&m->val, &m->valcap, m->nval + n - 1, sizeof *m->val, 1 << 16) : 0;
}

/* Whether the variables arrived as the previous state's did. */
static bool same_as_prev(const nr_model *m)
{
    return m->nprev && m->ncur == m->nprev &&
           !memcmp(m->cur_var, m->prev_var, m->ncur * sizeof *m->cur_var);
}

/* Remembers the arrival order (before sorting) in prev_var and marks each arrival by
 * its index in cur_val, so that perm can be read off after the sort (insertion sort
 * is stable, so even an id printed twice keeps its arrival order and perm stays a
 * bijection).  false, with nothing marked, when there is no room: the state is then
 * stored the slow way and the next one takes it too. */
static bool keep_arrival(nr_model *m)
{
    /* ncur > 0 here (nr_val_end stores a state without variables apart) */
    if (U_GROW_ALL(m->prevcap, m->ncur - 1, 64, U_ARR(m->prev_var), U_ARR(m->perm)))
        return false;
    memcpy(m->prev_var, m->cur_var, m->ncur * sizeof *m->cur_var);
    for (size_t i = 0; i < m->ncur; i++)
        m->cur_val[i] = (int32_t)i;
    return true;
}

/* The slow way: sort, intern the layout, and (when keep_arrival kept the arrival
 * order) record perm and the layout for the states after it.  out already holds
 * the values in arrival order.  U_INVALID when out of memory. */
static uint32_t store_sorted(nr_model *m, int32_t *out)
{
    bool kept = keep_arrival(m);
    sort_cur(m);
    uint32_t l = layout(m);
    if (l == U_INVALID)
        return l;
    if (!kept) { /* cur_val holds the values, sorted with their variables */
        memcpy(out, m->cur_val, m->ncur * sizeof *out);
        return l;
    }
    /* cur_val[j] is the arrival index of the j-th sorted variable */
    int32_t tmp[64], *arr = m->ncur <= 64 ? tmp : malloc(m->ncur * sizeof *arr);
    if (!arr)
        return U_INVALID;
    memcpy(arr, out, m->ncur * sizeof *arr);
    for (size_t j = 0; j < m->ncur; j++) {
        uint32_t i = (uint32_t)m->cur_val[j];
        m->perm[i] = (uint32_t)j;
        out[j] = arr[i];
    }
    if (arr != tmp)
        free(arr);
    m->nprev = m->ncur; /* only now do prev_var, perm and prev_lay agree */
    m->prev_lay = l;
    return l;
}

int nr_val_end(nr_model *m, uint32_t s, int end, bool bad, u_err *err)
{
    if (bad || m->cur_bad) {
        return u_errf(err,
                      "pan's printing of the variables has a form the nearest decoder "
                      "does not know%s%s (README \"Known limits\")",
                      m->bad_what ? ": variable " : "", m->bad_what ? m->bad_what : "");
    }
    if (m->oom || grow_states(m, s) || val_room(m, m->ncur))
        return u_oom(err);
    uint32_t l;
    if (!m->ncur) { /* no variables at all (m->val may still be NULL) */
        m->nprev = 0;
        l = layout(m);
    } else if (same_as_prev(m)) {
        int32_t *out = m->val + m->nval;
        for (size_t i = 0; i < m->ncur; i++)
            out[m->perm[i]] = m->cur_val[i];
        l = m->prev_lay;
    } else {
        int32_t *out = m->val + m->nval;
        memcpy(out, m->cur_val, m->ncur * sizeof *out); /* before cur_val is marked */
        m->nprev = 0; /* until store_sorted has made perm agree with this arrival */
        l = store_sorted(m, out);
    }
    if (l == U_INVALID) {
        m->oom = true;
        return u_oom(err);
    }
    m->lay_of[s] = l;
    m->off[s] = (uint32_t)m->nval;
    m->vend[s] = (uint8_t)end;
    m->nval += m->ncur;
    return 0;
}

bool nr_model_has(const nr_model *m, uint32_t s)
{
    return s < m->statecap && m->lay_of[s] != NR_NONE;
}

/* The per-state arrays are rebuilt, not an indirection kept beside them: every
 * reader indexes lay_of/off/vend by the graph's state id, and d's ids are then the only
 * ones.  The values stay where they are (val): a set's entry points at its member's,
 * so the invariant above holds for d's states as it held for the recorded ones, and
 * members share their values (the claim's state, the one thing they differ in, is no
 * value: the decoder skips the claim's slot), so any member with values will do. */
int nr_model_det(nr_model *m, const cc_graph *d)
{
    size_t n = cc_graph_states(d);
    uint32_t *lay = malloc((n ? n : 1) * sizeof *lay), *off = malloc((n ? n : 1) * sizeof *off);
    uint8_t *vend = malloc(n ? n : 1);
    if (!lay || !off || !vend) {
        free(lay);
        free(off);
        free(vend);
        return -1;
    }
    for (uint32_t s = 0; s < n; s++) {
        size_t k;
        const uint32_t *mem = cc_graph_det_state(d, s, &k);
        lay[s] = NR_NONE;
        vend[s] = 0;
        off[s] = 0;
        for (size_t i = 0; i < k && lay[s] == NR_NONE; i++)
            if (nr_model_has(m, mem[i])) {
                lay[s] = m->lay_of[mem[i]];
                off[s] = m->off[mem[i]];
                vend[s] = m->vend[mem[i]];
            }
    }
    free(m->lay_of);
    free(m->off);
    free(m->vend);
    m->lay_of = lay;
    m->off = off;
    m->vend = vend;
    m->statecap = n;
    return 0;
}

size_t nr_model_bytes(const nr_model *m)
{
    return m->statecap * 9 + m->valcap * 4 + u_intern_bytes(&m->layouts) +
           u_intern_bytes(&m->chans) + m->nvars * sizeof(nr_var) + m->prevcap * 8 +
           m->chan_lastcap * 4;
}

const nr_layout *nr_layout_of(const nr_model *m, uint32_t s, const int32_t **val)
{
    *val = m->val + m->off[s];
    return &m->lay[m->lay_of[s]];
}

size_t nr_nvars(const nr_model *m, uint32_t s)
{
    return nr_model_has(m, s) ? m->lay[m->lay_of[s]].nreg : 0;
}

size_t nr_diff(const nr_model *m, uint32_t s, uint32_t t)
{
    const int32_t *x, *y;
    const nr_layout *A = nr_layout_of(m, s, &x), *B = nr_layout_of(m, t, &y);
    size_t d = 0;
    if (A == B) {
        for (uint32_t i = 0; i < A->nreg; i++)
            d += x[i] != y[i];
        return d;
    }
    /* different variables: merge the sorted ids; one present on one side only differs */
    uint32_t i = 0, j = 0;
    while (i < A->nreg || j < B->nreg) {
        if (j == B->nreg || (i < A->nreg && A->var[i] < B->var[j]))
            d++, i++;
        else if (i == A->nreg || B->var[j] < A->var[i])
            d++, j++;
        else
            d += x[i++] != y[j++];
    }
    return d;
}

bool nr_value(const nr_model *m, uint32_t s, uint32_t var, int32_t *v)
{
    if (!nr_model_has(m, s))
        return false;
    const int32_t *x;
    const nr_layout *A = nr_layout_of(m, s, &x);
    size_t lo = 0, hi = A->n; /* sorted by (pc, id): search the right part */
    bool pc = m->var[var].kind == NR_V_PC;
    if (pc)
        lo = A->nreg;
    else
        hi = A->nreg;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (A->var[mid] < var)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < (pc ? A->n : A->nreg) && A->var[lo] == var) {
        *v = x[lo];
        return true;
    }
    return false;
}

bool nr_location(const nr_model *m, uint32_t s, int pid, int *proctype, int *pc)
{
    if (!nr_model_has(m, s))
        return false;
    const int32_t *x;
    const nr_layout *A = nr_layout_of(m, s, &x);
    for (uint32_t i = A->nreg; i < A->n; i++)
        if (m->var[A->var[i]].pid == pid) {
            *proctype = m->var[A->var[i]].proctype;
            *pc = x[i];
            return true;
        }
    return false;
}

char *nr_value_text(const nr_model *m, uint32_t var, int32_t v)
{
    if (m->var[var].kind == NR_V_MTYPE)
        for (size_t i = 0; i < m->nmtypes; i++)
            if (m->mtype[i].value == v)
                return strdup(m->mtype[i].name);
    if (m->var[var].kind != NR_V_CHAN)
        return u_fmt("%d", v);
    const int32_t *f = u_intern_key(&m->chans, (uint32_t)v);
    size_t n = u_intern_len(&m->chans, (uint32_t)v) / sizeof *f;
    size_t cap = 16 + 14 * n;
    char *s = malloc(cap), *o = s;
    if (!s)
        return NULL;
    *o = 0;
    /* f[0] is the channel's id; then per message its count k and k fields */
    for (size_t i = 1; i < n; i += (size_t)f[i] + 1) {
        o += sprintf(o, "%s[", i > 1 ? " " : "");
        for (int32_t k = 0; k < f[i] && i + 1 + (size_t)k < n; k++)
            o += sprintf(o, "%s%d", k ? "," : "", f[i + 1 + (size_t)k]);
        *o++ = ']';
        *o = 0;
        if (f[i] < 0)
            break; /* not nr_val_chan's form: the glue never writes it */
    }
    if (n <= 1)
        strcpy(o, "empty");
    return s;
}

/* ---- what a statement reads ---- */

static const char *const KEYWORDS[] = {
    "true",   "false",  "skip",   "else",    "assert", "printf", "printm",   "run",
    "len",    "empty",  "nempty", "full",    "nfull",  "eval",   "timeout",  "np_",
    "_pid",   "_nr_pr", "_last",  "enabled", "goto",   "break",  "atomic",   "d_step",
    "if",     "fi",     "do",     "od",      "c_code", "c_expr", "pc_value", "_",
    "unless", "ATOMIC", "D_STEP", "IF",      "DO"};

static bool keyword(const char *w, size_t n)
{
    for (size_t i = 0; i < sizeof KEYWORDS / sizeof KEYWORDS[0]; i++)
        if (strlen(KEYWORDS[i]) == n && !strncmp(KEYWORDS[i], w, n))
            return true;
    return false;
}

static int add_read(uint32_t **out, size_t *n, size_t *cap, uint32_t v)
{
    for (size_t i = 0; i < *n; i++)
        if ((*out)[i] == v)
            return 0;
    if (U_GROW(*out, *cap, *n))
        return -1;
    (*out)[(*n)++] = v;
    return 0;
}

/* Every variable named w (its declared name) in pid's scope, else the globals. */
static int resolve(const nr_model *m, int pid, const char *w, size_t len, uint32_t **out, size_t *n,
                   size_t *cap)
{
    bool local = false;
    for (size_t v = 0; v < m->nvars && pid >= 0; v++)
        if (m->var[v].pid == pid && m->var[v].kind != NR_V_PC && strlen(m->var[v].base) == len &&
            !strncmp(m->var[v].base, w, len)) {
            local = true;
            if (add_read(out, n, cap, (uint32_t)v))
                return -1;
        }
    for (size_t v = 0; v < m->nvars && !local; v++)
        if (m->var[v].pid < 0 && strlen(m->var[v].base) == len &&
            !strncmp(m->var[v].base, w, len) && add_read(out, n, cap, (uint32_t)v))
            return -1;
    return 0;
}

/* ---- a statement's shape: what it writes, where its parts lie ---- */

/* Past the identifier characters at p. */
static const char *past_ident(const char *p)
{
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    return p;
}

/* Past an identifier at p and its subscripts and fields ("a[i].f"): where it ends. */
static const char *past_ref(const char *p)
{
    p = past_ident(p);
    for (;;) {
        if (*p == '[') {
            int depth = 0;
            do
                depth += (*p == '[') - (*p == ']');
            while (*++p && depth > 0);
        } else if (*p == '.' && (isalpha((unsigned char)p[1]) || p[1] == '_'))
            p = past_ident(p + 1);
        else
            return p;
    }
}

/* Whether [p, e) is the identifier base. */
static bool is_name(const char *p, const char *e, const char *base)
{
    size_t n = (size_t)(e - p);
    return strlen(base) == n && !strncmp(p, base, n);
}

/* Statement texts as pan.t writes them (`spin -t -p` prints the same): a condition
 * is parenthesised, so a text that starts with a reference is an assignment `r = e`,
 * a send `r!e` (`r!!e`), a receive `r?f,...` (`r??`, `r?<...>` copying) or a poll
 * `r?[...]` (`r??[...]`), r the target or channel; anything else (conditions,
 * asserts, prints, `r == e` with no parentheses) is SH_OTHER. */
typedef enum { SH_OTHER, SH_ASSIGN, SH_SEND, SH_RECV, SH_POLL } shape_kind;
typedef struct {
    shape_kind kind;
    const char *name_end; /* the target's or channel's identifier is [t, name_end) */
    const char *ref_end;  /* ... and with its subscripts and fields, [t, ref_end) */
    const char *fields;   /* SH_RECV, SH_POLL: the first field ("" for none) */
    bool copy;            /* SH_RECV: `?<...>`, the message stays in the channel */
} shape;

static shape shape_of(const char *t)
{
    shape sh = {SH_OTHER, t, t, "", false};
    if (!isalpha((unsigned char)*t) && *t != '_')
        return sh;
    sh.name_end = past_ident(t);
    sh.ref_end = past_ref(t);
    const char *p = sh.ref_end;
    while (*p == ' ')
        p++;
    if ((p[0] == '=' || p[0] == '!') && p[1] != '=') {
        sh.kind = p[0] == '=' ? SH_ASSIGN : SH_SEND;
        return sh;
    }
    if (p[0] != '?')
        return sh;
    p += p[1] == '?' ? 2 : 1;
    sh.kind = SH_RECV;
    if (*p == '[') {
        sh.kind = SH_POLL;
        p++;
    } else if (*p == '<') {
        sh.copy = true;
        p++;
    }
    sh.fields = p;
    return sh;
}

/* The end of the receive field at f: the next comma outside parentheses and
 * brackets, or the closing '>' / ']' of a copying receive or poll, or the text's end. */
static const char *field_end(const char *f)
{
    int depth = 0;
    for (; *f; f++) {
        if (depth == 0 && (*f == ',' || *f == '>' || *f == ']'))
            return f;
        depth += (*f == '(' || *f == '[') - (*f == ')' || *f == ']');
    }
    return f;
}

/* The next receive field of *f (a shape's fields, then what this returned last):
 * its start, leading spaces skipped, with *fe its end; NULL after the last.  *f moves
 * past the field and its separator.  Both readers of a receive's fields walk them so. */
static const char *next_field(const char **f, const char **fe)
{
    if (!**f)
        return NULL;
    const char *s = *f;
    while (*s == ' ')
        s++;
    *fe = field_end(s);
    *f = **fe ? *fe + 1 : *fe;
    return s;
}

/* The identifiers of text [p, end) that name variables (not followed by '(': no
 * function or proctype names; not after '.': struct fields), each resolved and
 * appended once.  skip, when not NULL, is an identifier's start that is not read (an
 * assignment's target). */
static int scan_ids(const nr_model *m, int pid, const char *p, const char *end, const char *skip,
                    uint32_t **out, size_t *n, size_t *cap)
{
    while (p < end) {
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *w = p;
            while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
                p++;
            const char *q = p;
            while (q < end && *q == ' ')
                q++;
            bool call = q < end && *q == '(';
            if (w != skip && !call && !keyword(w, (size_t)(p - w)) &&
                resolve(m, pid, w, (size_t)(p - w), out, n, cap))
                return -1;
        } else if (isdigit((unsigned char)*p)) {
            while (p < end && isalnum((unsigned char)*p))
                p++;
        } else if (*p == '.') { /* a struct field's name */
            p++;
            while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
                p++;
        } else if (*p == '"') {
            p++;
            while (p < end && *p != '"')
                p += *p == '\\' && p + 1 < end ? 2 : 1;
            p++;
        } else
            p++;
    }
    return 0;
}

/* What statement text t (pan.t's) reads: an assignment everything but its target's
 * name (its subscripts are read); a receive or poll its channel (with subscripts) and,
 * of its fields, what an `eval(e)` matches against and a variable's subscripts, not
 * the variables it stores into; anything else every variable it names (a send its
 * channel and its values).  The shape is shape_of's, which nr_writer_line's
 * writes_base reads too, so the two agree on what a statement is. */
static int scan_reads(const nr_model *m, int pid, const char *t, uint32_t **out, size_t *n,
                      size_t *cap)
{
    shape sh = shape_of(t);
    const char *end = t + strlen(t);
    if (sh.kind == SH_ASSIGN)
        return scan_ids(m, pid, t, end, t, out, n, cap);
    if (sh.kind != SH_RECV && sh.kind != SH_POLL)
        return scan_ids(m, pid, t, end, NULL, out, n, cap);
    if (scan_ids(m, pid, t, sh.ref_end, NULL, out, n, cap))
        return -1;
    for (const char *f = sh.fields, *fs, *fe; (fs = next_field(&f, &fe));)
        /* past a leading name: a variable is written (its subscripts are read), and
         * eval's argument is read; a constant has no name */
        if (scan_ids(m, pid, past_ident(fs), fe, NULL, out, n, cap))
            return -1;
    return 0;
}

static const char *source(nr_model *m, const char *path)
{
    if (!m->source_tried) {
        m->source_tried = true;
        u_err ignore = {{0}};
        m->source = path ? u_read_file(path, NULL, &ignore) : NULL;
    }
    return m->source;
}

/* The text of the d_step starting at line `line` of the source: from that line to
 * the brace that closes the first one opened there; NULL when unknown. */
static const char *dstep_body(nr_model *m, const char *path, int line, const char **end)
{
    const char *s = source(m, path);
    for (int l = 1; s && *s && l < line; s++)
        l += *s == '\n';
    if (!s || !*s)
        return NULL;
    const char *open = strchr(s, '{');
    if (!open)
        return NULL;
    int depth = 0;
    for (const char *p = open; *p; p++) {
        depth += (*p == '{') - (*p == '}');
        if (depth == 0) {
            *end = p;
            return open + 1;
        }
    }
    return NULL;
}

int nr_reads(nr_model *m, int pid, int proctype, int tid, uint32_t **out, size_t *n)
{
    const char *t = nr_text(m, proctype, tid);
    size_t cap = *n;
    if (!strncmp(t, "D_STEP", 6)) {
        const char *end = NULL, *body = dstep_body(m, m->source_path, atoi(t + 6), &end);
        return body ? scan_ids(m, pid, body, end, NULL, out, n, &cap) : 0;
    }
    return scan_reads(m, pid, t, out, n, &cap);
}

int nr_reads_merged(nr_model *m, int pid, int proctype, int tid, uint32_t **out, size_t *n)
{
    const int *hop;
    size_t nh = nr_merged(m, proctype, tid, &hop);
    for (size_t k = 0; k < nh; k++) {
        const char *t = m->trans[hop[k]].text;
        size_t cap = *n;
        if (scan_reads(m, pid, t, out, n, &cap))
            return -1;
    }
    return 0;
}

/* ---- which statement of a move writes a variable ---- */

/* Whether statement text t writes a variable declared as base: the target of an
 * assignment `base = e` (`base[i] = e`, `base.f = e`), a variable a receive `c?x,y`
 * (`c??x`, `c?<x>`) stores into, or the channel a send or a removing receive
 * changes.  Conditions, polls, asserts, prints and anything else write nothing. */
static bool writes_base(const char *t, const char *base)
{
    shape sh = shape_of(t);
    switch (sh.kind) {
    case SH_ASSIGN:
    case SH_SEND:
        return is_name(t, sh.name_end, base);
    case SH_RECV:
        if (!sh.copy && is_name(t, sh.name_end, base))
            return true;
        for (const char *f = sh.fields, *fs, *fe; (fs = next_field(&f, &fe));) {
            const char *we = past_ident(fs);
            if (we > fs && *we != '(' && is_name(fs, we, base))
                return true;
        }
        return false;
    default:
        return false;
    }
}

int nr_writer_line(const nr_model *m, int proctype, int tid, uint32_t var)
{
    if (var >= m->nvars)
        return 0;
    const char *base = m->var[var].base;
    const int *hop;
    size_t nh = nr_merged(m, proctype, tid, &hop);
    for (size_t k = nh; k-- > 0;)
        if (writes_base(m->trans[hop[k]].text, base))
            return nr_trans_line(m, hop[k]);
    return writes_base(nr_text(m, proctype, tid), base) ? nr_line(m, proctype, tid) : 0;
}
