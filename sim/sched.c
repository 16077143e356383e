/* sched.c: schedule, findRunnable, stealWork, execute (see sched.h). */
#include "sched.h"

#include <assert.h>

#include "cpu.h"
#include "exec.h"
#include "proc.h"
#include "netpoll.h"
#include "runq.h"
#include "timer.h"

/* stealWork's timer half for victim p2 (its last pass): run p2's due
 * timers here; a G they readied is in our runnext, and runs. */
static int steal_timers(struct sim *s, int32_t pi, int32_t p2, int pass, struct found *f)
{
	if (s->allp[p2].timers.len == 0 || timer_check(s, p2, pi) == 0)
		return 0;
	*f = (struct found){ .reason = R_SCHEDULE, .rule = RULE_STEAL_TIMERS, .rule_n = pass };
	f->g = runq_get(s, pi, &f->inherit);
	return f->g >= 0;
}

/* randomOrder's enumeration for one pass: count Ps from a random start
 * with a coprime stride; inv is the stride's inverse mod count, which
 * gives a P's place in the pass: (p - start) * inv mod count. */
struct steal_order {
	uint32_t start, inc, inv, count;
};

static struct steal_order steal_order(struct sim *s)
{
	uint32_t count = (uint32_t)s->nprocs, r = rng_next32(&s->rng_steal);
	uint32_t c = (r / count) % (uint32_t)s->ncoprimes;
	return (struct steal_order){ r % count, s->coprimes[c], s->coprime_inv[c], count };
}

/* The P at place k of the pass. */
static int32_t order_p(const struct steal_order *o, uint32_t k)
{
	return (int32_t)((o->start + (uint64_t)k * o->inc) % o->count);
}

/* P p2's place in the pass. */
static uint32_t order_place(const struct steal_order *o, int32_t p2)
{
	return (uint32_t)((uint64_t)((uint32_t)p2 + o->count - o->start) % o->count * o->inv % o->count);
}

/* Marks in at the places in the pass of the Ps in mask, pi left out. */
static void mark_places(const struct sim *s, const struct steal_order *o, const uint64_t *mask, int32_t pi, uint64_t *at)
{
	for (int32_t p2 = pmask_next(mask, s->nprocs, 0); p2 >= 0; p2 = pmask_next(mask, s->nprocs, p2 + 1))
		if (p2 != pi)
			pmask_add(at, (int32_t)order_place(o, p2));
}

/* A pass's visit to victim p2: its timers first on the last pass
 * (timerpMask: idle Ps too), then, unless it is idle (its queues are
 * empty), its ring, or on the last pass its runnext. */
static int steal_visit(struct sim *s, int32_t pi, int32_t p2, int pass, struct found *f)
{
	int last = pass == STEAL_TRIES;
	if (last && steal_timers(s, pi, p2, pass, f))
		return 1;
	if (s->allp[p2].status == P_IDLE)
		return 0;
	int32_t gi = runq_steal(s, pi, p2, last);
	if (gi == RUNQ_BACKOFF)
		cpu_thread_op(s, s->allp[pi].m, TOP_USLEEP); /* runqgrab's usleep(3) starts: its CPU (cpu.h) */
	if (gi < 0)
		return runq_backoff_until(s, pi) >= 0 ? -1 : 0; /* -1: in runqgrab's usleep(3), the steal stops */
	
	*f = (struct found){ .g = gi, .inherit = 0, .reason = R_STEAL, .rule = RULE_STEAL, .rule_n = pass };
	return 1;
}

/* Up to this many Ps a pass walks its whole order, skipping the Ps with
 * nothing to give; above, it visits those alone (steal_pass). */
#define STEAL_WALK_MAX 16

/* One pass (pass 1..STEAL_TRIES) over the other Ps in the pass's order.
 * Only the Ps that can give something are visited: those with a G queued
 * (runqp) and, on the last pass, those with timers (timerp), in the order
 * the whole scan meets them. The scan leaves every other P as it was (an
 * empty queue's steal fails without touching anything, an empty heap is
 * not checked), and a visit that fails changes no P's place in either
 * set but its own timers', so the set is taken once per pass: a pass
 * costs O(nprocs/64 + the Ps visited) (with few Ps, a walk of the order
 * that skips the others is cheaper still). */
