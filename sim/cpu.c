/* cpu.c: the machine's CPUs shared by the threads (see cpu.h). */
#include "cpu.h"

#include <stdlib.h>

#include "exec.h"

int64_t cpu_default_slice_us(int n)
{
	int factor = 1; /* 1 + ilog2(min(n, 8)): get_update_sysctl_factor, kernel/sched/fair.c */
	for (int c = n < 8 ? n : 8; c > 1; c /= 2)
		factor++;
	return CPU_BASE_SLICE_US * factor;
}

int cpu_on(const struct sim_config *cfg, int32_t nprocs)
{
	return cfg->cpus > 0 && cfg->cpus < nprocs;
}

int cpu_init(struct sim *s)
{
	s->cpuq = (struct cpuq){ -1, -1, 0 };
	if (!cpu_on(&s->cfg, s->nprocs))
		return 0; /* a CPU per P: no M ever waits */
	s->cpus = calloc((size_t)s->cfg.cpus, sizeof *s->cpus);
	if (!s->cpus)
		return -1;
	s->ncpus = s->cfg.cpus;
	s->cpu_slice_us = s->cfg.cpu_slice_us > 0 ? s->cfg.cpu_slice_us : cpu_default_slice_us(s->ncpus);
	s->cpu_last = s->cfg.cpu_place == CPU_PLACE_LAST;
	s->cpu_migration_cost_us = s->cfg.cpu_migration_cost_us > 0 ? s->cfg.cpu_migration_cost_us : CPU_MIGRATION_COST_US;
	for (int c = 0; c < s->ncpus; c++)
		s->cpus[c] = (struct cpu){ .m = -1, .q = { -1, -1, 0 } };
	return 0;
}

void cpu_free(struct sim *s) { free(s->cpus); }

