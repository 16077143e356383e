/* import.c: gosim import FILE.trace [-o workload.json] [--no-merge] [--timer-due]: a Go
 * execution trace (v2, trace/gotrace_read.h) into a workload in gosim's
 * language (docs/import.md).
 *
 * Each goroutine's life, replayed from its events in time order:
 * - a CPU stint between two of its scheduling events is a run;
 * - GoCreate by a user goroutine is a go of the new goroutine's function
 *   (named by the top frame of its start stack: main.worker -> worker);
 * - GoBlock is the op its reason names, completed by the GoUnblock:
 *   "chan receive"/"chan send" become recv/send on a channel named by the
 *   two sites (sender_receiver), and the unblocking goroutine gets the
 *   other end at that instant; "select" a one-case select (a recv, or an
 *   after case when no goroutine woke it); a goroutine's receives woken by
 *   no goroutine at times on a periodic grid ticks (ticker_pass), others
 *   sleeps of the observed wait; "sleep" a sleep and "network" /
 *   "IO wait" a net of the observed wait, but a socket read's wait, with
 *   --net=socket (the default), a read of a socket that the write which
 *   ended it writes (import_net.h: a first pass over the events pairs
 *   them);
 * - GoSyscallBegin..End is a syscall of the observed duration (one under
 *   5 us is CPU time of the stint around it);
 * - GoStop "runtime.Gosched" is a gosched; "preempted" nothing (the
 *   scheduler's, not the program's);
 * - a user region (trace.StartRegion .. End) is a region around the ops
 *   between its begin and end.
 * Durations are whole microseconds (the workload's "tick": "1us"); a run
 * is its stint's end less its start, each read to the microsecond, so a
 * goroutine's CPU total is kept to a fraction of a microsecond a stint.
 * Goroutines whose start function is in runtime or runtime/... are left out
 * and counted in the description. Unless --no-merge, each goroutine's ops
 * are folded into repeats and goroutines of one site and shape share a
 * function, durations that differ becoming params (import_fold.h).
 * - a "sync" block in sync.(*Mutex).Lock woken by W's Unlock is a lock and
 *   unlock in the waiter and a critical section in W (mutex_wait); one in
 *   sync.(*WaitGroup).Wait woken by W's Done is a wait, W's done, and an add
 *   before the go that led to W (wg_wait).
 * Simplification: a channel op that did not block leaves no event and is
 * not replayed; close(ch) waking receivers is replayed as sends; a wait
 * gosim cannot reconstruct (RWMutex, Cond, a bare semaphore, a reason with
 * no op) is replayed as a sleep of the observed wait and reported. Every
 * such input is reported on stderr. */
#include "import.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../trace/gotrace_read.h"
#include "import_fold.h"
#include "import_mutex.h"
#include "import_net.h"
#include "import_tick.h"
#include "msg.h"
#include "out.h"

#define TICK_NS (IMPORT_TICK_US * 1000)
/* A syscall shorter than this (a fast read or write, whose P exitsyscall's
 * fast path keeps) is CPU time of the stint it is in (the 10 us tick's
 * half, kept when the tick became 1 us: such a syscall's time is the
 * thread's either way, and a syscall op would add the model's entry and
 * exit on top). */
#define FAST_SYSCALL_NS 5000
#define NETPOLL_MS_NS 1000000 /* netpoll_epoll.go: epoll_wait's timeout is whole ms */
/* --net's default: socket (reads paired with writes, import_net.h) */
#define IMPORT_NET_SOCKET_DEFAULT 1

enum { G_NONE, G_RUNNABLE, G_RUNNING, G_BLOCKED, G_SYSCALL, G_DEAD };
enum { B_NONE, B_RECV, B_SEND, B_SELECT, B_SLEEP, B_NET, B_MUTEX, B_WG, B_RWMUTEX, B_COND, B_SYNC, B_OTHER };

struct ig {
	uint64_t goid;
	char *fn;         /* the site's function (no "main."), owned */
	int runtime;      /* left out: not a user goroutine */
	int tracer;       /* of those, one of the tracer's own, replayed (is_tracer) */
	int state, block;
	const char *site;  /* a sync wait's caller (main.worker), the trace's string */
	size_t parent;    /* the creator's index, or SIZE_MAX */
	json_t *go_arr, *go_op; /* the go op that created it, and the array holding it */
	int nwg;          /* WaitGroup waits so far: they name the wait groups */
	int64_t since;    /* running since, blocked since, in a syscall since */
	uint64_t block_p; /* the P it blocked on + 1 (0: none): where a timer it waits for is (maybeAdd) */
	int64_t cpu_ns, cpu_tick_us, cpu_emitted_us; /* its CPU time; the same from times read to the tick; the runs written */
	size_t created;   /* creation order */
	json_t *ops;
	json_t **open;    /* the bodies of the regions it is in, innermost last */
	const char **open_name;
	size_t nopen, capopen;
	char *name;       /* the function it runs in the output */
	struct { json_t *op; int64_t ns; } *tw; /* its channel receives woken by no user goroutine:
						 the sleep op each became, and when it was woken */
	size_t ntw, captw;
	int64_t made_lo, made_hi; /* from its first run to the first of them blocking (import_tick.h) */
	int ran;          /* it has run: made_lo is its first GoStart */
	struct mx_open mx; /* its stretch since its last mutex event (import_mutex.h) */
	int net_read;     /* its network wait is a socket read's (net.(*netFD).Read) */
	long nnet, nwrite; /* its socket read waits and socket writes so far (import_net.h) */
	int64_t sys_ns, net_lo, run_ns; /* its last syscall's start; the read syscall before its network wait;
					   its last GoStart */
};

struct imp {
	const char *file;
	struct gtr_trace tr;
	struct ig *g;
	size_t ng, capg;
	size_t *slot;     /* open hash: goid -> index+1 */
	size_t nslot;
	json_t *mutexes, *wgs; /* reconstructed: name -> true */
	/* per M: its G, its P + 1 (0: none), and when it last stopped a P and
	 * started one (findRunnable: releasing the P before netpoll's blocking
	 * wait, acquiring one after it) */
	struct { uint64_t m, g, p; int has; int64_t stop_ns, start_ns; } *ms;
	size_t nms, capm;
	/* per P (by id, below MAX_PID): its last pass through the scheduler
	 * (schedule/findRunnable: checkTimers), and whether that was a GoStart
	 * (its M has run goroutines since, no pass between) or a P start/stop */
	struct { int64_t ns; int run; } *pp;
	size_t npp;
	uint64_t procs, maxp;
	int64_t end;
	long nruntime, ntracer; /* runtime goroutines; of them, the tracer's replayed */
	struct { const char *what; long n; } notes[16];
	int nnotes;
	int64_t *lat;     /* runnable -> running delays of user goroutines, ns */
	size_t nlat, caplat;
	struct mx_log mx; /* the stretches between mutex events, for mutex_infer */
	int timer_due;    /* --timer-due: timer waits woken through an idle P as their due time (netpoll_due_ns) */
	int net_socket;   /* --net=socket: socket reads paired with their writes (import_net.h) */
	int collect;      /* the first pass of --net=socket: only net_log is wanted */
	struct net_log netlog;
	struct net_pairs pairs;
	json_t *sockets;  /* the sockets named: name -> true */
	int oom;
	char bad[160];    /* a malformed trace: what, at which offset */
};

#define NOTE_TIMER_CHAN "a channel wait woken by no user goroutine (a timer, the runtime): replayed as a sleep of the observed wait"
#define NOTE_TICKER "a channel receive woken by no user goroutine on a periodic grid (a time.Ticker): replayed as a tick of the wakes' period"

static void note(struct imp *im, const char *what)
{
	for (int i = 0; i < im->nnotes; i++)
		if (strcmp(im->notes[i].what, what) == 0) {
			im->notes[i].n++;
			return;
		}
	if (im->nnotes < 16) {
		im->notes[im->nnotes].what = what;
		im->notes[im->nnotes++].n = 1;
	}
}

/* One fewer of what (a sleep that became a tick); gone at none. */
static void unnote(struct imp *im, const char *what)
{
	for (int i = 0; i < im->nnotes; i++)
		if (strcmp(im->notes[i].what, what) == 0 && --im->notes[i].n == 0) {
			memmove(&im->notes[i], &im->notes[i + 1], (size_t)(im->nnotes - i - 1) * sizeof *im->notes);
			im->nnotes--;
			return;
		}
}

static size_t hash(uint64_t x) { return (size_t)(x * 0x9e3779b97f4a7c15ULL >> 17); }

static struct ig *find_g(struct imp *im, uint64_t goid)
{
	if (!im->nslot)
		return NULL;
	for (size_t i = hash(goid) & (im->nslot - 1);; i = (i + 1) & (im->nslot - 1)) {
		if (!im->slot[i])
			return NULL;
		if (im->g[im->slot[i] - 1].goid == goid)
			return &im->g[im->slot[i] - 1];
	}
}

static int rehash(struct imp *im)
{
	size_t n = im->nslot ? im->nslot * 2 : 1024;
	size_t *s = calloc(n, sizeof *s);
	if (!s)
		return -1;
	for (size_t k = 0; k < im->ng; k++) {
		size_t i = hash(im->g[k].goid) & (n - 1);
		while (s[i])
			i = (i + 1) & (n - 1);
		s[i] = k + 1;
	}
	free(im->slot);
	im->slot = s;
	im->nslot = n;
	return 0;
}

/* f as a name that reads as one in a workload: letters, digits and _
 * (main.(*T).run.func1 -> __T__run_func1). */