static int steal_pass(struct sim *s, int32_t pi, int pass, struct found *f)
{
	struct steal_order o = steal_order(s);
	int last = pass == STEAL_TRIES;
	if (o.count <= STEAL_WALK_MAX) {
		uint64_t cand = (s->runqp[0] | (last ? s->timerp[0] : 0)) & ~(1ULL << pi);
		for (uint32_t k = 0, p2 = o.start; cand != 0 && k < o.count; k++) {
			if (cand >> p2 & 1) {
				int r = steal_visit(s, pi, (int32_t)p2, pass, f);
				if (r)
					return r;
				cand &= ~(1ULL << p2);
			}
			p2 = p2 + o.inc >= o.count ? p2 + o.inc - o.count : p2 + o.inc;
		}
		return 0;
	}
	uint64_t at[(MAX_PROCS + 63) / 64] = { 0 }; /* places in the pass of the Ps to visit */
	mark_places(s, &o, s->runqp, pi, at);
	if (last)
		mark_places(s, &o, s->timerp, pi, at);
	for (int32_t k = pmask_next(at, s->nprocs, 0); k >= 0; k = pmask_next(at, s->nprocs, k + 1)) {
		int r = steal_visit(s, pi, order_p(&o, (uint32_t)k), pass, f);
		if (r)
			return r;
	}
	return 0;
}

/* stealWork: STEAL_TRIES passes over the other Ps in a random order
 * (randomOrder: random start, coprime stride, a fresh draw per pass).
 * With nothing queued or timed anywhere every pass finds nothing: the
 * draws are made all the same, so the stream stays the scan's. */
static int steal_work(struct sim *s, int32_t pi, struct found *f)
{
	if (!sim_any_queued(s) && s->ntimers == 0) {
		for (int i = 0; i < STEAL_TRIES; i++)
			(void)rng_next32(&s->rng_steal);
		return 0;
	}
	for (int pass = 1; pass <= STEAL_TRIES; pass++) {
		int r = steal_pass(s, pi, pass, f);
		if (r)
			return r > 0; /* -1: the thief sleeps in runqgrab (spinner_backs_off) */
	}
	return 0;
}

/* With --steal=off, stealWork's timer half still runs (timer.h), over the
 * Ps in id order. */
static int run_others_timers(struct sim *s, int32_t pi, struct found *f)
{
	if (s->ntimers == 0)
		return 0;
	for (int32_t p2 = 0; p2 < s->nprocs; p2++)
		if (p2 != pi && steal_timers(s, pi, p2, 0, f))
			return 1;
	return 0;
}

/* The runtime model: findRunnable's limit on spinning Ms. An M steals only
 * if it spins already, or if 2*nmspinning < gomaxprocs - npidle, and then
 * it becomes spinning (mp.becomeSpinning) first. The seed model: always. */
static int may_steal(struct sim *s, int32_t pi)
{
	int32_t mi = s->allp[pi].m;
	if (s->cfg.model != MODEL_RUNTIME || mi < 0 || s->allm[mi].state == MS_SPINNING)
		return 1;
	if (2 * s->nmspinning >= s->nprocs - s->npidle)
		return 0;
	proc_become_spinning(s, mi);
	return 1;
}

/* findRunnable, in the runtime's order.
 * Simplification: GC workers, the trace reader and the drop-P rechecks are
 * not modelled (nor GC and stop-the-world at all):
 * F2 checkTimers on its own P (a G a timer readies lands in runnext);
 * F6 one G from the global queue when schedtick%61 == 0;
 * F9 runnext (inherits the slice), then the local ring;
 * F10 a global batch; F11 netpoll without blocking (netpoll.h);
 * F12 steal (other Ps' timers on the last pass), in the runtime model only
 *     within the spinning limit (may_steal). */
static SIM_HOT int find_runnable(struct sim *s, int32_t pi, struct found *f)
{
	struct p *pp = &s->allp[pi];
	*f = (struct found){ .g = -1, .inherit = 0, .reason = R_SCHEDULE };
	if (pp->timers.len > 0)
		timer_check(s, pi, pi);
	if (pp->schedtick % GLOBRUNQ_CHECK_TICK == 0 && s->runq.size > 0) {
		f->g = globrunq_get(s, pi, 1);
		f->rule = RULE_GLOBRUNQ_TICK;
		return 1;
	}
	f->g = runq_get(s, pi, &f->inherit);
	if (f->g >= 0) {
		f->rule = f->inherit ? RULE_RUNNEXT : RULE_RUNQ;
		return 1;
	}
	if (s->runq.size > 0) {
		int64_t before = s->runq.size;
		f->g = globrunq_get(s, pi, 0);
		f->rule = RULE_GLOBRUNQ_BATCH;
		f->rule_n = (int32_t)(before - s->runq.size);
		return 1;
	}
	if ((f->g = netpoll_poll(s, pi)) >= 0) {
		f->reason = R_NETPOLL;
		f->rule = RULE_NETPOLL;
		return 1;
	}
	if (s->cfg.steal ? may_steal(s, pi) && steal_work(s, pi, f) : run_others_timers(s, pi, f))
		return 1;
	return 0;
}

