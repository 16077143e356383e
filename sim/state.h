/* state.h: the model's state, shared by the sim/ modules (and read, never
 * written, by trace/schedtrace.c and the tests).
 *
 * G, M and P mirror runtime2.go's g, m and p; struct sim plays schedt
 * (`sched`) plus allp, allm and allgs. Links are int32 indices, not
 * pointers, so arrays can grow; -1 means none. A G's goid is its own field
 * (slots of dead Gs are reused; goids are not).
 *
 * Invariants (checked by check.c):
 * - every G is in exactly one place: a P's runnext or ring, the global
 *   queue, waiting (parked: its sudogs are in wait queues), an M's curg
 *   (running or in a syscall), or nowhere (dead);
 * - every sudog in a wait queue belongs to a waiting G's g.waiting list,
 *   and every sudog on such a list is in the queue it names;
 * - a P is idle (on the pidle stack, no M, empty queues), running (owned by
 *   an M) or in a syscall (no M; the M that entered the syscall is p.sysm);
 * - an M is idle (on the midle stack), running or spinning (with a P), in a
 *   syscall (with its G, without a P), or sysmon;
 * - a running P whose M has no G is in the needs-schedule set;
 * - a P is in timerp exactly when its timer heap is not empty, in busyp
 *   exactly when it is not idle, and in runqp exactly when its runnext or
 *   ring holds a G; an idle P has no syscall M;
 * - nmspinning is the number of Ms in MS_SPINNING.
 */
#ifndef GOSIM_STATE_H
#define GOSIM_STATE_H

#include <stdint.h>

#include "evq.h"
#include "release.h"
#include "rng.h"
#include "sim.h"
#include "workload.h"

/* The Gs an incremental check (check.c) can look at one by one: a spill,
 * steal or global batch moves at most RUNQ_HALF + 1. */
#define CHECK_LOG 1024

/* A function on the hot path inlined into its callers whatever the
 * compiler's size limits: each call layer between the scheduler and the
 * interpreter costs about 20 instructions (register saves, argument moves),
 * several per event (callgrind, docs/performance.md). */
#define SIM_HOT inline __attribute__((always_inline))

/* runtime2.go _G* values, printed by scheddetail. */
enum gstatus { G_IDLE = 0, G_RUNNABLE = 1, G_RUNNING = 2, G_SYSCALL = 3, G_WAITING = 4, G_DEAD = 6 };
/* runtime2.go _P* values (1.19: a P in a syscall is _Psyscall). */
enum pstatus { P_IDLE = 0, P_RUNNING = 1, P_SYSCALL = 2 };
/* g.param when nothing woke the G (goready's g.param is otherwise what
 * the waker passed: PARAM_OK or PARAM_CLOSED for a channel op). */
#define PARAM_NONE (-1)
#define PARAM_CLOSED 0
#define PARAM_OK 1

/* A goroutine. Small on purpose (40 bytes, asserted below: a program may
 * hold millions): what only one state needs shares a field, small fields
 * are whole bytes. A dead G's slot is reused by the next G started
 * (gfput/gfget, proc.go), so memory follows the Gs alive at once; its goid
 * is never reused (goidgen).
 *
 * What a field means depends on the G's place:
 * - schedlink: in the global queue, the next G there (-1: the tail); dead,
 *   the next free slot (s->gfree); in IO wait, the next G on the poller's
 *   ready list; waiting otherwise, its first sudog (g.waiting, g_waiting);
 *   in a syscall, its M (g.m: g_m); -1 otherwise (new, queued locally,
 *   running).
 * - g.m is not stored: running, it is its P's M (p.m; the runtime keeps
 *   both, always equal while the G runs); in a syscall, schedlink; none
 *   otherwise (g_m).
 * - p: the P whose runnext or ring holds it, or that runs it; -1 otherwise.
 * - u: left while in a run/loop/syscall op, since in a Lock.
 * - iters: a function with no side block (func.side 0: at most one level
 *   of repeat, no ordinal, no random duration) keeps its repeat counter
 *   here; any other keeps the index of its block of func.side words in
 *   s->iterpool: the repeat counters by depth, then, if it names a socket
 *   "NAME[#]", its ordinal among the Gs started running the function
 *   (0-based; sim_newg; exec.c's op_read_at adds it to the array's first
 *   socket), then, if it draws random
 *   durations, the count of its draws (g_draws). */
