/* sysmon.c: retake, preemptone, schedtrace timing (see sysmon.h). */
#include "sysmon.h"

#include <stdint.h>

#include "cpu.h"
#include "exec.h"
#include "netpoll.h"
#include "proc.h"
#include "runq.h"
#include "syscall.h"
#include "sysmon_slack.h"

/* preemptone: ask the G running on P pi to stop (gp.preempt). It stops at
 * once if the mode and its op allow (exec_stoppable); otherwise the request
 * stays pending. With --preempt=off sysmon asks nothing. */
static void preemptone(struct sim *s, int32_t pi)
{
	struct p *pp = &s->allp[pi];
	if (s->cfg.preempt == PREEMPT_OFF || pp->m < 0)
		return;
	int32_t gi = s->allm[pp->m].curg;
	if (gi < 0 || s->allg[gi].place == PL_SYSCALL) /* 1.26: "don't bother ... a goroutine in a syscall" */
		return;
	s->allg[gi].preempt = 1;
	if (exec_stoppable(s, gi))
		exec_preempt(s, pi);
}

/* retake's syscall half: a P seen in the same syscall on an earlier pass
 * (or whose slice expired: sysretake) is taken if it has work, or if no P
 * is idle and nobody spins, or after 10 ms; then handoffp. Returns 1 if it
 * retook the P. */
static int retake_syscall(struct sim *s, int32_t pi, int sysretake)
{
	struct p *pp = &s->allp[pi];
	struct sysmontick *pd = &pp->pd;
	if (!sysretake && pd->syscalltick != pp->syscalltick) {
		pd->syscalltick = pp->syscalltick;
		pd->syscallwhen = s->now;
		return 0;
	}
	if (runq_empty(s, pi) && sim_nmspinning(s) + s->npidle > 0 && pd->syscallwhen + RETAKE_SYSCALL_US > s->now)
		return 0;
	int32_t from_m = pp->sysm;
	int rule = !runq_empty(s, pi) ? RULE_RETAKE_WORK : sim_nmspinning(s) + s->npidle == 0 ? RULE_RETAKE_NOIDLE : RULE_RETAKE_10MS;
	if (pp->status == P_RUNNING) { /* 1.26: still wired to the M: takeP */
		sim_rule(s, EV_P, rule, 0);
		syscall_take_p(s, pi);
	} else {
		pp->sysm = -1;
		pp->syscalltick++;
		sim_rule(s, EV_P, rule, 0);
	}
	sched_handoffp(s, pi, from_m);
	sim_rule_done(s);
	return 1;
}

/* The next P after pi (-1: from the first) that is not idle, or -1. */
static int32_t next_busy(const struct sim *s, int32_t pi) { return pmask_next(s->busyp, s->nprocs, pi + 1); }

/* retake: for each running or syscall P, preempt a slice older than
 * cfg.slice_us (as first observed by sysmon: pd.schedwhen), and retake
 * syscall Ps. The Ps are visited in id order as the runtime's loop over
 * allp does, the idle ones skipped (busyp, read afresh at each step: a
 * handoff may start or stop Ps). */
static int retake(struct sim *s)
{
	int n = 0;
	for (int32_t pi = next_busy(s, -1); pi >= 0 && s->status == SIM_RUNNING; pi = next_busy(s, pi)) {
		struct p *pp = &s->allp[pi];
		sim_act(s, s->sysmon_m); /* again: a handoff ran the M it woke */
		struct sysmontick *pd = &pp->pd;
		int sysretake = 0;
		if (pd->schedtick != pp->schedtick) {
			pd->schedtick = pp->schedtick;
			pd->schedwhen = s->now;
		} else if (pd->schedwhen + s->cfg.slice_us <= s->now) {
			preemptone(s, pi);
			sysretake = 1;
		}
		if (pp->sysm >= 0) /* in a syscall: _Psyscall, or (1.26) _Prunning with its M in one */
			n += retake_syscall(s, pi, sysretake);
	}
	return n;
}

static int64_t schedtrace_due_at(const struct sim *s)
{
	if (s->cfg.schedtrace_ms <= 0)
		return INT64_MAX;
	return s->lasttrace < 0 ? 0 : s->lasttrace + s->cfg.schedtrace_ms * 1000;
}

/* The earliest time a pass could act on P pi, given what sysmon has
 * recorded (right after a pass, so pd is current). */
