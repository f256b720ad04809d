/* dump.h - vlpost dump: every record of a trace directory as text. */
#ifndef VLPOST_DUMP_H
#define VLPOST_DUMP_H

int vlpost_dump_main(int argc, char **argv);

#endif
