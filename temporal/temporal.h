/*
 * temporal.h - temporal causes of omega-regular effects on lasso traces of
 * reactive systems (Finkbeiner, Frenkel, Metzger, Siber, "Synthesis of Temporal
 * Causality", CAV 2024; README "Temporal causes").  The whole interface of
 * temporal/; prefix tm_.
 *
 * The module is its own small automata library, because the cause is computed by
 * automata operations (section 5.2 of the paper) and no automata library is
 * packaged for Debian:
 *   - Buchi automata with state-based acceptance whose edges carry cubes
 *     (conjunctions of literals) over at most 64 atomic propositions (tm_nba.c),
 *     emptiness with a lasso witness and lasso membership (tm_empty.c), products
 *     (tm_product.c), complementation (tm_complement.c: the breakpoint
 *     construction for weak automata, Safra-Piterman determinisation otherwise,
 *     tm_safra.c), inclusion and equivalence (tm_incl.c), reduction (tm_reduce.c:
 *     direct-simulation quotient, minimisation of weak deterministic automata);
 *   - the formats: HOA v1 (tm_hoa_read.c, tm_hoa_write.c), Spot's word syntax
 *     for lassos (tm_word.c), Spot's LTL syntax (tm_ltl_parse.c, tm_ltl.c) and an
 *     LTL-to-Buchi translation (tm_ltl_nba.c);
 *   - the problem: the system as a Mealy machine (tm_system.c), the upward
 *     closure of the negated effect (tm_closure.c), the cause and cause checking
 *     (tm_cause.c), an LTL description of a cause (tm_describe.c) and the
 *     `pancause temporal` command (tm_cli.c).
 *
 * Conventions: errors travel in a u_err (util.h) and name the file, line and
 * column of bad input; out of memory is an error, never an abort; every
 * construction that can grow exponentially takes a state budget and fails with
 * a message naming the construction when it would exceed it.
 */
#ifndef TEMPORAL_H
#define TEMPORAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* ---- atomic propositions and letters ---- */

/* A letter is a valuation of the atomic propositions: bit i is AP i.  An
 * automaton's alphabet is the set of valuations of the APs in its apmask (bits
 * outside it are ignored by every operation). */
#define TM_MAX_APS 64

/* Names of the APs.  Invariant: names are distinct, n <= TM_MAX_APS. */
typedef struct {
    int n;
    char *name[TM_MAX_APS];
} tm_aps;

/* The index of name[0..len), adding it when absent: -1 with err when there are
 * already TM_MAX_APS or memory is out. */
int tm_aps_add(tm_aps *a, const char *name, size_t len, u_err *err);
/* The index of name[0..len), or -1. */
int tm_aps_find(const tm_aps *a, const char *name, size_t len);
int tm_aps_copy(tm_aps *dst, const tm_aps *src);
void tm_aps_free(tm_aps *a);

/* A cube is a conjunction of literals: AP i is constrained iff bit i of mask,
 * to the value of bit i of val.  Invariant: val & ~mask == 0.  The empty cube
 * (mask 0) is true. */
typedef struct {
    uint64_t mask, val;
} tm_cube;

static inline bool tm_cube_has(tm_cube c, uint64_t letter)
{
    return ((letter ^ c.val) & c.mask) == 0;
}
/* Whether two cubes have a common letter. */
static inline bool tm_cube_meets(tm_cube a, tm_cube b)
{
    return ((a.val ^ b.val) & a.mask & b.mask) == 0;
}
static inline tm_cube tm_cube_and(tm_cube a, tm_cube b)
{
    tm_cube c = {a.mask | b.mask, a.val | b.val};
    return c;
}
/* The k-th valuation (k < 2^popcount(mask)) of the APs in mask: the bits of k
 * spread over the set bits of mask, lowest first. */
uint64_t tm_spread(uint64_t k, uint64_t mask);
int tm_popcount(uint64_t m);
/* Whether the cubes c[0..n) together hold for every valuation of the APs in
 * mask that satisfies ctx. */
