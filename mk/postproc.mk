# postproc: vlpost - traces to .trf (ParaGraph/PICL), Pajé, SVG, OTF2, statistics.
# It reads the trace format (include/vltrace.h); replay and simgrid also use the
# engine's VMConfig loader, delay model and collective schedules (libvlayer-core.a).
# OTF2 (`vlpost otf2`) is optional: only where pkg-config finds otf2 (Debian
# libopen-trace-format2-dev; OTF2=0 disables it) is postproc/otf2.c compiled a
# second time with -DVL_HAVE_OTF2, for vlpost alone; postproc/otf2.o, used by
# the unit tests, is the stub and needs no library.
POST_SRC = $(wildcard postproc/*.c)
POST_OBJ = $(patsubst %.c,$(B)/%.o,$(filter-out postproc/vlpost.c,$(POST_SRC)))
TEST_OBJ += $(POST_OBJ)
ALL += $(B)/vlpost

OTF2 ?= $(shell pkg-config --exists otf2 2>/dev/null && echo 1)
OTF2_LIBS := $(if $(filter 1,$(OTF2)),$(shell pkg-config --libs otf2 2>/dev/null))
VLPOST_OBJ = $(B)/postproc/vlpost.o $(if $(OTF2_LIBS),$(filter-out $(B)/postproc/otf2.o,$(POST_OBJ)) $(B)/postproc/otf2_lib.o,$(POST_OBJ))
$(B)/postproc/otf2_lib.o: postproc/otf2.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(shell pkg-config --cflags otf2 2>/dev/null) -DVL_HAVE_OTF2 $(DEPFLAGS) $(ALLCFLAGS) -fPIC -c $< -o $@

$(B)/vlpost: $$(VLPOST_OBJ) $$(UTIL_OBJ) $(B)/libvlayer-core.a
	$(CC) $(ALLCFLAGS) -o $@ $^ $(OTF2_LIBS) $(INIH_LIBS) -lm

UNIT_BIN += $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(wildcard tests/unit/postproc/test_*.c))

# one target per converter's golden files (make -j runs them side by side)
GOLDEN_POST = trf stats paje scaling svg otf2
.PHONY: $(GOLDEN_POST:%=check-golden-%)
$(GOLDEN_POST:%=check-golden-%): check-golden-%: $(B)/vlpost $(B)/tests/mktrace
	@tests/golden/run-$*.sh $(B)
GOLDEN += $(GOLDEN_POST:%=check-golden-%)

# the fuzz drivers of the trace reader and every converter
FUZZ_ITER ?= 4000
FUZZ_OTF2_ITER ?= 300
FUZZ += $(if $(OTF2_LIBS),check-fuzz-trace-otf2) check-fuzz-trace
$(B)/tests/fuzz_trace: tests/fuzz/fuzz_trace.c $$(POST_OBJ) $$(UTIL_OBJ) $(B)/libvlayer-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -DVL_FUZZ_STANDALONE -DSRCDIR='"$(CURDIR)"' -o $@ $^ $(INIH_LIBS) -lm
# where pkg-config finds otf2: the reader and `vlpost otf2` with the library
$(B)/tests/fuzz_trace_otf2: tests/fuzz/fuzz_trace.c $$(filter-out $(B)/postproc/otf2.o,$$(POST_OBJ)) $(B)/postproc/otf2_lib.o $$(UTIL_OBJ) $(B)/libvlayer-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DVL_HAVE_OTF2 -DVL_FUZZ_OTF2_ONLY $(ALLCFLAGS) -DVL_FUZZ_STANDALONE -DSRCDIR='"$(CURDIR)"' -o $@ $^ $(OTF2_LIBS) $(INIH_LIBS) -lm
.PHONY: check-fuzz-trace check-fuzz-trace-otf2
check-fuzz-trace: $(B)/tests/fuzz_trace
	$(B)/tests/fuzz_trace $(FUZZ_ITER)
	$(if $(OTF2_LIBS),,@echo "fuzz_trace_otf2: skipped (no OTF2: pkg-config otf2 fails)")
check-fuzz-trace-otf2: $(B)/tests/fuzz_trace_otf2
	$(B)/tests/fuzz_trace_otf2 $(FUZZ_OTF2_ITER)
