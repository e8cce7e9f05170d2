/* ex_bind: ties a formula's propositions to a trace and computes letters.
 *
 * After binding, every step of the trace is one letter: a bit set of the
 * propositions true there.  That is the paper's Boolean view of a trace;
 * everything temporal works on letters only.  Binding also records which
 * trace variables each proposition reads, so that a cause found on a
 * proposition can be shown as a red dot on those variables.
 */
#ifndef EX_BIND_H
#define EX_BIND_H

#include "ex_ltl.h"
#include "ex_trace.h"

typedef struct {
    uint64_t *letters; /* one per trace step */
    size_t n;
    signed char consts[EX_MAX_PROPS]; /* -1 signal, else constant value */
    int *vars[EX_MAX_PROPS];          /* trace columns read by each proposition */
    int nvars[EX_MAX_PROPS];
} ex_binding;

/* Resolves names: exact trace variable; `P:y` as the only `P[i]:y`; a
 * known symbol (mtype or enum value).  With `symbols_open`, any other
 * identifier is taken as a symbol (NuSMV has already type-checked its
 * specifications).  Returns 0, or -1 with "unknown variable ..." in err. */
int ex_bind(ex_ltl *l, ex_trace *t, int symbols_open, ex_binding *b, char *err, size_t errlen);
void ex_binding_free(ex_binding *b);

#endif
