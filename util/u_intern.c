/*
 * u_intern.c - an interning table: byte strings to dense ids.
 *
 * Several stores need "give every distinct key an id, and find the id of a key
 * again": the subset graph's multisets (sorted (event, count) pairs), the recorder's
 * states with --exact-states (pan's state vectors), explain's variable names and
 * symbols.  Keys live back to back in one arena, each id remembers its offset,
 * length and hash, and an open-addressing slot table finds an id by hash.
 * Invariants (util.h): ids are dense from 0; the slot table is a power of two, at
 * most half full, and holds id + 1 (0 = empty); every key starts 8-byte aligned in
 * the arena, so that callers may read keys as words.
 */
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Also allocates for the first key, even an empty one, so that a key's address is
 * never computed from a null arena. */
static int reserve_bytes(u_intern *t, size_t len)
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

static int grow_slots(u_intern *t)
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

static uint32_t lookup(const u_intern *t, const void *key, size_t len, uint64_t h)
{
    for (size_t j = t->nslots ? h & (t->nslots - 1) : 0; t->nslots && t->slots[j];
         j = (j + 1) & (t->nslots - 1)) {
        uint32_t id = t->slots[j] - 1;
        if (t->hash[id] == h && t->len[id] == len &&
            (!len || !memcmp(t->bytes + t->off[id], key, len)))
            return id;
    }
    return U_INVALID;
}

uint32_t u_intern_find(const u_intern *t, const void *key, size_t len)
{
    return lookup(t, key, len, u_hash_bytes(key, len));
}

uint32_t u_intern_put(u_intern *t, const void *key, size_t len, bool *fresh)
{
    uint64_t h = u_hash_bytes(key, len);
    *fresh = false;
    uint32_t id = lookup(t, key, len, h);
    if (id != U_INVALID)
        return id;
    size_t padded = (len + 7) & ~(size_t)7;
    if (t->n >= U_INVALID - 1 || len > UINT32_MAX ||
        U_GROW_ALL(t->cap, t->n, 1024, U_ARR(t->off), U_ARR(t->len), U_ARR(t->hash)) ||
        reserve_bytes(t, padded) || (2 * (t->n + 1) > t->nslots && grow_slots(t)))
        return U_INVALID;
    id = (uint32_t)t->n++;
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

const void *u_intern_key(const u_intern *t, uint32_t id)
{
    return t->bytes + t->off[id];
}

size_t u_intern_len(const u_intern *t, uint32_t id)
{
    return t->len[id];
}

void u_intern_free(u_intern *t)
{
    free(t->bytes);
    free(t->off);
    free(t->len);
    free(t->hash);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

size_t u_intern_bytes(const u_intern *t)
{
    return t->bytes_cap + t->cap * (sizeof(size_t) + 4 + 8) + t->nslots * 4;
}
