# vlcalib's fitting half (models/fit.c, models/vlcalib.c): see models/fit.h.
# MODELS_FIT_OBJ: the fits, for any tool that needs them (vlcalib, vlmodel).
MODELS_FIT_OBJ = $(B)/models/fit.o
EXTRA_TEST_OBJ += $(MODELS_FIT_OBJ)
EXTRA_ALL += $(B)/vlcalib

# calib_raw.o: the raw files' loader (models/calib_raw.h), also in tests/fuzz/fuzz_models.c
VLCALIB_OBJ = $(B)/models/vlcalib.o $(B)/models/calib_raw.o $(MODELS_FIT_OBJ) \
	$(MODELS_COMMON_OBJ) $(B)/postproc/outfile.o
$(B)/vlcalib: $(VLCALIB_OBJ) $(B)/libvlayer-core.a
	$(CC) $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) -lm

-include $(wildcard $(B)/models/fit.d $(B)/models/vlcalib.d $(B)/models/calib_raw.d)

# the golden CLI tests run with `make check-golden`
.PHONY: check-golden-calib
check-golden-calib: $(B)/vlcalib $(B)/vlconfig
	@tests/golden/run-calib.sh $(B)
check-golden: check-golden-calib
