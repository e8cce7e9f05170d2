/*
 * sg_internal.h - shared between the files of the subset graph module only.
 *
 * The multiset store (sg_multiset.c) hash-conses event multisets: each distinct
 * multiset of event types (= set of occurrence variables, Def. 4) exists once, as a
 * sorted array of (event, count) pairs, and adding one event to a multiset is a cached
 * step.  The trie of traces (sg_graph.c) gives every node the id of its multiset.
 */
#ifndef SG_INTERNAL_H
#define SG_INTERNAL_H

#include "subsetgraph.h"

typedef struct {
    u_intern keys;  /* a multiset's key: its (event, count) pairs, sorted by event */
    uint32_t *size; /* per multiset: total count */
    uint64_t *lane; /* per multiset: 8 byte lanes, lane e % 8 = count of those events
                       (saturating at 127): a cheap necessary test for inclusion */
    size_t size_cap;
    u_map step; /* (ms << 32 | event) -> ms */
} sg_msstore;

/* The (event, count) pairs of multiset m; *n gets their number. */
static inline const uint32_t *sg_ms_pairs(const sg_msstore *s, sg_ms m, uint32_t *n)
{
    *n = s->keys.len[m] / (2 * sizeof(uint32_t));
    return (const uint32_t *)u_intern_key(&s->keys, m);
}

int sg_ms_init(sg_msstore *s);
void sg_ms_free(sg_msstore *s);
sg_ms sg_ms_step(sg_msstore *s, sg_ms m, uint32_t event);
bool sg_ms_le(const sg_msstore *s, sg_ms a, sg_ms b);
size_t sg_ms_bytes(const sg_msstore *s);

#endif