bool tm_cubes_cover(const tm_cube *c, uint32_t n, tm_cube ctx, uint64_t mask);

/* ---- Buchi automata (tm_nba.c) ---- */

typedef struct {
    uint32_t dst;
    tm_cube c;
} tm_edge;

typedef struct {
    tm_edge *e; /* outgoing edges; several may share a target */
    uint32_t n, cap;
    bool acc; /* accepting (state-based Buchi) */
} tm_state;

/* A nondeterministic Buchi automaton over the valuations of the APs in apmask.
 * Invariants: every edge target and initial state is < n; edge cubes only
 * constrain APs in apmask.  A run is accepting when it visits accepting states
 * infinitely often. */
typedef struct {
    uint64_t apmask;
    tm_state *s;
    uint32_t n, cap;
    uint32_t *init;
    uint32_t ninit, init_cap;
} tm_nba;

void tm_nba_init(tm_nba *a, uint64_t apmask);
void tm_nba_free(tm_nba *a);
/* A new state; U_INVALID when out of memory. */
uint32_t tm_nba_add_state(tm_nba *a, bool acc);
/* 0, or -1 when out of memory.  A cube with no letter is ignored. */
int tm_nba_add_edge(tm_nba *a, uint32_t src, uint32_t dst, tm_cube c);
int tm_nba_add_init(tm_nba *a, uint32_t q);
int tm_nba_copy(tm_nba *dst, const tm_nba *src);
size_t tm_nba_edges(const tm_nba *a);
/* Letters over apmask: 2^popcount(apmask). */
uint64_t tm_nba_letters(const tm_nba *a);
/* Deterministic: one initial state, and no letter leads from a state along two
 * edges to different targets.  Complete: every state has a successor on every
 * letter (and there is an initial state). */
bool tm_nba_deterministic(const tm_nba *a);
bool tm_nba_complete(const tm_nba *a);
/* Keeps only states reachable from an initial state from which an accepting
 * cycle is reachable (the others add nothing to the language), renumbered in
 * breadth-first order from the initial states.  0 or -1 (out of memory, err). */
int tm_nba_trim(tm_nba *a, u_err *err);
/* Merges edges with the same source and target whose cubes differ in one
 * literal (a&b | a&!b = a), repeatedly, and drops edges subsumed by another edge
 * with the same target.  Language and states are unchanged. */
int tm_nba_merge_edges(tm_nba *a, u_err *err);

/* ---- SCCs, emptiness, membership (tm_empty.c) ---- */

/* Strongly connected components of the states (edges with letters): comp[q] is
 * q's component; components are numbered in reverse topological order (a
 * component's successors have smaller numbers).  Returns the count, or -1 (out
 * of memory). */
int tm_nba_scc(const tm_nba *a, uint32_t *comp);

/* An ultimately periodic word prefix . cycle^omega; letters are valuations.
 * Invariant: ncyc >= 1 for a word in use. */
typedef struct {
    uint64_t *pre, *cyc;
    size_t npre, ncyc;
} tm_lasso;
void tm_lasso_free(tm_lasso *w);

/* Whether L(a) is empty; when it is not and w != NULL, *w gets an accepted
 * word (letters with the APs outside the edge cubes false).  -1 on out of
 * memory. */
int tm_nba_empty(const tm_nba *a, tm_lasso *w, u_err *err);
/* Whether a accepts the lasso w (1/0); -1 (err) on out of memory or when the
 * product of a's states and w's letters has 2^32 nodes or more. */
int tm_nba_accepts(const tm_nba *a, const tm_lasso *w, u_err *err);

/* ---- products (tm_product.c) ---- */

/* L(out) = L(a) & L(b), over apmask a | b. */
int tm_nba_intersect(const tm_nba *a, const tm_nba *b, uint32_t budget, tm_nba *out, u_err *err);
/* L(out) = L(a) | L(b) (disjoint union). */
int tm_nba_union(const tm_nba *a, const tm_nba *b, tm_nba *out, u_err *err);

