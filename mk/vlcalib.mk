# tools/vlcalib: calibration.  Half 1 (measurement): calib_mpi and calib_pvm,
# built natively (not through the layer) against the real MPI and PVM, both on
# calib_*.c (everything but the communication: calib_common.h, calib_impl.h);
# vlcalib-run drives them.
# Half 2 (`vlcalib fit`): vlcalib.c (the commands), the fits of one link
# (fit_link.c, fit_bsp.c on fit_series.c) and the [topology] (fit_topo.c), the
# output table (fit_table.c), the VMConfig fragment (fit_vmconfig.c), the fits
# themselves (fit.c, fit_share.c), the raw files' loader (calib_raw.c).
VLCALIB_OBJ = $(addprefix $(B)/tools/vlcalib/,vlcalib.o fit_series.o fit_link.o fit_bsp.o \
	fit_topo.o fit_table.o fit_vmconfig.o calib_raw.o fit.o fit_share.o)
CALIB_COMMON_OBJ = $(addprefix $(B)/tools/vlcalib/,calib_util.o calib_opts.o calib_run.o \
	calib_exp.o calib_clock.o calib_file.o calib_plan.o)
TEST_OBJ += $(B)/tools/vlcalib/fit.o $(B)/tools/vlcalib/fit_share.o $(B)/tools/vlcalib/calib_raw.o \
	$(CALIB_COMMON_OBJ)
ALL += $(B)/vlcalib $(B)/vlcalib-run
CHECK_BIN += $(B)/vlcalib-run
ifeq ($(WITH_MPI),1)
ALL += $(B)/calib_mpi
CHECK_BIN += $(B)/calib_mpi
endif
ifeq ($(WITH_PVM),1)
ALL += $(B)/calib_pvm
CHECK_BIN += $(B)/calib_pvm
endif

$(B)/vlcalib: $(VLCALIB_OBJ) $$(UTIL_OBJ) $(B)/libvlayer-core.a
	$(CC) $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) -lm
$(B)/calib_mpi: $(B)/tools/vlcalib/calib_mpi.o $(CALIB_COMMON_OBJ) $(B)/util/diag.o $(B)/libvlayer-core.a
	$(MPICC) $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) -lm
$(B)/tools/vlcalib/calib_mpi.o: CPPFLAGS += $(MPI_CFLAGS)
$(B)/calib_pvm: $(B)/tools/vlcalib/calib_pvm.o $(CALIB_COMMON_OBJ) $(B)/util/diag.o $(B)/libvlayer-core.a
	$(CC) $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) $(PVM_LIBS) -lm
$(B)/vlcalib-run: tools/vlcalib/vlcalib-run.in
	@mkdir -p $(dir $@)
	sed -e 's|@BINDIR@|$(abspath $(B))|g' $< > $@ && chmod +x $@

UNIT_BIN += $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(wildcard tests/unit/vlcalib/test_*.c))

.PHONY: check-golden-calib
check-golden-calib: $(B)/vlcalib $(B)/vlconfig
	@tests/golden/run-calib.sh $(B)
GOLDEN += check-golden-calib
