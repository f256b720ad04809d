# vlayer - virtual layer for PVM (and later MPI) programs.  See README.md.
PREFIX ?= /usr/local
CC ?= cc
WARN = -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
CPPFLAGS += -Iinclude -Ivlayer -D_GNU_SOURCE
INIH_CFLAGS := $(shell pkg-config --cflags inih 2>/dev/null)
INIH_LIBS := $(shell pkg-config --libs inih 2>/dev/null || echo -linih)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
PVM_LIBS = -lgpvm3 -lpvm3
MPICC ?= mpicc
MPI_CFLAGS := $(shell $(MPICC) -showme:compile 2>/dev/null)
MPI_LIBS := $(shell $(MPICC) -showme:link 2>/dev/null)
SAN ?=
ALLCFLAGS = $(WARN) $(CFLAGS) $(SAN) $(INIH_CFLAGS)

B = build
CORE_SRC = vlayer/vmconfig.c vlayer/model.c vlayer/clock.c vlayer/trace.c vlayer/mailbox.c vlayer/message.c vlayer/vl_error.c vlayer/api.c
CORE_SRC += vlayer/coll.c $(wildcard vlayer/coll_*.c)
PVM_SRC = vlayer/pvm_wrap.c $(B)/pvm_wrap_gen.c vlayer/time_wrap.c
CORE_OBJ = $(CORE_SRC:%.c=$(B)/%.o)
PVM_OBJ = $(patsubst %.c,$(B)/%.o,$(filter-out $(B)/%,$(PVM_SRC))) $(B)/pvm_wrap_gen.o
MPI_OBJ = $(B)/vlayer/mpi_wrap.o $(B)/vlayer/mpi_fortran.o $(B)/mpi_wrap_gen.o $(B)/vlayer/time_wrap.o
POST_SRC = $(wildcard postproc/*.c)
POST_OBJ = $(POST_SRC:%.c=$(B)/%.o)

LIBS_OUT = $(B)/libvlayer-pvm.so $(B)/libvlayer-pvm.a $(B)/libvlayer-core.a \
	$(B)/libvlayer-mpi.so $(B)/libvlayer-mpi.a
TOOLS = $(B)/vlpost $(B)/vlconfig $(B)/vlcc $(B)/vlrun
SAMPLES = $(patsubst samples/pvm/%.c,$(B)/samples/%,$(wildcard samples/pvm/*.c))
SAMPLES_V = $(SAMPLES:%=%.v)
MPI_SAMPLES = $(patsubst samples/mpi/%.c,$(B)/samples/mpi/%,$(wildcard samples/mpi/*.c))
MPI_SAMPLES_V = $(MPI_SAMPLES:%=%.v)
# ScaLAPACK samples (the CLUE experiments): built only where Debian's
# libscalapack-openmpi is found; -lopenblas only to set its thread count
SCALAPACK_SO := $(shell $(CC) -print-file-name=libscalapack-openmpi.so 2>/dev/null)
SCALAPACK_LIBS = -lscalapack-openmpi $(if $(filter /%,$(shell $(CC) -print-file-name=libopenblas.so 2>/dev/null)),-lopenblas) -lm
SCALAPACK_SAMPLES = $(if $(filter /%,$(SCALAPACK_SO)),$(B)/samples/mpi/scalapack/pdbench $(B)/samples/mpi/scalapack/pdbench.v)

# Modules add themselves in mk/*.mk (the analytic models and calibration tools, ...):
# EXTRA_ALL: built by `make`; EXTRA_TEST_OBJ: linked into every unit test;
# EXTRA_CHECK: built before the end-to-end tests
EXTRA_ALL =
EXTRA_TEST_OBJ =
EXTRA_CHECK =
-include $(sort $(wildcard mk/*.mk))

.PHONY: all deps check check-unit check-e2e check-asan check-asan-inner check-golden check-fuzz demo bench install clean
all: $(LIBS_OUT) $(TOOLS) $(SAMPLES) $(SAMPLES_V) $(MPI_SAMPLES) $(MPI_SAMPLES_V) $(SCALAPACK_SAMPLES) $(EXTRA_ALL)

deps:
	@scripts/install-deps.sh

# -MMD -MP: each object also depends on the headers it includes (build/**/*.d)
DEPFLAGS = -MMD -MP
$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(ALLCFLAGS) -fPIC -c $< -o $@
-include $(wildcard $(B)/vlayer/*.d $(B)/postproc/*.d $(B)/tools/*.d $(B)/*.d)

$(B)/pvm_wrap_gen.c: vlayer/pvm.protos vlayer/genwrap.sh
	@mkdir -p $(B)
	sh vlayer/genwrap.sh vlayer/pvm.protos > $@.tmp && mv $@.tmp $@
$(B)/pvm_wrap_gen.h: vlayer/pvm.protos vlayer/genwrap.sh
	@mkdir -p $(B)
	sh vlayer/genwrap.sh -h vlayer/pvm.protos > $@.tmp && mv $@.tmp $@

$(B)/pvm_wrap_gen.o: $(B)/pvm_wrap_gen.c $(B)/pvm_wrap_gen.h
	$(CC) $(CPPFLAGS) -I$(B) $(ALLCFLAGS) -fPIC -c $< -o $@
$(B)/vlayer/pvm_wrap.o $(B)/vlayer/time_wrap.o: $(B)/pvm_wrap_gen.h
$(B)/vlayer/pvm_wrap.o: CPPFLAGS += -I$(B)

# ---- MPI front end: entry points generated from vlayer/mpi.protos ----
$(B)/mpi_wrap_gen.c: vlayer/mpi.protos vlayer/genmpi.sh
	@mkdir -p $(B)
	sh vlayer/genmpi.sh vlayer/mpi.protos > $@.tmp && mv $@.tmp $@
$(B)/mpi_wrap_gen.h: vlayer/mpi.protos vlayer/genmpi.sh
	@mkdir -p $(B)
	sh vlayer/genmpi.sh -h vlayer/mpi.protos > $@.tmp && mv $@.tmp $@
$(B)/mpi_coll_gen.c: vlayer/mpi.protos vlayer/genmpi.sh
	@mkdir -p $(B)
	sh vlayer/genmpi.sh -c vlayer/mpi.protos > $@.tmp && mv $@.tmp $@
$(B)/mpi_wrap_gen.o: $(B)/mpi_wrap_gen.c $(B)/mpi_wrap_gen.h
	$(CC) $(CPPFLAGS) -I$(B) $(MPI_CFLAGS) $(ALLCFLAGS) -fPIC -c $< -o $@
$(B)/vlayer/mpi_wrap.o: vlayer/mpi_wrap.c $(B)/mpi_wrap_gen.h $(B)/mpi_coll_gen.c vlayer/mpi_wrap.h vlayer/coll.h vlayer/vli.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -I$(B) $(MPI_CFLAGS) $(DEPFLAGS) $(ALLCFLAGS) -fPIC -c $< -o $@
$(B)/vlayer/mpi_fortran.o: vlayer/mpi_fortran.c vlayer/mpi_wrap.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(MPI_CFLAGS) $(DEPFLAGS) $(ALLCFLAGS) -fPIC -c $< -o $@

$(B)/libvlayer-mpi.a: $(CORE_OBJ) $(MPI_OBJ)
	rm -f $@; ar rcs $@ $^

$(B)/libvlayer-mpi.so: $(CORE_OBJ) $(MPI_OBJ)
	$(CC) -shared $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) $(MPI_LIBS) -ldl -lm

$(B)/libvlayer-core.a: $(CORE_OBJ)
	rm -f $@; ar rcs $@ $^

$(B)/libvlayer-pvm.a: $(CORE_OBJ) $(PVM_OBJ)
	rm -f $@; ar rcs $@ $^

$(B)/libvlayer-pvm.so: $(CORE_OBJ) $(PVM_OBJ)
	$(CC) -shared $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) -Wl,--no-as-needed $(PVM_LIBS) -Wl,--as-needed -ldl -lm

# OTF2 (`vlpost otf2`) is optional: only where pkg-config finds otf2 (Debian
# libopen-trace-format2-dev; OTF2=0 disables it) is postproc/otf2.c compiled a
# second time with -DVL_HAVE_OTF2, for vlpost alone; postproc/otf2.o, used by
# the unit tests, is the stub and needs no library
OTF2 ?= $(shell pkg-config --exists otf2 2>/dev/null && echo 1)
OTF2_LIBS := $(if $(filter 1,$(OTF2)),$(shell pkg-config --libs otf2 2>/dev/null))
VLPOST_OBJ = $(if $(OTF2_LIBS),$(filter-out $(B)/postproc/otf2.o,$(POST_OBJ)) $(B)/postproc/otf2_lib.o,$(POST_OBJ))
$(B)/postproc/otf2_lib.o: postproc/otf2.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(shell pkg-config --cflags otf2 2>/dev/null) -DVL_HAVE_OTF2 $(DEPFLAGS) $(ALLCFLAGS) -fPIC -c $< -o $@

$(B)/vlpost: $(VLPOST_OBJ)
	$(CC) $(ALLCFLAGS) -o $@ $^ $(OTF2_LIBS) -lm

$(B)/vlconfig: $(B)/tools/vlconfig.o $(B)/libvlayer-core.a
	$(CC) $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) -lm

$(B)/vlcc: tools/vlcc.in
	@mkdir -p $(B)
	sed -e 's|@LIBDIR@|$(CURDIR)/$(B)|g' -e 's|@INCDIR@|$(CURDIR)/include|g' $< > $@ && chmod +x $@
$(B)/vlrun: tools/vlrun.in
	@mkdir -p $(B)
	sed -e 's|@LIBDIR@|$(CURDIR)/$(B)|g' -e 's|@BINDIR@|$(CURDIR)/$(B)|g' $< > $@ && chmod +x $@

# samples: native (linked to PVM only) and virtual (.v, linked through vlcc)
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

# ---- tests ----
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
$(B)/tests/%: tests/unit/%.c $(B)/libvlayer-core.a $(filter-out $(B)/postproc/vlpost.o,$(POST_OBJ)) $(EXTRA_TEST_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Ipostproc $(ALLCFLAGS) -DSRCDIR='"$(CURDIR)"' -o $@ $< $(filter-out $(B)/postproc/vlpost.o,$(POST_OBJ)) $(EXTRA_TEST_OBJ) $(B)/libvlayer-core.a $(INIH_LIBS) $(CHECK_LIBS) -lm

check-unit: all $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; CK_FORK=yes $$t; done

MPI_TEST_BIN = $(B)/tests/mpi_exact $(B)/tests/collsim
$(B)/tests/collsim: tests/tools/collsim.c $(B)/libvlayer-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -o $@ $< $(B)/libvlayer-core.a $(INIH_LIBS) -lm
$(B)/tests/mpi_exact: tests/e2e/mpi_exact.c $(B)/vlcc $(B)/libvlayer-mpi.so include/vlayer.h
	@mkdir -p $(dir $@)
	VLCC_CC="$(CC) $(SAN)" $(B)/vlcc -mpi $(WARN) $(CFLAGS) -o $@ $<

# Fortran (tests/e2e/test_mpi_fortran.sh): mpif.h, use mpi and use mpi_f08 through
# vlcc, and the mpif.h program built natively (timed by vlrun's LD_PRELOAD).
# mpif.h has no interfaces: gfortran >= 10 needs -fallow-argument-mismatch for
# MPI_IN_PLACE and REAL buffers passed to the same routine.
MPI_TEST_BIN += $(B)/tests/mpi_exact_f $(B)/tests/mpi_exact_fmod $(B)/tests/mpi_exact_f08 \
	$(B)/tests/mpi_exact_f.native
MPIFORT ?= mpifort
MPIFH_FFLAGS = -fallow-argument-mismatch
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

check-e2e: all $(MPI_TEST_BIN) $(B)/bench/gentrace $(EXTRA_CHECK)
	@tests/e2e/run-all.sh $(B)

$(B)/tests/mktrace: tests/tools/mktrace.c vlayer/trace_format.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -o $@ $<

check-golden: $(B)/vlpost $(B)/tests/mktrace
	@tests/golden/run-trf.sh $(B)
	@tests/golden/run-stats.sh $(B)
	@tests/golden/run-paje.sh $(B)
	@tests/golden/run-scaling.sh $(B)
	@tests/golden/run-svg.sh $(B)
	@tests/golden/run-otf2.sh $(B)

# the fuzz targets in their deterministic stand-alone form (libFuzzer: tests/fuzz/README.md)
FUZZ_ITER ?= 4000
FUZZ_OTF2_ITER ?= 300
$(B)/tests/fuzz_vmconfig: tests/fuzz/fuzz_vmconfig.c $(B)/libvlayer-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -DVL_FUZZ_STANDALONE -DSRCDIR='"$(CURDIR)"' -o $@ $^ $(INIH_LIBS) -lm
$(B)/tests/fuzz_trace: tests/fuzz/fuzz_trace.c $(filter-out postproc/vlpost.c,$(POST_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Ipostproc $(ALLCFLAGS) -DVL_FUZZ_STANDALONE -DSRCDIR='"$(CURDIR)"' -o $@ $^ -lm
# where pkg-config finds otf2: the reader and `vlpost otf2` with the library
$(B)/tests/fuzz_trace_otf2: tests/fuzz/fuzz_trace.c $(filter-out postproc/vlpost.c,$(POST_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Ipostproc $(shell pkg-config --cflags otf2 2>/dev/null) -DVL_HAVE_OTF2 -DVL_FUZZ_OTF2_ONLY $(ALLCFLAGS) -DVL_FUZZ_STANDALONE -DSRCDIR='"$(CURDIR)"' -o $@ $^ $(OTF2_LIBS) -lm
check-fuzz: $(B)/tests/fuzz_vmconfig $(B)/tests/fuzz_trace $(if $(OTF2_LIBS),$(B)/tests/fuzz_trace_otf2)
	$(B)/tests/fuzz_vmconfig $(FUZZ_ITER)
	$(B)/tests/fuzz_trace $(FUZZ_ITER)
	$(if $(OTF2_LIBS),$(B)/tests/fuzz_trace_otf2 $(FUZZ_OTF2_ITER),@echo "fuzz_trace_otf2: skipped (no OTF2: pkg-config otf2 fails)")

check: deps
	$(MAKE) all
	$(MAKE) check-unit
	$(MAKE) check-golden
	$(MAKE) check-e2e
	$(MAKE) check-asan

ASAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# unit tests, golden files, fuzz drivers and the exact end-to-end tests again, with
# every C file of the project built with AddressSanitizer and UBSan
check-asan:
	$(MAKE) B=build-asan SAN="$(ASAN_FLAGS)" CFLAGS="-O1 -g" check-asan-inner

check-asan-inner: all $(UNIT_BIN) $(B)/tests/mpi_exact $(B)/tests/collsim
	@set -e; for t in $(UNIT_BIN); do echo "== (asan) $$t"; CK_FORK=no $$t; done
	$(MAKE) B=$(B) SAN="$(SAN)" CFLAGS="$(CFLAGS)" check-golden check-fuzz
	ASAN_OPTIONS=detect_leaks=0 VLCC_CC="$(CC) $(SAN)" VL_SANITIZED=1 tests/e2e/run-all.sh $(B) pingpong semantics mpi model_samples

demo: deps
	$(MAKE) all
	@scripts/demo.sh $(B)

$(B)/bench/gentrace: bench/gentrace.c vlayer/trace_format.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALLCFLAGS) -o $@ $<

bench: all $(B)/bench/gentrace
	@bench/run.sh $(B)
	@bench/mpi.sh $(B)
	@bench/post.sh $(B)

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/share/vlayer/vmconfig $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(B)/libvlayer-pvm.a $(B)/libvlayer-mpi.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/libvlayer-pvm.so $(B)/libvlayer-mpi.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/vlayer.h include/pvm3V.h include/mpiV.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(B)/vlpost $(B)/vlconfig $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@LIBDIR@|$(PREFIX)/lib|g' -e 's|@INCDIR@|$(PREFIX)/include|g' tools/vlcc.in > $(DESTDIR)$(PREFIX)/bin/vlcc
	chmod 755 $(DESTDIR)$(PREFIX)/bin/vlcc
	sed -e 's|@LIBDIR@|$(PREFIX)/lib|g' -e 's|@BINDIR@|$(PREFIX)/bin|g' tools/vlrun.in > $(DESTDIR)$(PREFIX)/bin/vlrun
	chmod 755 $(DESTDIR)$(PREFIX)/bin/vlrun
	install -m 644 vmconfig/*.ini $(DESTDIR)$(PREFIX)/share/vlayer/vmconfig/
	sed -e 's|@PREFIX@|$(PREFIX)|g' vlayer.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/vlayer.pc

clean:
	rm -rf build build-asan
