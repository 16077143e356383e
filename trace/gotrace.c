/* gotrace.c: the gotrace back end: a Go execution trace, format v2 (Go
 * 1.22+), that `go tool trace` opens (docs/trace-format.md).
 *
 * The format (src/internal/trace/: event/go122/event.go for the events,
 * order.go for the state machine a reader replays): a 16-byte header, then
 * batches of one generation. A batch is [EvEventBatch gen m time size]
 * then size bytes of events, each a type byte and uvarint arguments, the
 * first one a timestamp delta from the previous event of the batch. Each
 * M (thread) writes its own batches, at most 64 KiB each; structural
 * batches hold the frequency, the string table and the stack table.
 *
 * gosim records map onto what the runtime's tracer emits (traceruntime.go):
 * P idle->running is ProcStart on the M that acquires it, running->idle
 * ProcStop; a P retaken from a syscall is ProcSteal on sysmon's M (and
 * ProcStart on the M it is handed to). A G's create, start, stop
 * (preempted, runtime.Gosched), block (chan receive, chan send), unblock
 * (on the waker's M; a G the netpoller readies and runs at once is
 * unblocked, then started), destroy and syscall begin/end are the Go* events of
 * the same names; a syscall whose P was retaken ends with
 * GoSyscallEndBlocked and the G starts again on whatever P its M got.
 * Run-queue moves (kicks, spills, steals, global batches) have no event.
 * The back end keeps the state the reader's state machine keeps (each P's
 * status, sequence number and M; each M's P and G; each G's sequence
 * number and function), so that every event is valid where it is written.
 *
 * Time: 1 tick = 1 ns; a record at t us is at t*1000 ns plus its place in
 * the instant (up to 999), so events of one instant keep their order.
 * Stacks: one synthetic frame per workload function, main.<name> in
 * <workload>.go, on every event that has a stack.
 * Simplification: one generation, no GC, no STW, no CPU samples. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "backend.h"

#include "gotrace_events.h"

#define MAX_BATCH GOTRACE_MAX_BATCH
#define MAX_STRING GOTRACE_MAX_STRING
#define MAX_EVENT 64          /* a type byte and at most 5 uvarints */
#define GEN 1
#define FREQ 1000000000ULL    /* ticks per second: ns */

enum { S_GOSCHED = 1, S_PREEMPTED, S_FILE, S_FIXED }; /* string ids; then reasons, then funcs */

struct gt_m {
	uint8_t *buf; /* this M's open batch (events only), NULL until it writes */
	size_t len;
	uint64_t base, last; /* the batch's time, and its last event's */
	int32_t p, g;  /* the reader's view: the M's P and G, -1 none */
};

struct gt_p {
	uint64_t seq;
	uint8_t status;
	int32_t m;     /* the M it is bound to (running or in a syscall), -1 */
};

struct gt_g {
	uint64_t seq;
	int32_t fn;    /* function index, -1 unknown */
	int32_t m;     /* the M running it (or in a syscall with it), -1 */
};

struct gotrace {
	struct trace_out *o;
	int procs, nfuncs;
	char **strs;   /* string table, id i+1 */
	int nstrs;
	int s_wait0;   /* first wait-reason string id: s_wait0 + wait - 1 */
	int nwait;
	int s_func0;   /* first function-name string id */
	struct gt_p *ps;
	struct gt_m *ms;
	int32_t nms;
	struct gt_g *gs;
	int64_t ngs;
	int64_t t;     /* the current instant (us) and events written in it */
	uint64_t k;
	int failed;
	char why[160];
};

/* A record with no valid Go event: a gosim bug (the run stops, exit 1). */
static void fail(struct gotrace *t, const char *where)
{
	if (!t->failed)
		snprintf(t->why, sizeof t->why, "no valid Go trace event for the record at t=%lldus (%s)",
			 (long long)t->t, where);
	t->failed = 1;
	if (!t->o->error)
		t->o->error = t->why;
}

/* ---- output ------------------------------------------------------- */

