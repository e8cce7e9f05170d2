/*
 * sg_multiset.c - hash-consed event multisets.
 *
 * AC2(1), AC3 and the black colour all ask whether one trace's occurrence variables
 * are a (strict) subset of another's.  Occurrence variables E_1..E_k of one type are
 * exactly "k occurrences of E", so a trace's variable set is the multiset of its
 * event types.  Storing each distinct multiset once, with a cached "add one event"
 * step, makes a trie node's multiset an O(1) lookup and equality an id comparison;
 * inclusion is a merge of two sorted pair arrays.  The pairs are the multiset's key
 * in an interning table (u_intern.c).
 * Invariants: id 0 is the empty multiset; pairs of one multiset are sorted by event
 * with counts >= 1; lane[m] byte k is min(127, total count of m's events e with
 * e % 8 == k).
 */
#include "sg_internal.h"

#include <stdlib.h>
#include <string.h>

/* Finds the multiset with these pairs, or adds it.  SG_INVALID on no memory. */
static sg_ms intern(sg_msstore *s, const uint32_t *p, uint32_t n, uint32_t size)
{
    bool fresh;
    sg_ms id = u_intern_put(&s->keys, p, 2 * (size_t)n * sizeof *p, &fresh);
    if (id == U_INVALID || !fresh)
        return id;
    if (U_GROW_ALL(s->size_cap, id, 256, U_ARR(s->size), U_ARR(s->lane)))
        return SG_INVALID;
    s->size[id] = size;
    uint8_t lane[8] = {0};
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = lane[p[2 * i] % 8] + p[2 * i + 1];
        lane[p[2 * i] % 8] = (uint8_t)(c > 127 ? 127 : c);
    }
    memcpy(&s->lane[id], lane, sizeof lane);
    return id;
}

int sg_ms_init(sg_msstore *s)
{
    memset(s, 0, sizeof *s);
    return intern(s, NULL, 0, 0) == 0 ? 0 : -1;
}

void sg_ms_free(sg_msstore *s)
{
    u_intern_free(&s->keys);
    free(s->size);
    free(s->lane);
    u_map_free(&s->step);
}

sg_ms sg_ms_step(sg_msstore *s, sg_ms m, uint32_t event)
{
    uint64_t key = (uint64_t)m << 32 | event;
    sg_ms r = u_map_get(&s->step, key);
    if (r != U_INVALID)
        return r;
    uint32_t n;
    const uint32_t *p = sg_ms_pairs(s, m, &n);
    uint32_t *tmp = malloc(2 * ((size_t)n + 1) * sizeof *tmp);
    if (!tmp)
        return SG_INVALID;
    uint32_t k = 0, i = 0;
    while (i < n && p[2 * i] < event) {
        tmp[2 * k] = p[2 * i];
        tmp[2 * k++ + 1] = p[2 * i + 1];
        i++;
    }
    tmp[2 * k] = event;
    tmp[2 * k + 1] = (i < n && p[2 * i] == event) ? p[2 * i++ + 1] + 1 : 1;
    k++;
    for (; i < n; i++, k++) {
        tmp[2 * k] = p[2 * i];
        tmp[2 * k + 1] = p[2 * i + 1];
    }
    r = intern(s, tmp, k, s->size[m] + 1);
    free(tmp);
    if (r != SG_INVALID && u_map_put(&s->step, key, r))
        return SG_INVALID;
    return r;
}

bool sg_ms_le(const sg_msstore *s, sg_ms a, sg_ms b)
{
    if (a == b)
        return true;
    /* a <= b needs every lane of a <= that of b (sums of counts, saturated alike).
     * Lanes are at most 127, so b + 128 - a stays within its byte: its top bit is
     * set exactly where b >= a.  Most pairs a history search compares fail here,
     * before their pair arrays are touched. */
    const uint64_t top = 0x8080808080808080ULL;
    if ((((s->lane[b] | top) - s->lane[a]) & top) != top)
        return false;
    uint32_t na, nb;
    const uint32_t *pa = sg_ms_pairs(s, a, &na), *pb = sg_ms_pairs(s, b, &nb);
    if (s->size[a] > s->size[b] || na > nb)
        return false;
    uint32_t j = 0;
    for (uint32_t i = 0; i < na; i++) {
        while (j < nb && pb[2 * j] < pa[2 * i])
            j++;
        if (j == nb || pb[2 * j] != pa[2 * i] || pb[2 * j + 1] < pa[2 * i + 1])
            return false;
    }
    return true;
}

size_t sg_ms_bytes(const sg_msstore *s)
{
    return u_intern_bytes(&s->keys) + s->size_cap * (sizeof(uint32_t) + sizeof(uint64_t)) +
           u_map_bytes(&s->step);
}
