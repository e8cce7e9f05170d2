/*
 * test_util.c - the shared utilities: the two hash tables against a plain model,
 * the JSON writer's exact text, escaping, and the file writer's promises (whole or
 * nothing; devices and links written in place, never replaced; paths checked).
 */
#include "util.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

START_TEST(map_against_model)
{
    u_map m = {0};
    enum { N = 20000 };
    uint32_t *model = malloc(N * sizeof *model);
    for (uint32_t i = 0; i < N; i++)
        model[i] = U_INVALID;
    srand(7);
    for (int k = 0; k < 3 * N; k++) {
        uint32_t key = (uint32_t)rand() % N, val = (uint32_t)rand();
        ck_assert_int_eq(u_map_put(&m, (uint64_t)key << 32 | 5, val), 0);
        model[key] = val;
    }
    for (uint32_t i = 0; i < N; i++)
        ck_assert_uint_eq(u_map_get(&m, (uint64_t)i << 32 | 5), model[i]);
    ck_assert_int_eq(u_map_put(&m, UINT64_MAX, 1), -1); /* the empty marker */
    u_map_free(&m);
    free(model);
}
END_TEST

/* u_lower32/u_lower64 against a linear scan, duplicates and ends included. */
START_TEST(lower_bound_against_scan)
{
    const uint32_t v[] = {1, 3, 3, 3, 7, 9};
    const uint64_t w[] = {1, 3, 3, 3, 7, 9};
    size_t n = sizeof v / sizeof v[0];
    for (uint32_t k = 0; k <= 10; k++) {
        size_t want = 0;
        while (want < n && v[want] < k)
            want++;
        ck_assert_uint_eq(u_lower32(v, n, k), want);
        ck_assert_uint_eq(u_lower64(w, n, k), want);
    }
    ck_assert_uint_eq(u_lower32(v, 0, 5), 0);
    ck_assert_uint_eq(u_lower64(w, 0, 5), 0);
}
END_TEST

/* Parallel arrays of different element types grow together and keep their contents. */
START_TEST(grow_all_parallel_arrays)
{
    uint8_t *a = NULL;
    uint64_t *b = NULL;
    size_t cap = 0;
    for (size_t n = 0; n < 3000; n++) {
        ck_assert_int_eq(U_GROW_ALL(cap, n, 4, U_ARR(a), U_ARR(b)), 0);
        ck_assert_uint_gt(cap, n);
        a[n] = (uint8_t)n;
        b[n] = (uint64_t)n * 1000003u;
    }
    ck_assert_uint_eq(cap, 4096);
    for (size_t n = 0; n < 3000; n++)
        ck_assert(a[n] == (uint8_t)n && b[n] == (uint64_t)n * 1000003u);
    size_t before = cap;
    ck_assert_int_eq(U_GROW_ALL(cap, 9000, 4, U_ARR(a), U_ARR(b)), 0); /* a jump */
    ck_assert_uint_eq(cap, 9001);
    ck_assert_uint_gt(cap, before);
    b[9000] = 1;
    free(a);
    free(b);
}
END_TEST

START_TEST(intern_ids_dense_and_stable)
{
    u_intern t = {0};
    bool fresh;
    char key[32];
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(key, sizeof key, "k%d", i);
        ck_assert_uint_eq(u_intern_put(&t, key, (size_t)n, &fresh), (uint32_t)i);
        ck_assert(fresh);
    }
    for (int i = 4999; i >= 0; i--) {
        int n = snprintf(key, sizeof key, "k%d", i);
        ck_assert_uint_eq(u_intern_put(&t, key, (size_t)n, &fresh), (uint32_t)i);
        ck_assert(!fresh);
        ck_assert_uint_eq(u_intern_find(&t, key, (size_t)n), (uint32_t)i);
        ck_assert_uint_eq(u_intern_len(&t, (uint32_t)i), (size_t)n);
        ck_assert(!memcmp(u_intern_key(&t, (uint32_t)i), key, (size_t)n));
        ck_assert_uint_eq((uintptr_t)u_intern_key(&t, (uint32_t)i) % 8, 0);
    }
    ck_assert_uint_eq(u_intern_find(&t, "absent", 6), U_INVALID);
    ck_assert_uint_eq(u_intern_put(&t, NULL, 0, &fresh), 5000); /* the empty key */
    u_intern_free(&t);
}
END_TEST

