/* chrome.c: the chrome back end: Chrome Trace Event JSON, for Perfetto
 * (ui.perfetto.dev) and chrome://tracing (docs/trace-format.md).
 *
 * {"otherData": {"gosim", "config"}, "traceEvents": [...], "displayTimeUnit": "ms"},
 * written as the run goes; ts and dur are the model's microseconds.
 * - process 1 "Ps": one lane (thread) per P, an "X" slice per stint of a G
 *   on it, named "G<id> main.<function>";
 * - process 2 "Ms": one lane per M, an "X" slice per state it was in
 *   (running, spinning, syscall, idle); M1 is sysmon's lane;
 * - process 3 "Run queues": "C" counters for the global queue and each
 *   P's local queue (runnext included), at most one value per instant;
 * - flows ("s" then "f", bound to the enclosing slices): each steal from
 *   the victim's lane to the thief's, each handoff from the M in the
 *   syscall to the M given the P, each wake-up from the waker's P to
 *   where the woken G next runs (both halves written when it runs, so a
 *   G woken but never run before the end leaves no half a flow);
 * - instants ("i"): preemptions and spills on the P's lane, sysmon's
 *   retakes on sysmon's lane.
 * Lanes get their names (process_name, thread_name metadata) up front for
 * every P, and when an M first appears. A slice is written when it ends,
 * so slices on one lane never overlap; those still open at the end are
 * closed at the time of the last record. */
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "backend.h"

enum { PID_P = 1, PID_M = 2, PID_Q = 3 };
#define SYSMON_M 1 /* the model's convention: M0 the main thread, M1 sysmon */

struct ch_g {
	int64_t start;   /* running since, -1 if not running */
	int32_t p, fn;
	int64_t flow;    /* a wake-up flow waiting for its next start, 0 none */
	int64_t flow_t;  /* its wake-up's time and waker's P: the "s" half is */
	int32_t flow_p;  /* written with the "f", so a G never run leaves none */
	uint8_t why;     /* the reason it started running */
	uint8_t rule;    /* --explain: the rule that ran it */
};

struct ch_m {
	int64_t since;   /* in state since; -1: never seen */
	uint8_t state;   /* enum sim_mstate */
};

struct chrome {
	struct trace_out *o;
	int procs, nfuncs;
	char **fn_json;  /* each function's name as a JSON string, "main.<name>" quoted */
	struct ch_g *gs;
	int64_t ngs;
	struct ch_m *ms;
	int64_t nms;
	int64_t *qlen;   /* per P: runnext + ring */
	uint8_t *qdirty;
	int64_t glen;
	int gdirty, anydirty;
	int64_t t;       /* the current instant */
	int64_t flows;   /* flow ids handed out */
	int64_t n;       /* events written (for the commas) */
	int failed;
};

/* ---- output ------------------------------------------------------- */

static void put_ev(struct chrome *c, const char *s, size_t n)
{
	if (c->n++ > 0)
		trace_out_put(c->o, ",\n", 2);
	trace_out_put(c->o, s, n);
}

/* Most events fit a fixed buffer; names are written around it. */
#define CH_BUF 512

static void ev_fmt(struct chrome *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ev_fmt(struct chrome *c, const char *fmt, ...)
{
	char buf[CH_BUF];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof buf) {
		c->failed = 1;
		return;
	}
	put_ev(c, buf, (size_t)n);
}

static const char *fn_name(const struct chrome *c, int32_t fn)
{
	return fn >= 0 && fn < c->nfuncs ? c->fn_json[fn] : "\"?\"";
}

static struct ch_g *get_g(struct chrome *c, int32_t goid)
{
	if (goid < 0 || grow_array((void **)&c->gs, &c->ngs, (int64_t)(goid) + 1, sizeof *c->gs, 0xff) != 0)
		return NULL;
	return &c->gs[goid];
}

static struct ch_m *get_m(struct chrome *c, int32_t mi)
{
	if (mi < 0 || grow_array((void **)&c->ms, &c->nms, (int64_t)(mi) + 1, sizeof *c->ms, 0xff) != 0)
		return NULL;
	return &c->ms[mi];
}

/* ---- lanes ---------------------------------------------------------- */

