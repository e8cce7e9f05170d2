/*
 * tm_cli.c - the `pancause temporal` command (cli/pancause_main.c dispatches
 * to tm_main): reads the system, trace and effect, says how the effect stands
 * on the trace, synthesises the cause, describes it in LTL when a formula is
 * proved equivalent, checks a candidate cause on request, and writes the cause
 * automaton (HOA, through u_write_file: whole or not at all) and a text or
 * JSON report.
 *
 * Exit status: 0 done (a cause, or none exists: the report says which; with
 * --check the candidate is the cause), 1 bad input (files, syntax, unknown
 * propositions, a trace that is no run of the system, a construction over its
 * state budget, an output that cannot be written), 2 bad usage, 3 nothing to
 * explain (every run matching the trace violates the effect), 4 --check: the
 * candidate is not the cause.
 */
#include "temporal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pancause temporal --system SYS.hoa --trace TRACE (--effect LTL | --effect-hoa FILE)\n"
    "                         [--relation subset|full] [--check LTL | --check-hoa FILE]\n"
    "                         [--hoa OUT.hoa] [--json] [--budget N] [--describe N]\n"
    "       pancause temporal MODEL.pml --inputs a,b,... [--trail FILE]\n"
    "                         [--ltl NAME | --effect LTL] [the options above] [--keep]\n"
    "\n"
    "The actual cause of an omega-regular effect on a lasso trace of a reactive\n"
    "system, as a Buchi automaton over the inputs (Finkbeiner, Frenkel, Metzger,\n"
    "Siber: Synthesis of Temporal Causality, CAV 2024).\n"
    "\n"
    "  --system FILE      Mealy machine in HOA: Acceptance t, outputs in controllable-AP,\n"
    "                     every other AP an input; input-enabled\n"
    "  --trace TRACE      lasso in Spot's word syntax, e.g. 'a&!b;cycle{a&b;!a&b}';\n"
    "                     unmentioned inputs are false, unmentioned outputs free\n"
    "  --effect LTL       the effect in Spot's LTL syntax (<>b, G F g0, a U b, ...)\n"
    "  --effect-hoa FILE  the effect as a Buchi automaton in HOA (APs named as the system's)\n"
    "  --relation R       similarity relation: subset (default; Example 1) or full\n"
    "                     (subset + copy inputs that differ infinitely often)\n"
    "  --check LTL        cause checking (section 6.2): is this formula over the inputs\n"
    "                     the cause? yes, or no with a word in one but not the other\n"
    "  --check-hoa FILE   the same for a candidate automaton\n"
    "  --hoa FILE         write the cause automaton (state-based Buchi) to FILE;\n"
    "                     without it the text report prints it\n"
    "  --json             report as JSON on stdout\n"
    "  --budget N         states per automaton construction (default 200000)\n"
    "  --describe N       size bound of the LTL description search (default 7; 0: off)\n"
    "\n"
    "With a Promela model the system is the state graph pan explores (README\n"
    "\"Temporal causes: SPIN models\"): --inputs names the global variables that are\n"
    "inputs, a step ends at a SPIN end state (an `end` label) or, without any, after\n"
    "every move, and an AP is true when its variable is nonzero.\n"
    "  --inputs a,b       the input variables (the cause is over them)\n"
    "  --trail FILE       an acceptance-cycle trail of pan -a (default MODEL.pml.trail\n"
    "                     when it exists, else a lasso showing the effect found here)\n"
    "  --ltl NAME         the effect is the violation of this ltl formula (default:\n"
    "                     the model's only one); --effect LTL gives it directly\n"
    "  --keep             keep the scratch directory of spin and pan\n"
    "\n"
    "exit status: 0 done, 1 bad input, 2 bad usage, 3 the effect does not hold on the\n"
    "trace (with --ltl: the formula holds; nothing to explain), 4 --check: the\n"
    "candidate is not the cause\n";

typedef struct {
    const char *system, *trace, *effect, *effect_hoa, *check, *check_hoa, *hoa;
    const char *model, *inputs, *trail, *ltl; /* the SPIN form */
    bool keep;
    tm_relation rel;
    bool json;
    uint32_t budget;
    int describe;
} options;

