# tools/vlmodel: the analytic models as a tool - alpha-beta (alphabeta.c), the
# speed-up model (speedup.c; its expressions: expr.c), BSP/BSPWB/MPM (bsp.c on
# the program of bsp_prog.c; M-steps from a CSV file: bsp_csv.c, from a trace:
# bsp_trace.c; g and L from a file: bsp_params.c).  Traces are read with
# postproc's reader.
VLMODEL_OBJ = $(addprefix $(B)/tools/vlmodel/,alphabeta.o speedup.o expr.o bsp.o bsp_prog.o \
	bsp_csv.o bsp_params.o bsp_trace.o vlmodel_util.o)
TEST_OBJ += $(VLMODEL_OBJ)
ALL += $(B)/vlmodel
CHECK_BIN += $(B)/vlmodel $(B)/tests/mktrace

$(B)/vlmodel: $(B)/tools/vlmodel/vlmodel.o $(VLMODEL_OBJ) $$(UTIL_OBJ) $$(POST_OBJ) $(B)/libvlayer-core.a
	$(CC) $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) -lm

UNIT_BIN += $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(wildcard tests/unit/vlmodel/test_*.c))

.PHONY: check-golden-model
check-golden-model: $(B)/vlmodel $(B)/tests/mktrace
	@tests/golden/run-model.sh $(B)
GOLDEN += check-golden-model

# fuzz_models: the parsers of vlcalib and vlmodel under the stand-alone
# mutation loop of tests/fuzz/fuzz_models.c (libFuzzer: see the file's comment)
FUZZ += check-fuzz-models
$(B)/tests/fuzz_models: tests/fuzz/fuzz_models.c $(B)/tools/vlcalib/calib_raw.o $(VLMODEL_OBJ) \
		$$(UTIL_OBJ) $$(POST_OBJ) $(B)/libvlayer-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -DVL_FUZZ_STANDALONE -DSRCDIR='"$(CURDIR)"' -o $@ $^ $(INIH_LIBS) -lm
.PHONY: check-fuzz-models
check-fuzz-models: $(B)/tests/fuzz_models
	$(B)/tests/fuzz_models $(FUZZ_ITER)

# the MPI program of known M-steps run by tests/e2e/test_vlmodel.sh
CHECK_BIN += $(B)/tests/bsp_steps
$(B)/tests/bsp_steps: tests/e2e/bsp_steps.c $(B)/vlcc $(B)/libvlayer-mpi.so include/vlayer.h
	@mkdir -p $(dir $@)
	VLCC_CC="$(CC) $(SAN)" $(B)/vlcc -mpi $(WARN) $(CFLAGS) -o $@ $<
