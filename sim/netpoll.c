/* netpoll.c: the network poller (see netpoll.h). */
#include "netpoll.h"

#include "cpu.h"
#include "park.h"
#include "proc.h"
#include "runq.h"

#define NETPOLL_SYSMON_US 10000 /* sysmon: lastpoll+10*1000*1000 < now */

void netpoll_park(struct sim *s, int32_t gi, int32_t obj)
{
	netpoll_init(s);
	park_gopark(s, gi, WR_IO_WAIT, R_NET, obj);
	s->netpoll_waiters++;
	s->sysmon_dirty = 1;
}

void netpoll_wait(struct sim *s, int32_t gi, int64_t when)
{
	netpoll_park(s, gi, -1);
	if (evq_push(&s->evq, when, EVQ_NET_READY, gi, s->allg[gi].parkgen) != 0)
		sim_oom(s, "events");
}

void netpoll_ready(struct sim *s, int32_t gi, uint64_t gen)
{
	struct g *gp = &s->allg[gi];
	if (gp->place != PL_WAITING || gp->parkgen != (uint32_t)gen)
		return;
	gqueue_push(s, &s->netready, gi);
}

/* injectglist: G gi leaves the poller's list and is runnable. */
static void unpark(struct sim *s, int32_t gi)
{
	park_unpark(s, -1, gi, PARAM_OK);
	s->netpoll_waiters--;
}

/* injectglist of everything ready, from P pi (-1: none). From Go 1.23 a
 * non-empty list injected with a P ends with wakep (release.h:
 * INJECTGLIST_WAKEP); without a P injectglist returns after startIdle. */
static void inject(struct sim *s, int32_t pi)
{
	int64_t n = 0, nglob = 0, npidle = s->npidle;
	for (int32_t gi; (gi = gqueue_pop(s, &s->netready)) >= 0; n++) {
		unpark(s, gi);
		if (pi < 0 || n < npidle) {
			globrunq_put(s, gi, R_NETPOLL); /* globrunqputbatch, then startIdle */
			nglob++;
		} else
			runq_put(s, pi, gi, 0, R_NETPOLL); /* runqputbatch */
	}
	/* startIdle: startm(pidlegetSpinning, not spinning) per G queued, while
	 * an idle P is left (the runtime model; the seed model's idle Ps find
	 * them at once) */
	for (; s->cfg.model == MODEL_RUNTIME && nglob > 0 && s->pidle >= 0; nglob--) {
		int32_t ip = proc_pidleget(s);
		sim_act(s, -1); /* Simplification: the M running injectglist is not tracked */
		if (proc_startm(s, ip, 0) < 0)
			return;
	}
	if (n > 0 && pi >= 0 && sim_release_rule(s, RR_INJECTGLIST_WAKEP))
		proc_wakep_noidle(s);
}

int32_t netpoll_poll_ready(struct sim *s, int32_t pi)
{
	int32_t gi = gqueue_pop(s, &s->netready);
	unpark(s, gi);
	inject(s, pi);
	return gi;
}

/* The event queue's slot for the blocked M's epoll_wait: the last one. */
static int32_t wake_slot(const struct sim *s) { return s->evq.nslots - 1; }

/* The runtime model: the M leaves netpoll(delay) and is on top of the
 * idle stack, so that the startm that follows (pidleget, acquirep) takes
 * it; with no idle P it stays there (findRunnable: injectglist, stopm).
 * Returns it (-1: none, the seed model). */
static int32_t release_m(struct sim *s)
{
	int32_t mi = s->netpoll_m;
	if (mi >= 0) {
		s->netpoll_m = -1;
		proc_mput(s, mi);
	}
	return mi;
}

/* The M back from netpoll(delay) with data pays its epoll_wait, its sleep
 * and return, once it has a P or has stopped (cpu.h's bursts).
 * Simplification: a return at the timeout or a netpollBreak pays nothing
 * (tried: sleepers' makespan +10% -> +11% against the real runs, no row
 * of the fidelity table better). */
static void pay_epoll_wait(struct sim *s, int32_t mi) { cpu_thread_op(s, mi, TOP_NETPOLL); }

void netpoll_hold_m(struct sim *s)
{
	if (s->cfg.model != MODEL_RUNTIME)
		return; /* the seed model: the blocked M is one of the idle Ms */
	s->netpoll_m = proc_mget(s); /* the M that has just stopped: on top */
}

static int32_t returned(struct sim *s)
{
	if (netpoll_whole_ms(s))
		evq_cancel(&s->evq, wake_slot(s));
	int32_t mi = release_m(s);
	s->netpoll_blocked = 0;
	s->lastpoll = s->now;
	s->sysmon_dirty = 1;
	return mi;
}

int netpoll_block_return(struct sim *s, int32_t *pi, int32_t *gi)
{
	if (!s->netpoll_blocked || s->netready.size == 0)
		return 0;
	int32_t mi = returned(s);
	*pi = proc_pidleget(s);
	if (*pi < 0) { /* no P (pidlegetSpinning fails): injectglist gets them all */
		pay_epoll_wait(s, mi);
		proc_pidleget_spinning_failed(s);
		inject(s, -1);
		return 0;
	}
	if ((mi = proc_startm_awake(s, *pi)) < 0)
		return 0; /* the thread limit killed the program */
	pay_epoll_wait(s, mi); /* the seed model's M is the idle one on top; it costs nothing there */
	*gi = gqueue_pop(s, &s->netready);
	unpark(s, *gi);
	inject(s, *pi);
	return 1;
}

