/* test_schedtrace.c: gosim's SCHED lines have the bytes of the runtime's,
 * checked against real captures from Go 1.19 and 1.23
 * (tests/data/schedtrace, copied from shared/reference/schedtrace). */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../trace/schedtrace.h"
#include "helpers.h"

struct st_ctx {
	FILE *f;
	enum schedtrace_family fam;
	int detail;
};

static int st_sink(void *ctx, const struct sim *s)
{
	struct st_ctx *c = ctx;
	return schedtrace_print(c->f, s, c->fam, c->detail);
}

/* Runs a built-in workload with --schedtrace=ms; returns the text. */
static char *schedtrace_of(const char *name, int procs, int ms, enum schedtrace_family fam, int detail)
{
	char *buf = NULL;
	size_t len = 0;
	struct st_ctx c = { open_memstream(&buf, &len), fam, detail };
	struct program *p = load_builtin(name, NULL);
	struct sim_config cfg = test_config(procs);
	cfg.schedtrace_ms = ms;
	struct sim_sink sink = { .ctx = &c, .schedtrace = st_sink };
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, &sink, &err);
	cr_assert_eq(sim_run(s), SIM_DONE);
	sim_free(s);
	program_free(p);
	fclose(c.f);
	return buf;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "cannot open %s (run the tests from the repository root)", path);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* A line's shape: every integer replaced by '#'. */
static void shape(const char *line, char *out, size_t n)
{
	size_t k = 0;
	for (const char *p = line; *p && *p != '\n' && k + 2 < n;) {
		if (isdigit((unsigned char)*p) || (*p == '-' && isdigit((unsigned char)p[1]))) {
			out[k++] = '#';
			p++;
			while (isdigit((unsigned char)*p))
				p++;
		} else {
			out[k++] = *p++;
		}
	}
	out[k] = 0;
}

/* The line kind: 'S' header, 'P', 'M', 'G'. */
static char kind(const char *line)
{
	return strncmp(line, "SCHED", 5) == 0 ? 'S' : line[2];
}

/* A value's class: its shape, with any "(text)" reduced to "(..)". */
static void value_class(const char *v, size_t n, char *out, size_t cap)
{
	char tmp[256];
	snprintf(tmp, sizeof tmp, "%.*s", (int)n, v);
	shape(tmp, out, cap);
	char *open = strchr(out, '(');
	if (open && open[1] != ')')
		strcpy(open, "(..)");
}

/* Whether capture line t has key `key` with a value of class `cls`. */
static int has_key_class(const char *t, const char *key, const char *cls)
{
	char pat[80], c[256];
	snprintf(pat, sizeof pat, " %s=", key);
	const char *k = strstr(t, pat);
	if (!k || k > strchr(t, '\n'))
		return 0;
	k += strlen(pat);
	value_class(k, strcspn(k, " \n"), c, sizeof c);
	return strcmp(c, cls) == 0;
}

/* The keys of a line, in order ("status schedtick ..."). */
static void keys_of(const char *l, char *out, size_t cap)
{
	size_t k = 0;
	for (const char *p = l; *p && *p != '\n'; p++)
		if (*p == '=') {
			const char *b = p;
			while (b > l && b[-1] != ' ')
				b--;
			k += (size_t)snprintf(out + k, cap - k, "%.*s ", (int)(p - b), b);
		}
	out[k] = 0;
}

/* Header lines must match a capture header's shape exactly; P, M and G
 * lines must have a capture line's keys in the same order, each value of a
 * class (number, nil, true/false, empty, number(reason)) that the capture
 * shows for that key. */
static void assert_lines_like(const char *ours, const char *theirs, const char *what)
{
	char a[1024], b[1024];
	for (const char *l = ours; *l; l = strchr(l, '\n') + 1) {
		int found = 0;
		shape(l, a, sizeof a);
		if (kind(l) != 'S')
			keys_of(l, a, sizeof a);
		for (const char *t = theirs; *t && !found; t = strchr(t, '\n') + 1) {
			if (kind(t) != kind(l))
				continue;
			if (kind(l) == 'S')
				shape(t, b, sizeof b);
			else
				keys_of(t, b, sizeof b);
			found = strcmp(a, b) == 0;
		}
		cr_assert(found, "%s: no line of the capture is like\n%.*s", what, (int)strcspn(l, "\n"), l);
		if (kind(l) == 'S')
			continue;
		const char *eol = strchr(l, '\n');
		for (const char *p = strchr(l, ':') + 1; p && p < eol; p = strchr(p + 1, ' ')) {
			char key[64], cls[256];
			const char *eq = strchr(p, '=');
			if (!eq || eq > eol || (size_t)(eq - p) > strcspn(p + 1, " \n"))
				continue; /* a space inside a wait reason */
			snprintf(key, sizeof key, "%.*s", (int)(eq - p - 1) & 63, p + 1);
			value_class(eq + 1, strcspn(eq + 1, " \n"), cls, sizeof cls);
			int seen = 0;
			for (const char *t = theirs; *t && !seen; t = strchr(t, '\n') + 1)
				seen = kind(t) == kind(l) && has_key_class(t, key, cls);
			cr_assert(seen, "%s: the capture never prints %s=%s in\n%.*s", what, key, cls,
				  (int)strcspn(l, "\n"), l);
		}
	}
}

/* All captures of one release: a runtime line may appear in one program's
 * capture and not another's. */