static void ident(char *out, const char *f)
{
	size_t i = 0;
	for (; f[i]; i++) {
		unsigned char c = (unsigned char)f[i];
		out[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? (char)c : '_';
	}
	out[i] = 0;
}

/* Whether f starts one of the tracer's own goroutines, which the goroutine
 * calling trace.Start creates as the trace begins (Go 1.22-1.23): the
 * reader (runtime/trace.Start's goroutine: ReadTrace and the writes to the
 * file), the CPU profile's reader (traceStartReadCPU) and the generation
 * advancer (traceAdvancerState.start). They are replayed, though not
 * counted as the program's: they take P time and run-queue slots where the
 * program starts. In a twin of the fanout workload at GOMAXPROCS=2 the idle
 * P's first steal took the CPU reader, its second the advancer, the reader
 * and the first worker, the last taken run first (runqgrab takes half,
 * runqsteal returns the last: proc.go), so its third steal, half of the
 * other P's queue, came after that worker's 1 ms. Left out, the second
 * steal took two workers, the third came after 2 ms, and its batch was
 * one goroutine off, the one it runs first among them (Spearman 0.90, the
 * worst end 81% of the makespan off); replayed, 1.00 and 6%.
 * Simplification: each is replayed up to its first wait, not after: after
 * it each wakes for 10-60 us every 100 ms or so, and its waits are the
 * runtime's (the reader's for the trace's end, which the scheduler ends:
 * traceReader in schedule), so as sleeps of the observed wait they would
 * hold a replay that ends sooner (the ticker twin's reader's 750 ms wait:
 * +47% at 4 Ps, not +3%). */
static int is_tracer(const char *f)
{
	return strcmp(f, "runtime/trace.Start.func1") == 0 || strcmp(f, "runtime.traceStartReadCPU.func1") == 0 ||
	       strcmp(f, "runtime.(*traceAdvancerState).start.func1") == 0;
}

static struct ig *new_g(struct imp *im, uint64_t goid, const char *func)
{
	struct ig *g = find_g(im, goid);
	if (g)
		return g;
	if (im->ng == im->capg) {
		size_t c = im->capg ? im->capg * 2 : 256;
		struct ig *a = realloc(im->g, c * sizeof *a);
		if (!a)
			return NULL;
		im->g = a;
		im->capg = c;
	}
	if ((im->ng + 1) * 2 > im->nslot && rehash(im))
		return NULL;
	g = &im->g[im->ng];
	*g = (struct ig){ .goid = goid, .created = im->ng, .parent = SIZE_MAX, .ops = json_array() };
	const char *f = func ? func : "unknown";
	g->runtime = strncmp(f, "runtime.", 8) == 0 || strncmp(f, "runtime/", 8) == 0;
	if (strncmp(f, "main.", 5) == 0)
		f += 5;
	if (!*f) /* a frame with no name (a stripped binary's): a function needs one */
		f = "unknown";
	g->fn = malloc(strlen(f) + 1);
	if (!g->fn || !g->ops)
		return NULL;
	ident(g->fn, f);
	size_t i = hash(goid) & (im->nslot - 1);
	while (im->slot[i])
		i = (i + 1) & (im->nslot - 1);
	im->slot[i] = ++im->ng;
	if (g->runtime)
		im->nruntime++;
	return g;
}

/* The goroutine M m is running, or NULL. */
static struct ig *cur(struct imp *im, uint64_t m)
{
	for (size_t i = 0; i < im->nms; i++)
		if (im->ms[i].m == m)
			return im->ms[i].has ? find_g(im, im->ms[i].g) : NULL;
	return NULL;
}

/* m's slot in ms, added if new; SIZE_MAX when out of memory. */
static size_t m_slot(struct imp *im, uint64_t m)
{
	size_t i = 0;
	while (i < im->nms && im->ms[i].m != m)
		i++;
	if (i == im->nms) {
		if (im->nms == im->capm) {
			size_t c = im->capm ? im->capm * 2 : 16;
			void *a = realloc(im->ms, c * sizeof *im->ms);
			if (!a) {
				im->oom = 1;
				return SIZE_MAX;
			}
			im->ms = a;
			im->capm = c;
		}
		im->nms++;
		im->ms[i].m = m;
		im->ms[i].has = 0;
		im->ms[i].g = im->ms[i].p = 0;
		im->ms[i].stop_ns = im->ms[i].start_ns = -1;
	}
	return i;
}

static void set_cur(struct imp *im, uint64_t m, const struct ig *g)
{
	size_t i = m_slot(im, m);
	if (i == SIZE_MAX)
		return;
	im->ms[i].has = g != NULL;
	im->ms[i].g = g ? g->goid : 0;
}

/* The P m holds + 1, 0 for none. */
static uint64_t m_p(const struct imp *im, uint64_t m)
{
	for (size_t i = 0; i < im->nms; i++)
		if (im->ms[i].m == m)
			return im->ms[i].p;
	return 0;
}

#define MAX_PID 4096 /* P ids past it (no GOMAXPROCS is that large) are not followed */

static void set_m_p(struct imp *im, uint64_t m, uint64_t p1)
{
	size_t i = m_slot(im, m);
	if (i != SIZE_MAX)
		im->ms[i].p = p1 <= MAX_PID ? p1 : 0;
}

/* M m stops its P (start 0) or starts one (start 1) at ns. */
static void m_proc(struct imp *im, uint64_t m, int64_t ns, int start)
{
	size_t i = m_slot(im, m);
	if (i != SIZE_MAX && start)
		im->ms[i].start_ns = ns;
	else if (i != SIZE_MAX)
		im->ms[i].stop_ns = ns;
}

/* P p1 - 1 passes through the scheduler at ns: run says whether by
 * starting a goroutine (execute) or by starting or stopping the P. */
static void p_pass(struct imp *im, uint64_t p1, int64_t ns, int run)
{
	if (p1 == 0 || p1 > MAX_PID)
		return;
	if (p1 > im->npp) {
		size_t n = p1 > 2 * im->npp ? p1 : 2 * im->npp;
		void *a = realloc(im->pp, n * sizeof *im->pp);
		if (!a) {
			im->oom = 1;
			return;
		}
		im->pp = a;
		memset(im->pp + im->npp, 0, (n - im->npp) * sizeof *im->pp);
		im->npp = n;
	}
	im->pp[p1 - 1].ns = ns;
	im->pp[p1 - 1].run = run;
}

/* The array g's ops go to now: its innermost open region's body, or its ops. */
static json_t *cur_ops(struct ig *g) { return g->nopen ? g->open[g->nopen - 1] : g->ops; }

static json_t *add_op(struct imp *im, struct ig *g, const char *key, json_t *v)
{
	json_t *o = json_object();
	if (!o || !v || json_object_set_new(o, key, v) || json_array_append_new(g->nopen ? g->open[g->nopen - 1] : g->ops, o)) {
		im->oom = 1;
		return NULL;
	}
	return o;
}

/* g's receive, replayed as sleep op o, was woken at ns by no user
 * goroutine: a candidate tick (ticker_pass). */
static void timer_recv(struct imp *im, struct ig *g, json_t *o, int64_t ns)
{
	if (!o)
		return;
	if (g->ntw == g->captw) {
		size_t c = g->captw ? g->captw * 2 : 16;
		void *a = realloc(g->tw, c * sizeof *g->tw);
		if (!a) {
			im->oom = 1;
			return;
		}
		g->tw = a;
		g->captw = c;
	}
	if (!g->ntw) /* blocked since g->since; made_lo: its first GoStart */
		g->made_hi = g->since;
	g->tw[g->ntw].op = o;
	g->tw[g->ntw++].ns = ns;
}

/* trace.StartRegion: the ops until its end go into a region's body. */
static void region_begin(struct imp *im, struct ig *g, const char *name)
{
	if (g->nopen == g->capopen) {
		size_t c = g->capopen ? g->capopen * 2 : 4;
		json_t **a = realloc(g->open, c * sizeof *a);
		const char **n = a ? realloc(g->open_name, c * sizeof *n) : NULL;
		if (a)
			g->open = a;
		if (!n) {
			im->oom = 1;
			return;
		}
		g->open_name = n;
		g->capopen = c;
	}
	json_t *body = json_array();
	if (!body) {
		im->oom = 1;
		return;
	}
	g->open[g->nopen] = body;
	g->open_name[g->nopen++] = name ? name : "region";
}

static void region_end(struct imp *im, struct ig *g)
{
	if (!g->nopen) {
		note(im, "a region that began before the trace started: its end left out");
		return;
	}
	json_t *body = g->open[--g->nopen];
	char *name = malloc(strlen(g->open_name[g->nopen]) + 1);
	json_t *o = json_object();
	if (name)
		ident(name, g->open_name[g->nopen]);
	if (!name || !o || json_object_set_new(o, "region", json_string(name)) || json_object_set_new(o, "body", body) ||
	    json_array_append_new(g->nopen ? g->open[g->nopen - 1] : g->ops, o))
		im->oom = 1;
	free(name);
}

static int64_t ticks_us(int64_t ns)
{
	int64_t t = (ns + TICK_NS / 2) / TICK_NS;
	return (t < 1 ? 1 : t) * (TICK_NS / 1000);
}

/* ns to the nearest tick, in us. */
static int64_t to_tick_us(int64_t ns) { return (ns + TICK_NS / 2) / TICK_NS * (TICK_NS / 1000); }

/* g stops running at ns: its stint is a run, from its start to its end
 * each read to the tick (so a trace whose events lie on whole us, give or
 * take an instant's order, as gosim's own, gives back its durations
 * exactly). */
static void end_stint(struct imp *im, struct ig *g, int64_t ns)
{
	if (g->state != G_RUNNING)
		return;
	g->cpu_ns += ns - g->since;
	g->cpu_tick_us += to_tick_us(ns) - to_tick_us(g->since);
	int64_t total = g->cpu_tick_us;
	if (total > g->cpu_emitted_us) {
		add_op(im, g, "run", json_integer(total - g->cpu_emitted_us));
		g->cpu_emitted_us = total;
	}
	g->since = ns;
}

static void start(struct ig *g, int64_t ns, int state)
{
	g->state = state;
	g->since = ns;
}

static char *chan_name(const struct ig *snd, const struct ig *rcv)
{
	size_t n = strlen(snd->fn) + strlen(rcv->fn) + 2;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s_%s", snd->fn, rcv->fn);
	return s;
}

static int block_kind(const char *r)
{
	if (!r)
		return B_OTHER;
	if (strcmp(r, "chan receive") == 0)
		return B_RECV;
	if (strcmp(r, "chan send") == 0)
		return B_SEND;
	if (strcmp(r, "select") == 0)
		return B_SELECT;
	if (strcmp(r, "sleep") == 0)
		return B_SLEEP;
	if (strcmp(r, "network") == 0 || strcmp(r, "IO wait") == 0)
		return B_NET;
	if (strcmp(r, "sync.(*Cond).Wait") == 0)
		return B_COND;
	if (strcmp(r, "sync.Mutex.Lock") == 0) /* waitReason strings, as gosim's --format=gotrace writes them */
		return B_MUTEX;
	if (strcmp(r, "sync.WaitGroup.Wait") == 0)
		return B_WG;
	return B_OTHER;
}

/* A "sync" block's kind from its stack (sync.(*Mutex).Lock, sync.(*WaitGroup).Wait,
 * sync.(*RWMutex)...), and in *site the first frame outside sync and runtime. */
static int sync_kind(const struct gtr_trace *tr, uint64_t gen, uint64_t stack, const char **site)
{
	int k = B_SYNC;
	*site = NULL;
	for (unsigned i = 0; i < GTR_FRAMES; i++) {
		const char *f = gtr_stack_frame(tr, gen, stack, i);
		if (!f)
			break;
		if (strncmp(f, "sync.", 5) != 0 && strncmp(f, "runtime.", 8) != 0 && strncmp(f, "internal/", 9) != 0) {
			*site = f;
			break;
		}
		if (k != B_SYNC)
			continue;
		if (strncmp(f, "sync.(*RWMutex).", 16) == 0)
			k = B_RWMUTEX;
		else if (strcmp(f, "sync.(*Mutex).Lock") == 0 || strcmp(f, "sync.(*Mutex).lockSlow") == 0)
			k = B_MUTEX;
		else if (strcmp(f, "sync.(*WaitGroup).Wait") == 0)
			k = B_WG;
	}
	return k;
}

/* A reconstructed mutex's or wait group's name: PREFIX_SITE (site without
 * "main."), then _N for a goroutine's N-th wait group; recorded in set
 * (unless NULL). */
static char *sync_name(struct imp *im, json_t *set, const char *prefix, const char *site, int n)
{
	const char *f = site ? site : "unknown";
	if (strncmp(f, "main.", 5) == 0)
		f += 5;
	size_t len = strlen(prefix) + strlen(f) + 16;
	char *s = malloc(len);
	if (!s) {
		im->oom = 1;
		return NULL;
	}
	int k = snprintf(s, len, "%s_", prefix);
	ident(s + k, f);
	if (n > 1)
		snprintf(s + strlen(s), len - strlen(s), "_%d", n);
	if (set && json_object_set_new(set, s, json_true()))
		im->oom = 1;
	return s;
}

/* The goroutine that g created and that is w or an ancestor of w, or NULL. */
static struct ig *child_towards(struct imp *im, const struct ig *g, struct ig *w)
{
	size_t gi = (size_t)(g - im->g);
	for (size_t depth = 0; w && depth < im->ng; depth++) {
		if (w->parent == gi)
			return w;
		w = w->parent < im->ng ? &im->g[w->parent] : NULL;
	}
	return NULL;
}

/* Mutex wait: g blocked in Lock at g->since, woken at ns by w's Unlock.
 * g takes and drops the mutex at once; w holds it from when g blocked (or
 * from w's stint's start, if later) to ns.
 * Simplification: an uncontended Lock or Unlock leaves no event, so a
 * critical section is reconstructed only where it made someone wait, and
 * only from the waiter's block on (the waker may have held it longer). */
static void mutex_wait(struct imp *im, struct ig *g, struct ig *w, int64_t ns)
{
	char *mu = sync_name(im, im->mutexes, "mu", g->site, 1);
	if (!mu)
		return;
	int64_t from = g->since > w->since ? g->since : w->since;
	end_stint(im, w, from);
	add_op(im, w, "lock", json_string(mu));
	end_stint(im, w, ns);
	add_op(im, w, "unlock", json_string(mu));
	if (mx_end(&im->mx, &w->mx, cur_ops(w), MX_UNLOCK, mu) || mx_begin(&w->mx, cur_ops(w), MX_OUT, mu))
		im->oom = 1;
	add_op(im, g, "lock", json_string(mu));
	if (mx_begin(&g->mx, cur_ops(g), MX_WOKE, mu)) /* from the wake on: held, unless lost at once */
		im->oom = 1;
	add_op(im, g, "unlock", json_string(mu));
	free(mu);
}

/* g blocks in Lock: the stretch since its last mutex event ends out of the lock. */
static void mutex_block(struct imp *im, struct ig *g)
{
	char *mu = sync_name(im, NULL, "mu", g->site, 1);
	if (!mu || mx_end(&im->mx, &g->mx, cur_ops(g), MX_BLOCK, mu))
		im->oom = 1;
	free(mu);
}

/* The go op, in the nearest common ancestor A of g and w, that leads to w
 * (or to g, when A is w itself): what comes before it comes before w's
 * Done in any replay. NULL when g and w have no common ancestor. */
static struct ig *add_site(struct imp *im, struct ig *g, struct ig *w)
{
	struct ig *a = g;
	for (size_t depth = 0; a && depth < im->ng; depth++) {
		struct ig *c = a == w ? child_towards(im, w, g) : child_towards(im, a, w);
		if (c)
			return c;
		a = a->parent < im->ng ? &im->g[a->parent] : NULL;
	}
	return NULL;
}

/* WaitGroup wait: g blocked in Wait, woken by w's last Done. The Add(1) goes
 * just before the go, in g's and w's nearest common ancestor, that led to w
 * (add_site), so it comes before the Done in any replay; w does the Done at
 * ns. Returns -1 (not reconstructed) when they have no common ancestor.
 * Simplification: the other goroutines' Done calls leave no event, so one
 * Add(1) and one Done stand for them. */
static int wg_wait(struct imp *im, struct ig *g, struct ig *w, int64_t ns)
{
	struct ig *c = add_site(im, g, w);
	if (!c || !c->go_arr || !c->go_op)
		return -1;
	size_t at = 0;
	while (at < json_array_size(c->go_arr) && json_array_get(c->go_arr, at) != c->go_op)
		at++;
	if (at == json_array_size(c->go_arr))
		return -1;
	char *wg = sync_name(im, im->wgs, "wg", g->site, ++g->nwg);
	if (!wg)
		return 0;
	json_t *add = json_object();
	if (!add || json_object_set_new(add, "add", json_string(wg)) || json_object_set_new(add, "n", json_integer(1)) ||
	    json_array_insert_new(c->go_arr, at, add))
		im->oom = 1;
	add_op(im, g, "wait", json_string(wg));
	end_stint(im, w, ns);
	add_op(im, w, "done", json_string(wg));
	free(wg);
	return 0;
}

/* When the timer that woke g was due (ns), if M m woke it through an idle
 * P: m, holding P by_p - 1, has run no goroutine since it started that P at
 * R, and it stopped a P at S, after g blocked, before that: findRunnable
 * found nothing at S (checkTimers: the timer was not due), released the P
 * and waited in netpoll, then took an idle P at R and ran the timer (proc.go
 * findRunnable). netpoll_epoll.go waits whole milliseconds (delay / 1e6,
 * 1 ms for a delay under 1 ms), so a wait R - S of k whole ms (and the
 * timer slack, 50-100 us) says the timer was due in [S + k ms, R] for
 * k >= 2, and in (S, R] for k = 1 (a delay under 1 ms, or 1 ms and a
 * little) or k = 0 (woken early: netpollBreak, a new timer). The estimate
 * is the middle of that range, so that a replay whose netpoll waits whole
 * milliseconds too (--netpoll-wait=ms, the runtime model's) wakes about
 * when the real run did where its P is idle from about S, without the
 * real lateness counted twice. -1 when not woken so, or without
 * --timer-due (then the observed wait, lateness included, is what a replay
 * with --netpoll-wait=exact needs).
 * Simplification: the middle of the range; the real due time is anywhere
 * in it (a time.Sleep's duration is not in the trace). */
static int64_t netpoll_due_ns(const struct imp *im, const struct ig *g, uint64_t m, uint64_t by_p)
{
	size_t i = 0;
	while (i < im->nms && im->ms[i].m != m)
		i++;
	if (!im->timer_due || i == im->nms || by_p == 0 || by_p > im->npp || im->pp[by_p - 1].run)
		return -1;
	int64_t s = im->ms[i].stop_ns, r = im->ms[i].start_ns;
	if (s < g->since || r <= s || im->pp[by_p - 1].ns != r)
		return -1;
	int64_t k = (r - s) / NETPOLL_MS_NS, lo = k >= 2 ? s + k * NETPOLL_MS_NS : s;
	int64_t due = lo + (r - lo) / 2;
	return due - g->since < TICK_NS ? g->since + TICK_NS : due;
}

/* The wait to replay for g's wait on a timer (a sleep, a timer's channel),
 * woken at ns on P by_p - 1 (0: unknown). A timer is run only where a P
 * passes through the scheduler (checkTimers in schedule and findRunnable,
 * stealWork's on other Ps: proc.go; the timer is in the heap of the P its
 * goroutine blocked on, time.go maybeAdd), never while that P runs a
 * goroutine. So when it fires on the P it was put on, and that P ran
 * goroutines from its last pass (a GoStart at L) until now, the timer may
 * have been due any time after L: the wait to the fire is the scheduler's
 * (a CPU-bound goroutine runs until sysmon preempts it, 10-20 ms), not the
 * program's, and the replay's own scheduler holds a timer due at L in the
 * same way. The wait replayed ends one tick after L, not at the observed
 * wake (which the replay would delay again to its next pass: the 1 ms
 * ticker of tests/data/importgo/twins/ticker, waking at a CPU-bound P's
 * preemptions, replayed 17 ms waits that fired 35 ms late). Woken through
 * an idle P (netpoll_due_ns), the wait ends at the timer's estimated due
 * time. Otherwise (on another P that was running goroutines) the observed
 * wait is kept, lateness included.
 * Simplification: the real timer was due somewhere in (L, ns]; a replay
 * that passes through its scheduler sooner than the real run did fires it
 * earlier than it was due. */
static int64_t timer_wait_ns(const struct imp *im, const struct ig *g, int64_t ns, uint64_t by_p, uint64_t m)
{
	int64_t wait = ns - g->since, due = netpoll_due_ns(im, g, m, by_p);
	if (due >= 0)
		return due - g->since;
	if (by_p == 0 || by_p != g->block_p || by_p > im->npp)
		return wait;
	int64_t l = im->pp[by_p - 1].ns;
	if (!im->pp[by_p - 1].run || l < g->since || l >= ns)
		return wait;
	return l - g->since + TICK_NS < wait ? l - g->since + TICK_NS : wait;
}

/* Whether stack (GoBlock's, GoSyscallBegin's) runs through frame f
 * (a prefix of a function name) of the net package's netFD. */
static int stack_has(const struct gtr_trace *tr, uint64_t gen, uint64_t stack, const char *f)
{
	for (unsigned i = 0; i < GTR_FRAMES; i++) {
		const char *fr = gtr_stack_frame(tr, gen, stack, i);
		if (!fr)
			return 0;
		if (strncmp(fr, f, strlen(f)) == 0)
			return 1;
	}
	return 0;
}

/* g's socket read, woken at ns after wait_us: logged (the first pass of
 * --net=socket), then a read of the socket its pair names, else a net of
 * the observed wait. */
static void net_read_wait(struct imp *im, struct ig *g, int64_t ns, int64_t wait_us)
{
	size_t k = (size_t)(g - im->g);
	long ord = g->nnet++, sock = im->net_socket && !im->collect ? net_read_sock(&im->pairs, k, ord) : -1;
	if (im->collect && net_log_wait(&im->netlog, k, ord, g->net_lo, ns))
		im->oom = 1;
	if (sock >= 0) {
		if (json_object_set_new(im->sockets, im->pairs.names[sock], json_true()))
			im->oom = 1;
		add_op(im, g, "read", json_string(im->pairs.names[sock]));
	} else {
		add_op(im, g, "net", json_integer(wait_us));
	}
}

/* c's socket write (a syscall through net.(*netFD).Write) at ns: logged,
 * and a write of each socket its pairs name. */
static void net_write(struct imp *im, struct ig *c, int64_t ns)
{
	size_t k = (size_t)(c - im->g);
	long ord = c->nwrite++;
	if (im->collect && net_log_write(&im->netlog, k, ord, ns))
		im->oom = 1;
	if (!im->net_socket || im->collect)
		return;
	for (long i = net_write_first(&im->pairs, k, ord); i >= 0 && (size_t)i < im->pairs.nwr &&
	     im->pairs.wr[i].k == k && im->pairs.wr[i].ord == ord; i++) {
		const char *name = im->pairs.names[im->pairs.wr[i].sock];
		if (json_object_set_new(im->sockets, name, json_true()))
			im->oom = 1;
		add_op(im, c, "write", json_string(name));
	}
}

/* g, blocked, is woken at ns by w (NULL: no user goroutine), on P by_p - 1
 * (0: unknown) by M m. */
static void unblock(struct imp *im, struct ig *g, struct ig *w, int64_t ns, json_t *chans, uint64_t by_p, uint64_t m)
{
	int k = g->block;
	int timer = !w && (k == B_SLEEP || k == B_RECV || k == B_SEND || k == B_SELECT);
	int64_t wait_us = ticks_us(timer ? timer_wait_ns(im, g, ns, by_p, m) : ns - g->since);
	if ((k == B_RECV || k == B_SEND || k == B_SELECT) && w) {
		const struct ig *snd = k == B_SEND ? g : w, *rcv = k == B_SEND ? w : g;
		char *c = chan_name(snd, rcv);
		if (!c) {
			im->oom = 1;
			return;
		}
		if (json_object_set_new(chans, c, json_integer(0)))
			im->oom = 1;
		end_stint(im, w, ns);
		add_op(im, w, k == B_SEND ? "recv" : "send", json_string(c));
		if (k == B_SELECT) {
			json_t *cs = json_object(), *a = json_array();
			if (!cs || !a || json_object_set_new(cs, "recv", json_string(c)) || json_array_append_new(a, cs))
				im->oom = 1;
			add_op(im, g, "select", a);
		} else {
			add_op(im, g, k == B_SEND ? "send" : "recv", json_string(c));
		}
		free(c);
	} else if (k == B_SELECT) {
		json_t *cs = json_object(), *a = json_array();
		if (!cs || !a || json_object_set_new(cs, "after", json_integer(wait_us)) || json_array_append_new(a, cs))
			im->oom = 1;
		add_op(im, g, "select", a);
	} else if (k == B_NET && g->net_read) {
		net_read_wait(im, g, ns, wait_us);
	} else if (k == B_SLEEP || k == B_NET) {
		add_op(im, g, k == B_NET ? "net" : "sleep", json_integer(wait_us));
	} else if (k == B_MUTEX && w) {
		mutex_wait(im, g, w, ns);
	} else if (k == B_WG && w && wg_wait(im, g, w, ns) == 0) {
		;
	} else {
		static const char *const why[] = {
			[B_MUTEX] = "a sync.Mutex wait woken by no user goroutine: replayed as a sleep of the observed wait",
			[B_WG] = "a sync.WaitGroup wait woken by no user goroutine, or by one with no user ancestor in common "
				 "with the waiter: replayed as a sleep of the observed wait",
			[B_RWMUTEX] = "a sync.RWMutex wait (gosim has no RWMutex): replayed as a sleep of the observed wait",
			[B_COND] = "a sync.Cond wait (gosim has no Cond): replayed as a sleep of the observed wait",
			[B_SYNC] = "a sync wait on neither a Mutex nor a WaitGroup (a semaphore, sync.Once...): replayed as a "
				   "sleep of the observed wait",
		};
		if (k >= B_MUTEX && k <= B_SYNC) {
			note(im, why[k]);
			add_op(im, g, "sleep", json_integer(wait_us));
			start(g, ns, G_RUNNABLE);
			return;
		}
		note(im, k == B_RECV || k == B_SEND ? NOTE_TIMER_CHAN
						     : "a wait with a reason gosim has no op for: replayed as a sleep of the observed wait");
		json_t *o = add_op(im, g, "sleep", json_integer(wait_us));
		if (k == B_RECV)
			timer_recv(im, g, o, ns);
	}
	start(g, ns, G_RUNNABLE);
}

/* A user goroutine's wait to run, for --stats. */
static void add_latency(struct imp *im, int64_t ns)
{
	if (im->nlat == im->caplat) {
		size_t c = im->caplat ? im->caplat * 2 : 1024;
		int64_t *a = realloc(im->lat, c * sizeof *a);
		if (!a) {
			im->oom = 1;
			return;
		}
		im->lat = a;
		im->caplat = c;
	}
	im->lat[im->nlat++] = ns;
}

static void event(struct imp *im, const struct gtr_event *e, json_t *chans)
{
	struct ig *run = cur(im, e->m), *g;
	struct ig *c = run && !run->runtime ? run : NULL;           /* a user goroutine's */
	struct ig *sc = c ? c : run && run->tracer ? run : NULL;   /* its or the tracer's: its syscalls */
	const struct gtr_trace *tr = &im->tr;
	int64_t ns = e->ns;
	im->end = ns;
	switch (e->type) {
	case EV_PROCS_CHANGE:
		if (e->arg[0] > im->procs)
			im->procs = e->arg[0];
		break;
	case EV_PROC_START: case EV_PROC_STATUS:
		if (e->arg[0] + 1 > im->maxp)
			im->maxp = e->arg[0] + 1;
		if (e->type == EV_PROC_START) { /* its M looks for work: a pass (findRunnable) */
			set_m_p(im, e->m, e->arg[0] + 1);
			m_proc(im, e->m, ns, 1);
			p_pass(im, e->arg[0] + 1, ns, 0);
		} else if (e->arg[1] == PROC_RUNNING || e->arg[1] == PROC_SYSCALL) {
			set_m_p(im, e->m, e->arg[0] + 1);
		}
		break;
	case EV_PROC_STOP: /* findRunnable found nothing, after checkTimers: a pass */
		p_pass(im, m_p(im, e->m), ns, 0);
		m_proc(im, e->m, ns, 0);
		set_m_p(im, e->m, 0);
		break;
	case EV_PROC_STEAL: /* sysmon's retake: the M in a syscall has no P now */
		if (m_p(im, e->arg[2]) == e->arg[0] + 1)
			set_m_p(im, e->arg[2], 0);
		break;
	case EV_GO_STATUS: case EV_GO_STATUS_STACK:
		if ((g = find_g(im, e->arg[0])) == NULL) {
			g = new_g(im, e->arg[0], e->arg[0] == 1 ? "main.main" :
				  e->type == EV_GO_STATUS_STACK ? gtr_stack_func(tr, e->gen, e->arg[3]) : NULL);
			if (!g) {
				im->oom = 1;
				return;
			}
			if (e->arg[0] != 1 && !g->runtime)
				note(im, "a goroutine that existed before the trace started, not main: left out"), g->runtime = 1, im->nruntime++;
			int st = e->arg[2];
			start(g, ns, st == GO_RUNNING ? G_RUNNING : st == GO_SYSCALL ? G_SYSCALL : st == GO_WAITING ? G_BLOCKED : G_RUNNABLE);
			g->block = B_OTHER;
			if (st == GO_RUNNING || st == GO_SYSCALL)
				set_cur(im, e->arg[1], g);
		}
		break;
	case EV_GO_CREATE: case EV_GO_CREATE_BLOCKED:
		if (find_g(im, e->arg[0])) { /* goids are never reused (newproc1) */
			snprintf(im->bad, sizeof im->bad, "offset %zu: goroutine %llu created twice", e->off,
				 (unsigned long long)e->arg[0]);
			return;
		}
		size_t ci = c ? (size_t)(c - im->g) : SIZE_MAX;
		const char *fn = gtr_stack_func(tr, e->gen, e->arg[1]);
		if (!(g = new_g(im, e->arg[0], fn))) {
			im->oom = 1;
			return;
		}
		c = ci < im->ng ? &im->g[ci] : NULL; /* new_g may move im->g */
		g->parent = ci;
		start(g, ns, e->type == EV_GO_CREATE ? G_RUNNABLE : G_BLOCKED);
		g->block = B_OTHER;
		if (g->runtime && c && fn && is_tracer(fn)) { /* trace.Start's, in the program's first stint */
			g->tracer = 1;
			im->ntracer++;
			end_stint(im, c, ns);
			add_op(im, c, "go", json_integer((json_int_t)g->created));
		}
		if (g->runtime)
			break;
		if (mx_begin(&g->mx, g->ops, MX_START, NULL))
			im->oom = 1;
		if (c) {
			end_stint(im, c, ns);
			json_t *ref = json_integer((json_int_t)g->created); /* resolved to a name at the end */
			add_op(im, c, "go", ref);
			g->go_arr = c->nopen ? c->open[c->nopen - 1] : c->ops;
			g->go_op = json_array_get(g->go_arr, json_array_size(g->go_arr) - 1);
		} else if (g->goid != 1) {
			note(im, "a goroutine created outside any user goroutine (by the runtime, a timer): left out");
			g->runtime = 1;
			im->nruntime++;
		}
		break;
	case EV_GO_START:
		if ((g = find_g(im, e->arg[0])) == NULL)
			break;
		if (g->tracer && g->state == G_DEAD) { /* not replayed past its first wait, but still the P's pass */
			p_pass(im, m_p(im, e->m), ns, 1);
			set_cur(im, e->m, NULL);
			break;
		}
		if (g->state == G_RUNNING && c == g) /* exitsyscallfast's GoStart after GoSysExit(lostP) */
			break;
		if (g->state == G_RUNNABLE && (!g->runtime || g->tracer)) /* as the replay counts them */
			add_latency(im, ns - g->since);
		if (g->state == G_BLOCKED)
			unblock(im, g, NULL, ns, chans, 0, e->m);
		start(g, ns, G_RUNNING);
		g->run_ns = ns;
		if (!g->ran) {
			g->ran = 1;
			g->made_lo = ns;
		}
		p_pass(im, m_p(im, e->m), ns, 1); /* schedule's checkTimers, then execute */
		set_cur(im, e->m, g);
		break;
	case EV_GO_STOP: case EV_GO_BLOCK: case EV_GO_DESTROY: {
		struct ig *r = cur(im, e->m);
		set_cur(im, e->m, NULL);
		if (r && r->tracer) { /* its stint; its first wait ends it (is_tracer) */
			end_stint(im, r, ns);
			start(r, ns, e->type == EV_GO_STOP ? G_RUNNABLE : G_DEAD);
		}
		if (!r || r->runtime)
			break;
		end_stint(im, r, ns);
		const char *why = gtr_string(tr, e->gen, e->arg[0]);
		if (e->type == EV_GO_STOP) {
			if (why && strcmp(why, "runtime.Gosched") == 0)
				add_op(im, r, "gosched", json_true());
			start(r, ns, G_RUNNABLE);
		} else if (e->type == EV_GO_BLOCK) {
			start(r, ns, G_BLOCKED);
			r->block_p = m_p(im, e->m);
			r->block = block_kind(why);
			r->net_read = r->block == B_NET && stack_has(tr, e->gen, e->arg[1], "net.(*netFD).Read");
			r->net_lo = r->sys_ns >= r->run_ns ? r->sys_ns : ns; /* its read syscall, in this stint */
			const char *site;
			if (why && strcmp(why, "sync") == 0)
				r->block = sync_kind(tr, e->gen, e->arg[1], &r->site);
			else if ((r->block == B_MUTEX || r->block == B_WG) && sync_kind(tr, e->gen, e->arg[1], &site) >= 0)
				r->site = site;
			if (r->block == B_MUTEX)
				mutex_block(im, r);
		} else {
			if (mx_end(&im->mx, &r->mx, cur_ops(r), MX_END, NULL))
				im->oom = 1;
			start(r, ns, G_DEAD);
			while (r->nopen)
				region_end(im, r);
		}
		break;
	}
	case EV_GO_UNBLOCK:
		if ((g = find_g(im, e->arg[0])) == NULL || g->runtime || g->state != G_BLOCKED)
			break;
		unblock(im, g, c, ns, chans, m_p(im, e->m), e->m);
		break;
	case EV_GO_SYSCALL_BEGIN:
		if (sc) {
			end_stint(im, sc, ns);
			start(sc, ns, G_SYSCALL);
			sc->sys_ns = ns;
		}
		if (c && (stack_has(tr, e->gen, e->arg[1], "net.(*netFD).Write") ||
			  stack_has(tr, e->gen, e->arg[1], "net.(*netFD).write")))
			net_write(im, c, ns);
		break;
	case EV_GO_SYSCALL_END: case EV_GO_SYSCALL_END_BLOCKED:
		c = sc;
		if (c && c->state == G_SYSCALL && e->type == EV_GO_SYSCALL_END && ns - c->since < FAST_SYSCALL_NS) {
			/* Simplification: a syscall under 5 us (a fast read or write:
			 * exitsyscall's fast path keeps the P) is CPU time of the stint
			 * it is in, not a syscall op. */
			c->state = G_RUNNING;
		} else if (c && c->state == G_SYSCALL) {
			add_op(im, c, "syscall", json_integer(ticks_us(ns - c->since)));
			/* Blocked with a P on its M: exitsyscallfast took an idle P
			 * (or its own back) after losing its P, and the trace says
			 * so (GoSysExit(lostP), then GoStart); the G goes _Gsyscall
			 * to _Grunning (exitsyscall's casgstatus), never runnable.
			 * Without one it is exitsyscall0's: runnable. */
			int lost = e->type == EV_GO_SYSCALL_END_BLOCKED && m_p(im, e->m) == 0;
			start(c, ns, lost ? G_RUNNABLE : G_RUNNING);
			if (lost)
				set_cur(im, e->m, NULL);
		}
		break;
	case EV_USER_REGION_BEGIN: case EV_USER_REGION_END:
		if (!c)
			break;
		end_stint(im, c, ns);
		if (e->type == EV_USER_REGION_BEGIN)
			region_begin(im, c, gtr_string(tr, e->gen, e->arg[1]));
		else
			region_end(im, c);
		break;
	case EV_GO_CREATE_SYSCALL: case EV_GO_DESTROY_SYSCALL:
		note(im, "a cgo callback (a goroutine created or destroyed in a syscall): left out");
		break;
	case EV_GO_SWITCH: case EV_GO_SWITCH_DESTROY:
		note(im, "a coroutine switch (iter.Pull): not replayed");
		break;
	default:
		break;
	}
}

/* Whether the replay ends when main does ("exit": "main", Go's rule: the
 * program ends when main returns): when the trace stopped with main not
 * blocked (running: it called trace.Stop and returns; or gone) and another
 * user goroutine still alive (a ticker, a server loop: its ops end where
 * the trace did, and the replay must not wait for them past main's end).
 * A main blocked at the trace's end (a window of a server's life) keeps
 * "exit": "all": its ops end at its last wake, not where the program would. */
static int exit_main(const struct imp *im, const struct ig *main_g)
{
	if (main_g->state == G_BLOCKED)
		return 0;
	for (size_t k = 0; k < im->ng; k++)
		if (!im->g[k].runtime && &im->g[k] != main_g && im->g[k].state != G_DEAD)
			return 1;
	return 0;
}

/* The go ops of goroutine k's ops (regions' bodies included, walked with
 * a stack of arrays, not recursion): creation indexes into names. */
static int resolve_gos(struct imp *im, json_t *ops, size_t k)
{
	json_t **todo = malloc(sizeof *todo);
	size_t n = 0, cap = 1;
	int rc = todo ? 0 : -1;
	if (todo)
		todo[n++] = ops;
	while (n && rc == 0) {
		json_t *a = todo[--n], *op;
		size_t i;
		json_array_foreach(a, i, op) {
			json_t *ref = json_object_get(op, "go"), *body = json_object_get(op, "body");
			if (ref && json_is_integer(ref)) {
				size_t c = (size_t)json_integer_value(ref);
				if (c <= k || c >= im->ng || !im->g[c].name || json_object_set_new(op, "go", json_string(im->g[c].name)))
					rc = -1;
			}
			if (body && json_is_array(body)) {
				if (n == cap) {
					json_t **t = realloc(todo, 2 * cap * sizeof *t);
					if (!t) {
						rc = -1;
						break;
					}
					todo = t;
					cap *= 2;
				}
				todo[n++] = body;
			}
		}
	}
	free(todo);
	return rc;
}

/* A merged function: its name and the goroutines (indexes) running it. */
struct group {
	char *name;
	size_t *m, n, cap;
};

static int group_add(struct group *gr, size_t k)
{
	if (gr->n == gr->cap) {
		size_t c = gr->cap ? gr->cap * 2 : 4;
		size_t *a = realloc(gr->m, c * sizeof *a);
		if (!a)
			return -1;
		gr->m = a;
		gr->cap = c;
	}
	gr->m[gr->n++] = k;
	return 0;
}

/* A function's name: the site's, then _2, _3, ... (main's others: main_1...). */
static char *func_name(json_t *count, const char *fn)
{
	json_t *cnt = json_object_get(count, fn);
	json_int_t m = cnt ? json_integer_value(cnt) + 1 : 1;
	size_t ln = strlen(fn) + 24;
	char *name = malloc(ln);
	if (!name || json_object_set_new(count, fn, json_integer(m))) {
		free(name);
		return NULL;
	}
	if (m == 1 && strcmp(fn, "main") != 0)
		snprintf(name, ln, "%s", fn);
	else
		snprintf(name, ln, "%s_%lld", fn, (long long)m);
	return name;
}

/* The go ops' references (creation indexes) into function names, children
 * first (a child is created after its parent, and its name is in its
 * parent's shape). Merging: each goroutine's ops folded (fold_repeats),
 * goroutines of one site and one shape grouped into one function, whose
 * differing durations become params (merge_shapes). */
static int name_all(struct imp *im, int merge, json_t *funcs, json_t *params)
{
	json_t *seen = json_object(), *count = json_object();
	struct group *gr = NULL;
	size_t ngr = 0;
	int rc = seen && count ? 0 : -1;
	if (rc == 0 && !(gr = calloc(im->ng ? im->ng : 1, sizeof *gr)))
		rc = -1;
	for (size_t k = im->ng; k-- > 0 && rc == 0;) {
		struct ig *g = &im->g[k];
		if (g->runtime && !g->tracer)
			continue;
		if (resolve_gos(im, g->ops, k) || (merge && fold_repeats(g->ops))) {
			rc = -1;
			break;
		}
		if (g->goid == 1 && k == 0)
			continue;
		char *shape = merge ? ops_shape(g->ops) : strdup("");
		size_t n = shape ? strlen(g->fn) + strlen(shape) + 2 : 0;
		char *key = shape ? malloc(n) : NULL;
		if (!key) {
			free(shape);
			rc = -1;
			break;
		}
		snprintf(key, n, "%s\n%s", g->fn, shape);
		json_t *was = merge ? json_object_get(seen, key) : NULL;
		size_t gi = was ? (size_t)json_integer_value(was) : ngr++;
		if (!was) {
			gr[gi].name = func_name(count, g->fn);
			if (!gr[gi].name || json_object_set_new(seen, key, json_integer((json_int_t)gi)) ||
			    json_object_set(funcs, gr[gi].name, g->ops))
				rc = -1;
		}
		if (rc == 0 && (group_add(&gr[gi], k) || !(g->name = strdup(gr[gi].name))))
			rc = -1;
		free(key);
		free(shape);
	}
	for (size_t i = 0; i < ngr && rc == 0; i++) {
		if (gr[i].n < 2)
			continue;
		json_t **mem = malloc(gr[i].n * sizeof *mem);
		for (size_t j = 0; mem && j < gr[i].n; j++)
			mem[j] = im->g[gr[i].m[gr[i].n - 1 - j]].ops; /* the first created first */
		if (!mem || json_object_set(funcs, gr[i].name, mem[0]) || merge_shapes(mem, gr[i].n, gr[i].name, params))
			rc = -1;
		free(mem);
	}
	for (size_t i = 0; gr && i < ngr; i++) {
		free(gr[i].name);
		free(gr[i].m);
	}
	free(gr);
	json_decref(seen);
	json_decref(count);
	return rc;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* w[key] = the names of set, sorted, when there are any. */
static int names_field(json_t *w, const char *key, json_t *set)
{
	size_t n = json_object_size(set), i = 0;
	if (!n)
		return 0;
	const char **k = malloc(n * sizeof *k), *name;
	json_t *v, *a = json_array();
	if (!k || !a) {
		free(k);
		json_decref(a);
		return -1;
	}
	json_object_foreach(set, name, v)
		k[i++] = name;
	qsort(k, n, sizeof *k, by_str);
	int rc = 0;
	for (i = 0; i < n && rc == 0; i++)
		rc = json_array_append_new(a, json_string(k[i]));
	free(k);
	return rc || json_object_set_new(w, key, a) ? -1 : 0;
}

static int by_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The most of the n sorted phases ph (in [0, p)) that one window
 * [f, f + tol] holds, the circle's wrap included. */
static size_t best_window(const int64_t *ph, size_t n, int64_t p, int64_t tol)
{
	size_t best = 0;
	for (size_t i = 0, j = 0; i < n; i++) { /* j: the first past ph[i] + tol, counted round the wrap */
		if (j < i)
			j = i;
		while (j < i + n && (j < n ? ph[j] : ph[j - n] + p) - ph[i] <= tol)
			j++;
		if (j - i > best)
			best = j - i;
	}
	return best;
}

/* The tick period of g's timer-woken receives, or 0 when they are not
 * seen to be a ticker's. A time.Ticker of period P fires at start + k*P; a
 * receive that blocks is woken when its fire's timer runs, on time or
 * late, and a late run moves the next fire to the grid, not P after the
 * wake (runtime/time.go unlockAndRun: when + period*(1 + delay/period)).
 * Late by how much: an idle M sleeps in netpoll until the timer, and
 * netpoll_epoll.go waits whole milliseconds (a delay under 1 ms as 1 ms),
 * so even on an idle machine a real timer fires up to about 1 ms late
 * (the 1 ms ticker twin wakes every 1.2 ms). The rule: P is the period,
 * in ticks, within 20% of the median interval between consecutive wakes,
 * that puts the most wakes in the window below (among equals, the one
 * nearest the period the whole span of wakes gives: the median alone is
 * off when lateness alternates); the wakes fit
 * when there are at least TICK_MIN_WAKES and at least TICK_FIT_PCT % of
 * them lie in one window [phase + k*P, phase + k*P + W] with
 * W = P/10 + 1 ms (TICK_LATE_NS: netpoll's millisecond), and W is at most
 * P/2: with a shorter period (under 2.5 ms) the wake times cannot tell a
 * ticker from a loop of sleeps on Linux, and the waits stay sleeps. (A
 * receive that found its tick waiting blocked not and left no event; a
 * wake late from a busy P is off the window.) A loop of sleeps or
 * time.After waits drifts off any grid by the CPU and lateness of each
 * round; one with so little jitter that it stays in the window becomes a
 * tick of its mean cadence. */
#define TICK_MIN_WAKES 8
#define TICK_FIT_PCT 75
#define TICK_LATE_NS 1000000
/* The period's resolution: 10 us (the window is over 1 ms wide; a finer
 * step fits the wakes' jitter, not the ticker: a 5 ms ticker came out as
 * 4997 us at 1 us). */
#define PERIOD_STEP_NS 10000
/* How many of g's wakes one window [phase + k*p, ... + w] holds (a holds
 * n scratch values). */
static size_t grid_fit(const struct ig *g, int64_t p, int64_t w, int64_t *a)
{
	size_t n = g->ntw;
	for (size_t i = 0; i < n; i++)
		a[i] = (g->tw[i].ns - g->tw[0].ns) % p;
	qsort(a, n, sizeof *a, by_i64);
	return best_window(a, n, p, w);
}

static int64_t window_of(int64_t p) { return p / 10 + TICK_LATE_NS; }

/* How far p is from the period the whole span of wakes gives with p's
 * count of periods in it. */
static int64_t off_span(const struct ig *g, int64_t p)
{
	int64_t span = g->tw[g->ntw - 1].ns - g->tw[0].ns, k = (span + p / 2) / p;
	return k > 0 ? llabs(p - span / k) : INT64_MAX;
}

/* The shortest period the window rule takes (window_of(p) <= p/2): below
 * it, the bracket rule (import_tick.h). */
#define TICK_WINDOW_MIN_NS (TICK_LATE_NS * 5 / 2)

static int64_t short_period(struct imp *im, const struct ig *g)
{
	int64_t *w = malloc(g->ntw * sizeof *w);
	if (!w) {
		im->oom = 1;
		return 0;
	}
	for (size_t i = 0; i < g->ntw; i++)
		w[i] = g->tw[i].ns;
	int64_t p = tick_short_period(w, g->ntw, g->made_lo, g->made_hi, TICK_WINDOW_MIN_NS, NULL);
	free(w);
	if (p < 0)
		im->oom = 1;
	return p > 0 ? p : 0;
}

static int64_t ticker_period(struct imp *im, const struct ig *g)
{
	size_t n = g->ntw;
	if (n < TICK_MIN_WAKES)
		return 0;
	int64_t *a = malloc(n * sizeof *a);
	if (!a) {
		im->oom = 1;
		return 0;
	}
	for (size_t i = 1; i < n; i++)
		a[i - 1] = g->tw[i].ns - g->tw[i - 1].ns;
	qsort(a, n - 1, sizeof *a, by_i64);
	int64_t med = a[(n - 1) / 2], best = 0;
	size_t fit = 0;
	/* coarse steps of med/500 over med +- 20%, then PERIOD_STEP_NS around the best */
	int64_t step = med / 500 > PERIOD_STEP_NS ? med / 500 : PERIOD_STEP_NS;
	for (int pass = 0; pass < 2; pass++) {
		int64_t lo = pass ? best - step : med - med / 5, hi = pass ? best + step : med + med / 5;
		int64_t by = pass ? PERIOD_STEP_NS : step;
		for (int64_t q = lo; q <= hi; q += by) {
			int64_t p = (q + PERIOD_STEP_NS / 2) / PERIOD_STEP_NS * PERIOD_STEP_NS;
			if (p < PERIOD_STEP_NS || window_of(p) > p / 2)
				continue;
			size_t f = grid_fit(g, p, window_of(p), a);
			if (f > fit || (f == fit && best && off_span(g, p) < off_span(g, best))) {
				fit = f;
				best = p;
			}
		}
		if (!best)
			break;
	}
	free(a);
	if (best && fit * 100 >= n * TICK_FIT_PCT)
		return best;
	return short_period(im, g);
}

/* Each goroutine whose timer-woken receives fit a ticker's grid gets
 * {"tick": P} for each of them instead of a sleep of the observed wait. */
static void ticker_pass(struct imp *im)
{
	for (size_t k = 0; k < im->ng && !im->oom; k++) {
		struct ig *g = &im->g[k];
		int64_t p = g->runtime ? 0 : ticker_period(im, g);
		for (size_t i = 0; p > 0 && i < g->ntw && !im->oom; i++) {
			json_object_del(g->tw[i].op, "sleep");
			if (json_object_set_new(g->tw[i].op, "tick", json_integer(p / 1000)))
				im->oom = 1;
			unnote(im, NOTE_TIMER_CHAN);
			note(im, NOTE_TICKER);
		}
	}
}

struct fn_k { const char *fn; size_t k; };

static int by_fn(const void *a, const void *b)
{
	const struct fn_k *x = a, *y = b;
	int c = strcmp(x->fn, y->fn);
	return c ? c : (x->k > y->k) - (x->k < y->k);
}

/* The pass-shape inference (mutex_passes) over each function's goroutines:
 * the sections it added, or -1 out of memory. */
static long function_passes(struct imp *im)
{
	struct fn_k *v = malloc((im->ng ? im->ng : 1) * sizeof *v);
	json_t **arrs = malloc((im->ng ? im->ng : 1) * sizeof *arrs);
	size_t n = 0;
	long total = v && arrs ? 0 : -1;
	for (size_t k = 0; k < im->ng && total == 0; k++)
		if (!im->g[k].runtime)
			v[n++] = (struct fn_k){ im->g[k].fn, k };
	if (n)
		qsort(v, n, sizeof *v, by_fn);
	for (size_t i = 0, j; i < n && total >= 0; i = j) {
		for (j = i; j < n && strcmp(v[j].fn, v[i].fn) == 0; j++)
			arrs[j - i] = im->g[v[j].k].ops;
		long got = mutex_passes(arrs, j - i);
		total = got < 0 ? -1 : total + got;
	}
	free(v);
	free(arrs);
	return total;
}

static void imp_free(struct imp *im);

/* --net=socket's first pass: the events once more on a scratch import
 * (the same goroutines in the same order), only to log the socket reads'
 * waits and the socket writes; their pairs go to im->pairs for the
 * second, which writes the workload. */
static void net_first_pass(struct imp *im)
{
	struct imp p1 = { .file = im->file, .tr = im->tr, .timer_due = im->timer_due, .collect = 1 };
	json_t *chans = json_object();
	for (size_t i = 0; chans && i < p1.tr.nev && !p1.oom && !p1.bad[0]; i++)
		event(&p1, &p1.tr.ev[i], chans);
	const char **fn = p1.ng ? malloc(p1.ng * sizeof *fn) : NULL;
	if (!chans || (p1.ng && !fn))
		p1.oom = 1;
	for (size_t k = 0; fn && k < p1.ng; k++)
		fn[k] = p1.g[k].runtime ? NULL : p1.g[k].fn;
	if (!p1.oom && !p1.bad[0] && net_pair(&p1.netlog, fn, p1.ng, &im->pairs))
		p1.oom = 1;
	im->oom |= p1.oom;
	free(fn);
	json_decref(chans);
	p1.tr = (struct gtr_trace){ 0 }; /* im's */
	imp_free(&p1);
}

static json_t *workload(struct imp *im, int merge)
{
	struct ig *main_g = im->ng && im->g[0].goid == 1 ? &im->g[0] : NULL;
	json_t *w = json_object(), *chans = json_object(), *funcs = json_object(), *params = json_object();
	im->mutexes = json_object();
	im->wgs = json_object();
	im->sockets = json_object();
	if (!w || !chans || !funcs || !params || !im->mutexes || !im->wgs || !im->sockets)
		goto fail;
	if (im->net_socket)
		net_first_pass(im);
	for (size_t i = 0; i < im->tr.nev && !im->oom && !im->bad[0]; i++)
		event(im, &im->tr.ev[i], chans);
	for (size_t k = 0; k < im->ng; k++)
		if (!im->g[k].runtime || im->g[k].tracer) {
			end_stint(im, &im->g[k], im->end);
			while (im->g[k].nopen && !im->oom)
				region_end(im, &im->g[k]);
		}
	if (im->bad[0]) {
		json_decref(w);
		json_decref(chans);
		json_decref(funcs);
		json_decref(params);
		return NULL;
	}
	long inferred = im->oom ? 0 : mutex_infer(&im->mx);
	long passes = inferred < 0 ? 0 : function_passes(im);
	inferred = passes < 0 ? -1 : inferred + passes;
	if (inferred < 0)
		im->oom = 1;
	if (!im->oom)
		ticker_pass(im);
	if (im->oom || name_all(im, merge, funcs, params))
		goto fail;
	if (!main_g)
		main_g = find_g(im, 1);
	if (!main_g || main_g->runtime) {
		json_decref(w);
		json_decref(chans);
		json_decref(funcs);
		json_decref(params);
		errno = EINVAL;
		return NULL;
	}
	const char *base = strrchr(im->file, '/');
	base = base ? base + 1 : im->file;
	char desc[512], name[256];
	snprintf(name, sizeof name, "%s", base);
	ident(name, name);
	long users = 0;
	for (size_t k = 0; k < im->ng; k++)
		users += !im->g[k].runtime;
	snprintf(desc, sizeof desc, "Imported by gosim import from %s (%lld us of trace): %ld goroutines in %zu functions; "
		 "%ld runtime goroutines (GC workers, finalizer, sweeper; start function runtime.*) left out.",
		 name, (long long)(im->end / 1000), users, json_object_size(funcs) - (size_t)im->ntracer,
		 im->nruntime - im->ntracer);
	if (im->ntracer > 0)
		snprintf(desc + strlen(desc), sizeof desc - strlen(desc),
			 " %ld of the tracer's own goroutines (trace.Start's: the trace reader, the CPU profile reader, "
			 "the advancer) replayed up to their first wait as functions runtime_*, not the program's.", im->ntracer);
	if (inferred > 0)
		snprintf(desc + strlen(desc), sizeof desc - strlen(desc),
			 " %ld uncontended sync.Mutex sections (no event in a trace) inferred from the goroutines' CPU time "
			 "between their mutex events.", inferred);
	uint64_t procs = im->procs ? im->procs : im->maxp ? im->maxp : 1;
	if (json_object_set_new(w, "name", json_string(name)) || json_object_set_new(w, "description", json_string(desc)) ||
	    json_object_set_new(w, "tick", json_string(IMPORT_TICK)) ||
	    json_object_set_new(w, "procs", json_integer((json_int_t)procs)) ||
	    (exit_main(im, main_g) && json_object_set_new(w, "exit", json_string("main"))) ||
	    (json_object_size(params) && json_object_set(w, "params", params)) || json_object_set_new(w, "chans", chans) ||
	    names_field(w, "mutexes", im->mutexes) || names_field(w, "waitgroups", im->wgs) ||
	    names_field(w, "sockets", im->sockets) ||
	    json_object_set(w, "main", main_g->ops) || json_object_set_new(w, "funcs", funcs))
		goto fail_w;
	json_decref(params);
	return w;
fail:
	json_decref(chans);
	json_decref(funcs);
	json_decref(params);
	params = NULL;
fail_w:
	json_decref(params);
	json_decref(w);
	im->oom = 1;
	return NULL;
}

static void imp_free(struct imp *im)
{
	for (size_t k = 0; k < im->ng; k++) {
		free(im->g[k].fn);
		free(im->g[k].name);
		json_decref(im->g[k].ops);
		for (size_t i = 0; i < im->g[k].nopen; i++)
			json_decref(im->g[k].open[i]);
		free(im->g[k].open);
		free(im->g[k].open_name);
		free(im->g[k].tw);
		free(im->g[k].mx.mu);
	}
	free(im->g);
	mx_free(&im->mx);
	json_decref(im->mutexes);
	json_decref(im->wgs);
	json_decref(im->sockets);
	net_log_free(&im->netlog);
	net_pairs_free(&im->pairs);
	free(im->slot);
	free(im->lat);
	free(im->ms);
	free(im->pp);
	gtr_free(&im->tr);
}

static uint8_t *slurp(const char *path, size_t *n, struct stat *st)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *b = NULL;
	size_t cap = 0, len = 0;
	if (fstat(fileno(f), st) == 0 && S_ISDIR(st->st_mode)) {
		fclose(f);
		errno = EISDIR;
		return NULL;
	}
	for (;;) {
		if (len == cap) {
			size_t c = cap ? cap * 2 : 1 << 16;
			uint8_t *a = realloc(b, c);
			if (!a) {
				free(b);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			b = a;
			cap = c;
		}
		size_t k = fread(b + len, 1, cap - len, f);
		len += k;
		if (k == 0)
			break;
	}
	int err = ferror(f);
	fclose(f);
	if (err) {
		free(b);
		errno = EIO;
		return NULL;
	}
	*n = len;
	return b;
}

/* s as a JSON string, malloc'd. */
static char *quoted(const char *s)
{
	json_t *j = json_string(s);
	char *q = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	json_decref(j);
	return q;
}

/* One op array, an op a line. */
static int put_ops(FILE *f, json_t *ops, const char *indent)
{
	size_t i;
	json_t *op;
	if (fputs("[", f) == EOF)
		return -1;
	json_array_foreach(ops, i, op) {
		char *s = json_dumps(op, JSON_COMPACT | JSON_PRESERVE_ORDER);
		int bad_put = !s || fprintf(f, "%s\n%s  %s", i ? "," : "", indent, s) < 0;
		free(s);
		if (bad_put)
			return -1;
	}
	return fprintf(f, "\n%s]", indent) < 0 ? -1 : 0;
}

/* The workload as people write them: the fields a line each, an op a line. */
static int put_workload(FILE *f, json_t *w)
{
	const char *key;
	json_t *v;
	int first = 1;
	if (fputs("{", f) == EOF)
		return -1;
	json_object_foreach(w, key, v) {
		char *k = quoted(key);
		if (!k || fprintf(f, "%s\n  %s: ", first ? "" : ",", k) < 0) {
			free(k);
			return -1;
		}
		free(k);
		first = 0;
		if (strcmp(key, "main") == 0) {
			if (put_ops(f, v, "  "))
				return -1;
		} else if (strcmp(key, "funcs") == 0) {
			const char *fn;
			json_t *ops;
			int ffirst = 1;
			if (fputs("{", f) == EOF)
				return -1;
			json_object_foreach(v, fn, ops) {
				char *q = quoted(fn);
				int bad_put = !q || fprintf(f, "%s\n    %s: ", ffirst ? "" : ",", q) < 0 || put_ops(f, ops, "    ");
				free(q);
				if (bad_put)
					return -1;
				ffirst = 0;
			}
			if (fputs("\n  }", f) == EOF)
				return -1;
		} else {
			char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
			int bad_put = !s || fputs(s, f) == EOF;
			free(s);
			if (bad_put)
				return -1;
		}
	}
	return fputs("\n}\n", f) == EOF ? -1 : 0;
}

/* The workload of n bytes of trace, or NULL with the reason in err and
 * *status the exit status (2 bad input, 5 out of memory). */
static json_t *import_buf(struct imp *im, const uint8_t *buf, size_t n, int merge, char *err, size_t errn,
			  int *status)
{
	*status = 2;
	if (gotrace_read(buf, n, &im->tr, err, errn))
		return NULL;
	json_t *w = workload(im, merge);
	if (!w) {
		if (im->bad[0])
			snprintf(err, errn, "%s", im->bad);
		else
			snprintf(err, errn, "%s", im->oom ? "out of memory" : "no main goroutine (goroutine 1) in the trace");
		*status = im->bad[0] || !im->oom ? 2 : 5;
	}
	return w;
}

char *import_text(const uint8_t *buf, size_t n, int merge)
{
	struct imp im = { .file = "fuzz", .net_socket = IMPORT_NET_SOCKET_DEFAULT };
	char err[256], *text = NULL;
	size_t len = 0;
	int status;
	json_t *w = import_buf(&im, buf, n, merge, err, sizeof err, &status);
	FILE *f = w ? open_memstream(&text, &len) : NULL;
	if (f) {
		int bad_put = put_workload(f, w) != 0;
		if (fclose(f) != 0 || bad_put) {
			free(text);
			text = NULL;
		}
	}
	json_decref(w);
	imp_free(&im);
	return text;
}

/* The captured run's figures, as the replay's report gives them: makespan,
 * each user goroutine's function, CPU time and end (creation order), and
 * (ended: false for one still alive when the trace stopped), and
 * the scheduler latency (each runnable -> running delay; the p-th
 * percentile is the ceil(p*N/100)-th smallest, as docs/report-format.md). */
static json_t *stats(struct imp *im)
{
	json_t *st = json_object(), *gs = json_array(), *lat = json_object();
	int bad = !st || !gs || !lat;
	for (size_t k = 0; k < im->ng && !bad; k++) {
		const struct ig *g = &im->g[k];
		if (g->runtime)
			continue;
		json_t *o = json_object();
		int64_t end = g->state == G_DEAD ? g->since : im->end;
		bad = !o || json_object_set_new(o, "function", json_string(g->name ? g->name : "main")) ||
		      json_object_set_new(o, "cpu_us", json_real((double)g->cpu_ns / 1e3)) ||
		      json_object_set_new(o, "end_us", json_real((double)end / 1e3)) ||
		      json_object_set_new(o, "ended", json_boolean(g->state == G_DEAD)) || json_array_append_new(gs, o);
	}
	qsort(im->lat, im->nlat, sizeof *im->lat, by_i64);
	static const int pct[] = { 50, 90, 99, 100 };
	static const char *const key[] = { "p50_us", "p90_us", "p99_us", "max_us" };
	bad = bad || json_object_set_new(lat, "count", json_integer((json_int_t)im->nlat));
	for (int i = 0; i < 4 && !bad; i++) {
		size_t r = (im->nlat * (size_t)pct[i] + 99) / 100;
		bad = json_object_set_new(lat, key[i], im->nlat ? json_real((double)im->lat[r ? r - 1 : 0] / 1e3) : json_null());
	}
	if (bad || json_object_set_new(st, "makespan_us", json_real((double)im->end / 1e3)) ||
	    json_object_set_new(st, "goroutines", gs) || json_object_set_new(st, "latency", lat)) {
		json_decref(st);
		return NULL;
	}
	return st;
}

static int put_stats(struct imp *im, const char *path)
{
	json_t *st = stats(im);
	FILE *f = st ? fopen(path, "w") : NULL;
	int rc = f && json_dumpf(st, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER) == 0 && fputc('\n', f) != EOF ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	json_decref(st);
	return rc;
}

static const char import_usage[] =
	"Usage: gosim import FILE.trace [-o WORKLOAD.json] [--no-merge] [--timer-due]\n"
	"                   [--net=socket|duration] [--stats=FILE]\n"
	"Turn a Go execution trace (runtime/trace, go test -trace; Go 1.22+) into a\n"
	"workload that gosim replays: gosim -w WORKLOAD.json -p N.\n"
	"  -o, --output=FILE  the workload (default '-': stdout)\n"
	"      --stats=FILE   also the captured run's figures as JSON: makespan, each\n"
	"                     goroutine's function, CPU time and end, scheduler latency\n"
	"      --no-merge     exact: one function per goroutine, every op as it was\n"
	"                     (default: repeated ops folded into repeat loops, and\n"
	"                     goroutines of one site and shape share a function,\n"
	"                     differing durations as params at their mean)\n"
	"      --timer-due    a timer wait woken through an idle P's netpoll as its\n"
	"                     estimated due time, for a replay with the runtime\n"
	"                     model's whole-ms netpoll wait (the default); without\n"
	"                     it, as observed, for --netpoll-wait=exact\n"
	"      --net=socket   a socket read's wait as a read of a socket that its\n"
	"                     writer's write (the goroutine that most often wrote\n"
	"                     just before its wakes) ends, so the wait moves with\n"
	"                     the writer (the default); --net=duration: every\n"
	"                     network wait as a net op of the observed wait\n";

int import_main(int argc, char **argv)
{
	static const struct option opts[] = { { "output", required_argument, NULL, 'o' },
					      { "no-merge", no_argument, NULL, 'M' },
					      { "timer-due", no_argument, NULL, 'T' },
					      { "stats", required_argument, NULL, 'S' },
					      { "net", required_argument, NULL, 'N' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	const char *outp = "-", *statp = NULL;
	int merge = 1, due = 0, net = IMPORT_NET_SOCKET_DEFAULT, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o')
			outp = optarg;
		else if (c == 'M')
			merge = 0;
		else if (c == 'T')
			due = 1;
		else if (c == 'S')
			statp = optarg;
		else if (c == 'N' && (strcmp(optarg, "socket") == 0 || strcmp(optarg, "duration") == 0))
			net = strcmp(optarg, "socket") == 0;
		else if (c == 'N') {
			msg_usage("import: --net takes socket or duration");
			return 2;
		}
		else if (c == 'h') {
			fputs(import_usage, stdout);
			return 0;
		} else {
			msg_usage("import: bad option");
			return 2;
		}
	}
	if (optind != argc - 1) {
		msg_usage("import: takes one trace file");
		return 2;
	}
	struct imp im = { .file = argv[optind], .timer_due = due, .net_socket = net };
	struct stat st;
	size_t n = 0;
	uint8_t *buf = slurp(im.file, &n, &st);
	if (!buf) {
		msg_error("%s: %s", im.file, strerror(errno));
		return 2;
	}
	char err[256];
	int status;
	json_t *w = import_buf(&im, buf, n, merge, err, sizeof err, &status);
	free(buf);
	if (!w) {
		msg_error("%s: %s", im.file, err);
		imp_free(&im);
		return status;
	}
	for (int i = 0; i < im.nnotes; i++)
		msg_error("%s: %ld x %s", im.file, im.notes[i].n, im.notes[i].what);
	struct out o;
	int rc = 0;
	if (out_open(&o, outp, &st, 1) != 0) {
		msg_error("%s: %s", outp, o.why ? o.why : strerror(errno));
		rc = 2;
	} else {
		int bad_w = put_workload(o.f, w) != 0 || fflush(o.f) == EOF;
		if (out_close(&o, !bad_w) != 0 || bad_w) {
			msg_error("%s: %s", outp, strerror(errno ? errno : EIO));
			rc = 2;
		}
	}
	if (rc == 0 && statp && put_stats(&im, statp)) {
		msg_error("%s: %s", statp, strerror(errno ? errno : EIO));
		rc = 2;
	}
	json_decref(w);
	imp_free(&im);
	return rc;
}
