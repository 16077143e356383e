/* exec.c: the G interpreter (see exec.h). */
#include "exec.h"

#include <assert.h>
#include <stdlib.h>

#include "park.h"
#include "proc.h"
#include "netpoll.h"
#include "sema.h"
#include "socket.h"
#include "timer.h"

#include "chan.h"
#include "evq.h"
#include "runq.h"
#include "syscall.h"

static const struct op *cur_op(const struct sim *s, const struct g *gp)
{
	const struct func *fn = &s->prog->funcs[gp->fn];
	return gp->pc < (uint32_t)fn->nops ? &fn->ops[gp->pc] : NULL; /* not the OP_EXIT */
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
	sim_dropg(s, g_running_m(s, gp));
}

/* goexit0: the G is dead; the P schedules again. With "exit": "main",
 * main's return ends the program (runtime.main calls exit(0)), whatever
 * else is running; with "exit": "all" (the default) the run ends when
 * every goroutine has finished, as if main waited for them. mi is the M
 * running it (its P's: g_running_m, which the caller has at hand). */
static void goexit(struct sim *s, int32_t gi, int32_t mi)
{
	struct g *gp = &s->allg[gi];
	sim_dropg(s, mi);
	sim_move_g(s, gi, PL_DEAD, -1, R_EXIT);
	gp->waitreason = WR_NONE; /* gdestroy: gp.waitreason = waitReasonZero */
	if (s->prog->funcs[gp->fn].side)
		sim_iters_put(s, gp->iters, s->prog->funcs[gp->fn].side);
	gp->iters = 0;
	tickers_drop(s, gp->goid);
	gp->parkgen++; /* gfput: the slot's next G starts with timers of this one stale */
	gp->schedlink = s->gfree;
	s->gfree = gi;
	s->nlive--;
	s->sum.makespan_us = s->now;
	if (gi == 0 && s->prog->exit_main && s->status == SIM_RUNNING) {
		for (int32_t pi = 0; pi < s->nprocs; pi++) { /* CPU work in progress counts up to now */
			struct p *pp = &s->allp[pi];
			if (pp->seg_end > s->now && pp->seg_start < s->now) {
				pp->busy_us += s->now - pp->seg_start;
				pp->seg_start = s->now;
			}
		}
		sim_check_full(s); /* --check: the state as main returns */
		if (s->status != SIM_RUNNING)
			return;
		s->status = SIM_DONE; /* runtime.main: exit(0) */
		s->sum.outcome = OUT_DONE;
	}
}

/* goschedImpl: the G goes to the global queue's tail (Gosched, and
 * gopreempt_m after a preemption request); from Go 1.22 it then calls
 * wakep (release.h: GOSCHED_WAKEP), whether or not an idle P could find
 * work: the spinning M it starts may find nothing. */
static void gosched(struct sim *s, int32_t gi, int reason)
{
	struct g *gp = &s->allg[gi];
	dropg(s, gp);
	globrunq_put(s, gi, reason);
	if (sim_release_rule(s, RR_GOSCHED_WAKEP))
		proc_wakep_noidle(s);
}

/* A CPU segment of len us on P pi, from now; its completion event. */
static void segment(struct sim *s, int32_t pi, int64_t len)
{
	struct p *pp = &s->allp[pi];
	pp->seg_start = s->now;
	pp->seg_end = s->now + len;
	if (evq_schedule(&s->evq, pi, pp->seg_end, EVQ_CPU_DONE, pi, ++pp->seg_gen) != 0)
		sim_oom(s, "events");
}

static void start_segment(struct sim *s, int32_t gi)
{
	segment(s, s->allg[gi].p, s->allg[gi].u.left);
}

/* Cut the CPU segment in progress on P pi short, if any: the time run
 * counts as busy, the rest stays in the G's u.left (or, for a cost
 * segment, the P's cost_left_us). */
static void cut_segment(struct sim *s, int32_t pi, struct g *gp)
{
	struct p *pp = &s->allp[pi];
	if (pp->seg_end <= s->now)
		return;
	pp->busy_us += s->now - pp->seg_start;
	if (pp->in_cost)
		pp->cost_left_us = pp->seg_end - s->now;
	else
		gp->u.left = pp->seg_end - s->now;
	pp->seg_gen++;
	evq_cancel(&s->evq, pi); /* its completion event goes too */
	pp->seg_end = pp->seg_start = s->now;
}

void exec_cpu_pause(struct sim *s, int32_t pi)
{
	int32_t gi = s->allm[s->allp[pi].m].curg;
	if (gi >= 0)
		cut_segment(s, pi, &s->allg[gi]);
}

