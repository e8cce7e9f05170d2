/* fz_eol.c - libFuzzer harness for the EOL parser (eol_parse), the language
 * pancause states causes in and reads back.
 *
 * Whatever parses must survive the round trip the printer promises (eol.h):
 * printing it in ASCII and in Unicode and parsing either text gives an equal
 * tree, and printing that tree again gives the same text.  The tree is also
 * evaluated on a short trace of its own event names, so the evaluator meets
 * every shape the parser accepts (its recursion is bounded by the parser's
 * depth limit).
 */
#include "eol.h"
#include "fz_common.h"

/* Up to 8 distinct event names of the tree, in order of first appearance. */
static void names(const eol_node *n, const char **out, size_t *k)
{
    if (!n)
        return;
    if (n->kind == EOL_EVENT) {
        for (size_t i = 0; i < *k; i++)
            if (!strcmp(out[i], n->name))
                return;
        if (*k < 8)
            out[(*k)++] = n->name;
        return;
    }
    names(n->a, out, k);
    names(n->b, out, k);
    names(n->c, out, k);
}

static void round_trip(const eol_node *n, eol_style style)
{
    char *text = eol_print(n, style);
    if (!text)
        return; /* out of memory */
    char *err = NULL;
    eol_node *back = eol_parse(text, &err);
    FZ_CHECK(back, "printed \"%s\" does not parse back: %s", text, err ? err : "(no message)");
    FZ_CHECK(eol_equal(n, back), "\"%s\" parses back to a different tree", text);
    char *again = eol_print(back, style);
    FZ_CHECK(!again || !strcmp(text, again), "\"%s\" prints again as \"%s\"", text, again);
    free(again);
    eol_free(back);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fz_string(data, size);
    if (!s)
        return 0;
    char *err = NULL;
    eol_node *n = eol_parse(s, &err);
    if (!n) {
        FZ_CHECK(err, "no message for a text that does not parse");
        free(err);
        free(s);
        return 0;
    }
    round_trip(n, EOL_ASCII);
    round_trip(n, EOL_UNICODE);
    const char *ev[8];
    size_t k = 0;
    names(n, ev, &k);
    eol_action trace[12];
    for (size_t j = 0; j < 12 && k; j++) {
        trace[j].name = ev[(j * 5 + (size ? data[j % size] : 0)) % k];
        trace[j].occ = 1;
        for (size_t i = 0; i < j; i++)
            trace[j].occ += !strcmp(trace[i].name, trace[j].name);
    }
    for (size_t len = 0; len <= 12; len += 4)
        (void)eol_eval(n, trace, k ? len : 0);
    eol_free(n);
    free(s);
    return 0;
}
