/* out.h: an output file that never loses the user's data and keeps the
 * file's identity.
 *
 * A regular file is written to a temporary file beside it and renamed into
 * place only on commit, so a failed or interrupted run leaves the old file
 * as it was and nothing behind. The rules, the same as cp's where cp has
 * one:
 * - a symbolic link is followed to its target, and the temporary file is
 *   made beside the target; a dangling or looping link is refused (cp
 *   refuses to write through a dangling link);
 * - the new file keeps the old one's mode, and its owner and group where
 *   the user may set them;
 * - a file the user may not write (a write-protected file for a non-root
 *   user), a directory, and an input of this run (compared by device and
 *   inode, not by name) are refused;
 * - a file with more than one hard link, or in a directory the user may
 *   not write, is written to the temporary file and copied into place on
 *   commit (as cp writes in place), so its links stay; only a failure
 *   during that copy can leave it partial;
 * - what is not a regular file (a device, a FIFO) and a descriptor named
 *   through /proc (/dev/stdout, /dev/fd/N, /proc/self/fd/N) are written in
 *   place; a target that is our own stdout (/dev/stdout, or --trace=t.json
 *   >t.json) is written as "-" is.
 * "-" is stdout. The temporary name fits NAME_MAX whatever the target's. */
#ifndef GOSIM_OUT_H
#define GOSIM_OUT_H

#include <stdio.h>
#include <sys/stat.h>

struct out {
	FILE *f;
	const char *path;  /* as the user wrote it */
	char *target;      /* the file a commit replaces (symlinks resolved) */
	char *tmp;         /* the temporary file, or NULL when writing in place */
	int copy_back;     /* commit copies tmp into target, keeping its inode */
	int to_stdout;     /* f is stdout ("-", or a name for our stdout) */
	const char *why;   /* after a refusal: why, in words (else errno says) */
};

/* Opens path for writing. inputs (n of them) are the files this run
 * reads, which it must not overwrite. Returns 0, or -1 with errno set and
 * maybe o->why. */
int out_open(struct out *o, const char *path, const struct stat *inputs, int n);
/* Whether path is written as a stream ("-", a device, a FIFO, a
 * descriptor through /proc): such a target has no extension to tell its
 * format by. */
int out_is_stream(const char *path);
/* Whether path is written through our stdout ("-", /dev/stdout, the
 * file stdout is open on). */
int out_is_stdout(const char *path);
/* Closes the file; commit puts it into place, else it is removed.
 * Returns 0, or -1 with errno set. */
int out_close(struct out *o, int commit);

#endif
