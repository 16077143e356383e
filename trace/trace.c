/* trace.c: the writer and its three formats (see trace.h). */
#include "trace.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct trace_writer {
	FILE *f;
	enum trace_format fmt;
	int failed;
	int64_t n;
};

static const char csv_header[] = "t,seq,ev,g,p,m,from,to,from_p,reason,victim,n,runnext,from_m,ran_us\n";

static int put(struct trace_writer *w, const char *s, size_t n)
{
	if (!w->failed && fwrite(s, 1, n, w->f) != n)
		w->failed = 1;
	return w->failed ? -1 : 0;
}

static const char *state_name(const struct sim_event *e, int v)
{
	if (e->ev == EV_G)
		return sim_place_name(v);
	return e->ev == EV_M ? sim_mstate_name(v) : sim_pstate_name(v);
}

int trace_event_json(char *buf, size_t len, const struct sim_event *e)
{
	int n = snprintf(buf, len, "{\"t\":%" PRId64 ",\"seq\":%" PRIu64 ",\"ev\":\"%s\",\"g\":%d,\"p\":%d,\"m\":%d",
			 e->t, e->seq, sim_ev_name(e->ev), e->g, e->p, e->m);
	size_t k = (size_t)n;
	if (n < 0 || k >= len)
		return -1;
	switch (e->ev) {
	case EV_G:
		n = snprintf(buf + k, len - k, ",\"from\":\"%s\",\"to\":\"%s\",\"from_p\":%d,\"reason\":\"%s\"}",
			     sim_place_name(e->from), sim_place_name(e->to), e->from_p, sim_reason_name(e->reason));
		break;
	case EV_STEAL:
		n = snprintf(buf + k, len - k, ",\"victim\":%d,\"n\":%d,\"runnext\":%d}", e->victim, e->n, e->runnext);
		break;
	case EV_SPILL:
		n = snprintf(buf + k, len - k, ",\"n\":%d}", e->n);
		break;
	case EV_HANDOFF:
		n = snprintf(buf + k, len - k, ",\"from_m\":%d}", e->from_m);
		break;
	case EV_PREEMPT:
		n = snprintf(buf + k, len - k, ",\"ran_us\":%" PRId64 "}", e->ran_us);
		break;
	default:
		n = snprintf(buf + k, len - k, ",\"from\":\"%s\",\"to\":\"%s\"}", state_name(e, e->from),
			     state_name(e, e->to));
	}
	return n < 0 || (size_t)n >= len - k ? -1 : (int)(k + (size_t)n);
}

static int event_csv(char *buf, size_t len, const struct sim_event *e)
{
	char from[16] = "", to[16] = "", from_p[16] = "", victim[16] = "", n[16] = "", rn[16] = "",
	     from_m[16] = "", ran[24] = "";
	const char *reason = "";
	if (e->ev == EV_G || e->ev == EV_M || e->ev == EV_P) {
		snprintf(from, sizeof from, "%s", state_name(e, e->from));
		snprintf(to, sizeof to, "%s", state_name(e, e->to));
	}
	if (e->ev == EV_G) {
		snprintf(from_p, sizeof from_p, "%d", e->from_p);
		reason = sim_reason_name(e->reason);
	}
	if (e->ev == EV_STEAL) {
		snprintf(victim, sizeof victim, "%d", e->victim);
		snprintf(rn, sizeof rn, "%d", e->runnext);
	}
	if (e->ev == EV_STEAL || e->ev == EV_SPILL)
		snprintf(n, sizeof n, "%d", e->n);
	if (e->ev == EV_HANDOFF)
		snprintf(from_m, sizeof from_m, "%d", e->from_m);
	if (e->ev == EV_PREEMPT)
		snprintf(ran, sizeof ran, "%" PRId64, e->ran_us);
	int k = snprintf(buf, len, "%" PRId64 ",%" PRIu64 ",%s,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", e->t,
			 e->seq, sim_ev_name(e->ev), e->g, e->p, e->m, from, to, from_p, reason, victim, n, rn,
			 from_m, ran);
	return k < 0 || (size_t)k >= len ? -1 : k;
}

struct trace_writer *trace_open(FILE *f, enum trace_format fmt, const char *config_json)
{
	struct trace_writer *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->f = f;
	w->fmt = fmt;
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

int trace_format_from_path(const char *path, enum trace_format *out)
{
	const char *dot = strrchr(path, '.');
	return dot && strchr(dot, '/') == NULL ? trace_format_parse(dot + 1, out) : -1;
}
