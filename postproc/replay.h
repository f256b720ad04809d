/* replay.h - vlpost replay. */
#ifndef VLPOST_REPLAY_H
#define VLPOST_REPLAY_H

/* vlpost replay ARGS (argv[0] = "replay"); returns the exit status. */
int vlpost_replay_main(int argc, char **argv);

#endif
