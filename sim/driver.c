/* driver.c: the simulation's lifecycle and its event loop, above every
 * other module (sim.h describes the lifecycle).
 *
 * One step is one instant of simulated time: the timed events due then
 * (CPU work finishing, system calls returning) in the order they were
 * scheduled; then the scheduler on every P that needs it (sched_all); then,
 * at sysmon pass times, a sysmon pass and the scheduler again. Nothing
 * happens between instants, so the clock jumps from one to the next.
 * Nothing below calls up into the driver. */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "exec.h"
#include "mem.h"
#include "netpoll.h"
#include "park.h"
#include "proc.h"
#include "release.h"
#include "runq.h"
#include "policy.h"
#include "sched.h"
#include "state.h"
#include "sysmon.h"
#include "sysmon_slack.h"
#include "timer.h"

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

/* What each model assumes where the user says nothing. The seed model's
 * are the seed's: fixed 20us sysmon, no timer slack, free wake-ups. The
 * runtime model's: sysmon's own back-off (proc.go sysmon(): usleep(delay),
 * delay 20us doubling after 50 idle passes up to 10ms), and every usleep
 * overshooting by the timer slack measured here (tools/timer-slack.c: the
 * median overshoot of usleep(3) and usleep(20) on this kind of machine,
 * 65-77us; Linux's default slack alone is 50us); threads that take time
 * to start and wake, and operations that cost CPU time, as
 * tools/measure-costs measured them (policy.h). */
static const struct model_defaults {
	enum sim_sysmon sysmon;
	enum sim_slack slack;
	enum sim_init runtime_init;
	int64_t sysmon_slack_us, thread_wake_us, thread_start_us;
	int init_threads;
	int64_t cost_go_ns, cost_chan_ns, cost_switch_ns, cost_gosched_ns, cost_sysmon_ns;
	int64_t cost_thread_ns[TOP__N];
} model_defaults[] = {
	[MODEL_SEED] = { SYSMON_FIXED, SLACK_FIXED, INIT_NONE, 0, 0, 0, 0, 0, 0, 0, 0, 0, { 0 } },
	[MODEL_RUNTIME] = { SYSMON_ADAPTIVE, SLACK_MEASURED, INIT_MEASURED, RUNTIME_TIMER_SLACK_US, RUNTIME_THREAD_WAKE_US, RUNTIME_THREAD_START_US,
			    RUNTIME_INIT_THREADS, RUNTIME_COST_GO_NS, RUNTIME_COST_CHAN_NS, RUNTIME_COST_SWITCH_NS, RUNTIME_COST_GOSCHED_NS,
			    RUNTIME_COST_SYSMON_NS,
			    { [TOP_FUTEX_WAKE] = RUNTIME_COST_FUTEX_WAKE_NS, [TOP_FUTEX_SLEEP] = RUNTIME_COST_FUTEX_SLEEP_NS,
			      [TOP_USLEEP] = RUNTIME_COST_USLEEP_NS, [TOP_SYSCALL] = RUNTIME_COST_SYSCALL_NS,
			      [TOP_NETPOLL] = RUNTIME_COST_NETPOLL_NS, [TOP_CLONE] = RUNTIME_COST_CLONE_NS,
			      [TOP_MSTART] = RUNTIME_COST_MSTART_NS, [TOP_WRITE] = RUNTIME_COST_WRITE_NS } },
};

