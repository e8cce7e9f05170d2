/*
 * nr_align.c - the alignment distance of two given runs (thesis Defs. 5-10), by the
 * textbook dynamic programme: C[i][j] = the least cost of aligning a's first i steps
 * with b's first j, from C[i-1][j] + Wc (a's step unaligned), C[i][j-1] + Wc (b's
 * step unaligned) and C[i-1][j-1] + Wp·Δp + Wα·Δα where the two steps share their
 * control location.  The search (nr_search.c) does not need it; it measures the run a
 * search stopped by its budget or memory completed (where the table fits), and the
 * tests compare it with the search.  Two rows of costs and one byte of choice per cell
 * (for the alignment).  nr_alignment_cost() prices one given alignment instead.
 */
#include "nr_internal.h"

#include <stdlib.h>
#include <string.h>

enum { FROM_A = 1, FROM_B = 2, FROM_PAIR = 3 };

static bool same_location(const nr_step *x, const nr_step *y)
{
    return x->pid == y->pid && x->proctype == y->proctype && x->pc == y->pc;
}

long nr_distance(const nr_model *m, const nr_step *a, size_t n, const nr_step *b, size_t k, long wp,
                 long wa, long wc, int32_t *pair)
{
    long *prev = malloc((n + 1) * sizeof *prev), *cur = malloc((n + 1) * sizeof *cur);
    uint8_t *how = pair ? malloc((n + 1) * (k + 1)) : NULL;
    if (!prev || !cur || (pair && !how)) {
        free(prev);
        free(cur);
        free(how);
        return -1;
    }
    for (size_t i = 0; i <= n; i++) {
        prev[i] = (long)i * wc;
        if (how)
            how[i] = FROM_A;
    }
    for (size_t j = 1; j <= k; j++) {
        cur[0] = prev[0] + wc;
        if (how)
            how[j * (n + 1)] = FROM_B;
        for (size_t i = 1; i <= n; i++) {
            long c = prev[i] + wc;
            uint8_t h = FROM_B;
            if (cur[i - 1] + wc < c) {
                c = cur[i - 1] + wc;
                h = FROM_A;
            }
            if (same_location(&a[i - 1], &b[j - 1])) {
                long p = prev[i - 1] + wp * (long)nr_diff(m, a[i - 1].state, b[j - 1].state) +
                         wa * (a[i - 1].tid != b[j - 1].tid);
                if (p < c) {
                    c = p;
                    h = FROM_PAIR;
                }
            }
            cur[i] = c;
            if (how)
                how[j * (n + 1) + i] = h;
        }
        long *t = prev;
        prev = cur;
        cur = t;
    }
    long d = prev[n];
    if (pair) {
        for (size_t j = 0; j < k; j++)
            pair[j] = -1;
        size_t i = n, j = k;
        while (i > 0 || j > 0) {
            uint8_t h = how[j * (n + 1) + i];
            if (h == FROM_PAIR) {
                pair[j - 1] = (int32_t)(i - 1);
                i--, j--;
            } else if (h == FROM_A && i > 0)
                i--;
            else
                j--;
        }
    }
    free(prev);
    free(cur);
    free(how);
    return d;
}

long nr_alignment_cost(const nr_model *m, const nr_step *a, size_t n, const nr_step *b, size_t k,
                       long wp, long wa, long wc, const int32_t *pair)
{
    long cost = 0, last = -1;
    size_t aligned = 0;
    for (size_t j = 0; j < k; j++) {
        if (pair[j] < 0)
            continue;
        if (pair[j] <= last || (size_t)pair[j] >= n || !same_location(&a[pair[j]], &b[j]))
            return -1;
        last = pair[j];
        aligned++;
        cost +=
            wp * (long)nr_diff(m, a[pair[j]].state, b[j].state) + wa * (a[pair[j]].tid != b[j].tid);
    }
    return cost + wc * (long)(n - aligned + k - aligned);
}

int nr_rows(size_t na, size_t nb, const int32_t *pair, nr_row **rows, size_t *n)
{
    nr_row *r = malloc((na + nb + 1) * sizeof *r);
    if (!r)
        return -1;
    size_t k = 0;
    long ia = 0, jb = 0;
    for (long j = 0; j <= (long)nb; j++) {
        if (j < (long)nb && pair[j] < 0)
            continue;
        long i = j < (long)nb ? pair[j] : (long)na;
        for (; ia < i; ia++)
            r[k++] = (nr_row){ia, -1};
        for (; jb < j; jb++)
            if (pair[jb] < 0)
                r[k++] = (nr_row){-1, jb};
        if (j < (long)nb) {
            r[k++] = (nr_row){i, j};
            ia = i + 1;
            jb = j + 1;
        }
    }
    *rows = r;
    *n = k;
    return 0;
}
