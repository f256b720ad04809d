#!/bin/bash
# test_order_remote.sh BUILD - virtual order across real hosts, on one host:
# test_order_mpi.sh again with every rank but 0 joining the board through the
# run's board server over TCP (VLAYER_BOARD_REMOTE=1), as the ranks of another
# real host do.  Every result must be the same, to the ns; a computing rank's
# live bound reaches the others through the server too.
VLAYER_BOARD_REMOTE=1 exec bash "$(dirname "$0")/test_order_mpi.sh" "$@"
