# temporal/: `pancause temporal`, temporal causes of omega-regular effects.  The
# library part follows the top-level Makefile's conventions and the program is
# cli/cli.mk's; this fragment adds the end-to-end tests (the oracle comparison
# and the paper's instances, on the plain build's bin/pancause) and the fuzz
# harnesses (clang with libFuzzer, temporal/fuzz/README.md).

.PHONY: temporal-e2e temporal-fuzz
temporal-e2e: $(ROOT)/bin/pancause
	@set -e; for t in $(ROOT)/temporal/tests/e2e_*.sh; do echo "== $${t#$(ROOT)/}"; bash $$t; done

FUZZ_CC ?= clang
FUZZ_FLAGS := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -D_DEFAULT_SOURCE \
              -D_POSIX_C_SOURCE=200809L -I$(ROOT)/util -I$(ROOT)/temporal
FUZZ_SRCS := $(filter-out %_main.c %/tm_cli.c,$(wildcard $(ROOT)/temporal/*.c)) \
             $(wildcard $(ROOT)/util/*.c)
temporal-fuzz: $(ROOT)/build-fuzz/fuzz_hoa $(ROOT)/build-fuzz/fuzz_word
$(ROOT)/build-fuzz/fuzz_%: $(ROOT)/temporal/fuzz/fuzz_%.c $(FUZZ_SRCS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $< $(FUZZ_SRCS) -o $@ -lxxhash -lm
