/*
 * u_proc.c - running the tools a front end drives (spin, make, a built pan) in a
 * scratch directory, and finding the project's sources for `make pan`.  Shared by
 * `pancause nearest` and `pancause temporal model.pml`, which both build an
 * instrumented pan in a scratch directory and run it there.  Also the few figures
 * read from /proc (free memory, cgroup limits, the peak resident size) that the
 * reports and the nearest search's memory limit use, and the monotonic clock their
 * elapsed times come from.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

char *u_absolute(const char *path)
{
    if (path[0] == '/')
        return u_fmt("%s", path);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    return u_fmt("%s/%s", cwd, path);
}

char *u_spin(void)
{
    const char *s = getenv("SPIN");
    if (!s || !*s)
        return u_fmt("spin");
    if (!strchr(s, '/'))
        return u_fmt("%s", s);
    char *a = u_absolute(s);
    if (a && setenv("SPIN", a, 1)) {
        free(a);
        return NULL;
    }
    return a;
}

bool u_is_file(const char *p)
{
    struct stat st;
    return !stat(p, &st) && S_ISREG(st.st_mode);
}

char *u_project_root(void)
{
    const char *env = getenv("PANCAUSE_ROOT");
    if (env)
        return u_fmt("%s", env);
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = 0;
    for (int up = 0; up < 5; up++) {
        char *slash = strrchr(exe, '/');
        if (!slash || slash == exe)
            return NULL;
        *slash = 0;
        char *mk = u_fmt("%s/spin-model/pan.mk", exe), *top = u_fmt("%s/Makefile", exe);
        bool ok = mk && top && u_is_file(mk) && u_is_file(top);
        free(mk);
        free(top);
        if (ok)
            return u_fmt("%s", exe);
    }
    return NULL;
}

/* The scratch directory and the running child of u_scratch_guard (a signal handler
 * reads them). */
static const char *volatile guarded;
static volatile pid_t running;
static volatile sig_atomic_t guarding;

/* SIGINT, SIGTERM, SIGHUP while a scratch directory is in use: the child's process
 * group (make and its compiler, or pan) is stopped, the directory removed, and the
 * signal taken as it would have been (exit 128 + sig).  Until 2026-11-28 a SIGTERM
 * from `timeout` or a CI runner left ./pan -C --nearest running, orphaned, and the
 * directory behind (the eighth probe's P8-12).  Not strictly async-signal-safe (rm is
 * run by fork and exec), which only matters if the signal lands inside malloc in this
 * process; the program ends here either way. */
static void on_signal(int sig)
{
    pid_t child = running;
    if (child > 0) {
        kill(-child, SIGTERM);
        kill(child, SIGTERM);
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    const char *dir = guarded;
    if (dir) {
        pid_t p = fork();
        if (p == 0) {
            execlp("rm", "rm", "-rf", dir, (char *)NULL);
            _exit(127);
        }
        while (p > 0 && waitpid(p, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* From now on the signals above stop u_run's child and remove dir (NULL: nothing). */
static void guard(const char *dir)
{
    guarded = dir;
    if (!guarding) {
        guarding = 1;
        int sigs[] = {SIGINT, SIGTERM, SIGHUP};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
            signal(sigs[i], on_signal);
    }
}

int u_run(const char *dir, char *const *argv, const char *log)
{
    pid_t p = fork();
    if (p < 0)
        return -1;
    if (p == 0) {
        /* under a guard the child leads a process group of its own, which the
         * handler stops whole (make's compiler, pan's spin) */
        if (guarding)
            setpgid(0, 0);
        if (chdir(dir))
            _exit(127);
        if (log) {
            int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0)
                _exit(127);
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    if (guarding)
        setpgid(p, p);
    running = p;
    int st;
    while (waitpid(p, &st, 0) < 0)
        if (errno != EINTR) {
            running = 0;
            return -1;
        }
    running = 0;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

void u_show_log(const char *log)
{
    u_err ignore = {{0}};
    char *t = u_read_file(log, NULL, &ignore);
    if (t)
        fputs(t, stderr);
    free(t);
}

/* 0, or -1 with err naming the file when from cannot be read (u_read_file: a NUL
 * byte, a directory) or to cannot be written. */
static int copy_file(const char *from, const char *to, u_err *err)
{
    size_t n;
    char *t = u_read_file(from, &n, err); /* names the file: unreadable, a NUL byte, ... */
    if (!t)
        return -1;
    FILE *f = fopen(to, "w");
    int rc = f && fwrite(t, 1, n, f) == n ? 0 : -1;
    if (f && fclose(f))
        rc = -1;
    free(t);
    return rc ? u_errf(err, "cannot write %s", to) : 0;
}

static void remove_tree(const char *dir)
{
    char *argv[] = {"rm", "-rf", (char *)dir, NULL};
    u_run("/", argv, "/dev/null");
}

/* The model's directory in front of $CPATH (u_scratch_open). */
static int model_includes(const char *model)
{
    char *abs = u_absolute(model);
    char *slash = abs ? strrchr(abs, '/') : NULL;
    if (!slash) {
        free(abs);
        return -1;
    }
    slash[slash == abs] = 0; /* "/m.pml" -> "/" */
    const char *old = getenv("CPATH");
    char *path = old && *old ? u_fmt("%s:%s", abs, old) : u_fmt("%s", abs);
    int rc = path && !setenv("CPATH", path, 1) ? 0 : -1;
    free(path);
    free(abs);
    return rc;
}

const char *u_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

char *u_scratch_open(const char *cmd, const char *model, bool keep, u_err *err)
{
    if (model_includes(model)) {
        u_oom(err);
        return NULL;
    }
    char *dir = u_fmt("/tmp/pancause-%s.XXXXXX", cmd);
    if (!dir || !mkdtemp(dir)) {
        free(dir);
        u_errf(err, "cannot set up a scratch directory in /tmp");
        return NULL;
    }
    guard(keep ? NULL : dir); /* a signal stops pan and removes dir */
    char *copy = u_fmt("%s/%s", dir, u_base_name(model));
    int rc = copy ? copy_file(model, copy, err) : u_oom(err);
    free(copy);
    if (rc) {
        u_scratch_close(cmd, dir, false);
        return NULL;
    }
    return dir;
}

void u_scratch_close(const char *cmd, char *dir, bool keep)
{
    if (!dir)
        return;
    if (keep)
        fprintf(stderr, "pancause %s: scratch directory kept: %s\n", cmd, dir);
    guard(NULL);
    if (!keep)
        remove_tree(dir);
    free(dir);
}

double u_proc_number(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    char line[256];
    double x = 0;
    size_t n = strlen(key);
    while (f && !x && fgets(line, sizeof line, f))
        if (!strncmp(line, key, n))
            x = strtod(line + n, NULL);
    if (f)
        fclose(f);
    return x > 0 ? x : 0;
}

double u_peak_mb(void)
{
    return u_proc_number("/proc/self/status", "VmHWM:") / 1024.0;
}

double u_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
