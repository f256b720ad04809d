# tools: vlcc (compiler wrapper), vlrun (launcher), vlconfig (VMConfig checker),
# vltracedir (vlrun's claim of the trace directory).
ALL += $(B)/vlconfig $(B)/vlcc $(B)/vlrun $(B)/vltracedir

$(B)/vlconfig: $(B)/tools/vlconfig.o $(B)/util/diag.o $(B)/libvlayer-core.a
	$(CC) $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) -lm
$(B)/vltracedir: $(B)/tools/vltracedir.o $(B)/util/diag.o $(B)/libvlayer-core.a
	$(CC) $(ALLCFLAGS) -o $@ $^ $(INIH_LIBS) -lm
$(B)/vlcc: tools/vlcc.in
	@mkdir -p $(B)
	sed -e 's|@LIBDIR@|$(abspath $(B))|g' -e 's|@INCDIR@|$(CURDIR)/include|g' $< > $@ && chmod +x $@
$(B)/vlrun: tools/vlrun.in
	@mkdir -p $(B)
	sed -e 's|@LIBDIR@|$(abspath $(B))|g' -e 's|@BINDIR@|$(abspath $(B))|g' $< > $@ && chmod +x $@
