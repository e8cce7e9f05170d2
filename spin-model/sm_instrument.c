/*
 * sm_instrument.c - the checked source transformation of SPIN's pan.c and pan.h.
 *
 * pancause never copies or patches SPIN; it edits the pan.c that `spin -a` generated
 * for the user's model, at a handful of anchor points, and appends a glue file that
 * reads pan's globals.  The anchors are one table (ANCHORS below): what text, where
 * (the whole file or one function's body), how often it must occur, and what edit it
 * gets.  Every anchor must occur exactly as often as SPIN 6.5.2 writes it, and no two
 * edits may touch the same text.  If pan.c has another shape (another SPIN, a
 * hand-edited file) the transformation fails and names the anchor, so `make pan`
 * stops instead of building a pan whose hooks sit in the wrong place.
 *
 * Some anchors edit nothing: they pin down pan code whose logic the glue repeats
 * (new_state()'s condition for storing a state, which sm_glue.c.inc's sm_pan_down()
 * copies), so that a SPIN that changed it fails here instead of recording wrongly.
 *
 * Around pan's own code the output turns pan's warnings off (pragmas: pan is not ours
 * to fix) and turns every -Wall -Wextra warning of the glue into an error, so the
 * glue is held to the project's standard while pan.c is compiled as SPIN wrote it.
 */
#include "spinmodel.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable output string. */
typedef struct {
    char *s;
    size_t len, cap;
    bool oom;
} sm_buf;

/* Room for n more bytes and the terminating NUL; false (and oom set) when there is
 * none. */
static bool buf_room(sm_buf *b, size_t n)
{
    if (b->oom)
        return false;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = true;
            return false;
        }
        b->s = s;
        b->cap = cap;
    }
    return true;
}

