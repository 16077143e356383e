/* compress.c: see compress.h. */
#define _GNU_SOURCE /* fopencookie */
#include "compress.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>

#define COMPRESS_LEVEL 1
#define OUT_CHUNK (1 << 18) /* compressed bytes handed to the file at a time */
#define IN_BUFFER (1 << 18) /* the cookie stream's own buffer */

struct zout {
	enum compress_kind kind;
	FILE *f;
	ZSTD_CCtx *zc;
	z_stream gz;
	int failed;
	char *inbuf;          /* the cookie stream's buffer (setvbuf) */
	unsigned char out[OUT_CHUNK];
};

enum compress_kind compress_of_path(const char *path, size_t *stem_len)
{
	static const struct { const char *sfx; enum compress_kind kind; } sfx[] = {
		{ ".zst", COMPRESS_ZSTD }, { ".gz", COMPRESS_GZIP } };
	size_t n = strlen(path);
	*stem_len = n;
	for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
		size_t k = strlen(sfx[i].sfx);
		if (n > k && strcasecmp(path + n - k, sfx[i].sfx) == 0) {
			*stem_len = n - k;
			return sfx[i].kind;
		}
	}
	return COMPRESS_NONE;
}

static int put(struct zout *z, size_t n)
{
	if (n > 0 && fwrite(z->out, 1, n, z->f) != n) {
		z->failed = 1;
		return -1;
	}
	return 0;
}

/* Compresses n bytes (end: and ends the stream) into the file. */
static int zstd_feed(struct zout *z, const char *buf, size_t n, int end)
{
	ZSTD_inBuffer in = { buf, n, 0 };
	for (;;) {
		ZSTD_outBuffer out = { z->out, sizeof z->out, 0 };
		size_t left = ZSTD_compressStream2(z->zc, &out, &in, end ? ZSTD_e_end : ZSTD_e_continue);
		if (ZSTD_isError(left)) {
			errno = EIO;
			z->failed = 1;
			return -1;
		}
		if (put(z, out.pos) != 0)
			return -1;
		if (end ? left == 0 : in.pos == in.size)
			return 0;
	}
}

static int gzip_feed(struct zout *z, const char *buf, size_t n, int end)
{
	z->gz.next_in = (unsigned char *)(uintptr_t)buf;
	z->gz.avail_in = (uInt)n;
	for (;;) {
		z->gz.next_out = z->out;
		z->gz.avail_out = sizeof z->out;
		int rc = deflate(&z->gz, end ? Z_FINISH : Z_NO_FLUSH);
		if (rc == Z_STREAM_ERROR) {
			errno = EIO;
			z->failed = 1;
			return -1;
		}
		if (put(z, sizeof z->out - z->gz.avail_out) != 0)
			return -1;
		if (end ? rc == Z_STREAM_END : z->gz.avail_in == 0 && z->gz.avail_out != 0)
			return 0;
	}
}

static int feed(struct zout *z, const char *buf, size_t n, int end)
{
	if (z->failed)
		return -1;
	return z->kind == COMPRESS_ZSTD ? zstd_feed(z, buf, n, end) : gzip_feed(z, buf, n, end);
}

static ssize_t z_write(void *cookie, const char *buf, size_t n)
{
	/* gzip takes at most 4 GB at a time (uInt); stdio hands far less */
	return feed(cookie, buf, n, 0) == 0 ? (ssize_t)n : -1;
}

static void z_free(struct zout *z)
{
	if (z->kind == COMPRESS_ZSTD)
		ZSTD_freeCCtx(z->zc);
	else
		deflateEnd(&z->gz);
	free(z->inbuf);
	free(z);
}

static int z_close(void *cookie)
{
	struct zout *z = cookie;
	int rc = feed(z, NULL, 0, 1);
	int err = errno;
	z_free(z);
	errno = err;
	return rc == 0 ? 0 : EOF;
}

FILE *compress_open(FILE *f, enum compress_kind kind)
{
	struct zout *z = calloc(1, sizeof *z);
	if (!z)
		return NULL;
	z->kind = kind;
	z->f = f;
	int ok;
	if (kind == COMPRESS_ZSTD) {
		ok = (z->zc = ZSTD_createCCtx()) != NULL &&
		     !ZSTD_isError(ZSTD_CCtx_setParameter(z->zc, ZSTD_c_compressionLevel, COMPRESS_LEVEL));
	} else {
		/* windowBits 15 + 16: a gzip header and trailer */
		ok = deflateInit2(&z->gz, COMPRESS_LEVEL, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
	}
	z->inbuf = ok ? malloc(IN_BUFFER) : NULL;
	FILE *cf = z->inbuf ? fopencookie(z, "w", (cookie_io_functions_t){ .write = z_write, .close = z_close }) : NULL;
	if (!cf) {
		z_free(z); /* a zeroed z_stream's deflateEnd is harmless */
		errno = ENOMEM;
		return NULL;
	}
	setvbuf(cf, z->inbuf, _IOFBF, IN_BUFFER);
	return cf;
}