static uint8_t *uvarint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* A whole batch: header, then n bytes of data. */
static void write_batch(struct gotrace *t, uint64_t m, uint64_t time, const uint8_t *data, size_t n)
{
	uint8_t hdr[1 + 4 * 10], *p = hdr;
	*p++ = EV_EVENT_BATCH;
	p = uvarint(p, GEN);
	p = uvarint(p, m);
	p = uvarint(p, time);
	p = uvarint(p, n);
	trace_out_put(t->o, (const char *)hdr, (size_t)(p - hdr));
	trace_out_put(t->o, (const char *)data, n);
}

static void flush_m(struct gotrace *t, int32_t mi)
{
	struct gt_m *m = &t->ms[mi];
	if (m->len > 0)
		write_batch(t, (uint64_t)mi, m->base, m->buf, m->len);
	m->len = 0;
}

static struct gt_m *get_m(struct gotrace *t, int32_t mi)
{
	if (mi < 0)
		return NULL;
	int64_t cap = t->nms;
	if (grow_array((void **)&t->ms, &cap, (int64_t)(mi) + 1, sizeof *t->ms, 0xff) != 0)
		return NULL;
	for (int64_t i = t->nms; i < cap; i++)
		t->ms[i] = (struct gt_m){ .p = -1, .g = -1 };
	t->nms = (int32_t)cap;
	return &t->ms[mi];
}

static struct gt_g *get_g(struct gotrace *t, int32_t goid)
{
	if (goid < 0 || grow_array((void **)&t->gs, &t->ngs, (int64_t)(goid) + 1, sizeof *t->gs, 0xff) != 0)
		return NULL;
	return &t->gs[goid];
}

/* The time of the next event: the record's instant, plus its place in it. */
static uint64_t now_ns(const struct gotrace *t)
{
	return (uint64_t)t->t * 1000 + (t->k < 999 ? t->k : 999);
}

/* One timed event on M mi: type, then nargs arguments after the delta. */
static void emit(struct gotrace *t, int32_t mi, int type, int nargs, const uint64_t *args)
{
	struct gt_m *m = get_m(t, mi);
	if (!m) {
		fail(t, __func__);
		return;
	}
	if (!m->buf && !(m->buf = malloc(MAX_BATCH))) {
		fail(t, __func__);
		return;
	}
	if (m->len + MAX_EVENT > MAX_BATCH)
		flush_m(t, mi);
	uint64_t ts = now_ns(t);
	if (m->len == 0)
		m->base = m->last = ts;
	uint8_t *p = m->buf + m->len;
	*p++ = (uint8_t)type;
	p = uvarint(p, ts - m->last);
	for (int i = 0; i < nargs; i++)
		p = uvarint(p, args[i]);
	m->len = (size_t)(p - m->buf);
	m->last = ts;
	t->k++;
}

