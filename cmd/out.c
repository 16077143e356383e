/* out.c: output files that never lose the user's data (see out.h). */
#include "out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int out_open(struct out *o, const char *path)
{
	o->path = path;
	if (strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* /dev/null, a FIFO, a terminal: write straight to it; never
		 * rename a temporary file over it */
		o->f = fopen(path, "w");
		return o->f ? 0 : -1;
	}
	size_t n = strlen(path) + 16;
	if (!(o->tmp = malloc(n)))
		return -1;
	snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(o->tmp);
	mode_t mask = umask(0);
	umask(mask);
	if (fd >= 0 && fchmod(fd, 0666 & ~mask) != 0) { /* mkstemp makes it 0600 */
		close(fd);
		unlink(o->tmp);
		fd = -1;
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	return 0;
}

int out_is_stream(const char *path)
{
	struct stat st;
	return strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode));
}

/* Closes the file; commit renames it into place, else it is removed. */
int out_close(struct out *o, int commit)
{
	if (!o->f)
		return 0;
	int rc = 0;
	if (o->f != stdout && !o->tmp) {
		rc = fclose(o->f);
	} else if (o->f != stdout) {
		rc = fclose(o->f);
		if (commit && rc == 0)
			rc = rename(o->tmp, o->path);
		if (!commit || rc != 0) {
			int e = errno;
			unlink(o->tmp);
			errno = e;
		}
		free(o->tmp);
		o->tmp = NULL;
	} else {
		rc = fflush(stdout);
	}
	o->f = NULL;
	return rc;
}

