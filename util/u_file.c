/*
 * u_file.c - writing a file whole or not at all, checking output paths early, and
 * reading text inputs whole.
 *
 * Every output of every command goes through u_write_file().  A regular file is
 * written to a temporary file beside it and renamed over it only when every write
 * succeeded: a failed run (disk full, an error in the middle of a report) leaves
 * neither a truncated file nor the temporary one.  A path that exists and is not a
 * regular file (/dev/stdout, a named pipe, a symbolic link) is written in place:
 * renaming over it would replace the device node or the link with a regular file,
 * which as root is possible and wrong.  u_check_output() lets a command refuse a
 * path before a long search instead of failing at its end.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory part of path ("." when none), in fresh memory. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return u_fmt(".");
    if (slash == path)
        return u_fmt("/");
    return u_fmt("%.*s", (int)(slash - path), path);
}

static bool in_place(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

static int write_direct(const char *path, int (*put)(FILE *, const void *), const void *arg,
                        u_err *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return u_errf(err, "cannot write %s: it is a directory", path);
    FILE *f = fopen(path, "w");
    if (!f)
        return u_errf(err, "cannot write %s: %s", path, strerror(errno));
    int rc = put(f, arg);
    int e = errno;
    if (fflush(f) || ferror(f)) {
        rc = -1;
        e = errno;
    }
    if (fclose(f)) {
        rc = -1;
        e = errno;
    }
    if (rc)
        return u_errf(err, "cannot write %s: %s", path, e ? strerror(e) : "write error");
    return 0;
}

int u_write_file(const char *path, int (*put)(FILE *, const void *), const void *arg, u_err *err)
{
    if (in_place(path))
        return write_direct(path, put, arg, err);
    char *tmp = u_fmt("%s.tmpXXXXXX", path);
    if (!tmp)
        return u_errf(err, "cannot write %s: out of memory", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return u_errf(err, "cannot write %s: %s", path, strerror(e));
    }
    /* mkstemp makes the file private; give it the mode fopen would (or keep the
     * mode of the file it replaces). */
    struct stat old;
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, stat(path, &old) == 0 ? old.st_mode & 07777 : 0666 & ~mask);
    FILE *f = fdopen(fd, "w");
    int rc = -1, e = errno;
    if (f) {
        errno = 0;
        rc = put(f, arg);
        e = errno;
        if (fflush(f) || ferror(f)) {
            rc = -1;
            e = errno;
        }
        if (fclose(f)) {
            rc = -1;
            e = errno;
        }
        if (!rc && rename(tmp, path)) {
            rc = -1;
            e = errno;
        }
    } else {
        close(fd);
    }
    if (rc) {
        remove(tmp);
        u_errf(err, "cannot write %s: %s", path, e ? strerror(e) : "write error");
    }
    free(tmp);
    return rc ? -1 : 0;
}

int u_check_output(const char *path, u_err *err)
{
    struct stat st;
    if (!path || !*path)
        return u_errf(err, "an output file name is empty");
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return u_errf(err, "cannot write %s: it is a directory", path);
        if (!S_ISREG(st.st_mode) || in_place(path)) /* written in place */
            return access(path, W_OK) ? u_errf(err, "cannot write %s: %s", path, strerror(errno))
                                      : 0;
    }
    char *dir = dir_of(path);
    if (!dir)
        return u_oom(err);
    int rc = 0;
    if (stat(dir, &st) != 0)
        rc = u_errf(err, "cannot write %s: directory %s: %s", path, dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        rc = u_errf(err, "cannot write %s: %s is not a directory", path, dir);
    else if (access(dir, W_OK | X_OK))
        rc = u_errf(err, "cannot write %s: directory %s: %s", path, dir, strerror(errno));
    free(dir);
    return rc;
}

int u_check_output_dir(const char *dir, u_err *err)
{
    struct stat st;
    if (!dir || !*dir)
        return u_errf(err, "an output directory name is empty");
    if (stat(dir, &st) != 0)
        return u_errf(err, "cannot write into %s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return u_errf(err, "cannot write into %s: not a directory", dir);
    if (access(dir, W_OK | X_OK))
        return u_errf(err, "cannot write into %s: %s", dir, strerror(errno));
    return 0;
}

/* A name for path that two spellings of one file share when it does not exist yet:
 * its directory resolved, then its last component (path itself where the directory
 * cannot be resolved: the write will fail anyway).  Fresh memory or NULL. */
static char *canonical_new(const char *path)
{
    char *dir = dir_of(path);
    if (!dir)
        return NULL;
    char *real = realpath(dir, NULL);
    const char *slash = strrchr(path, '/');
    char *out = real ? u_fmt("%s/%s", real, slash ? slash + 1 : path) : u_fmt("%s", path);
    free(real);
    free(dir);
    return out;
}

/* 1 when a and b name one file, so that writing one destroys the other; 0 when not; -1
 * when out of memory. */
static int one_file(const char *a, const char *b)
{
    struct stat sa, sb;
    int ea = stat(a, &sa), eb = stat(b, &sb);
    if (ea == 0 && eb == 0)
        return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea == 0 || eb == 0)
        return 0;
    char *ca = canonical_new(a), *cb = canonical_new(b);
    int rc = ca && cb ? !strcmp(ca, cb) : -1;
    free(ca);
    free(cb);
    return rc;
}

int u_check_distinct(const char *const *outs, int nout, const char *const *ins, int nin, u_err *err)
{
    for (int i = 0; i < nout; i++) {
        if (!outs[i])
            continue;
        for (int j = 0; j < nin + i; j++) {
            const char *other = j < nin ? ins[j] : outs[j - nin];
            int same = other ? one_file(outs[i], other) : 0;
            if (same < 0)
                return u_oom(err);
            if (same)
                return u_errf(err, "%s is also %s %s: choose another name for the output", outs[i],
                              j < nin ? "the input" : "an output", other);
        }
    }
    return 0;
}

char *u_read_file(const char *path, size_t *len, u_err *err)
{
    bool std = !strcmp(path, "-");
    FILE *f = std ? stdin : fopen(path, "rb");
    if (!f) {
        u_errf(err, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (!std && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        u_errf(err, "%s: is a directory", path);
        return NULL;
    }
    size_t n = 0, cap = 0;
    char *buf = NULL;
    int rc = 0;
    for (;;) {
        /* room for a 4 KB read and the terminating NUL */
        if (cap - n < 4096 + 1 && u_grow((void **)&buf, &cap, n + 4096 + 1, 1, 65536)) {
            rc = u_oom(err);
            break;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        if (got && memchr(buf + n, 0, got)) {
            rc = u_errf(err, "%s: contains a NUL byte: not a text file", path);
            break;
        }
        n += got;
        if (got == 0) {
            if (ferror(f))
                rc = u_errf(err, "%s: %s", path, strerror(errno ? errno : EIO));
            break;
        }
    }
    if (!std)
        fclose(f);
    if (rc) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}
