/* cpu.c: the machine's CPUs shared by the threads (see cpu.h). */
#include "cpu.h"

#include <stdlib.h>

#include "exec.h"

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

int64_t cpu_default_slice_us(int n)
{
	int factor = 1; /* 1 + ilog2(min(n, 8)): get_update_sysctl_factor, kernel/sched/fair.c */
	for (int c = n < 8 ? n : 8; c > 1; c /= 2)
		factor++;
	return CPU_BASE_SLICE_US * factor;
}

/* Whether the threads have CPU work of their own to place (bursts). */
static int bursts(const struct sim_config *cfg)
{
	int64_t ns = cfg->cost_sysmon_ns;
	for (int op = 0; op < TOP__N; op++)
		ns |= cfg->cost_thread_ns[op];
	return ns > 0;
}

int cpu_on(const struct sim_config *cfg, int32_t nprocs)
{
	return cfg->cpus > 0 && (cfg->cpus < nprocs || (cfg->cpu_place != CPU_PLACE_LAST && bursts(cfg)));
}

int sim_cpus_on(const struct sim_config *cfg, int nprocs) { return cpu_on(cfg, nprocs); }

int cpu_init(struct sim *s)
{
	s->cpuq = (struct cpuq){ -1, -1, 0, 0 };
	s->burst_head = s->burst_tail = -1;
	if (!cpu_on(&s->cfg, s->nprocs))
		return 0; /* a CPU per P: no M ever waits */
	s->cpus = calloc((size_t)s->cfg.cpus, sizeof *s->cpus);
	if (!s->cpus)
		return -1;
	s->ncpus = s->cfg.cpus;
	s->cpu_slice_us = s->cfg.cpu_slice_us > 0 ? s->cfg.cpu_slice_us : cpu_default_slice_us(s->ncpus);
	s->cpu_last = s->cfg.cpu_place == CPU_PLACE_LAST;
	s->cpu_percpu = s->cfg.cpu_place != CPU_PLACE_SHARED;
	s->cpu_migration_cost_us = s->cfg.cpu_migration_cost_us > 0 ? s->cfg.cpu_migration_cost_us : CPU_MIGRATION_COST_US;
	for (int c = 0; c < s->ncpus; c++)
		s->cpus[c] = (struct cpu){ .m = -1, .q = { -1, -1, 0, 0 } };
	return 0;
}

void cpu_free(struct sim *s) { free(s->cpus); }

/* M mi holds a P it runs (or spins) on. */
static int holds_p(const struct sim *s, int32_t mi)
{
	const struct m *mp = &s->allm[mi];
	return mp->state != MS_SYSMON && mp->p >= 0 && s->allp[mp->p].status == P_RUNNING && s->allp[mp->p].m == mi;
}

/* The whole microseconds of its own CPU work M mi owes (a burst). */
static int64_t owed_us(const struct m *mp) { return mp->burst_ns / 1000; }

/* The M owes CPU work of its own, or holds a P and is not asleep. */
static int wants(const struct sim *s, int32_t mi)
{
	const struct m *mp = &s->allm[mi];
	return owed_us(mp) > 0 || (holds_p(s, mi) && mp->wake_at <= s->now);
}

/* The M just given a CPU must run schedule(): it holds a P, has no G, is
 * awake and not in a burst. */
static int must_schedule(const struct sim *s, int32_t mi)
{
	const struct m *mp = &s->allm[mi];
	return holds_p(s, mi) && mp->curg < 0 && !mp->bursting && mp->wake_at <= s->now;
}

/* Its P's G (if it has one) stops, or goes on, with the M's CPU. */
static void pause_g(struct sim *s, int32_t mi)
{
	if (holds_p(s, mi))
		exec_cpu_pause(s, s->allm[mi].p);
}

/* M mi's CPU state becomes to; a wait's start or end is recorded. */
static void set_cpu(struct sim *s, int32_t mi, int to)
{
	int from = s->allm[mi].cpu;
	s->allm[mi].cpu = (uint8_t)to;
	if (from != to && (from == CPU_WAIT || to == CPU_WAIT))
		sim_emit_cpu(s, mi, from, to);
}

static int slot(const struct sim *s, int32_t c) { return 3 * s->nprocs + c; }
/* CPU c's burst end (EVQ_CPU_BURST): after the slices' and the balance's */
static int burst_slot(const struct sim *s, int32_t c) { return 3 * s->nprocs + s->ncpus + 1 + c; }

/* A run queue's home: -1 for the one queue (shared), else the CPU whose
 * queue it is (last). */
static int32_t home_of(const struct sim *s, int32_t mi) { return s->cpu_percpu ? s->allm[mi].cpuhome : -1; }

static struct cpuq *home_queue(struct sim *s, int32_t home) { return home < 0 ? &s->cpuq : &s->cpus[home].q; }

/* The queue M mi waits in: the one queue, or its CPU's (last). */
static struct cpuq *queue_of(struct sim *s, int32_t mi) { return home_queue(s, home_of(s, mi)); }

/* EEVDF (kernel/sched/fair.c, Linux 6.18, the kernel the real runs are
 * measured on). All Go threads have nice 0 (weight NICE_0_LOAD), so a
 * thread's vruntime grows as its CPU time and V, the queue's zero-lag
 * point (avg_vruntime), is the plain average of its runnable threads'. */

/* update_curr: CPU c's occupant's vruntime, counted up to now. */
static void update_curr(struct sim *s, int32_t c)
{
	struct cpu *cp = &s->cpus[c];
	if (cp->m >= 0)
		s->allm[cp->m].cpuv += s->now - cp->since;
	cp->since = s->now;
}