int sched_find_runnable(struct sim *s, int32_t pi, struct found *f) { return find_runnable(s, pi, f); }

/* execute: a new time slice (schedtick++) unless the G inherits the
 * current one; clears any pending preemption request (gp.preempt). The
 * G's state changes; the caller runs it. */
static SIM_HOT void execute_g(struct sim *s, int32_t pi, const struct found *f)
{
	struct p *pp = &s->allp[pi];
	struct m *mp = &s->allm[pp->m];
	struct g *gp = &s->allg[f->g];
	if (!f->inherit) {
		pp->schedtick++;
		pp->slice_start = s->now;
	}
	s->sysmon_dirty = 1; /* a new G may be preemptible where the old one was not */
	sim_resetspinning(s, pp->m); /* after a steal, already done (runq_steal) */
	gp->preempt = 0;
	mp->curg = f->g;
	sim_rule(s, EV_G, f->rule, f->rule_n);
	sim_move_g(s, f->g, PL_RUNNING, pi, f->reason);
	sim_rule_done(s);
	if (s->costs)
		exec_charge_switch(s, pi); /* execute -> gogo: the runtime model's switch cost */
}

/* execute, then the G runs; in_pass: from schedule_busy_ps's pass, whose
 * next schedules of this P may follow in the G's own loop
 * (sched_next_in_pass: only with 64 Ps at most, so the run above that
 * pays for no test that always fails). */
static SIM_HOT void execute(struct sim *s, int32_t pi, const struct found *f, int in_pass)
{
	execute_g(s, pi, f);
	if (in_pass && s->nprocs <= 64)
		exec_run_in_pass(s, f->g, sched_next_in_pass);
	else
		exec_run(s, f->g);
}

void sched_execute(struct sim *s, int32_t pi, const struct found *f) { execute(s, pi, f, 0); }

/* Work an idle P could find: the global queue, (stealing on) any G in
 * another P's runnext or ring (idle Ps' queues are always empty), or a
 * timer due on any P (its M sleeps in netpoll until the earliest), or Gs
 * ready in the poller that no blocked M will return. */
int sched_reachable_work(struct sim *s)
{
	return s->runq.size > 0 || (s->cfg.steal && sim_any_queued(s)) || timer_any_due(s) ||
	       (s->netready.size > 0 && !s->netpoll_blocked);
}

/* The runtime model: a spinning thief that met a running victim's
 * runnext sleeps runqgrab's usleep(3) (runq_runnext_take), holding its P,
 * rather than dropping it.
 * Simplification: it then runs findRunnable again from the top; the
 * runtime's thief takes that victim's runnext (if still there) at once. */
static int spinner_backs_off(struct sim *s, int32_t pi)
{
	if (s->cfg.model != MODEL_RUNTIME || s->allm[s->allp[pi].m].state != MS_SPINNING)
		return 0;
	int64_t t = runq_backoff_until(s, pi);
	if (t < 0)
		return 0;
	proc_m_sleep_until(s, pi, t);
	return 1;
}

/* findRunnable's drop-P path (Go 1.20+): a non-spinning M that finds
 * sched.needspinning set becomes spinning (becomeSpinning clears it) and
 * starts over, on behalf of the M that found work but no idle P. */
static int spin_for_needspinning(struct sim *s, int32_t pi)
{
	int32_t mi = s->allp[pi].m;
	if (!s->needspinning || s->allm[mi].state == MS_SPINNING)
		return 0;
	proc_become_spinning(s, mi);
	return 1;
}

/* schedule(): find a G for P pi and run it, or give up the P and park
 * the M (findRunnable's drop-P path: stopm; a spinner that found nothing
 * after its steal passes too). Returns 0 if the M parked. in_pass: called
 * by schedule_busy_ps (execute). */
