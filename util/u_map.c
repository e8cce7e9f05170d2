/*
 * u_map.c - an open-addressing hash map from 64-bit keys to 32-bit values.
 *
 * The subset graph's trie edges and multiset steps, the history searches' visited
 * sets and explain's tables are all maps from a packed pair of 32-bit ids (or a
 * 64-bit code) to an id, so one small map serves them all.  Invariants (util.h):
 * capacity is a power of two, load at most 1/2 so that linear probing stays short,
 * key UINT64_MAX marks an empty slot and is never stored.
 */
#include "util.h"

#include <stdlib.h>

#define EMPTY UINT64_MAX

static int map_grow(u_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    uint64_t *keys = malloc(cap * sizeof *keys);
    uint32_t *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        keys[i] = EMPTY;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i] == EMPTY)
            continue;
        size_t j = u_hash64(m->keys[i]) & (cap - 1);
        while (keys[j] != EMPTY)
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

uint32_t u_map_get(const u_map *m, uint64_t key)
{
    if (!m->cap)
        return U_INVALID;
    size_t j = u_hash64(key) & (m->cap - 1);
    while (m->keys[j] != EMPTY) {
        if (m->keys[j] == key)
            return m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    return U_INVALID;
}

int u_map_put(u_map *m, uint64_t key, uint32_t val)
{
    if (key == EMPTY)
        return -1;
    if (2 * (m->len + 1) > m->cap && map_grow(m))
        return -1;
    size_t j = u_hash64(key) & (m->cap - 1);
    while (m->keys[j] != EMPTY && m->keys[j] != key)
        j = (j + 1) & (m->cap - 1);
    if (m->keys[j] == EMPTY)
        m->len++;
    m->keys[j] = key;
    m->vals[j] = val;
    return 0;
}

void u_map_free(u_map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->len = 0;
}

size_t u_map_grow_bytes(const u_map *m)
{
    return 2 * (m->len + 1) > m->cap ? 2 * u_map_bytes(m) : 0; /* twice the old table */
}

size_t u_map_bytes(const u_map *m)
{
    return m->cap * (sizeof *m->keys + sizeof *m->vals);
}
