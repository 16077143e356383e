/* exec.c: the G interpreter (see exec.h). */
#include "exec.h"

#include <assert.h>
#include <stdlib.h>

#include "park.h"
#include "netpoll.h"
#include "timer.h"

#include "chan.h"
#include "evq.h"
#include "runq.h"
#include "syscall.h"

static const struct op *cur_op(const struct sim *s, const struct g *gp)
{
	const struct func *fn = &s->prog->funcs[gp->fn];
	return gp->pc < (uint32_t)fn->nops ? &fn->ops[gp->pc] : NULL;
}

/* Whether a preemption request stops G gi now (see exec.h). */
int exec_stoppable(const struct sim *s, int32_t gi)
{
	if (s->cfg.preempt == PREEMPT_ASYNC)
		return 1;
	const struct op *op = cur_op(s, &s->allg[gi]);
	return s->cfg.preempt == PREEMPT_COOPERATIVE && op && op->kind == OP_RUN;
}

/* The G leaves its M (dropg); its P goes back to the scheduler. */
static void dropg(struct sim *s, struct g *gp)
{
	s->allm[gp->m].curg = -1;
}

/* goexit0: the G is dead; the P schedules again.
 * Simplification: main's return does not end the program; the run ends
 * when every goroutine has finished, as if main waited for them. */
static void goexit(struct sim *s, int32_t gi)
{
	struct g *gp = &s->allg[gi];
	dropg(s, gp);
	sim_move_g(s, gi, PL_DEAD, -1, R_EXIT);
	gp->waitreason = WR_NONE; /* gdestroy: gp.waitreason = waitReasonZero */
	free(gp->iters);
	gp->iters = NULL;
	s->nlive--;
	s->sum.makespan_us = s->now;
}

/* goschedImpl: the G goes to the global queue's tail (Gosched, and
 * gopreempt_m after a preemption request). */
static void gosched(struct sim *s, int32_t gi, int reason)
{
	struct g *gp = &s->allg[gi];
	dropg(s, gp);
	globrunq_put(s, gi, reason);
}

static void start_segment(struct sim *s, int32_t gi)
{
	struct g *gp = &s->allg[gi];
	struct p *pp = &s->allp[gp->p];
	pp->seg_start = s->now;
	pp->seg_end = s->now + gp->u.left;
	if (evq_schedule(&s->evq, gp->p, pp->seg_end, EVQ_CPU_DONE, gp->p, ++pp->seg_gen) != 0)
		sim_oom(s, "events");
}

/* Preempt the G running on P pi (its request is already set): the rest of
 * its CPU op waits in the global queue. */
int exec_preempt(struct sim *s, int32_t pi)
{
	struct p *pp = &s->allp[pi];
	int32_t gi = s->allm[pp->m].curg;
	struct g *gp = &s->allg[gi];
	int64_t ran = 0;
	if (pp->seg_end > s->now) { /* cut the CPU segment in progress short */
		ran = s->now - pp->seg_start;
		pp->busy_us += ran;
		gp->u.left = pp->seg_end - s->now;
		pp->seg_gen++;
		evq_cancel(&s->evq, pi); /* its completion event goes too */
		pp->seg_end = pp->seg_start = s->now;
	}
	struct sim_event e = { .ev = EV_PREEMPT, .g = goid(gi), .p = pi, .m = pp->m,
			       .ran_us = s->now - pp->slice_start };
	if (s->cfg.explain)
		e.rule = RULE_PREEMPT_SLICE; /* gp.preempt is only ever set by preemptone */
	sim_emit(s, &e);
	s->sum.preemptions++;
	gosched(s, gi, R_PREEMPT);
	return 1;
}