static SIM_HOT int schedule(struct sim *s, int32_t pi, int in_pass)
{
	struct found f;
	sim_act(s, s->allp[pi].m);
	if (find_runnable(s, pi, &f) || (spin_for_needspinning(s, pi) && sched_find_runnable(s, pi, &f))) {
		execute(s, pi, &f, in_pass);
		return 1;
	}
	if (spinner_backs_off(s, pi))
		return 1;
	/* it may wait in netpoll rather than sleep (the runtime model: until
	 * pollUntil, the earliest timer of every P).
	 * Simplification: findRunnable's pollUntil is its own P's earliest
	 * timer (pp.timers.check), and every P's (checkTimersNoP) only for an
	 * M that was spinning; an M with no timer of its own and no network
	 * waiters does not block in netpoll at all. Here any M that stops
	 * waits for the earliest timer of all Ps, which is why findRunnable's
	 * own netpollBreak is not needed (netpoll.h). */
	int blocks = netpoll_block(s, netpoll_whole_ms(s) ? timer_earliest(s) : INT64_MAX);
	sim_rule(s, EV_P, RULE_STOPM, 0);
	proc_releasep_stopm(s, pi);
	sim_rule_done(s);
	if (blocks)
		netpoll_hold_m(s); /* the runtime model: in netpoll(delay), not on the idle stack */
	return 0;
}

/* The first P at or after `from` in the needs-schedule set, or -1. */
static int32_t next_needy(const struct sim *s, int32_t from) { return pmask_next(s->needsched, s->nprocs, from); }

/* Whether P pi is the needs-schedule set's only P: up to 64 Ps its one
 * word is pi's bit; else exactly one of its four words is not zero, and
 * pi's word is pi's bit. */
static int needy_alone(const struct sim *s, int32_t pi)
{
	_Static_assert(sizeof s->needsched == 4 * sizeof s->needsched[0], "the set is four words (MAX_PROCS 256)");
	const uint64_t *m = s->needsched, bit = 1ULL << (pi & 63);
	if (s->nprocs <= 64)
		return m[0] == bit;
	return m[pi >> 6] == bit && (m[0] != 0) + (m[1] != 0) + (m[2] != 0) + (m[3] != 0) == 1;
}

/* The P the scan visits after pi, which has just scheduled: the next in
 * the set, or, when pi is alone in it, pi again (the rest of the pass
 * finds nothing and the next pass starts with it), which the caller
 * reaches without ending the pass. */
static int32_t next_after_schedule(const struct sim *s, int32_t pi)
{
	if (needy_alone(s, pi))
		return pi;
	return next_needy(s, pi + 1);
}

/* The pass's next steps after P pi's G left its M (gopark -> park_m ->
 * schedule), taken without leaving the G side (exec_run_in_pass), when
 * they are known: pi is alone in the needs-schedule set, so that the pass,
 * after its check, visits pi again (next_after_schedule), whose M runs no
 * G, is awake and on its CPU (the visit's tests, schedule_busy_ps), and
 * findRunnable's first source with work is pi's own runnext or ring: no
 * timers of its own (F2), not the 61st tick with a global G (F6). Then it
 * does what the pass would: sim_check, schedule's sim_act, runqget (F9)
 * and execute, and returns the G to run; otherwise -1 with nothing done,
 * and the pass goes on as usual (a G that starts CPU work keeps its M:
 * -1 too). Only execute's in-pass loop calls it, with 64 Ps at most: the
 * set is its first word. */
int32_t sched_next_in_pass(struct sim *s, int32_t pi)
{
	const struct p *pp = &s->allp[pi];
	if (s->status != SIM_RUNNING || s->needsched[0] != 1ULL << pi ||
	    (pp->runnext < 0 && pp->runqhead == pp->runqtail) || pp->status != P_RUNNING)
		return -1; /* the tests have no side effects: the likeliest to fail first */
	const struct m *mp = &s->allm[pp->m];
	if (mp->curg >= 0 || mp->wake_at > s->now || (s->ncpus != 0 && (mp->cpu != CPU_RUN || mp->bursting)) ||
	    pp->timers.len > 0 || (pp->schedtick % GLOBRUNQ_CHECK_TICK == 0 && s->runq.size > 0))
		return -1;
	sim_check(s);
	if (s->status != SIM_RUNNING)
		return -1;
	sim_act(s, pp->m);
	struct found f = { .g = -1, .inherit = 0, .reason = R_SCHEDULE };
	f.g = runq_get(s, pi, &f.inherit);
	f.rule = f.inherit ? RULE_RUNNEXT : RULE_RUNQ;
	execute_g(s, pi, &f);
	return f.g;
}

