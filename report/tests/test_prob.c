/*
 * test_prob.c - the probability file reader (--probabilities) on files that are not
 * what they should be (issue 13): text after a NUL byte, a file of NUL lines, a
 * directory and /dev/zero are each an error naming the file, never an empty or
 * partial read; a million lines are read once, in linear time, duplicates found by
 * one lookup each.  test_report.c covers the well-formed file and its line errors.
 */
#include "report.h"
#include "util.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];

/* Writes n bytes of text to a fresh temporary file; its name is in path. */
static void prob_file(const char *text, size_t n)
{
    strcpy(path, "/tmp/test_probXXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, n), (ssize_t)n);
    close(fd);
}

static void read_fails(const char *file, const char *want)
{
    rp_probs p;
    u_err err = {{0}};
    ck_assert_int_eq(rp_prob_read(file, &p, &err), -1);
    ck_assert_msg(strstr(err.msg, file), "'%s' does not name %s", err.msg, file);
    ck_assert_msg(strstr(err.msg, want), "'%s' lacks '%s'", err.msg, want);
    ck_assert_ptr_null(p.e);
    ck_assert_uint_eq(p.n, 0);
}

START_TEST(not_text_is_an_error)
{
    static const char after_nul[] = "A 0.1\n\0B 0.2\n";
    prob_file(after_nul, sizeof after_nul - 1);
    read_fails(path, "NUL");
    unlink(path);
    static const char nul_lines[] = "\0\n\0\n\0\n";
    prob_file(nul_lines, sizeof nul_lines - 1);
    read_fails(path, "NUL");
    unlink(path);
    read_fails("/tmp", "directory");
    read_fails("/dev/zero", "NUL");
    read_fails("/nonexistent/p.txt", "No such file");
}
END_TEST

START_TEST(a_million_lines_in_linear_time)
{
    enum { N = 1000000 };
    char *text = malloc((size_t)N * 24 + 32), *s = text;
    ck_assert_ptr_nonnull(text);
    for (int i = 0; i < N; i++)
        s += sprintf(s, "E%d 0.%d\n", i, i % 10);
    prob_file(text, (size_t)(s - text));
    rp_probs p;
    u_err err = {{0}};
    double t0 = u_seconds();
    ck_assert_msg(rp_prob_read(path, &p, &err) == 0, "%s", err.msg);
    double secs = u_seconds() - t0;
    ck_assert_uint_eq(p.n, N);
    ck_assert_str_eq(p.e[N - 1].name, "E999999");
    ck_assert_int_eq(p.e[N - 1].line, N);
    ck_assert_msg(secs < 5, "%d lines took %.1f s", N, secs);
    rp_prob_free(&p);
    unlink(path);
    /* the same names once more: the first repeat is the error, found at once */
    s += sprintf(s, "E0 0.5\n");
    prob_file(text, (size_t)(s - text));
    t0 = u_seconds();
    read_fails(path, ":1000001: E0 was already given on line 1");
    ck_assert_msg(u_seconds() - t0 < 5, "the duplicate took %.1f s", u_seconds() - t0);
    unlink(path);
    free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("prob");
    TCase *tc = tcase_create("prob");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, not_text_is_an_error);
    tcase_add_test(tc, a_million_lines_in_linear_time);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