/* ---- complementation (tm_complement.c, tm_safra.c) ---- */

typedef enum {
    TM_COMP_AUTO,       /* breakpoint when the automaton is weak, else Safra */
    TM_COMP_BREAKPOINT, /* only for weak automata (fails otherwise) */
    TM_COMP_SAFRA
} tm_comp_method;

/* Weak: every SCC has only accepting or only rejecting cycles.  When it is,
 * *normal (if not NULL) gets a copy whose states are accepting exactly in the
 * SCCs with accepting cycles (same language). */
int tm_nba_weak(const tm_nba *a, tm_nba *normal, bool *weak, u_err *err);

/* A deterministic automaton with transition-based Buchi acceptance over the
 * letters of apmask, as a table (tm_tdba.c): the breakpoint complement's form
 * before it is reduced and made state-based.  Invariant: succ and acc have
 * n * L entries; succ[q * L + l] is the target on letter l (spread over
 * apmask) or U_INVALID; init is U_INVALID only without states. */
typedef struct {
    uint64_t apmask, L;
    uint32_t n, init;
    uint32_t *succ;
    uint8_t *acc;
    size_t cap;
} tm_tdba;
void tm_tdba_init(tm_tdba *d, uint64_t apmask);
void tm_tdba_free(tm_tdba *d);
uint32_t tm_tdba_add_state(tm_tdba *d); /* U_INVALID when out of memory */
/* Language-preserving: acceptance saturation, Moore, direct simulation. */
int tm_tdba_reduce(tm_tdba *d, u_err *err);
/* The state-based automaton ((q, entered-by-an-accepting-transition)). */
int tm_tdba_to_nba(const tm_tdba *d, tm_nba *out, u_err *err);

/* L(out) = the complement of L(a) over a's alphabet.  budget bounds the states
 * built; exceeding it fails with a message naming `what` (e.g. "the cause").
 * *used (if not NULL) gets the construction actually used. */
int tm_nba_complement(const tm_nba *a, tm_comp_method m, uint32_t budget, const char *what,
                      tm_nba *out, tm_comp_method *used, u_err *err);
/* The breakpoint (Miyano-Hayashi) complement of a weak automaton: a
 * deterministic automaton with transition-based acceptance and at most 3^n
 * states, reduced (tm_tdba_reduce) and made state-based (at most twice as
 * many). */
int tm_complement_breakpoint(const tm_nba *weak, uint32_t budget, const char *what, tm_nba *out,
                             u_err *err);
/* Complement by Safra-Piterman determinisation into a deterministic parity
 * automaton (at most 2 n^n n! states, 2n + 1 priorities), complemented and
 * turned into a Buchi automaton (at most n + 2 copies). */
int tm_complement_safra(const tm_nba *a, uint32_t budget, const char *what, tm_nba *out,
                        u_err *err);

/* ---- inclusion and equivalence (tm_incl.c) ---- */

/* 1 when L(a) is a subset of L(b), 0 when not (then *cex, if not NULL, is a
 * word of L(a) \ L(b)), -1 on error (budget: complementing b). */
int tm_nba_included(const tm_nba *a, const tm_nba *b, uint32_t budget, tm_lasso *cex, u_err *err);
/* The same when the complement of b is known (no complementation). */
int tm_nba_included_cb(const tm_nba *a, const tm_nba *comp_b, uint32_t budget, tm_lasso *cex,
                       u_err *err);

/* ---- reduction (tm_reduce.c) ---- */

/* Moore's partition refinement, shared by the state-based (tm_reduce.c) and the
 * transition-based (tm_tdba.c) minimisations.  On entry block[q] (q < n) is the
 * initial partition (any ids); each round gives q the block of its signature
 * (block[q], then the klen - 1 numbers sig writes to key + 1 from the current
 * blocks) until the number of blocks stops growing.  On return block[q] is
 * dense (0 .. count - 1); the count, or -1 on out of memory. */
typedef void tm_moore_sig(const void *ctx, uint32_t q, const uint32_t *block, uint32_t *key);
long tm_moore(uint32_t n, size_t klen, tm_moore_sig *sig, const void *ctx, uint32_t *block);

