# util: helpers shared by the command-line tools (vlpost, vlcalib, vlmodel):
# output files written atomically, the CSV reader, least squares.
UTIL_OBJ = $(patsubst %.c,$(B)/%.o,$(wildcard util/*.c))
TEST_OBJ += $(UTIL_OBJ)
