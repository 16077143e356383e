/* compare.c: `gosim compare A.json B.json`: two --report=json outputs (or
 * two sweep tables from --report=json) side by side, each figure with the
 * ratio B/A and the change, as benchstat puts two benchmark runs side by
 * side. Figures are the numeric leaves of the documents, named by their
 * path (latency.p99_us, procs.P0.busy_us, counters.steals, ...); the
 * per-goroutine list, the long-wait lists and the config are left out
 * (goroutine ids do not match across configurations). */
#include "compare.h"

#include <jansson.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "msg.h"

struct fig {
	char name[256];
	json_int_t v;
	int null;
};

struct figs {
	struct fig *a;
	size_t n, cap;
};

static int add(struct figs *f, const char *name, json_t *v)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 256;
		struct fig *a = realloc(f->a, cap * sizeof *a);
		if (!a)
			return -1;
		f->a = a;
		f->cap = cap;
	}
	struct fig *x = &f->a[f->n++];
	snprintf(x->name, sizeof x->name, "%s", name);
	x->null = json_is_null(v);
	x->v = json_is_integer(v) ? json_integer_value(v) : 0;
	return 0;
}

static int skipped(const char *path)
{
	static const char *const skip[] = { "goroutines", "long_waits.list", "why", "config", "report.schema",
					    "report.seed" };
	for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
		if (strcmp(path, skip[i]) == 0)
			return 1;
	return 0;
}

/* Depth-first over objects, iteratively: the documents are ours, but a
 * file given by a user may nest deeply. */
static int flatten(struct figs *f, json_t *root, const char *prefix)
{
	struct item {
		json_t *v;
		char path[256];
	};
	size_t cap = 64, n = 0;
	struct item *st = malloc(cap * sizeof *st);
	if (!st)
		return -1;
	st[n].v = root;
	snprintf(st[n++].path, sizeof st->path, "%s", prefix);
	while (n > 0) {
		struct item it = st[--n];
		if (json_is_integer(it.v) || json_is_null(it.v)) {
			if (add(f, it.path, it.v) != 0)
				return free(st), -1;
			continue;
		}
		if (!json_is_object(it.v))
			continue;
		size_t base = n;
		const char *key;
		json_t *v;
		json_object_foreach(it.v, key, v) {
			char path[256];
			int len = snprintf(path, sizeof path, "%s%s%s", it.path, *it.path ? "." : "", key);
			if (len < 0 || len >= (int)sizeof path || skipped(path))
				continue; /* a name too long to be one of ours */
			if (n == cap) {
				struct item *ns = realloc(st, (cap *= 2) * sizeof *st);
				if (!ns)
					return free(st), -1;
				st = ns;
			}
			st[n].v = v;
			snprintf(st[n++].path, sizeof st->path, "%s", path);
		}
		for (size_t i = base, j = n; i + 1 < j; i++, j--) { /* pop in document order */
			struct item tmp = st[i];
			st[i] = st[j - 1];
			st[j - 1] = tmp;
		}
	}
	free(st);
	return 0;
}

/* A sweep's rows are named by their configuration. */
static int flatten_sweep(struct figs *f, json_t *rows)
{
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row) {
		char label[200];
		snprintf(label, sizeof label, "procs=%lld", (long long)json_integer_value(json_object_get(row, "procs")));
		const char *key;
		json_t *v;
		json_object_foreach(json_object_get(row, "defines"), key, v) {
			size_t used = strlen(label);
			snprintf(label + used, sizeof label - used, " %s=%s", key,
				 json_string_value(v) ? json_string_value(v) : "?");
		}
		json_t *copy = json_deep_copy(row);
		if (!copy)
			return -1;
		json_object_del(copy, "procs");
		json_object_del(copy, "defines");
		int rc = flatten(f, copy, label);
		json_decref(copy);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static json_t *load(const char *path, struct figs *f)
{
	json_error_t e;
	json_t *root = json_load_file(path, 0, &e);
	if (!root) {
		msg_error("compare: %s:%d:%d: %s", path, e.line, e.column, e.text);
		return NULL;
	}
	json_t *sw = json_object_get(root, "sweep");
	int rc;
	if (json_is_object(json_object_get(root, "report")))
		rc = flatten(f, root, "");
	else if (json_is_array(json_object_get(sw, "rows")))
		rc = flatten_sweep(f, json_object_get(sw, "rows"));
	else {
		msg_error("compare: %s: not a gosim --report=json output (no \"report\" or \"sweep\" object)", path);
		json_decref(root);
		return NULL;
	}
	if (rc != 0) {
		msg_error("compare: out of memory");
		json_decref(root);
		return NULL;
	}
	return root;
}

static const struct fig *find(const struct figs *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->a[i].name, name) == 0)
			return &f->a[i];
	return NULL;
}

static void cell(char *b, size_t n, const struct fig *x)
{
	if (!x || x->null)
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%lld", (long long)x->v);
}

static void row(const char *name, const struct fig *a, const struct fig *b, int *same)
{
	char ca[32], cb[32], ratio[48];
	cell(ca, sizeof ca, a);
	cell(cb, sizeof cb, b);
	if (!a || !b || a->null || b->null)
		ratio[0] = 0;
	else if (a->v == b->v) {
		snprintf(ratio, sizeof ratio, "~");
		(*same)++;
	} else if (a->v == 0)
		snprintf(ratio, sizeof ratio, "(A is 0)");
	else {
		double r = (double)b->v / (double)a->v;
		snprintf(ratio, sizeof ratio, "%.3gx  %+.1f%%", r, (r - 1) * 100);
	}
	printf("  %-44s %14s %14s  %s\n", name, ca, cb, ratio);
}

static void title(const char *tag, const char *path, json_t *root)
{
	json_t *rep = json_object_get(root, "report");
	if (rep)
		printf("%s: %s: %s, %lld P, seed %lld\n", tag, path, json_string_value(json_object_get(rep, "workload")),
		       (long long)json_integer_value(json_object_get(rep, "procs")),
		       (long long)json_integer_value(json_object_get(rep, "seed")));
	else
		printf("%s: %s: sweep of %s\n", tag, path,
		       json_string_value(json_object_get(json_object_get(root, "sweep"), "workload")));
}

int compare_main(int argc, char **argv)
{
	if (argc != 3) {
		msg_usage("compare: expected two files: gosim compare A.json B.json (--report=json outputs)");
		return EXIT_USAGE;
	}
	struct figs fa = { 0 }, fb = { 0 };
	json_t *a = load(argv[1], &fa), *b = a ? load(argv[2], &fb) : NULL;
	int rc = EXIT_USAGE;
	if (a && b) {
		title("A", argv[1], a);
		title("B", argv[2], b);
		printf("  %-44s %14s %14s  %s\n", "figure", "A", "B", "B/A");
		int same = 0;
		for (size_t i = 0; i < fa.n; i++)
			row(fa.a[i].name, &fa.a[i], find(&fb, fa.a[i].name), &same);
		for (size_t i = 0; i < fb.n; i++)
			if (!find(&fa, fb.a[i].name))
				row(fb.a[i].name, NULL, &fb.a[i], &same);
		printf("(~: equal; %d of the figures are)\n", same);
		rc = fflush(stdout) == 0 && !ferror(stdout) ? 0 : EXIT_USAGE;
	}
	json_decref(a);
	json_decref(b);
	free(fa.a);
	free(fb.a);
	return rc;
}
