# pancause build.
#
# One library (build/libpancause.a) holds every module: eol/, subsetgraph/,
# causality/, spin-model/ (its run-time part), explain/ and temporal/.  Conventions that
# keep this file short:
#   - every X/*.c is library code, except X/*_main.c, which is a program;
#   - every X/tests/test_*.c is one Check program, run by `make check`;
#   - `make pan` is run where pan.c is (or `make -f <root>/Makefile pan`) and
#     builds ./pan from SPIN's generated pan.c plus the library
#     (spin-model/pan.mk says how).
# `make SAN=1 ...` builds everything with AddressSanitizer and UBSan into
# build-san/ so that sanitized and plain objects never mix; `make fuzz` builds
# the libFuzzer harnesses into build-fuzz/ (fuzz/fuzz.mk).

ROOT := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
CC ?= cc
CFLAGS ?= -O2 -g
SAN ?= 0
ifeq ($(SAN),1)
BUILD ?= $(ROOT)/build-san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
BUILD ?= $(ROOT)/build
SANFLAGS :=
endif

MODULES := util eol subsetgraph causality report nearest spin-model explain temporal cli
PC_CFLAGS := -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L \
             $(CFLAGS) $(SANFLAGS) $(foreach m,$(MODULES),-I$(ROOT)/$(m))
PC_LDFLAGS := $(SANFLAGS)
PC_LIBS := -lbsd -lxxhash -lm -lpthread

LIB_SRCS := $(filter-out %_main.c,$(foreach m,$(MODULES),$(wildcard $(ROOT)/$(m)/*.c)))
LIB_OBJS := $(patsubst $(ROOT)/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
LIB := $(BUILD)/libpancause.a

TEST_SRCS := $(foreach m,$(MODULES),$(wildcard $(ROOT)/$(m)/tests/test_*.c))
TEST_BINS := $(patsubst $(ROOT)/%.c,$(BUILD)/%,$(TEST_SRCS))
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lpthread -lm)

.PHONY: all lib check tests clean format format-check
all: lib programs

lib: $(LIB)

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/obj/%.o: $(ROOT)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(PC_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/%: $(ROOT)/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PC_CFLAGS) $< -o $@ $(PC_LDFLAGS) $(LIB) $(CHECK_LIBS) $(PC_LIBS)

tests: $(TEST_BINS)

# Each Check program runs on its own so that one crash names its module.
check: $(TEST_BINS)
	@set -e; for t in $(TEST_BINS); do echo "== $${t#$(BUILD)/}"; CK_FORK=yes $$t; done

-include $(LIB_OBJS:.o=.d)
-include $(foreach m,$(MODULES),$(wildcard $(ROOT)/$(m)/*.mk))
-include $(ROOT)/fuzz/fuzz.mk

# Module .mk files append their programs (bin/...) to PROGRAMS.
.PHONY: programs
programs: $(PROGRAMS)

clean:
	rm -rf $(ROOT)/build $(ROOT)/build-san $(ROOT)/build-fuzz $(ROOT)/bin

CSRC_ALL = $(shell cd $(ROOT) && git ls-files '*.c' '*.h' '*.inc')
format:
	cd $(ROOT) && clang-format -i $(CSRC_ALL)
format-check:
	cd $(ROOT) && clang-format --dry-run --Werror $(CSRC_ALL)