static void buf_add(sm_buf *b, const char *p, size_t n)
{
    if (!buf_room(b, n))
        return;
    memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void buf_str(sm_buf *b, const char *p)
{
    buf_add(b, p, strlen(p));
}

/* printf into the buffer: the generated tables' rows. */
static void buf_fmt(sm_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_fmt(sm_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = true;
        return;
    }
    if (!buf_room(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* ---- the anchors ---- */

typedef enum {
    CHECK,      /* no edit: the text must be there (logic the glue relies on) */
    REPLACE,    /* replace the text */
    BEFORE,     /* insert before the text */
    AFTER,      /* insert right after the text */
    AFTER_LINE, /* insert after the line holding the text */
    BODY_START, /* text is a function's signature line: insert after its opening brace */
    BODY_END    /* text is a function's signature line: insert before its closing brace */
} sm_how;

typedef struct {
    const char *text;   /* exact text; with `line`, a whole line */
    bool line;          /* match whole lines only */
    const char *within; /* NULL: the whole file; else the signature line of the function
                           in whose body the text must occur */
    int count;          /* occurrences required */
    sm_how how;
    const char *edit; /* what is inserted, or the replacement */
} sm_anchor;

/* The included header: pan_cause.h (pan.h with the recorder's two words per entry,
 * see sm_instrument_header) and then the hook prototypes of sm_pan.h. */
static const char *const INCLUDE = "#include \"pan_cause.h\"\n"
                                   "#define SM_PAN_GLUE 1 /* pancause: spin-model/sm_pan.h */\n"
                                   "#include \"sm_pan.h\"";

/* The capture of pan's variable printing (sm_pan.h's sm_pan_cap): # takes the
 * arguments as written, so the decoder sees `now.x`, not pptr's expansion. */
static const char CAPTURE_ON[] = "#define printf(...) sm_pan_cap(#__VA_ARGS__, __VA_ARGS__)\n"
                                 "#define Printf(...) sm_pan_cap(#__VA_ARGS__, __VA_ARGS__)\n";
static const char CAPTURE_OFF[] = "#undef printf\n#undef Printf\n";

static const char NEW_STATE[] = "new_state(void)";
static const char STORE_STATE[] = "store_state(Trail *ntrpt, int shortcut, short oboq)";
static const char H_STORE[] = "h_store(char *vin, int nin)\t/* hash table storage */";

static const sm_anchor ANCHORS[] = {
    /* the header and the hooks' prototypes */
    {"#include \"pan.h\"", true, NULL, 1, REPLACE, INCLUDE},
    /* DFS enters a state */
    {"Down:", true, NULL, 1, AFTER_LINE, "\tsm_pan_down();\n"},
    /* a move is tried (DFS and BFS) */
    {"_m = do_transit(t, II)", false, NULL, 2, REPLACE, "_m = SM_TRANSIT(t, II)"},
    /* DFS: a rendezvous send whose receive cannot follow was no move (sm_pan_rv_failed) */
    {"\t\tif (boq != -1) goto Done;", true, NEW_STATE, 1, REPLACE,
     "\t\tif (boq != -1) { sm_pan_rv_failed(); goto Done; }"},
    /* DFS: at depth maxdepth-1 a state with no move is not checked for an end state
     * (nor given a timeout): its end is unknown, the search is cut (smh_depth_cut;
     * fifth probe P5-7: a deadlock there was "complete, not reachable") */
    {"\t\t||  depth >= maxdepth-1) goto Done;\t/* undo change from 5.2.3 */", true, NEW_STATE, 1,
     REPLACE, "\t\t||  (depth >= maxdepth-1 && smh_depth_cut())) goto Done;"},
    /* BFS: a state where every process has ended is checked for an invalid end state
     * when -q asks for empty channels, as new_state() does; SPIN's bfs() skips it (the
     * fifth probe's P5-2: `-q` with a message left behind, "complete, not reachable"
     * where the DFS build finds it) */
    {"\t\t} else if (now._nr_pr > 0)", true, "bfs(void)", 1, REPLACE,
     "\t\t} else if (now._nr_pr > 0 || sm_pan_bfs_strict_end())"},
    /* a receive's undo (DFS and BFS) puts back the fields the receive took, not the
     * receiving variables' (possibly truncated) values (sm_glue.c.inc's sm_pan_unrecv) */
    {"\treturn r;", true, "qrecv(int from, int slot, int fld, int done)", 1, REPLACE,
     "\treturn sm_pan_recv(fld, r);"},
    {"unrecv(int from, int slot, int fld, int fldvar, int strt)", true, NULL, 1, BODY_START,
     "\tfldvar = sm_pan_unrecv(fld, fldvar);\n"},
    /* every error report of both searches */
    {"dfs_uerror(char *str)", true, NULL, 1, BODY_START, "\tsmh_error(str, sm_pan_undoing);\n"},
    /* pan's undo of a move (do_reverse, or pan.b inline in DFS) evaluates the move's array indices
     * again: an index out of range is reported a second time, while pan backtracks (fourth probe
     * P4-7).  The flag tells the recorder so (smh_error). */
    {"do_reverse(Trans *t, short II, uchar M)", true, NULL, 1, BODY_START,
     "\tsm_pan_undoing = 1;\n"},
    {"R999:\treturn _m;", true, "do_reverse(Trans *t, short II, uchar M)", 1, REPLACE,
     "R999:\tsm_pan_undoing = 0;\n\treturn _m;"},
    /* ... and DFS undoes in new_state() itself, the same code inline (without -DMA) */
    {"#include BACKWARD_MOVES", true, NEW_STATE, 1, BEFORE, "\t\t\tsm_pan_undoing = 1;\n"},
    {"R999:\t\t\t/* jumps here when done */", true, NEW_STATE, 1, AFTER_LINE,
     "\t\t\tsm_pan_undoing = 0;\n"},
    /* pan reports an index out of range and then uses it: the move writes outside the
     * array, into the neighbouring variable of the state vector or, for an array SPIN
     * keeps out of it (a "hidden variable"), whatever C object follows.  When that was
     * the index itself, the undo restores another element, and pan goes back to a state
     * no run reaches (fixtures/index_clobber.pml: a[3] = 1 set i, the undo a[1]; -C
     * then reported another assertion and no cause, complete).  The run ends in the
     * violation, so what the move does after it matters to no run; an index in range
     * (0) makes the undo restore exactly what the move changed. */
    {"\treturn x;", true, "Boundcheck(int x, int y, int a1, int a2, Trans *a3)", 1, REPLACE,
     "\treturn (x >= 0 && x < y) ? x : 0;"},
    /* ... of which pan's fatal ones (Uerror: "aborting" after "VECTORSZ too small",
     * ...) stop the search and are no violation */
    {"dfs_Uerror(char *str)", true, NULL, 1, BODY_START, "\tsmh_fatal(str);\n"},
    /* ... and prints its line for each message once (smh_error_shown) */
    {"if (strncmp(str, laststr, 254))", false, "dfs_uerror(char *str)", 1, REPLACE,
     "if (strncmp(str, laststr, 254) && smh_error_shown(str))"},
    /* BFS takes a state from its queue */
    {"depth = trpt->o_tt;", false, NULL, 1, AFTER, " sm_pan_bfs_pop();"},
    /* BFS: the atomic sequence of that state blocks, pan expands it again without
     * atomicity: a run may end there (sm_glue.c.inc's sm_pan_bfs_atomic_lost) */
    {"trpt->tau &= ~(1|8);\t/* 1=timeout, 8=atomic */", false, "bfs(void)", 1, AFTER,
     " sm_pan_bfs_atomic_lost();"},
    /* BFS stores a move's successors; the never claim moves there */
    {STORE_STATE, true, NULL, 1, BODY_START, "\tsm_pan_bfs_group_begin();\n"},
    {STORE_STATE, true, NULL, 1, BODY_END, "\tsm_pan_bfs_group_end();\n"},
    {"return", false, STORE_STATE, 0, CHECK, NULL}, /* group_end is always reached */
    {"b_store((char *)&now, vsize)", false, STORE_STATE, 1, BEFORE, "(sm_pan_bfs_store(ntrpt), "},
    /* -DMA's store tells the glue whether it matched the state, as h_store() does: a
     * state pan matched in another search mode is then noticed (smh_bfs_store_seen) */
    {"g_store((char *)&now, vsize, 0)", false, STORE_STATE, 1, BEFORE,
     "(sm_pan_bfs_stored(ntrpt, "},
    {"h_store((char *)&now, vsize)", false, STORE_STATE, 1, BEFORE,
     "(sm_pan_hel = 0, sm_pan_bfs_stored(ntrpt, "},
    {"if (do_transit(t2, 0))", false, STORE_STATE, 1, REPLACE, "if (SM_CLAIM_TRANSIT(t2))"},
    /* pan is about to exit: the analysis and the report */
    {"pan_exit(int val)", true, NULL, 1, BODY_START, "\tsm_pan_exit(&val);\n"},
    /* all of pan's memory comes through Malloc(); the glue frees it before the analysis */
    {"\ttmp = (char *) malloc(n);", true, NULL, 1, REPLACE, "\ttmp = (char *) sm_pan_malloc(n);"},
    /* h_store() hands the entry it matched or inserted to the glue */
    {"if (m == 0) {", false, H_STORE, 1, AFTER, " sm_pan_hel = tmp;"},
    {"memcpy(((char *)&(tmp->state)), v, n);", false, H_STORE, 1, BEFORE, "sm_pan_hel = tmp; "},
    {"\t\t\tII = h_store((char *)&now, vsize);", true, NEW_STATE, 1, AFTER_LINE,
     "\t\t\tsm_pan_stored(II);\n"},
    /* ... and so does -DMA's store (g_store, no entry): sm_pan_stored() is where the
     * glue sees an atomic sequence that blocked lose atomicity (sm_pan_atomic_break).
     * Without it the -DMA build kept such a state in atomic mode, where no run ends and
     * which never rejoined the state's node outside it: good runs were lost and the
     * causes were wrong, complete (fourth probe, P4-8) */
    {"\t\t\tII = g_store((char *)&now, vsize, 0);", true, NEW_STATE, 1, AFTER_LINE,
     "\t\t\tsm_pan_stored(II);\n"},
    /* ... and may ask pan to expand a state its store matched (sm_pan_stored) */
    {"\t\t\tif (II)", true, NEW_STATE, 1, REPLACE, "\t\t\tif (II && !sm_pan_reexplore)"},
    /* pan's printing of the variables becomes the nearest decoder's capture: printf and
     * Printf from c_globals() through c_chandump(), which SPIN writes last, before the
     * transition lookup table (sm_glue.c.inc's sm_pan_decode) */
    {"c_globals(void)", true, NULL, 1, BEFORE, CAPTURE_ON},
    {"c_locals(int pid, int tp)", true, NULL, 1, CHECK, NULL},
    {"printm(int x, char *s)", true, NULL, 1, CHECK, NULL},
    {"Trans *t_id_lkup[", false, NULL, 1, BEFORE, CAPTURE_OFF},
    /* new_state()'s condition for calling h_store(), which sm_pan_down() repeats */
    {"\tif (depth >= maxdepth)", true, NEW_STATE, 1, CHECK, NULL},
    {"\tif ((trpt->tau&4) || ((trpt-1)->tau&128))", true, NEW_STATE, 1, CHECK, NULL},
    {"\tif (boq == -1) {\t/* if not mid-rv */", true, NEW_STATE, 1, CHECK, NULL},
    {"\t\tif (!(trpt->tau&8)) /* if no atomic move */", true, NEW_STATE, 1, CHECK, NULL},
};
#define NANCHORS (sizeof ANCHORS / sizeof ANCHORS[0])

/* One pending edit: replace [at, at + cut) by text (cut 0: an insertion). */
typedef struct {
    const char *at;
    size_t cut;
    const char *text;
    size_t anchor;
} sm_edit;

static const char *line_end(const char *p)
{
    const char *e = strchr(p, '\n');
    return e ? e + 1 : p + strlen(p);
}

/* The region an anchor is searched in: the file, or a function's body from its
 * opening brace (the line after the signature, as SPIN writes it) to the first
 * closing brace at the start of a line. */
static int region(const char *src, const char *sig, const char **from, const char **to,
                  const char **close)
{
    if (!sig) {
        *from = src;
        *to = src + strlen(src);
        return 0;
    }
    size_t k = strlen(sig);
    const char *hit = NULL;
    int n = 0;
    for (const char *p = src; (p = strstr(p, sig)); p += k)
        if ((p == src || p[-1] == '\n') && (p[k] == '\n' || !p[k])) {
            hit = p;
            n++;
        }
    if (n != 1)
        return n;
    const char *open = line_end(hit);
    const char *end = strstr(open, "\n}\n");
    if (open[0] != '{' || !end)
        return -1;
    *from = open;
    *to = end + 1;
    if (close)
        *close = end + 1;
    return 0;
}

/* Occurrences of the anchor's text in [from, to); *first gets the first. */
static int occurrences(const sm_anchor *a, const char *from, const char *to, const char **hits,
                       int max)
{
    size_t k = strlen(a->text);
    int n = 0;
    for (const char *p = from; (p = strstr(p, a->text)) && p + k <= to; p += k) {
        if (a->line && !((p == from || p[-1] == '\n') && (p[k] == '\n' || !p[k])))
            continue;
        if (n < max)
            hits[n] = p;
        n++;
    }
    return n;
}

static int fail(u_err *err, const sm_anchor *a, int found)
{
    return u_errf(err,
                  "pan.c does not have the shape pancause expects: anchor '%s'%s%s found %d "
                  "times, expected %d. pan.c must be generated by SPIN 6.5.2 (`spin -a "
                  "model.pml`) and not edited.",
                  a->text, a->within ? " in " : "", a->within ? a->within : "", found, a->count);
}

/* Plans the edits of one anchor. */
static int plan(const char *src, size_t ai, sm_edit *e, size_t *ne, u_err *err)
{
    const sm_anchor *a = &ANCHORS[ai];
    const char *from = NULL, *to = NULL, *close = NULL;
    bool body = a->how == BODY_START || a->how == BODY_END;
    int r = region(src, body ? a->text : a->within, &from, &to, &close);
    if (r != 0) {
        const sm_anchor whole = {body ? a->text : a->within, true, NULL, 1, CHECK, NULL};
        return fail(err, &whole, r < 0 ? 1 : r);
    }
    if (body) {
        e[(*ne)++] = (sm_edit){a->how == BODY_START ? line_end(from) : close, 0, a->edit, ai};
        return 0;
    }
    const char *hits[4];
    int n = occurrences(a, from, to, hits, 4);
    if (n != a->count)
        return fail(err, a, n);
    for (int i = 0; i < n && a->how != CHECK; i++) {
        const char *at = hits[i];
        size_t cut = 0;
        if (a->how == REPLACE)
            cut = strlen(a->text);
        else if (a->how == AFTER)
            at += strlen(a->text);
        else if (a->how == AFTER_LINE)
            at = line_end(at);
        e[(*ne)++] = (sm_edit){at, cut, a->edit, ai};
    }
    return 0;
}

/* Whether the declaration d (n bytes, a top-level C declaration without its ';')
 * declares a type only: `typedef ...`, or `struct|union|enum [TAG] [{...}]` with no
 * declarator after it.  Anything else (a variable, a function prototype, a function
 * definition, an extern) may be data: false. */
static bool type_only(const char *d, size_t n)
{
    while (n && isspace((unsigned char)*d))
        d++, n--;
    while (n && isspace((unsigned char)d[n - 1]))
        n--;
    if (!n)
        return true;
    if (n > 7 && !strncmp(d, "typedef", 7) && isspace((unsigned char)d[7]))
        return true;
    static const char *const kw[] = {"struct", "union", "enum"};
    for (size_t k = 0; k < 3; k++) {
        size_t l = strlen(kw[k]);
        if (n <= l || strncmp(d, kw[k], l) || !isspace((unsigned char)d[l]))
            continue;
        const char *e = d + n, *brace = memchr(d, '{', n);
        if (brace) /* a definition: nothing may follow its closing brace */
            return e[-1] == '}';
        size_t i = l; /* a forward declaration: struct TAG */
        while (i < n && isspace((unsigned char)d[i]))
            i++;
        while (i < n && (isalnum((unsigned char)d[i]) || d[i] == '_'))
            i++;
        return i == n;
    }
    return false;
}

/* Whether a c_decl block's text (SPIN passed it through cpp: no comments, no macros)
 * declares types only: every top-level declaration, split at ';' outside braces and
 * parentheses, is type_only.  A '{' that closes without a ';' after it at depth 0 (a
 * function body) is data too. */
static bool types_only(const char *s, size_t n)
{
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '{' || c == '(')
            depth++;
        else if ((c == '}' || c == ')') && depth > 0)
            depth--;
        else if (c == '#' && depth == 0)
            return false; /* a directive cpp left (#pragma, #line): unknown */
        if (depth == 0 && c == ';') {
            if (!type_only(s + start, i - start))
                return false;
            start = i + 1;
        }
    }
    for (size_t i = start; i < n; i++) /* text after the last ';': a function body */
        if (!isspace((unsigned char)s[i]))
            return false;
    return depth == 0;
}

/* C data outside pan's state, for the glue (SMH_C_UNTRACKED): SPIN 6.5.2 writes each
 * c_decl (and top-level c_code) block between "start of c_codeN" and "end of c_codeN"
 * comments before pan.c includes pan.h, and a c_state "Hidden" declaration as a C
 * global marked "Hidden".  A block that declares types only (types_only: the usual
 * c_decl beside a c_state "Global" or "Local", whose data pan keeps in its state) is
 * no data.  Whether c_track registers a block's data the glue reads from pan.h's
 * HAS_TRACK. */
static void c_data(sm_buf *b, const char *src)
{
    const char *inc = strstr(src, "\n#include \"pan.h\"");
    bool data = false;
    for (const char *blk = strstr(src, "/* start of c_code"); blk && inc && blk < inc && !data;
         blk = strstr(blk + 1, "/* start of c_code")) {
        const char *body = strstr(blk, "*/"), *end = body ? strstr(body, "/* end of c_code") : NULL;
        data = !end || !types_only(body + 2, (size_t)(end - body - 2));
    }
    if (data)
        buf_str(b, "#define SM_C_DECL 1 /* pancause: a c_decl block that may declare data */\n");
    if (strstr(src, ";\t/* Hidden */\n"))
        buf_str(b, "#define SM_C_HIDDEN 1 /* pancause: a c_state \"Hidden\" */\n");
}

/* Array indices pan checks (SMH_NOBOUNDCHECK): SPIN 6.5.2 writes each array access
 * with a computed index as `a[ Index(e, N) ]` in pan.m (a constant index is written
 * as is), and -DNOBOUNDCHECK makes Index(x, y) plain x.  Unknown (no pan.m) counts as
 * indexed. */
/* The atomic sequences' extents, from pan.t (pan rewrites its tables at start-up):
 * each sequence has a pseudo-state "ATOMIC" numbered after its statements, whose
 * moves lead to its first one; sm_pan_atomics[] = {proctype, first state, pseudo-state}
 * (the glue's sm_pan_in_atomic). */
static void atomics(sm_buf *b, const char *pan_t)
{
    buf_str(b, "static const int sm_pan_atomics[][3] = {");
    for (const char *l = pan_t; l && (l = strstr(l, "\"ATOMIC\"")) != NULL; l++) {
        const char *bol = l;
        while (bol > pan_t && bol[-1] != '\n')
            bol--;
        int p, x, t_id, a, st;
        const char *tr = strstr(bol, "trans[");
        if (!tr || tr > l ||
            sscanf(tr, "trans[ %d][%d] = settr(%d,%d,%d", &p, &x, &t_id, &a, &st) != 5)
            continue;
        /* the next line: T->nxt = settr(..,..,target,...) */
        const char *nx = strchr(l, '\n');
        int st2 = 0;
        static const char next[] = "\tT->nxt\t= settr(";
        if (nx && !strncmp(nx + 1, next, sizeof next - 1))
            (void)sscanf(nx + sizeof next, "%d,%d,%d", &t_id, &a, &st2);
        int first = st > st2 ? st : st2;
        if (first > 0 && first < x)
            buf_fmt(b, "{%d, %d, %d}, ", p, first, x);
    }
    buf_str(b, "{-1, 0, 0}};\n");
}

static void indexes(sm_buf *b, const char *pan_m, const char *pan_t)
{
    if (!pan_m || strstr(pan_m, "Index("))
        buf_str(b, "#define SM_PAN_INDEXED 1 /* pancause: a checked array index */\n");
    /* a statement that creates a process or reads _nr_pr, wherever it is (inside a
     * d_step its text is only "D_STEPn": the sixth probe's P6-9), or a proctype's
     * `provided` clause that reads _nr_pr: SPIN writes those into pan.t's provided()
     * (the seventh probe's P7-2: a safe move of another process ended it, preselected,
     * before the clause let the process move); pan.t names _nr_pr nowhere else */
    buf_fmt(b, "#define SM_PAN_PROCS %d /* pancause: run or _nr_pr in a statement */\n",
            !pan_m || !pan_t || strstr(pan_m, "_nr_pr") || strstr(pan_m, "addproc(") ||
                strstr(pan_t, "_nr_pr"));
}

/* The names of the never claims (every ltl block is one, selected by -N or not), from
 * SPIN 6.5.2's "spin_c_typ[i] = P; /" "* name *" "/" lines, as sm_pan_claim_names[]
 * (NULL-terminated): their labels are SPIN's, not events the user named. */
static void claim_names(sm_buf *b, const char *src)
{
    static const char KEY[] = "spin_c_typ[";
    buf_str(b, "static const char *const sm_pan_claim_names[] = {");
    for (const char *p = strstr(src, KEY); p; p = strstr(p + 1, KEY)) {
        /* an assignment's line only: "uchar spin_c_typ[NCLAIMS]; /" "* claim-types *" "/"
         * declares the array */
        const char *eol = strchr(p, '\n'), *c = strstr(p, "; /* "), *eq = strchr(p, '=');
        if (!eol || !c || c > eol || !eq || eq > eol)
            continue;
        const char *name = c + 5, *end = strstr(name, " */");
        if (!end || end > eol || end == name)
            continue;
        buf_str(b, "\"");
        for (const char *q = name; q < end; q++)
            if (isalnum((unsigned char)*q) || *q == '_')
                buf_add(b, q, 1);
        buf_str(b, "\", ");
    }
    buf_str(b, "NULL};\n");
}

/* Stable by position, so that insertions at one point keep the table's order. */
static int edit_cmp(const void *x, const void *y)
{
    const sm_edit *a = x, *b = y;
    if (a->at != b->at)
        return (a->at > b->at) - (a->at < b->at);
    return (a->anchor > b->anchor) - (a->anchor < b->anchor);
}

/* ---- the output ---- */

/* pan's code is SPIN's, not ours: its warnings are off; the glue's are errors. */
static const char *const PROLOGUE =
    "/* Instrumented by pancause (spin-model/sm_instrument.c) from SPIN's pan.c. */\n"
    "#pragma GCC diagnostic push\n"
    "#pragma GCC diagnostic ignored \"-Wall\"\n"
    "#pragma GCC diagnostic ignored \"-Wextra\"\n"
    "#pragma GCC diagnostic ignored \"-Wunused-parameter\"\n"
    "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
    "#pragma GCC diagnostic ignored \"-Wunused-but-set-variable\"\n"
    "#pragma GCC diagnostic ignored \"-Wunused-label\"\n"
    "#pragma GCC diagnostic ignored \"-Wunused-function\"\n"
    "#pragma GCC diagnostic ignored \"-Wunused-value\"\n"
    "#pragma GCC diagnostic ignored \"-Wsign-compare\"\n"
    "#pragma GCC diagnostic ignored \"-Wtype-limits\"\n"
    "#pragma GCC diagnostic ignored \"-Wimplicit-fallthrough\"\n"
    "#pragma GCC diagnostic ignored \"-Wmisleading-indentation\"\n"
    "#pragma GCC diagnostic ignored \"-Wmaybe-uninitialized\"\n"
    "#pragma GCC diagnostic ignored \"-Wuninitialized\"\n"
    "#pragma GCC diagnostic ignored \"-Wrestrict\"\n"
    "#pragma GCC diagnostic ignored \"-Wparentheses\"\n"
    "#pragma GCC diagnostic ignored \"-Wformat\"\n"
    "#pragma GCC diagnostic ignored \"-Wformat-overflow\"\n"
    "#pragma GCC diagnostic ignored \"-Wformat-truncation\"\n"
    "#pragma GCC diagnostic ignored \"-Wstringop-overflow\"\n"
    "#pragma GCC diagnostic ignored \"-Wstringop-truncation\"\n"
    "#pragma GCC diagnostic ignored \"-Warray-bounds\"\n"
    "#pragma GCC diagnostic ignored \"-Wmissing-field-initializers\"\n"
    "#pragma GCC diagnostic ignored \"-Wempty-body\"\n"
    "#pragma GCC diagnostic ignored \"-Wclobbered\"\n"
    "#pragma GCC diagnostic ignored \"-Wchar-subscripts\"\n"
    "#pragma GCC diagnostic ignored \"-Wswitch\"\n"
    "#pragma GCC diagnostic ignored \"-Wdangling-else\"\n"
    "#pragma GCC diagnostic ignored \"-Wint-in-bool-context\"\n"
    "#pragma GCC diagnostic ignored \"-Wshift-negative-value\"\n"
    "#pragma GCC diagnostic ignored \"-Wold-style-declaration\"\n"
    "#pragma GCC diagnostic ignored \"-Wpointer-sign\"\n"
    "#pragma GCC diagnostic ignored \"-Waddress\"\n"
    "#pragma GCC diagnostic ignored \"-Wunused-result\"\n";

static const char *const EPILOGUE = "\n/* pancause: from here on the project's own code */\n"
                                    "#pragma GCC diagnostic pop\n"
                                    "#pragma GCC diagnostic error \"-Wall\"\n"
                                    "#pragma GCC diagnostic error \"-Wextra\"\n";

/* Whether a statement of pan.t assigns to channel name c ("c = ..." as settr's text):
 * the name then stands for another queue than its own (P5-6). */
static bool chan_assigned(const char *pan_t, const char *c)
{
    size_t n = strlen(c);
    for (const char *p = pan_t ? strstr(pan_t, "settr(") : NULL; p; p = strstr(p + 1, "settr(")) {
        const char *q = strchr(p, '"');
        if (q && !strncmp(q + 1, c, n) && !strncmp(q + 1 + n, " = ", 3))
            return true;
    }
    return false;
}

/* The label table and the glue, appended after pan's own code. */
static int append_tail(sm_buf *b, const char *labels, const char *pan_t, const char *glue_path)
{
    sm_label *l = NULL;
    int n = sm_labels_parse(labels, &l);
    if (n < 0)
        return -1;
    buf_str(b, EPILOGUE);
    buf_str(b, "/* pancause: event labels from `spin -d` */\n"
               "static const sm_label sm_pan_labels[] = {\n");
    for (int i = 0; i < n; i++)
        buf_fmt(b, "    {\"%s\", %d, \"%s\"},\n", l[i].proc, l[i].state, l[i].label);
    char **ch = NULL;
    unsigned char *zero = NULL;
    int all_global = 1, nch = sm_chans_parse(labels, &ch, &zero, &all_global);
    if (nch < 0) {
        sm_labels_free(l, n);
        return -1;
    }
    for (int i = 0; i < nch && all_global; i++)
        all_global = !chan_assigned(pan_t, ch[i]);
    buf_str(b, "    {0, 0, 0}};\n/* pancause: global channels from `spin -d`, for the partial "
               "order reduction */\n#ifndef NOREDUCE\n"
               "static const char *const sm_pan_chans[] = {");
    for (int i = 0; i < nch; i++)
        buf_fmt(b, "\"%s\", ", ch[i]);
    buf_str(b, "0};\nstatic const unsigned char sm_pan_chans_rv[] = {");
    for (int i = 0; i < nch; i++)
        buf_str(b, zero[i] ? "1, " : "0, ");
    sm_chans_free(ch, zero, nch);
    char **gl = NULL;
    int ngl = sm_globals_parse(labels, &gl);
    if (ngl < 0) {
        sm_labels_free(l, n);
        return -1;
    }
    buf_str(b, "0};\n/* pancause: global variables from `spin -d` (a move SPIN takes as local "
               "that names one reads a global declared `local`) */\n"
               "static const char *const sm_pan_globals[] = {");
    for (int i = 0; i < ngl; i++)
        buf_fmt(b, "\"%s\", ", gl[i]);
    sm_chans_free(gl, NULL, ngl);
    buf_fmt(b,
            "0};\nstatic const int sm_pan_chans_global = %d;\n#endif\n"
            "static const int sm_pan_nlabels = %d;\n#include \"%s\"\n",
            all_global, n, glue_path);
    sm_labels_free(l, n);
    return b->oom ? -1 : 0;
}

/* ---- pan.t: the transitions, for the nearest search's source lines ---- */

/* The integer at *p (after blanks); NULL when there is none. */
static const char *read_int(const char *p, int *v)
{
    while (*p == ' ' || *p == '\t')
        p++;
    char *end;
    long x = strtol(p, &end, 10);
    if (end == p)
        return NULL;
    *v = (int)x;
    return end;
}

/* Which pan.m case (settr's FORW) moves proctype p from state st: the key from a case
 * of pan.m to its transition, for the merged statements. */
typedef struct {
    int forw, p, st;
} case_of;

typedef struct {
    case_of *c;
    size_t n, cap;
    bool oom;
} case_list;

static void case_add(case_list *l, int forw, int p, int st)
{
    if (l->oom)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        case_of *c = realloc(l->c, cap * sizeof *c);
        if (!c) {
            l->oom = true;
            return;
        }
        l->c = c;
        l->cap = cap;
    }
    l->c[l->n++] = (case_of){forw, p, st};
}

/* One `settr(...)` line of pan.t: `trans[P][S] = settr(TID, ATOM, TARGET, FORW, ...,
 * "text", ...)` or a chain continuation `T->nxt = settr(...)` of the last (P, S).
 * Appends a table row; lines of no numbered proctype (the _NP_ process) are skipped.
 * TARGET is kept for the IF/DO pseudo-transitions, whose targets are their options'
 * states.  A statement SPIN merged into the move before it is declared
 * `settr(0,0,0,0,0,"text",0,0,0)` (pangen2.c's case_cache): no move of its own, so
 * its row gets t_id -1 (its 0 is no t_id, and must not stand for the real t_id 0).
 * Every other `trans[P][S]` line's FORW (its case in pan.m) goes into cases. */
static void trans_line(sm_buf *b, const char *line, const char *end, int *p, int *st, size_t *n,
                       case_list *cases)
{
    const char *t = strstr(line, "trans[");
    const char *call = strstr(line, "settr(");
    if (!call || call >= end || (call > line && call[-1] != ' ' && call[-1] != '\t'))
        return;
    if (t && t < call) {
        const char *q = read_int(t + 6, p);
        if (!q || q[0] != ']' || q[1] != '[' || !(q = read_int(q + 2, st)) || *q != ']') {
            *p = *st = -1;
            return;
        }
    } else if (!strstr(line, "T->nxt") || *p < 0)
        return;
    int tid, atom, target = -1, forw = -1;
    const char *lit = read_int(call + 6, &tid), *q0 = lit;
    if (q0 && *q0 == ',' && (q0 = read_int(q0 + 1, &atom)) && *q0 == ',' &&
        (q0 = read_int(q0 + 1, &target)) && *q0 == ',')
        read_int(q0 + 1, &forw); /* read_int leaves target and forw -1 where it fails */
    lit = lit ? memchr(lit, '"', (size_t)(end - lit)) : NULL;
    if (!lit)
        return;
    const char *q = lit + 1;
    while (q < end && *q != '"')
        q += q[0] == '\\' && q + 1 < end ? 2 : 1;
    if (q >= end)
        return;
    bool merged = !strncmp(q + 1, ",0,0,0);", 8);
    if (merged)
        tid = -1;
    else if (t && t < call && forw > 0)
        case_add(cases, forw, *p, *st);
    buf_fmt(b, "    {%d, %d, %d, ", *p, *st, tid);
    buf_add(b, lit, (size_t)(q + 1 - lit));
    buf_fmt(b, ", %d},\n", target);
    (*n)++;
}

/* The (p, st) whose case in pan.m is forw and whose state is st, or p = -1.  SPIN
 * numbers its cases uniquely; with case caching (`spin -a` without -C does not
 * cache) two transitions of one proctype may share one, and the case names the
 * state it was made for. */
static int case_proc(const case_list *l, int forw, int st)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->c[i].forw == forw && l->c[i].st == st)
            return l->c[i].p;
    return -1;
}

