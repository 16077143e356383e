/* sim.c: lifecycle, the instant loop, and trace emission.
 *
 * One step is one instant of simulated time: the timed events due then
 * (CPU work finishing, system calls returning) in the order they were
 * scheduled; then the scheduler on every P that needs it (sched_all); then,
 * at sysmon pass times, a sysmon pass and the scheduler again. Nothing
 * happens between instants, so the clock jumps from one to the next. */
#include "sim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "proc.h"
#include "runq.h"
#include "sched.h"
#include "state.h"
#include "syscall.h"
#include "sysmon.h"

void sim_config_default(struct sim_config *cfg)
{
	*cfg = (struct sim_config){
		.procs = 0, /* 0: the workload's */
		.steal = 1,
		.preempt = PREEMPT_ASYNC,
		.seed = 1,
		.sysmon_period_us = SYSMON_PERIOD_US,
		.slice_us = FORCE_PREEMPT_US,
		.max_threads = MAX_THREADS_DEFAULT,
	};
}

/* The fingerprint: a 64-bit hash of the stream. Each record's fields,
 * packed into eight words, are multiplied by odd constants and rotated
 * independently (so the CPU overlaps them), summed, and folded into the
 * running hash with one multiply-rotate round (as in xxHash). */
static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static uint64_t mix(uint64_t h, uint64_t w)
{
	h ^= w * 0x9e3779b97f4a7c15ULL;
	return rotl(h, 31) * 0xc2b2ae3d27d4eb4fULL;
}

static uint64_t pair(int32_t a, int32_t b) { return (uint64_t)(uint32_t)a << 32 | (uint32_t)b; }

static uint64_t digest(const struct sim_event *e)
{
	return rotl((uint64_t)e->t * 0xff51afd7ed558ccdULL, 7) +
	       rotl(e->seq * 0xc4ceb9fe1a85ec53ULL, 13) +
	       rotl(((uint64_t)e->ev << 24 | (uint64_t)e->from << 16 | (uint64_t)e->to << 8 | e->reason) *
			    0x87c37b91114253d5ULL, 19) +
	       rotl(pair(e->g, e->p) * 0x4cf5ad432745937fULL, 23) +
	       rotl(pair(e->m, e->from_p) * 0x52dce729da3ed4b5ULL, 29) +
	       rotl(pair(e->victim, e->n) * 0x9e3779b97f4a7c15ULL, 37) +
	       rotl(pair(e->runnext, e->from_m) * 0xd6e8feb86659fd93ULL, 41) +
	       rotl((uint64_t)e->ran_us * 0xa0761d6478bd642fULL, 47);
}

int sim_emit(struct sim *s, struct sim_event *e)
{
	e->t = s->now;
	e->seq = s->seq++;
	e->by_m = s->actor_m;
	e->by_p = s->actor_m >= 0 ? s->allm[s->actor_m].p : -1;
	s->sum.fingerprint = mix(s->sum.fingerprint, digest(e));
	s->sum.events++;
	if (s->sum.events % SIM_PROGRESS_EVENTS == 0)
		sim_poll(s);
	if (s->sink.event && s->sink.event(s->sink.ctx, e) != 0) {
		if (s->status == SIM_RUNNING)
			s->status = SIM_ABORTED;
		return -1;
	}
	return 0;
}

/* Lets the sink show progress or stop the run (see sim.h). */
void sim_poll(struct sim *s)
{
	if (s->sink.progress && s->sink.progress(s->sink.ctx, s) != 0 && s->status == SIM_RUNNING)
		s->status = SIM_ABORTED;
}

static void emit_state(struct sim *s, int ev, int32_t g, int32_t p, int32_t m, int from, int to)
{
	struct sim_event e = { .ev = (uint8_t)ev, .g = g, .p = p, .m = m,
			       .from = (uint8_t)from, .to = (uint8_t)to };
	sim_emit(s, &e);
}

void sim_emit_m(struct sim *s, int32_t mi, int from, int to)
{
	const struct m *mp = &s->allm[mi];
	emit_state(s, EV_M, goid(mp->curg), mp->p, mi, from, to);
}

