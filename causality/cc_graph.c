/*
 * cc_graph.c - the transition graph recorded during pan's search.
 *
 * pan keeps its visited states in its own hash table and forgets how it got there.
 * Causality needs the paths: every trace through a revisited state (the paper's
 * match lists).  Instead of storing traces per state, pancause stores the graph once
 * (states and the moves between them) and enumerates histories over it afterwards;
 * a trace is then a path, and no path is lost whichever order pan searched in.
 *
 * The graph sits beside pan's own state table, so it is kept small (README "Method",
 * "Memory"):
 *   - States are identified by a 96-bit fingerprint of the bytes pan hands over
 *     (state vector plus search mode), not by a second copy of the vector.  States
 *     that pan itself stores carry their id in pan's hash table entry instead and
 *     are not in this table at all (cc_graph_new_state).  Two
 *     distinct states collide with probability about n^2 / 2^97 (3e-15 at 2 x 10^7
 *     recorded states).  CC_G_EXACT keeps the full keys instead, for those who want
 *     no risk at all.
 *   - A state's moves are one contiguous block of edges (to, event); the last of a
 *     block carries CC_EV_LAST.  No next pointers, and the analysis reads a state's
 *     moves from one cache line or two.  Which of pan's moves an edge was (process
 *     slot, transition id) is kept only with CC_G_MOVES, for trails.
 * pan's DFS interleaves the moves of a state with those of its descendants, so moves
 * first go to a small pool of pending lists, one per open state, and are copied into
 * the block store when the recorder closes the state (cc_graph_close) or when the
 * graph is sealed.  Moves added to a state that was closed already reopen it: its
 * block is copied back to the pool (rare: hand-built graphs).  Sealing also frees
 * the lookup tables (fingerprints or keys): the search that needed them is over, and
 * at 10^7 recorded states they are a quarter of a gigabyte the analysis would carry
 * for nothing; a sealed graph interns no more states.
 *
 * Invariants: state ids are dense from 0; first[s] is CC_NONE, a block index, or
 * PENDING | pool index of the newest pending move; an edge's target is a state id or
 * CC_SINK; event ids are at most CC_MAX_EVENTS (the two top bits of the 16-bit event
 * word are flags); the
 * fingerprint table holds the nkeys keyed states, is at most 3/4 full, and a state's
 * slot is found from its first fingerprint word by linear probing.
 */
#include "causality.h"
#include "cc_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define PENDING (1u << 31)
#define NO_MOVE UINT32_MAX

static bool is_pending(uint32_t first)
{
    return first != CC_NONE && (first & PENDING);
}

typedef struct cc_pend {
    uint32_t to, ev, mv, next; /* next: older pending move of the same state */
} cc_pend;

cc_graph *cc_graph_new(unsigned flags)
{
    cc_graph *g = calloc(1, sizeof *g);
    if (g) {
        g->root = CC_NOROOT;
        g->gflags = flags;
        g->pfree = CC_NONE;
    }
    return g;
}

void cc_graph_free(cc_graph *g)
{
    if (!g)
        return;
    u_intern_free(&g->states);
    free(g->key_id);
    free(g->slot);
    free(g->first);
    free(g->flags);
    free(g->to);
    free(g->ev);
    free(g->mv);
    free(g->pool);
    free(g->mem_start);
    free(g->mem);
    cc_graph_free(g->orig);
    free(g);
}

/* ---- states ---- */

/* A slot is two words: the fingerprint's first word, and its second word's upper
 * half with id + 1 in the lower half (0: empty).  A lookup touches one cache line. */
static void slot_put(uint64_t *slot, size_t cap, uint64_t fp0, uint64_t tag_id)
{
    size_t j = fp0 & (cap - 1);
    while (slot[2 * j + 1])
        j = (j + 1) & (cap - 1);
    slot[2 * j] = fp0;
    slot[2 * j + 1] = tag_id;
}

/* Lookups hit the table at random, one per move pan makes; a large table would
 * miss the TLB on nearly every one, so it asks for transparent huge pages. */
