# cli/: the `pancause` command (every subcommand lives in its module).  Built into
# $(BUILD)/bin like every program; the plain build is also copied to bin/pancause,
# the path the README and the end-to-end tests use, so a sanitized build (SAN=1,
# build-san/) never replaces or mixes with it.

PANCAUSE := $(BUILD)/bin/pancause
PROGRAMS += $(PANCAUSE)

$(PANCAUSE): $(ROOT)/cli/pancause_main.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PC_CFLAGS) $< -o $@ $(PC_LDFLAGS) $(LIB) $(PC_LIBS)

ifneq ($(SAN),1)
PROGRAMS += $(ROOT)/bin/pancause
$(ROOT)/bin/pancause: $(PANCAUSE)
	@mkdir -p $(dir $@)
	cp $< $@
endif