void sim_emit_p(struct sim *s, int32_t pi, int from, int to)
{
	const struct p *pp = &s->allp[pi];
	int32_t g = pp->m >= 0 ? goid(s->allm[pp->m].curg) : -1;
	emit_state(s, EV_P, g, pi, pp->m, from, to);
}

static int queued_place(int pl) { return pl == PL_RUNNEXT || pl == PL_LOCAL; }

static void move_g(struct sim *s, int32_t gi, int to, int32_t pi, int reason, int wait, int32_t obj)
{
	struct g *gp = &s->allg[gi];
	int from = gp->place;
	int32_t from_p = (queued_place(from) || from == PL_RUNNING) ? gp->p : -1;
	s->nqueued += queued_place(to) - queued_place(from);
	gp->place = (uint8_t)to;
	gp->p = (queued_place(to) || to == PL_RUNNING) ? pi : -1;
	switch (to) {
	case PL_RUNNING:
		gp->status = G_RUNNING;
		gp->m = s->allp[pi].m;
		break;
	case PL_SYSCALL:
		gp->status = G_SYSCALL;
		break;
	case PL_WAITING:
		gp->status = G_WAITING;
		gp->m = -1;
		break;
	case PL_DEAD:
		gp->status = G_DEAD;
		gp->m = -1;
		break;
	default:
		gp->status = G_RUNNABLE;
		gp->m = -1;
	}
	struct sim_event e = { .ev = EV_G, .g = goid(gi), .p = gp->p, .m = gp->m,
			       .from = (uint8_t)from, .to = (uint8_t)to,
			       .from_p = from_p, .reason = (uint8_t)reason,
			       .fn = from == PL_NEW ? (int32_t)gp->fn : -1, .obj = obj, .wait = (uint8_t)wait };
	sim_emit(s, &e);
}

void sim_move_g(struct sim *s, int32_t gi, int to, int32_t pi, int reason)
{
	move_g(s, gi, to, pi, reason, WR_NONE, -1);
}

void sim_move_g_waiting(struct sim *s, int32_t gi, int reason, int wait, int32_t obj)
{
	s->allg[gi].waitreason = (uint8_t)wait;
	move_g(s, gi, PL_WAITING, -1, reason, wait, obj);
}

void sim_die(struct sim *s, int outcome, const char *msg)
{
	if (s->status != SIM_RUNNING)
		return;
	s->status = SIM_DIED;
	s->sum.outcome = (uint8_t)outcome;
	snprintf(s->msg, sizeof s->msg, "%s", msg);
}

void sim_broken(struct sim *s, const char *fmt, ...)
{
	if (s->status == SIM_BROKEN)
		return;
	s->status = SIM_BROKEN;
	s->sum.outcome = OUT_BROKEN;
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(s->msg, sizeof s->msg, "invariant violated at t=%lldus: ", (long long)s->now);
	vsnprintf(s->msg + n, sizeof s->msg - (size_t)n, fmt, ap);
	va_end(ap);
}

int32_t sim_newg(struct sim *s, uint32_t fn)
{
	if (s->ng == s->gcap) {
		int32_t cap = s->gcap ? (s->gcap > INT32_MAX / 2 ? INT32_MAX : s->gcap * 2) : 64;
		struct g *a = cap > s->gcap ? realloc(s->allg, (size_t)cap * sizeof *a) : NULL;
		if (!a) {
			sim_broken(s, "out of memory for goroutines");
			return -1;
		}
		s->allg = a;
		s->gcap = cap;
	}
	int32_t gi = s->ng;
	struct g *gp = &s->allg[gi];
	*gp = (struct g){ .schedlink = -1, .p = -1, .m = -1, .status = G_IDLE, .place = PL_NEW, .fn = fn };
	int32_t depth = s->prog->funcs[fn].max_depth;
	if (depth > 0 && !(gp->iters = calloc((size_t)depth, sizeof *gp->iters))) {
		sim_broken(s, "out of memory for goroutines");
		return -1;
	}
	s->ng++;
	s->nlive++;
	s->sum.goroutines++;
	return gi;
}

