# vlayer - a virtual layer for PVM and MPI programs.  See README.md.
#
# `make` builds everything (libraries, tools, samples).  Every folder registers
# itself in its own fragment mk/<folder>.mk: it adds its files to the lists
# below (ALL, CORE_OBJ, TEST_OBJ ...) and brings its own rules.  The lists are
# read after every fragment (secondary expansion in prerequisites), so the
# order fragments are read in does not matter.
.DEFAULT_GOAL := all
.SECONDEXPANSION:

PREFIX ?= /usr/local
CC ?= cc
WARN = -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
CPPFLAGS += -Iinclude -I. -D_GNU_SOURCE
INIH_CFLAGS := $(shell pkg-config --cflags inih 2>/dev/null)
INIH_LIBS := $(shell pkg-config --libs inih 2>/dev/null || echo -linih)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
PVM_LIBS = -lgpvm3 -lpvm3
MPICC ?= mpicc
MPIFORT ?= mpifort
MPI_CFLAGS := $(shell $(MPICC) -showme:compile 2>/dev/null)
MPI_LIBS := $(shell $(MPICC) -showme:link 2>/dev/null)
SAN ?=
ALLCFLAGS = $(WARN) $(CFLAGS) $(SAN) $(INIH_CFLAGS)

# The PVM half is built where <pvm3.h> is found, the MPI half where mpicc
# works; WITH_PVM=0 / WITH_MPI=0 leave one out on purpose.
WITH_PVM ?= $(shell printf '\#include <pvm3.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1 || echo 0)
WITH_MPI ?= $(if $(MPI_CFLAGS),1,0)

B = build
# generated sources (wrappers from the specs)
G = $(B)/gen

# the lists every fragment adds to
ALL =            # built by `make`
CORE_OBJ =       # libvlayer-core.a: the engine and the collective schedules
PVM_OBJ =        # + the PVM front end: libvlayer-pvm
MPI_OBJ =        # + the MPI front end: libvlayer-mpi
TEST_OBJ =       # linked into every unit test (besides libvlayer-core.a)
UNIT_BIN =       # the unit tests (`make check-unit`)
CHECK_BIN =      # built before the end-to-end tests
GOLDEN =         # phony targets of the golden tests (`make check-golden`)
FUZZ =           # phony targets of the fuzz drivers (`make check-fuzz`)
SKIPPED =        # what was left out, for the message at the end of `make`

# MK_FRAGMENTS: the fragments, in any order (tests/e2e/test_build.sh reverses it)
MK_FRAGMENTS ?= $(sort $(wildcard mk/*.mk))
include $(MK_FRAGMENTS)

.PHONY: all deps check check-unit check-e2e check-asan check-asan-build check-asan-inner check-asan-units check-golden \
	check-fuzz demo bench install clean
all: $$(ALL)
	$(if $(strip $(SKIPPED)),@printf 'vlayer: skipped: %s\n' "$(strip $(SKIPPED))")

deps:
	@scripts/install-deps.sh

# -MMD -MP: every object also depends on the headers it includes (its .d file)
DEPFLAGS = -MMD -MP
$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(ALLCFLAGS) -fPIC -c $< -o $@
$(G)/%.o: $(G)/%.c
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(ALLCFLAGS) -fPIC -c $< -o $@

# the builds of `make check` use every processor (JOBS), and so do the golden files and
# fuzz drivers; the end-to-end tests run as tests/e2e/run-all.sh says
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# each step's time is printed at its end ("-- make check: STEP: N s")
check: deps
	@set -e; t00=$$(date +%s); step() { t0=$$(date +%s); n=$$1; shift; "$$@"; \
	  echo "-- make check: $$n: $$(($$(date +%s) - t0)) s (total $$(($$(date +%s) - t00)) s)"; }; \
	step build $(MAKE) -j$(JOBS) all $(UNIT_BIN) $(CHECK_BIN); \
	step unit $(MAKE) check-unit; \
	step golden $(MAKE) -j$(JOBS) -Otarget check-golden; \
	step e2e $(MAKE) check-e2e; \
	step asan-build $(MAKE) -j$(JOBS) $(ASAN_VARS) check-asan-build; \
	step asan-tests $(MAKE) $(ASAN_VARS) check-asan-inner

check-unit: all $$(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; CK_FORK=yes $$t; done

check-golden: $$(GOLDEN)
# each unit test alone, without Check's fork (ASan sees the whole test)
check-asan-units: $$(patsubst %,%.asan-run,$$(UNIT_BIN))
%.asan-run: %
	@echo "== (asan) $*"; CK_FORK=no $*
check-fuzz: $$(FUZZ)

check-e2e: all $$(CHECK_BIN)
	@tests/e2e/run-all.sh $(B)

ASAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# unit tests, golden files, fuzz drivers and the exact end-to-end tests again, with
# every C file of the project built with AddressSanitizer and UBSan (virtual order
# for MPI through order_remote: test_order_mpi with rank 0 on the board and the
# others through the board server, whose threads run the same board code for them;
# the shared links through test_links)
ASAN_VARS = B=build-asan SAN="$(ASAN_FLAGS)" CFLAGS="-O1 -g"
check-asan:
	$(MAKE) -j$(JOBS) $(ASAN_VARS) check-asan-build
	$(MAKE) $(ASAN_VARS) check-asan-inner

check-asan-build: all $$(UNIT_BIN) $(B)/tests/mpi_exact $(B)/tests/collsim $(B)/tests/gate_order

# (the unit tests, fuzz drivers and golden files side by side, JOBS at a time;
# the OTF2 fuzz driver 100 iterations: 0.13 s each under ASan)
check-asan-inner: all $$(UNIT_BIN) $(B)/tests/mpi_exact $(B)/tests/collsim $(B)/tests/gate_order
	$(MAKE) -j$(JOBS) -Otarget B=$(B) SAN="$(SAN)" CFLAGS="$(CFLAGS)" FUZZ_OTF2_ITER=100 \
	  check-asan-units check-fuzz check-golden
	ASAN_OPTIONS=detect_leaks=0 VLCC_CC="$(CC) $(SAN)" VL_SANITIZED=1 tests/e2e/run-all.sh $(B) pingpong semantics order order_remote mpi links pvm_encodings cpugate

demo: deps
	$(MAKE) all
	@scripts/demo.sh $(B)

bench: all $(B)/bench/gentrace
	@bench/run.sh $(B)
	@bench/mpi.sh $(B)
	@bench/post.sh $(B)

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/share/vlayer/vmconfig $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(filter %.a,$(LIBS)) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(filter %.so,$(LIBS)) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/vlayer.h include/vltrace.h include/pvm3V.h include/mpiV.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(B)/vlpost $(B)/vlconfig $(B)/vltracedir $(B)/vlcalib $(B)/vlmodel $(filter $(B)/calib_%,$(ALL)) \
	  $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@BINDIR@|$(PREFIX)/bin|g' tools/vlcalib/vlcalib-run.in > $(DESTDIR)$(PREFIX)/bin/vlcalib-run
	chmod 755 $(DESTDIR)$(PREFIX)/bin/vlcalib-run
	sed -e 's|@LIBDIR@|$(PREFIX)/lib|g' -e 's|@INCDIR@|$(PREFIX)/include|g' tools/vlcc.in > $(DESTDIR)$(PREFIX)/bin/vlcc
	chmod 755 $(DESTDIR)$(PREFIX)/bin/vlcc
	sed -e 's|@LIBDIR@|$(PREFIX)/lib|g' -e 's|@BINDIR@|$(PREFIX)/bin|g' tools/vlrun.in > $(DESTDIR)$(PREFIX)/bin/vlrun
	chmod 755 $(DESTDIR)$(PREFIX)/bin/vlrun
	install -m 644 vmconfig/*.ini $(DESTDIR)$(PREFIX)/share/vlayer/vmconfig/
	sed -e 's|@PREFIX@|$(PREFIX)|g' vlayer.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/vlayer.pc

clean:
	rm -rf build build-asan

-include $(shell find $(B) -name '*.d' 2>/dev/null)