static uint64_t *slot_alloc(size_t cap)
{
    size_t bytes = 2 * cap * sizeof(uint64_t), huge = (size_t)2 << 20;
    if (bytes < huge)
        return calloc(2 * cap, sizeof(uint64_t));
    uint64_t *s = aligned_alloc(huge, bytes);
    if (s) {
        madvise(s, bytes, MADV_HUGEPAGE);
        memset(s, 0, bytes);
    }
    return s;
}

static int grow_slots(cc_graph *g)
{
    size_t cap = g->slot_cap ? 2 * g->slot_cap : 4096;
    uint64_t *s = slot_alloc(cap);
    if (!s)
        return -1;
    for (size_t j = 0; j < g->slot_cap; j++)
        if (g->slot[2 * j + 1])
            slot_put(s, cap, g->slot[2 * j], g->slot[2 * j + 1]);
    free(g->slot);
    g->slot = s;
    g->slot_cap = cap;
    return 0;
}

#define TAG 0xffffffff00000000ULL

/* The id of the state with fingerprint fp, or CC_NONE. */
static uint32_t fp_find(const cc_graph *g, const uint64_t fp[2])
{
    if (!g->slot_cap)
        return CC_NONE;
    uint64_t tag = fp[1] & TAG;
    for (size_t j = fp[0] & (g->slot_cap - 1); g->slot[2 * j + 1]; j = (j + 1) & (g->slot_cap - 1))
        if (g->slot[2 * j] == fp[0] && (g->slot[2 * j + 1] & TAG) == tag)
            return (uint32_t)(g->slot[2 * j + 1] & ~TAG) - 1;
    return CC_NONE;
}

static int grow_states(cc_graph *g)
{
    size_t cap = g->cap ? 2 * g->cap : 4096;
    void *p;
    if (!(p = realloc(g->first, cap * sizeof *g->first)))
        return -1;
    g->first = p;
    if (!(p = realloc(g->flags, cap * sizeof *g->flags)))
        return -1;
    g->flags = p;
    g->cap = cap;
    return 0;
}

static uint32_t fresh_state(cc_graph *g)
{
    uint32_t id = (uint32_t)g->n++;
    g->first[id] = CC_NONE;
    g->flags[id] = 0;
    return id;
}

/* The state key names: when it names none yet, `id`, or a fresh state when id is
 * CC_NONE (the caller has made room for one); *fresh tells which.  CC_OOM when out of
 * memory.  The one lookup-or-insert of both ways of keying (exact keys, fingerprints). */
static uint32_t key_put(cc_graph *g, const void *key, size_t len, uint32_t id, bool *fresh)
{
    *fresh = false;
    assert(!g->sealed); /* the lookup tables are gone */
    if (g->sealed)
        return CC_OOM;
    if (g->gflags & CC_G_EXACT) {
        if (U_GROW(g->key_id, g->key_cap, g->nkeys))
            return CC_OOM;
        uint32_t k = u_intern_put(&g->states, key, len, fresh);
        if (k == U_INVALID) /* out of memory */
            return CC_OOM;
        if (!*fresh)
            return g->key_id[k];
        g->nkeys++;
        return g->key_id[k] = id == CC_NONE ? fresh_state(g) : id;
    }
    uint64_t fp[2];
    u_fingerprint(key, len, fp);
    uint32_t old = fp_find(g, fp);
    if (old != CC_NONE)
        return old;
    if (4 * (g->nkeys + 1) > 3 * g->slot_cap && grow_slots(g))
        return CC_OOM;
    if (id == CC_NONE)
        id = fresh_state(g);
    g->nkeys++;
    slot_put(g->slot, g->slot_cap, fp[0], (fp[1] & TAG) | ((uint64_t)id + 1));
    *fresh = true;
    return id;
}

uint32_t cc_graph_state(cc_graph *g, const void *key, size_t len, bool *fresh)
{
    *fresh = false;
    /* Room for a new state first, so that an interned key always has its lists. */
    if ((g->n == g->cap && grow_states(g)) || g->n >= PENDING - 1)
        return CC_OOM;
    return key_put(g, key, len, CC_NONE, fresh);
}

