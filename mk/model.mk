# vlmodel: the analytic models as tools (models/vlmodel.c, alphabeta.c, speedup.c,
# bsp.c, bsp_trace.c; helper "model").  The model objects go into every unit test
# (tests/unit/test_vlmodel.c); the binary reads traces with postproc's reader.
VLMODEL_OBJ = $(B)/models/alphabeta.o $(B)/models/speedup.o $(B)/models/bsp.o \
	$(B)/models/bsp_trace.o $(B)/models/vlmodel_util.o
VLMODEL_POST_OBJ = $(filter-out $(B)/postproc/vlpost.o,$(POST_OBJ))
EXTRA_ALL += $(B)/vlmodel
EXTRA_TEST_OBJ += $(VLMODEL_OBJ)
EXTRA_CHECK += $(B)/vlmodel $(B)/tests/mktrace

$(VLMODEL_OBJ) $(B)/models/vlmodel.o: CPPFLAGS += -Ipostproc -Imodels
$(B)/tests/test_vlmodel: private CPPFLAGS += -Imodels
-include $(wildcard $(B)/models/*.d)

$(B)/vlmodel: $(B)/models/vlmodel.o $(VLMODEL_OBJ) $(MODELS_COMMON_OBJ) $(VLMODEL_POST_OBJ) $(B)/libvlayer-core.a
	$(CC) $(ALLCFLAGS) -o $@ $(filter %.o,$^) $(B)/libvlayer-core.a $(INIH_LIBS) -lm

# the golden CLI tests run with `make check-golden`
.PHONY: check-golden-model
check-golden-model: $(B)/vlmodel $(B)/tests/mktrace
	@tests/golden/run-model.sh $(B)
check-golden: check-golden-model

# the MPI program of known M-steps run by tests/e2e/test_vlmodel.sh
EXTRA_CHECK += $(B)/tests/bsp_steps
$(B)/tests/bsp_steps: tests/e2e/bsp_steps.c $(B)/vlcc $(B)/libvlayer-mpi.so include/vlayer.h
	@mkdir -p $(dir $@)
	VLCC_CC="$(CC) $(SAN)" $(B)/vlcc -mpi $(WARN) $(CFLAGS) -o $@ $<