/* The sum and count of the vruntimes of a queue's runnable threads: its
 * waiters and the occupants of the CPUs it serves (avg_vruntime's sum and
 * load). */
struct vsum {
	int64_t sum, n;
};

static struct vsum vsum_of(struct sim *s, int32_t home)
{
	struct vsum vs = { 0, 0 };
	int32_t lo = home < 0 ? 0 : home, hi = home < 0 ? s->ncpus : home + 1;
	for (int32_t c = lo; c < hi; c++) {
		update_curr(s, c);
		if (s->cpus[c].m >= 0)
			vs.sum += s->allm[s->cpus[c].m].cpuv, vs.n++;
	}
	struct cpuq *q = home_queue(s, home);
	for (int32_t mi = q->head; mi >= 0; mi = s->allm[mi].cpulink)
		vs.sum += s->allm[mi].cpuv, vs.n++;
	if (vs.n > 0)
		q->vzero = floor_div(vs.sum, vs.n);
	return vs;
}

/* entity_eligible: lag >= 0, v <= V (vruntime_eligible compares the
 * sums, exactly). */
static int eligible(const struct vsum *vs, int64_t v) { return vs->n == 0 || v * vs->n <= vs->sum; }

/* update_entity_lag: M mi stops wanting a CPU; it keeps V - v, clamped
 * to +-max(2 * slice, TICK_NSEC). Simplification: a thread that stops
 * not eligible (negative lag) keeps it, as PLACE_LAG alone does (Linux
 * 6.6-6.11); 6.12+'s DELAY_DEQUEUE keeps it queued until it turns
 * eligible and then drops it with no lag (DELAY_ZERO), so a thread that
 * sleeps long enough comes back with lag 0, not negative. */
static void save_lag(struct sim *s, int32_t mi, const struct vsum *vs)
{
	struct m *mp = &s->allm[mi];
	int64_t limit = 2 * s->cpu_slice_us > CPU_TICK_US ? 2 * s->cpu_slice_us : CPU_TICK_US;
	int64_t lag = vs->n > 0 ? floor_div(vs->sum - mp->cpuv * vs->n, vs->n) : 0;
	mp->cpulag = lag < -limit ? -limit : lag > limit ? limit : lag;
}

/* place_entity: M mi newly wants a CPU. With others runnable it keeps
 * its lag (PLACE_LAG: v = V - lag * (n + 1) / n, so that adding it
 * leaves it that lag); its deadline is a slice on (half a slice for a
 * thread the program created, at its first run: PLACE_DEADLINE_INITIAL,
 * wake_up_new_task; the threads of the process's start, boot's M0 and
 * init's Ms, have run before the measured run begins). */
static void place(struct sim *s, int32_t mi)
{
	struct m *mp = &s->allm[mi];
	int32_t home = home_of(s, mi);
	struct vsum vs = vsum_of(s, home);
	if (vs.n == 0)
		mp->cpuv = home_queue(s, home)->vzero;
	else
		mp->cpuv = floor_div(vs.sum - mp->cpulag * (vs.n + 1), vs.n);
	int initial = !mp->cpuplaced && mi > s->cfg.init_threads + 1; /* boot's Ms: M0, sysmon, init's */
	mp->cpud = mp->cpuv + (initial ? s->cpu_slice_us / 2 : s->cpu_slice_us);
	mp->cpuplaced = 1;
}

/* pick_eevdf over a queue's waiters and, with cand >= 0, that occupant
 * (the running thread, which Linux puts back in the tree before it picks,
 * after the waiters: it wins no tie): the eligible one with the earliest
 * deadline (the first queued on a tie), else the one with the least
 * vruntime. */
static int32_t pick(struct sim *s, int32_t home, int32_t cand)
{
	if (s->cpu_last) /* Simplification (last): round robin, the waiter that queued first */
		return home_queue(s, home)->n > 0 ? home_queue(s, home)->head : cand;
	struct vsum vs = vsum_of(s, home);
	int32_t best = -1, least = -1;
	for (int32_t mi = home_queue(s, home)->head;; mi = s->allm[mi].cpulink) {
		if (mi < 0 && (mi = cand) < 0)
			break;
		const struct m *mp = &s->allm[mi];
		if (eligible(&vs, mp->cpuv) && (best < 0 || mp->cpud < s->allm[best].cpud))
			best = mi;
		if (least < 0 || mp->cpuv < s->allm[least].cpuv)
			least = mi;
		if (mi == cand)
			break;
	}
	return best >= 0 ? best : least;
}

/* M mi waits: at its queue's tail, or (front) its head. */
static void enqueue(struct sim *s, int32_t mi, int front)
{
	struct m *mp = &s->allm[mi];
	struct cpuq *q = queue_of(s, mi);
	set_cpu(s, mi, CPU_WAIT);
	mp->cpulink = -1;
	if (front) {
		mp->cpulink = q->head;
		q->head = mi;
		if (q->tail < 0)
			q->tail = mi;
	} else {
		if (q->tail >= 0)
			s->allm[q->tail].cpulink = mi;
		else
			q->head = mi;
		q->tail = mi;
	}
	q->n++;
	s->nwaiting++;
}

static int32_t free_cpu(const struct sim *s)
{
	for (int32_t c = 0; c < s->ncpus; c++)
		if (s->cpus[c].m < 0)
			return c;
	return -1;
}

/* M mi, on CPU c, does the CPU work it owes: its G (if any) waits. */
static void start_burst(struct sim *s, int32_t mi, int32_t c)
{
	struct m *mp = &s->allm[mi];
	mp->bursting = 1;
	mp->burst_start = s->now;
	pause_g(s, mi);
	if (evq_schedule(&s->evq, burst_slot(s, c), s->now + owed_us(mp), EVQ_CPU_BURST, c, 0) != 0)
		sim_oom(s, "events");
}