#define NETPOLL_MAX_SLACK_US 100000 /* fs/select.c MAX_SLACK: 100 ms */

int64_t netpoll_wait_end(int64_t now, int64_t poll_until, int64_t slack_us)
{
	if (poll_until == INT64_MAX)
		return INT64_MAX; /* delay < 0: waitms = -1, it blocks until woken */
	int64_t delay = poll_until - now, waitms; /* us here, ns in Go */
	if (delay <= 0)
		return now; /* delay == 0: waitms = 0, it polls and returns */
	if (delay < 1000)
		waitms = 1; /* delay < 1e6 */
	else if (delay < 1000000000000)
		waitms = delay / 1000; /* delay < 1e15: int32(delay / 1e6) */
	else
		waitms = 1000000000; /* 1e9 */
	/* fs/select.c select_estimate_accuracy: the larger of the thread's
	 * timer slack and __estimate_accuracy's 0.1% of the timeout (waitms
	 * ms: waitms us), which is at most MAX_SLACK, 100 ms */
	int64_t pct = waitms < NETPOLL_MAX_SLACK_US ? waitms : NETPOLL_MAX_SLACK_US;
	int64_t slack = pct > slack_us ? pct : slack_us;
	return now + waitms * 1000 + slack;
}

static void set_wake(struct sim *s, int64_t t)
{
	s->netpoll_wake_at = t;
	if (t == INT64_MAX)
		evq_cancel(&s->evq, wake_slot(s));
	else if (evq_schedule(&s->evq, wake_slot(s), t, EVQ_NETPOLL_WAKE, 0, 0) != 0)
		sim_oom(s, "events");
}

/* The runtime model's blocking netpoll(delay): pollUntil and the wait's
 * end (netpoll_wait_end). Returns 0 if the M does not block: no timer is
 * live and no G waits for data (the runtime's test, with stale timers
 * cleaned: pollUntil == 0, no waiters), or a timer is due now
 * (netpoll(0) returns at once). */
static int epoll_wait_block(struct sim *s, int64_t until)
{
	if (until == INT64_MAX && s->netpoll_waiters == 0)
		return 0;
	int64_t end = netpoll_wait_end(s->now, until, s->cfg.sysmon_slack_us);
	if (end <= s->now) {
		/* delay 0: netpoll(0) returns; a due timer this M could not take
		 * (it was not let spin) is a spinning M's.
		 * Simplification: findRunnable's M then takes an idle P
		 * (pidleget, acquirep) and goes back to top to run the timer
		 * itself; here it stops and the timer is left to a spinning M or
		 * its P's next schedule. */
		s->lastpoll = s->now;
		return 0;
	}
	s->netpoll_until = until;
	set_wake(s, end);
	return 1;
}

int netpoll_block(struct sim *s, int64_t poll_until)
{
	if (s->netpoll_inited && !s->netpoll_blocked && (s->netpoll_waiters > 0 || s->ntimers > 0)) {
		if (netpoll_whole_ms(s) && !epoll_wait_block(s, poll_until))
			return 0;
		s->netpoll_blocked = 1; /* sched.lastpoll.Swap(0) */
		s->sysmon_dirty = 1;
		return 1;
	}
	return 0;
}

void netpoll_timer_wake(struct sim *s)
{
	if (s->netpoll_blocked)
		returned(s);
}

void netpoll_wake(struct sim *s)
{
	if (!s->netpoll_blocked)
		return;
	returned(s); /* sched.pollUntil.Store(0); sched.lastpoll.Store(now) */
	int32_t pi = proc_pidleget(s); /* pidleget(now); none: stopm */
	if (pi >= 0)
		proc_startm_awake(s, pi); /* acquirep; goto top: sched_all runs its findRunnable */
}

void netpoll_timer_added(struct sim *s, int64_t when)
{
	if (s->netpoll_blocked) {
		/* pollerPollUntil > when: netpollBreak; the M's epoll_wait returns
		 * once its thread wakes */
		int64_t t = s->now + s->cfg.thread_wake_us;
		if (when < s->netpoll_until && t < s->netpoll_wake_at)
			set_wake(s, t);
	} else
		proc_wakep_noidle(s); /* lastpoll != 0: wakep, to get an M into netpoll */
}

int netpoll_sysmon(struct sim *s)
{
	if (!s->netpoll_inited || s->netpoll_blocked || s->lastpoll + NETPOLL_SYSMON_US >= s->now)
		return 0;
	s->lastpoll = s->now; /* lastpoll.CompareAndSwap(lastpoll, now) */
	if (s->netready.size == 0)
		return 0;
	inject(s, -1);
	return 1;
}

int64_t netpoll_sysmon_deadline(const struct sim *s)
{
	if (!s->netpoll_inited || s->netpoll_blocked)
		return INT64_MAX;
	return s->lastpoll + NETPOLL_SYSMON_US + 1;
}