void exec_cpu_done(struct sim *s, int32_t pi, uint64_t gen)
{
	struct p *pp = &s->allp[pi];
	if (gen != pp->seg_gen || pp->m < 0)
		return; /* cancelled by a preemption */
	int32_t gi = s->allm[pp->m].curg;
	struct g *gp = &s->allg[gi];
	pp->busy_us += pp->seg_end - pp->seg_start;
	pp->seg_start = pp->seg_end;
	gp->u.left = 0;
	gp->pc++;
	exec_run(s, gi);
}

/* Start the current run/loop op, or resume it after a preemption. Returns
 * 1 if the G is now on CPU or was preempted, 0 if the op was empty. */
static int cpu_op(struct sim *s, int32_t gi, const struct op *op)
{
	struct g *gp = &s->allg[gi];
	if (gp->u.left == 0) {
		if (op->val == 0)
			return 0;
		gp->u.left = op->val;
		s->sum.work_us += op->val;
	}
	if (gp->preempt && exec_stoppable(s, gi)) {
		exec_preempt(s, gp->p);
		return 1;
	}
	start_segment(s, gi);
	return 1;
}

/* One handler per op (the WORKLOAD_OPS table): returns 1 if the G goes
 * on to its next op at this instant, 0 if it left the CPU or started CPU
 * work. A handler that parks leaves pc on its op; when the G runs again,
 * g.param says what woke it. */
typedef int exec_op_fn(struct sim *s, int32_t gi, const struct op *op);
#define EXEC_DECLARE(K, h, name, opnd) static exec_op_fn op_##h;
WORKLOAD_OPS(EXEC_DECLARE)
#undef EXEC_DECLARE

static int op_run(struct sim *s, int32_t gi, const struct op *op)
{
	if (cpu_op(s, gi, op))
		return 0;
	s->allg[gi].pc++;
	return 1;
}

static int op_loop(struct sim *s, int32_t gi, const struct op *op) { return op_run(s, gi, op); }

/* newproc: the new G goes to runnext. */
static int op_go(struct sim *s, int32_t gi, const struct op *op)
{
	int32_t ni = sim_newg(s, (uint32_t)op->arg);
	if (ni < 0)
		return 0;
	struct g *gp = &s->allg[gi];
	runq_put(s, gp->p, ni, 1, R_GO);
	gp->pc++;
	return 1;
}

static int op_syscall(struct sim *s, int32_t gi, const struct op *op)
{
	if (op->val == 0) {
		s->allg[gi].pc++;
		return 1;
	}
	syscall_enter(s, gi, op->val);
	return 0;
}

/* A G woken from a wait resumes on the op it parked in: the op is done. */
static int resumed(struct g *gp)
{
	if (gp->param == PARAM_NONE)
		return 0;
	gp->param = PARAM_NONE;
	gp->pc++;
	return 1;
}

static int chan_step(struct sim *s, int32_t gi, const struct op *op, int send)
{
	struct g *gp = &s->allg[gi];
	if (gp->param != PARAM_NONE && send && gp->param == PARAM_CLOSED) {
		sim_crash(s, gi, "panic", "send on closed channel"); /* chansend after closechan woke it */
		return 0;
	}
	if (resumed(gp))
		return 1;
	int r = chan_op(s, gi, op->arg, send);
	if (r == CHAN_PARKED || r == CHAN_DIED)
		return 0;
	s->allg[gi].pc++;
	return 1;
}

static int op_send(struct sim *s, int32_t gi, const struct op *op) { return chan_step(s, gi, op, 1); }
static int op_recv(struct sim *s, int32_t gi, const struct op *op) { return chan_step(s, gi, op, 0); }

/* timeSleep: park (waitReasonSleep), then resetForSleep adds the timer to
 * the P the G ran on; it holds no M until the timer readies it. A sleep of
 * 0 returns at once. */
static int op_sleep(struct sim *s, int32_t gi, const struct op *op)
{
	struct g *gp = &s->allg[gi];
	if (resumed(gp))
		return 1;
	if (op->val == 0) {
		gp->pc++;
		return 1;
	}
	int32_t pi = gp->p;
	park_gopark(s, gi, WR_SLEEP, R_SLEEP, -1);
	timer_add(s, pi, gi, s->now + op->val, PARAM_OK);
	return 0;
}