/* The "(A, M, T)" that ends a pan.m merge comment: M, the merged statement's state;
 * -1 when the line does not end so. */
static int merged_state(const char *l, const char *e)
{
    const char *close = NULL;
    for (const char *q = l; q + 3 <= e; q++)
        if (!strncmp(q, ") */", 4))
            close = q;
    const char *open = close;
    while (open && open > l && open[-1] != '(')
        open--;
    int a, m, t;
    const char *q = open && open > l ? read_int(open, &a) : NULL;
    if (!q || *q != ',' || !(q = read_int(q + 1, &m)) || *q != ',' || !(q = read_int(q + 1, &t)) ||
        q != close)
        return -1;
    return m;
}

/* The table sm_pan_merge[] from pan.m: {proctype, state, merged state} per statement
 * SPIN merged into a move, in the order the move executes them.  pan.m opens the code
 * of each move with `case N: // STATE S - file:line - [text]` (N the FORW of the
 * transition of state S in pan.t) and writes the comment `merge: text(A, M, T)` before
 * the code of each statement it takes along (pangen2.c).  A move whose code is a
 * cached copy (`// STATE S ... same as N`, only under `spin -a -C`) lists none: its
 * merged statements stay unnamed, as SPIN's own `pan -d` shows only the first. */
static int append_merges(sm_buf *b, const char *pan_m, const case_list *cases)
{
    buf_str(b, "/* pancause: statements SPIN merged into moves, from pan.m */\n"
               "static const int sm_pan_merge[][3] = {\n");
    size_t n = 0;
    int p = -1, st = -1;
    for (const char *l = pan_m; l && *l;) {
        const char *e = line_end(l), *c = l;
        while (c < e && (*c == ' ' || *c == '\t'))
            c++;
        int forw;
        const char *q;
        if (!strncmp(c, "case ", 5) || !strncmp(c, "// STATE", 8)) {
            p = st = -1;
            if (!strncmp(c, "case ", 5) && (q = read_int(c + 5, &forw)) &&
                !strncmp(q, ": // STATE", 10) && read_int(q + 10, &st))
                p = case_proc(cases, forw, st);
        } else if (p >= 0 && !strncmp(c, "/* merge: ", 10)) {
            int m = merged_state(c, e);
            if (m >= 0) {
                buf_fmt(b, "    {%d, %d, %d},\n", p, st, m);
                n++;
            }
        }
        l = e;
    }
    buf_fmt(b, "    {-1, -1, -1}};\nstatic const int sm_pan_nmerge = %zu;\n", n);
    return b->oom ? -1 : 0;
}