struct g {
	int32_t schedlink; /* see above */
	int16_t p;         /* P whose queue holds it, or that runs it (-1..MAX_PROCS-1) */
	uint8_t place;     /* enum sim_place; its status follows (g_status) */
	uint8_t waitreason; /* enum sim_waitreason, while waiting */
	int16_t param;     /* what woke it (g.param), PARAM_NONE until then */
	uint8_t preempt;   /* gp.preempt: a request not yet honoured */
	uint8_t lockslow;  /* in Lock: lockSlow's starving, awoke and spin count (sema.c) */
	uint32_t fn;       /* function index in the program */
	uint32_t pc;       /* current op; a parked G stays on the op it blocked in */
	uint32_t parkgen;  /* counts its parks, kept across slot reuse: a timer set for an older park is stale */
	int32_t goid;      /* goid: 1, 2, ... in the order started, never reused (goidgen) */
	int32_t iters;     /* repeat counter (counts fit: WORKLOAD_MAX_COUNT), or its side
			      block in s->iterpool (see above) */
	union {
		int64_t left;  /* in a run/loop/syscall op: us left of it; 0: not started */
		int64_t since; /* in Lock (running its op or parked in it): lockSlow's
				  waitStartTime + 1, 0 if none; 0 again once it holds the lock */
	} u;
};
_Static_assert(MAX_PROCS <= 256 && PL__N <= 256 && WR__N <= 256 && 2 * WORKLOAD_MAX_CASES < INT16_MAX &&
		       WORKLOAD_MAX_COUNT <= INT32_MAX,
	       "struct g's small fields hold every value (param: PARAM_NONE or 2 * case + closed)");
_Static_assert(sizeof(struct g) <= 40, "struct g grows only on purpose: a cost paid per goroutine");

/* G gp's first sudog while it waits (g.waiting): none in IO wait, whose
 * schedlink is the poller's ready list. */
static inline int32_t g_waiting(const struct g *gp) { return gp->waitreason == WR_IO_WAIT ? -1 : gp->schedlink; }

/* runtime2.go's g.atomicstatus, which follows from where the G is. */
static inline int g_status(const struct g *gp)
{
	static const uint8_t by_place[PL__N] = { [PL_NEW] = G_IDLE, [PL_RUNNEXT] = G_RUNNABLE,
						 [PL_LOCAL] = G_RUNNABLE, [PL_GLOBAL] = G_RUNNABLE,
						 [PL_RUNNING] = G_RUNNING, [PL_SYSCALL] = G_SYSCALL,
						 [PL_WAITING] = G_WAITING, [PL_DEAD] = G_DEAD };
	return by_place[gp->place];
}

/* One G's place in one wait queue (runtime2.go's sudog): a G blocked in a
 * channel op has one, a blocked select one per channel case. Sudogs live
 * in s->sudogs and are recycled through a free list. */
struct sudog {
	int32_t g;
	int32_t next, prev; /* in the wait queue */
	int32_t waitlink;   /* the G's next sudog (g.waiting) */
	int32_t obj;        /* the object waited on (channel index, ...) */
	int16_t icase;      /* a select's case index, -1 outside select */
	uint8_t kind;       /* enum wait_kind: which queue of the object */
	uint8_t pad;
};

/* A FIFO of waiters (runtime/chan.go's waitq): a channel queue's first
 * waiter, when it is a plain channel op's G that found the queue empty,
 * waits inline (g1, no sudog: park.h), ahead of the sudogs first .. last;
 * any other waiter has a sudog. size counts both. */
struct waitq {
	int32_t first, last;
	int32_t g1;   /* the G waiting inline at the head, -1: none */
	int64_t size;
};