static int usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "pancause temporal: ");
    fprintf(stderr, msg, arg);
    fprintf(stderr, "\n(see pancause temporal --help)\n");
    return 2;
}

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->budget = 200000;
    o->describe = 7;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return 1;
        } else if (!strcmp(a, "--json")) {
            o->json = true;
            continue;
        } else if (!strcmp(a, "--keep")) {
            o->keep = true;
            continue;
        } else if (!strcmp(a, "--inputs")) {
            slot = &o->inputs;
        } else if (!strcmp(a, "--trail")) {
            slot = &o->trail;
        } else if (!strcmp(a, "--ltl")) {
            slot = &o->ltl;
        } else if (!strcmp(a, "--system")) {
            slot = &o->system;
        } else if (!strcmp(a, "--trace")) {
            slot = &o->trace;
        } else if (!strcmp(a, "--effect")) {
            slot = &o->effect;
        } else if (!strcmp(a, "--effect-hoa")) {
            slot = &o->effect_hoa;
        } else if (!strcmp(a, "--check")) {
            slot = &o->check;
        } else if (!strcmp(a, "--check-hoa")) {
            slot = &o->check_hoa;
        } else if (!strcmp(a, "--hoa")) {
            slot = &o->hoa;
        } else if (!strcmp(a, "--relation") || !strcmp(a, "--budget") || !strcmp(a, "--describe")) {
            if (i + 1 >= argc)
                return -usage_error("%s needs an argument", a);
            const char *v = argv[++i];
            if (a[2] == 'r') {
                if (!strcmp(v, "subset"))
                    o->rel = TM_SUBSET;
                else if (!strcmp(v, "full"))
                    o->rel = TM_FULL;
                else
                    return -usage_error("--relation must be subset or full, not '%s'", v);
                continue;
            }
            char *end;
            errno = 0;
            long n = strtol(v, &end, 10);
            bool budget = a[2] == 'b';
            if (!*v || *end || errno || n < (budget ? 1 : 0) || n > 100000000)
                return -usage_error(budget ? "--budget needs a positive number, not '%s'"
                                           : "--describe needs a number >= 0, not '%s'",
                                    v);
            if (budget)
                o->budget = (uint32_t)n;
            else
                o->describe = (int)n;
            continue;
        } else if (a[0] != '-' && !o->model && !o->system) {
            o->model = a;
            continue;
        } else {
            return -usage_error("unexpected argument '%s'", a);
        }
        if (i + 1 >= argc)
            return -usage_error("%s needs an argument", a);
        *slot = argv[++i];
    }
    if (o->model) {
        if (o->system || o->trace || o->effect_hoa)
            return -usage_error("%s", "with a model, --system, --trace and --effect-hoa do not "
                                      "apply (the model is the system, the trail the trace)");
        if (!o->inputs)
            return -usage_error("%s", "--inputs a,b,... is required with a model");
        if (o->effect && o->ltl)
            return -usage_error("%s", "give one of --ltl and --effect");
        return 0;
    }
    if (o->inputs || o->trail || o->ltl || o->keep)
        return -usage_error("%s", "--inputs, --trail, --ltl and --keep go with a model");
    if (!o->system)
        return -usage_error("%s", "--system (or a Promela model) is required");
    if (!o->trace)
        return -usage_error("%s", "--trace is required");
    if (!o->effect == !o->effect_hoa)
        return -usage_error("%s", "give the effect as --effect LTL or --effect-hoa FILE");
    if (o->check && o->check_hoa)
        return -usage_error("%s", "give one of --check and --check-hoa");
    return 0;
}