static void name_thread(struct chrome *c, int pid, int tid, const char *name, int sort)
{
	ev_fmt(c, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}}", pid, tid,
	       name);
	ev_fmt(c, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}}",
	       pid, tid, sort);
}

static void name_process(struct chrome *c, int pid, const char *name)
{
	ev_fmt(c, "{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_name\",\"args\":{\"name\":\"%s\"}}", pid, name);
	ev_fmt(c, "{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%d}}", pid, pid);
}

static void m_seen(struct chrome *c, int32_t mi)
{
	struct ch_m *m = get_m(c, mi);
	if (!m) {
		c->failed = 1;
		return;
	}
	if (m->since >= 0 || m->state != 0xff)
		return;
	char name[32];
	snprintf(name, sizeof name, mi == SYSMON_M ? "M%d (sysmon)" : "M%d", (int)mi);
	name_thread(c, PID_M, (int)mi, name, (int)mi);
	m->since = c->t;
	m->state = MS_NEW;
}

/* The M's slice for the state it leaves, then the new state. */
static void m_state(struct chrome *c, int32_t mi, int to)
{
	m_seen(c, mi);
	struct ch_m *m = get_m(c, mi);
	if (!m)
		return;
	if (m->state != MS_NEW)
		ev_fmt(c, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%" PRId64 ",\"dur\":%" PRId64
			  ",\"name\":\"%s\",\"cat\":\"m\"}",
		       PID_M, (int)mi, m->since, c->t - m->since, sim_mstate_name(m->state));
	m->state = (uint8_t)to;
	m->since = c->t;
}

/* The slice of G goid's stint on its P, ending now. */
static void g_slice_end(struct chrome *c, int32_t goid, struct ch_g *g, const char *why)
{
	if (g->start < 0)
		return;
	char head[CH_BUF];
	int n = snprintf(head, sizeof head,
			 "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%" PRId64 ",\"dur\":%" PRId64
			 ",\"cat\":\"g\",\"name\":\"G%d ",
			 PID_P, (int)g->p, g->start, c->t - g->start, (int)goid);
	const char *fn = fn_name(c, g->fn);
	char tail[CH_BUF];
	int m = snprintf(tail, sizeof tail, ",\"args\":{\"g\":%d,\"start\":\"%s\",\"end\":\"%s\"%s%s%s}}", (int)goid,
			 sim_reason_name(g->why), why, g->rule ? ",\"rule\":\"" : "", g->rule ? sim_rule_name(g->rule) : "",
			 g->rule ? "\"" : "");
	if (c->n++ > 0)
		trace_out_put(c->o, ",\n", 2);
	trace_out_put(c->o, head, (size_t)n);
	trace_out_put(c->o, fn + 1, strlen(fn + 1)); /* the name without its opening quote */
	trace_out_put(c->o, tail, (size_t)m);
	g->start = -1;
}

static void flow_from(struct chrome *c, int pid, int from_tid, int64_t ts, int to_tid, const char *name,
		      int64_t id_or_0)
{
	int64_t id = id_or_0 ? id_or_0 : ++c->flows;
	if (from_tid >= 0)
		ev_fmt(c, "{\"ph\":\"s\",\"bp\":\"e\",\"pid\":%d,\"tid\":%d,\"ts\":%" PRId64
			  ",\"name\":\"%s\",\"cat\":\"%s\",\"id\":%" PRId64 "}",
		       pid, from_tid, ts, name, name, id);
	if (to_tid >= 0)
		ev_fmt(c, "{\"ph\":\"f\",\"bp\":\"e\",\"pid\":%d,\"tid\":%d,\"ts\":%" PRId64
			  ",\"name\":\"%s\",\"cat\":\"%s\",\"id\":%" PRId64 "}",
		       pid, to_tid, c->t, name, name, id);
}

static void flow(struct chrome *c, int pid, int from_tid, int to_tid, const char *name, int64_t id_or_0)
{
	flow_from(c, pid, from_tid, c->t, to_tid, name, id_or_0);
}

/* ---- queues --------------------------------------------------------- */

static void queue_move(struct chrome *c, int place, int32_t p, int d)
{
	if ((place == PL_RUNNEXT || place == PL_LOCAL) && p >= 0 && p < c->procs) {
		c->qlen[p] += d;
		c->qdirty[p] = 1;
		c->anydirty = 1;
	} else if (place == PL_GLOBAL) {
		c->glen += d;
		c->gdirty = c->anydirty = 1;
	}
}

