# vlayer/pvm: the PVM front end (libvlayer-pvm).  Its entry points are
# generated from vlayer/pvm/pvm.protos by vlayer/pvm/genpvm.sh (pvm_wrap_gen.c:
# the entry points; pvm_real_gen.c: the real functions they fall back on).
ifeq ($(WITH_PVM),1)
PVM_OBJ += $(patsubst %.c,$(B)/%.o,$(wildcard vlayer/pvm/*.c)) $(G)/pvm_wrap_gen.o $(G)/pvm_real_gen.o $(TIME_WRAP_OBJ)
LIBS += $(B)/libvlayer-pvm.so $(B)/libvlayer-pvm.a
ALL += $(B)/libvlayer-pvm.so $(B)/libvlayer-pvm.a
else
SKIPPED += PVM front end (no <pvm3.h>: apt-get install pvm-dev, or make deps)
endif

$(G)/pvm_wrap_gen.c: vlayer/pvm/pvm.protos vlayer/pvm/genpvm.sh
	@mkdir -p $(G)
	sh vlayer/pvm/genpvm.sh vlayer/pvm/pvm.protos > $@.tmp && mv $@.tmp $@
$(G)/pvm_real_gen.c: vlayer/pvm/pvm.protos vlayer/pvm/genpvm.sh
	@mkdir -p $(G)
	sh vlayer/pvm/genpvm.sh -r vlayer/pvm/pvm.protos > $@.tmp && mv $@.tmp $@
$(G)/pvm_wrap_gen.h: vlayer/pvm/pvm.protos vlayer/pvm/genpvm.sh
	@mkdir -p $(G)
	sh vlayer/pvm/genpvm.sh -h vlayer/pvm/pvm.protos > $@.tmp && mv $@.tmp $@
# every object of the front end may include the generated header
$(patsubst %.c,$(B)/%.o,$(wildcard vlayer/pvm/*.c)) $(G)/pvm_wrap_gen.o $(G)/pvm_real_gen.o: $(G)/pvm_wrap_gen.h
$(patsubst %.c,$(B)/%.o,$(wildcard vlayer/pvm/*.c)) $(G)/pvm_wrap_gen.o $(G)/pvm_real_gen.o: CPPFLAGS += -I$(G)

$(B)/libvlayer-pvm.a: $$(CORE_OBJ) $$(PVM_OBJ)
	rm -f $@; ar rcs $@ $^
$(B)/libvlayer-pvm.so: $$(CORE_OBJ) $$(PVM_OBJ)
	$(CC) -shared $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) -Wl,--no-as-needed $(PVM_LIBS) -Wl,--as-needed -ldl -lm