void sim_config_fill_model(struct sim_config *cfg)
{
	const struct model_defaults *d = &model_defaults[cfg->model == MODEL_RUNTIME];
	if (cfg->sysmon == SYSMON_MODEL)
		cfg->sysmon = d->sysmon;
	if (cfg->slack == SLACK_MODEL)
		cfg->slack = d->slack;
	if (cfg->runtime_init == INIT_MODEL) /* the head start is adaptive sysmon's: none with the fixed one */
		cfg->runtime_init = cfg->sysmon == SYSMON_ADAPTIVE ? d->runtime_init : INIT_NONE;
	if (cfg->sysmon_slack_us == SIM_MODEL_DEFAULT)
		cfg->sysmon_slack_us = d->sysmon_slack_us;
	if (cfg->thread_wake_us == SIM_MODEL_DEFAULT)
		cfg->thread_wake_us = d->thread_wake_us;
	if (cfg->thread_start_us == SIM_MODEL_DEFAULT)
		cfg->thread_start_us = d->thread_start_us;
	if (cfg->init_threads == SIM_MODEL_DEFAULT)
		cfg->init_threads = d->init_threads;
	if (cfg->netpoll_wait == NETPOLL_WAIT_MODEL) /* the runtime model's epoll_wait, netpoll.h */
		cfg->netpoll_wait = cfg->model == MODEL_RUNTIME ? NETPOLL_WAIT_MS : NETPOLL_WAIT_EXACT;
	int64_t *cost[] = { &cfg->cost_go_ns, &cfg->cost_chan_ns, &cfg->cost_switch_ns, &cfg->cost_gosched_ns };
	const int64_t dcost[] = { d->cost_go_ns, d->cost_chan_ns, d->cost_switch_ns, d->cost_gosched_ns };
	for (int i = 0; i < 4; i++)
		if (*cost[i] == SIM_MODEL_DEFAULT)
			*cost[i] = dcost[i];
	if (cfg->cost_sysmon_ns == SIM_MODEL_DEFAULT)
		cfg->cost_sysmon_ns = d->cost_sysmon_ns;
	for (int op = 0; op < TOP__N; op++)
		if (cfg->cost_thread_ns[op] == SIM_MODEL_DEFAULT)
			cfg->cost_thread_ns[op] = d->cost_thread_ns[op];
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

/* x in 0..n-1 with a * x = 1 (mod n), for a coprime to n (extended
 * Euclid). */
static int inverse_mod(int a, int n)
{
	int t = 0, nt = 1, r = n, nr = a % n;
	while (nr != 0) {
		int q = r / nr, tmp = t - q * nt;
		t = nt;
		nt = tmp;
		tmp = r - q * nr;
		r = nr;
		nr = tmp;
	}
	return t < 0 ? t + n : t;
}

static int costs_ok(const struct sim_config *c)
{
	const int64_t v[] = { c->cost_go_ns, c->cost_chan_ns, c->cost_switch_ns, c->cost_gosched_ns, c->cost_sysmon_ns };
	for (int i = 0; i < 5; i++)
		if (v[i] < 0 || v[i] > 1000000000 || (v[i] > 0 && c->model != MODEL_RUNTIME))
			return 0;
	for (int op = 0; op < TOP__N; op++)
		if (c->cost_thread_ns[op] < 0 || c->cost_thread_ns[op] > 1000000000 ||
		    (c->cost_thread_ns[op] > 0 && c->model != MODEL_RUNTIME))
			return 0;
	return 1;
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
	else if (c->thread_wake_us < 0 || (c->thread_wake_us > 0 && c->model != MODEL_RUNTIME))
		bad = "a thread wake-up time (--thread-wake) needs the runtime model (--model=runtime)";
	else if (c->init_threads < 0 || (c->init_threads > 0 && c->model != MODEL_RUNTIME))
		bad = "idle threads from the runtime's init (--init-threads) need the runtime model (--model=runtime)";
	else if (c->thread_start_us < 0 || (c->thread_start_us > 0 && c->model != MODEL_RUNTIME))
		bad = "a thread start time (--thread-start) needs the runtime model (--model=runtime)";
	else if (!costs_ok(c))
		bad = "operation costs (--cost-*) are 0 to 1s, and need the runtime model (--model=runtime)";
	else if (c->netpoll_wait == NETPOLL_WAIT_MS && c->model != MODEL_RUNTIME)
		bad = "netpoll's whole-millisecond wait (--netpoll-wait=ms) needs the runtime model (--model=runtime)";
	else if (c->cpus < 0 || c->cpus > MAX_CPUS)
		bad = "cpus must be in 1..1024";
	else if (c->cpus > 0 && c->model != MODEL_RUNTIME)
		bad = "a CPU count (--cpus) needs the runtime model (--model=runtime); the seed model gives every P its own CPU";
	else if (c->cpu_slice_us < 0 || (c->cpu_slice_us > 0 && c->cpus == 0))
		bad = "a CPU time slice (--cpu-slice) needs a CPU count (--cpus)";
	else if (c->cpu_place != CPU_PLACE_SHARED && (c->cpu_place < CPU_PLACE_LAST || c->cpu_place > CPU_PLACE_PREV || c->cpus == 0))
		bad = "a CPU placement (--cpu-place) needs a CPU count (--cpus)";
	else if (c->cpu_migration_cost_us < 0 || (c->cpu_migration_cost_us > 0 && c->cpu_place == CPU_PLACE_SHARED))
		bad = "a migration cost (--cpu-migration-cost) needs --cpu-place=last, linux or prev";
	else if (c->go_release != 0 && (c->go_release < RELEASE_OLDEST || c->go_release > RELEASE_NEWEST))
		bad = "go_release must be in 19..26 (Go 1.19 to 1.26)";
	else if (c->max_threads < 2)
		bad = "max threads must be at least 2 (the main thread and sysmon)";
	else if (!prog || prog->main_fn < 0)
		bad = "the program has no main";
	if (bad) {
		snprintf(err->msg, sizeof err->msg, "%s", bad);
		err->nomem = 0; /* bad input, not a resource error */
	}
	return bad ? -1 : 0;
}

static void init_ps(struct sim *s)
{
	for (int32_t pi = 0; pi < s->nprocs; pi++)
		s->allp[pi] = (struct p){ .status = P_IDLE, .m = -1, .sysm = -1, .link = -1, .runnext = -1, .cost_paid_g = -1,
					  .backoff_g = -1, .backoff_p = -1,
					  .pd = { .schedwhen = SYSMON_LONG_AGO, .syscallwhen = SYSMON_LONG_AGO } };
	/* procresize (1.19) pushes idle Ps from the highest id down, so the
	 * lowest id is on top of the stack. P0 goes to the main thread. */
	for (int32_t pi = s->nprocs - 1; pi >= 1; pi--)
		proc_pidleput(s, pi);
	for (int i = 1; i <= s->nprocs; i++)
		if (gcd(i, s->nprocs) == 1) {
			s->coprime_inv[s->ncoprimes] = (uint32_t)inverse_mod(i, s->nprocs);
			s->coprimes[s->ncoprimes++] = (uint32_t)i;
		}
}

/* The process at its start: M0 (the main thread) on P0, sysmon's M1, the
 * main goroutine in P0's queue, and (runtime model) cfg.init_threads idle
 * Ms. Those are the runtime's init's: runtime.main starts sysmon (newm),
 * then its init goroutines (proc.go init: forcegchelper; gcenable: bgsweep,
 * bgscavenge) each newproc -> wakep -> startm, which finds no idle M and
 * calls newm; the M spins, finds them or nothing, and stopm parks it. Every
 * real twin's first SCHED line (sysmon's first pass, still in init) shows
 * threads=4 idlethreads=2 on 2 CPUs, and the workload's first startm wakes
 * one of them (notewakeup) rather than creating a thread. Simplification:
 * their number is a setting, not the outcome of simulating init. */
static int boot(struct sim *s)
{
	int32_t m0 = proc_newm(s);
	s->sysmon_m = proc_newm(s);
	if (m0 < 0 || s->sysmon_m < 0)
		return -1;
	s->allm[s->sysmon_m].state = MS_SYSMON;
	for (int i = 0; i < s->cfg.init_threads; i++) { /* init's Ms, parked by stopm (mput) */
		int32_t mi = proc_newm(s);
		if (mi < 0)
			return -1;
		proc_mput(s, mi);
	}
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
	struct sim_config c = *cfg;
	sim_config_fill_model(&c);
	if (check_config(&c, prog, err) != 0)
		return NULL;
	struct sim *s = calloc(1, sizeof *s);
	if (!s)
		goto fail;
	s->cfg = c;
	s->costs = c.cost_go_ns + c.cost_chan_ns + c.cost_switch_ns + c.cost_gosched_ns > 0;
	exec_init_costs(s);
	s->prog = prog;
	if (sink)
		s->sink = *sink;
	if (!s->sink.event_ctx)
		s->sink.event_ctx = s->sink.ctx;
	s->status = SIM_RUNNING;
	s->nprocs = cfg->procs;
	if (cfg->model == MODEL_RUNTIME) /* the seed model follows no release's rules */
		s->rules = release_rules(cfg->go_release ? cfg->go_release : RELEASE_DEFAULT);
	s->pidle = s->midle = s->actor_m = s->netpoll_m = -1;
	s->sudogfree = -1;
	s->gfree = -1;
	for (int d = 0; d <= WORKLOAD_MAX_SIDE; d++)
		s->iterfree[d] = -1;
	s->runq = s->netready = (struct gqueue){ -1, -1, 0 };
	s->lasttrace = s->starttime = -1;
	s->clock_end = c.until_us > 0 && c.until_us < SIM_CLOCK_MAX_US ? c.until_us : SIM_CLOCK_MAX_US;
	s->sysmon_deadline = INT64_MAX;
	s->sum.procs = cfg->procs;
	s->sum.fingerprint = 0xcbf29ce484222325ULL; /* the running hash (sim.c) */
	s->fp_now = -1;
	s->gev = (struct sim_event){ .ev = EV_G }; /* sim.c fills the rest per move */
	rng_init(&s->rng_steal, cfg->seed, RNG_STEAL);
	rng_init(&s->rng_select, cfg->seed, RNG_SELECT);
	if (cfg->slack == SLACK_MEASURED)
		s->sm_level = sysmon_slack_level(cfg->seed);
	sysmon_init_clock(s);
	/* per P: CPU-done, timer and its M's wake-up slots; per CPU (--cpus): its slice end; the load balance;
	 * last, the epoll_wait of the M blocked in netpoll */
	if (evq_init(&s->evq, 3 * s->nprocs + (cpu_on(cfg, s->nprocs) ? 2 * cfg->cpus + 1 : 0) + 1) != 0 || cpu_init(s) != 0)
		goto fail;
	s->allp = calloc((size_t)s->nprocs, sizeof *s->allp);
	s->chans = calloc((size_t)prog->nchans + 1, sizeof *s->chans);
	s->mutexes = calloc((size_t)prog->nmutexes + 1, sizeof *s->mutexes);
	s->wgs = calloc((size_t)prog->nwgs + 1, sizeof *s->wgs);
	s->socks = calloc((size_t)prog->nsockets + 1, sizeof *s->socks);
	s->fn_started = calloc((size_t)prog->nfuncs + 1, sizeof *s->fn_started);
	if (!s->allp || !s->chans || !s->mutexes || !s->wgs || !s->socks || !s->fn_started)
		goto fail;
	for (int32_t ci = 0; ci < prog->nchans; ci++)
		s->chans[ci] = (struct chan){ .cap = prog->chan_cap[ci], .recvq = waitq_empty(), .sendq = waitq_empty() };
	for (int32_t mi = 0; mi < prog->nmutexes; mi++)
		s->mutexes[mi].semaq = waitq_empty();
	for (int32_t wi = 0; wi < prog->nwgs; wi++)
		s->wgs[wi].semaq = waitq_empty();
	for (int32_t si = 0; si < prog->nsockets; si++)
		s->socks[si] = (struct sock){ .reader = -1, .holder = -1, .rsemaq = waitq_empty() };
	init_ps(s);
	if (boot(s) != 0)
		goto fail;
	if (s->cfg.runtime_init == INIT_MEASURED && s->cfg.sysmon == SYSMON_ADAPTIVE) /* a library caller may ask for both */
		sysmon_start_early(s);
	s->sysmon_dirty = 1;
	s->sysmon_next = -1; /* not started: the first step is the boot instant */
	s->never_continue = c.check || s->ncpus != 0;
	return s;
fail:
	snprintf(err->msg, sizeof err->msg, "%s", s && s->msg[0] ? s->msg : "out of memory");
	err->nomem = !s || s->status == SIM_RUNNING || s->status == SIM_NOMEM;
	sim_free(s);
	return NULL;
}

/* handle's rarer kinds, out of line. */
__attribute__((noinline)) static void handle_other(struct sim *s, const struct evq_item *popped)
{
	const struct evq_item e = *popped, *it = &e; /* the handlers may move the queue under it */
	if (it->kind == EVQ_SYSCALL_DONE) {
		sim_act(s, g_m(s, &s->allg[it->id])); /* the M in the syscall */
		exec_syscall_done(s, it->id);
	}
	else if (it->kind == EVQ_NET_READY)
		netpoll_ready(s, it->id, it->gen);
	else if (it->kind == EVQ_MWAKE)
		sim_need_schedule(s, it->id); /* sched_all runs the M's findRunnable */
	else if (it->kind == EVQ_CPU_SLICE)
		cpu_slice_end(s, it->id);
	else if (it->kind == EVQ_CPU_BALANCE)
		cpu_load_balance(s);
	else if (it->kind == EVQ_CPU_BURST)
		cpu_burst_end(s, it->id);
	else if (it->kind == EVQ_NETPOLL_WAKE)
		netpoll_wake(s); /* the runtime model: the blocked M's epoll_wait returns */
	else { /* EVQ_TIMER (--netpoll-wait=exact): an instant at a P's earliest timer; the scheduler runs it */
		netpoll_timer_wake(s); /* findRunnable's pollUntil */
		if (s->cfg.model == MODEL_RUNTIME)
			s->wakep_calls++; /* --netpoll-wait=exact: the M in netpoll(delay) returns and takes an idle P */
		timer_wake(s, it->id);
	}
}

static int continue_instant(struct sim *s, int32_t pi);

/* A timed event, by kind (it is valid until the queue is called: read
 * before); the common one (a CPU segment's end) inline. */
static SIM_HOT void handle(struct sim *s, const struct evq_item *it)
{
	if (it->kind == EVQ_CPU_DONE) {
		sim_act(s, s->allp[it->id].m); /* the M running the P's G */
		exec_cpu_done(s, it->id, it->gen, continue_instant);
	} else {
		handle_other(s, it);
	}
	sim_check(s);
}

/* The run is over: every goroutine has finished. */
__attribute__((noinline)) static void all_done(struct sim *s)
{
	sim_check_full(s); /* --check: the whole state once more at the end */
	if (s->status != SIM_RUNNING)
		return;
	s->status = SIM_DONE;
	s->sum.outcome = OUT_DONE;
}

/* Nothing is left to happen, and goroutines wait in the poller (a socket
 * read that no write will end: a net read always has its data's arrival
 * coming). The runtime reports no deadlock here: the M that dropped the
 * last P blocks in netpoll (findRunnable: netpollinited, netpollWaiters >
 * 0), and checkdead counts it as running (mcount - nmidle - nmidlelocked
 * - nmsys > 0): a real program whose main waits there waits forever, one
 * whose main returned has exited (exit). The run ends here with
 * outcome hang and gosim's own message, not Go's. */
static void hang(struct sim *s)
{
	char head[320];
	snprintf(head, sizeof head,
		 "gosim: the program hangs: %lld goroutine%s in the network poller for data that no goroutine will "
		 "write, and nothing else can happen (Go reports no deadlock here: its thread blocked in netpoll "
		 "counts as running)\n",
		 (long long)s->netpoll_waiters, s->netpoll_waiters == 1 ? " waits" : "s wait");
	size_t n = strlen(head);
	head[n - 1] = 0;
	sim_die(s, OUT_HANG, head);
	head[n - 1] = '\n';
	s->report = sim_goroutines_text(s, head);
}

/* Nothing is left to happen: no timed event, nothing runnable.
 * Simplification: the runtime's checkdead runs as Ms go idle; here a
 * deadlock is declared when nothing is left to happen and goroutines
 * still wait. */
__attribute__((noinline)) static void nothing_left(struct sim *s)
{
	if (s->ntimers > 0 && timer_any_due(s)) { /* every P would have run it */
		sim_broken(s, "a timer is due but no P runs it");
		return;
	}
	sim_check_full(s);
	if (s->status != SIM_RUNNING)
		return;
	if (s->netpoll_waiters > 0) {
		hang(s);
		return;
	}
	/* checkdead: no timer can ready anyone either (stale ones are gone) */
	sim_die(s, OUT_DEADLOCK, "fatal error: all goroutines are asleep - deadlock!");
	s->report = sim_deadlock_text(s); /* NULL: the one line above */
}

static SIM_HOT void finish_instant(struct sim *s)
{
	if (s->status != SIM_RUNNING)
		return;
	if (s->nlive == 0) {
		all_done(s);
		return;
	}
	s->sysmon_next = sysmon_next_wake(s);
	if (evq_empty(&s->evq) && !sim_any_queued(s) && s->runq.size == 0)
		nothing_left(s);
}

/* --until: the clock stops at until_us, before the next instant (past
 * it) runs. CPU segments in progress count as busy up to then, and the
 * run's span is until_us. */
static void stop_at_until(struct sim *s)
{
	sim_check_full(s); /* --check: the state as it stops */
	if (s->status != SIM_RUNNING)
		return;
	int64_t until = s->cfg.until_us;
	for (int32_t pi = 0; pi < s->nprocs; pi++) {
		struct p *pp = &s->allp[pi];
		if (pp->seg_end > pp->seg_start && pp->seg_start < until) {
			pp->busy_us += until - pp->seg_start;
			pp->seg_start = until;
		}
	}
	s->now = until;
	s->sum.makespan_us = until;
	s->status = SIM_UNTIL;
	s->sum.outcome = OUT_UNTIL;
}

/* The run stops before the instant at t, past s->clock_end: nothing is
 * left to happen, or --until, or the clock's end. Returns -1. */
__attribute__((noinline)) static int run_ends(struct sim *s, int64_t t)
{
	if (t == INT64_MAX) {
		sim_broken(s, "nothing left to happen but %lld goroutines live", (long long)s->nlive);
		return -1;
	}
	if (s->cfg.until_us > 0 && t > s->cfg.until_us) {
		stop_at_until(s);
		return -1;
	}
	sim_limit(s, "ran", SIM_CLOCK_MAX_US, "us of simulated time"); /* waits in a long loop: the clock's end */
	return -1;
}

/* The clock to the next instant: sysmon's next pass or the first timed
 * event, whichever is earlier (the boot instant is at 0). Returns 0, or
 * -1 when the run stops before it (run_ends: one test for its three
 * reasons, as INT64_MAX, "none", is past every clock_end). */
static SIM_HOT int next_instant(struct sim *s)
{
	if (s->sysmon_next < 0)
		return 0;
	int64_t t = s->sysmon_next;
	if (!evq_empty(&s->evq) && evq_top_time(&s->evq) < t)
		t = evq_top_time(&s->evq);
	if (t > s->clock_end)
		return run_ends(s, t);
	s->now = t;
	return 0;
}

/* The instant's timed events, in (t, seq) order, until none is left at
 * now (a handler may add one). */
static SIM_HOT void run_events(struct sim *s)
{
	const struct evq_item *it;
	while (s->status == SIM_RUNNING && (it = evq_pop_at(&s->evq, s->now)) != NULL)
		handle(s, it);
}

/* The rest of the instant: the scheduler, a sysmon pass if one falls now
 * (and the scheduler again), the CPUs' balance, the end checks. */
static SIM_HOT void end_instant(struct sim *s)
{
	sched_all(s);
	if (s->status == SIM_RUNNING && s->now > 0 && sysmon_runs_now(s)) {
		sysmon_pass(s);
		sim_check(s);
		sched_all(s);
	}
	while (cpu_balance(s)) /* Ms given a CPU with no G schedule now */
		sched_all(s);
	sim_check(s);
	finish_instant(s);
}

/* A CPU-done event's handler (exec_cpu_done, called by handle) has
 * started P pi's next CPU segment, and asks whether the event loop's
 * next steps are known to do nothing but reach that segment's end: no
 * other event at this instant (the segment's event is the queue's root,
 * after now); an end of the instant with nothing to do (sched_nothing;
 * no sysmon pass now and its next wake its clock's next pass, the inline
 * cases of sysmon_runs_now and sysmon_next_wake; no CPUs to balance; no
 * --check, which would look after handle and at the instant's end; a G
 * alive: the P's); the next instant, within clock_end, the segment's
 * end, not after sysmon's next pass, with that event first. Then it
 * takes them as step and handle would (sched_all's reset of
 * wakep_calls, sysmon's next wake, the clock, the event's pop, handle's
 * acting M) and returns 1: the handler handles that event in place, in
 * the same loop (exec.c's next_segment_done), where the event loop would
 * return to it. The instants are the same, in the same order, with the
 * same tests; what goes is the calls and returns between them (in a
 * fan-out, main's go statements, one instant each: about a fifth of the
 * instructions). 0, with nothing done, otherwise: the handler returns.
 *
 * What it does not test, because it cannot be otherwise here: that the
 * root is P pi's CPU-done event of this segment (kind and gen) and not
 * held. seg_end is set after now only by exec.c's segment(), which then
 * schedules slot pi's event (slot pi holds P pi's CPU-done events only)
 * with the segment's gen; the queue holds nothing popped after a
 * schedule, and nothing in a handler pops; a cut segment's gen moves with
 * seg_end back to now. --check and --cpus are one byte set once
 * (never_continue). */
static int continue_instant(struct sim *s, int32_t pi)
{
	const struct evq_item *top = &s->evq.a[0];
	if (s->allp[pi].seg_end <= s->now)
		return 0; /* first, the likeliest to fail: no segment started (the G left its M) */
	if (s->evq.pos[pi] != 0 || top->t > s->clock_end || s->status != SIM_RUNNING || s->never_continue)
		return 0; /* the root: P pi's segment, whose end is after now (a segment takes 1us at least) */
	if (s->now == s->sysmon_next || !s->sysmon_dirty || s->sm_next <= s->now || top->t > s->sm_next ||
	    !sched_nothing(s))
		return 0; /* at now 0 end_instant asks sysmon nothing: the test is stricter, which is safe */
	s->wakep_calls = 0;          /* end_instant: sched_all */
	s->sysmon_next = s->sm_next; /* finish_instant: sysmon_next_wake */
	s->now = top->t;             /* step: next_instant */
	s->evq.held = 1;             /* run_events: evq_pop_at */
	sim_act(s, s->allp[pi].m);   /* handle */
	return 1;
}

static SIM_HOT enum sim_status step(struct sim *s)
{
	if (s->status != SIM_RUNNING || next_instant(s) != 0)
		return s->status;
	run_events(s);
	end_instant(s);
	return s->status;
}

enum sim_status sim_step(struct sim *s) { return step(s); }

enum sim_status sim_steps(struct sim *s, int64_t n)
{
	while (n-- > 0 && step(s) == SIM_RUNNING)
		;
	return s->status;
}

enum sim_status sim_run(struct sim *s) { return sim_steps(s, INT64_MAX); }

void sim_summary(const struct sim *s, struct sim_summary *out)
{
	*out = s->sum;
	out->sysmon_sleeps = sysmon_sleeps_by(s, s->sum.makespan_us) - s->sm_n0;
	out->fingerprint = sim_fp_final(s->sum.fingerprint, s->sum.events);
	for (int32_t pi = 0; pi < s->nprocs; pi++)
		out->busy_us[pi] = s->allp[pi].busy_us;
}

const char *sim_message(const struct sim *s) { return s->report ? s->report : s->msg; }
int64_t sim_now(const struct sim *s) { return s->now; }
int64_t sim_live(const struct sim *s) { return s->nlive; }

void sim_free(struct sim *s)
{
	if (!s)
		return;
	sim_big_free(s->allg, (size_t)s->gcap * sizeof *s->allg);
	sim_big_free(s->iterpool, (size_t)s->itercap * sizeof *s->iterpool);
	free(s->allm);
	timers_free(s);
	cpu_free(s);
	free(s->allp);
	free(s->chans);
	free(s->mutexes);
	free(s->wgs);
	free(s->socks);
	free(s->fn_started);
	sim_big_free(s->sudogs, (size_t)s->sudogcap * sizeof *s->sudogs);
	free(s->scratch);
	free(s->report);
	evq_free(&s->evq);
	free(s);
}

