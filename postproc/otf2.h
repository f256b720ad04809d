/* otf2.h - OTF2 output (otf2-print, Vampir, ViTE) and the `vlpost otf2` command.
 * Optional: the converter is compiled only with -DVL_HAVE_OTF2 (the Makefile sets
 * it when pkg-config finds otf2); without it the command only says so.  The event
 * -> OTF2 mapping is documented in docs/vlpost.md. */
#ifndef VLPOST_OTF2_H
#define VLPOST_OTF2_H

/* `vlpost otf2 [-o ARCHIVE_DIR] [--partial] TRACEDIR`: argv[0] is "otf2".
 * Returns the exit status (0, or 2 for bad usage, bad input, or no OTF2 support). */
int vlpost_otf2_main(int argc, char **argv);

/* 1 if vlpost was built with OTF2 support. */
int vlpost_otf2_available(void);

#endif