static char *captures_of(const char *prefix)
{
	static const char *const files[] = {
		"go1.19-fanout-48x1ms-gomaxprocs2.txt", "go1.19-syscalls-8x10ms-gomaxprocs2.txt",
		"go1.19-syscalls-detail-gomaxprocs2.txt", "go1.19-tightloop-detail-gomaxprocs1.txt",
		"go1.23-pingpong-detail-gomaxprocs2.txt", "go1.23-spawn-gomaxprocs2.txt",
		"go1.23-syscalls-8x10ms-gomaxprocs2.txt", "go1.23-syscalls-detail-gomaxprocs2.txt",
	};
	char *all = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&all, &len);
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		if (strncmp(files[i], prefix, strlen(prefix)) != 0)
			continue;
		char path[256];
		snprintf(path, sizeof path, "tests/data/schedtrace/%s", files[i]);
		char *t = slurp(path);
		fputs(t, m);
		free(t);
	}
	fclose(m);
	return all;
}

static void check_capture(const char *file, const char *workload, int procs, enum schedtrace_family fam, int detail)
{
	char prefix[8];
	snprintf(prefix, sizeof prefix, "%.6s", file);
	char *theirs = captures_of(prefix);
	char *ours = schedtrace_of(workload, procs, 1, fam, detail);
	cr_assert_gt(strlen(ours), 0);
	cr_assert_eq(strncmp(ours, "SCHED 0ms: ", 11), 0, "the first line is SCHED 0ms");
	assert_lines_like(ours, theirs, file);
	free(theirs);
	free(ours);
}

Test(schedtrace, go119_lines_have_the_shape_of_real_go119_output)
{
	check_capture("go1.19-fanout-48x1ms-gomaxprocs2.txt", "fanout", 2, SCHEDTRACE_GO119, 0);
	check_capture("go1.19-syscalls-8x10ms-gomaxprocs2.txt", "syscalls", 2, SCHEDTRACE_GO119, 0);
	check_capture("go1.19-syscalls-detail-gomaxprocs2.txt", "syscalls", 2, SCHEDTRACE_GO119, 1);
	check_capture("go1.19-tightloop-detail-gomaxprocs1.txt", "tightloop", 1, SCHEDTRACE_GO119, 1);
}

Test(schedtrace, go123_lines_have_the_shape_of_real_go123_output)
{
	check_capture("go1.23-syscalls-8x10ms-gomaxprocs2.txt", "syscalls", 2, SCHEDTRACE_GO121, 0);
	check_capture("go1.23-syscalls-detail-gomaxprocs2.txt", "syscalls", 2, SCHEDTRACE_GO121, 1);
	check_capture("go1.23-pingpong-detail-gomaxprocs2.txt", "pingpong", 2, SCHEDTRACE_GO121, 1);
	check_capture("go1.23-spawn-gomaxprocs2.txt", "fanout", 2, SCHEDTRACE_GO121, 0);
}

Test(schedtrace, per_p_counts_exclude_runnext)
{
	/* tightloop at the first pass: main runs, G2 and G3 in the ring, G4
	 * in runnext. */
	char *ours = schedtrace_of("tightloop", 1, 1000, SCHEDTRACE_GO119, 0);
	cr_assert_str_eq(ours, "SCHED 0ms: gomaxprocs=1 idleprocs=0 threads=2 spinningthreads=0 idlethreads=0 runqueue=0 [2]\n");
	free(ours);
}

Test(schedtrace, go125_spaces_the_brackets_and_adds_schedticks)
{
	char *ours = schedtrace_of("fanout", 2, 1000, SCHEDTRACE_GO125, 0);
	char line[256];
	snprintf(line, sizeof line, "%.*s", (int)strcspn(ours, "\n"), ours);
	cr_assert_str_eq(line, "SCHED 0ms: gomaxprocs=2 idleprocs=0 threads=3 spinningthreads=0 needspinning=0 "
			       "idlethreads=0 runqueue=0 [ 23 23 ] schedticks=[ 1 1 ]");
	free(ours);
}

Test(schedtrace, lines_come_every_period_from_sysmon_passes)
{
	char *ours = schedtrace_of("tightloop", 1, 10, SCHEDTRACE_GO119, 0);
	int n = 0;
	for (char *l = ours; *l; l = strchr(l, '\n') + 1, n++) {
		char want[32];
		snprintf(want, sizeof want, "SCHED %dms:", n * 10);
		cr_assert_eq(strncmp(l, want, strlen(want)), 0, "line %d: %.40s", n, l);
	}
	cr_assert_eq(n, 5, "0..40 ms of a 43 ms run");
	free(ours);
}

Test(schedtrace, versions_map_to_their_format_families)
{
	enum schedtrace_family f;
	cr_assert_eq(schedtrace_family("1.19", &f), 0);
	cr_assert_eq(f, SCHEDTRACE_GO119);
	cr_assert_eq(schedtrace_family("1.20.4", &f), 0);
	cr_assert_eq(f, SCHEDTRACE_GO119);
	cr_assert_eq(schedtrace_family("1.23", &f), 0);
	cr_assert_eq(f, SCHEDTRACE_GO121);
	cr_assert_eq(schedtrace_family("1.25", &f), 0);
	cr_assert_eq(f, SCHEDTRACE_GO125);
	cr_assert_neq(schedtrace_family("1.18", &f), 0);
	cr_assert_neq(schedtrace_family("2.0", &f), 0);
	cr_assert_neq(schedtrace_family("1.x", &f), 0);
	cr_assert_neq(schedtrace_family("1.21.", &f), 0);
}