struct m {
	int32_t p;        /* attached P (m.p) */
	int32_t curg;     /* m.curg */
	int32_t oldp;     /* P held when the syscall began (m.oldp) */
	int32_t schedlink;/* next on the midle stack */
	uint32_t syscalltick;
	uint8_t state;    /* enum sim_mstate, or MS__N for sysmon */
	int64_t wake_at;  /* the runtime model: a spinning M sleeps (thread wake-up,
			     usleep) until then; its P waits for it */
	uint8_t cpu;      /* --cpus: enum sim_cpustate (sim.h, cpu.h): wants no CPU, waits for one, runs on one */
	int32_t cpulink;  /* next in the CPU run queue */
	int32_t cpuhome;  /* --cpu-place other than shared: the CPU it last ran on, or whose queue it waits in (-1: none yet) */
	int64_t cpuleft;  /* per-CPU queues: when it last left a CPU (task_hot counts from it) */
	int32_t cpuwaker; /* linux: 1 + the CPU its waker ran on (notewakeup), for its next wake-up's wake_affine; 0: none */
	/* Linux EEVDF's per-thread state (cpu.h), in us of CPU time (weight NICE_0_LOAD) */
	int64_t cpuv;     /* se->vruntime */
	int64_t cpud;     /* se->deadline, a virtual time */
	int64_t cpulag;   /* se->vlag: the lag kept when it stopped wanting a CPU */
	uint8_t cpuplaced;/* it has wanted a CPU before (0: a new thread, ENQUEUE_INITIAL) */
	/* --cpus: the thread's own CPU work (cpu.h's bursts: sysmon's sleeps,
	 * futex and syscall paths): ns still owed, and the burst running on
	 * its CPU (bursting) since burst_start; burstlink: next in
	 * s->burst_head's list of Ms given work since the last cpu_balance */
	int64_t burst_ns, burst_start;
	int32_t burstlink;
	uint8_t bursting, burst_listed;
};
#define MS_SYSMON MS__N

/* sysmon's last observation of a P: type sysmontick, proc.go. */
struct sysmontick {
	uint32_t schedtick;
	uint32_t syscalltick;
	int64_t schedwhen;
	int64_t syscallwhen;
};

/* One timer in a P's heap: G g is woken at `when` with g.param = param,
 * if it is still in the park numbered gen. */
struct timer {
	int64_t when;
	uint64_t seq;  /* ties fire in the order added */
	int32_t g;
	uint32_t gen;
	int32_t param;
	int32_t tick;  /* the ticker it fires (s->tickers), -1: a sleep's or a select's */
};

/* A P's timers (p.timers): a binary min-heap on (when, seq). */
struct timers {
	struct timer *heap;
	int32_t len, cap;
};

struct p {
	uint8_t status;    /* enum pstatus */
	int32_t m;         /* owning M (p.m), -1 */
	int32_t sysm;      /* the M whose syscall holds this P (status P_SYSCALL) */
	int32_t link;      /* next on the pidle stack */
	int32_t runnext;
	int64_t runnext_when; /* when runnext was last set (the runtime model's back-off) */
	uint32_t runqhead, runqtail;
	int32_t runq[RUNQ_SIZE];
	uint32_t schedtick, syscalltick;
	struct sysmontick pd;
	int64_t slice_start; /* when schedtick last changed */
	int64_t seg_start;   /* the running G's CPU segment: start, end */
	int64_t seg_end;
	uint64_t seg_gen;    /* the segment's number, checked by its completion event */
	int64_t busy_us;
	/* the runtime model's operation costs (exec.c): what the P owes in ns
	 * (charged in whole us as CPU segments of their own), the cost
	 * segment in flight (in_cost; cost_left_us while it is cut short), and
	 * the op (G, pc) whose cost is already in the debt */
	int64_t cost_debt_ns, cost_left_us;
	int32_t cost_paid_g;
	uint32_t cost_paid_pc;
	uint8_t in_cost;
	struct timers timers;
	/* The runtime model: this P's M, a thief, is in runqgrab's usleep(3)
	 * before taking G backoff_g from P backoff_p's runnext (put there at
	 * backoff_set, that P's runnext_when), until backoff_until; -1: not. */
	int32_t backoff_g, backoff_p;
	int64_t backoff_set, backoff_until;
};

