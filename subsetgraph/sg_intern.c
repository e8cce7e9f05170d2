/*
 * sg_intern.c - an interning table: byte strings to dense ids.
 *
 * Two stores need "give every distinct key an id, and find the id of a key again":
 * the subset graph's multisets (sorted (event, count) pairs) and the causality
 * module's recorded states (pan's state vectors).  Keys live back to back in one
 * arena, each id remembers its offset, length and hash, and an open-addressing slot
 * table finds an id by hash.  Invariants: ids are dense from 0; capacity of the slot
 * table is a power of two and at most half full; a slot holds id + 1, 0 = empty.
 * The arena is kept 8-byte aligned per key so that callers may read keys as words.
 */
#include "subsetgraph.h"

#include <stdlib.h>
#include <string.h>

uint64_t sg_hash_bytes(const void *key, size_t n)
{
    const uint8_t *p = key;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 32);
}

static int grow_ids(sg_intern *t)
{
    size_t cap = t->cap ? 2 * t->cap : 1024;
    size_t *off = realloc(t->off, cap * sizeof *off);
    if (off)
        t->off = off;
    uint32_t *len = realloc(t->len, cap * sizeof *len);
    if (len)
        t->len = len;
    uint64_t *hash = realloc(t->hash, cap * sizeof *hash);
    if (hash)
        t->hash = hash;
    if (!off || !len || !hash)
        return -1;
    t->cap = cap;
    return 0;
}

/* Also allocates for the first key, even an empty one, so that a key's address is
 * never computed from a null arena. */
static int reserve_bytes(sg_intern *t, size_t len)
{
    if (t->bytes && t->nbytes + len <= t->bytes_cap)
        return 0;
    size_t cap = t->bytes_cap ? t->bytes_cap : 1 << 14;
    while (cap < t->nbytes + len)
        cap *= 2;
    uint8_t *b = realloc(t->bytes, cap);
    if (!b)
        return -1;
    t->bytes = b;
    t->bytes_cap = cap;
    return 0;
}

static void slot_put(uint32_t *slots, size_t n, uint64_t h, uint32_t id)
{
    size_t j = h & (n - 1);
    while (slots[j])
        j = (j + 1) & (n - 1);
    slots[j] = id + 1;
}

static int grow_slots(sg_intern *t)
{
    size_t n = t->nslots ? 2 * t->nslots : 1024;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < t->n; i++)
        slot_put(s, n, t->hash[i], (uint32_t)i);
    free(t->slots);
    t->slots = s;
    t->nslots = n;
    return 0;
}

uint32_t sg_intern_put(sg_intern *t, const void *key, size_t len, bool *fresh)
{
    uint64_t h = sg_hash_bytes(key, len);
    *fresh = false;
    for (size_t j = t->nslots ? h & (t->nslots - 1) : 0; t->nslots && t->slots[j];
         j = (j + 1) & (t->nslots - 1)) {
        uint32_t id = t->slots[j] - 1;
        if (t->hash[id] == h && t->len[id] == len &&
            (!len || !memcmp(t->bytes + t->off[id], key, len)))
            return id;
    }
    size_t padded = (len + 7) & ~(size_t)7;
    if (t->n >= SG_INVALID - 1 || (t->n == t->cap && grow_ids(t)) || reserve_bytes(t, padded) ||
        (2 * (t->n + 1) > t->nslots && grow_slots(t)))
        return SG_INVALID;
    uint32_t id = (uint32_t)t->n++;
    if (len) /* key may be NULL for the empty key */
        memcpy(t->bytes + t->nbytes, key, len);
    t->off[id] = t->nbytes;
    t->len[id] = (uint32_t)len;
    t->hash[id] = h;
    t->nbytes += padded;
    slot_put(t->slots, t->nslots, h, id);
    *fresh = true;
    return id;
}

const void *sg_intern_key(const sg_intern *t, uint32_t id)
{
    return t->bytes + t->off[id];
}

void sg_intern_free(sg_intern *t)
{
    free(t->bytes);
    free(t->off);
    free(t->len);
    free(t->hash);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

size_t sg_intern_bytes(const sg_intern *t)
{
    return t->bytes_cap + t->cap * (sizeof(size_t) + 4 + 8) + t->nslots * 4;
}
