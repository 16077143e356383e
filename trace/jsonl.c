/* jsonl.c: the jsonl back end: one record per line, events only
 * (docs/trace-format.md). */
#include <stdlib.h>

#include "backend.h"

static void *jsonl_open(struct trace_out *o, const struct trace_meta *m)
{
	(void)m;
	return o;
}

static int jsonl_event(void *st, const struct sim_event *e)
{
	char buf[TRACE_MAX_RECORD + 8];
	int n = trace_event_json(buf, sizeof buf - 1, e);
	if (n < 0)
		return -1;
	buf[n++] = '\n';
	return trace_out_put(st, buf, (size_t)n);
}

static int jsonl_close(void *st, const struct sim_summary *sum)
{
	(void)st;
	(void)sum;
	return 0;
}

static void jsonl_release(void *st) { (void)st; }

static const char *const jsonl_suffixes[] = { ".jsonl", NULL };

const struct trace_ops trace_jsonl_ops = {
	.name = "jsonl", .suffixes = jsonl_suffixes,
	.open = jsonl_open, .event = jsonl_event, .close = jsonl_close, .release = jsonl_release,
};