struct gqueue {
	int32_t head, tail;
	int64_t size;
};

struct chan {
	int64_t cap;
	int64_t count;      /* values buffered */
	int closed;
	struct waitq recvq; /* Gs parked in recv, FIFO */
	struct waitq sendq; /* Gs parked in send, FIFO */
};

/* A sync.Mutex: its state word's bits and waiter count, and its semaphore
 * queue (sema.h). */
struct mutex {
	uint8_t locked, woken, starving;
	int64_t waiters;
	struct waitq semaq;
};

/* A sync.WaitGroup: its counter, the Gs in Wait, and their semaphore
 * queue (sema.h). */
struct waitgroup {
	int64_t counter;
	int64_t waiters;
	struct waitq semaq;
};

/* A connected socket's receive side (socket.h): the writes not yet read,
 * the G parked in the poller for data (pollDesc.rg), the G holding the
 * read lock (fdMutex), and the Gs waiting for it (its rsema). */
struct sock {
	int64_t data;
	int32_t reader, holder;
	struct waitq rsemaq;
};

struct sim {
	struct sim_config cfg;
	int costs;       /* any operation cost (cfg.cost_*_ns) is nonzero */
	int64_t op_cost_ns[OP__N]; /* each op kind's cost (exec.c), 0 without costs */
	const struct program *prog;
	struct sim_sink sink;
	enum sim_status status;
	char msg[512];
	char *report;    /* a death's whole text (the deadlock's goroutines), or NULL: msg says it */

	int64_t now;
	int64_t clock_end;      /* the last instant the run may reach: cfg.until_us or SIM_CLOCK_MAX_US, the earlier (driver.c) */
	uint8_t never_continue; /* --check or --cpus: driver.c's continue_instant never continues (set once) */
	struct evq evq;

	struct p *allp;
	int nprocs;
	int32_t pidle;   /* idle P stack (sched.pidle) */
	int npidle;

	struct m *allm;
	int32_t nm, mcap; /* mcount() = nm: Ms are never freed */
	int32_t midle;   /* idle M stack (sched.midle) */
	int nmidle;
	int nmspinning;  /* sched.nmspinning: Ms in MS_SPINNING */
	uint8_t needspinning; /* sched.needspinning (the runtime model, Go 1.20+: release.h) */
	uint32_t rules;  /* the runtime model: the release rules in force (release.h), 0 in the seed model */
	int32_t wakep_calls; /* the runtime model: wakep() calls this instant, made by sched_all (wake_idle_p) */
	int32_t sysmon_m;
	/* Ps that may need schedule() (sched.c's schedule_busy_ps): every P
	 * running with an M that has no G is in it (check.c), plus Ps
	 * whose M is asleep or off CPU, kept until it runs. */
	uint64_t needsched[(MAX_PROCS + 63) / 64];
	/* timerpMask (proc.go): the Ps whose timer heap is not empty
	 * (p.timers.len > 0), kept by timer.c, so that stealWork and
	 * timer_any_due visit only those */
	uint64_t timerp[(MAX_PROCS + 63) / 64];
	/* the Ps not idle (running or in a syscall: p.status != _Pidle), kept
	 * by p_set_status: what sysmon's retake and deadline visit */
	uint64_t busyp[(MAX_PROCS + 63) / 64];
	/* the Ps with a G in runnext or the ring, kept by runq.c: the victims
	 * stealWork can take a G from */
	uint64_t runqp[(MAX_PROCS + 63) / 64];
	int32_t actor_m; /* the M whose code runs now: every event's by_m (set where
			    control passes to a thread: sim_act) */

	struct g *allg;
	int32_t ng, gcap; /* slots used (live and dead), allocated */
	int32_t gfree;    /* dead Gs' slots, linked through schedlink (sched.gFree) */
	/* side blocks of Gs whose function has one (func.side, g.iters): a
	 * free list per block size, linked through a block's first word */
	int32_t *iterpool;
	int64_t iterlen, itercap;
	int32_t iterfree[WORKLOAD_MAX_SIDE + 1];
	int64_t nlive;   /* Gs not dead */
	struct gqueue runq; /* global run queue (sched.runq) */