/* M mi's burst on CPU c stops short (it loses the CPU): what it did is
 * paid, the rest it owes. */
static void stop_burst(struct sim *s, int32_t mi, int32_t c)
{
	struct m *mp = &s->allm[mi];
	if (!mp->bursting)
		return;
	mp->burst_ns -= (s->now - mp->burst_start) * 1000;
	mp->bursting = 0;
	evq_cancel(&s->evq, burst_slot(s, c));
}

/* M mi takes CPU c for a slice: it does the CPU work it owes first, then
 * its G's CPU work goes on. */
static void run_on(struct sim *s, int32_t mi, int32_t c)
{
	set_cpu(s, mi, CPU_RUN);
	s->cpus[c].m = mi;
	s->cpus[c].since = s->now;
	s->allm[mi].cpuhome = c;
	if (owed_us(&s->allm[mi]) > 0)
		start_burst(s, mi, c);
	else if (holds_p(s, mi))
		exec_cpu_resume(s, s->allm[mi].p);
}

/* Ms that no longer want a CPU leave it, or leave their queue, keeping
 * their lag (against V before any of them left). */
static void release_queue(struct sim *s, struct cpuq *q, const struct vsum *vs)
{
	int32_t mi = q->head;
	s->nwaiting -= q->n;
	*q = (struct cpuq){ -1, -1, 0, q->vzero };
	while (mi >= 0) {
		int32_t next = s->allm[mi].cpulink;
		if (wants(s, mi)) {
			enqueue(s, mi, 0);
		} else {
			save_lag(s, mi, vs);
			set_cpu(s, mi, CPU_NONE);
		}
		mi = next;
	}
}

static void release_home(struct sim *s, int32_t home)
{
	struct vsum vs = vsum_of(s, home);
	int32_t lo = home < 0 ? 0 : home, hi = home < 0 ? s->ncpus : home + 1;
	for (int32_t c = lo; c < hi; c++) {
		int32_t mi = s->cpus[c].m;
		if (mi >= 0 && !wants(s, mi)) {
			save_lag(s, mi, &vs);
			set_cpu(s, mi, CPU_NONE);
			s->cpus[c].m = -1;
			s->allm[mi].cpuleft = s->now; /* task_hot counts from its last run */
		}
	}
	release_queue(s, home_queue(s, home), &vs);
}

/* CPU c's occupant let go in this instant (release_unwanted has not run
 * yet): it leaves, keeping its lag. */
static void drop_if_unwanted(struct sim *s, int32_t c)
{
	int32_t o = s->cpus[c].m;
	if (o < 0 || wants(s, o))
		return;
	struct vsum vs = vsum_of(s, s->cpu_percpu ? c : -1);
	save_lag(s, o, &vs);
	s->cpus[c].m = -1;
	s->allm[o].cpuleft = s->now;
	set_cpu(s, o, CPU_NONE);
}

static void release_unwanted(struct sim *s)
{
	if (!s->cpu_percpu)
		release_home(s, -1);
	else
		for (int32_t c = 0; c < s->ncpus; c++)
			release_home(s, c);
}

/* CPU c's nr_running: its occupant and its waiters (per-CPU queues). */
static int32_t nr_running(const struct sim *s, int32_t c) { return (s->cpus[c].m >= 0) + s->cpus[c].q.n; }

/* last: the CPU with the fewest threads. linux, prev: wake_up_new_task's
 * select_task_rq(WF_FORK) -> sched_balance_find_dst_cpu (kernel/sched/
 * fair.c): the least loaded CPU, an idle one first. Simplification: load
 * is nr_running, and a tie goes to the CPU with the fewest threads (the
 * sleeping threads' PELT load, which the kernel still counts), then the
 * lowest id. */
int32_t cpu_new_thread(const struct sim *s)
{
	if (!s->cpu_percpu)
		return -1;
	int32_t n[MAX_CPUS] = { 0 }, best = 0;
	for (int32_t mi = 0; mi < s->nm; mi++)
		if (s->allm[mi].cpuhome >= 0)
			n[s->allm[mi].cpuhome]++;
	for (int32_t c = 1; c < s->ncpus; c++) {
		int32_t d = s->cpu_last ? 0 : nr_running(s, c) - nr_running(s, best);
		if (d < 0 || (d == 0 && n[c] < n[best]))
			best = c;
	}
	return best;
}

/* check_preempt_wakeup_fair: M mi, just placed, preempts an occupant of
 * a CPU its queue serves if it is the queue's pick_eevdf (eligible, and no
 * eligible waiter has an earlier deadline) and the occupant is not: an
 * occupant that is eligible keeps its CPU to its deadline (RUN_TO_PARITY:
 * with equal slices set_protect_slice protects the whole slice), one that
 * is not loses it. Returns that CPU (of several, the occupant with the
 * latest deadline), or -1. Simplification: shared: the one queue's V
 * stands for each CPU's own, and mi may preempt any CPU, where Linux
 * checks only the CPU select_task_rq_fair put it on. */
static int32_t preempt_target(struct sim *s, int32_t mi)
{
	int32_t home = home_of(s, mi);
	struct vsum vs = vsum_of(s, home);
	const struct m *w = &s->allm[mi];
	vs.sum += w->cpuv, vs.n++; /* mi is runnable */
	if (!eligible(&vs, w->cpuv))
		return -1;
	for (int32_t x = home_queue(s, home)->head; x >= 0; x = s->allm[x].cpulink)
		if (eligible(&vs, s->allm[x].cpuv) && s->allm[x].cpud < w->cpud)
			return -1;
	int32_t lo = home < 0 ? 0 : home, hi = home < 0 ? s->ncpus : home + 1, best = -1;
	for (int32_t c = lo; c < hi; c++) {
		int32_t o = s->cpus[c].m;
		if (o < 0 || eligible(&vs, s->allm[o].cpuv))
			continue;
		if (best < 0 || s->allm[o].cpud > s->allm[s->cpus[best].m].cpud)
			best = c;
	}
	return best;
}

