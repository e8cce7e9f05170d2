/*
 * u_text.c - text for other programs: escaping for XML/HTML, Graphviz and JSON, and
 * a JSON writer that places the commas.
 *
 * Every output format of the project (pan's JSON report, fault trees in MEF, DOT and
 * JSON, the HTML reports, explain's JSON Lines) writes strings through these, so
 * there is one escaper per target language.  The JSON writer keeps, per open object
 * or array, whether an element was written yet; that is all a comma needs.
 * Invariant: 0 <= depth <= U_JSON_DEPTH; first[d] and in_obj[d] describe the
 * container opened at depth d (1-based).
 */
#include "util.h"

#include <string.h>

/* Writes s, each character in special through esc and the runs between them with one
 * fwrite: the JSON reports of large models are tens of megabytes (BEEM's bakery.4:
 * 30 MB), and a fputc per character, each taking the stream's lock, was 15% of that
 * `pan -C`'s time.  The one loop of the three escapers. */
static void put_escaped(FILE *f, const char *s, const char *special, void (*esc)(FILE *, char))
{
    for (;;) {
        size_t n = strcspn(s, special);
        if (n > 0)
            fwrite(s, 1, n, f);
        s += n;
        if (!*s)
            return;
        esc(f, *s++);
    }
}

static void esc_xml(FILE *f, char c)
{
    switch (c) {
    case '&':
        fputs("&amp;", f);
        break;
    case '<':
        fputs("&lt;", f);
        break;
    case '>':
        fputs("&gt;", f);
        break;
    case '"':
        fputs("&quot;", f);
        break;
    default: /* '\'' */
        fputs("&#39;", f);
    }
}

void u_put_xml(FILE *f, const char *s)
{
    put_escaped(f, s, "&<>\"'", esc_xml);
}

static void esc_dot(FILE *f, char c)
{
    if (c == '\n')
        fputs("\\n", f);
    else
        fprintf(f, "\\%c", c);
}

void u_put_dot(FILE *f, const char *s)
{
    put_escaped(f, s, "\"\\\n", esc_dot);
}

static void esc_json(FILE *f, char ch)
{
    unsigned char c = (unsigned char)ch;
    if (c == '"' || c == '\\')
        fprintf(f, "\\%c", c);
    else
        fprintf(f, "\\u%04x", c); /* script: no "</script>" inside a page */
}

/* What JSON escapes: the quote, the backslash and the control characters; inside an
 * HTML <script> element also < > &. */
#define JSON_SPECIAL                                                                               \
    "\"\\\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15"     \
    "\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f"

static void put_json(FILE *f, const char *s, bool script)
{
    put_escaped(f, s, script ? JSON_SPECIAL "<>&" : JSON_SPECIAL, esc_json);
}

void u_put_json(FILE *f, const char *s)
{
    put_json(f, s, false);
}

void u_json_init(u_json *j, FILE *f, int pretty)
{
    memset(j, 0, sizeof *j);
    j->f = f;
    j->pretty = pretty;
}

static void newline(u_json *j)
{
    fputc('\n', j->f);
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->f);
}

/* Before a value or key: the comma and, pretty, the line break.  is_obj tells
 * whether the value about to start is an object (pretty arrays of objects put each
 * on its own line; arrays of scalars stay on one). */
static void before(u_json *j, bool is_obj)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth == 0)
        return;
    bool first = j->first[j->depth];
    j->first[j->depth] = false;
    if (!first)
        fputc(',', j->f);
    if (j->depth <= j->pretty && (j->in_obj[j->depth] || is_obj))
        newline(j);
    else if (!first)
        fputc(' ', j->f);
}

static void open(u_json *j, char c, bool obj)
{
    before(j, obj);
    fputc(c, j->f);
    if (j->depth + 1 < U_JSON_DEPTH)
        j->depth++;
    j->first[j->depth] = true;
    j->in_obj[j->depth] = obj;
}

void u_json_obj(u_json *j)
{
    open(j, '{', true);
}

void u_json_arr(u_json *j)
{
    open(j, '[', false);
}

void u_json_end(u_json *j)
{
    bool obj = j->in_obj[j->depth], empty = j->first[j->depth];
    bool laid_out = j->depth <= j->pretty;
    if (j->depth > 0)
        j->depth--;
    if (laid_out && !empty && obj)
        newline(j);
    fputc(obj ? '}' : ']', j->f);
    if (j->depth == 0 && j->pretty)
        fputc('\n', j->f);
}

void u_json_key(u_json *j, const char *key)
{
    before(j, false);
    fputc('"', j->f);
    put_json(j->f, key, j->script);
    fputs("\": ", j->f);
    j->after_key = true;
}

void u_json_str(u_json *j, const char *s)
{
    if (!s) {
        u_json_null(j);
        return;
    }
    before(j, false);
    fputc('"', j->f);
    put_json(j->f, s, j->script);
    fputc('"', j->f);
}

void u_json_int(u_json *j, long long v)
{
    before(j, false);
    fprintf(j->f, "%lld", v);
}

void u_json_uint(u_json *j, size_t v)
{
    before(j, false);
    fprintf(j->f, "%zu", v);
}

void u_json_num(u_json *j, const char *fmt, double v)
{
    before(j, false);
    if (v != v || v - v != 0) /* NaN or infinite: not JSON */
        fputs("null", j->f);
    else
        fprintf(j->f, fmt, v);
}

void u_json_bool(u_json *j, bool v)
{
    before(j, false);
    fputs(v ? "true" : "false", j->f);
}

void u_json_null(u_json *j)
{
    before(j, false);
    fputs("null", j->f);
}
