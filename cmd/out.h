/* out.h: an output file written to a temporary file beside the target and
 * renamed into place only on commit, so a failed or interrupted run leaves
 * the user's old file as it was and nothing behind. "-" is stdout; a path
 * that is not a regular file (/dev/null, a FIFO, a terminal) is written in
 * place. */
#ifndef GOSIM_OUT_H
#define GOSIM_OUT_H

#include <stdio.h>

struct out {
	FILE *f;
	const char *path;
	char *tmp; /* the temporary file, or NULL when writing in place */
};

int out_open(struct out *o, const char *path);
/* Whether path is written as a stream ("-", a device, a FIFO): such a
 * target has no extension to tell its format by. */
int out_is_stream(const char *path);
/* Closes the file; commit renames it into place, else it is removed.
 * Returns 0, or -1 with errno set. */
int out_close(struct out *o, int commit);

#endif