#define EMIT(t, m, type, ...) \
	emit(t, m, type, (int)(sizeof((uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t)), (uint64_t[]){ __VA_ARGS__ })
#define EMIT0(t, m, type) emit(t, m, type, 0, NULL)

/* ---- strings and stacks -------------------------------------------- */

static int add_string(struct gotrace *t, const char *a, const char *b)
{
	char *s = malloc(strlen(a) + strlen(b) + 1);
	char **v = realloc(t->strs, (size_t)(t->nstrs + 1) * sizeof *v);
	if (!s || !v) {
		free(s);
		if (v)
			t->strs = v;
		return -1;
	}
	strcpy(s, a);
	strcat(s, b);
	if (strlen(s) > MAX_STRING)
		s[MAX_STRING] = 0;
	t->strs = v;
	t->strs[t->nstrs++] = s;
	return t->nstrs; /* its id */
}

static uint64_t stack_of(int32_t fn) { return fn >= 0 ? (uint64_t)fn + 1 : 0; }
static uint64_t pc_of(int32_t fn) { return 0x401000 + (uint64_t)fn * 0x40; }

/* Batches of EvString or EvStack entries, each under MAX_BATCH. */
static int write_tables(struct gotrace *t)
{
	uint8_t *buf = malloc(MAX_BATCH), *p;
	if (!buf)
		return -1;
	p = buf;
	*p++ = EV_STRINGS;
	for (int i = 0; i < t->nstrs; i++) {
		size_t n = strlen(t->strs[i]);
		if ((size_t)(p - buf) + n + 32 > MAX_BATCH) {
			write_batch(t, 0, 0, buf, (size_t)(p - buf));
			p = buf;
			*p++ = EV_STRINGS;
		}
		*p++ = EV_STRING;
		p = uvarint(p, (uint64_t)i + 1);
		p = uvarint(p, n);
		memcpy(p, t->strs[i], n);
		p += n;
	}
	write_batch(t, 0, 0, buf, (size_t)(p - buf));
	p = buf;
	*p++ = EV_STACKS;
	for (int32_t fn = 0; fn < t->nfuncs; fn++) {
		if ((size_t)(p - buf) + 64 > MAX_BATCH) {
			write_batch(t, 0, 0, buf, (size_t)(p - buf));
			p = buf;
			*p++ = EV_STACKS;
		}
		*p++ = EV_STACK;
		p = uvarint(p, stack_of(fn));
		p = uvarint(p, 1);
		p = uvarint(p, pc_of(fn));
		p = uvarint(p, (uint64_t)(t->s_func0 + fn));
		p = uvarint(p, S_FILE);
		p = uvarint(p, (uint64_t)fn + 1); /* line */
	}
	if (t->nfuncs > 0)
		write_batch(t, 0, 0, buf, (size_t)(p - buf));
	p = buf;
	*p++ = EV_FREQUENCY;
	p = uvarint(p, FREQ);
	write_batch(t, 0, 0, buf, (size_t)(p - buf));
	free(buf);
	return 0;
}

/* ---- the mapping ---------------------------------------------------- */

/* The G running on M mi in the reader's view, and its stack. */
static uint64_t stack_on(struct gotrace *t, int32_t mi)
{
	struct gt_m *m = get_m(t, mi);
	struct gt_g *g = m && m->g >= 0 ? get_g(t, m->g) : NULL;
	return g ? stack_of(g->fn) : 0;
}

static void go_start(struct gotrace *t, int32_t mi, int32_t goid)
{
	struct gt_g *g = get_g(t, goid);
	struct gt_m *m = get_m(t, mi);
	if (!g || !m || m->p < 0 || m->g >= 0) {
		fail(t, __func__);
		return;
	}
	EMIT(t, mi, EV_GO_START, (uint64_t)goid, ++g->seq);
	g->m = mi;
	m->g = goid;
}

/* The G leaves its M: stop, block or destroy. */
static void go_leave(struct gotrace *t, struct gt_g *g, int type, uint64_t reason)
{
	int32_t mi = g->m;
	struct gt_m *m = get_m(t, mi);
	if (!m) {
		fail(t, __func__);
		return;
	}
	if (type == EV_GO_DESTROY)
		EMIT0(t, mi, type);
	else
		EMIT(t, mi, type, reason, stack_of(g->fn));
	m->g = -1;
	g->m = -1;
}

static void syscall_begin(struct gotrace *t, struct gt_g *g)
{
	struct gt_m *m = get_m(t, g->m);
	if (!m || m->p < 0) {
		fail(t, __func__);
		return;
	}
	struct gt_p *p = &t->ps[m->p];
	EMIT(t, g->m, EV_GO_SYSCALL_BEGIN, ++p->seq, stack_of(g->fn));
	p->status = PROC_SYSCALL;
}

/* exitsyscall: with its P still held (GoSyscallEnd), or after losing it
 * (GoSyscallEndBlocked; the G starts again if the M got a P). */
static void syscall_end(struct gotrace *t, int32_t goid, struct gt_g *g, int runs)
{
	int32_t mi = g->m;
	struct gt_m *m = get_m(t, mi);
	if (!m) {
		fail(t, __func__);
		return;
	}
	if (runs && m->p >= 0 && t->ps[m->p].status == PROC_SYSCALL) {
		EMIT0(t, mi, EV_GO_SYSCALL_END);
		t->ps[m->p].status = PROC_RUNNING;
		return;
	}
	EMIT0(t, mi, EV_GO_SYSCALL_END_BLOCKED);
	m->g = -1;
	g->m = -1;
	if (runs)
		go_start(t, mi, goid);
}

/* Any M may unblock a G (the event needs no context): the waker's, else sysmon's. */
static void go_unblock(struct gotrace *t, const struct sim_event *e, struct gt_g *g)
{
	EMIT(t, e->by_m >= 0 ? e->by_m : 1, EV_GO_UNBLOCK, (uint64_t)e->g, ++g->seq, stack_on(t, e->by_m));
}

static void on_g(struct gotrace *t, const struct sim_event *e)
{
	struct gt_g *g = get_g(t, e->g);
	if (!g) {
		fail(t, __func__);
		return;
	}
	if (e->from == PL_NEW) {
		g->seq = 0;
		g->fn = e->fn;
		g->m = -1;
		EMIT(t, e->by_m, EV_GO_CREATE, (uint64_t)e->g, stack_of(e->fn), stack_on(t, e->by_m));
		return;
	}
	switch (e->to) {
	case PL_RUNNING:
		if (e->from == PL_SYSCALL) {
			syscall_end(t, e->g, g, 1);
			return;
		}
		if (e->from == PL_WAITING) /* findRunnable's netpoll: ready and run at once */
			go_unblock(t, e, g);
		go_start(t, e->m, e->g);
		return;
	case PL_SYSCALL:
		syscall_begin(t, g);
		return;
	case PL_WAITING:
		go_leave(t, g, EV_GO_BLOCK, e->wait >= 1 && e->wait <= t->nwait ? (uint64_t)(t->s_wait0 + e->wait - 1) : 0);
		return;
	case PL_DEAD:
		go_leave(t, g, EV_GO_DESTROY, 0);
		return;
	}
	if (e->from == PL_RUNNING)
		go_leave(t, g, EV_GO_STOP, e->reason == R_GOSCHED ? S_GOSCHED : S_PREEMPTED);
	else if (e->from == PL_WAITING)
		go_unblock(t, e, g);
	else if (e->from == PL_SYSCALL)
		syscall_end(t, e->g, g, 0);
	/* else a run-queue move: no event */
}

/* A P in a syscall taken from its M by another (sysmon's retake). */
static void proc_steal(struct gotrace *t, int32_t pi, int32_t by_m)
{
	struct gt_p *p = &t->ps[pi];
	struct gt_m *victim = get_m(t, p->m);
	if (!victim || by_m < 0) {
		fail(t, __func__);
		return;
	}
	EMIT(t, by_m, EV_PROC_STEAL, (uint64_t)pi, ++p->seq, (uint64_t)p->m);
	victim->p = -1;
	p->status = PROC_IDLE;
	p->m = -1;
}

static void on_p(struct gotrace *t, const struct sim_event *e)
{
	if (e->p < 0 || e->p >= t->procs) {
		fail(t, __func__);
		return;
	}
	struct gt_p *p = &t->ps[e->p];
	if (e->to == PS_RUNNING && p->status == PROC_SYSCALL && p->m == e->m)
		return; /* exitsyscallfast on its own P: GoSyscallEnd follows */
	if (e->to == PS_RUNNING && p->status == PROC_SYSCALL) {
		/* exitsyscallfast_reacquired: the P was retaken and is now in
		 * another M's syscall; this M takes it back from that one, as
		 * the runtime traces it (ProcSteal, then ProcStart) */
		proc_steal(t, e->p, e->m);
	}
	if (e->to == PS_RUNNING) {
		struct gt_m *m = get_m(t, e->m);
		if (!m || m->p >= 0 || p->status != PROC_IDLE) {
			fail(t, __func__);
			return;
		}
		EMIT(t, e->m, EV_PROC_START, (uint64_t)e->p, ++p->seq);
		p->status = PROC_RUNNING;
		p->m = e->m;
		m->p = e->p;
	} else if (e->to == PS_IDLE && p->status == PROC_SYSCALL) {
		proc_steal(t, e->p, e->by_m);
	} else if (e->to == PS_IDLE && p->status == PROC_RUNNING) {
		struct gt_m *m = get_m(t, p->m);
		if (!m) {
			fail(t, __func__);
			return;
		}
		EMIT0(t, p->m, EV_PROC_STOP);
		m->p = -1;
		p->status = PROC_IDLE;
		p->m = -1;
	}
	/* running->syscall: GoSyscallBegin said it; syscall->running on the
	 * same M: GoSyscallEnd will */
}

static int gt_event(void *st, const struct sim_event *e)
{
	struct gotrace *t = st;
	if (e->t != t->t) {
		t->t = e->t;
		t->k = 0;
	}
	if (e->ev == EV_G)
		on_g(t, e);
	else if (e->ev == EV_P)
		on_p(t, e);
	else if (e->ev == EV_HANDOFF && e->p >= 0 && e->p < t->procs && t->ps[e->p].status == PROC_SYSCALL)
		proc_steal(t, e->p, e->by_m);
	return t->failed ? -1 : 0;
}

/* ---- open and close ---------------------------------------------------- */

static void gt_release(void *st)
{
	struct gotrace *t = st;
	if (!t)
		return;
	for (int i = 0; i < t->nstrs; i++)
		free(t->strs[i]);
	free(t->strs);
	for (int32_t i = 0; i < t->nms; i++)
		free(t->ms[i].buf);
	free(t->ms);
	free(t->gs);
	free(t->ps);
	free(t);
}

static int add_strings(struct gotrace *t, const struct trace_meta *m)
{
	int ok = add_string(t, "runtime.Gosched", "") == S_GOSCHED && add_string(t, "preempted", "") == S_PREEMPTED &&
		 add_string(t, m->workload ? m->workload : "gosim", ".go") == S_FILE;
	t->s_wait0 = t->nstrs + 1;
	for (int w = 1; ok; w++) {
		const char *name = sim_waitreason_name(w);
		if (!*name || strcmp(name, "?") == 0)
			break;
		ok = add_string(t, name, "") > 0;
		t->nwait = w;
	}
	t->s_func0 = t->nstrs + 1;
	for (int fn = 0; ok && fn < m->nfuncs; fn++)
		ok = add_string(t, "main.", m->func_names[fn]) > 0;
	return ok ? 0 : -1;
}

static void *gt_open(struct trace_out *o, const struct trace_meta *m)
{
	struct gotrace *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->o = o;
	t->procs = m->procs > 0 ? m->procs : 1;
	t->nfuncs = m->func_names ? m->nfuncs : 0;
	t->ps = calloc((size_t)t->procs, sizeof *t->ps);
	if (!t->ps || add_strings(t, m) != 0 || !get_m(t, 0)) {
		gt_release(t);
		return NULL;
	}
	trace_out_put(o, GOTRACE_HEADER, 16);
	/* Every P's status before its first use, on M0 at time 0: all idle
	 * (the model boots with every P idle, then M0 acquires P0). */
	for (int pi = 0; pi < t->procs; pi++) {
		t->ps[pi] = (struct gt_p){ .status = PROC_IDLE, .m = -1 };
		EMIT(t, 0, EV_PROC_STATUS, (uint64_t)pi, PROC_IDLE);
	}
	return t;
}

static int gt_close(void *st, const struct sim_summary *sum)
{
	struct gotrace *t = st;
	(void)sum;
	for (int32_t mi = 0; mi < t->nms; mi++)
		flush_m(t, mi);
	return write_tables(t) != 0 || t->failed ? -1 : 0;
}

static const char *const gt_suffixes[] = { ".trace", ".gotrace", NULL };

const struct trace_ops trace_gotrace_ops = {
	.name = "gotrace", .suffixes = gt_suffixes,
	.open = gt_open, .event = gt_event, .close = gt_close, .release = gt_release,
};