/* Ps whose M has just lost its G (it exited, blocked, yielded or was
 * preempted) schedule again, in id order, until none is left between
 * goroutines. Only the Ps in the needs-schedule set are looked at (every
 * P that can pass the test is in it: sim_need_schedule), in the same
 * passes and order as a scan of all Ps, so the work is proportional to
 * the Ps that changed. A P leaves the set once it is running a G, not
 * running, or its M asleep (until the M's wake-up event, which puts it
 * back: driver.c); one whose M waits for a CPU stays until it goes. */
static int schedule_busy_ps(struct sim *s)
{
	int progress = 0, again = 1;
	while (again && s->status == SIM_RUNNING) {
		again = 0;
		for (int32_t pi = next_needy(s, 0); pi >= 0 && s->status == SIM_RUNNING;) {
			struct p *pp = &s->allp[pi];
			if (pp->status != P_RUNNING || s->allm[pp->m].curg >= 0) {
				pmask_del(s->needsched, pi);
				pi = next_needy(s, pi + 1);
				continue; /* running a G, or no M */
			}
			if (s->allm[pp->m].wake_at > s->now) {
				pmask_del(s->needsched, pi); /* its M asleep (the runtime model): its EVQ_MWAKE puts it back */
				pi = next_needy(s, pi + 1);
				continue;
			}
			if (!cpu_get(s, pp->m)) {
				pi = next_needy(s, pi + 1);
				continue; /* its M off CPU (--cpus) */
			}
			schedule(s, pi, 1);
			progress = again = 1;
			sim_check(s);
			pi = next_after_schedule(s, pi);
		}
	}
	return progress;
}

/* wakep -> startm(spinning) for the idle P on top of the stack, if there
 * is work it can reach. With no P between goroutines (their runnext would
 * be left to them), reachable work is always found (the seed model).
 * The runtime model: wakep starts a spinning M only when none spins
 * (nmspinning cas 0 -> 1); its thread takes --thread-wake (or, created,
 * --thread-start) to run findRunnable (proc_startm), and finds nothing yet
 * if the only work is a runnext in runqgrab's back-off (it sleeps;
 * spinner_backs_off); a call with no work in reach starts one too, which
 * finds nothing and parks, as the runtime's does.
 * The runtime model calls wakep only where proc.go does: each call site
 * adds to s->wakep_calls (newproc, ready: proc_wakep_noidle;
 * resetspinning: sim_resetspinning; goschedImpl and injectglist as
 * release rules), and the M blocked in netpoll(delay) that a timer wakes
 * (driver.c: EVQ_TIMER) takes an idle P the same way. The seed model
 * tries an idle P at every instant with reachable work.
 * Simplification: the calls are made at the end of the instant's
 * scheduling, after the Ps between goroutines have scheduled, not inside
 * the call; the netpoll M's wake-up is a wakep's (none while an M spins). */
static int wake_idle_p(struct sim *s)
{
	if (s->status != SIM_RUNNING || s->pidle < 0)
		return 0;
	int runtime = s->cfg.model == MODEL_RUNTIME;
	int for_work = !runtime && sched_reachable_work(s);
	if (!for_work && s->wakep_calls == 0)
		return 0;
	if (runtime && s->nmspinning != 0)
		return 0;
	if (!for_work)
		s->wakep_calls--;
	int32_t pi = proc_pidleget(s);
	sim_act(s, -1); /* Simplification: the M that called wakep is not tracked */
	int32_t mi = proc_startm(s, pi, 1);
	if (mi < 0)
		return 0;
	if (s->cfg.model == MODEL_RUNTIME) {
		int ran = s->allm[mi].wake_at > s->now ? 1 : schedule(s, pi, 0); /* asleep: it runs later */
		sim_check(s);
		return ran;
	}
	struct found f;
	int ok = sched_find_runnable(s, pi, &f);
	assert(ok);
	(void)ok;
	sched_execute(s, pi, &f);
	sim_check(s);
	return 1;
}

/* An M blocked in netpoll returns with the Gs whose data arrived. */
static void netpoll_return(struct sim *s)
{
	int32_t pi, gi;
	if (s->status == SIM_RUNNING && netpoll_block_return(s, &pi, &gi)) {
		struct found f = { .g = gi, .inherit = 0, .reason = R_NETPOLL, .rule = RULE_NETPOLL_BLOCKED };
		sched_execute(s, pi, &f);
		sim_check(s);
	}
}

/* sched_all's loop, out of line: the instants where nothing needs the
 * scheduler (sched_nothing) pay for one test, not for its frame. */
__attribute__((noinline)) void sched_all_loop(struct sim *s)
{
	for (;;) {
		netpoll_return(s);
		schedule_busy_ps(s);
		if (!wake_idle_p(s))
			break;
	}
}