static void flush_counters(struct chrome *c)
{
	if (!c->anydirty)
		return;
	if (c->gdirty)
		ev_fmt(c, "{\"ph\":\"C\",\"pid\":%d,\"tid\":0,\"ts\":%" PRId64 ",\"name\":\"global runq\",\"args\":{\"len\":%" PRId64 "}}",
		       PID_Q, c->t, c->glen);
	for (int p = 0; p < c->procs; p++)
		if (c->qdirty[p])
			ev_fmt(c, "{\"ph\":\"C\",\"pid\":%d,\"tid\":0,\"ts\":%" PRId64 ",\"name\":\"runq P%d\",\"args\":{\"len\":%" PRId64 "}}",
			       PID_Q, c->t, p, c->qlen[p]);
	memset(c->qdirty, 0, (size_t)c->procs);
	c->gdirty = c->anydirty = 0;
}

/* ---- records -------------------------------------------------------- */

static void on_g(struct chrome *c, const struct sim_event *e)
{
	struct ch_g *g = get_g(c, e->g);
	if (!g) {
		c->failed = 1;
		return;
	}
	if (e->from == PL_NEW) {
		*g = (struct ch_g){ .start = -1, .p = -1, .fn = e->fn };
	}
	queue_move(c, e->from, e->from_p, -1);
	queue_move(c, e->to, e->p, +1);
	if (e->from == PL_RUNNING)
		g_slice_end(c, e->g, g, sim_reason_name(e->reason));
	if (e->from == PL_WAITING && e->by_p >= 0) { /* the wake-up's first half, on the waker's P */
		g->flow = ++c->flows;
		g->flow_t = c->t;
		g->flow_p = e->by_p;
	}
	if (e->to == PL_RUNNING && e->p >= 0 && e->p < c->procs) {
		g->start = c->t;
		g->p = e->p;
		g->why = e->reason;
		g->rule = e->rule;
		if (g->flow) {
			flow_from(c, PID_P, g->flow_p, g->flow_t, e->p, "wakeup", g->flow);
			g->flow = 0;
		}
	}
}

static void on_event(struct chrome *c, const struct sim_event *e)
{
	switch (e->ev) {
	case EV_G:
		on_g(c, e);
		break;
	case EV_M:
		if (e->from == MS_NEW && e->to == MS_NEW)
			m_seen(c, e->m);
		else
			m_state(c, e->m, e->to);
		break;
	case EV_STEAL:
		flow(c, PID_P, e->victim, e->p, "steal", 0);
		break;
	case EV_HANDOFF:
		m_seen(c, e->m);
		flow(c, PID_M, e->from_m, e->m, "handoff", 0);
		ev_fmt(c, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"ts\":%" PRId64
			  ",\"name\":\"retake P%d\",\"cat\":\"retake\",\"args\":{\"p\":%d,\"from_m\":%d,\"to_m\":%d}}",
		       PID_M, e->by_m >= 0 ? (int)e->by_m : SYSMON_M, c->t, (int)e->p, (int)e->p, (int)e->from_m,
		       (int)e->m);
		break;
	case EV_P:
		if (e->from == PS_SYSCALL && e->to == PS_IDLE) /* retaken, nobody to hand it to */
			ev_fmt(c, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"ts\":%" PRId64
				  ",\"name\":\"retake P%d\",\"cat\":\"retake\",\"args\":{\"p\":%d,\"to_m\":-1}}",
			       PID_M, e->by_m >= 0 ? (int)e->by_m : SYSMON_M, c->t, (int)e->p, (int)e->p);
		break;
	case EV_PREEMPT:
		ev_fmt(c, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"ts\":%" PRId64
			  ",\"name\":\"preempt G%d\",\"cat\":\"preempt\",\"args\":{\"g\":%d,\"ran_us\":%" PRId64 "}}",
		       PID_P, (int)e->p, c->t, (int)e->g, (int)e->g, e->ran_us);
		break;
	case EV_CPU: /* --cpus: the M starts or stops waiting for a CPU */
		m_seen(c, e->m);
		ev_fmt(c, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"ts\":%" PRId64
			  ",\"name\":\"cpu %s\",\"cat\":\"cpu\",\"args\":{\"g\":%d,\"from\":\"%s\"}}",
		       PID_M, (int)e->m, c->t, sim_cpustate_name(e->to), (int)e->g, sim_cpustate_name(e->from));
		break;
	case EV_SPILL:
		ev_fmt(c, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"ts\":%" PRId64
			  ",\"name\":\"spill\",\"cat\":\"spill\",\"args\":{\"n\":%d}}",
		       PID_P, (int)e->p, c->t, (int)e->n);
		break;
	}
}

