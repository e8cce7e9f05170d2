/* fz_prob.c - libFuzzer harness for the probability file reader
 * (rp_prob_read, `./pan -C --probabilities FILE`).
 *
 * The input is the file's content, given to the reader through a memory file
 * (memfd) under its /proc/self/fd name, so the reader takes its real path:
 * u_read_file and the line parser both.  Every entry read must be a name and
 * a probability in [0, 1] given once; a file that is refused must say why.
 */
#define _GNU_SOURCE /* memfd_create */
#include "fz_common.h"
#include "report.h"

#include <math.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fz_prob", 0);
    if (fd < 0)
        return 0;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    rp_probs p;
    u_err err = {{0}};
    if (done == size && rp_prob_read(path, &p, &err) == 0) {
        for (size_t i = 0; i < p.n; i++) {
            FZ_CHECK(p.e[i].name[0] && p.e[i].p >= 0 && p.e[i].p <= 1 && !isnan(p.e[i].p),
                     "entry %zu: '%s' %g", i, p.e[i].name, p.e[i].p);
            FZ_CHECK(p.e[i].line >= 1, "entry %zu has no line", i);
        }
        for (size_t i = 1; i < p.n; i++)
            FZ_CHECK(p.e[i].line > p.e[i - 1].line, "entries out of line order");
        for (size_t i = 0; i < p.n && p.n <= 1000; i++)
            for (size_t j = 0; j < i; j++)
                FZ_CHECK(strcmp(p.e[i].name, p.e[j].name), "%s given twice", p.e[i].name);
        rp_prob_free(&p);
    } else if (done == size) {
        FZ_CHECK(strstr(err.msg, path), "the message names no file: %s", err.msg);
    }
    close(fd);
    return 0;
}
