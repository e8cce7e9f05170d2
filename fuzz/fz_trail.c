/* fz_trail.c - libFuzzer harness for the trail reader (ex_trail_read), which
 * checks a trail file before `pancause explain` hands it to spin.
 *
 * The input is the file; the first byte also chooses which move's line to
 * look up.  A trail that reads must count its moves consistently with the
 * line lookup; one that does not must name the file and line.
 */
#include "explain.h"
#include "fz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fz_string(data, size);
    if (!s)
        return 0;
    long which = size ? data[0] % 16 : 0, steps = -1, line = -1;
    char err[256] = "";
    if (ex_trail_read(s, "fuzz.trail", which, &steps, &line, err, sizeof err) == 0) {
        FZ_CHECK(steps >= 0, "negative move count");
        FZ_CHECK((which < steps) == (line > 0), "move %ld of %ld found on line %ld", which, steps,
                 line);
        long again, l2;
        FZ_CHECK(ex_trail_read(s, "fuzz.trail", -1, &again, &l2, err, sizeof err) == 0 &&
                     again == steps && l2 == 0,
                 "a second read disagrees");
    } else {
        FZ_CHECK(!strncmp(err, "fuzz.trail:", 11), "the message names no line: %s", err);
    }
    free(s);
    return 0;
}