static int64_t p_deadline(const struct sim *s, int32_t pi)
{
	const struct p *pp = &s->allp[pi];
	const struct sysmontick *pd = &pp->pd;
	int64_t dl = INT64_MAX;
	if (pp->sysm >= 0) {
		dl = pd->schedwhen + s->cfg.slice_us; /* sysretake */
		if (pd->syscalltick != pp->syscalltick || !runq_empty(s, pi) || s->npidle == 0)
			return s->now;
		int64_t grace = pd->syscallwhen + RETAKE_SYSCALL_US;
		return grace < dl ? grace : dl;
	}
	if (pp->status != P_RUNNING || s->cfg.preempt == PREEMPT_OFF)
		return dl;
	int32_t gi = s->allm[pp->m].curg;
	if (gi >= 0 && s->allg[gi].preempt && !exec_stoppable(s, gi))
		return dl; /* re-asking changes nothing until the G moves on */
	return pd->schedwhen + s->cfg.slice_us;
}

static int64_t deadline(const struct sim *s)
{
	int64_t dl = schedtrace_due_at(s), np = netpoll_sysmon_deadline(s);
	if (np < dl)
		dl = np;
	for (int32_t pi = next_busy(s, -1); pi >= 0; pi = next_busy(s, pi)) { /* an idle P: never */
		int64_t d = p_deadline(s, pi);
		if (d < dl)
			dl = d;
	}
	return dl;
}

/* The sleep before the pass after one that left `idle` and slept `delay`. */
static int64_t next_delay(const struct sim *s, int64_t idle, int64_t delay)
{
	int64_t base = s->cfg.sysmon_period_us;
	if (s->cfg.sysmon == SYSMON_FIXED || idle == 0)
		return base;
	if (idle > SYSMON_IDLE_PASSES)
		delay *= 2;
	return delay > SYSMON_MAX_DELAY_US ? (base > SYSMON_MAX_DELAY_US ? base : SYSMON_MAX_DELAY_US) : delay;
}

/* sysmon's clock: the time of its last pass (run or idle), the sleep that
 * led to it, the idle passes before it and the sleeps before it. */
struct smclock {
	int64_t t, delay, idle, n;
};

static struct smclock clock_of(const struct sim *s) { return (struct smclock){ s->sm_t, s->sm_delay, s->sm_idle, s->sm_n }; }

/* What sleep number n, of d us, lasts beyond d: the fixed slack, or its
 * draw (sysmon_slack.h). */
static int64_t overshoot(const struct sim *s, int64_t n, int64_t d)
{
	if (s->cfg.slack != SLACK_MEASURED)
		return s->cfg.sysmon_slack_us;
	return sysmon_slack_draw(s->cfg.seed, s->sm_level, n, d);
}

static int64_t peek_next(const struct sim *s, const struct smclock *k)
{
	int64_t d = next_delay(s, k->idle, k->delay);
	return k->t + d + overshoot(s, k->n, d);
}

/* Moves a clock through the idle passes before `target`; in the steady
 * state (the sleep no longer changes, and neither does its overshoot) in
 * one jump. */
static void skip_to(const struct sim *s, struct smclock *k, int64_t target)
{
	for (;;) {
		/* peek_next, with its sleep and overshoot kept for the step: one
		 * draw per pass skipped */
		int64_t d = next_delay(s, k->idle, k->delay), o = overshoot(s, k->n, d);
		if (k->t + d + o >= target)
			return;
		int steady = s->cfg.slack != SLACK_MEASURED &&
			     (s->cfg.sysmon == SYSMON_FIXED ||
			      (k->idle > SYSMON_IDLE_PASSES && d == k->delay && next_delay(s, k->idle + 1, d) == d));
		if (steady) {
			int64_t step = d + s->cfg.sysmon_slack_us;
			int64_t n = (target - k->t - 1) / step; /* passes strictly before target */
			k->t += n * step;
			k->idle = k->idle + n > (1 << 30) ? (1 << 30) : k->idle + n;
			k->n += n;
			return;
		}
		k->t += d + o;
		k->delay = d;
		k->idle++;
		k->n++;
	}
}

/* Sets sysmon's clock, with its next pass (peek_next) kept beside it:
 * the clock moves only here and in sysmon_pass, so the two looks at it of
 * every instant (sysmon_runs_now, sysmon_next_wake) make no draw unless it
 * moved. */
static void set_clock(struct sim *s, const struct smclock *k)
{
	s->sm_t = k->t;
	s->sm_delay = k->delay;
	s->sm_idle = k->idle;
	s->sm_n = k->n;
	s->sm_next = peek_next(s, k);
}

