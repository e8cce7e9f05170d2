# temporal/: `pancause temporal`, temporal causes of omega-regular effects.  The
# library part follows the top-level Makefile's conventions and the program is
# cli/cli.mk's; this fragment adds the end-to-end tests (the oracle comparison
# and the paper's instances, on the plain build's bin/pancause).  Its fuzz
# harnesses live with the others in fuzz/ (fz_hoa, fz_word, fz_tltl).

.PHONY: temporal-e2e
temporal-e2e: $(ROOT)/bin/pancause
	@set -e; for t in $(ROOT)/temporal/tests/e2e_*.sh; do echo "== $${t#$(ROOT)/}"; bash $$t; done