/* CPU c's occupant stops running and waits, at its queue's head (take_last)
 * or tail. */
static void unseat(struct sim *s, int32_t c, int head)
{
	int32_t o = s->cpus[c].m;
	update_curr(s, c);
	s->cpus[c].m = -1;
	stop_burst(s, o, c);
	pause_g(s, o);
	s->allm[o].cpuleft = s->now;
	enqueue(s, o, head);
}


/* An M that newly wants a CPU (last): it runs on the CPU it last ran on,
 * and preempts that CPU's occupant, which waits at the head of the CPU's
 * queue: select_task_rq_fair returned the thread's previous CPU for every
 * wake-up measured on this kind of machine (README), and the woken thread
 * took the CPU at once in 60-70% of them (check_preempt_wakeup_fair).
 * Returns 1: it runs. */
static int take_last(struct sim *s, int32_t mi)
{
	int32_t c = s->allm[mi].cpuhome;
	drop_if_unwanted(s, c);
	place(s, mi);
	if (s->cpus[c].m >= 0)
		unseat(s, c, 1);
	run_on(s, mi, c);
	return 1;
}

/* linux, prev: Linux's wake-up placement of a thread, kernel/sched/fair.c.
 * available_idle_cpu: CPU c runs nothing and nobody waits on it. */
static int cpu_idle(const struct sim *s, int32_t c) { return s->cpus[c].m < 0 && s->cpus[c].q.n == 0; }

/* wake_affine (WA_IDLE, then WA_WEIGHT): the waker's CPU this or the
 * woken thread's previous CPU prev. wake_affine_idle: an idle waker's
 * CPU (prev if that is idle too; the CPUs share the LLC), else an idle
 * prev; wake_affine_weight: this if its load with the woken thread is
 * below prev's, prev's biased by half of imbalance_pct; else prev.
 * Never WF_SYNC: Go's threads wake each other with futex(FUTEX_WAKE),
 * whose wake_up_q passes no sync flag, so the waker's own load is not
 * taken off. Simplification: load is nr_running (the kernel's is PELT's
 * decayed load_avg), with equal capacities. */
static int32_t wake_affine(const struct sim *s, int32_t this, int32_t prev)
{
	if (cpu_idle(s, this))
		return cpu_idle(s, prev) ? prev : this;
	if (cpu_idle(s, prev))
		return prev;
	int64_t this_eff = (int64_t)(nr_running(s, this) + 1) * 100;
	int64_t prev_eff = (int64_t)nr_running(s, prev) * (100 + (CPU_IMBALANCE_PCT - 100) / 2);
	return this_eff < prev_eff ? this : prev;
}

/* select_idle_sibling: target if idle, else prev if idle, else the first
 * idle CPU of the LLC after target (select_idle_cpu scans
 * for_each_cpu_wrap from target + 1), else target. Simplification: every
 * CPU shares one LLC (as on the 2-CPU machine measured: L3 0-1), no
 * recent_used_cpu and no SIS_UTIL limit on the scan. */
static int32_t select_idle_sibling(const struct sim *s, int32_t prev, int32_t target)
{
	if (cpu_idle(s, target))
		return target;
	if (prev != target && cpu_idle(s, prev))
		return prev;
	for (int32_t i = 1; i < s->ncpus; i++) {
		int32_t c = (target + i) % s->ncpus;
		if (cpu_idle(s, c))
			return c;
	}
	return target;
}

/* select_task_rq_fair for a wake-up (WF_TTWU) of M mi: linux: wake_affine between
 * the waker's CPU (when known and not prev) and prev, then
 * select_idle_sibling. prev: the previous CPU, always: what this
 * machine's kernel did in all but 3 of 1,081 wake-ups of the pipeline's
 * threads measured with perf sched (docs/fidelity.md, "pipeline-p4"),
 * also with the waker on the other CPU (wake_affine did not pull) and
 * with the other CPU idle (select_idle_sibling did not take it): not
 * upstream's behaviour (its kernel is booted with sched_vcpu_pack=15).
 * Simplification: a wake-up with no thread as its waker (a syscall's or
 * a sleep's end, an interrupt) counts the previous CPU as the waker's, and
 * so does one by wakep, whose caller is not tracked (cpu_notewakeup): the
 * waker's CPU is known only for sysmon's and handoffp's wakes. */
int32_t cpu_select(const struct sim *s, int32_t mi)
{
	const struct m *mp = &s->allm[mi];
	int32_t prev = mp->cpuhome >= 0 ? mp->cpuhome : 0, this = mp->cpuwaker - 1;
	if (s->cfg.cpu_place == CPU_PLACE_PREV)
		return prev;
	int32_t target = this >= 0 && this != prev ? wake_affine(s, this, prev) : prev;
	return select_idle_sibling(s, prev, target);
}

/* An M that newly wants a CPU (linux, prev): enqueued on the CPU
 * cpu_select chose and placed against its V (place_entity); it runs
 * there if that CPU is free and nobody waits on it, else preempts its
 * occupant (check_preempt_wakeup_fair, that CPU only), else waits there.
 * Returns whether it runs. */