/* The M holds a P it runs (or spins) on, and is not asleep. */
static int wants(const struct sim *s, int32_t mi)
{
	const struct m *mp = &s->allm[mi];
	return mp->state != MS_SYSMON && mp->p >= 0 && s->allp[mp->p].status == P_RUNNING &&
	       s->allp[mp->p].m == mi && mp->wake_at <= s->now;
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

/* The queue M mi waits in: the one queue, or its CPU's (last). */
static struct cpuq *queue_of(struct sim *s, int32_t mi)
{
	return s->cpu_last ? &s->cpus[s->allm[mi].cpuhome].q : &s->cpuq;
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

static int32_t dequeue(struct sim *s, struct cpuq *q)
{
	int32_t mi = q->head;
	q->head = s->allm[mi].cpulink;
	if (q->head < 0)
		q->tail = -1;
	s->allm[mi].cpulink = -1;
	q->n--;
	s->nwaiting--;
	return mi;
}

static int32_t free_cpu(const struct sim *s)
{
	for (int32_t c = 0; c < s->ncpus; c++)
		if (s->cpus[c].m < 0)
			return c;
	return -1;
}

/* M mi takes CPU c for a slice; its G's CPU work goes on. */
static void run_on(struct sim *s, int32_t mi, int32_t c)
{
	set_cpu(s, mi, CPU_RUN);
	s->cpus[c].m = mi;
	s->cpus[c].slice_end = s->now + s->cpu_slice_us;
	s->allm[mi].cpuhome = c;
	exec_cpu_resume(s, s->allm[mi].p);
}

/* Ms that no longer want a CPU leave it, or leave their queue. */
static void release_queue(struct sim *s, struct cpuq *q)
{
	int32_t mi = q->head;
	s->nwaiting -= q->n;
	*q = (struct cpuq){ -1, -1, 0 };
	while (mi >= 0) {
		int32_t next = s->allm[mi].cpulink;
		if (wants(s, mi))
			enqueue(s, mi, 0);
		else
			set_cpu(s, mi, CPU_NONE);
		mi = next;
	}
}

static void release_unwanted(struct sim *s)
{
	for (int32_t c = 0; c < s->ncpus; c++) {
		int32_t mi = s->cpus[c].m;
		if (mi >= 0 && !wants(s, mi)) {
			set_cpu(s, mi, CPU_NONE);
			s->cpus[c].m = -1;
		}
	}
	if (!s->cpu_last)
		release_queue(s, &s->cpuq);
	else
		for (int32_t c = 0; c < s->ncpus; c++)
			release_queue(s, &s->cpus[c].q);
}

int32_t cpu_new_thread(const struct sim *s)
{
	if (!s->cpu_last)
		return -1;
	int32_t n[MAX_CPUS] = { 0 }, best = 0;
	for (int32_t mi = 0; mi < s->nm; mi++)
		if (s->allm[mi].cpuhome >= 0)
			n[s->allm[mi].cpuhome]++;
	for (int32_t c = 1; c < s->ncpus; c++)
		if (n[c] < n[best])
			best = c;
	return best;
}

/* An M that newly wants a CPU (last): it runs on the CPU it last ran on,
 * and preempts that CPU's occupant, which waits at the head of the CPU's
 * queue: select_task_rq_fair returned the thread's previous CPU for every
 * wake-up measured on this kind of machine (README), and the woken thread
 * preempts the current one (check_preempt_wakeup_fair: a thread that slept
 * has the earlier deadline). Returns 1: it runs. */
static int take_last(struct sim *s, int32_t mi)
{
	int32_t c = s->allm[mi].cpuhome, o = s->cpus[c].m;
	if (o >= 0) {
		s->cpus[c].m = -1;
		if (!wants(s, o)) { /* it let go in this instant; release_unwanted has not run yet */
			set_cpu(s, o, CPU_NONE);
		} else {
			exec_cpu_pause(s, s->allm[o].p);
			s->allm[o].cpuleft = s->now;
			enqueue(s, o, 1);
		}
	}
	run_on(s, mi, c);
	return 1;
}

/* An M that newly wants a CPU: a free one if nobody waits, else the
 * queue's tail, stalled. Returns whether it runs. */
static int take(struct sim *s, int32_t mi)
{
	if (s->cpu_last)
		return take_last(s, mi);
	int32_t c = s->nwaiting == 0 ? free_cpu(s) : -1;
	if (c >= 0) {
		run_on(s, mi, c);
		return 1;
	}
	enqueue(s, mi, 0);
	exec_cpu_pause(s, s->allm[mi].p);
	return 0;
}

int cpu_get(struct sim *s, int32_t mi)
{
	if (s->ncpus == 0 || s->allm[mi].cpu == CPU_RUN)
		return 1;
	return s->allm[mi].cpu == CPU_NONE && take(s, mi);
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
		need_schedule |= take(s, mi) && s->allm[mi].curg < 0;
	}
	return need_schedule;
}

/* Free CPUs go to the first waiter: of the one queue, or (last) of their
 * own queue. Returns 1 if one that got a CPU has no G. */
static int fill_free(struct sim *s)
{
	int need_schedule = 0;
	for (int32_t c = 0; c < s->ncpus && s->nwaiting > 0; c++) {
		struct cpuq *q = s->cpu_last ? &s->cpus[c].q : &s->cpuq;
		if (s->cpus[c].m >= 0 || q->n == 0)
			continue;
		int32_t mi = dequeue(s, q);
		run_on(s, mi, c);
		need_schedule |= s->allm[mi].curg < 0;
	}
	return need_schedule;
}

/* A CPU with waiters has its slice end as an event; the slice renews
 * (grant + k * slice) while nobody waits. */
static int waiters_for(const struct sim *s, int32_t c)
{
	return s->cpu_last ? s->cpus[c].q.n : s->nwaiting;
}

static int arm_slices(struct sim *s)
{
	for (int32_t c = 0; c < s->ncpus; c++) {
		struct cpu *cp = &s->cpus[c];
		if (waiters_for(s, c) == 0 || cp->m < 0) {
			if (cp->armed)
				evq_cancel(&s->evq, slot(s, c));
			cp->armed = 0;
			continue;
		}
		if (cp->armed)
			continue;
		if (cp->slice_end <= s->now)
			cp->slice_end += ((s->now - cp->slice_end) / s->cpu_slice_us + 1) * s->cpu_slice_us;
		if (evq_schedule(&s->evq, slot(s, c), cp->slice_end, EVQ_CPU_SLICE, c, 0) != 0)
			return -1;
		cp->armed = 1;
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
		unlink_waiter(s, &s->cpus[s->allm[mi].cpuhome].q, mi);
		run_on(s, mi, c);
		need_schedule |= s->allm[mi].curg < 0;
	}
	return need_schedule;
}

/* last: while a CPU is idle and an M waits on another, the instant the
 * coldest waiter turns cold is an event. */
static int arm_balance(struct sim *s)
{
	int32_t mi = s->cpu_last && idle_cpu(s) >= 0 ? coldest_waiter(s) : -1;
	int64_t at = mi >= 0 ? s->allm[mi].cpuleft + s->cpu_migration_cost_us : 0;
	if (at == s->balance_at)
		return 0;
	if (s->balance_at)
		evq_cancel(&s->evq, slot(s, s->ncpus));
	s->balance_at = at;
	return at ? evq_schedule(&s->evq, slot(s, s->ncpus), at, EVQ_CPU_BALANCE, 0, 0) : 0;
}

static void pause_waiters(struct sim *s, const struct cpuq *q)
{
	for (int32_t mi = q->head; mi >= 0; mi = s->allm[mi].cpulink)
		exec_cpu_pause(s, s->allm[mi].p);
}

int cpu_balance(struct sim *s)
{
	if (s->ncpus == 0 || s->status != SIM_RUNNING)
		return 0;
	release_unwanted(s);
	int need_schedule = queue_new(s);
	need_schedule |= fill_free(s);
	if (s->cpu_last)
		need_schedule |= pull_cold(s);
	pause_waiters(s, &s->cpuq); /* a waiter's G that moved on at a slice's last instant */
	for (int32_t c = 0; c < s->ncpus; c++)
		pause_waiters(s, &s->cpus[c].q);
	if (arm_slices(s) != 0 || arm_balance(s) != 0)
		sim_oom(s, "events");
	return need_schedule;
}

void cpu_slice_end(struct sim *s, int32_t c)
{
	struct cpu *cp = &s->cpus[c];
	cp->armed = 0;
	int32_t mi = cp->m;
	if (mi < 0 || waiters_for(s, c) == 0)
		return;
	exec_cpu_pause(s, s->allm[mi].p);
	cp->m = -1;
	s->allm[mi].cpuleft = s->now;
	enqueue(s, mi, 0);
}

void cpu_load_balance(struct sim *s)
{
	s->balance_at = 0; /* cpu_balance, at the instant's end, moves the waiter */
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
		if (mi >= s->nm || s->allm[mi].cpu != CPU_RUN || (s->cpu_last && s->allm[mi].cpuhome != c)) {
			sim_broken(s, "CPU %d's occupant M%d is not running on it", c, mi);
			return -1;
		}
	}
	int32_t n = check_queue(s, &s->cpuq, -1);
	if (n < 0)
		return -1;
	nwait += n;
	for (int32_t mi = 0; mi < s->nm; mi++)
		nrun += s->allm[mi].cpu == CPU_RUN;
	if (nrun != occupied || nwait != s->nwaiting) {
		sim_broken(s, "CPUs: %d Ms running on %d occupied CPUs; %d queued, %d recorded", nrun, occupied, nwait,
			   s->nwaiting);
		return -1;
	}
	return 0;
}
