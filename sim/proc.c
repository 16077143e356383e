/* proc.c: idle stacks, thread creation, startm, handoffp (see proc.h). */
#include "proc.h"
#include "mem.h"

#include <stdio.h>
#include <stdlib.h>

#include "cpu.h"
#include "runq.h"

static void set_pstatus(struct sim *s, int32_t pi, int st)
{
	struct p *pp = &s->allp[pi];
	if (pp->status == st)
		return;
	int from = pp->status;
	p_set_status(s, pi, st);
	s->sysmon_dirty = 1;
	sim_emit_p(s, pi, from, st);
}

static void set_mstate(struct sim *s, int32_t mi, int st)
{
	struct m *mp = &s->allm[mi];
	if (mp->state == st)
		return;
	int from = mp->state;
	mp->state = (uint8_t)st;
	s->nmspinning += (st == MS_SPINNING) - (from == MS_SPINNING);
	sim_emit_m(s, mi, from, st);
}

/* pidleput: push an idle P (its queues must be empty). */
void proc_pidleput(struct sim *s, int32_t pi)
{
	struct p *pp = &s->allp[pi];
	pp->m = -1;
	pp->link = s->pidle;
	s->pidle = pi;
	s->npidle++;
	set_pstatus(s, pi, P_IDLE);
}

/* pidleget: pop the most recently idled P. */
int32_t proc_pidleget(struct sim *s)
{
	int32_t pi = s->pidle;
	if (pi < 0)
		return -1;
	s->pidle = s->allp[pi].link;
	s->allp[pi].link = -1;
	s->npidle--;
	s->sysmon_dirty = 1;
	return pi;
}

/* mput (from stopm): park an M on the idle stack. */
void proc_mput(struct sim *s, int32_t mi)
{
	struct m *mp = &s->allm[mi];
	mp->p = -1;
	mp->curg = -1;
	mp->schedlink = s->midle;
	s->midle = mi;
	s->nmidle++;
	set_mstate(s, mi, MS_IDLE);
}

int32_t proc_mget(struct sim *s)
{
	int32_t mi = s->midle;
	if (mi >= 0) {
		s->midle = s->allm[mi].schedlink;
		s->allm[mi].schedlink = -1;
		s->nmidle--;
	}
	return mi;
}

/* newm + mReserveID + checkmcount: a new thread, or death past the limit. */
int32_t proc_newm(struct sim *s)
{
	if ((int64_t)s->nm + 1 > s->cfg.max_threads) {
		char msg[160];
		snprintf(msg, sizeof msg, "runtime: program exceeds %lld-thread limit\nfatal error: thread exhaustion",
			 (long long)s->cfg.max_threads);
		sim_die(s, OUT_THREAD_LIMIT, msg);
		return -1;
	}
	if (s->nm == s->mcap) {
		void *a = sim_grow(s->allm, &s->mcap, 16, sizeof *s->allm);
		if (!a)
			return sim_oom(s, "Ms");
		s->allm = a;
	}
	int32_t mi = s->nm;
	s->allm[mi] = (struct m){ .p = -1, .curg = -1, .oldp = -1, .schedlink = -1, .state = MS_NEW, .cpulink = -1 };
	s->allm[mi].cpuhome = cpu_new_thread(s); /* before nm counts it */
	s->nm++;
	if (s->nm > s->sum.threads_peak)
		s->sum.threads_peak = s->nm;
	struct sim_event e = { .ev = EV_M, .g = -1, .p = -1, .m = mi, .from = MS_NEW, .to = MS_NEW };
	sim_emit(s, &e);
	return mi;
}

/* acquirep: wire M and P together; the M runs (or spins) on it. */
void proc_acquirep(struct sim *s, int32_t mi, int32_t pi, int mstate)
{
	sim_act(s, mi); /* the acquiring M runs acquirep (after startm woke it) */
	s->allm[mi].p = pi;
	s->allp[pi].m = mi;
	set_pstatus(s, pi, P_RUNNING);
	sim_need_schedule(s, pi);
	set_mstate(s, mi, mstate);
}

void proc_m_sleep_until(struct sim *s, int32_t pi, int64_t t)
{
	s->allm[s->allp[pi].m].wake_at = t;
	if (evq_schedule(&s->evq, 2 * s->nprocs + pi, t, EVQ_MWAKE, pi, 0) != 0)
		sim_oom(s, "events");
}

/* The runtime model: the thread startm handed P pi to does not run at
 * once. A parked one is woken (notewakeup -> futexwakeup: --thread-wake),
 * a new one created (newm -> newosproc -> clone: --thread-start). */
static void startm_delay(struct sim *s, int32_t pi, int created)
{
	int64_t d = created ? s->cfg.thread_start_us : s->cfg.thread_wake_us;
	if (s->cfg.model == MODEL_RUNTIME && d > 0)
		proc_m_sleep_until(s, pi, s->now + d);
}

