# vlayer/core: the engine shared by every front end - the virtual clock, the
# delay model, messages, the mailbox, the trace writer, errors, the VMConfig
# and the public API (include/vlayer.h).  time_wrap.c (virtual time(), sleeps)
# goes into the front-end libraries only, never into a tool.
CORE_OBJ += $(patsubst %.c,$(B)/%.o,$(filter-out vlayer/core/time_wrap.c,$(wildcard vlayer/core/*.c)))
TIME_WRAP_OBJ = $(B)/vlayer/core/time_wrap.o
LIBS += $(B)/libvlayer-core.a
ALL += $(B)/libvlayer-core.a

$(B)/libvlayer-core.a: $$(CORE_OBJ)
	rm -f $@; ar rcs $@ $^
