# vlayer/coll: collectives timed by a named algorithm - the catalogue of
# kinds and algorithms, the schedule runner, and one file per algorithm in
# vlayer/coll/alg/ (<kind>_<algorithm>.c).  Part of libvlayer-core.a.
CORE_OBJ += $(patsubst %.c,$(B)/%.o,$(wildcard vlayer/coll/*.c vlayer/coll/alg/*.c))