static int take_fair(struct sim *s, int32_t mi)
{
	for (int32_t c = 0; c < s->ncpus; c++)
		drop_if_unwanted(s, c);
	int32_t c = cpu_select(s, mi);
	s->allm[mi].cpuhome = c;
	s->allm[mi].cpuwaker = 0;
	place(s, mi);
	if (!cpu_idle(s, c) && (c = preempt_target(s, mi)) >= 0)
		unseat(s, c, 0);
	if (c >= 0 && s->cpus[c].m < 0) {
		run_on(s, mi, c);
		return 1;
	}
	enqueue(s, mi, 0);
	pause_g(s, mi);
	return 0;
}

/* An M that newly wants a CPU: placed (place_entity), it takes a free
 * CPU if nobody waits, else preempts an occupant (preempt_target), else
 * waits in the queue, stalled. Returns whether it runs. */
static int take(struct sim *s, int32_t mi)
{
	if (s->cpu_last)
		return take_last(s, mi);
	if (s->cpu_percpu)
		return take_fair(s, mi);
	for (int32_t c = 0; c < s->ncpus; c++)
		drop_if_unwanted(s, c);
	place(s, mi);
	int32_t c = s->nwaiting == 0 ? free_cpu(s) : -1;
	if (c < 0 && (c = preempt_target(s, mi)) >= 0)
		unseat(s, c, 0);
	if (c >= 0) {
		run_on(s, mi, c);
		return 1;
	}
	enqueue(s, mi, 0);
	pause_g(s, mi);
	return 0;
}

int cpu_get(struct sim *s, int32_t mi)
{
	if (s->ncpus == 0)
		return 1;
	const struct m *mp = &s->allm[mi];
	if (mp->cpu == CPU_RUN)
		return !mp->bursting;
	return mp->cpu == CPU_NONE && take(s, mi) && !mp->bursting;
}

void cpu_thread_work(struct sim *s, int32_t mi, int64_t ns)
{
	if (s->ncpus == 0 || ns <= 0 || mi < 0)
		return;
	struct m *mp = &s->allm[mi];
	mp->burst_ns += ns;
	if (mp->burst_listed)
		return;
	mp->burst_listed = 1;
	mp->burstlink = -1;
	if (s->burst_tail >= 0)
		s->allm[s->burst_tail].burstlink = mi;
	else
		s->burst_head = mi;
	s->burst_tail = mi;
}

const char *sim_thread_op_name(int op)
{
#define THREAD_OP_NAME(K, name) name,
	static const char *const names[] = { SIM_THREAD_OPS(THREAD_OP_NAME) };
	return op >= 0 && op < TOP__N ? names[op] : "?";
}

void cpu_thread_op(struct sim *s, int32_t mi, enum sim_thread_op op) { cpu_thread_cost(s, mi, op, s->cfg.cost_thread_ns[op]); }

void cpu_thread_cost(struct sim *s, int32_t mi, enum sim_thread_op op, int64_t ns)
{
	if (ns <= 0 || mi < 0)
		return;
	s->sum.thread_cpu_ns[op] += ns;
	if (s->ncpus == 0 || s->allm[mi].state != MS_RUNNING)
		s->sum.thread_cpu_off_ns += ns; /* a trace's running Ms do not hold it */
	cpu_thread_work(s, mi, ns);
}

/* notewakeup -> futexwakeup runs on the waker's thread, the futexsleep's
 * return on the woken one's (futex_wait's wake-up path and the switch in).
 * Simplification: a waker not known (wakep's caller, whose startm runs in
 * sched_all: sched.c wake_idle_p) leaves its wake to the woken thread;
 * the woken thread pays at once, during its --thread-wake, not at its end;
 * a new thread pays its creation instead (proc.c startm_cpu). */
void cpu_notewakeup(struct sim *s, int32_t waker, int32_t mi)
{
	if (s->cpu_percpu && waker >= 0 && waker != mi && s->allm[waker].cpu == CPU_RUN)
		s->allm[mi].cpuwaker = s->allm[waker].cpuhome + 1; /* try_to_wake_up runs on the waker's CPU */
	cpu_thread_op(s, waker >= 0 && waker != mi ? waker : mi, TOP_FUTEX_WAKE);
	cpu_thread_op(s, mi, TOP_FUTEX_SLEEP);
}

/* The Ms given CPU work since the last balance, in that order: one with
 * no CPU wants one (take), one on a CPU starts its burst there (its G
 * waits), one waiting does it when it gets the CPU. */
static void queue_bursts(struct sim *s)
{
	for (int32_t mi = s->burst_head; mi >= 0;) {
		struct m *mp = &s->allm[mi];
		int32_t next = mp->burstlink;
		mp->burst_listed = 0;
		if (owed_us(mp) > 0 && mp->cpu == CPU_NONE)
			take(s, mi);
		else if (owed_us(mp) > 0 && mp->cpu == CPU_RUN && !mp->bursting)
			start_burst(s, mi, mp->cpuhome);
		mi = next;
	}
	s->burst_head = s->burst_tail = -1;
}

void cpu_burst_end(struct sim *s, int32_t c)
{
	int32_t mi = s->cpus[c].m;
	if (mi < 0 || !s->allm[mi].bursting)
		return;
	struct m *mp = &s->allm[mi];
	mp->burst_ns -= (s->now - mp->burst_start) * 1000;
	mp->bursting = 0;
	if (owed_us(mp) > 0) /* work given meanwhile */
		start_burst(s, mi, c);
	else if (holds_p(s, mi) && mp->wake_at <= s->now && mp->curg >= 0)
		exec_cpu_resume(s, mp->p);
	else if (must_schedule(s, mi))
		sim_need_schedule(s, mp->p);
	/* else it wants the CPU no more: cpu_balance takes it back */
}

/* Ms that newly want a CPU and did not ask (this instant's zero-time work
 * started their G), in P id order. Returns 1 if one that got a CPU has
 * no G (it must schedule). */
