# fuzz_models: the parsers of vlcalib and vlmodel (models/) under the stand-alone
# mutation loop of tests/fuzz/fuzz_models.c (libFuzzer: see the file's comment).
# `make check-fuzz` runs it too (and so does check-asan, under ASan/UBSan).
FUZZ_ITER ?= 4000
# listed here, not as $(VLMODEL_OBJ): model.mk is read after this file
FUZZ_MODELS_OBJ = $(addprefix $(B)/models/,csv.o lsq.o calib_raw.o alphabeta.o speedup.o \
	bsp.o bsp_trace.o vlmodel_util.o) $(filter-out $(B)/postproc/vlpost.o,$(POST_OBJ))

$(B)/tests/fuzz_models: tests/fuzz/fuzz_models.c models/calib_raw.h models/csv.h models/vlmodel.h \
		$(FUZZ_MODELS_OBJ) $(B)/libvlayer-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Imodels $(ALLCFLAGS) -DVL_FUZZ_STANDALONE -DSRCDIR='"$(CURDIR)"' \
		-o $@ $< $(FUZZ_MODELS_OBJ) $(B)/libvlayer-core.a $(INIH_LIBS) -lm

.PHONY: check-fuzz-models
check-fuzz-models: $(B)/tests/fuzz_models
	$(B)/tests/fuzz_models $(FUZZ_ITER)
check-fuzz: check-fuzz-models