void exec_cpu_resume(struct sim *s, int32_t pi)
{
	struct p *pp = &s->allp[pi];
	int32_t gi = s->allm[pp->m].curg;
	if (gi < 0 || s->allg[gi].place != PL_RUNNING || pp->seg_end > s->now)
		return;
	if (pp->in_cost && pp->cost_left_us > 0)
		segment(s, pi, pp->cost_left_us);
	else if (!pp->in_cost && s->allg[gi].u.left > 0)
		start_segment(s, gi);
}

/* The runtime model's operation costs: the CPU time the op kind takes
 * before its effect, in ns (a go statement: newproc; a channel op:
 * chansend, chanrecv, closechan, selectgo; Gosched: goschedImpl), by op
 * kind: s->op_cost_ns, filled once (exec_init_costs).
 * Simplification: one cost for every kind of channel op; one for every go
 * statement, though reusing a dead G (gfget) costs less than a new one
 * (malg): tools/measure-costs measured 143ns against 1773ns. */
static int64_t op_cost_ns(const struct sim *s, int kind)
{
	switch (kind) {
	case OP_GO: return s->cfg.cost_go_ns;
	case OP_SEND: case OP_RECV: case OP_RANGE: case OP_SELECT: case OP_CLOSE: case OP_TICK: return s->cfg.cost_chan_ns;
	case OP_GOSCHED: return s->cfg.cost_gosched_ns;
	default: return 0;
	}
}

void exec_init_costs(struct sim *s)
{
	for (int k = 0; k < OP__N; k++)
		s->op_cost_ns[k] = op_cost_ns(s, k);
}

/* The op at pc of G gi is the one whose cost P pp has charged. */
static void mark_paid(struct p *pp, int32_t gi, uint32_t pc)
{
	pp->cost_paid_g = gi;
	pp->cost_paid_pc = pc;
}

/* pay_cost's slow half: the debt is a whole microsecond or more. */
static void pay_debt(struct sim *s, int32_t gi, struct p *pp)
{
	const struct g *gp = &s->allg[gi];
	if (gp->preempt && exec_stoppable(s, gi)) {
		exec_preempt(s, gp->p);
		return;
	}
	int64_t us = pp->cost_debt_ns / 1000;
	pp->cost_debt_ns -= us * 1000;
	pp->in_cost = 1;
	pp->cost_left_us = us;
	segment(s, gp->p, us);
}

/* Before G gi's op (at pc): its cost goes into its P's debt (once per
 * op: fresh, and not for an op a wake-up completes: g.param is set), and
 * whole microseconds of debt are paid as a CPU segment of their own,
 * after which the op runs. Returns 1 if the G is now paying (or was
 * preempted), 0 to run the op. The op whose cost is in the debt is marked
 * (pp->cost_paid_g, cost_paid_pc) when exec_run leaves it unfinished, so
 * that running the G again there does not charge it twice.
 * Simplification: time is whole microseconds, so costs below one add up
 * on the P and are paid when they reach one, by whichever G runs then
 * (also the rest of a cost a preemption cut short). */
static inline int pay_cost(struct sim *s, int32_t gi, struct p *pp, const struct op *op, int fresh, uint32_t pc)
{
	struct g *gp = &s->allg[gi];
	if (fresh && gp->param == PARAM_NONE)
		pp->cost_debt_ns += s->op_cost_ns[op->kind];
	if (pp->cost_debt_ns < 1000)
		return 0;
	gp->pc = pc; /* the G stays on its op (pay_debt's exec_stoppable reads it) */
	mark_paid(pp, gi, pc);
	pay_debt(s, gi, pp);
	return 1;
}

void exec_charge_switch(struct sim *s, int32_t pi)
{
	s->allp[pi].cost_debt_ns += s->cfg.cost_switch_ns;
}

/* Preempt the G running on P pi (its request is already set): the rest of
 * its CPU op waits in the global queue. */
int exec_preempt(struct sim *s, int32_t pi)
{
	struct p *pp = &s->allp[pi];
	int32_t gi = s->allm[pp->m].curg;
	struct g *gp = &s->allg[gi];
	cut_segment(s, pi, gp);
	if (pp->in_cost) { /* the rest of the cost is the P's to pay */
		pp->cost_debt_ns += pp->cost_left_us * 1000;
		pp->cost_left_us = 0;
		pp->in_cost = 0;
	}
	struct sim_event e = { .ev = EV_PREEMPT, .g = goid(s, gi), .p = pi, .m = pp->m,
			       .ran_us = s->now - pp->slice_start };
	if (s->cfg.explain)
		e.rule = RULE_PREEMPT_SLICE; /* gp.preempt is only ever set by preemptone */
	sim_emit(s, &e);
	s->sum.preemptions++;
	gosched(s, gi, R_PREEMPT);
	return 1;
}