static int queue_new(struct sim *s)
{
	int need_schedule = 0;
	for (int32_t pi = 0; pi < s->nprocs; pi++) {
		int32_t mi = s->allp[pi].m;
		if (s->allp[pi].status != P_RUNNING || mi < 0 || s->allm[mi].cpu != CPU_NONE || !wants(s, mi))
			continue;
		need_schedule |= take(s, mi) && must_schedule(s, mi);
	}
	return need_schedule;
}

static void unlink_waiter(struct sim *s, struct cpuq *q, int32_t mi)
{
	int32_t prev = -1;
	for (int32_t x = q->head; x != mi; x = s->allm[x].cpulink)
		prev = x;
	int32_t next = s->allm[mi].cpulink;
	if (prev < 0)
		q->head = next;
	else
		s->allm[prev].cpulink = next;
	if (q->tail == mi)
		q->tail = prev;
	s->allm[mi].cpulink = -1;
	q->n--;
	s->nwaiting--;
}

/* Free CPUs go to their queue's pick (pick_eevdf): of the one queue, or
 * (last) of their own. Returns 1 if one that got a CPU has no G. */
static int fill_free(struct sim *s)
{
	int need_schedule = 0;
	for (int32_t c = 0; c < s->ncpus && s->nwaiting > 0; c++) {
		int32_t home = s->cpu_percpu ? c : -1;
		struct cpuq *q = home_queue(s, home);
		if (s->cpus[c].m >= 0 || q->n == 0)
			continue;
		int32_t mi = pick(s, home, -1);
		unlink_waiter(s, q, mi);
		run_on(s, mi, c);
		need_schedule |= must_schedule(s, mi);
	}
	return need_schedule;
}

/* A CPU with waiters has the instant its occupant reaches its deadline as
 * an event (update_deadline; the deadline moves a slice on, from the
 * vruntime, as the occupant passes it while nobody waits).
 * Simplification: the deadline is met when reached; the kernel (no
 * HRTICK) sees it at its next tick, CPU_TICK_US, or its next update_curr
 * on that CPU (a wake-up, a sleep). */
static int waiters_for(const struct sim *s, int32_t c)
{
	return s->cpu_percpu ? s->cpus[c].q.n : s->nwaiting;
}

static int arm_slices(struct sim *s)
{
	for (int32_t c = 0; c < s->ncpus; c++) {
		struct cpu *cp = &s->cpus[c];
		int64_t at = 0;
		if (waiters_for(s, c) > 0 && cp->m >= 0) {
			struct m *mp = &s->allm[cp->m];
			update_curr(s, c);
			if (mp->cpuv >= mp->cpud)
				mp->cpud = mp->cpuv + s->cpu_slice_us;
			at = s->now + (mp->cpud - mp->cpuv);
		}
		if (at == cp->armed_at)
			continue;
		if (cp->armed_at)
			evq_cancel(&s->evq, slot(s, c));
		cp->armed_at = at;
		if (at && evq_schedule(&s->evq, slot(s, c), at, EVQ_CPU_SLICE, c, 0) != 0)
			return -1;
	}
	return 0;
}

/* last: the idle CPU with the lowest id (free, nobody waiting), or -1. */
static int32_t idle_cpu(const struct sim *s)
{
	for (int32_t c = 0; c < s->ncpus; c++)
		if (s->cpus[c].m < 0 && s->cpus[c].q.n == 0)
			return c;
	return -1;
}

/* last: the waiter (on any CPU) that left its CPU first, or -1. */
static int32_t coldest_waiter(const struct sim *s)
{
	int32_t best = -1;
	for (int32_t c = 0; c < s->ncpus; c++)
		for (int32_t mi = s->cpus[c].q.head; mi >= 0; mi = s->allm[mi].cpulink)
			if (best < 0 || s->allm[mi].cpuleft < s->allm[best].cpuleft)
				best = mi;
	return best;
}

/* last: an idle CPU takes the coldest waiter of another CPU once it is
 * cache cold, as the kernel's load balancer does (sched_balance_newidle
 * and the idle CPUs' periodic balance, kernel/sched/fair.c:
 * can_migrate_task refuses a task_hot one, that ran within
 * sysctl_sched_migration_cost). Returns 1 if one that got a CPU has no G.
 * Simplification: the move happens the instant the waiter turns cold,
 * where the kernel's idle CPU balances when it goes idle and then at its
 * ticks; a waiter counts as cold from the time it was preempted. */
static int pull_cold(struct sim *s)
{
	int need_schedule = 0;
	for (int32_t c, mi; (c = idle_cpu(s)) >= 0 && (mi = coldest_waiter(s)) >= 0;) {
		if (s->now - s->allm[mi].cpuleft < s->cpu_migration_cost_us)
			break;
		struct vsum vs = vsum_of(s, s->allm[mi].cpuhome);
		save_lag(s, mi, &vs); /* migrate: dequeued with its lag, placed on c with it */
		unlink_waiter(s, &s->cpus[s->allm[mi].cpuhome].q, mi);
		s->allm[mi].cpuhome = c;
		place(s, mi);
		run_on(s, mi, c);
		need_schedule |= must_schedule(s, mi);
	}
	return need_schedule;
}

/* The balance event (last's cold waiter, linux's and prev's tick) due at
 * at, or none when at is 0; moved only when at changes. */
static int balance_event_at(struct sim *s, int64_t at)
{
	if (at == s->balance_at)
		return 0;
	if (s->balance_at)
		evq_cancel(&s->evq, slot(s, s->ncpus));
	s->balance_at = at;
	return at ? evq_schedule(&s->evq, slot(s, s->ncpus), at, EVQ_CPU_BALANCE, 0, 0) : 0;
}