/* The table sm_pan_trans[] (sm_pan.h's sm_trans) from pan.t's settr() calls, copied
 * with their string literals as SPIN wrote them, and sm_pan_merge[] from pan.m; each
 * empty without its file. */
static int append_trans(sm_buf *b, const char *pan_t, const char *pan_m)
{
    buf_str(b, "/* pancause: pan's transitions, from pan.t */\n"
               "static const sm_trans sm_pan_trans[] = {\n");
    size_t n = 0;
    int p = -1, st = -1;
    case_list cases = {0};
    for (const char *l = pan_t; l && *l;) {
        const char *e = line_end(l);
        if (strncmp(l, "settr(", 6)) /* not settr()'s own definition */
            trans_line(b, l, e, &p, &st, &n, &cases);
        l = e;
    }
    buf_fmt(b, "    {-1, -1, -1, 0, -1}};\nstatic const int sm_pan_ntrans = %zu;\n", n);
    int rc = cases.oom || append_merges(b, pan_m, &cases) ? -1 : 0;
    free(cases.c);
    return rc || b->oom ? -1 : 0;
}

/* The capture region must hold c_globals, c_locals, printm and c_chandump, in that
 * order, before the transition lookup table (SPIN 6.5.2's order). */
static bool capture_order(const char *src)
{
    static const char *const F[] = {"\nc_globals(void)\n", "\nc_locals(int pid, int tp)\n",
                                    "\nprintm(int x, char *s)\n", "\nc_chandump(int ",
                                    "\nTrans *t_id_lkup["};
    const char *at = src;
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++)
        if (!(at = strstr(at, F[i])))
            return false;
    return true;
}