	struct chan *chans;
	struct mutex *mutexes;
	struct waitgroup *wgs;
	struct sock *socks;
	int32_t *fn_started;  /* per function of prog: the goroutines started running it (ordinals, "NAME[#]") */
	int64_t ntimers;      /* entries in all P's timer heaps */
	/* the network poller (netpoll.h) */
	struct gqueue netready; /* Gs whose data arrived, not yet returned by a netpoll */
	int64_t netpoll_waiters; /* Gs parked in net (netpollWaiters) */
	int64_t lastpoll;        /* sched.lastpoll while no M is blocked in netpoll */
	uint8_t netpoll_inited, netpoll_blocked;
	/* the runtime model, while an M is blocked in netpoll: its
	 * sched.pollUntil (the earliest timer when it blocked; INT64_MAX: none,
	 * it waits for data alone) and when its epoll_wait returns (timed out,
	 * netpoll_wait_end, or woken by netpollBreak) */
	int64_t netpoll_until, netpoll_wake_at;
	/* the runtime model: the M blocked in netpoll, a thread of its own (not
	 * on the midle stack, not counted in nmidle: schedtrace's idlethreads);
	 * -1 when none is, and in the seed model, whose blocked M stays idle */
	int32_t netpoll_m;
	uint64_t timerseq;
	/* time.Tickers (timer.h): a pool with a free list (through next), found
	 * by goid in a chained hash (tickhash: heads, -1 empty) */
	struct ticker { int64_t when, period; int32_t goid, next; } *tickers;
	int32_t *tickhash;
	int32_t ntickers, tickcap;  /* slots made, allocated */
	int32_t tickfree;           /* first free slot + 1, 0: none */
	int32_t tickbuckets, nlivetickers;
	struct sudog *sudogs;
	int32_t nsudog, sudogcap, sudogfree; /* sudogfree: free list through next */
	int64_t sudogs_used;

	/* --cpus below procs (cpu.h); ncpus 0: a CPU per P, the mechanism off */
	/* a run queue (--cpu-place=shared: the one; last: a CPU's); vzero: its
	 * average vruntime when last non-empty (cfs_rq->zero_vruntime) */
	struct cpuq { int32_t head, tail, n; int64_t vzero; } cpuq;
	/* a CPU: its occupant M, since when the occupant's vruntime is counted,
	 * the instant its slice event is armed for (0: none) */
	struct cpu { int32_t m; int64_t since, armed_at; struct cpuq q; /* its own queue (not shared) */
		int32_t balance_failed; /* linux, prev: sd->nr_balance_failed (periodic balances that moved nothing) */
		int64_t last_balance;   /* linux, prev: when it last balanced at a tick as a busy CPU */
		uint8_t idle;           /* linux, prev: idle (free, nobody waiting) at the last cpu_balance */
	} *cpus;
	int32_t ncpus, nwaiting; /* nwaiting: Ms waiting, in every queue */
	int32_t burst_head, burst_tail; /* Ms given CPU work of their own since the last cpu_balance, in order (cpu.h), -1: none */
	int64_t cpu_slice_us, cpu_migration_cost_us;
	int cpu_last;           /* --cpu-place=last */
	int cpu_percpu;         /* a run queue per CPU: every --cpu-place but shared */
	int cpu_tick;           /* linux, prev: this instant is a scheduler tick (periodic load balance) */
	int64_t balance_at;     /* per-CPU queues: when the pending balance event fires (0: none) */

	struct rng rng_steal;
	struct rng rng_select; /* selectgo's pollorder */
	uint32_t coprimes[MAX_PROCS]; /* randomOrder.coprimes for nprocs */
	uint32_t coprime_inv[MAX_PROCS]; /* each one's inverse mod nprocs (sched.c's steal order) */
	int ncoprimes;