/* last: while a CPU is idle and an M waits on another, the instant the
 * coldest waiter turns cold is an event. */
static int arm_balance(struct sim *s)
{
	int32_t mi = s->cpu_last && idle_cpu(s) >= 0 ? coldest_waiter(s) : -1;
	int64_t at = mi >= 0 ? s->allm[mi].cpuleft + s->cpu_migration_cost_us : 0;
	return balance_event_at(s, at);
}

/* linux, prev: Linux's load balance (kernel/sched/fair.c
 * sched_balance_rq), between per-CPU queues, moving waiters only. */

/* The waiter of CPU src a balance to CPU dst may move: detach_tasks
 * takes the least recently run first (cfs_tasks' tail), and
 * can_migrate_task refuses a cache-hot one (task_hot: it ran within
 * sysctl_sched_migration_cost) unless the domain's balances failed more
 * than cache_nice_tries times (hot_ok). -1: none. */
static int32_t movable_waiter(const struct sim *s, int32_t src, int hot_ok)
{
	int32_t best = -1;
	for (int32_t mi = s->cpus[src].q.head; mi >= 0; mi = s->allm[mi].cpulink)
		if (best < 0 || s->allm[mi].cpuleft < s->allm[best].cpuleft)
			best = mi;
	if (best >= 0 && !hot_ok && s->now - s->allm[best].cpuleft < s->cpu_migration_cost_us)
		return -1;
	return best;
}

/* The busiest CPU other than dst (sched_balance_find_src_rq: the most
 * runnable threads, one with a waiter), or -1. */
static int32_t busiest_cpu(const struct sim *s, int32_t dst)
{
	int32_t best = -1;
	for (int32_t c = 0; c < s->ncpus; c++)
		if (c != dst && s->cpus[c].q.n > 0 && (best < 0 || nr_running(s, c) > nr_running(s, best)))
			best = c;
	return best;
}

/* Whether dst has reason to pull from src (calculate_imbalance, to first
 * order): an idle dst takes a waiter (migrate_task), a busy one only
 * from a CPU with two more runnable threads (the load imbalance). */
static int imbalanced(const struct sim *s, int32_t dst, int32_t src)
{
	return src >= 0 && (cpu_idle(s, dst) || nr_running(s, src) - nr_running(s, dst) >= 2);
}

/* Waiter mi moves to CPU dst (detach_task, attach_task): dequeued with
 * its lag, placed on dst with it; it runs if dst is free. Returns 1 if
 * it got dst with a P and no G (it must schedule). */
static int migrate(struct sim *s, int32_t mi, int32_t dst)
{
	struct vsum vs = vsum_of(s, s->allm[mi].cpuhome);
	save_lag(s, mi, &vs);
	unlink_waiter(s, &s->cpus[s->allm[mi].cpuhome].q, mi);
	s->allm[mi].cpuhome = dst;
	place(s, mi);
	if (s->cpus[dst].m < 0 && s->cpus[dst].q.n == 0) {
		run_on(s, mi, dst);
		return must_schedule(s, mi);
	}
	enqueue(s, mi, 0);
	pause_g(s, mi);
	return 0;
}

/* sched_balance_newidle: a CPU that went idle since the last balance
 * pulls one waiter from the busiest CPU, a cache-cold one only (a failed
 * newly-idle balance is not counted in nr_balance_failed). Simplification:
 * no avg_idle or max_newidle_lb_cost gate (the kernel skips it when the
 * CPU's idle periods are short on average). */
static int balance_newidle(struct sim *s)
{
	int need_schedule = 0;
	for (int32_t c = 0; c < s->ncpus; c++) {
		int idle = cpu_idle(s, c), was = s->cpus[c].idle;
		s->cpus[c].idle = (uint8_t)idle;
		if (!idle || was)
			continue;
		int32_t src = busiest_cpu(s, c), mi = src >= 0 ? movable_waiter(s, src, 0) : -1;
		if (mi >= 0) {
			need_schedule |= migrate(s, mi, c);
			s->cpus[c].idle = 0;
		}
	}
	return need_schedule;
}

/* The periodic balance at a scheduler tick (sched_balance_trigger ->
 * sched_balance_domains): an idle CPU balances at every tick (its
 * interval, sd->balance_interval, 2-4 ms on 2 CPUs, is within one 4 ms
 * tick; an idle CPU with no tick of its own is balanced by the nohz
 * idle balance a busy CPU's tick kicks when it has two runnable), a busy
 * one every CPU_BUSY_BALANCE_US. A balance that finds an imbalance but
 * nothing movable counts a failure; after more than cache_nice_tries a
 * hot waiter moves too. Simplification: all CPUs' ticks fall together, at
 * multiples of CPU_TICK_US; a running thread is never moved (no active
 * balance: the kernel's stopper moves one after cache_nice_tries + 3
 * failures); one waiter per balance. */
static int balance_tick(struct sim *s)
{
	int need_schedule = 0;
	for (int32_t c = 0; c < s->ncpus; c++) {
		struct cpu *cp = &s->cpus[c];
		int idle = cpu_idle(s, c);
		if (!idle && s->now - cp->last_balance < CPU_BUSY_BALANCE_US)
			continue;
		if (!idle)
			cp->last_balance = s->now;
		int32_t src = busiest_cpu(s, c);
		if (!imbalanced(s, c, src))
			continue;
		int32_t mi = movable_waiter(s, src, cp->balance_failed > CPU_CACHE_NICE_TRIES);
		if (mi < 0) {
			cp->balance_failed++;
			continue;
		}
		cp->balance_failed = 0;
		need_schedule |= migrate(s, mi, c);
	}
	return need_schedule;
}