/* A network read whose data arrives op->val from now: the G parks in the
 * netpoller (waitReasonIOWait), holding no M. Data already there (0)
 * returns at once. */
static int op_net(struct sim *s, int32_t gi, const struct op *op)
{
	struct g *gp = &s->allg[gi];
	if (resumed(gp))
		return 1;
	if (op->val == 0) {
		gp->pc++;
		return 1;
	}
	netpoll_wait(s, gi, s->now + op->val);
	return 0;
}

static int op_close(struct sim *s, int32_t gi, const struct op *op)
{
	chan_close(s, gi, op->arg);
	s->allg[gi].pc++;
	return 1;
}

static int32_t f_end(const struct op *op) { return (int32_t)op->val; }

/* for v := range ch: a receive each time round; closed and drained ends
 * the loop (the op's arg is its RANGE_END). */
static int op_range(struct sim *s, int32_t gi, const struct op *op)
{
	struct g *gp = &s->allg[gi];
	int r;
	if (gp->param != PARAM_NONE) {
		r = gp->param == PARAM_CLOSED ? CHAN_CLOSED : CHAN_DONE;
		gp->param = PARAM_NONE;
	} else if ((r = chan_op(s, gi, op->arg, 0)) == CHAN_PARKED) {
		return 0;
	}
	gp = &s->allg[gi];
	gp->pc = r == CHAN_CLOSED ? (uint32_t)f_end(op) + 1 : gp->pc + 1;
	return 1;
}

static int op_range_end(struct sim *s, int32_t gi, const struct op *op)
{
	s->allg[gi].pc = (uint32_t)op->val; /* back to its RANGE */
	return 1;
}

static int op_gosched(struct sim *s, int32_t gi, const struct op *op)
{
	(void)op;
	s->allg[gi].pc++;
	gosched(s, gi, R_GOSCHED);
	return 0;
}

static int op_repeat(struct sim *s, int32_t gi, const struct op *op)
{
	struct g *gp = &s->allg[gi];
	gp->iters[op->depth] = op->val;
	gp->pc = op->val > 0 ? gp->pc + 1 : (uint32_t)op->arg + 1;
	return 1;
}

static int op_end(struct sim *s, int32_t gi, const struct op *op)
{
	struct g *gp = &s->allg[gi];
	gp->pc = --gp->iters[op->depth] > 0 ? (uint32_t)op->arg + 1 : gp->pc + 1;
	return 1;
}

static exec_op_fn *const dispatch[OP__N] = {
#define EXEC_ROW(K, h, name, opnd) [OP_##K] = op_##h,
	WORKLOAD_OPS(EXEC_ROW)
#undef EXEC_ROW
};

/* Run G gi, which is running on its P, until it leaves the CPU or starts
 * CPU work. */
void exec_run(struct sim *s, int32_t gi)
{
	while (s->status == SIM_RUNNING) {
		if (++s->ops % SIM_PROGRESS_EVENTS == 0)
			sim_poll(s); /* a long run of ops that emit nothing */
		const struct op *op = cur_op(s, &s->allg[gi]);
		if (!op) {
			goexit(s, gi);
			return;
		}
		assert(op->kind < OP__N);
		if (!dispatch[op->kind](s, gi, op))
			return;
	}
}

/* A system call returned (the event queue's EVQ_SYSCALL_DONE): the G
 * leaves it (exitsyscall) and, if it got a P, runs on. */
void exec_syscall_done(struct sim *s, int32_t gi)
{
	struct g *gp = &s->allg[gi];
	gp->u.left = 0;
	gp->pc++;
	if (syscall_exit(s, gi) >= 0)
		exec_run(s, gi);
}