void sysmon_init_clock(struct sim *s)
{
	struct smclock k = clock_of(s);
	set_clock(s, &k);
}

/* Runtime init (--runtime-init=measured). The real process starts sysmon
 * (runtime.main: newm(sysmon)) before its init tasks, the program's
 * package init and main.main's own start-up (the twins' flag parsing,
 * GOMAXPROCS and clock start), so sysmon has passed several times when
 * the workload begins, and main runs the workload in a slice that P0
 * began during that start-up: retake saw its schedtick first at one of
 * those passes (pd.schedwhen, the slice's start for forcePreemptNS).
 * Which pass depends on where main was when the last one began: a real
 * 1-P twin (Go 1.23, a runtime that logs each pass) either keeps P0's
 * slice from before sysmon's first pass or starts it by a reschedule
 * during init, 0.1-0.3 ms before the workload. gosim does not run the
 * start-up; it draws, once per run, a measured run's pair: sysmon's head
 * start and how long before the workload its pass first saw the slice
 * (sysmon_init_draw), starts sysmon's clock that long before 0, and
 * gives P0's first slice (main's, at the boot instant) the time of the
 * first pass at or after the second. The passes before 0 are idle ones.
 * Simplification: start-up itself is not simulated (no goroutines, no
 * retake, no schedtrace lines before 0), and the pair comes from one
 * table whatever the workload, GOMAXPROCS or release (measured on the
 * pingpong twin at 1 P; the pingpong and mutex twins at 1, 2 and 4 Ps,
 * measured side by side, show no difference by GOMAXPROCS or program:
 * docs/costs.md), and main is on P0 (at 2 and 4 Ps the real main is on
 * P1 in most runs). */
void sysmon_start_early(struct sim *s)
{
	int64_t head_us, seen_us;
	sysmon_init_draw(s->cfg.seed, &head_us, &seen_us);
	struct smclock k = { -head_us, 0, 0, 0 }, w = k;
	int64_t t;
	while ((t = peek_next(s, &w)) < -seen_us)
		skip_to(s, &w, t + 1); /* through the pass at t */
	if (t < 0) {
		struct p *p0 = &s->allp[0];
		p0->pd.schedtick = p0->schedtick + 1; /* main's execute at the boot instant: a new slice */
		p0->pd.schedwhen = t;
	}
	w = k;
	skip_to(s, &w, 0);
	s->sm_n0 = w.n; /* the sleeps before the workload: not the run's */
	set_clock(s, &k);
}

/* Advances sysmon's own clock to the present: the passes before now were
 * idle ones (none if its next pass is not before now). */
static void catch_up(struct sim *s)
{
	if (s->sm_next >= s->now)
		return; /* skip_to would not move it */
	struct smclock k = clock_of(s);
	skip_to(s, &k, s->now);
	set_clock(s, &k);
}

/* The runtime model under --cpus: each of sysmon's sleeps costs its
 * thread --cost-sysmon of CPU (its usleep: nanosleep, the hrtimer, the
 * switches out and back), placed on the shared CPUs as a burst (cpu.h), so
 * every pass is simulated. Without --cpus (a CPU per P) it is counted, not
 * placed: sysmon has a CPU of its own. */
static int cpu_placed(const struct sim *s) { return s->ncpus > 0 && s->cfg.cost_sysmon_ns > 0; }

/* schedtrace(false): its print()s write each piece of the line to stderr
 * with a write(2) of its own (print -> gwrite -> writeErr -> write), on
 * sysmon's thread: "SCHED ", the ms, then six (1.19: five) name=value
 * pairs, "[" before P 0, a space and the run queue's length per P, "]\n":
 * 18 + 2 x GOMAXPROCS writes from Go 1.20 (needspinning), 16 + 2 x
 * GOMAXPROCS before (strace of the server twin: 26 writes a line at 4 Ps).
 * Each costs --cost-write of sysmon's CPU (cpu_thread_cost: a burst on the
 * shared CPUs with --cpus, else counted).
 * Simplification: schedtrace holds sched.lock meanwhile; an M that wants
 * it does not wait; --scheddetail's P, M and G lines (cmd/ prints them)
 * cost no more writes. */
static int64_t schedtrace_write(struct sim *s)
{
	int64_t writes = 16 + 2 * (int64_t)s->nprocs + (sim_release_rule(s, RR_NEEDSPINNING) ? 2 : 0);
	cpu_thread_cost(s, s->sysmon_m, TOP_WRITE, writes * s->cfg.cost_thread_ns[TOP_WRITE]);
	return writes * s->cfg.cost_thread_ns[TOP_WRITE];
}

