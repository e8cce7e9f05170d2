/*
 * util.h - what every module of pancause shares: growth of arrays, hashing and the
 * two hash tables, text escaping, a JSON writer, writing a file whole or not at all,
 * formatting into fresh memory, and the error convention.  The whole interface of
 * util/; prefix u_.  util/ depends on nothing else in the project (libxxhash only).
 *
 * Conventions every module follows (README "Method: conventions"):
 *   - Out of memory is an error like any other: library code returns it (NULL, -1,
 *     U_INVALID) and never aborts or exits; the program's main decides.  `./pan -C`
 *     then still reports the causes found so far, marked INCOMPLETE.
 *   - Errors that a user must read travel in a u_err: a fixed buffer, so that
 *     reporting "out of memory" never needs memory, and the first error wins (the
 *     root cause, not its consequences).  Messages name the file and line of bad
 *     input ("model.pml:12: ...").  The caller prints them prefixed by the program.
 */
#ifndef UTIL_H
#define UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- errors ---- */

typedef struct {
    char msg[512]; /* empty: no error yet */
} u_err;

/* Sets the message unless one is set already; returns -1 so that `return
 * u_errf(e, ...)` reads as a failure.  e may be NULL (the message is dropped). */
int u_errf(u_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for an allocation that failed. */
int u_oom(u_err *e);
static inline bool u_failed(const u_err *e)
{
    return e && e->msg[0];
}

/* ---- memory ---- */

/* A string built with printf's format, in fresh memory; NULL when out of memory. */
char *u_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Room for one more element in a growable array *v of capacity *cap holding n:
 * doubles the capacity (starting at `first`) when full.  Returns 0, or -1 when out
 * of memory, leaving *v untouched and still owned by the caller. */
int u_grow(void **v, size_t *cap, size_t n, size_t elem, size_t first);
/* The macros test for room inline (they sit in per-node and per-edge loops, where
 * the call and, for U_GROW_ALL, the array of u_arr built for it cost more than the
 * test); n and cap are evaluated twice. */
/* U_GROW(v, cap, n): u_grow for an array variable v of any element type. */
#define U_GROW(v, cap, n)                                                                          \
    ((n) < (cap) && (v) ? 0 : u_grow((void **)&(v), &(cap), (n), sizeof *(v), 16))

/* Parallel arrays: several arrays indexed alike share one capacity (a node's fields,
 * one array each).  u_grow_all gives every array of arrs room for index n as u_grow
 * does for one: the shared capacity *cap doubles (starting at `first`, at least n + 1).
 * Returns 0, or -1 when out of memory with *cap unchanged: an array already moved to
 * a larger block keeps it, which is safe, since every array holds at least *cap.
 * U_GROW_ALL(cap, n, first, U_ARR(a), U_ARR(b), ...) names the arrays in place. */
typedef struct {
    void **v;
    size_t elem;
} u_arr;
int u_grow_all(size_t *cap, size_t n, size_t first, const u_arr *arrs, size_t count);
#define U_ARR(x) ((u_arr){(void **)&(x), sizeof *(x)})
#define U_GROW_ALL(cap, n, first, ...)                                                             \
    ((n) < (cap) ? 0                                                                               \
                 : u_grow_all(&(cap), (n), (first), (const u_arr[]){__VA_ARGS__},                  \
                              sizeof((const u_arr[]){__VA_ARGS__}) / sizeof(u_arr)))

/* u_lower32(v, n, k), u_lower64(v, n, k): the first index i of the ascending array
 * v[0 .. n) with v[i] >= k (n if none), by binary search, for sorted sets kept as
 * arrays.  One body for both widths. */
#define U_LOWER_BOUND(name, T)                                                                     \
    static inline size_t name(const T *v, size_t n, T k)                                           \
    {                                                                                              \
        size_t lo = 0, hi = n;                                                                     \
        while (lo < hi) {                                                                          \
            size_t mid = lo + (hi - lo) / 2;                                                       \
            if (v[mid] < k)                                                                        \
                lo = mid + 1;                                                                      \
            else                                                                                   \
                hi = mid;                                                                          \
        }                                                                                          \
        return lo;                                                                                 \
    }
U_LOWER_BOUND(u_lower32, uint32_t)
U_LOWER_BOUND(u_lower64, uint64_t)

/* ---- hashing (XXH3 from libxxhash: a well-mixed hash is what the collision
 *      bounds in README "Memory" assume, and a well-kept library owns that claim) ---- */

uint64_t u_hash_bytes(const void *key, size_t n);
uint64_t u_hash64(uint64_t k);
/* The 128-bit fingerprint that identifies recorded states by their key bytes. */
void u_fingerprint(const void *key, size_t n, uint64_t out[2]);

#define U_INVALID UINT32_MAX

/* A hash map from 64-bit keys (never UINT64_MAX) to 32-bit values.  Zero-initialise
 * before use.  Invariants: capacity is a power of two, at most half full, linear
 * probing; key UINT64_MAX marks an empty slot. */
typedef struct {
    uint64_t *keys;
    uint32_t *vals;
    size_t cap, len;
} u_map;
uint32_t u_map_get(const u_map *m, uint64_t key); /* U_INVALID if absent */
int u_map_put(u_map *m, uint64_t key, uint32_t val);
void u_map_free(u_map *m);
size_t u_map_bytes(const u_map *m);
/* The bytes u_map_put() of a new key would allocate now when it doubles the table (0
 * when it would not, and for the first, small table of an empty map). */
size_t u_map_grow_bytes(const u_map *m);

/* An interning table from byte strings to dense ids 0, 1, ...  Zero-initialise
 * before use.  Invariants: ids are dense; keys live back to back in one arena, each
 * 8-byte aligned (callers may read them as words); the slot table is a power of two,
 * at most half full, and holds id + 1 (0 = empty). */
typedef struct {
    uint8_t *bytes;
    size_t nbytes, bytes_cap;
    size_t *off;
    uint32_t *len;
    uint64_t *hash;
    size_t n, cap;
    uint32_t *slots;
    size_t nslots;
} u_intern;
/* The id of key; *fresh tells whether it is new.  U_INVALID when out of memory. */
uint32_t u_intern_put(u_intern *t, const void *key, size_t len, bool *fresh);
/* The id of key, or U_INVALID when it was never put. */
uint32_t u_intern_find(const u_intern *t, const void *key, size_t len);
const void *u_intern_key(const u_intern *t, uint32_t id);
size_t u_intern_len(const u_intern *t, uint32_t id);
void u_intern_free(u_intern *t);
size_t u_intern_bytes(const u_intern *t);

/* ---- text ---- */

/* s escaped as XML/HTML text and attribute content (& < > " '). */
void u_put_xml(FILE *f, const char *s);
/* s escaped inside a Graphviz double-quoted string. */
void u_put_dot(FILE *f, const char *s);
/* s escaped inside a JSON string (no quotes). */
void u_put_json(FILE *f, const char *s);

/* A JSON writer that places commas itself.  pretty = N > 0: inside the N outermost
 * containers, members of objects and objects inside arrays start on new, indented
 * lines, and deeper containers stay on one line; 0: everything on one line (JSON
 * Lines).  script: also escape < > & so that the JSON can sit inside an HTML
 * <script> element.  Invariant: depth <= U_JSON_DEPTH. */
#define U_JSON_DEPTH 32
typedef struct {
    FILE *f;
    int pretty;
    bool script;
    int depth;
    bool first[U_JSON_DEPTH]; /* no element written yet at this depth */
    bool in_obj[U_JSON_DEPTH];
    bool after_key;
} u_json;
void u_json_init(u_json *j, FILE *f, int pretty);
void u_json_obj(u_json *j);
void u_json_arr(u_json *j);
void u_json_end(u_json *j); /* closes the innermost object or array */
void u_json_key(u_json *j, const char *key);
void u_json_str(u_json *j, const char *s); /* NULL writes null */
void u_json_int(u_json *j, long long v);
void u_json_uint(u_json *j, size_t v);
void u_json_num(u_json *j, const char *fmt, double v); /* fmt e.g. "%.3f" */
void u_json_bool(u_json *j, bool v);
void u_json_null(u_json *j);

/* ---- files ---- */

/* Writes path by put(f, arg): a regular file (or a new one) through a temporary
 * file beside it, renamed to path only when put and every write succeeded, so that
 * no half-written file is ever left; anything else that exists (a device such as
 * /dev/stdout, a pipe, a symbolic link) is written in place, never replaced.
 * put returns 0 or -1.  On failure: "cannot write PATH: reason" in err, the
 * temporary file removed, -1 returned. */
int u_write_file(const char *path, int (*put)(FILE *, const void *), const void *arg, u_err *err);
/* Checks, before a long computation, that u_write_file(path) can succeed as far
 * as the file system can tell now: not a directory, its directory exists and is
 * writable (or the existing non-regular file is writable).  0, or -1 with err. */
int u_check_output(const char *path, u_err *err);
/* The same for a directory that files will be written into. */
int u_check_output_dir(const char *dir, u_err *err);
/* Checks that no output (outs[0..nout), NULL entries skipped) is one of the inputs
 * (ins[0..nin)) or another output: the same regular file (device and inode), or, for a
 * name that does not exist yet, the same name in the same directory.  Devices and
 * pipes (/dev/stdout) may be shared.  0, or -1 with "OUT is also INPUT" in err. */
int u_check_distinct(const char *const *outs, int nout, const char *const *ins, int nin,
                     u_err *err);

/* Reads a whole regular file (or stdin for "-") into fresh memory, NUL-terminated;
 * *len gets its length.  Refuses directories and files that contain a NUL byte
 * (text inputs), naming the file.  NULL with err on failure. */
char *u_read_file(const char *path, size_t *len, u_err *err);

/* ---- tools in a scratch directory (u_proc.c) ---- */

/* An absolute version of path (which need not exist); fresh memory or NULL. */
char *u_absolute(const char *path);
bool u_is_file(const char *path);
/* The project's root for `make pan`: PANCAUSE_ROOT, or the directory above this
 * program's that has the Makefile and spin-model/pan.mk; fresh memory or NULL. */
char *u_project_root(void);
/* The spin every front end runs (spin -a, spin -t, spin -d): $SPIN when set and not
 * empty, else `spin` from PATH.  A path with a '/' is made absolute, since the tools
 * run in a scratch directory, and $SPIN is set to it, so that a pan started there
 * (which runs spin itself for --with-explain) finds the same one.  Fresh memory or
 * NULL. */
char *u_spin(void);
/* Runs argv in dir; with log, its output goes there (else inherited).  The exit
 * status (128 + signal when killed), or -1 when it could not be started. */
int u_run(const char *dir, char *const *argv, const char *log);
/* The scratch directory in which `pancause nearest` and `temporal` build pan from a
 * copy of model: /tmp/pancause-CMD.XXXXXX with the model copied in under its base
 * name.  Also: the model's directory goes to the front of $CPATH, which the C
 * preprocessor SPIN runs searches, so an `#include "..."` beside the model is still
 * found (the eighth probe's P8-8); and until u_scratch_close, SIGINT, SIGTERM and SIGHUP
 * stop the child u_run is running (its whole process group), remove the directory
 * (unless keep) and end the program as the signal would (P8-12).  The directory (fresh
 * memory), or NULL with err (naming the model when it cannot be copied: a NUL byte). */
char *u_scratch_open(const char *cmd, const char *model, bool keep, u_err *err);
/* Ends what u_scratch_open began: says where the directory is when keep, else removes
 * it; frees dir (NULL: nothing to do). */
void u_scratch_close(const char *cmd, char *dir, bool keep);
/* The last component of path (a pointer into it). */
const char *u_base_name(const char *path);
/* Copies log's text to stderr (a failed step's output). */
void u_show_log(const char *log);
/* The first number after the text key at the start of a line of file path ("" for
 * the file's first line), such as /proc/meminfo's "MemAvailable:" or a cgroup's
 * memory.max; 0 when there is none (no such file or line, or "max"). */
double u_proc_number(const char *path, const char *key);
/* This process's peak resident memory in MB (/proc/self/status VmHWM), 0 unknown. */
double u_peak_mb(void);
/* Seconds on the monotonic clock, for the elapsed times every report prints. */
double u_seconds(void);

#endif
