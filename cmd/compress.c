/* compress.c: see compress.h. */
#define _GNU_SOURCE /* fopencookie */
#include "compress.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>

#define COMPRESS_LEVEL 1
#define OUT_CHUNK (1 << 18) /* gzip: compressed bytes handed to the file at a time */
#define IN_BUFFER (1 << 16) /* the cookie stream's own (a write of more goes past it) */
#define BLOCK (1 << 20)     /* what the compressing thread takes at a time */
#define NBLOCKS 4           /* the blocks filled and waiting, at most */

/* The writer (the stream's write calls) fills blocks; the compressing
 * thread compresses them in order and writes the result to the file.
 * mu guards head, count, closing, failed and err. The blocks handed
 * over are head .. head + count - 1 (mod NBLOCKS), in order; fill, the
 * writer's own, is the next one, (head + count) % NBLOCKS: never one the
 * thread holds. */
struct zout {
	enum compress_kind kind;
	FILE *f;
	ZSTD_CCtx *zc;
	z_stream gz;
	char *inbuf; /* the cookie stream's buffer (setvbuf) */
	char *block[NBLOCKS];
	size_t len[NBLOCKS];
	int head, count, closing;
	int fill;
	int failed, err; /* the first failure and its errno (the thread's own errno is its own) */
	int started; /* the thread runs */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cond; /* a block was handed over, taken, or the stream closes */
	int frames;          /* zstd: the frames written, one a block */
	unsigned char *zbuf; /* zstd: a block's frame (zcap bytes, its bound) */
	size_t zcap;
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

/* The compressing thread's failures: the first one's errno is kept. */
static int fail(struct zout *z, int err)
{
	pthread_mutex_lock(&z->mu);
	if (!z->failed) {
		z->failed = 1;
		z->err = err;
	}
	pthread_mutex_unlock(&z->mu);
	return -1;
}

static int put(struct zout *z, size_t n)
{
	if (n > 0 && fwrite(z->out, 1, n, z->f) != n)
		return fail(z, errno ? errno : EIO);
	return 0;
}

/* A block as a zstd frame of its own, compressed where it is (the
 * streaming API would first copy it into its window); the end of the
 * stream adds nothing, but for an empty frame when no block came, so that
 * the file is a zstd stream all the same. zstd -d reads the frames one
 * after another as one text. */
static int zstd_feed(struct zout *z, const char *buf, size_t n, int end)
{
	if (end && z->frames > 0)
		return 0;
	size_t k = ZSTD_compress2(z->zc, z->zbuf, z->zcap, buf, n);
	if (ZSTD_isError(k))
		return fail(z, EIO);
	z->frames++;
	if (fwrite(z->zbuf, 1, k, z->f) != k)
		return fail(z, errno ? errno : EIO);
	return 0;
}

static int gzip_feed(struct zout *z, const char *buf, size_t n, int end)
{
	z->gz.next_in = (unsigned char *)(uintptr_t)buf;
	z->gz.avail_in = (uInt)n;
	for (;;) {
		z->gz.next_out = z->out;
		z->gz.avail_out = sizeof z->out;
		int rc = deflate(&z->gz, end ? Z_FINISH : Z_NO_FLUSH);
		if (rc == Z_STREAM_ERROR)
			return fail(z, EIO);
		if (put(z, sizeof z->out - z->gz.avail_out) != 0)
			return -1;
		if (end ? rc == Z_STREAM_END : z->gz.avail_in == 0 && z->gz.avail_out != 0)
			return 0;
	}
}

static int feed(struct zout *z, const char *buf, size_t n, int end)
{
	return z->kind == COMPRESS_ZSTD ? zstd_feed(z, buf, n, end) : gzip_feed(z, buf, n, end);
}

/* The compressing thread: each handed-over block in turn, until the
 * stream closes with none left; after a failure it only takes them. */
static void *compressor(void *arg)
{
	struct zout *z = arg;
	pthread_mutex_lock(&z->mu);
	for (;;) {
		while (z->count == 0 && !z->closing)
			pthread_cond_wait(&z->cond, &z->mu);
		if (z->count == 0)
			break;
		int i = z->head, failed = z->failed;
		pthread_mutex_unlock(&z->mu);
		if (!failed)
			feed(z, z->block[i], z->len[i], 0);
		pthread_mutex_lock(&z->mu);
		z->head = (z->head + 1) % NBLOCKS;
		z->count--;
		pthread_cond_broadcast(&z->cond);
	}
	pthread_mutex_unlock(&z->mu);
	return NULL;
}

/* Hands the block being filled to the thread and moves on to the next,
 * waiting while the thread holds it; -1 (errno set) once the thread
 * failed. */
static int hand_over(struct zout *z)
{
	pthread_mutex_lock(&z->mu);
	if (z->len[z->fill] > 0) {
		z->count++;
		pthread_cond_broadcast(&z->cond);
		while (z->count == NBLOCKS)
			pthread_cond_wait(&z->cond, &z->mu);
		z->fill = (z->fill + 1) % NBLOCKS;
		z->len[z->fill] = 0;
	}
	int failed = z->failed, err = z->err;
	pthread_mutex_unlock(&z->mu);
	if (failed)
		errno = err;
	return failed ? -1 : 0;
}

static ssize_t z_write(void *cookie, const char *buf, size_t n)
{
	struct zout *z = cookie;
	for (size_t done = 0; done < n;) {
		size_t room = BLOCK - z->len[z->fill], k = n - done < room ? n - done : room;
		memcpy(z->block[z->fill] + z->len[z->fill], buf + done, k);
		z->len[z->fill] += k;
		done += k;
		if (z->len[z->fill] == BLOCK && hand_over(z) != 0)
			return -1;
	}
	return (ssize_t)n;
}

/* Ends the thread, once it has taken every block handed over. */
static void stop(struct zout *z)
{
	if (!z->started)
		return;
	pthread_mutex_lock(&z->mu);
	z->closing = 1;
	pthread_cond_broadcast(&z->cond);
	pthread_mutex_unlock(&z->mu);
	pthread_join(z->thread, NULL);
	z->started = 0;
}

static void z_free(struct zout *z)
{
	stop(z);
	if (z->kind == COMPRESS_ZSTD)
		ZSTD_freeCCtx(z->zc);
	else
		deflateEnd(&z->gz);
	for (int i = 0; i < NBLOCKS; i++)
		free(z->block[i]);
	free(z->zbuf);
	free(z->inbuf);
	pthread_mutex_destroy(&z->mu);
	pthread_cond_destroy(&z->cond);
	free(z);
}

/* The last block, the thread's end, then the stream's end. */
static int z_close(void *cookie)
{
	struct zout *z = cookie;
	hand_over(z);
	stop(z);
	if (!z->failed)
		feed(z, NULL, 0, 1);
	int failed = z->failed, err = z->err;
	z_free(z);
	errno = err;
	return failed ? EOF : 0;
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
		     !ZSTD_isError(ZSTD_CCtx_setParameter(z->zc, ZSTD_c_compressionLevel, COMPRESS_LEVEL)) &&
		     (z->zbuf = malloc(z->zcap = ZSTD_compressBound(BLOCK))) != NULL;
	} else {
		/* windowBits 15 + 16: a gzip header and trailer */
		ok = deflateInit2(&z->gz, COMPRESS_LEVEL, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
	}
	for (int i = 0; i < NBLOCKS; i++)
		ok = ok && (z->block[i] = malloc(BLOCK)) != NULL;
	ok = ok && (z->inbuf = malloc(IN_BUFFER)) != NULL;
	pthread_mutex_init(&z->mu, NULL);
	pthread_cond_init(&z->cond, NULL);
	/* The thread takes no signals: Ctrl-C and the rest go to the thread
	 * that runs the simulation (cmd/run.c), and the thread's own writes see
	 * EPIPE or EFBIG rather than a handler's EINTR. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	z->started = ok && pthread_create(&z->thread, NULL, compressor, z) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	FILE *cf = z->started ? fopencookie(z, "w", (cookie_io_functions_t){ .write = z_write, .close = z_close }) : NULL;
	if (!cf) {
		z_free(z); /* a zeroed z_stream's deflateEnd is harmless */
		errno = ENOMEM;
		return NULL;
	}
	setvbuf(cf, z->inbuf, _IOFBF, IN_BUFFER);
	return cf;
}
