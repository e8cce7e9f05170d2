# explain/: `pancause explain`, red dots on counterexamples (issue 6).
# The library part is built by the top-level Makefile's conventions; this
# fragment adds the program and the end-to-end tests (real spin, headless
# Chromium for the HTML viewer).

PROGRAMS += $(ROOT)/bin/pancause

$(ROOT)/bin/pancause: $(ROOT)/explain/pancause_main.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PC_CFLAGS) $< -o $@ $(PC_LDFLAGS) $(LIB) $(PC_LIBS)

.PHONY: explain-e2e
explain-e2e: $(ROOT)/bin/pancause
	@set -e; for t in $(ROOT)/explain/tests/*.sh; do echo "== $${t#$(ROOT)/}"; bash $$t; done