/* The end of P pi's CPU segment numbered gen: the time counts as busy
 * and the G's op goes on (the op it paid for runs now, or its run op is
 * done). Returns the G, to run, or -1 if the segment was cancelled (by a
 * preemption). */
static inline int32_t segment_done(struct sim *s, int32_t pi, uint64_t gen)
{
	struct p *pp = &s->allp[pi];
	if (gen != pp->seg_gen || pp->m < 0)
		return -1;
	int32_t gi = s->allm[pp->m].curg;
	struct g *gp = &s->allg[gi];
	pp->busy_us += pp->seg_end - pp->seg_start;
	pp->seg_start = pp->seg_end;
	if (pp->in_cost) {
		pp->in_cost = 0;
		pp->cost_left_us = 0;
	} else {
		gp->u.left = 0;
		gp->pc++;
	}
	return gi;
}

static void exec_run_cont(struct sim *s, int32_t gi, exec_cont_fn cont);

void exec_cpu_done(struct sim *s, int32_t pi, uint64_t gen, exec_cont_fn cont)
{
	int32_t gi = segment_done(s, pi, gen);
	if (gi >= 0)
		exec_run_cont(s, gi, cont);
}

/* A duration operand: fixed, or the G's next draw from its own stream. */
static int64_t dur(struct sim *s, int32_t gi, int64_t v)
{
	if (v >= 0)
		return v;
	return workload_draw(s->prog, v, s->cfg.seed, goid(s, gi), (*g_draws(s, gi))++);
}

/* Start the current run/loop op, or resume it after a preemption. Returns
 * 1 if the G is now on CPU or was preempted, 0 if the op was empty. */
static int cpu_op(struct sim *s, int32_t gi, const struct op *op)
{
	struct g *gp = &s->allg[gi];
	if (gp->u.left == 0) {
		int64_t d = dur(s, gi, op->val);
		if (d == 0)
			return 0;
		gp = &s->allg[gi];
		gp->u.left = d;
		s->sum.work_us += d;
	}
	if (gp->preempt && exec_stoppable(s, gi)) {
		exec_preempt(s, gp->p);
		return 1;
	}
	start_segment(s, gi);
	return 1;
}

/* One handler per op (the WORKLOAD_OPS table, dispatched by exec_run's
 * switch): returns 1 if the G goes on to its next op at this instant, 0 if
 * it left the CPU or started CPU work. A handler that parks leaves pc on
 * its op; when the G runs again, g.param says what woke it. */
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
	proc_wakep_noidle(s); /* newproc -> wakep */
	gp->pc++;
	return 1;
}

static int op_syscall(struct sim *s, int32_t gi, const struct op *op)
{
	int64_t d = dur(s, gi, op->val);
	if (d == 0) {
		s->allg[gi].pc++;
		return 1;
	}
	syscall_enter(s, gi, d);
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
	if (gp->param != PARAM_NONE) { /* woken: the op is done (resumed), or a send's channel closed */
		if (send && gp->param == PARAM_CLOSED) {
			sim_crash(s, gi, "panic", "send on closed channel"); /* chansend after closechan woke it */
			return 0;
		}
		return resumed(gp);
	}
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
	int64_t d = dur(s, gi, op->val);
	if (d == 0) {
		gp->pc++;
		return 1;
	}
	int32_t pi = gp->p;
	park_gopark(s, gi, WR_SLEEP, R_SLEEP, -1);
	timer_add(s, pi, gi, s->now + d, PARAM_OK);
	return 0;
}

/* <-ticker.C for the G's time.Ticker of period op->val (timer.h): a fire
 * already due is taken at once; otherwise the G blocks in chan receive
 * (waiting on no program channel: obj -1) until the ticker's timer
 * readies it. */
static int op_tick(struct sim *s, int32_t gi, const struct op *op)
{
	struct g *gp = &s->allg[gi];
	if (resumed(gp))
		return 1;
	int32_t tk = ticker_get(s, gi, op->val);
	if (tk < 0)
		return 0;
	if (ticker_take(s, tk)) {
		gp->pc++;
		return 1;
	}
	int32_t pi = gp->p;
	park_gopark(s, gi, WR_CHAN_RECV, R_CHAN, -1);
	ticker_block(s, pi, gi, tk);
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
	int64_t d = dur(s, gi, op->val);
	if (d == 0) {
		gp->pc++;
		return 1;
	}
	netpoll_wait(s, gi, s->now + d);
	return 0;
}

