/* out.c: output files that never lose the user's data (see out.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "out.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_HOPS 40 /* symbolic links followed, as the kernel's ELOOP limit */

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

/* The directory part of path ("." for a bare name). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return dup_n(".", 1);
	return dup_n(path, slash == path ? 1 : (size_t)(slash - path));
}

/* Whether the link at path lives in /proc (/proc/self/fd/1, reached from
 * /dev/stdout or /dev/fd/1): it names an open descriptor, not a file. */
static int in_proc(const char *path)
{
	char *dir = dir_of(path), *real = dir ? realpath(dir, NULL) : NULL;
	int yes = real && strncmp(real, "/proc/", 6) == 0;
	free(dir);
	free(real);
	return yes;
}

/* Follows symbolic links from path to *target. *magic is set when a link
 * names a descriptor (/proc). Returns 0, or -1 with errno (ELOOP for a
 * loop) and o->why for a dangling link. */
static int resolve(struct out *o, const char *path, char **target, int *magic)
{
	char *cur = strdup(path);
	*magic = 0;
	for (int hops = 0; cur; hops++) {
		struct stat lst;
		int missing = lstat(cur, &lst) != 0;
		if (missing && (errno != ENOENT || hops > 0)) {
			if (errno == ENOENT)
				o->why = "a symbolic link to nothing (dangling); not writing through it, as cp does not";
			break;
		}
		if (missing || !S_ISLNK(lst.st_mode) || (*magic = in_proc(cur))) {
			*target = cur;
			return 0;
		}
		if (hops == MAX_HOPS) {
			errno = ELOOP;
			break;
		}
		char link[PATH_MAX];
		ssize_t n = readlink(cur, link, sizeof link - 1);
		if (n < 0)
			break;
		link[n] = 0;
		char *dir = dir_of(cur), *next = NULL;
		size_t len = (dir ? strlen(dir) : 0) + (size_t)n + 2;
		if (dir && link[0] != '/' && (next = malloc(len)))
			snprintf(next, len, "%s/%s", dir, link);
		else if (dir && link[0] == '/')
			next = strdup(link);
		free(dir);
		free(cur);
		cur = next;
		errno = next ? 0 : ENOMEM;
	}
	free(cur);
	return -1;
}

/* A temporary file in dir: "<name>.tmp.XXXXXX", the name cut so that the
 * whole fits NAME_MAX. */
static int make_tmp(struct out *o, const char *dir, const char *name)
{
	size_t keep = strlen(name), room = NAME_MAX - strlen(".tmp.XXXXXX");
	if (keep > room) {
		keep = room;
		while (keep > 0 && ((unsigned char)name[keep] & 0xc0) == 0x80)
			keep--; /* not inside a UTF-8 character */
	}
	size_t n = strlen(dir) + keep + 16;
	if (!(o->tmp = malloc(n)))
		return -1;
	snprintf(o->tmp, n, "%s/%.*s.tmp.XXXXXX", dir, (int)keep, name);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		errno = e;
	}
	return fd;
}

/* The new file gets the old one's mode, owner and group (as far as we may
 * set them), or the usual 0666 less umask for a new file. */
static int set_mode(int fd, const struct stat *old)
{
	if (!old) {
		mode_t mask = umask(0);
		umask(mask);
		return fchmod(fd, 0666 & ~mask); /* mkstemp makes it 0600 */
	}
	if (fchown(fd, old->st_uid, old->st_gid) != 0 && fchown(fd, (uid_t)-1, old->st_gid) != 0)
		errno = 0; /* not permitted: ours it stays */
	return fchmod(fd, old->st_mode & 07777);
}