	/* sysmon */
	int sysmon_dirty;      /* something it observes changed since its last pass */
	int64_t sysmon_deadline; /* earliest time a pass could act, from the last pass */
	int64_t sysmon_next;   /* next pass to run */
	int64_t sm_t;          /* time of its last pass, run or skipped (sysmon's clock) */
	int64_t sm_delay;      /* the sleep that led to it */
	int64_t sm_idle;       /* passes since one retook a P from a syscall */
	int64_t sm_n;          /* sleeps before that pass (the overshoot draw's index) */
	int64_t sm_level;      /* --sysmon-slack=measured: this run's level (sysmon_slack.h) */
	int64_t sm_n0;         /* --runtime-init=measured: its sleeps before the workload began */
	int64_t sm_next;       /* its next pass by that clock (sysmon.c's peek_next), kept with it */
	/* sysmon_next_wake's last walk ahead of that clock: the clock it
	 * started from (from_*), the clock at its last idle pass before
	 * target, and the pass after it (next) */
	struct sysmon_memo {
		int64_t from_t, from_delay, from_idle, from_n;
		int64_t t, delay, idle, n, target, next;
	} sm_memo;
	int64_t lasttrace;     /* -1: schedtrace not started */
	int64_t starttime;

	/* --explain: rules waiting for the next record of their kind */
	struct { uint8_t ev, rule; int32_t n; } rule_pending[2];

	/* accounting */
	struct sim_summary sum;
	int64_t fp_now;        /* the instant whose clock word the fingerprint last folded (sim.c) */
	/* the last G move's record for the sink, built in place (sim.c): the
	 * fields a G record does not use stay 0 */
	struct sim_event gev;
	uint64_t ops;          /* backward jumps in the ops (loop rounds), for sim_poll between events */
	int64_t steps;         /* ops executed as program_totals counts them (no END ops) */
	uint8_t *scratch;      /* check.c's per-G marks */
	int64_t scratch_cap;
	/* check.c, incremental: the Gs moved since the last check (more than
	 * CHECK_LOG: the next check is a full walk), and the checks since the
	 * last full walk */
	int32_t touched[CHECK_LOG];
	int32_t ntouched;
	int64_t checks_since_full;
};

/* G gi's goid (-1 for none). */
static inline int32_t goid(const struct sim *s, int32_t gi) { return gi < 0 ? -1 : s->allg[gi].goid; }
/* G gp's M (g.m): its P's M while it runs, the M it entered its syscall
 * on (kept in schedlink) while in one, none otherwise. */
static inline int32_t g_m(const struct sim *s, const struct g *gp)
{
	return gp->place == PL_RUNNING ? s->allp[gp->p].m : gp->place == PL_SYSCALL ? gp->schedlink : -1;
}
/* g_m of a G known to be running. */
static inline int32_t g_running_m(const struct sim *s, const struct g *gp) { return s->allp[gp->p].m; }
/* G gi's repeat counter at nesting depth d (valid until the next G is
 * started: the pool may move). */
static inline int32_t *g_iter(struct sim *s, int32_t gi, int d)
{
	struct g *gp = &s->allg[gi];
	return s->prog->funcs[gp->fn].side ? &s->iterpool[gp->iters + d] : &gp->iters;
}
/* G gi's count of random durations drawn so far, which numbers its next
 * draw in its own stream (valid as g_iter's): the last word of its side
 * block, which a function that draws always has. */
static inline uint32_t *g_draws(struct sim *s, int32_t gi)
{
	struct g *gp = &s->allg[gi];
	return (uint32_t *)&s->iterpool[gp->iters + s->prog->funcs[gp->fn].side - 1];
}
/* sched.nmspinning as handoffp and sysmon's retake read it. The seed model
 * reads 0, as it always has (Simplification: a spinning M that handoffp
 * started is not counted by the next retake in the same sysmon pass). */
static inline int sim_nmspinning(const struct sim *s) { return s->cfg.model == MODEL_RUNTIME ? s->nmspinning : 0; }

/* Whether the run follows release rule r (enum release_rule): the
 * runtime model at --go's release. */
