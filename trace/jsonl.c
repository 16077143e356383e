/* jsonl.c: the jsonl back end: one record per line, events only
 * (docs/trace-format.md). */
#include <stdlib.h>

#include "backend.h"

struct jsonl_state {
	struct trace_out *o;
	struct trace_json_fmt fmt;
};

static void *jsonl_open(struct trace_out *o, const struct trace_meta *m)
{
	struct jsonl_state *j = calloc(1, sizeof *j);
	if (!j)
		return NULL;
	j->o = o;
	if (trace_json_fmt_init(&j->fmt, o, m, 1) != 0) {
		trace_json_fmt_release(&j->fmt);
		free(j);
		return NULL;
	}
	return j;
}

static int jsonl_event(void *st, const struct sim_event *e)
{
	struct jsonl_state *j = st;
	return trace_record_json(&j->fmt, e);
}

static int jsonl_close(void *st, const struct sim_summary *sum)
{
	(void)st;
	(void)sum;
	return 0;
}

static void jsonl_release(void *st)
{
	struct jsonl_state *j = st;
	if (j)
		trace_json_fmt_release(&j->fmt);
	free(j);
}

static const char *const jsonl_suffixes[] = { ".jsonl", NULL };

const struct trace_ops trace_jsonl_ops = {
	.name = "jsonl", .suffixes = jsonl_suffixes,
	.open = jsonl_open, .event = jsonl_event, .close = jsonl_close, .release = jsonl_release, .direct = 1,
};
