# fuzz/: libFuzzer harnesses, one per parser a user's input reaches (fz_*.c;
# README "Fuzzing").  `make fuzz` builds them with clang, ASan and UBSan into
# build-fuzz/: the library is built there once more with the same flags (plus
# libFuzzer's coverage instrumentation), by this Makefile itself, so those
# objects never mix with build/ or build-san/.  fuzz/smoke.sh runs each target
# for a while; fuzz/corpus/<target>/ holds its seeds.

FUZZ_BUILD := $(ROOT)/build-fuzz
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_SRCS := $(wildcard $(ROOT)/fuzz/fz_*.c)
FUZZ_BINS := $(patsubst $(ROOT)/fuzz/%.c,$(FUZZ_BUILD)/%,$(FUZZ_SRCS))

.PHONY: fuzz fuzz-lib
fuzz: $(FUZZ_BINS)

# Always asks the inner make (BUILD=build-fuzz), which knows the library's
# dependencies; the harnesses relink only when it changed the archive.
fuzz-lib:
	@$(MAKE) --no-print-directory -f $(ROOT)/Makefile BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) \
	    CFLAGS="-O1 -g" SANFLAGS="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" lib

ifneq ($(BUILD),$(FUZZ_BUILD))
$(FUZZ_BUILD)/libpancause.a: fuzz-lib ;
endif

$(FUZZ_BUILD)/fz_%: $(ROOT)/fuzz/fz_%.c $(ROOT)/fuzz/fz_common.h $(FUZZ_BUILD)/libpancause.a
	$(FUZZ_CC) $(filter-out $(SANFLAGS) $(CFLAGS),$(PC_CFLAGS)) -O1 -g $(FUZZ_SAN) \
	    -fsanitize=fuzzer $< -o $@ $(FUZZ_BUILD)/libpancause.a $(PC_LIBS)
