# vlayer/mpi: the MPI front end (libvlayer-mpi, through PMPI).  Its entry
# points (C and Fortran) and the collectives are generated from
# vlayer/mpi/mpi.protos by vlayer/mpi/genmpi.sh.
MPI_SRC_OBJ = $(patsubst %.c,$(B)/%.o,$(wildcard vlayer/mpi/*.c))
ifeq ($(WITH_MPI),1)
MPI_OBJ += $(MPI_SRC_OBJ) $(G)/mpi_wrap_gen.o $(G)/mpi_coll_gen.o $(TIME_WRAP_OBJ)
LIBS += $(B)/libvlayer-mpi.so $(B)/libvlayer-mpi.a
ALL += $(B)/libvlayer-mpi.so $(B)/libvlayer-mpi.a
else
SKIPPED += MPI front end (mpicc not found: apt-get install libopenmpi-dev, or make deps)
endif

$(G)/mpi_wrap_gen.c: vlayer/mpi/mpi.protos vlayer/mpi/genmpi.sh
	@mkdir -p $(G)
	sh vlayer/mpi/genmpi.sh vlayer/mpi/mpi.protos > $@.tmp && mv $@.tmp $@
$(G)/mpi_wrap_gen.h: vlayer/mpi/mpi.protos vlayer/mpi/genmpi.sh
	@mkdir -p $(G)
	sh vlayer/mpi/genmpi.sh -h vlayer/mpi/mpi.protos > $@.tmp && mv $@.tmp $@
$(G)/mpi_coll_gen.c: vlayer/mpi/mpi.protos vlayer/mpi/genmpi.sh
	@mkdir -p $(G)
	sh vlayer/mpi/genmpi.sh -c vlayer/mpi/mpi.protos > $@.tmp && mv $@.tmp $@
$(MPI_SRC_OBJ) $(G)/mpi_wrap_gen.o $(G)/mpi_coll_gen.o: $(G)/mpi_wrap_gen.h
$(MPI_SRC_OBJ) $(G)/mpi_wrap_gen.o $(G)/mpi_coll_gen.o: CPPFLAGS += -I$(G) $(MPI_CFLAGS)

$(B)/libvlayer-mpi.a: $$(CORE_OBJ) $$(MPI_OBJ)
	rm -f $@; ar rcs $@ $^
$(B)/libvlayer-mpi.so: $$(CORE_OBJ) $$(MPI_OBJ)
	$(CC) -shared $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) $(MPI_LIBS) -ldl -lm