static inline int sim_release_rule(const struct sim *s, int r) { return (int)(s->rules >> r) & 1; }
/* A set of Ps as a bitmap (needsched, timerp): add, remove, and the first
 * P at or after `from`, or -1 (the Ps in id order, in O(n/64 + found)). */
static inline void pmask_add(uint64_t *mask, int32_t pi) { mask[pi >> 6] |= 1ULL << (pi & 63); }
static inline void pmask_del(uint64_t *mask, int32_t pi) { mask[pi >> 6] &= ~(1ULL << (pi & 63)); }
static inline int pmask_has(const uint64_t *mask, int32_t pi) { return (int)(mask[pi >> 6] >> (pi & 63) & 1); }
static inline int32_t pmask_next(const uint64_t *mask, int32_t n, int32_t from)
{
	int32_t w = from >> 6, nw = (n + 63) >> 6;
	if (w >= nw)
		return -1;
	uint64_t bits = mask[w] & (~0ULL << (from & 63));
	while (bits == 0) {
		if (++w >= nw)
			return -1;
		bits = mask[w];
	}
	return w * 64 + __builtin_ctzll(bits);
}
/* Whether any P's runnext or ring holds a G: runqp is not empty (no
 * count of queued Gs is kept: only this test needs one, and runqp already
 * says it, at no cost per move). */
static inline int sim_any_queued(const struct sim *s)
{
	_Static_assert(sizeof s->runqp == 4 * sizeof s->runqp[0], "runqp is four words (MAX_PROCS 256)");
	return (s->runqp[0] | s->runqp[1] | s->runqp[2] | s->runqp[3]) != 0;
}
/* P pi's status becomes st (enum pstatus), busyp with it. */
static inline void p_set_status(struct sim *s, int32_t pi, int st)
{
	s->allp[pi].status = (uint8_t)st;
	if (st == P_IDLE)
		pmask_del(s->busyp, pi);
	else
		pmask_add(s->busyp, pi);
}
/* P pi (-1: none) may need schedule(): its M lost its G, or it was just
 * acquired. */
static inline void sim_need_schedule(struct sim *s, int32_t pi)
{
	if (pi >= 0)
		pmask_add(s->needsched, pi);
}
/* dropg: M mi leaves its G (m.curg = nil); its P, if any, must schedule. */
static inline void sim_dropg(struct sim *s, int32_t mi)
{
	s->allm[mi].curg = -1;
	sim_need_schedule(s, s->allm[mi].p);
}

/* sim.c: trace emission and small shared helpers. */
/* Counts record e, folds it into the fingerprint and, if the sink takes
 * records, completes it (t, seq, by_m, by_p, rule) and hands it over;
 * -1 if the sink stopped the run. */
int sim_emit(struct sim *s, struct sim_event *e);
/* The fingerprint sim_summary reports, from the running hash h (sim.c). */
uint64_t sim_fp_final(uint64_t h, int64_t events);
void sim_emit_m(struct sim *s, int32_t mi, int from, int to);
/* EV_CPU: M mi's CPU state changed (cpu.c emits only waits' starts and ends). */
void sim_emit_cpu(struct sim *s, int32_t mi, int from, int to);
void sim_emit_p(struct sim *s, int32_t pi, int from, int to);
/* EV_STEAL: P pi's M took n Gs from P victim (runnext: its runnext);
 * rule is the --explain rule the record carries (RULE_NONE: a pending
 * one, sim_rule's). */
void sim_emit_steal(struct sim *s, int32_t pi, int32_t victim, int32_t n, int runnext, int rule);
/* resetspinning (sim.c) for M mi, known to be spinning. */
void sim_resetspinning_m(struct sim *s, int32_t mi);
/* resetspinning: a spinning M found work and runs (sim.c); nothing for
 * an M that is not spinning, or none (-1: a P without an M, only in
 * tests' hand-built states). Inline: execute calls it on every switch. */
static inline void sim_resetspinning(struct sim *s, int32_t mi)
{
	if (mi >= 0 && s->allm[mi].state == MS_SPINNING)
		sim_resetspinning_m(s, mi);
}
/* The M mi (-1: none) runs from here on: the events that follow carry it
 * and its P as by_m and by_p. */