/* linux, prev: the next tick is an event while some CPU could pull: some
 * c with imbalanced(c, busiest_cpu(c)), in two passes, not one walk per
 * CPU: busiest_cpu(c) is the first CPU with waiters and the most runnable
 * threads (b1), or for b1 itself the first such among the others (b2). */
static int arm_tick(struct sim *s)
{
	int32_t b1 = -1, b2 = -1;
	for (int32_t c = 0; c < s->ncpus; c++) {
		if (s->cpus[c].q.n == 0)
			continue;
		if (b1 < 0 || nr_running(s, c) > nr_running(s, b1)) {
			b2 = b1;
			b1 = c;
		} else if (b2 < 0 || nr_running(s, c) > nr_running(s, b2)) {
			b2 = c;
		}
	}
	int want = 0;
	for (int32_t c = 0; b1 >= 0 && c < s->ncpus && !want; c++)
		want = imbalanced(s, c, c == b1 ? b2 : b1);
	int64_t at = want ? (s->now / CPU_TICK_US + 1) * CPU_TICK_US : 0;
	return balance_event_at(s, at);
}

static void pause_waiters(struct sim *s, const struct cpuq *q)
{
	for (int32_t mi = q->head; mi >= 0; mi = s->allm[mi].cpulink)
		pause_g(s, mi);
}

int cpu_balance(struct sim *s)
{
	if (s->ncpus == 0 || s->status != SIM_RUNNING)
		return 0;
	release_unwanted(s);
	int need_schedule = queue_new(s);
	queue_bursts(s);
	need_schedule |= fill_free(s);
	if (s->cpu_last)
		need_schedule |= pull_cold(s);
	else if (s->cpu_percpu) {
		if (s->cpu_tick)
			need_schedule |= balance_tick(s);
		s->cpu_tick = 0;
		need_schedule |= balance_newidle(s);
	}
	pause_waiters(s, &s->cpuq); /* a waiter's G that moved on at a slice's last instant */
	for (int32_t c = 0; c < s->ncpus; c++) {
		pause_waiters(s, &s->cpus[c].q);
		if (s->cpus[c].m >= 0 && s->allm[s->cpus[c].m].bursting)
			pause_g(s, s->cpus[c].m); /* and a bursting M's */
	}
	if (arm_slices(s) != 0 || (s->cpu_last ? arm_balance(s) : s->cpu_percpu ? arm_tick(s) : 0) != 0)
		sim_oom(s, "events");
	return need_schedule;
}

void cpu_slice_end(struct sim *s, int32_t c)
{
	struct cpu *cp = &s->cpus[c];
	cp->armed_at = 0;
	drop_if_unwanted(s, c);
	int32_t mi = cp->m;
	if (mi < 0 || waiters_for(s, c) == 0)
		return;
	struct m *mp = &s->allm[mi];
	update_curr(s, c);
	if (mp->cpuv >= mp->cpud) /* update_deadline: a new slice, and a reschedule */
		mp->cpud = mp->cpuv + s->cpu_slice_us;
	if (pick(s, s->cpu_percpu ? c : -1, mi) != mi)
		unseat(s, c, 0); /* cpu_balance gives the CPU to the queue's pick */
}

void cpu_load_balance(struct sim *s)
{
	s->balance_at = 0; /* cpu_balance, at the instant's end, moves the waiter */
	s->cpu_tick = 1;   /* linux, prev: a tick; cpu_balance balances */
}

/* Queue q's length, and that each M in it waits there (home: its CPU's
 * queue, or -1 for the one queue). Returns the length, or -1. */
static int32_t check_queue(struct sim *s, const struct cpuq *q, int32_t home)
{
	int32_t n = 0;
	for (int32_t mi = q->head; mi >= 0 && n <= s->nm; mi = s->allm[mi].cpulink, n++)
		if (mi >= s->nm || s->allm[mi].cpu != CPU_WAIT || (home >= 0 && s->allm[mi].cpuhome != home)) {
			sim_broken(s, "M%d is in %s run queue but does not wait there", mi, home >= 0 ? "a CPU's" : "the CPU");
			return -1;
		}
	if (n != q->n) {
		sim_broken(s, "a CPU run queue holds %d Ms, recorded %d", n, q->n);
		return -1;
	}
	return n;
}

int cpu_check(struct sim *s)
{
	if (s->ncpus == 0)
		return 0;
	int32_t nrun = 0, nwait = 0, occupied = 0;
	for (int32_t c = 0; c < s->ncpus; c++) {
		int32_t mi = s->cpus[c].m;
		int32_t n = check_queue(s, &s->cpus[c].q, c);
		if (n < 0)
			return -1;
		nwait += n;
		if (mi < 0)
			continue;
		occupied++;
		if (mi >= s->nm || s->allm[mi].cpu != CPU_RUN || (s->cpu_percpu && s->allm[mi].cpuhome != c)) {
			sim_broken(s, "CPU %d's occupant M%d is not running on it", c, mi);
			return -1;
		}
	}
	int32_t n = check_queue(s, &s->cpuq, -1);
	if (n < 0)
		return -1;
	nwait += n;
	for (int32_t mi = 0; mi < s->nm; mi++) {
		nrun += s->allm[mi].cpu == CPU_RUN;
		if (s->allm[mi].bursting && s->allm[mi].cpu != CPU_RUN) {
			sim_broken(s, "M%d does CPU work of its own off a CPU", mi);
			return -1;
		}
	}
	if (nrun != occupied || nwait != s->nwaiting) {
		sim_broken(s, "CPUs: %d Ms running on %d occupied CPUs; %d queued, %d recorded", nrun, occupied, nwait,
			   s->nwaiting);
		return -1;
	}
	return 0;
}
