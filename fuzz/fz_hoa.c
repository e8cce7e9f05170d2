/* fz_hoa.c - libFuzzer harness for the HOA reader of `pancause temporal`
 * (temporal/tm_hoa_read.c): any bytes must be either refused with a
 * FILE:LINE:COL message or read into an automaton whose invariants hold, which
 * the writer writes and the reader reads back with the same size; accepted
 * systems go through the Mealy machine checks.  Seeds: the paper's systems
 * (the HOA files of cases/temporal-oracle/instances), in fuzz/corpus/hoa.
 */
#include "fz_common.h"
#include "temporal.h"

static void check_invariants(const tm_nba *a)
{
    for (uint32_t i = 0; i < a->ninit; i++)
        if (a->init[i] >= a->n)
            abort();
    for (uint32_t q = 0; q < a->n; q++)
        for (uint32_t i = 0; i < a->s[q].n; i++) {
            const tm_edge *e = &a->s[q].e[i];
            if (e->dst >= a->n || (e->c.val & ~e->c.mask) || (e->c.mask & ~a->apmask))
                abort();
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tm_hoa h;
    u_err e = {{0}};
    if (tm_hoa_parse((const char *)data, size, "fuzz.hoa", &h, &e) != 0) {
        /* every refusal says where */
        if (strncmp(e.msg, "fuzz.hoa", 8) != 0)
            abort();
        return 0;
    }
    check_invariants(&h.a);
    if (h.a.n <= 64) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (f) {
            if (tm_hoa_write(f, &h.a, &h.aps, "fuzz") != 0)
                abort();
            fclose(f);
            tm_hoa h2;
            if (tm_hoa_parse(buf, len, "fuzz2.hoa", &h2, &e) != 0 || h2.a.n != h.a.n)
                abort();
            tm_hoa_free(&h2);
            free(buf);
        }
    }
    tm_system s;
    if (tm_system_from_hoa(&h, "fuzz.hoa", &s, &e) == 0)
        tm_system_free(&s);
    tm_hoa_free(&h);
    return 0;
}
