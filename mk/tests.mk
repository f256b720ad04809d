# tests: the unit tests of the engine and the collectives (tests/unit/core,
# tests/unit/coll; the other folders register theirs in their own fragment),
# the test tools, the programs of the end-to-end tests, and the fuzz driver of
# the VMConfig loader.  A unit test tests/unit/DIR/test_X.c becomes
# $(B)/tests/unit/DIR/test_X, linked with libvlayer-core.a and TEST_OBJ.
UNIT_BIN += $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(wildcard tests/unit/core/test_*.c tests/unit/coll/test_*.c))
$(B)/tests/unit/%: tests/unit/%.c $(B)/libvlayer-core.a $$(TEST_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -DSRCDIR='"$(CURDIR)"' -o $@ $< $(TEST_OBJ) $(B)/libvlayer-core.a $(INIH_LIBS) $(CHECK_LIBS) -lm

# test tools: the engine's collective simulation on the command line, traces from text
CHECK_BIN += $(B)/tests/collsim $(B)/tests/mktrace $(B)/bench/gentrace $(B)/tests/gate_order
$(B)/tests/gate_order: tests/tools/gate_order.c $(B)/libvlayer-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) -lm
$(B)/tests/collsim: tests/tools/collsim.c $(B)/libvlayer-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) -lm
$(B)/tests/mktrace: tests/tools/mktrace.c include/vltrace.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -o $@ $<
$(B)/bench/gentrace: bench/gentrace.c include/vltrace.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -o $@ $<

# MPI programs of the end-to-end tests, C and Fortran (tests/e2e/test_mpi_fortran.sh:
# mpif.h, use mpi and use mpi_f08 through vlcc, and the mpif.h program built
# natively, timed by vlrun's LD_PRELOAD).  mpif.h has no interfaces: gfortran >= 10
# needs -fallow-argument-mismatch for MPI_IN_PLACE and REAL buffers passed to the
# same routine.
CHECK_BIN += $(B)/tests/mpi_exact $(B)/tests/mpi_exact_f $(B)/tests/mpi_exact_fmod \
	$(B)/tests/mpi_exact_f08 $(B)/tests/mpi_exact_f.native
MPIFH_FFLAGS = -fallow-argument-mismatch
$(B)/tests/mpi_exact: tests/e2e/mpi_exact.c $(B)/vlcc $(B)/libvlayer-mpi.so include/vlayer.h
	@mkdir -p $(dir $@)
	VLCC_CC="$(CC) $(SAN)" $(B)/vlcc -mpi $(WARN) $(CFLAGS) -o $@ $<
$(B)/tests/mpi_exact_f: tests/e2e/mpi_exact_f.f90 tests/e2e/mpi_exact_f.inc $(B)/vlcc $(B)/libvlayer-mpi.so
	@mkdir -p $(dir $@)
	$(B)/vlcc -mpifort $(MPIFH_FFLAGS) -o $@ $<
$(B)/tests/mpi_exact_fmod: tests/e2e/mpi_exact_fmod.f90 tests/e2e/mpi_exact_f.inc $(B)/vlcc $(B)/libvlayer-mpi.so
	@mkdir -p $(dir $@)
	$(B)/vlcc -mpifort -o $@ $<
$(B)/tests/mpi_exact_f08: tests/e2e/mpi_exact_f08.f90 $(B)/vlcc $(B)/libvlayer-mpi.so
	@mkdir -p $(dir $@)
	$(B)/vlcc -mpifort -o $@ $<
$(B)/tests/mpi_exact_f.native: tests/e2e/mpi_exact_f.f90 tests/e2e/mpi_exact_f.inc
	@mkdir -p $(dir $@)
	$(MPIFORT) $(MPIFH_FFLAGS) -o $@ $<

# the fuzz driver of the VMConfig loader in its deterministic stand-alone form
# (libFuzzer: tests/fuzz/README.md)
FUZZ += check-fuzz-vmconfig
$(B)/tests/fuzz_vmconfig: tests/fuzz/fuzz_vmconfig.c $(B)/libvlayer-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -DVL_FUZZ_STANDALONE -DSRCDIR='"$(CURDIR)"' -o $@ $^ $(INIH_LIBS) -lm
.PHONY: check-fuzz-vmconfig
check-fuzz-vmconfig: $(B)/tests/fuzz_vmconfig
	$(B)/tests/fuzz_vmconfig $(FUZZ_ITER)