static char *capture(void (*fn)(FILE *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(f);
    fclose(f);
    return buf;
}

static void compact_doc(FILE *f)
{
    u_json j;
    u_json_init(&j, f, 0);
    u_json_obj(&j);
    u_json_key(&j, "s");
    u_json_str(&j, "a\"b\\c\n<");
    u_json_key(&j, "n");
    u_json_null(&j);
    u_json_key(&j, "a");
    u_json_arr(&j);
    u_json_int(&j, -3);
    u_json_uint(&j, 4);
    u_json_bool(&j, true);
    u_json_obj(&j);
    u_json_end(&j);
    u_json_end(&j);
    u_json_key(&j, "x");
    u_json_num(&j, "%.2f", 1.5);
    u_json_end(&j);
}

static void pretty_doc(FILE *f)
{
    u_json j;
    u_json_init(&j, f, 8);
    u_json_obj(&j);
    u_json_key(&j, "a");
    u_json_arr(&j);
    u_json_int(&j, 1);
    u_json_int(&j, 2);
    u_json_end(&j);
    u_json_key(&j, "o");
    u_json_arr(&j);
    u_json_obj(&j);
    u_json_key(&j, "k");
    u_json_str(&j, NULL);
    u_json_end(&j);
    u_json_end(&j);
    u_json_end(&j);
}

START_TEST(json_text)
{
    char *s = capture(compact_doc);
    ck_assert_str_eq(s, "{\"s\": \"a\\\"b\\\\c\\u000a<\", \"n\": null, \"a\": [-3, 4, true, {}], "
                        "\"x\": 1.50}");
    free(s);
    s = capture(pretty_doc);
    ck_assert_str_eq(s, "{\n  \"a\": [1, 2],\n  \"o\": [\n    {\n      \"k\": null\n    }]\n}\n");
    free(s);
}
END_TEST

static void escapes(FILE *f)
{
    u_put_xml(f, "<a href=\"x\">&'");
    fputc('|', f);
    u_put_dot(f, "a\"b\\c\nd");
    u_json j;
    u_json_init(&j, f, 0);
    j.script = true;
    fputc('|', f);
    u_json_str(&j, "</script>");
    /* runs of plain text before, between and after escapes (each escaper writes
     * them with one fwrite) */
    fputc('|', f);
    j.script = false;
    u_json_str(&j, "ab\001cd\\e<f\"gh");
    fputc('|', f);
    u_put_xml(f, "plain");
    u_put_dot(f, "");
}

START_TEST(escaping)
{
    char *s = capture(escapes);
    ck_assert_str_eq(s, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;|a\\\"b\\\\c\\nd|"
                        "\"\\u003c/script\\u003e\"|"
                        "\"ab\\u0001cd\\\\e<f\\\"gh\"|plain");
    free(s);
}
END_TEST

static int put_hello(FILE *f, const void *arg)
{
    (void)arg;
    return fputs("hello\n", f) < 0 ? -1 : 0;
}

static int put_fail(FILE *f, const void *arg)
{
    (void)arg;
    fputs("half", f);
    return -1;
}

static char *slurp(const char *path)
{
    u_err e = {{0}};
    return u_read_file(path, NULL, &e);
}

START_TEST(write_whole_or_nothing)
{
    char dir[] = "/tmp/u_fileXXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256], link[256];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    u_err e = {{0}};
    ck_assert_int_eq(u_write_file(path, put_hello, NULL, &e), 0);
    char *s = slurp(path);
    ck_assert_str_eq(s, "hello\n");
    free(s);
    /* a failing writer leaves the old file and no temporary one */
    ck_assert_int_eq(u_write_file(path, put_fail, NULL, &e), -1);
    ck_assert_ptr_nonnull(strstr(e.msg, path));
    s = slurp(path);
    ck_assert_str_eq(s, "hello\n");
    free(s);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test $(ls %s | wc -l) -eq 1", dir);
    ck_assert_int_eq(system(cmd), 0);
    /* a symbolic link is written through, and stays a link */
    snprintf(link, sizeof link, "%s/link.txt", dir);
    ck_assert_int_eq(symlink(path, link), 0);
    u_err e2 = {{0}};
    ck_assert_int_eq(u_write_file(link, put_hello, NULL, &e2), 0);
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    /* a device is written in place, not replaced */
    ck_assert_int_eq(u_write_file("/dev/null", put_hello, NULL, &e2), 0);
    ck_assert_int_eq(stat("/dev/null", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    /* a full device reports the error */
    ck_assert_int_eq(u_write_file("/dev/full", put_hello, NULL, &e2), -1);
    ck_assert_ptr_nonnull(strstr(e2.msg, "/dev/full"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(check_paths)
{
    u_err e = {{0}};
    ck_assert_int_eq(u_check_output("/tmp", &e), -1);
    ck_assert_ptr_nonnull(strstr(e.msg, "directory"));
    u_err e2 = {{0}};
    ck_assert_int_eq(u_check_output("/nonexistent-dir/x.json", &e2), -1);
    ck_assert_ptr_nonnull(strstr(e2.msg, "/nonexistent-dir"));
    u_err e3 = {{0}};
    ck_assert_int_eq(u_check_output("/tmp/fine.json", &e3), 0);
    ck_assert_int_eq(u_check_output("/dev/null", &e3), 0);
    ck_assert_int_eq(u_check_output_dir("/tmp", &e3), 0);
    ck_assert_int_eq(u_check_output_dir("/dev/null", &e3), -1);
}
END_TEST

START_TEST(read_text_only)
{
    u_err e = {{0}};
    ck_assert_ptr_null(u_read_file("/tmp", NULL, &e));
    ck_assert_ptr_nonnull(strstr(e.msg, "directory"));
    u_err e2 = {{0}};
    ck_assert_ptr_null(u_read_file("/dev/zero", NULL, &e2));
    ck_assert_ptr_nonnull(strstr(e2.msg, "NUL"));
    u_err e3 = {{0}};
    ck_assert_ptr_null(u_read_file("/nonexistent", NULL, &e3));
    ck_assert_ptr_nonnull(strstr(e3.msg, "/nonexistent"));
    size_t n;
    char *s = u_read_file("/dev/null", &n, &e3);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(n, 0);
    free(s);
}
END_TEST

START_TEST(errors_first_wins)
{
    u_err e = {{0}};
    ck_assert(!u_failed(&e));
    ck_assert_int_eq(u_errf(&e, "x.pml:%d: first", 3), -1);
    ck_assert_int_eq(u_oom(&e), -1);
    ck_assert_str_eq(e.msg, "x.pml:3: first");
    ck_assert(u_failed(&e));
    ck_assert_int_eq(u_errf(NULL, "dropped"), -1);
    char *s = u_fmt("%s-%d", "a", 7);
    ck_assert_str_eq(s, "a-7");
    free(s);
    int *v = NULL;
    size_t cap = 0;
    for (size_t n = 0; n < 1000; n++) {
        ck_assert_int_eq(U_GROW(v, cap, n), 0);
        v[n] = (int)n;
    }
    ck_assert_uint_ge(cap, 1000);
    free(v);
}
END_TEST

START_TEST(fingerprints_differ)
{
    uint64_t a[2], b[2];
    u_fingerprint("abc", 3, a);
    u_fingerprint("abd", 3, b);
    ck_assert(a[0] != b[0] && a[1] != b[1]);
    u_fingerprint("abc", 3, b);
    ck_assert(a[0] == b[0] && a[1] == b[1]);
    ck_assert(u_hash64(1) != u_hash64(2));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, map_against_model);
    tcase_add_test(tc, lower_bound_against_scan);
    tcase_add_test(tc, intern_ids_dense_and_stable);
    tcase_add_test(tc, json_text);
    tcase_add_test(tc, escaping);
    tcase_add_test(tc, write_whole_or_nothing);
    tcase_add_test(tc, check_paths);
    tcase_add_test(tc, read_text_only);
    tcase_add_test(tc, errors_first_wins);
    tcase_add_test(tc, fingerprints_differ);
    tcase_add_test(tc, grow_all_parallel_arrays);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
