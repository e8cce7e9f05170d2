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
    uint32_t *pairs; /* (event, count) pairs of all multisets, each sorted by event */
    size_t npairs, pairs_cap;
    uint32_t *off, *len, *size; /* per multiset: first pair, pair count, total count */
    uint64_t *hash;             /* per multiset: content hash */
    size_t n, cap;
    uint32_t *slots; /* content table: multiset id + 1, or 0 = empty */
    size_t nslots;
    sg_map step; /* (ms << 32 | event) -> ms */
} sg_msstore;

int sg_ms_init(sg_msstore *s);
void sg_ms_free(sg_msstore *s);
sg_ms sg_ms_step(sg_msstore *s, sg_ms m, uint32_t event);
bool sg_ms_le(const sg_msstore *s, sg_ms a, sg_ms b);
size_t sg_ms_bytes(const sg_msstore *s);

#endif