int sm_instrument(const char *src, const char *labels, const char *pan_t, const char *pan_m,
                  const char *glue_path, char **out, u_err *err)
{
    *out = NULL;
    if (!strstr(src, "SpinVersion") && !strstr(src, "Spin Version"))
        return u_errf(err, "this is not a pan.c generated by SPIN (no SpinVersion)");
    if (!capture_order(src))
        return u_errf(err, "pan.c does not have the shape pancause expects: c_globals, "
                           "c_locals, printm, c_chandump and t_id_lkup are not in SPIN "
                           "6.5.2's order. pan.c must be generated by SPIN 6.5.2 (`spin -a "
                           "model.pml`) and not edited.");
    sm_edit e[2 * NANCHORS];
    size_t ne = 0;
    for (size_t i = 0; i < NANCHORS; i++)
        if (plan(src, i, e, &ne, err))
            return -1;
    qsort(e, ne, sizeof *e, edit_cmp);
    for (size_t i = 1; i < ne; i++) /* two edits of the same text would garble it */
        if (e[i].at < e[i - 1].at + e[i - 1].cut)
            return u_errf(err, "internal: the edits of anchors '%s' and '%s' overlap",
                          ANCHORS[e[i - 1].anchor].text, ANCHORS[e[i].anchor].text);
    sm_buf b = {0};
    buf_str(&b, PROLOGUE);
    c_data(&b, src);
    indexes(&b, pan_m, pan_t);
    atomics(&b, pan_t);
    const char *at = src;
    for (size_t i = 0; i < ne; i++) {
        buf_add(&b, at, (size_t)(e[i].at - at));
        buf_str(&b, e[i].text);
        at = e[i].at + e[i].cut;
        /* BFS's stores get a closing parenthesis after the call they wrap */
        const sm_anchor *a = &ANCHORS[e[i].anchor];
        if (a->how == BEFORE && a->edit[0] == '(') {
            size_t k = strlen(a->text);
            buf_add(&b, at, k);
            buf_str(&b, strstr(a->edit, "sm_pan_bfs_stored") ? "))" : ")");
            at += k;
        }
    }
    buf_str(&b, at);
    claim_names(&b, src);
    if (append_trans(&b, pan_t, pan_m) || append_tail(&b, labels, pan_t, glue_path) || b.oom) {
        free(b.s);
        return u_errf(err, "out of memory, or `spin -d` output unreadable");
    }
    *out = b.s;
    return 0;
}

