# spin-model/pan.mk - `make pan`, run where SPIN's pan.c is:
#   spin -a model.pml && make -f <pancause>/Makefile pan [BFS=1] [POR=0] [PANFLAGS=...]
# (in the pancause directory itself plain `make pan` does the same).
# BFS=1 builds pan's breadth-first search; POR=0 switches pan's partial order reduction
# off (on by default, with every event visible to it); PANFLAGS passes pan compile flags
# (-DMEMLIM=..., -DSAFETY, ...) to both copies of pan; PAN_CFLAGS the optimisation;
# CAUSAL_ONLY=1 leaves out the stock copy (for the differential tests' speed);
# SPINFLAGS the preprocessor options pan.c was generated with (spin -DNAME ... -a).
INSTRUMENT := $(BUILD)/bin/pancause-instrument
PROGRAMS += $(INSTRUMENT)
PAN_CFLAGS ?= -O2
PAN_FLAGS := $(if $(filter 1,$(BFS)),-DBFS) $(PANFLAGS)

$(INSTRUMENT): $(ROOT)/spin-model/instrument_main.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(PC_CFLAGS) $< -o $@ $(PC_LDFLAGS) $(LIB) $(PC_LIBS)

.PHONY: pan
pan: $(LIB) $(INSTRUMENT)
	@PC_INC="$(foreach m,$(MODULES),-I$(ROOT)/$(m))" POR="$(POR)" SPINFLAGS="$(SPINFLAGS)" sh $(ROOT)/spin-model/make-pan.sh \
	    "$(ROOT)" "$(LIB)" "$(INSTRUMENT)" "$(CC)" \
	    "$(PAN_CFLAGS)" "$(PAN_FLAGS)" "$(PC_LDFLAGS)" "$(PC_LIBS)" "$(CAUSAL_ONLY)"