/* Renames the APs of an automaton read from HOA to the system's indices. */
static int remap(tm_nba *a, const tm_aps *from, const tm_aps *to, const char *file, u_err *err)
{
    int map[TM_MAX_APS];
    uint64_t used = 0;
    for (uint32_t q = 0; q < a->n; q++)
        for (uint32_t i = 0; i < a->s[q].n; i++)
            used |= a->s[q].e[i].c.mask;
    uint64_t apmask = 0;
    for (int i = 0; i < from->n; i++) {
        map[i] = tm_aps_find(to, from->name[i], strlen(from->name[i]));
        if (map[i] < 0 && (used >> i & 1))
            return u_errf(err, "%s: AP \"%s\" is not a proposition of the system", file,
                          from->name[i]);
        if (map[i] >= 0)
            apmask |= (uint64_t)1 << map[i];
    }
    for (uint32_t q = 0; q < a->n; q++)
        for (uint32_t i = 0; i < a->s[q].n; i++) {
            tm_cube c = a->s[q].e[i].c, d = {0, 0};
            for (uint64_t m = c.mask; m; m &= m - 1) {
                int ap = __builtin_ctzll(m);
                d.mask |= (uint64_t)1 << map[ap];
                if (c.val >> ap & 1)
                    d.val |= (uint64_t)1 << map[ap];
            }
            a->s[q].e[i].c = d;
        }
    a->apmask = apmask;
    return 0;
}

/* An automaton from HOA over the system's APs (those not allowed in `allowed`
 * are an error naming `what`). */
static int read_automaton(const char *path, const tm_system *sys, uint64_t allowed,
                          const char *what, tm_nba *out, u_err *err)
{
    tm_hoa h;
    if (tm_hoa_read(path, &h, err) != 0)
        return -1;
    if (remap(&h.a, &h.aps, &sys->aps, path, err) != 0) {
        tm_hoa_free(&h);
        return -1;
    }
    uint64_t used = 0;
    for (uint32_t q = 0; q < h.a.n; q++)
        for (uint32_t i = 0; i < h.a.s[q].n; i++)
            used |= h.a.s[q].e[i].c.mask;
    if (used & ~allowed) {
        int ap = __builtin_ctzll(used & ~allowed);
        u_errf(err, "%s: %s may only use the inputs, not the output %s", path, what,
               sys->aps.name[ap]);
        tm_hoa_free(&h);
        return -1;
    }
    *out = h.a;
    out->apmask = allowed;
    tm_nba_init(&h.a, 0);
    tm_hoa_free(&h);
    return 0;
}

/* The effect and its negation as automata over the system's APs. */
static int effect_automata(const options *o, tm_system *sys, tm_ltl *l, tm_nba *e, tm_nba *ne,
                           u_err *err)
{
    uint64_t all = sys->inputs | sys->outputs;
    if (o->effect) {
        int f = tm_ltl_parse(l, o->effect, &sys->aps, false, "the effect", err);
        if (f < 0)
            return -1;
        int nf = tm_ltl_mk(l, TM_L_NOT, f, -1, -1);
        if (nf < 0)
            return u_oom(err);
        if (tm_ltl_to_nba(l, f, all, o->budget, e, err) != 0)
            return -1;
        if (tm_ltl_to_nba(l, nf, all, o->budget, ne, err) != 0) {
            tm_nba_free(e);
            return -1;
        }
    } else {
        if (read_automaton(o->effect_hoa, sys, all, "the effect", e, err) != 0)
            return -1;
        if (tm_nba_complement(e, TM_COMP_AUTO, o->budget, "the effect", ne, NULL, err) != 0) {
            tm_nba_free(e);
            return -1;
        }
    }
    /* smaller automata make a smaller closure */
    if (tm_nba_reduce(e, err) != 0 || tm_nba_reduce(ne, err) != 0) {
        tm_nba_free(e), tm_nba_free(ne);
        return -1;
    }
    return 0;
}

/* ---- the report ---- */

typedef struct {
    const options *o;
    const tm_system *sys;
    tm_trace_status status;
    const tm_result *r;
    const tm_nba *out; /* the automaton written: the cause, or its description's */
    char *description;
    bool from_description;
    const char *message;
    double seconds;
    /* --check */
    bool checked, equal, cex_in_cause;
    char *cex;
} report;

static const char *status_text(tm_trace_status s)
{
    switch (s) {
    case TM_TRACE_HOLDS:
        return "holds";
    case TM_TRACE_VIOLATED:
        return "violated";
    case TM_TRACE_AMBIGUOUS:
        return "ambiguous";
    default:
        return "no run";
    }
}