/* The CPU of getting the M startm runs P on (cpu.h's bursts): a parked
 * one's notewakeup -> futexwakeup (the waker's) and the futexsleep it
 * ends (the woken M's); a new one's newm -> allocm -> newosproc (clone:
 * the creator's) and mstart -> minit -> schedule (the new thread's).
 * Simplification: a creator not known (wakep's caller, sim_act(-1)) leaves
 * its part to the new thread, as for a wake (cpu_notewakeup). */
static void startm_cpu(struct sim *s, int32_t waker, int32_t mi, int created)
{
	if (!created) {
		cpu_notewakeup(s, waker, mi);
		return;
	}
	cpu_thread_op(s, waker >= 0 && waker != mi ? waker : mi, TOP_CLONE);
	cpu_thread_op(s, mi, TOP_MSTART);
}

/* mget, or newm when no M is idle; -1 if the program died. */
static int32_t get_m(struct sim *s, int *created)
{
	int32_t mi = proc_mget(s);
	*created = mi < 0;
	return mi >= 0 ? mi : proc_newm(s);
}

/* startm: run P pi on an idle M, or on a new one, after its thread wakes
 * or starts (startm_delay). Returns the M or -1 if the program died. (The
 * caller took pi off the idle stack.) */
int32_t proc_startm(struct sim *s, int32_t pi, int spinning)
{
	int created;
	int32_t waker = s->actor_m, mi = get_m(s, &created);
	if (mi < 0)
		return -1;
	proc_acquirep(s, mi, pi, spinning ? MS_SPINNING : MS_RUNNING);
	startm_delay(s, pi, created);
	startm_cpu(s, waker, mi, created);
	return mi;
}

/* becomeSpinning: an M out of local work starts spinning to steal
 * (findRunnable; the runtime model); sched.needspinning is answered. */
void proc_become_spinning(struct sim *s, int32_t mi)
{
	set_mstate(s, mi, MS_SPINNING);
	s->needspinning = 0;
}

void proc_pidleget_spinning_failed(struct sim *s)
{
	if (s->cfg.model == MODEL_RUNTIME && sim_release_rule(s, RR_NEEDSPINNING))
		s->needspinning = 1;
}

void proc_wakep_noidle(struct sim *s)
{
	if (s->cfg.model == MODEL_RUNTIME)
		s->wakep_calls++; /* sched_all's wake_idle_p makes the call */
	if (s->nmspinning == 0 && s->pidle < 0)
		proc_pidleget_spinning_failed(s);
}

int32_t proc_startm_awake(struct sim *s, int32_t pi)
{
	int created;
	int32_t mi = get_m(s, &created);
	if (mi >= 0)
		proc_acquirep(s, mi, pi, MS_RUNNING);
	return mi;
}

/* releasep + pidleput + stopm: the M found nothing to run (findRunnable's
 * drop-P path, F16 then F19). */
void proc_releasep_stopm(struct sim *s, int32_t pi)
{
	int32_t mi = s->allp[pi].m;
	proc_pidleput(s, pi);
	proc_mput(s, mi);
}

static void handoff_startm(struct sim *s, int32_t pi, int32_t from_m, int spinning)
{
	int created;
	int32_t waker = s->actor_m, mi = get_m(s, &created);
	if (mi < 0)
		return;
	struct sim_event e = { .ev = EV_HANDOFF, .g = -1, .p = pi, .m = mi, .from_m = from_m };
	sim_emit(s, &e);
	s->sum.handoffs++;
	proc_acquirep(s, mi, pi, spinning ? MS_SPINNING : MS_RUNNING);
	startm_delay(s, pi, created);
	startm_cpu(s, waker, mi, created); /* handoffp's startm wakes or creates it as any startm does */
}

/* handoffp: give away a P whose M is stuck in a syscall, in the runtime's
 * order: (1) local or global work -> startm; (4) nobody spinning and no
 * idle P -> startm spinning; (7) global work (same test as 1 here: no
 * concurrency); (8) the last running P, and no M blocked in netpoll ->
 * startm so someone polls; (9) otherwise the P goes idle.
 * Simplification: cases 2, 3, 5, 6 (trace reader, GC workers, stop the
 * world, safe-point functions) do not exist in the model. */
void sched_handoffp(struct sim *s, int32_t pi, int32_t from_m)
{
	if (!runq_empty(s, pi) || s->runq.size != 0) {
		sim_rule(s, EV_HANDOFF, RULE_HANDOFF_WORK, 1);
		handoff_startm(s, pi, from_m, 0);
		return;
	}
	if (sim_nmspinning(s) + s->npidle == 0) {
		sim_rule(s, EV_HANDOFF, RULE_HANDOFF_SPIN, 4);
		s->needspinning = 0; /* sched.needspinning.Store(0) */
		handoff_startm(s, pi, from_m, 1);
		return;
	}
	if (s->npidle == s->nprocs - 1 && !s->netpoll_blocked) { /* sched.lastpoll != 0 */
		sim_rule(s, EV_HANDOFF, RULE_HANDOFF_LASTP, 8);
		handoff_startm(s, pi, from_m, 0);
		return;
	}
	proc_pidleput(s, pi); /* case 9: the P record carries retake's rule */
}