static inline void sim_act(struct sim *s, int32_t mi) { s->actor_m = mi; }
/* --explain (a no-op without it): the next record of kind ev gets rule
 * (enum sim_rule) and its number n. Two kinds can wait at once (a handoff
 * and its P record); sim_rule_done drops what the decision did not emit. */
static inline void sim_rule(struct sim *s, int ev, int rule, int32_t n)
{
	if (!s->cfg.explain)
		return;
	int i = s->rule_pending[0].rule && s->rule_pending[0].ev != ev;
	s->rule_pending[i].ev = (uint8_t)ev;
	s->rule_pending[i].rule = (uint8_t)rule;
	s->rule_pending[i].n = n;
}
static inline void sim_rule_done(struct sim *s) { s->rule_pending[0].rule = s->rule_pending[1].rule = 0; }
/* The simulated program dies (SIM_DIED) with the runtime's text; outcome
 * says how (OUT_DEADLOCK, OUT_THREAD_LIMIT). */
void sim_die(struct sim *s, int outcome, const char *msg);
void sim_broken(struct sim *s, const char *fmt, ...);
/* G gi kills the program as a Go panic or fatal error does: kind is
 * "panic" or "fatal error", what the runtime's text; the message goes on
 * with the goroutine's header and function, as the runtime's traceback
 * (Simplification: no file:line). Outcome OUT_PANIC (exit 3). */
void sim_crash(struct sim *s, int32_t gi, const char *kind, const char *what);
/* deadlock.c: the runtime's text for a deadlock, with every live goroutine
 * (capped); malloc'd, NULL when out of memory. */
char *sim_deadlock_text(const struct sim *s);
/* The same list of live goroutines under first line head (ending in \n). */
char *sim_goroutines_text(const struct sim *s, const char *head);
int32_t sim_newg(struct sim *s, uint32_t fn);
/* A dead G's repeat counter block (depth counters) back to the pool. */
void sim_iters_put(struct sim *s, int32_t block, int32_t depth);
void sim_poll(struct sim *s);
/* SIM_LIMIT: "the program DID more than LIMIT WHAT by t=..." (cfg.max_steps,
 * cfg.max_goroutines). */
void sim_limit(struct sim *s, const char *did, int64_t limit, const char *what);
int sim_oom(struct sim *s, const char *what); /* SIM_NOMEM, "out of memory for WHAT at t=..."; returns -1 */
/* SIM_INPUT: the message (one line, naming the place) is msg's; returns -1. */
int sim_bad_input(struct sim *s, const char *msg);
/* check.c: with cfg.check, check the invariants (state.h); a violation
 * ends the run as SIM_BROKEN. Incremental: every P, and the Gs moved since
 * the last check (sim_check_touch); the whole state is walked once the
 * checks since the last walk reach a sixteenth of its size, and 64 at
 * least (so the walks cost O(1) per check), after a step that moved more than CHECK_LOG Gs,
 * and by sim_check_full. */
void sim_check_step(struct sim *s);
static inline void sim_check(struct sim *s)
{
	if (s->cfg.check) /* inline: without --check a step pays one test, not a call */
		sim_check_step(s);
}
void sim_check_full(struct sim *s);
/* With cfg.check, G gi moved (sim.c's move_g). */
static inline void sim_check_touch(struct sim *s, int32_t gi)
{
	if (s->ntouched < CHECK_LOG)
		s->touched[s->ntouched] = gi;
	if (s->ntouched <= CHECK_LOG)
		s->ntouched++;
}
int32_t sim_curg(const struct sim *s, int32_t pi);
/* Moves G gi to place `to` (on P pi where the place has one), keeps
 * the G's fields right and emits the EV_G record. */
void sim_move_g(struct sim *s, int32_t gi, int to, int32_t pi, int reason);
/* The same into PL_WAITING: parked for wait reason `wait` on object obj
 * (a channel index), both carried by the EV_G record. */
void sim_move_g_waiting(struct sim *s, int32_t gi, int reason, int wait, int32_t obj);

#endif
