/* compress.h: compressed trace files. A trace name ending in .zst is
 * written through libzstd (level 1), one ending in .gz through zlib
 * (gzip, level 1): a stdio stream (fopencookie) compresses what the trace
 * writer writes and passes it on to the output file (out.h), so the
 * compressed file gets the same safe path as any other (a temporary
 * file renamed into place on success; nothing partial over an old file).
 * The compressing is done in a thread of its own, while the simulation
 * goes on: the stream's writes fill 1 MB blocks (four at most in hand),
 * the thread compresses them in order and writes the file (zstd: each
 * block a frame of its own, compressed in place; zstd -d reads the frames
 * as one stream). A failure of
 * the thread's (a write, the library) fails the stream's next write and
 * its fclose, with that failure's errno.
 * The format is told by the name without the compression suffix
 * (t.csv.zst is CSV). */
#ifndef GOSIM_COMPRESS_H
#define GOSIM_COMPRESS_H

#include <stdio.h>

enum compress_kind { COMPRESS_NONE, COMPRESS_ZSTD, COMPRESS_GZIP };

/* The compression path's name asks for (by its suffix, in any case), and
 * the length of the name without that suffix. */
enum compress_kind compress_of_path(const char *path, size_t *stem_len);
/* A stream that compresses into f (which it does not close), or NULL
 * (errno set). Its fclose ends the compressed stream and writes the rest;
 * it returns EOF (errno set) if anything failed. */
FILE *compress_open(FILE *f, enum compress_kind kind);

#endif
