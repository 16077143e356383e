/* trace.c: the writer and its three formats (see trace.h). */
#include "trace.h"

#include <inttypes.h>
#include <stdint.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct trace_writer {
	FILE *f;
	enum trace_format fmt;
	int failed;
	int64_t n;
	int64_t bytes;
};

static const char csv_header[] = "t,seq,ev,g,p,m,from,to,from_p,reason,victim,n,runnext,from_m,ran_us\n";

static int put(struct trace_writer *w, const char *s, size_t n)
{
	if (!w->failed && fwrite(s, 1, n, w->f) != n)
		w->failed = 1;
	w->bytes += (int64_t)n;
	return w->failed ? -1 : 0;
}

int64_t trace_bytes(const struct trace_writer *w) { return w ? w->bytes : 0; }

static const char *state_name(const struct sim_event *e, int v)
{
	if (e->ev == EV_G)
		return sim_place_name(v);
	return e->ev == EV_M ? sim_mstate_name(v) : sim_pstate_name(v);
}

/* A tiny appender: records are built with these instead of snprintf,
 * which was most of the cost of writing a trace. The caller's buffer has
 * room for the longest record. */
static char *put_s(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

static char *put_i(char *p, int64_t v)
{
	char tmp[24];
	int n = 0;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	if (v < 0)
		*p++ = '-';
	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

static char *put_kv_i(char *p, const char *key, int64_t v) { return put_i(put_s(p, key), v); }

static char *put_kv_s(char *p, const char *key, const char *v)
{
	p = put_s(put_s(p, key), v);
	*p++ = '"';
	return p;
}

#define MAX_RECORD 400 /* longer than any record: 15 fields of at most 20 chars */

int trace_event_json(char *buf, size_t len, const struct sim_event *e)
{
	if (len < MAX_RECORD)
		return -1;
	char *p = put_kv_i(buf, "{\"t\":", e->t);
	p = put_kv_i(p, ",\"seq\":", (int64_t)e->seq);
	p = put_kv_s(p, ",\"ev\":\"", sim_ev_name(e->ev));
	p = put_kv_i(p, ",\"g\":", e->g);
	p = put_kv_i(p, ",\"p\":", e->p);
	p = put_kv_i(p, ",\"m\":", e->m);
	switch (e->ev) {
	case EV_G:
		p = put_kv_s(p, ",\"from\":\"", sim_place_name(e->from));
		p = put_kv_s(p, ",\"to\":\"", sim_place_name(e->to));
		p = put_kv_i(p, ",\"from_p\":", e->from_p);
		p = put_kv_s(p, ",\"reason\":\"", sim_reason_name(e->reason));
		break;
	case EV_STEAL:
		p = put_kv_i(p, ",\"victim\":", e->victim);
		p = put_kv_i(p, ",\"n\":", e->n);
		p = put_kv_i(p, ",\"runnext\":", e->runnext);
		break;
	case EV_SPILL:
		p = put_kv_i(p, ",\"n\":", e->n);
		break;
	case EV_HANDOFF:
		p = put_kv_i(p, ",\"from_m\":", e->from_m);
		break;
	case EV_PREEMPT:
		p = put_kv_i(p, ",\"ran_us\":", e->ran_us);
		break;
	default:
		p = put_kv_s(p, ",\"from\":\"", state_name(e, e->from));
		p = put_kv_s(p, ",\"to\":\"", state_name(e, e->to));
	}
	*p++ = '}';
	return (int)(p - buf);
}

/* CSV: t,seq,ev,g,p,m,from,to,from_p,reason,victim,n,runnext,from_m,ran_us */
static int event_csv(char *buf, size_t len, const struct sim_event *e)
{
	if (len < MAX_RECORD)
		return -1;
	char *p = put_i(buf, e->t);
	*p++ = ',';
	p = put_i(p, (int64_t)e->seq);
	*p++ = ',';
	p = put_s(p, sim_ev_name(e->ev));
	*p++ = ',';
	p = put_i(p, e->g);
	*p++ = ',';
	p = put_i(p, e->p);
	*p++ = ',';
	p = put_i(p, e->m);
	*p++ = ',';
	int state = e->ev == EV_G || e->ev == EV_M || e->ev == EV_P;
	if (state)
		p = put_s(p, state_name(e, e->from));
	*p++ = ',';
	if (state)
		p = put_s(p, state_name(e, e->to));
	*p++ = ',';
	if (e->ev == EV_G)
		p = put_s(put_i(p, e->from_p), ",");
	else
		*p++ = ',';
	if (e->ev == EV_G)
		p = put_s(p, sim_reason_name(e->reason));
	*p++ = ',';
	if (e->ev == EV_STEAL)
		p = put_i(p, e->victim);
	*p++ = ',';
	if (e->ev == EV_STEAL || e->ev == EV_SPILL)
		p = put_i(p, e->n);
	*p++ = ',';
	if (e->ev == EV_STEAL)
		p = put_i(p, e->runnext);
	*p++ = ',';
	if (e->ev == EV_HANDOFF)
		p = put_i(p, e->from_m);
	*p++ = ',';
	if (e->ev == EV_PREEMPT)
		p = put_i(p, e->ran_us);
	*p++ = '\n';
	return (int)(p - buf);
}

struct trace_writer *trace_open(FILE *f, enum trace_format fmt, const char *config_json)
{
	struct trace_writer *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->f = f;
	w->fmt = fmt;
	setvbuf(f, NULL, _IOFBF, 1 << 20); /* before the first write: fewer, larger writes */
	if (fmt == TRACE_CSV) {
		put(w, csv_header, sizeof csv_header - 1);
	} else if (fmt == TRACE_JSON) {
		char head[128];
		int n = snprintf(head, sizeof head, "{\"gosim\":{\"version\":\"%s\",\"schema\":%d},\"config\":",
				 GOSIM_VERSION, TRACE_SCHEMA);
		put(w, head, (size_t)n);
		put(w, config_json ? config_json : "{}", strlen(config_json ? config_json : "{}"));
		put(w, ",\"events\":[\n", 12);
	}
	return w;
}

int trace_event(struct trace_writer *w, const struct sim_event *e)
{
	char buf[512];
	int n;
	if (w->fmt == TRACE_CSV) {
		n = event_csv(buf, sizeof buf, e);
	} else {
		size_t off = w->fmt == TRACE_JSON && w->n > 0 ? 2 : 0;
		memcpy(buf, ",\n", off);
		n = trace_event_json(buf + off, sizeof buf - off - 1, e);
		if (n >= 0) {
			n += (int)off;
			if (w->fmt == TRACE_JSONL)
				buf[n++] = '\n';
		}
	}
	w->n++;
	return n < 0 ? -1 : put(w, buf, (size_t)n);
}

char *trace_summary_json(const struct sim_summary *sum)
{
	char fp[17];
	snprintf(fp, sizeof fp, "%016" PRIx64, sum->fingerprint);
	json_t *busy = json_array();
	for (int i = 0; i < sum->procs; i++)
		json_array_append_new(busy, json_integer(sum->busy_us[i]));
	json_t *o = json_pack("{sI sI sI sI sI sI sI sI sI so ss}", "makespan_us", (json_int_t)sum->makespan_us,
			      "goroutines", (json_int_t)sum->goroutines, "threads_peak",
			      (json_int_t)sum->threads_peak, "steals", (json_int_t)sum->steals, "stolen",
			      (json_int_t)sum->stolen, "handoffs", (json_int_t)sum->handoffs, "preemptions",
			      (json_int_t)sum->preemptions, "spills", (json_int_t)sum->spills, "events",
			      (json_int_t)sum->events, "busy_us", busy, "fingerprint", fp);
	if (!o)
		return NULL;
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}

int trace_finish(struct trace_writer *w, const struct sim_summary *sum)
{
	if (w->fmt == TRACE_JSON) {
		put(w, "\n],\"summary\":", 13);
		char *s = sum ? trace_summary_json(sum) : NULL;
		if (sum && !s)
			w->failed = 1;
		put(w, s ? s : "null", strlen(s ? s : "null"));
		free(s);
		put(w, "}\n", 2);
	}
	if (!w->failed && fflush(w->f) != 0)
		w->failed = 1;
	return w->failed ? -1 : 0;
}

void trace_free(struct trace_writer *w) { free(w); }

int trace_format_parse(const char *name, enum trace_format *out)
{
	static const struct { const char *name; enum trace_format fmt; } names[] = {
		{ "json", TRACE_JSON }, { "jsonl", TRACE_JSONL }, { "csv", TRACE_CSV },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i].name) == 0) {
			*out = names[i].fmt;
			return 0;
		}
	return -1;
}

/* The extension, case-insensitively: T.CSV is CSV. */
int trace_format_from_path(const char *path, enum trace_format *out)
{
	const char *dot = strrchr(path, '.');
	char ext[16];
	size_t i = 0;
	if (!dot || strchr(dot, '/'))
		return -1;
	for (dot++; dot[i] && i + 1 < sizeof ext; i++)
		ext[i] = (char)(dot[i] >= 'A' && dot[i] <= 'Z' ? dot[i] - 'A' + 'a' : dot[i]);
	ext[i] = 0;
	return dot[i] ? -1 : trace_format_parse(ext, out);
}