void sysmon_pass(struct sim *s)
{
	catch_up(s);
	/* sysmon(): the usleep(delay) that ended here, on sysmon's thread.
	 * Simplification: a pass falls due while the thread still waits for a
	 * CPU for the last one; it runs, but its sleep costs nothing (it had
	 * not begun), and the passes keep their times. */
	if (cpu_placed(s) && s->allm[s->sysmon_m].burst_ns < 1000) {
		cpu_thread_work(s, s->sysmon_m, s->cfg.cost_sysmon_ns);
		s->sum.sysmon_cpu_ns += s->cfg.cost_sysmon_ns;
	}
	s->sm_delay = next_delay(s, s->sm_idle, s->sm_delay);
	s->sm_t = s->now;
	s->sm_n++; /* the sleep that led here */
	s->sysmon_dirty = 0;
	netpoll_sysmon(s); /* poll network if not polled for more than 10ms */
	int n = retake(s);
	s->sm_idle = n ? 0 : s->sm_idle + 1;
	sysmon_init_clock(s); /* its next pass, from the clock set above */
	if (s->status != SIM_RUNNING)
		return;
	if (schedtrace_due_at(s) <= s->now) {
		if (s->starttime < 0)
			s->starttime = s->now;
		s->lasttrace = s->now;
		/* sysmon() calls schedtrace() before its next usleep: that sleep
		 * starts when the writes are done (a real 1-P twin's passes that
		 * print a line are 16-17 us apart more than the others) */
		int64_t write_us = (schedtrace_write(s) + 500) / 1000;
		if (write_us > 0) {
			s->sm_t += write_us;
			sysmon_init_clock(s);
		}
		if (s->sink.schedtrace && s->sink.schedtrace(s->sink.ctx, s) != 0)
			s->status = SIM_ABORTED;
	}
	s->sysmon_deadline = deadline(s);
}

/* Whether a pass falls at the current instant and must run (sysmon.h's
 * inline part first). */
int sysmon_runs_now_walk(struct sim *s)
{
	if (s->now == s->sysmon_next)
		return 1;
	if (!s->sysmon_dirty)
		return 0;
	catch_up(s);
	return s->sm_next == s->now;
}

/* The next pass worth running after the current instant. The walk to
 * it (skip_to, a draw per idle pass with the measured slack) is kept in
 * s->sm_memo: the clock it started from, how far it went and the pass it
 * found. While the clock stays put, a later target up to that pass has
 * the same answer, and one beyond it goes on from where the walk stopped
 * (skip_to to a target, then on to a later one, ends where one walk to
 * the later one does), so each idle pass is drawn once. */
int64_t sysmon_next_wake_walk(struct sim *s)
{
	int64_t target = s->now + 1;
	if (!s->cfg.eager_sysmon && !cpu_placed(s) && !s->sysmon_dirty) {
		if (s->sysmon_deadline == INT64_MAX)
			return INT64_MAX;
		if (s->sysmon_deadline > target)
			target = s->sysmon_deadline;
	}
	if (s->sm_next >= target)
		return s->sm_next; /* skip_to would not move the clock */
	struct sysmon_memo *mm = &s->sm_memo;
	struct smclock k = clock_of(s); /* a copy: the future is only peeked at */
	if (mm->from_t == k.t && mm->from_n == k.n && mm->from_delay == k.delay && mm->from_idle == k.idle &&
	    mm->target <= target) {
		if (target <= mm->next)
			return mm->next;
		k = (struct smclock){ mm->t, mm->delay, mm->idle, mm->n };
	} else {
		*mm = (struct sysmon_memo){ .from_t = k.t, .from_delay = k.delay, .from_idle = k.idle, .from_n = k.n };
	}
	skip_to(s, &k, target);
	mm->t = k.t;
	mm->delay = k.delay;
	mm->idle = k.idle;
	mm->n = k.n;
	mm->target = target;
	mm->next = peek_next(s, &k);
	return mm->next;
}

int64_t sysmon_sleeps_by(const struct sim *s, int64_t t)
{
	struct smclock k = clock_of(s);
	if (k.t > t)
		return k.n; /* not started, or t before its last pass: none counted past it */
	skip_to(s, &k, t + 1); /* through the passes strictly before t + 1 */
	return k.n;
}