/* Language-preserving reduction: trim, merge states equivalent under direct
 * simulation and drop edges to states a sibling edge's target simulates
 * (little brothers), and, for a deterministic weak automaton, minimisation as
 * a weak deterministic automaton (Loding).  Repeats while it shrinks. */
int tm_nba_reduce(tm_nba *a, u_err *err);
/* Only the direct-simulation quotient (exposed for tests). */
int tm_nba_simulation_quotient(tm_nba *a, u_err *err);
/* The delayed-simulation quotient (a class is accepting when a member is);
 * language-preserving (Etessami, Wilke, Schuller 2005).  Deterministic
 * automata up to 2000 states, others up to 300. */
int tm_nba_delayed_quotient(tm_nba *a, u_err *err);

/* ---- HOA v1 (tm_hoa_read.c, tm_hoa_write.c) ---- */

typedef struct {
    tm_aps aps;
    tm_nba a;              /* generalised or transition-based acceptance degeneralised */
    uint64_t controllable; /* controllable-AP: as a mask over aps */
    bool has_controllable;
    bool acc_all; /* Acceptance: t (every run accepted) */
    char *name;   /* name: or NULL */
} tm_hoa;

/* Reads one automaton from text (file named by `file` in messages, which are
 * "FILE:LINE:COL: ..."). */
int tm_hoa_parse(const char *text, size_t len, const char *file, tm_hoa *h, u_err *err);
int tm_hoa_read(const char *path, tm_hoa *h, u_err *err);
void tm_hoa_free(tm_hoa *h);
/* Writes a as HOA with state-based Buchi acceptance, naming only the APs of its
 * apmask (renumbered in index order).  Labels are DNFs of the edge cubes per
 * target.  0 or -1 (a write failed). */
int tm_hoa_write(FILE *f, const tm_nba *a, const tm_aps *aps, const char *name);

/* ---- words (tm_word.c) ---- */

/* A lasso in Spot's syntax `l;l;cycle{l;l}`: each letter a conjunction of
 * literals (or true), kept as a cube (unmentioned APs unconstrained). */
typedef struct {
    tm_cube *pre, *cyc;
    size_t npre, ncyc;
} tm_word;
/* APs must be known to aps; what names the text in messages ("the trace"). */
int tm_word_parse(const char *text, const tm_aps *aps, const char *what, tm_word *w, u_err *err);
void tm_word_free(tm_word *w);
/* Spot syntax of one valuation over apmask (`a&!b`, `true` for no APs);
 * fresh memory or NULL. */
char *tm_letter_text(uint64_t letter, uint64_t apmask, const tm_aps *aps);
/* Spot syntax of a lasso of valuations over apmask (every AP of apmask written
 * as a literal); fresh memory or NULL. */
char *tm_lasso_text(const tm_lasso *w, uint64_t apmask, const tm_aps *aps);

/* ---- LTL (tm_ltl.c, tm_ltl_parse.c, tm_ltl_nba.c) ---- */

typedef enum {
    TM_L_TRUE,
    TM_L_FALSE,
    TM_L_AP,
    TM_L_NOT,
    TM_L_AND,
    TM_L_OR,
    TM_L_IMPL,
    TM_L_EQUIV,
    TM_L_XOR,
    TM_L_X,
    TM_L_F,
    TM_L_G,
    TM_L_U,
    TM_L_R,
    TM_L_W,
    TM_L_M
} tm_lop;

typedef struct {
    tm_lop op;
    int a, b; /* children, -1 when absent */
    int ap;   /* TM_L_AP */
} tm_lnode;

/* Formulas as a hash-consed DAG: structurally equal subformulas are one node,
 * children have smaller ids than their parents. */
typedef struct {
    tm_lnode *n;
    size_t len, cap;
    int *hash; /* open addressing over node ids, -1 empty */
    size_t hcap;
} tm_ltl;