uint32_t cc_graph_alias(cc_graph *g, const void *key, size_t len, uint32_t id)
{
    assert(id < g->n);
    bool fresh;
    return key_put(g, key, len, id, &fresh);
}

uint32_t cc_graph_new_state(cc_graph *g)
{
    if ((g->n == g->cap && grow_states(g)) || g->n >= PENDING - 1)
        return CC_OOM;
    return fresh_state(g);
}

void cc_graph_set_root(cc_graph *g, uint32_t s)
{
    g->root = s;
}

void cc_graph_bad_state(cc_graph *g, uint32_t s)
{
    g->flags[s] |= CC_S_BAD;
}

void cc_graph_noend_state(cc_graph *g, uint32_t s, bool noend)
{
    if (noend)
        g->flags[s] |= CC_S_NOEND;
    else
        g->flags[s] &= (uint8_t)~CC_S_NOEND;
}

bool cc_graph_expand(cc_graph *g, uint32_t s)
{
    bool was = g->flags[s] & CC_S_EXPANDED;
    g->flags[s] |= CC_S_EXPANDED;
    return was;
}

/* ---- moves ---- */

static int pend(cc_graph *g, uint32_t from, uint32_t to, uint32_t ev, uint32_t mv)
{
    uint32_t k = g->pfree;
    if (k != CC_NONE) {
        g->pfree = g->pool[k].next;
    } else {
        if (U_GROW(g->pool, g->pcap, g->npool) || g->npool >= PENDING - 1)
            return -1;
        k = (uint32_t)g->npool++;
    }
    uint32_t head = g->first[from];
    g->pool[k] = (cc_pend){to, ev, mv, is_pending(head) ? head & ~PENDING : CC_NONE};
    g->first[from] = k | PENDING;
    return 0;
}

/* The pool slot of from's newest move when from is still open and that move goes
 * to `to`; CC_NONE otherwise. */
static uint32_t newest_to(const cc_graph *g, uint32_t from, uint32_t to)
{
    uint32_t head = g->first[from];
    if (!is_pending(head) || g->pool[head & ~PENDING].to != to)
        return CC_NONE;
    return head & ~PENDING;
}

int cc_graph_unmove(cc_graph *g, uint32_t from, uint32_t to)
{
    uint32_t k = newest_to(g, from, to);
    if (k == CC_NONE)
        return 0;
    uint32_t next = g->pool[k].next;
    g->first[from] = next == CC_NONE ? CC_NONE : next | PENDING;
    g->pool[k].next = g->pfree;
    g->pfree = k;
    return 1;
}

int cc_graph_retarget(cc_graph *g, uint32_t from, uint32_t to, uint32_t to2)
{
    uint32_t k = newest_to(g, from, to);
    if (k == CC_NONE)
        return 0;
    g->pool[k].to = to2;
    return 1;
}

/* A closed state gets moves again: its block goes back to the pool, in order. */
static int reopen(cc_graph *g, uint32_t s)
{
    uint32_t b = g->first[s], n = 1;
    while (!(g->ev[b + n - 1] & CC_EV_LAST))
        n++;
    g->first[s] = CC_NONE;
    g->ndead += n;
    for (uint32_t i = 0; i < n; i++)
        if (pend(g, s, g->to[b + i], g->ev[b + i] & ~CC_EV_LAST, g->mv ? g->mv[b + i] : NO_MOVE))
            return -1;
    return 0;
}

int cc_graph_edge(cc_graph *g, uint32_t from, uint32_t to, uint32_t event, bool claim)
{
    return cc_graph_move(g, from, to, event, claim, -1, -1);
}

int cc_graph_move(cc_graph *g, uint32_t from, uint32_t to, uint32_t event, bool claim, int pr,
                  int tid)
{
    if (event > CC_MAX_EVENTS ||
        (g->first[from] != CC_NONE && !is_pending(g->first[from]) && reopen(g, from)))
        return -1;
    uint32_t mv = pr < 0 || tid < 0 ? NO_MOVE : (uint32_t)pr << 24 | ((uint32_t)tid & 0xffffff);
    return pend(g, from, to, event | (claim ? CC_EV_CLAIM : 0), mv);
}