static int open_tmp(struct out *o, const struct stat *old)
{
	char *dir = dir_of(o->target);
	const char *slash = strrchr(o->target, '/');
	if (!dir)
		return -1;
	int fd = make_tmp(o, dir, slash ? slash + 1 : o->target);
	free(dir);
	if (fd < 0 && errno == EACCES && old) {
		/* a directory we may not write, a file we may: copy back on commit */
		const char *tmpdir = getenv("TMPDIR");
		fd = make_tmp(o, tmpdir && *tmpdir ? tmpdir : "/tmp", "gosim-trace");
		o->copy_back = 1;
	}
	if (fd >= 0 && set_mode(fd, old) != 0) {
		close(fd);
		fd = -1;
		unlink(o->tmp);
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		errno = e;
		return -1;
	}
	return 0;
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The target is the file our stdout is open on (/dev/stdout, or
 * --trace=t.json >t.json): write it as "-", through stdout, so the two
 * never overwrite each other (the summary then goes to stderr). */
static int open_our_stdout(struct out *o, const struct stat *st)
{
	struct stat out;
	if (fstat(STDOUT_FILENO, &out) != 0 || !same_file(st, &out))
		return -1;
	o->f = stdout;
	o->to_stdout = 1;
	return 0;
}

/* Writes in place: a device, a FIFO, a descriptor through /proc. */
static int open_in_place(struct out *o, const struct stat *st)
{
	if (open_our_stdout(o, st) == 0)
		return 0;
	o->f = fopen(o->target, "w");
	return o->f ? 0 : -1;
}

static int open_target(struct out *o, const char *path, const struct stat *inputs, int n)
{
	if (strcmp(path, "-") == 0) {
		o->f = stdout;
		o->to_stdout = 1;
		return 0;
	}
	int magic;
	if (resolve(o, path, &o->target, &magic) != 0)
		return -1;
	struct stat st;
	if (stat(o->target, &st) != 0) {
		if (errno != ENOENT || magic)
			return -1;
		return open_tmp(o, NULL); /* a new file */
	}
	for (int i = 0; i < n; i++)
		if (same_file(&st, &inputs[i])) {
			o->why = "is an input of this run (the -w file); refusing to overwrite it";
			return -1;
		}
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	if (magic || !S_ISREG(st.st_mode))
		return open_in_place(o, &st);
	if (open_our_stdout(o, &st) == 0)
		return 0;
	if (access(o->target, W_OK) != 0)
		return -1; /* write-protected: cp refuses too (root may) */
	o->copy_back = st.st_nlink > 1;
	return open_tmp(o, &st);
}

int out_open(struct out *o, const char *path, const struct stat *inputs, int n)
{
	*o = (struct out){ .path = path };
	if (open_target(o, path, inputs, n) == 0)
		return 0;
	int e = errno;
	free(o->target);
	o->target = NULL;
	errno = e;
	return -1;
}

int out_is_stdout(const char *path)
{
	struct stat st, so;
	return strcmp(path, "-") == 0 ||
	       (stat(path, &st) == 0 && fstat(STDOUT_FILENO, &so) == 0 && same_file(&st, &so));
}

int out_is_stream(const char *path)
{
	if (strcmp(path, "-") == 0)
		return 1;
	struct out o = { 0 };
	char *target = NULL;
	int magic, stream = 0;
	struct stat st;
	if (resolve(&o, path, &target, &magic) == 0)
		stream = magic || (stat(target, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode));
	free(target);
	return stream;
}

/* Copies the finished temporary file into the target's own inode. */
static int copy_into(const char *from, const char *to)
{
	int in = open(from, O_RDONLY), outfd = in >= 0 ? open(to, O_WRONLY | O_TRUNC) : -1;
	char buf[1 << 16];
	ssize_t n = 0;
	while (outfd >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		for (ssize_t done = 0, w; done < n; done += w)
			if ((w = write(outfd, buf + done, (size_t)(n - done))) < 0) {
				n = -1;
				goto out;
			}
out:;
	int e = errno, rc = in < 0 || outfd < 0 || n < 0 ? -1 : 0;
	if (outfd >= 0 && close(outfd) != 0 && rc == 0)
		rc = -1, e = errno;
	if (in >= 0)
		close(in);
	errno = e;
	return rc;
}

int out_close(struct out *o, int commit)
{
	if (!o->f)
		return 0;
	int rc;
	if (o->to_stdout) {
		rc = fflush(stdout);
	} else if (!o->tmp) {
		rc = fclose(o->f);
	} else {
		rc = fclose(o->f);
		if (commit && rc == 0)
			rc = o->copy_back ? copy_into(o->tmp, o->target) : rename(o->tmp, o->target);
		if (o->copy_back || !commit || rc != 0) {
			int e = errno;
			unlink(o->tmp);
			errno = e;
		}
	}
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	o->f = NULL;
	return rc;
}
