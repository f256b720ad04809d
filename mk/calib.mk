# vlcalib, half 1 (measurement): calib_mpi and calib_pvm are built natively (not
# through the layer) against the real MPI and PVM; both link calib_common.o, which
# holds everything but the communication.  vlcalib-run is the driver script.
CALIB_BIN = $(B)/calib_mpi $(B)/calib_pvm $(B)/vlcalib-run
EXTRA_ALL += $(CALIB_BIN)
EXTRA_CHECK += $(CALIB_BIN)
CALIB_CFLAGS = -D_GNU_SOURCE -Ivlayer -Iinclude $(ALLCFLAGS)

$(B)/models/calib_common.o: models/calib_common.c models/calib_common.h
	@mkdir -p $(dir $@)
	$(CC) $(CALIB_CFLAGS) -fPIC -c $< -o $@

$(B)/calib_mpi: models/calib_mpi.c models/calib_common.h $(B)/models/calib_common.o $(B)/libvlayer-core.a
	@mkdir -p $(dir $@)
	$(MPICC) $(CALIB_CFLAGS) -o $@ $< $(B)/models/calib_common.o $(B)/libvlayer-core.a $(INIH_LIBS) -lm

$(B)/calib_pvm: models/calib_pvm.c models/calib_common.h $(B)/models/calib_common.o $(B)/libvlayer-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CALIB_CFLAGS) -o $@ $< $(B)/models/calib_common.o $(B)/libvlayer-core.a $(INIH_LIBS) $(PVM_LIBS) -lm

$(B)/vlcalib-run: models/vlcalib-run.in
	@mkdir -p $(dir $@)
	sed -e 's|@BINDIR@|$(CURDIR)/$(B)|g' $< > $@ && chmod +x $@

# the unit test of the library-independent part (options, sizes, statistics)
$(B)/tests/test_calib_common: tests/unit/test_calib_common.c $(B)/models/calib_common.o $(B)/libvlayer-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -Imodels -o $@ $< $(B)/models/calib_common.o $(B)/libvlayer-core.a $(INIH_LIBS) $(CHECK_LIBS) -lm