static int grow_edges(cc_graph *g, size_t need)
{
    if (need <= g->ecap)
        return 0;
    size_t cap = g->ecap ? g->ecap : 1 << 14;
    while (cap < need)
        cap *= 2;
    void *p;
    if (!(p = realloc(g->to, cap * sizeof *g->to)))
        return -1;
    g->to = p;
    if (!(p = realloc(g->ev, cap * sizeof *g->ev)))
        return -1;
    g->ev = p;
    if (g->gflags & CC_G_MOVES) {
        if (!(p = realloc(g->mv, cap * sizeof *g->mv)))
            return -1;
        g->mv = p;
    }
    g->ecap = cap;
    return 0;
}

int cc_graph_close(cc_graph *g, uint32_t s)
{
    uint32_t head = g->first[s];
    if (!is_pending(head))
        return 0;
    size_t n = 0;
    for (uint32_t k = head & ~PENDING; k != CC_NONE; k = g->pool[k].next)
        n++;
    if (g->nedges + n >= PENDING || grow_edges(g, g->nedges + n))
        return -1;
    /* The pending list is newest first; the block keeps the order pan moved in. */
    uint32_t b = (uint32_t)g->nedges, i = (uint32_t)n, k = head & ~PENDING;
    while (k != CC_NONE) {
        const cc_pend *p = &g->pool[k];
        i--;
        g->to[b + i] = p->to;
        g->ev[b + i] = (uint16_t)(p->ev | (i == n - 1 ? CC_EV_LAST : 0));
        if (g->mv)
            g->mv[b + i] = p->mv;
        uint32_t next = p->next;
        g->pool[k].next = g->pfree;
        g->pfree = k;
        k = next;
    }
    g->nedges += n;
    g->first[s] = b;
    return 0;
}

int cc_graph_seal(cc_graph *g)
{
    for (size_t s = 0; s < g->n; s++)
        if (cc_graph_close(g, (uint32_t)s))
            return -1;
    free(g->pool);
    g->pool = NULL;
    g->npool = g->pcap = 0;
    g->pfree = CC_NONE;
    u_intern_free(&g->states); /* leaves it empty */
    free(g->key_id);
    g->key_id = NULL;
    g->key_cap = 0;
    free(g->slot);
    g->slot = NULL;
    g->slot_cap = 0;
    g->sealed = true;
    return 0;
}

void cc_graph_step(const cc_graph *g, uint32_t e, int *pr, int *tid)
{
    uint32_t mv = g->mv ? g->mv[e] : NO_MOVE;
    *pr = mv == NO_MOVE ? -1 : (int)(mv >> 24);
    *tid = mv == NO_MOVE ? -1 : (int)(mv & 0xffffff);
}

uint32_t cc_graph_root(const cc_graph *g)
{
    return g->root;
}

uint32_t cc_graph_first(const cc_graph *g, uint32_t s)
{
    return cc_first(g, s);
}

uint32_t cc_graph_next(const cc_graph *g, uint32_t e)
{
    return cc_next(g, e);
}

uint32_t cc_graph_target(const cc_graph *g, uint32_t e)
{
    return g->to[e];
}

bool cc_graph_claim(const cc_graph *g, uint32_t e)
{
    return g->ev[e] & CC_EV_CLAIM;
}

size_t cc_graph_states(const cc_graph *g)
{
    return g->n;
}

size_t cc_graph_edges(const cc_graph *g)
{
    return g->nedges - g->ndead;
}

size_t cc_graph_bytes(const cc_graph *g)
{
    size_t per_edge = sizeof *g->to + sizeof *g->ev + (g->mv ? sizeof *g->mv : 0);
    return u_intern_bytes(&g->states) + g->key_cap * 4 + g->n * (4 + 1) + g->slot_cap * 16 +
           g->nedges * per_edge + g->pcap * sizeof(cc_pend) +
           (g->orig ? (g->n + 1 + g->mem_start[g->n]) * 4 + cc_graph_bytes(g->orig) : 0);
}
