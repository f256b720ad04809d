# samples: every program built twice - natively (linked to PVM or MPI only)
# and virtually (.v, linked through vlcc).
PVM_SAMPLES = $(patsubst samples/pvm/%.c,$(B)/samples/%,$(wildcard samples/pvm/*.c))
MPI_SAMPLES = $(patsubst samples/mpi/%.c,$(B)/samples/mpi/%,$(wildcard samples/mpi/*.c))
# ScaLAPACK samples (the CLUE experiments): built only where Debian's
# libscalapack-openmpi is found; -lopenblas only to set its thread count
SCALAPACK_SO := $(shell $(CC) -print-file-name=libscalapack-openmpi.so 2>/dev/null)
SCALAPACK_LIBS = -lscalapack-openmpi $(if $(filter /%,$(shell $(CC) -print-file-name=libopenblas.so 2>/dev/null)),-lopenblas) -lm
SCALAPACK_SAMPLES = $(if $(filter /%,$(SCALAPACK_SO)),$(B)/samples/mpi/scalapack/pdbench $(B)/samples/mpi/scalapack/pdbench.v)
ifeq ($(WITH_PVM),1)
ALL += $(PVM_SAMPLES) $(PVM_SAMPLES:%=%.v)
endif
ifeq ($(WITH_MPI),1)
ALL += $(MPI_SAMPLES) $(MPI_SAMPLES:%=%.v) $(SCALAPACK_SAMPLES)
endif

$(B)/samples/%: samples/pvm/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(SAN) -o $@ $< $(PVM_LIBS) -lm
$(B)/samples/%.v: samples/pvm/%.c $(B)/vlcc $(B)/libvlayer-pvm.so
	VLCC_CC="$(CC) $(SAN)" $(B)/vlcc $(WARN) $(CFLAGS) -o $@ $< $(PVM_LIBS) -lm

$(B)/samples/mpi/%: samples/mpi/%.c
	@mkdir -p $(dir $@)
	$(MPICC) $(WARN) $(CFLAGS) $(SAN) -o $@ $< -lm
$(B)/samples/mpi/%.v: samples/mpi/%.c $(B)/vlcc $(B)/libvlayer-mpi.so
	@mkdir -p $(dir $@)
	VLCC_CC="$(CC) $(SAN)" $(B)/vlcc -mpi $(WARN) $(CFLAGS) -o $@ $< -lm
$(B)/samples/mpi/scalapack/pdbench: samples/mpi/scalapack/pdbench.c
	@mkdir -p $(dir $@)
	$(MPICC) $(WARN) $(CFLAGS) $(SAN) -o $@ $< $(SCALAPACK_LIBS)
$(B)/samples/mpi/scalapack/pdbench.v: samples/mpi/scalapack/pdbench.c $(B)/vlcc $(B)/libvlayer-mpi.so
	@mkdir -p $(dir $@)
	VLCC_CC="$(CC) $(SAN)" $(B)/vlcc -mpi $(WARN) $(CFLAGS) -o $@ $< $(SCALAPACK_LIBS)