void tm_ltl_init(tm_ltl *l);
void tm_ltl_free(tm_ltl *l);
/* The node (op, a, b, ap), shared; -1 when out of memory. */
int tm_ltl_mk(tm_ltl *l, tm_lop op, int a, int b, int ap);
/* Parses Spot syntax.  APs are looked up in aps (unknown ones are an error
 * naming them unless add_aps, then they are added).  `what` names the text in
 * messages ("the effect: column 4: ...").  The formula's id, or -1. */
int tm_ltl_parse(tm_ltl *l, const char *text, tm_aps *aps, bool add_aps, const char *what,
                 u_err *err);
/* Negation normal form over TRUE FALSE AP NOT(AP) AND OR X U R (F, G, W, M,
 * ->, <->, xor rewritten); -1 when out of memory. */
int tm_ltl_nnf(tm_ltl *l, int f, bool negate);
/* The APs f mentions. */
uint64_t tm_ltl_apmask(const tm_ltl *l, int f);
/* Spot syntax with the fewest parentheses Spot's precedences allow; fresh
 * memory or NULL. */
char *tm_ltl_text(const tm_ltl *l, int f, const tm_aps *aps);
/* Operator and atom occurrences of the tree under f. */
size_t tm_ltl_size(const tm_ltl *l, int f);
/* The truth of f at position 0 of a lasso (direct fixpoint evaluation, used
 * by the tests and the description search to filter candidates); -1 on out of
 * memory. */
int tm_ltl_holds(tm_ltl *l, int f, const tm_lasso *w);
/* A Buchi automaton for f over apmask (a tableau over NNF obligations with one
 * acceptance mark per until, degeneralised).  budget bounds its states. */
int tm_ltl_to_nba(tm_ltl *l, int f, uint64_t apmask, uint32_t budget, tm_nba *out, u_err *err);

/* ---- the system (tm_system.c) ---- */

/* A Mealy machine read from HOA: the APs in controllable-AP are outputs, the
 * others inputs; Acceptance t.  A trace is the sequence of letters satisfying
 * the labels along an infinite run.  Invariants: inputs | outputs covers the
 * APs, inputs & outputs == 0, every state has a successor for every input
 * valuation (input-enabled), at most TM_MAX_INPUTS inputs. */
#define TM_MAX_INPUTS 16
typedef struct {
    tm_aps aps;
    uint64_t inputs, outputs;
    tm_nba a; /* every state accepting */
    char *file;
} tm_system;

int tm_system_read(const char *path, tm_system *s, u_err *err);
/* The first valuation of the APs in inputs that no edge of state q allows (the
 * edges' other APs ignored), UINT64_MAX when q is input-enabled, UINT64_MAX - 1
 * when out of memory. */
uint64_t tm_missing_input(const tm_nba *a, uint32_t q, uint64_t inputs);
/* The same from a parsed HOA (taken over: h is left empty). */
int tm_system_from_hoa(tm_hoa *h, const char *file, tm_system *s, u_err *err);
void tm_system_free(tm_system *s);

/* ---- the problem and the cause (tm_closure.c, tm_cause.c) ---- */

typedef enum { TM_SUBSET, TM_FULL } tm_relation;

/* The effect on the trace: the system runs that match the trace (inputs as
 * written, unmentioned inputs false; outputs where the trace mentions them). */
typedef enum {
    TM_TRACE_NO_RUN,   /* no run matches: not a trace of the system */
    TM_TRACE_HOLDS,    /* every matching run satisfies the effect */
    TM_TRACE_VIOLATED, /* every matching run violates it: nothing to explain */
    TM_TRACE_AMBIGUOUS /* some do, some do not */
} tm_trace_status;

typedef struct {
    const tm_system *sys;
    tm_lasso pi;    /* the trace's inputs (unmentioned inputs false) */
    tm_word trace;  /* the trace as written */
    tm_nba effect;  /* Buchi automaton for E over the system's APs */
    tm_nba neffect; /* Buchi automaton for not E */
    tm_relation rel;
    uint32_t budget; /* states per construction */
} tm_problem;

