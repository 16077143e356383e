/* json.c: the json back end: one document, {"gosim", "config", "events",
 * "summary"}, written as the run goes (docs/trace-format.md). */
#include <stdlib.h>
#include <string.h>

#include "backend.h"

struct json_state {
	struct trace_out *o;
	struct trace_json_fmt fmt;
};

static void *json_open(struct trace_out *o, const struct trace_meta *m)
{
	struct json_state *j = calloc(1, sizeof *j);
	if (!j)
		return NULL;
	j->o = o;
	if (trace_json_fmt_init(&j->fmt, o, m, 0) != 0) {
		trace_json_fmt_release(&j->fmt);
		free(j);
		return NULL;
	}
	char head[128];
	int n = snprintf(head, sizeof head, "{\"gosim\":{\"version\":\"%s\",\"schema\":%d},\"config\":",
			 GOSIM_VERSION, TRACE_SCHEMA);
	trace_out_put(o, head, (size_t)n);
	trace_out_puts(o, m->config_json ? m->config_json : "{}");
	trace_out_puts(o, ",\"events\":[\n");
	return j;
}

static int json_event(void *st, const struct sim_event *e)
{
	struct json_state *j = st;
	return trace_record_json(&j->fmt, e);
}

static int json_close(void *st, const struct sim_summary *sum)
{
	struct json_state *j = st;
	trace_out_puts(j->o, "\n],\"summary\":");
	char *s = sum ? trace_summary_json(sum) : NULL;
	int rc = sum && !s ? -1 : 0;
	trace_out_puts(j->o, s ? s : "null");
	free(s);
	trace_out_puts(j->o, "}\n");
	return rc;
}

static void json_release(void *st)
{
	struct json_state *j = st;
	if (j)
		trace_json_fmt_release(&j->fmt);
	free(j);
}

static const char *const json_suffixes[] = { ".json", NULL };

const struct trace_ops trace_json_ops = {
	.name = "json", .suffixes = json_suffixes,
	.open = json_open, .event = json_event, .close = json_close, .release = json_release, .direct = 1,
};