/* A socket's read and write (socket.h: FD.Read's read lock and
 * pd.waitRead, FD.Write making the reader ready in the poller). */
static int op_read(struct sim *s, int32_t gi, const struct op *op) { return socket_read(s, gi, op->arg); }
static int op_write(struct sim *s, int32_t gi, const struct op *op) { return socket_write(s, gi, op->arg); }
/* "NAME[#]": the array's element numbered by the G's ordinal (g_ordinal). */
static int op_read_at(struct sim *s, int32_t gi, const struct op *op)
{
	const struct g *gp = &s->allg[gi];
	return socket_read(s, gi, op->arg + s->iterpool[gp->iters + op->val]);
}
static int op_write_at(struct sim *s, int32_t gi, const struct op *op)
{
	const struct g *gp = &s->allg[gi];
	return socket_write(s, gi, op->arg + s->iterpool[gp->iters + op->val]);
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

/* A select's case ops and body ends: CASE is never reached (SELECT jumps
 * to a body), JUMP leaves a body for the end of its select. */
static int op_case(struct sim *s, int32_t gi, const struct op *op)
{
	(void)op;
	sim_broken(s, "G%d reached a select's case table", goid(s, gi));
	return 0;
}

static int op_jump(struct sim *s, int32_t gi, const struct op *op)
{
	s->allg[gi].pc = (uint32_t)op->arg;
	return 1;
}

/* selectgo's first pass for case k: 1 if it could go now (and went: the
 * channel op is done), 0 if not, -1 if the program died. */
static int select_try(struct sim *s, int32_t gi, const struct op *c)
{
	switch (c->depth) {
	case CASE_RECV:
	case CASE_SEND:
		if (!chan_ready(s, c->arg, c->depth == CASE_SEND))
			return 0;
		return chan_op(s, gi, c->arg, c->depth == CASE_SEND) == CHAN_DIED ? -1 : 1;
	case CASE_AFTER:
		return c->val == 0; /* time.After(0) has fired (a random 0 fires through its timer) */
	default:
		return 0;
	}
}

/* A blocked select parks on every case at once (one sudog per channel,
 * a timer per after case; lockorder: case order) and is woken by the
 * first to fire; one EV_SUDOG record per case. */
static void select_block(struct sim *s, int32_t gi, const struct op *cases, int32_t n)
{
	int32_t pi = s->allg[gi].p;
	park_gopark(s, gi, WR_SELECT, R_SELECT, -1);
	for (int32_t k = 0; k < n && s->status == SIM_RUNNING; k++) {
		const struct op *c = &cases[k];
		struct sim_event e = { .ev = EV_SUDOG, .g = goid(s, gi), .p = -1, .m = -1, .n = k, .obj = -1,
				       .wait = WR_SLEEP };
		if (c->depth == CASE_RECV || c->depth == CASE_SEND) {
			int send = c->depth == CASE_SEND;
			park_enqueue(s, send ? &s->chans[c->arg].sendq : &s->chans[c->arg].recvq, gi,
				     send ? WQ_CHAN_SEND : WQ_CHAN_RECV, c->arg, (int)k);
			e.obj = c->arg;
			e.wait = send ? WR_CHAN_SEND : WR_CHAN_RECV;
		} else if (c->depth == CASE_AFTER) {
			timer_add(s, pi, gi, s->now + dur(s, gi, c->val), k * 2);
		} else {
			continue;
		}
		sim_emit(s, &e);
	}
}

/* selectgo: a woken select runs the case that woke it (a send case woken
 * by close panics); otherwise the cases are polled in pollorder (a
 * uniform shuffle from the seeded select stream, as cheaprandn builds it,
 * default excluded), the first ready one runs; else default; else block.
 * select {} (no cases) parks forever. */
static int op_select(struct sim *s, int32_t gi, const struct op *op)
{
	struct g *gp = &s->allg[gi];
	const struct op *cases = op + 1;
	int32_t n = op->arg, order[WORKLOAD_MAX_CASES], norder = 0, dflt = -1;
	if (gp->param != PARAM_NONE) {
		int32_t k = gp->param / 2;
		int closed = gp->param % 2;
		gp->param = PARAM_NONE;
		if (cases[k].depth == CASE_SEND && closed) {
			sim_crash(s, gi, "panic", "send on closed channel");
			return 0;
		}
		gp->pc = (uint32_t)case_body(&cases[k]);
		return 1;
	}
	for (int32_t i = 0; i < n; i++) {
		if (cases[i].depth == CASE_DEFAULT) {
			dflt = i;
			continue;
		}
		uint32_t j = rng_n(&s->rng_select, (uint32_t)norder + 1);
		order[norder] = order[j];
		order[j] = i;
		norder++;
	}
	for (int32_t i = 0; i < norder; i++) {
		int r = select_try(s, gi, &cases[order[i]]);
		if (r < 0)
			return 0;
		if (r > 0) {
			s->allg[gi].pc = (uint32_t)case_body(&cases[order[i]]);
			return 1;
		}
	}
	if (dflt >= 0) {
		gp->pc = (uint32_t)case_body(&cases[dflt]);
		return 1;
	}
	if (norder == 0) {
		park_gopark(s, gi, WR_SELECT_NO_CASES, R_SELECT, -1); /* block forever */
		return 0;
	}
	select_block(s, gi, cases, n);
	return 0;
}

static int op_lock(struct sim *s, int32_t gi, const struct op *op) { return sema_lock(s, gi, op->arg); }
static int op_unlock(struct sim *s, int32_t gi, const struct op *op) { return sema_unlock(s, gi, op->arg); }

static int op_add(struct sim *s, int32_t gi, const struct op *op) { return sema_add(s, gi, op->arg, op->val); }
static int op_done(struct sim *s, int32_t gi, const struct op *op) { return sema_add(s, gi, op->arg, -1); }
static int op_wait(struct sim *s, int32_t gi, const struct op *op) { return sema_wait(s, gi, op->arg); }

/* runtime/trace regions (trace.WithRegion): a begin (n 1) and end (n 0)
 * record around the body, obj the region's name index. */
static int region_record(struct sim *s, int32_t gi, const struct op *op, int begin)
{
	struct g *gp = &s->allg[gi];
	struct sim_event e = { .ev = EV_REGION, .g = goid(s, gi), .p = gp->p, .m = g_m(s, gp), .obj = op->arg, .n = begin };
	sim_emit(s, &e);
	s->allg[gi].pc++;
	return 1;
}

static int op_region(struct sim *s, int32_t gi, const struct op *op) { return region_record(s, gi, op, 1); }
static int op_region_end(struct sim *s, int32_t gi, const struct op *op) { return region_record(s, gi, op, 0); }

static int op_gosched(struct sim *s, int32_t gi, const struct op *op)
{
	(void)op;
	s->allg[gi].pc++;
	gosched(s, gi, R_GOSCHED);
	return 0;
}

/* REPEAT and END of G gi running function fn (exec_run has it at hand:
 * g_iter without looking it up). */
static int repeat_in(struct sim *s, int32_t gi, const struct func *fn, const struct op *op)
{
	struct g *gp = &s->allg[gi];
	*(fn->side ? &s->iterpool[gp->iters + op->depth] : &gp->iters) = (int32_t)op->val; /* -1: forever */
	gp->pc = op->val != 0 ? gp->pc + 1 : (uint32_t)op->arg + 1;
	return 1;
}

static int end_in(struct sim *s, int32_t gi, const struct func *fn, const struct op *op)
{
	struct g *gp = &s->allg[gi];
	int32_t *it = fn->side ? &s->iterpool[gp->iters + op->depth] : &gp->iters;
	gp->pc = *it < 0 || --*it > 0 ? (uint32_t)op->arg + 1 : gp->pc + 1;
	return 1;
}

static int op_repeat(struct sim *s, int32_t gi, const struct op *op)
{
	return repeat_in(s, gi, &s->prog->funcs[s->allg[gi].fn], op);
}

static int op_end(struct sim *s, int32_t gi, const struct op *op)
{
	return end_in(s, gi, &s->prog->funcs[s->allg[gi].fn], op);
}

/* G gi's op at pc left it off the CPU (or the run stopped): with costs,
 * the op's cost stays marked as paid on P pp, where it ran (pay_cost),
 * unless the G is still on a P, which takes up afresh. */
static void op_left(struct sim *s, int32_t gi, struct p *pp, uint32_t pc)
{
	mark_paid(pp, gi, pc);
	if (s->allg[gi].p >= 0)
		s->allp[s->allg[gi].p].cost_paid_g = -1;
}

/* Every op's handler, by kind (WORKLOAD_OPS). */
#define EXEC_ENTRY(K, h, name, opnd) [OP_##K] = op_##h,
static exec_op_fn *const op_table[OP__N] = { WORKLOAD_OPS(EXEC_ENTRY) };
#undef EXEC_ENTRY

/* pay_cost for an op whose kind costs nothing (run, loop, repeat, end:
 * op_cost_ns), which adds nothing to the debt: only a debt of a whole
 * microsecond or more is paid before it. */
static inline int pay_due(struct sim *s, int32_t gi, struct p *pp, uint32_t pc)
{
	if (pp->cost_debt_ns < 1000)
		return 0;
	s->allg[gi].pc = pc;
	mark_paid(pp, gi, pc);
	pay_debt(s, gi, pp);
	return 1;
}

/* --max-steps: the op at pc, which counts as a step (every op but END and
 * RANGE_END, as program_totals counts them), is one too many. */
static inline int step_limit(struct sim *s, int32_t gi, struct p *pp, uint32_t pc)
{
	if (s->cfg.max_steps <= 0 || ++s->steps <= s->cfg.max_steps)
		return 0;
	s->allg[gi].pc = pc;
	if (s->costs)
		mark_paid(pp, gi, pc);
	sim_limit(s, "executed", s->cfg.max_steps, "steps");
	return 1;
}

/* A send or receive of G gi at pc (the loop's: g.pc may be behind it),
 * the loop's own chan_step: 1 if done, -1 if the G parked (it is then on
 * no P), 0 if the program died (g.pc is then pc). Nothing chan_op calls
 * reads g.pc. */
static inline __attribute__((always_inline)) int chan_step_at(struct sim *s, int32_t gi, const struct op *op,
							      const int send, uint32_t pc)
{
	struct g *gp = &s->allg[gi];
	if (gp->param != PARAM_NONE) { /* woken: the op is done (resumed), or a send's channel closed */
		if (send && gp->param == PARAM_CLOSED) {
			gp->pc = pc;
			sim_crash(s, gi, "panic", "send on closed channel"); /* chansend after closechan woke it */
			return 0;
		}
		gp->param = PARAM_NONE;
		return 1;
	}
	int r = chan_op(s, gi, op->arg, send);
	if (r == CHAN_PARKED || r == CHAN_DIED) {
		s->allg[gi].pc = pc;
		return r == CHAN_PARKED ? -1 : 0;
	}
	return 1;
}

/* A jump back from pc to next (may_loop: END, RANGE_END, JUMP) counts a
 * loop round, for the progress poll; g.pc is next first. Returns 1 if it
 * polled (the sink may have stopped the run). */
static inline int loop_round(struct sim *s, int32_t gi, uint32_t pc, uint32_t next)
{
	if (next <= pc && ++s->ops % SIM_PROGRESS_EVENTS == 0) {
		s->allg[gi].pc = next;
		sim_poll(s); /* a long loop of ops that emit nothing */
		return 1;
	}
	return 0;
}

/* From a CPU-done event's handler (exec_cpu_done): when the driver's
 * next steps are known to lead straight to P pi's next CPU segment's end
 * (cont: driver.c's, which takes them), that event's handling, in place:
 * its G, to run on in the same loop; -1 otherwise, nothing done. */
static inline int32_t next_segment_done(struct sim *s, int32_t pi, exec_cont_fn cont)
{
	return cont && cont(s, pi) ? segment_done(s, pi, s->allp[pi].seg_gen) : -1;
}

/* Run G gi, which is running on its P, until it leaves the CPU or starts
 * CPU work. The G's function never changes, so its ops are a cursor held
 * here, and so is pc: the common ops (run, send, recv, repeat, end) move
 * it here, and g.pc, which only the G's own ops change, is brought up to
 * it before anything else can read it (an op that leaves the CPU or
 * parks, a payment, a poll, the other ops, which are given g.pc and move
 * it themselves) and when the loop stops; op_go may move allg. The
 * OP_EXIT after the last op is its return (goexit). An op is fresh (its
 * cost not yet charged: pay_cost) unless it is the one this P last left
 * unfinished; every op after a finished one is. The P's mark is taken at
 * the start (every way out but a finished run marks again).
 * Before an op its cost is charged and a whole microsecond of debt paid
 * (pay_cost; for the kinds that cost nothing only the payment, pay_due),
 * then --max-steps is checked (step_limit), then it runs.
 * costs and limit are s->costs and whether --max-steps is set (constants
 * in the instance exec_run picks, so that the common one tests neither).
 * The sink is polled for progress only on backward jumps (END, RANGE_END,
 * JUMP's loops): every long run of ops that emit nothing goes round one,
 * since ops are finite and nothing calls. The common ops' handlers are
 * dispatched here and, with everything they call, inlined (flatten: see
 * SIM_HOT, state.h), each with its own charge and checks; the others go
 * through op_table.
 * cont (NULL but from a CPU-done event: exec_run_cont): when the G has
 * stopped (g.pc right), the event loop's next steps may be known to lead
 * to this P's next CPU segment's end (next_segment_done), which the G's
 * payment or run op has just started: that event is handled here and the
 * G runs on from its g.pc as a new call would (enter: its fresh op and
 * mark), with its function, ops and P at hand. Returns the G
 * next_segment_done gave when it is another one (never yet: the P's
 * curg is this G), else -1. */
static inline __attribute__((always_inline)) int32_t run_ops(struct sim *s, int32_t gi, const int costs, const int limit,
							     exec_cont_fn cont)
{
	const struct func *fn = &s->prog->funcs[s->allg[gi].fn];
	const struct op *ops = fn->ops;
	const int32_t pi = s->allg[gi].p;
	struct p *pp = &s->allp[pi]; /* an op that does not leave the CPU leaves the G running on it */
	uint32_t pc;
	int fresh, r;
	pc = s->allg[gi].pc;
	fresh = pp->cost_paid_g != gi || pp->cost_paid_pc != pc;
	if (ops[pc].kind != OP_EXIT) /* a G that only exits leaves another's mark (a preempted op's) alone */
		pp->cost_paid_g = -1; /* unused without costs */
again: /* the G runs on from pc (after its CPU segment's end: stopped) */
	while (s->status == SIM_RUNNING) {
	next_op:; /* the ops that cannot stop the run (run with nothing to do, repeat, end without a poll) come here */
		const struct op *op = &ops[pc];
		switch (op->kind) { /* the common ops inline, the others through the table */
		case OP_EXIT:
			s->allg[gi].pc = pc;
			goexit(s, gi, pp->m);
			goto stopped;
		case OP_RUN:
			if ((costs && pay_due(s, gi, pp, pc)) || (limit && step_limit(s, gi, pp, pc)))
				goto stopped;
			if (op->val != 0 || s->allg[gi].u.left != 0) { /* else cpu_op's empty op, at once */
				s->allg[gi].pc = pc;
				if (cpu_op(s, gi, op))
					goto left;
				pc++;
				break;
			}
			pc++;
			fresh = 1;
			goto next_op;
		case OP_GO:
			if ((costs && pay_cost(s, gi, pp, op, fresh, pc)) || (limit && step_limit(s, gi, pp, pc)))
				goto stopped;
			s->allg[gi].pc = pc;
			if (!op_go(s, gi, op))
				goto left;
			pc++;
			break;
		case OP_SEND:
			if ((costs && pay_cost(s, gi, pp, op, fresh, pc)) || (limit && step_limit(s, gi, pp, pc)))
				goto stopped;
			if ((r = chan_step_at(s, gi, op, 1, pc)) <= 0)
				goto chan_left;
			pc++;
			break;
		case OP_RECV:
			if ((costs && pay_cost(s, gi, pp, op, fresh, pc)) || (limit && step_limit(s, gi, pp, pc)))
				goto stopped;
			if ((r = chan_step_at(s, gi, op, 0, pc)) <= 0)
				goto chan_left;
			pc++;
			break;
		case OP_REPEAT:
			if ((costs && pay_due(s, gi, pp, pc)) || (limit && step_limit(s, gi, pp, pc)))
				goto stopped;
			*(fn->side ? &s->iterpool[s->allg[gi].iters + op->depth] : &s->allg[gi].iters) =
				(int32_t)op->val; /* -1: forever */
			pc = op->val != 0 ? pc + 1 : (uint32_t)op->arg + 1;
			fresh = 1;
			goto next_op;
		case OP_END: { /* not a step; it never leaves the CPU */
			if (costs && pay_due(s, gi, pp, pc))
				goto stopped;
			int32_t *it = fn->side ? &s->iterpool[s->allg[gi].iters + op->depth] : &s->allg[gi].iters;
			/* Another round starts past the body's leading runs of 0 us
			 * (op->val) unless they count as steps (--max-steps): each
			 * would only pay a whole microsecond of debt (there is none
			 * left: this END's own pay_due, and END adds none) and run
			 * nothing (g.u is 0 between ops but Lock's, and their
			 * durations are fixed). */
			uint32_t again = limit && s->cfg.max_steps > 0 ? (uint32_t)op->arg + 1 : (uint32_t)op->val;
			uint32_t next = *it < 0 || --*it > 0 ? again : pc + 1;
			int polled = loop_round(s, gi, pc, next);
			pc = next;
			fresh = 1;
			if (polled)
				break;
			goto next_op;
		}
		/* Every other kind, listed so that the switch's default is
		 * unreachable (the compiled program's kinds: workload.h) and its
		 * jump needs no bounds check. */
		_Static_assert(OP__N == 29, "a new op kind is listed here or inline above");
		case OP_LOOP: case OP_SYSCALL: case OP_GOSCHED: case OP_SLEEP: case OP_NET: case OP_CLOSE:
		case OP_RANGE: case OP_RANGE_END: case OP_SELECT: case OP_CASE: case OP_JUMP: case OP_LOCK:
		case OP_UNLOCK: case OP_ADD: case OP_DONE: case OP_WAIT: case OP_REGION: case OP_REGION_END:
		case OP_TICK: case OP_READ: case OP_WRITE: case OP_READ_AT: case OP_WRITE_AT:
			if ((costs && pay_cost(s, gi, pp, op, fresh, pc)) || /* a handler may add to the debt (sema.c's spin) */
			    (limit && op->kind != OP_RANGE_END && step_limit(s, gi, pp, pc)))
				goto stopped;
			s->allg[gi].pc = pc;
			if (!op_table[op->kind](s, gi, op))
				goto left;
			assert(s->allg[gi].p == pi);
			{
				uint32_t next = s->allg[gi].pc;
				loop_round(s, gi, pc, next);
				pc = next;
			}
			break;
		default:
			__builtin_unreachable();
		}
		fresh = 1;
	}
	s->allg[gi].pc = pc; /* the run stopped */
	goto stopped;
chan_left: /* a send or receive parked (r -1: the G is on no P, op_left's test known) or the program died */
	if (costs && r < 0) {
		mark_paid(pp, gi, pc);
		goto stopped;
	}
left: /* the op left the G off the CPU (or the run stopped); g.pc is the handler's */
	if (costs)
		op_left(s, gi, pp, pc);
stopped: /* g.pc is right: from a CPU-done event (cont), the event loop's next steps may lead to this P's next CPU segment's end */
	if (!cont)
		return -1;
	const int paying = pp->in_cost; /* the segment pays the op's cost (pay_debt), else it is a run op's */
	int32_t next = next_segment_done(s, pi, cont);
	if (next != gi)
		return next; /* -1, or (never yet) another G: run_gs runs it */
	/* The same G on the same P: its function, ops and P are at hand, and
	 * the entry's tests are known: after a payment its op (not OP_EXIT)
	 * is marked (not fresh), after a run op the next op is fresh and the
	 * mark is clear (op_left); either way the mark is clear now. */
	pc = s->allg[gi].pc;
	fresh = !paying;
	pp->cost_paid_g = -1;
	goto again;
}

/* The loop's instance for the run's configuration: the runtime model
 * without --max-steps tests neither per op; any other run tests both.
 * in_pass: called by schedule_busy_ps's pass (exec_run_in_pass), where
 * the G that runs next on the P after this one leaves its M may run in
 * this loop (sched_next_in_pass: the pass's own next steps, taken here
 * instead of returning to it), as park_m calls schedule. cont (not in a
 * pass): from a CPU-done event, whose next CPU-done event on the same P
 * may be handled in run_ops when the driver's steps up to it are known
 * (next_segment_done), as the event loop would. A loop, not a call:
 * nothing nests. */
static inline __attribute__((always_inline)) void run_gs(struct sim *s, int32_t gi, const int in_pass,
							 exec_next_fn next, exec_cont_fn cont)
{
	const int32_t pi = s->allg[gi].p;
	if (s->costs && s->cfg.max_steps <= 0) {
		do
			gi = run_ops(s, gi, 1, 0, cont);
		while (in_pass ? (gi = next(s, pi)) >= 0 : gi >= 0);
	} else {
		do
			gi = run_ops(s, gi, s->costs, 1, cont);
		while (in_pass ? (gi = next(s, pi)) >= 0 : gi >= 0);
	}
}

__attribute__((flatten, noinline)) static void exec_run_cont(struct sim *s, int32_t gi, exec_cont_fn cont)
{
	run_gs(s, gi, 0, NULL, cont);
}
__attribute__((flatten)) void exec_run(struct sim *s, int32_t gi) { run_gs(s, gi, 0, NULL, NULL); }
__attribute__((flatten)) void exec_run_in_pass(struct sim *s, int32_t gi, exec_next_fn next)
{
	run_gs(s, gi, 1, next, NULL);
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