static int put_hoa(FILE *f, const void *arg)
{
    const report *rp = arg;
    return tm_hoa_write(f, rp->out, &rp->sys->aps, "cause");
}

static void json_report(const report *rp)
{
    u_json j;
    u_json_init(&j, stdout, 1);
    u_json_obj(&j);
    u_json_key(&j, "cause_exists");
    u_json_bool(&j, rp->r && rp->r->exists);
    u_json_key(&j, "states");
    u_json_uint(&j, rp->out ? rp->out->n : 0);
    u_json_key(&j, "hoa");
    u_json_str(&j, rp->o->hoa && rp->out ? rp->o->hoa : NULL);
    u_json_key(&j, "message");
    u_json_str(&j, rp->message);
    u_json_key(&j, "effect_on_trace");
    u_json_str(&j, status_text(rp->status));
    u_json_key(&j, "relation");
    u_json_str(&j, rp->o->rel == TM_FULL ? "full" : "subset");
    u_json_key(&j, "inputs");
    u_json_arr(&j);
    for (uint64_t m = rp->sys->inputs; m; m &= m - 1)
        u_json_str(&j, rp->sys->aps.name[__builtin_ctzll(m)]);
    u_json_end(&j);
    u_json_key(&j, "description");
    u_json_str(&j, rp->description);
    u_json_key(&j, "automaton_from_description");
    u_json_bool(&j, rp->from_description);
    if (rp->r) {
        u_json_key(&j, "closure_states");
        u_json_uint(&j, rp->r->closure.n);
        u_json_key(&j, "closure_states_built");
        u_json_uint(&j, rp->r->closure_raw);
        u_json_key(&j, "complement");
        u_json_str(&j, !rp->r->exists                        ? NULL
                       : rp->r->method == TM_COMP_BREAKPOINT ? "breakpoint"
                                                             : "safra");
        u_json_key(&j, "cause_states_built");
        u_json_uint(&j, rp->r->cause_raw);
        u_json_key(&j, "cause_states_reduced");
        u_json_uint(&j, rp->r->cause.n);
    }
    if (rp->checked) {
        u_json_key(&j, "check");
        u_json_obj(&j);
        u_json_key(&j, "candidate");
        u_json_str(&j, rp->o->check ? rp->o->check : rp->o->check_hoa);
        u_json_key(&j, "is_cause");
        u_json_bool(&j, rp->equal);
        u_json_key(&j, "counterexample");
        u_json_str(&j, rp->cex);
        u_json_key(&j, "counterexample_in");
        u_json_str(&j, rp->equal ? NULL : rp->cex_in_cause ? "cause" : "candidate");
        u_json_end(&j);
    }
    u_json_key(&j, "seconds");
    u_json_num(&j, "%.3f", rp->seconds);
    u_json_end(&j);
    fputc('\n', stdout);
}

static void text_report(const report *rp)
{
    const options *o = rp->o;
    const char *eff = o->effect ? o->effect : o->effect_hoa;
    printf("pancause temporal: cause of %s on %s in %s (relation %s)\n", eff, o->trace, o->system,
           o->rel == TM_FULL ? "full" : "subset");
    printf("  effect on the trace: %s\n", status_text(rp->status));
    if (rp->message)
        printf("  %s\n", rp->message);
    if (rp->r && rp->r->exists) {
        printf("  cause: Buchi automaton over the inputs, %u states%s\n", rp->out->n,
               rp->from_description ? " (the description's automaton)" : "");
        if (rp->description)
            printf("  description: %s   (proved equivalent)\n", rp->description);
    }
    if (rp->r) {
        printf("  upward closure of the negated effect: %u states (%u built)\n", rp->r->closure.n,
               rp->r->closure_raw);
        if (rp->r->exists)
            printf("  complement: %s construction, %u states built (before reduction; with several "
                   "parts, their sum before they are intersected), the cause %u\n",
                   rp->r->method == TM_COMP_BREAKPOINT ? "breakpoint" : "Safra-Piterman",
                   rp->r->cause_raw, rp->r->cause.n);
    }
    if (rp->checked) {
        if (rp->equal)
            printf("  check: %s IS the cause\n", o->check ? o->check : o->check_hoa);
        else
            printf("  check: %s is NOT the cause: %s is in the %s but not in the %s\n",
                   o->check ? o->check : o->check_hoa, rp->cex ? rp->cex : "?",
                   rp->cex_in_cause ? "cause" : "candidate",
                   rp->cex_in_cause ? "candidate" : "cause");
    }
    printf("  time: %.3f s\n", rp->seconds);
    if (rp->out && o->hoa)
        printf("  automaton written to %s\n", o->hoa);
    else if (rp->out)
        tm_hoa_write(stdout, rp->out, &rp->sys->aps, "cause");
}

