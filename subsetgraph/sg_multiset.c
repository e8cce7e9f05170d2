/*
 * sg_multiset.c - hash-consed event multisets.
 *
 * AC2(1), AC3 and the black colour all ask whether one trace's occurrence variables
 * are a (strict) subset of another's.  Occurrence variables E_1..E_k of one type are
 * exactly "k occurrences of E", so a trace's variable set is the multiset of its
 * event types.  Storing each distinct multiset once, with a cached "add one event"
 * step, makes a trie node's multiset an O(1) lookup and equality an id comparison;
 * inclusion is a merge of two sorted pair arrays.
 * Invariants: id 0 is the empty multiset; pairs of one multiset are sorted by event
 * with counts >= 1; slots hold each id exactly once, keyed by its content hash.
 */
#include "sg_internal.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_pairs(const uint32_t *p, uint32_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a over the pair words */
    for (uint32_t i = 0; i < 2 * n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static int grow_arrays(sg_msstore *s)
{
    size_t cap = s->cap ? 2 * s->cap : 256;
    uint32_t *off = realloc(s->off, cap * sizeof *off);
    if (off)
        s->off = off;
    uint32_t *len = realloc(s->len, cap * sizeof *len);
    if (len)
        s->len = len;
    uint32_t *size = realloc(s->size, cap * sizeof *size);
    if (size)
        s->size = size;
    uint64_t *hash = realloc(s->hash, cap * sizeof *hash);
    if (hash)
        s->hash = hash;
    if (!off || !len || !size || !hash)
        return -1;
    s->cap = cap;
    return 0;
}

static int reserve_pairs(sg_msstore *s, size_t more)
{
    if (s->npairs + more <= s->pairs_cap)
        return 0;
    size_t cap = s->pairs_cap ? s->pairs_cap : 1024;
    while (cap < s->npairs + more)
        cap *= 2;
    uint32_t *p = realloc(s->pairs, 2 * cap * sizeof *p);
    if (!p)
        return -1;
    s->pairs = p;
    s->pairs_cap = cap;
    return 0;
}

static void slot_insert(uint32_t *slots, size_t nslots, uint64_t h, uint32_t id)
{
    size_t j = h & (nslots - 1);
    while (slots[j])
        j = (j + 1) & (nslots - 1);
    slots[j] = id + 1;
}

static int grow_slots(sg_msstore *s)
{
    size_t n = s->nslots ? 2 * s->nslots : 512;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < s->n; i++)
        slot_insert(slots, n, s->hash[i], (uint32_t)i);
    free(s->slots);
    s->slots = slots;
    s->nslots = n;
    return 0;
}

/* Finds the multiset with these pairs, or adds it.  SG_INVALID on no memory. */
static sg_ms intern(sg_msstore *s, const uint32_t *p, uint32_t n, uint32_t size)
{
    uint64_t h = hash_pairs(p, n);
    for (size_t j = s->nslots ? h & (s->nslots - 1) : 0; s->nslots && s->slots[j];
         j = (j + 1) & (s->nslots - 1)) {
        uint32_t id = s->slots[j] - 1;
        if (s->hash[id] == h && s->len[id] == n &&
            (!n || !memcmp(s->pairs + 2 * (size_t)s->off[id], p, 2 * n * sizeof *p)))
            return id;
    }
    if ((s->n == s->cap && grow_arrays(s)) || reserve_pairs(s, n))
        return SG_INVALID;
    if (2 * (s->n + 1) > s->nslots && grow_slots(s))
        return SG_INVALID;
    uint32_t id = (uint32_t)s->n++;
    if (n) /* p is NULL for the empty multiset */
        memcpy(s->pairs + 2 * s->npairs, p, 2 * n * sizeof *p);
    s->off[id] = (uint32_t)s->npairs;
    s->len[id] = n;
    s->size[id] = size;
    s->hash[id] = h;
    s->npairs += n;
    slot_insert(s->slots, s->nslots, h, id);
    return id;
}

int sg_ms_init(sg_msstore *s)
{
    memset(s, 0, sizeof *s);
    return intern(s, NULL, 0, 0) == 0 ? 0 : -1;
}

void sg_ms_free(sg_msstore *s)
{
    free(s->pairs);
    free(s->off);
    free(s->len);
    free(s->size);
    free(s->hash);
    free(s->slots);
    sg_map_free(&s->step);
}

sg_ms sg_ms_step(sg_msstore *s, sg_ms m, uint32_t event)
{
    uint64_t key = (uint64_t)m << 32 | event;
    sg_ms r = sg_map_get(&s->step, key);
    if (r != SG_INVALID)
        return r;
    uint32_t n = s->len[m];
    uint32_t *tmp = malloc(2 * ((size_t)n + 1) * sizeof *tmp);
    if (!tmp)
        return SG_INVALID;
    const uint32_t *p = s->pairs + 2 * (size_t)s->off[m];
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
    if (r != SG_INVALID && sg_map_put(&s->step, key, r))
        return SG_INVALID;
    return r;
}

bool sg_ms_le(const sg_msstore *s, sg_ms a, sg_ms b)
{
    if (a == b)
        return true;
    if (s->size[a] > s->size[b] || s->len[a] > s->len[b])
        return false;
    const uint32_t *pa = s->pairs + 2 * (size_t)s->off[a];
    const uint32_t *pb = s->pairs + 2 * (size_t)s->off[b];
    uint32_t j = 0;
    for (uint32_t i = 0; i < s->len[a]; i++) {
        while (j < s->len[b] && pb[2 * j] < pa[2 * i])
            j++;
        if (j == s->len[b] || pb[2 * j] != pa[2 * i] || pb[2 * j + 1] < pa[2 * i + 1])
            return false;
    }
    return true;
}

size_t sg_ms_bytes(const sg_msstore *s)
{
    return 2 * s->pairs_cap * sizeof(uint32_t) + s->cap * (3 * sizeof(uint32_t) + 8) +
           s->nslots * sizeof(uint32_t) + sg_map_bytes(&s->step);
}