/* Sets up p (sys is borrowed; effect and neffect are taken over, left empty in
 * the caller): checks that the trace names only system APs. */
int tm_problem_init(tm_problem *p, const tm_system *sys, const char *trace, tm_nba *effect,
                    tm_nba *neffect, tm_relation rel, uint32_t budget, u_err *err);
void tm_problem_free(tm_problem *p);

/* How the trace relates to the system and the effect; for TM_TRACE_NO_RUN the
 * message in err says where the trace leaves the system. */
int tm_trace_check(const tm_problem *p, tm_trace_status *st, u_err *err);

/* The upward closure of the negated effect (section 5.1's complement of D): the
 * input sequences rho for which some sigma' <=_pi rho has a system run violating
 * the effect, as a Buchi automaton over the inputs, reduced; *built gets the
 * states built before reduction. */
int tm_closure(const tm_problem *p, tm_nba *out, uint32_t *built, u_err *err);
/* The closure in parts that share no state: one per set K of inputs copied
 * from rho (full relation: 2^|I| parts), one in all for subset.  A part is
 * built and reduced (*built: its states before); the union of parts, reduced,
 * is the closure. */
uint32_t tm_closure_nparts(const tm_problem *p);
int tm_closure_part(const tm_problem *p, uint32_t K, tm_nba *out, uint32_t *built, u_err *err);
int tm_closure_union(const tm_nba *parts, uint32_t n, uint64_t inputs, tm_nba *out, u_err *err);

typedef struct {
    bool exists;          /* pi|I is in D (Lemma 3): a cause exists */
    tm_nba cause;         /* D, reduced; no states when no cause exists */
    tm_nba closure;       /* the upward closure (complement of D), reduced */
    uint32_t closure_raw; /* states of the closure as built */
    uint32_t cause_raw;   /* states of the complement(s) as built, before reduction (by
                             parts: their sum, before they are intersected, so the cause
                             may have more) */
    tm_comp_method method;
} tm_result;

int tm_cause(const tm_problem *p, tm_result *r, u_err *err);
void tm_result_free(tm_result *r);

/* Cause checking (section 6.2): whether L(cand) = L(r->cause); when not, *cex
 * is a word in one but not the other and *in_cause says which. */
int tm_check(const tm_result *r, const tm_nba *cand, const tm_nba *ncand, uint32_t budget,
             bool *equal, tm_lasso *cex, bool *in_cause, u_err *err);

/* ---- LTL description (tm_describe.c) ---- */

/* Searches LTL formulas over the inputs for one whose language equals the
 * cause's: every formula up to max_size operators and atoms (bottom-up,
 * candidates equal on sample lassos pruned), then conjunctions of pi's timed
 * literals.  Equality is proved by two emptiness checks against the cause and
 * its complement, at most max_tries times.  The formula's id in l, or -1 when
 * none was found (err set only on errors, which return -2). */
int tm_describe(const tm_result *r, const tm_system *sys, const tm_lasso *pi, tm_ltl *l,
                int max_size, uint32_t max_tries, uint32_t budget, u_err *err);

/* ---- SPIN models (tm_pan.c) ---- */

typedef struct {
    const char *model;  /* the Promela file */
    const char *inputs; /* --inputs a,b,c: global variables */
    const char *trail;  /* --trail, or NULL: MODEL.trail, else a lasso of our own */
    const char *ltl;    /* --ltl NAME, or NULL: the only ltl formula */
    const char *effect; /* --effect LTL instead of the ltl formula's negation */
    uint32_t budget;
    bool keep; /* keep the scratch directory */
} tm_pan_options;

/* The model as a system (tm_pan.c's header says how), the trace and the effect
 * in Spot syntax (fresh memory).  0, or -1 with err (nothing left allocated). */
int tm_pan_problem(const tm_pan_options *o, tm_system *sys, char **trace, char **effect,
                   u_err *err);

/* ---- the command (tm_cli.c) ---- */

int tm_main(int argc, char **argv);

#endif