/* The candidate of --check and its complement (NULL when it must be
 * complemented). */
static int candidate(const options *o, const tm_system *sys, tm_ltl *l, tm_nba *c, tm_nba *nc,
                     bool *have_nc, u_err *err)
{
    *have_nc = false;
    if (o->check_hoa)
        return read_automaton(o->check_hoa, sys, sys->inputs, "a cause candidate", c, err);
    tm_aps *aps = (tm_aps *)&sys->aps; /* not modified: add_aps is false */
    int f = tm_ltl_parse(l, o->check, aps, false, "the candidate", err);
    if (f < 0)
        return -1;
    uint64_t outs = tm_ltl_apmask(l, f) & ~sys->inputs;
    if (outs)
        return u_errf(err, "the candidate: a cause is over the inputs; %s is an output",
                      sys->aps.name[__builtin_ctzll(outs)]);
    int nf = tm_ltl_mk(l, TM_L_NOT, f, -1, -1);
    if (nf < 0)
        return u_oom(err);
    if (tm_ltl_to_nba(l, f, sys->inputs, o->budget, c, err) != 0)
        return -1;
    if (tm_ltl_to_nba(l, nf, sys->inputs, o->budget, nc, err) != 0) {
        tm_nba_free(c);
        return -1;
    }
    *have_nc = true;
    return 0;
}

/* Replaces the written automaton by the description's when that is smaller
 * (the languages are equal: tm_describe proved it). */
static int description_automaton(tm_ltl *l, int f, const tm_system *sys, uint32_t budget, tm_nba *d,
                                 u_err *err)
{
    if (tm_ltl_to_nba(l, f, sys->inputs, budget, d, err) != 0)
        return -1;
    return tm_nba_reduce(d, err);
}