/* ---- pan.h ---- */

/* pan_cause.h is pan.h with two words more in pan's hash table entry (H_el) and in
 * its search frame (Trail, which the BFS queue copies per state), in pan.h's order:
 * the recorded state's id and mode travel with pan's own data (sm_glue.c.inc). */
static const struct {
    const char *anchor, *words;
} HEADER[] = {
    {"struct H_el {\n\tH_el *nxt;\n",
     "\tunsigned sm_id, sm_mode; /* pancause: recorded state id + 1, mode (sm_glue.c.inc) */\n"},
    {"struct Trail {\n", "\tunsigned sm_id, sm_mode; /* pancause: BFS, the queued state's id + 1, "
                         "mode */\n"},
};

static int count_of(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* The names of the variables pan's search declares where it runs the model's moves
 * (SPIN 6.5.2's new_state(), do_transit() and do_reverse(), which #include pan.m and
 * pan.b).  A global that no statement reads SPIN keeps out of the state vector as a C
 * variable of its own name (pan.h: a "hidden variable"); named like one of these, the
 * moves' code assigns pan's local instead: `t = 1` overwrote pan's transition pointer
 * (`./pan -C` crashed; stock pan searched on with it changed).  The nearest oracle's
 * helper found it, 2026-11-27. */
static const char *const PAN_LOCALS[] = {"t",   "_n",   "_m",      "ot", "ooi", "eoi",
                                         "oII", "seed", "delta_m", "II", "JJ",  "kk",
                                         "tt",  "From", "To",      "M",  "oboq"};

/* Whether a line of pan.m's code assigns the C variable name[0 .. n): opens, after
 * its indentation, with the name and then ` =` or `[` (SPIN writes `t = 1;`,
 * `b[ Index(i, 5) ] = 1;`).  A hidden variable nothing assigns is harmless. */
static bool assigned(const char *pan_m, const char *name, size_t n)
{
    for (const char *l = pan_m; l && *l;) {
        const char *e = line_end(l), *c = l;
        while (c < e && (*c == ' ' || *c == '\t'))
            c++;
        if ((size_t)(e - c) > n && !strncmp(c, name, n) &&
            (c[n] == '[' || !strncmp(c + n, " =", 2)))
            return true;
        l = e;
    }
    return false;
}

bool sm_hidden_clash(const char *pan_h, const char *pan_m, char *name, size_t cap)
{
    static const char MARK[] = "/* hidden variable: */";
    for (const char *at = pan_h; at && (at = strstr(at, MARK)); at += sizeof MARK - 1) {
        const char *e = line_end(at), *semi = memchr(at, ';', (size_t)(e - at));
        if (!semi)
            continue;
        const char *end = memchr(at, '[', (size_t)(semi - at));
        end = end ? end : semi;
        while (end > at && end[-1] == ' ')
            end--;
        const char *w = end;
        while (w > at && (isalnum((unsigned char)w[-1]) || w[-1] == '_'))
            w--;
        size_t n = (size_t)(end - w);
        for (size_t i = 0; n > 0 && i < sizeof PAN_LOCALS / sizeof PAN_LOCALS[0]; i++)
            if (strlen(PAN_LOCALS[i]) == n && !strncmp(w, PAN_LOCALS[i], n) &&
                (!pan_m || assigned(pan_m, w, n))) {
                snprintf(name, cap, "%.*s", (int)n, w);
                return true;
            }
    }
    return false;
}

int sm_instrument_header(const char *pan_h, char **out, u_err *err)
{
    *out = NULL;
    sm_buf b = {0};
    const char *from = pan_h;
    for (size_t i = 0; i < sizeof HEADER / sizeof HEADER[0]; i++) {
        int n = count_of(pan_h, HEADER[i].anchor);
        const char *at = strstr(pan_h, HEADER[i].anchor);
        if (n != 1 || at < from) {
            free(b.s);
            return u_errf(err,
                          "pan.h does not have the shape pancause expects: anchor '%s' found "
                          "%d times, expected 1. pan.h must be generated by SPIN 6.5.2 (`spin "
                          "-a model.pml`) and not edited.",
                          HEADER[i].anchor, n);
        }
        at += strlen(HEADER[i].anchor);
        buf_add(&b, from, (size_t)(at - from));
        buf_str(&b, HEADER[i].words);
        from = at;
    }
    buf_str(&b, from);
    if (b.oom) {
        free(b.s);
        return u_oom(err);
    }
    *out = b.s;
    return 0;
}