static int ch_event(void *st, const struct sim_event *e)
{
	struct chrome *c = st;
	if (e->t != c->t) {
		flush_counters(c);
		c->t = e->t;
	}
	on_event(c, e);
	return c->failed ? -1 : 0;
}

/* ---- open and close ------------------------------------------------- */

static void ch_release(void *st)
{
	struct chrome *c = st;
	if (!c)
		return;
	for (int i = 0; i < c->nfuncs; i++)
		free(c->fn_json[i]);
	free(c->fn_json);
	free(c->gs);
	free(c->ms);
	free(c->qlen);
	free(c->qdirty);
	free(c);
}

static int quote_names(struct chrome *c, const struct trace_meta *m)
{
	c->fn_json = calloc((size_t)c->nfuncs + 1, sizeof *c->fn_json);
	if (!c->fn_json)
		return -1;
	for (int i = 0; i < c->nfuncs; i++) {
		char *name = malloc(strlen(m->func_names[i]) + 6);
		if (!name)
			return -1;
		strcpy(name, "main.");
		strcat(name, m->func_names[i]);
		json_t *j = json_string(name);
		free(name);
		c->fn_json[i] = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
		json_decref(j);
		if (!c->fn_json[i])
			return -1;
	}
	return 0;
}

static void *ch_open(struct trace_out *o, const struct trace_meta *m)
{
	struct chrome *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->o = o;
	c->procs = m->procs > 0 ? m->procs : 1;
	c->nfuncs = m->func_names ? m->nfuncs : 0;
	c->qlen = calloc((size_t)c->procs, sizeof *c->qlen);
	c->qdirty = calloc((size_t)c->procs, 1);
	if (!c->qlen || !c->qdirty || quote_names(c, m) != 0) {
		ch_release(c);
		return NULL;
	}
	trace_out_puts(o, "{\"otherData\":{\"gosim\":\"" GOSIM_VERSION "\",\"config\":");
	trace_out_puts(o, m->config_json ? m->config_json : "{}");
	trace_out_puts(o, "},\n\"traceEvents\":[\n");
	name_process(c, PID_P, "Ps");
	name_process(c, PID_M, "Ms");
	name_process(c, PID_Q, "Run queues");
	for (int p = 0; p < c->procs; p++) {
		char name[16];
		snprintf(name, sizeof name, "P%d", p);
		name_thread(c, PID_P, p, name, p);
		c->qdirty[p] = 1;
	}
	name_thread(c, PID_Q, 0, "queues", 0);
	c->gdirty = c->anydirty = 1;
	flush_counters(c); /* every queue's track exists from time 0 */
	return c;
}

static int ch_close(void *st, const struct sim_summary *sum)
{
	struct chrome *c = st;
	(void)sum;
	flush_counters(c);
	for (int64_t g = 0; g < c->ngs; g++)
		if (c->gs[g].start >= 0)
			g_slice_end(c, (int32_t)g, &c->gs[g], "end of trace");
	for (int64_t mi = 0; mi < c->nms; mi++)
		if (c->ms[mi].since >= 0 && c->ms[mi].state != MS_NEW)
			m_state(c, (int32_t)mi, MS_NEW);
	trace_out_puts(c->o, "\n],\"displayTimeUnit\":\"ms\"}\n");
	return c->failed ? -1 : 0;
}

static const char *const ch_suffixes[] = { ".chrome.json", ".perfetto.json", NULL };

const struct trace_ops trace_chrome_ops = {
	.name = "chrome", .suffixes = ch_suffixes,
	.open = ch_open, .event = ch_event, .close = ch_close, .release = ch_release,
};