int tm_main(int argc, char **argv)
{
    options o;
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc > 0 ? 0 : -rc;
    double t0 = u_seconds();
    u_err err = {{0}};
    tm_system sys;
    tm_ltl l;
    tm_nba e, ne, dnba, cand, ncand;
    tm_problem p;
    tm_result r;
    report rp;
    memset(&rp, 0, sizeof rp);
    memset(&p, 0, sizeof p);
    memset(&r, 0, sizeof r);
    tm_ltl_init(&l);
    tm_nba_init(&dnba, 0);
    tm_nba_init(&cand, 0);
    tm_nba_init(&ncand, 0);
    rp.o = &o;
    rp.sys = &sys;
    int status = 1;
    char *pan_trace = NULL, *pan_effect = NULL;
    bool from_ltl = o.model && !o.effect;
    /* --hoa over an input destroys it (the eighth probe's P8-2: the model, its trail or
     * the system's HOA file was replaced, exit 0) */
    char *beside = o.model ? u_fmt("%s.trail", o.model) : NULL;
    const char *outs[] = {o.hoa},
               *ins[] = {o.system, o.effect_hoa, o.check_hoa, o.model, o.trail, beside};
    int distinct = u_check_distinct(outs, 1, ins, 6, &err);
    free(beside);
    if (distinct) {
        fprintf(stderr, "pancause temporal: %s\n", err.msg);
        tm_ltl_free(&l);
        return 2;
    }
    if (o.model) {
        tm_pan_options po = {o.model, o.inputs, o.trail, o.ltl, o.effect, o.budget, o.keep};
        if (o.hoa && u_check_output(o.hoa, &err) != 0) {
            fprintf(stderr, "pancause temporal: %s\n", err.msg);
            tm_ltl_free(&l);
            return 1;
        }
        if (tm_pan_problem(&po, &sys, &pan_trace, &pan_effect, &err) != 0) {
            fprintf(stderr, "pancause temporal: %s\n", err.msg);
            tm_ltl_free(&l);
            return 1;
        }
        o.system = o.model;
        o.trace = pan_trace;
        o.effect = pan_effect;
    } else if (tm_system_read(o.system, &sys, &err) != 0) {
        fprintf(stderr, "pancause temporal: %s\n", err.msg);
        tm_ltl_free(&l);
        return 1;
    }
    if (o.hoa && u_check_output(o.hoa, &err) != 0)
        goto fail;
    if (effect_automata(&o, &sys, &l, &e, &ne, &err) != 0)
        goto fail;
    if (tm_problem_init(&p, &sys, o.trace, &e, &ne, o.rel, o.budget, &err) != 0)
        goto fail;
    bool have_nc = false;
    if ((o.check || o.check_hoa) && candidate(&o, &sys, &l, &cand, &ncand, &have_nc, &err) != 0)
        goto fail;
    if (tm_trace_check(&p, &rp.status, &err) != 0)
        goto fail;
    if (rp.status == TM_TRACE_VIOLATED) {
        rp.message = from_ltl ? "the ltl formula holds on the trace (its negation is the "
                                "effect): nothing to explain"
                              : "the effect does not hold on the trace (every system run "
                                "matching it violates it): nothing to explain";
        rp.seconds = u_seconds() - t0;
        if (o.json)
            json_report(&rp);
        else
            printf("pancause temporal: %s\n", rp.message);
        status = 3;
        goto done;
    }
    if (tm_cause(&p, &r, &err) != 0)
        goto fail;
    rp.r = &r;
    rp.out = &r.cause;
    if (!r.exists)
        rp.message = rp.status == TM_TRACE_AMBIGUOUS
                         ? "no cause: some system runs matching the trace satisfy the effect and "
                           "some violate it (Lemma 3: the trace is not deterministic)"
                         : "no cause: a system run on the trace's own inputs violates the effect "
                           "(Lemma 3: the trace is not deterministic in the system)";
    if (r.exists && o.describe > 0 && r.cause.n <= 2000) {
        int f = tm_describe(&r, &sys, &p.pi, &l, o.describe, 200, o.budget, &err);
        if (f == -2)
            goto fail;
        if (f >= 0) {
            rp.description = tm_ltl_text(&l, f, &sys.aps);
            if (!rp.description) {
                u_oom(&err);
                goto fail;
            }
            if (description_automaton(&l, f, &sys, o.budget, &dnba, &err) != 0)
                goto fail;
            if (dnba.n < r.cause.n) {
                rp.out = &dnba;
                rp.from_description = true;
            }
        }
    }
    if (o.check || o.check_hoa) {
        tm_lasso cex;
        rp.checked = true;
        if (tm_check(&r, &cand, have_nc ? &ncand : NULL, o.budget, &rp.equal, &cex,
                     &rp.cex_in_cause, &err) != 0)
            goto fail;
        if (!rp.equal) {
            rp.cex = tm_lasso_text(&cex, sys.inputs, &sys.aps);
            tm_lasso_free(&cex);
            if (!rp.cex) {
                u_oom(&err);
                goto fail;
            }
        }
    }
    if (o.hoa && u_write_file(o.hoa, put_hoa, &rp, &err) != 0)
        goto fail;
    rp.seconds = u_seconds() - t0;
    if (o.json)
        json_report(&rp);
    else
        text_report(&rp);
    status = rp.checked && !rp.equal ? 4 : 0;
    goto done;
fail:
    fprintf(stderr, "pancause temporal: %s\n", err.msg);
    status = 1;
done:
    free(pan_trace), free(pan_effect);
    free(rp.description);
    free(rp.cex);
    tm_result_free(&r);
    tm_problem_free(&p);
    tm_nba_free(&dnba), tm_nba_free(&cand), tm_nba_free(&ncand);
    tm_ltl_free(&l);
    tm_system_free(&sys);
    return status;
}