static int gcd(int a, int b)
{
	while (b) {
		int t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static int check_config(const struct sim_config *c, const struct program *prog, struct sim_error *err)
{
	const char *bad = NULL;
	if (c->procs < 1 || c->procs > MAX_PROCS)
		bad = "procs must be in 1..256";
	else if (c->sysmon_period_us < 1)
		bad = "sysmon period must be at least 1us";
	else if (c->slice_us < 1)
		bad = "slice must be at least 1us";
	else if (c->max_threads < 2)
		bad = "max threads must be at least 2 (the main thread and sysmon)";
	else if (!prog || prog->main_fn < 0)
		bad = "the program has no main";
	if (bad)
		snprintf(err->msg, sizeof err->msg, "%s", bad);
	return bad ? -1 : 0;
}

static void init_ps(struct sim *s)
{
	for (int32_t pi = 0; pi < s->nprocs; pi++)
		s->allp[pi] = (struct p){ .status = P_IDLE, .m = -1, .sysm = -1, .link = -1, .runnext = -1,
					  .pd = { .schedwhen = SYSMON_LONG_AGO, .syscallwhen = SYSMON_LONG_AGO } };
	/* procresize (1.19) pushes idle Ps from the highest id down, so the
	 * lowest id is on top of the stack. P0 goes to the main thread. */
	for (int32_t pi = s->nprocs - 1; pi >= 1; pi--)
		proc_pidleput(s, pi);
	for (int i = 1; i <= s->nprocs; i++)
		if (gcd(i, s->nprocs) == 1)
			s->coprimes[s->ncoprimes++] = (uint32_t)i;
}

/* The process at its start: M0 (the main thread) on P0, sysmon's M1, the
 * main goroutine in P0's queue. */
static int boot(struct sim *s)
{
	int32_t m0 = proc_newm(s);
	s->sysmon_m = proc_newm(s);
	if (m0 < 0 || s->sysmon_m < 0)
		return -1;
	s->allm[s->sysmon_m].state = MS_SYSMON;
	proc_acquirep(s, m0, 0, MS_RUNNING);
	int32_t gi = sim_newg(s, (uint32_t)s->prog->main_fn);
	if (gi < 0)
		return -1;
	runq_put(s, 0, gi, 0, R_GO);
	return 0;
}

struct sim *sim_new(const struct sim_config *cfg, const struct program *prog,
		    const struct sim_sink *sink, struct sim_error *err)
{
	if (check_config(cfg, prog, err) != 0)
		return NULL;
	struct sim *s = calloc(1, sizeof *s);
	if (!s)
		goto fail;
	s->cfg = *cfg;
	s->prog = prog;
	if (sink)
		s->sink = *sink;
	s->status = SIM_RUNNING;
	s->nprocs = cfg->procs;
	s->pidle = s->midle = s->actor_m = -1;
	s->runq = (struct gqueue){ -1, -1, 0 };
	s->lasttrace = s->starttime = -1;
	s->sysmon_deadline = INT64_MAX;
	s->sum.procs = cfg->procs;
	s->sum.fingerprint = 0xcbf29ce484222325ULL;
	rng_init(&s->rng_steal, cfg->seed, RNG_STEAL);
	if (evq_init(&s->evq, s->nprocs) != 0) /* one CPU-done slot per P */
		goto fail;
	s->allp = calloc((size_t)s->nprocs, sizeof *s->allp);
	s->chans = calloc((size_t)prog->nchans + 1, sizeof *s->chans);
	if (!s->allp || !s->chans)
		goto fail;
	for (int32_t ci = 0; ci < prog->nchans; ci++)
		s->chans[ci] = (struct chan){ .cap = prog->chan_cap[ci],
					      .recvq = { -1, -1, 0 }, .sendq = { -1, -1, 0 } };
	init_ps(s);
	if (boot(s) != 0)
		goto fail;
	s->sysmon_dirty = 1;
	s->sysmon_next = -1; /* not started: the first step is the boot instant */
	return s;
fail:
	snprintf(err->msg, sizeof err->msg, "%s", s && s->msg[0] ? s->msg : "out of memory");
	sim_free(s);
	return NULL;
}

static void handle(struct sim *s, const struct evq_item *it)
{
	if (it->kind == EVQ_CPU_DONE) {
		sim_act(s, s->allp[it->id].m); /* the M running the P's G */
		exec_cpu_done(s, it->id, it->gen);
	} else {
		sim_act(s, s->allg[it->id].m); /* the M in the syscall */
		syscall_exit(s, it->id);
	}
	sim_check(s);
}

/* Simplification: the runtime's checkdead runs as Ms go idle; here a
 * deadlock is declared when nothing is left to happen: no timed event,
 * nothing runnable, and goroutines still waiting. */
static void finish_instant(struct sim *s)
{
	if (s->status != SIM_RUNNING)
		return;
	if (s->nlive == 0) {
		s->status = SIM_DONE;
		s->sum.outcome = OUT_DONE;
		return;
	}
	s->sysmon_next = sysmon_next_wake(s);
	if (evq_empty(&s->evq) && s->nqueued == 0 && s->runq.size == 0)
		sim_die(s, OUT_DEADLOCK, "fatal error: all goroutines are asleep - deadlock!");
}

enum sim_status sim_step(struct sim *s)
{
	if (s->status != SIM_RUNNING)
		return s->status;
	if (s->sysmon_next >= 0) {
		int64_t t = s->sysmon_next;
		if (!evq_empty(&s->evq) && evq_top_time(&s->evq) < t)
			t = evq_top_time(&s->evq);
		if (t == INT64_MAX) {
			sim_broken(s, "nothing left to happen but %lld goroutines live", (long long)s->nlive);
			return s->status;
		}
		s->now = t;
	}
	struct evq_item it;
	while (s->status == SIM_RUNNING && !evq_empty(&s->evq) && evq_top_time(&s->evq) == s->now) {
		evq_pop(&s->evq, &it);
		handle(s, &it);
	}
	sched_all(s);
	if (s->status == SIM_RUNNING && s->now > 0 && sysmon_runs_now(s)) {
		sysmon_pass(s);
		sim_check(s);
		sched_all(s);
	}
	finish_instant(s);
	return s->status;
}

enum sim_status sim_run(struct sim *s)
{
	while (sim_step(s) == SIM_RUNNING)
		;
	return s->status;
}

void sim_summary(const struct sim *s, struct sim_summary *out)
{
	*out = s->sum;
	for (int32_t pi = 0; pi < s->nprocs; pi++)
		out->busy_us[pi] = s->allp[pi].busy_us;
}

const char *sim_message(const struct sim *s) { return s->msg; }
int64_t sim_now(const struct sim *s) { return s->now; }
int64_t sim_live(const struct sim *s) { return s->nlive; }

void sim_free(struct sim *s)
{
	if (!s)
		return;
	for (int32_t gi = 0; gi < s->ng; gi++)
		free(s->allg[gi].iters);
	free(s->allg);
	free(s->allm);
	free(s->allp);
	free(s->chans);
	free(s->scratch);
	evq_free(&s->evq);
	free(s);
}

static const char *name_of(const char *const *names, int n, int i)
{
	return i >= 0 && i < n ? names[i] : "?";
}

const char *sim_place_name(int i)
{
	static const char *const names[] = { "new", "runnext", "local", "global", "running",
					     "syscall", "waiting", "dead" };
	return name_of(names, PL__N, i);
}

const char *sim_reason_name(int i)
{
	static const char *const names[] = { "", "go", "kick", "spill", "steal", "preempt",
					     "gosched", "chan", "syscall", "exitsyscall", "exit",
					     "schedule", "globrunqget" };
	return name_of(names, R__N, i);
}

const char *sim_mstate_name(int i)
{
	static const char *const names[] = { "new", "running", "spinning", "idle", "syscall" };
	return name_of(names, MS__N, i);
}

const char *sim_pstate_name(int i)
{
	static const char *const names[] = { "idle", "running", "syscall" };
	return name_of(names, PS__N, i);
}

const char *sim_waitreason_name(int i)
{
	static const char *const names[] = { "", "chan receive", "chan send" };
	return name_of(names, WR__N, i);
}

const char *sim_outcome_name(int i)
{
	static const char *const names[] = { "running", "done", "deadlock", "thread-limit", "broken",
					     "until", "interrupted" };
	return name_of(names, OUT__N, i);
}

const char *sim_ev_name(int i)
{
	static const char *const names[] = { "g", "steal", "spill", "handoff", "preempt", "m", "p" };
	return name_of(names, EV__N, i);
}
