# explain/: `pancause explain`, red dots on counterexamples.  The library part is
# built by the top-level Makefile's conventions and the program by cli/cli.mk; this
# fragment adds the end-to-end tests (real spin, headless Chromium for the HTML
# viewer), which use the plain build's bin/pancause.

.PHONY: explain-e2e
explain-e2e: $(ROOT)/bin/pancause
	@set -e; for t in $(ROOT)/explain/tests/*.sh; do echo "== $${t#$(ROOT)/}"; bash $$t; done
