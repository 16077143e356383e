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

int cpu_init(struct sim *s)
{
	s->cpuq_head = s->cpuq_tail = -1;
	if (s->cfg.cpus <= 0 || s->cfg.cpus >= s->nprocs)
		return 0; /* a CPU per P: no M ever waits */
	s->cpus = calloc((size_t)s->cfg.cpus, sizeof *s->cpus);
	if (!s->cpus)
		return -1;
	s->ncpus = s->cfg.cpus;
	s->cpu_slice_us = s->cfg.cpu_slice_us > 0 ? s->cfg.cpu_slice_us : cpu_default_slice_us(s->ncpus);
	for (int c = 0; c < s->ncpus; c++)
		s->cpus[c].m = -1;
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

static void enqueue(struct sim *s, int32_t mi)
{
	struct m *mp = &s->allm[mi];
	set_cpu(s, mi, CPU_WAIT);
	mp->cpulink = -1;
	if (s->cpuq_tail >= 0)
		s->allm[s->cpuq_tail].cpulink = mi;
	else
		s->cpuq_head = mi;
	s->cpuq_tail = mi;
	s->nwaiting++;
}

static int32_t dequeue(struct sim *s)
{
	int32_t mi = s->cpuq_head;
	s->cpuq_head = s->allm[mi].cpulink;
	if (s->cpuq_head < 0)
		s->cpuq_tail = -1;
	s->allm[mi].cpulink = -1;
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
	exec_cpu_resume(s, s->allm[mi].p);
}

/* Ms that no longer want a CPU leave it, or leave the queue. */
static void release_unwanted(struct sim *s)
{
	for (int32_t c = 0; c < s->ncpus; c++) {
		int32_t mi = s->cpus[c].m;
		if (mi >= 0 && !wants(s, mi)) {
			set_cpu(s, mi, CPU_NONE);
			s->cpus[c].m = -1;
		}
	}
	int32_t mi = s->cpuq_head;
	s->cpuq_head = s->cpuq_tail = -1;
	s->nwaiting = 0;
	while (mi >= 0) {
		int32_t next = s->allm[mi].cpulink;
		if (wants(s, mi))
			enqueue(s, mi);
		else
			set_cpu(s, mi, CPU_NONE);
		mi = next;
	}
}

/* An M that newly wants a CPU: a free one if nobody waits, else the
 * queue's tail, stalled. Returns whether it runs. */
static int take(struct sim *s, int32_t mi)
{
	int32_t c = s->nwaiting == 0 ? free_cpu(s) : -1;
	if (c >= 0) {
		run_on(s, mi, c);
		return 1;
	}
	enqueue(s, mi);
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

/* While an M waits, each CPU's slice end is an event; the slice renews
 * (grant + k * slice) while nobody waits. */
static void arm_slices(struct sim *s)
{
	for (int32_t c = 0; c < s->ncpus; c++) {
		struct cpu *cp = &s->cpus[c];
		if (s->nwaiting == 0 || cp->m < 0) {
			if (cp->armed)
				evq_cancel(&s->evq, slot(s, c));
			cp->armed = 0;
			continue;
		}
		if (cp->armed)
			continue;
		if (cp->slice_end <= s->now)
			cp->slice_end += ((s->now - cp->slice_end) / s->cpu_slice_us + 1) * s->cpu_slice_us;
		if (evq_schedule(&s->evq, slot(s, c), cp->slice_end, EVQ_CPU_SLICE, c, 0) != 0) {
			sim_oom(s, "events");
			return;
		}
		cp->armed = 1;
	}
}

int cpu_balance(struct sim *s)
{
	if (s->ncpus == 0 || s->status != SIM_RUNNING)
		return 0;
	release_unwanted(s);
	int need_schedule = queue_new(s);
	for (int32_t c; s->nwaiting > 0 && (c = free_cpu(s)) >= 0;) {
		int32_t mi = dequeue(s);
		run_on(s, mi, c);
		need_schedule |= s->allm[mi].curg < 0;
	}
	for (int32_t mi = s->cpuq_head; mi >= 0; mi = s->allm[mi].cpulink)
		exec_cpu_pause(s, s->allm[mi].p); /* a waiter's G that moved on at a slice's last instant */
	arm_slices(s);
	return need_schedule;
}

void cpu_slice_end(struct sim *s, int32_t c)
{
	struct cpu *cp = &s->cpus[c];
	cp->armed = 0;
	int32_t mi = cp->m;
	if (mi < 0 || s->nwaiting == 0)
		return;
	exec_cpu_pause(s, s->allm[mi].p);
	cp->m = -1;
	enqueue(s, mi);
}

int cpu_check(struct sim *s)
{
	if (s->ncpus == 0)
		return 0;
	int32_t nrun = 0, nwait = 0, occupied = 0;
	for (int32_t c = 0; c < s->ncpus; c++) {
		int32_t mi = s->cpus[c].m;
		if (mi < 0)
			continue;
		occupied++;
		if (mi >= s->nm || s->allm[mi].cpu != CPU_RUN) {
			sim_broken(s, "CPU %d's occupant M%d is not running on a CPU", c, mi);
			return -1;
		}
	}
	for (int32_t mi = s->cpuq_head; mi >= 0 && nwait <= s->nm; mi = s->allm[mi].cpulink)
		nwait++;
	for (int32_t mi = 0; mi < s->nm; mi++)
		nrun += s->allm[mi].cpu == CPU_RUN;
	if (nrun != occupied || nwait != s->nwaiting) {
		sim_broken(s, "CPUs: %d Ms running on %d occupied CPUs; %d queued, %d recorded", nrun, occupied, nwait,
			   s->nwaiting);
		return -1;
	}
	return 0;
}
