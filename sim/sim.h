/* sim.h: the public face of the model: configuration, lifecycle, the event
 * records a run produces and the summary it ends with.
 *
 * A struct sim owns one simulation: Gs, Ms, Ps, queues, clock, RNG streams
 * and the sink its events go to. Nothing in sim/ is global or does I/O, so
 * any number of simulations can run side by side in one process. Time is an
 * integer number of microseconds; a run is deterministic in its config,
 * program and seed.
 *
 * Lifecycle: sim_new() -> sim_step() until it returns something other than
 * SIM_RUNNING (or sim_run()) -> sim_summary() -> sim_free(). */
#ifndef GOSIM_SIM_H
#define GOSIM_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "policy.h"

#define GOSIM_VERSION "0.1.0"

struct program; /* workload.h */
struct sim;

enum sim_preempt { PREEMPT_ASYNC, PREEMPT_COOPERATIVE, PREEMPT_OFF };
/* SYSMON_MODEL: left to the model's default (sim_config_fill_model). */
enum sim_sysmon { SYSMON_MODEL = -1, SYSMON_FIXED, SYSMON_ADAPTIVE };
/* sysmon's sleeps overshoot by sysmon_slack_us (fixed), or by a seeded
 * draw per sleep from a measured distribution (sysmon_slack.h). */
enum sim_slack { SLACK_MODEL = -1, SLACK_FIXED, SLACK_MEASURED };
/* Runtime init before the workload's main (--runtime-init): none (the
 * workload and sysmon start together, main's slice first seen at sysmon's
 * first pass), or measured: one seeded draw per run of how long sysmon ran
 * before the workload and when it first saw main's slice (sysmon_slack.h). */
enum sim_init { INIT_MODEL = -1, INIT_NONE, INIT_MEASURED };
/* Which model of the runtime's own machinery: the seed's simplified one
 * (the library's default, so that sim_config_default() behaves as it always
 * has), or the runtime model (the command's default), where the rules listed
 * in the README's "Two models" table follow proc.go. */
enum sim_model { MODEL_SEED, MODEL_RUNTIME };
/* --cpu-place (cpu.h): which CPU a thread that wants one runs on; the
 * option's name and the summary's phrase for each (one table: the CLI, the
 * sweep, the summary and the trace header read it). */
#define SIM_CPU_PLACES(X)                                                                  \
	X(SHARED, "shared", "")                                                            \
	X(LAST, "last", "; each on the CPU it last ran on")                                \
	X(LINUX, "linux", "; a queue per CPU, placed as Linux's select_task_rq_fair")      \
	X(PREV, "prev", "; a queue per CPU, each woken on the CPU it last ran on")
#define SIM_ENUM_CPL(K, name, phrase) CPU_PLACE_##K,
enum sim_cpu_place { SIM_CPU_PLACES(SIM_ENUM_CPL) CPU_PLACE__N };
/* --netpoll-wait (netpoll.h): how long the M blocked in netpoll for the
 * earliest timer waits: its model's (the runtime model: whole ms, as
 * netpoll_epoll.go's epoll_wait; the seed model: exactly until the timer). */
enum sim_netpoll_wait { NETPOLL_WAIT_MODEL, NETPOLL_WAIT_EXACT, NETPOLL_WAIT_MS };
/* The runtime model's thread operations whose CPU time the thread doing
 * them pays (--cost-futex-wake, ...; cpu.h's bursts), in proc.go:
 * notewakeup -> futexwakeup (the waker's), the futexsleep it ends (the
 * woken thread's, as it starts), runqgrab's usleep(3), a blocking system
 * call's entry and exit (entersyscall .. exitsyscall), netpoll's
 * epoll_wait (its sleep and return), and where startm finds no idle M:
 * newm -> allocm -> newosproc's clone (the creator's) and the new thread's
 * mstart -> minit -> schedule (its own); and with --schedtrace, sysmon's
 * schedtrace(), which print()s each piece of its SCHED line with a
 * write(2) of its own (one cost per write). */
#define SIM_THREAD_OPS(X) X(FUTEX_WAKE, "futex-wake") X(FUTEX_SLEEP, "futex-sleep") X(USLEEP, "usleep") \
	X(SYSCALL, "syscall") X(NETPOLL, "netpoll") X(CLONE, "clone") X(MSTART, "mstart") X(WRITE, "write")
#define SIM_ENUM_TOP(K, name) TOP_##K,
enum sim_thread_op { SIM_THREAD_OPS(SIM_ENUM_TOP) TOP__N };
/* A duration field set to SIM_MODEL_DEFAULT takes its model's default. */
#define SIM_MODEL_DEFAULT (-1)

/* The simulated clock's limit (~73,000 years): an instant past it stops
 * the run (SIM_LIMIT), so now + a duration (at most 10^12 us) never
 * overflows; cmd/run.c refuses a program whose CPU and syscall time alone
 * pass it. */
#define SIM_CLOCK_MAX_US (INT64_MAX / 4)

struct sim_config {
	int procs;              /* GOMAXPROCS, 1..MAX_PROCS */
	int steal;              /* work stealing on (1) or off (0) */
	enum sim_preempt preempt;
	uint64_t seed;
	int64_t sysmon_period_us; /* sysmon's period (fixed), or its first delay (adaptive) */
	enum sim_sysmon sysmon;   /* fixed period, or the runtime's back-off */
	int64_t sysmon_slack_us;  /* added to every sleep (Linux timer slack) */
	enum sim_slack slack;     /* sysmon's sleeps: sysmon_slack_us, or measured draws */
	enum sim_init runtime_init; /* runtime init before the workload: none, or a measured draw */
	int64_t slice_us;       /* forcePreemptNS */
	int64_t max_threads;    /* sched.maxmcount */
	int64_t schedtrace_ms;  /* 0: no schedtrace callbacks */
	int check;              /* run the invariant checker after every step */
	int eager_sysmon;       /* run every sysmon pass (testing; same result) */
	int explain;            /* --explain: records carry the rule behind each decision */
	enum sim_model model;   /* --model: seed (default) or runtime */
	int64_t thread_wake_us; /* runtime model: startm to the woken M's findRunnable (--thread-wake) */
	int64_t thread_start_us; /* runtime model: startm -> newm to the new M's findRunnable (--thread-start) */
	int init_threads;       /* runtime model: idle Ms the runtime's init leaves (--init-threads); SIM_MODEL_DEFAULT */
	/* runtime model: the CPU time of one operation (--cost-*), in ns: a go
	 * statement (newproc), a channel op, a G switch (execute), a Gosched */
	int64_t cost_go_ns, cost_chan_ns, cost_switch_ns, cost_gosched_ns;
	/* runtime model: the CPU time of one of sysmon's sleeps (--cost-sysmon),
	 * in ns; counted in the summary (sysmon_sleeps), and with --cpus below
	 * the Ps placed on the shared CPUs as a burst of sysmon's thread (cpu.h) */
	int64_t cost_sysmon_ns;
	/* runtime model: the CPU time of each thread operation (--cost-futex-wake
	 * ...), in ns: placed on the shared CPUs with --cpus below the Ps (the
	 * thread holds a CPU while it pays), else counted (the summary) */
	int64_t cost_thread_ns[TOP__N];
	int cpus;               /* --cpus: the machine's CPUs the Ms share; 0: one per P (the seed model's) */
	int64_t cpu_slice_us;   /* --cpu-slice: a thread's time slice on a CPU; 0: Linux's default for cpus (cpu.h) */
	enum sim_cpu_place cpu_place; /* --cpu-place: one run queue for all CPUs, or a thread stays on its last CPU (cpu.h) */
	int64_t cpu_migration_cost_us; /* --cpu-migration-cost (last): a waiting thread that ran more recently is not moved; 0: CPU_MIGRATION_COST_US */
	enum sim_netpoll_wait netpoll_wait; /* --netpoll-wait: whole ms or exact (NETPOLL_WAIT_MODEL: the model's) */
	int go_release;         /* --go: the Go 1.N whose rules the runtime model follows (release.h); 0: RELEASE_DEFAULT */
	int64_t until_us;       /* 0, or stop (SIM_UNTIL) rather than run an instant past it */
	/* 0, or stop (SIM_LIMIT) past this many steps or goroutines: for
	 * programs whose totals are a lower bound (range bodies run as often
	 * as values come), where the up-front check cannot be exact. */
	int64_t max_steps, max_goroutines;
};

/* The seed model's configuration, every field concrete. */
void sim_config_default(struct sim_config *cfg);
/* Fill every field left to its model (SYSMON_MODEL, SIM_MODEL_DEFAULT) with
 * cfg->model's default: one table in driver.c. Idempotent; sim_new() calls
 * it on its copy, so a caller may leave the fields unset. */
void sim_config_fill_model(struct sim_config *cfg);

/* The model's open sets, one X-macro table each: the enum, the name the
 * traces print (sim_*_name()) and the docs' lists (tools/names.sh) all come
 * from these rows. Add a kind by adding a row; rows are never reordered
 * (trace consumers and the fingerprint see the numbers). */

/* Where a goroutine is. */
#define SIM_PLACES(X) \
	X(NEW, "new") X(RUNNEXT, "runnext") X(LOCAL, "local") X(GLOBAL, "global") \
	X(RUNNING, "running") X(SYSCALL, "syscall") X(WAITING, "waiting") X(DEAD, "dead")

/* Why it moved. */
#define SIM_REASONS(X) \
	X(NONE, "") X(GO, "go") X(KICK, "kick") X(SPILL, "spill") X(STEAL, "steal") \
	X(PREEMPT, "preempt") X(GOSCHED, "gosched") X(CHAN, "chan") X(SYSCALL, "syscall") \
	X(EXITSYSCALL, "exitsyscall") X(EXIT, "exit") X(SCHEDULE, "schedule") X(GLOBRUNQ, "globrunqget") \
	X(SLEEP, "sleep") X(TIMER, "timer") X(NET, "net") X(NETPOLL, "netpoll") \
	X(CLOSE, "close") X(SELECT, "select") X(LOCK, "lock") X(UNLOCK, "unlock") X(YIELD, "goyield") \
	X(WAIT, "wait") X(WGDONE, "wgdone")

/* M and P states as the trace names them. */
#define SIM_MSTATES(X) X(NEW, "new") X(RUNNING, "running") X(SPINNING, "spinning") X(IDLE, "idle") X(SYSCALL, "syscall")
#define SIM_PSTATES(X) X(IDLE, "idle") X(RUNNING, "running") X(SYSCALL, "syscall")
/* An M's CPU state under --cpus below --procs (cpu.h): wants no CPU, waits
 * in the CPU run queue, runs on a CPU. */
#define SIM_CPUSTATES(X) X(NONE, "none") X(WAIT, "wait") X(RUN, "run")

/* Event kinds. */
#define SIM_EVENTS(X) \
	X(G, "g") X(STEAL, "steal") X(SPILL, "spill") X(HANDOFF, "handoff") X(PREEMPT, "preempt") \
	X(M, "m") X(P, "p") X(SUDOG, "sudog") X(REGION, "region") X(CPU, "cpu")

/* Why a goroutine waits (runtime2.go's waitReason strings, as scheddetail
 * prints them). */
#define SIM_WAITREASONS(X) X(NONE, "") X(CHAN_RECV, "chan receive") X(CHAN_SEND, "chan send") \
	X(SLEEP, "sleep") X(IO_WAIT, "IO wait") X(SELECT, "select") X(SELECT_NO_CASES, "select (no cases)") \
	X(MUTEX, "sync.Mutex.Lock") X(WAITGROUP, "sync.WaitGroup.Wait") X(SEMACQUIRE, "semacquire")

#define SIM_ENUM_PL(K, name) PL_##K,
/* --explain: the rule that made a scheduling decision, named as in
 * proc.go. Which records carry which rule: docs/trace-format.md. */
#define SIM_RULES(X) \
	X(NONE, "") \
	X(GLOBRUNQ_TICK, "findRunnable: schedtick%61 == 0, globrunqget max 1") \
	X(RUNNEXT, "findRunnable: runqget, runnext, inherits the time slice") \
	X(RUNQ, "findRunnable: runqget, the local runq's head") \
	X(GLOBRUNQ_BATCH, "findRunnable: globrunqget, a batch of rule_n") \
	X(NETPOLL, "findRunnable: netpoll, a network read was ready") \
	X(NETPOLL_BLOCKED, "findRunnable: the M blocked in netpoll returned with it, on an idle P") \
	X(STEAL, "stealWork: runqsteal from P from_p on pass rule_n") \
	X(STEAL_TIMERS, "stealWork: checkTimers of another P on pass rule_n readied it") \
	X(RUNNEXT_STEAL, "runqgrab: ring empty, stealRunNextG on the last pass, the victim running a G") \
	X(EXITSYSCALL_OLDP, "exitsyscallfast: its old P was still in the syscall") \
	X(EXITSYSCALL_PIDLE, "exitsyscallfast_pidle: an idle P") \
	X(EXITSYSCALL0, "exitsyscall0: no P, globrunqput") \
	X(STOPM, "findRunnable: nothing to run, releasep, pidleput, stopm") \
	X(PREEMPT_SLICE, "retake: running for forcePreemptNS, the time slice, preemptone") \
	X(RETAKE_WORK, "retake: a P in a syscall with work in its runq") \
	X(RETAKE_NOIDLE, "retake: a P in a syscall, no idle P and no spinning M") \
	X(RETAKE_10MS, "retake: a P in a syscall for 10ms, syscallwhen + 10ms") \
	X(HANDOFF_WORK, "handoffp: local or global work, startm") \
	X(HANDOFF_SPIN, "handoffp: no spinning M and no idle P, startm spinning") \
	X(HANDOFF_LASTP, "handoffp: the last running P, startm so someone polls") \
	X(EXITSYSCALL_KEPTP, "exitsyscall: its P was still wired to it (Go 1.26)") \
	X(EXITSYSCALL_TAKEP, "exitsyscallTryGetP: its old P, taken with takeP from the M in a syscall holding it (Go 1.26)") \
	X(EXITSYSCALL_TRYGETP_PIDLE, "exitsyscallTryGetP: an idle P (Go 1.26)") \
	X(EXITSYSCALL_NOP, "exitsyscallNoP: no P, globrunqput (Go 1.26)")

#define SIM_ENUM_R(K, name) R_##K,
#define SIM_ENUM_MS(K, name) MS_##K,
#define SIM_ENUM_PS(K, name) PS_##K,
#define SIM_ENUM_CPU(K, name) CPU_##K,
#define SIM_ENUM_EV(K, name) EV_##K,
#define SIM_ENUM_WR(K, name) WR_##K,
#define SIM_ENUM_RULE(K, name) RULE_##K,
enum sim_place { SIM_PLACES(SIM_ENUM_PL) PL__N };
enum sim_reason { SIM_REASONS(SIM_ENUM_R) R__N };
enum sim_mstate { SIM_MSTATES(SIM_ENUM_MS) MS__N };
enum sim_pstate { SIM_PSTATES(SIM_ENUM_PS) PS__N };
enum sim_cpustate { SIM_CPUSTATES(SIM_ENUM_CPU) CPU__N };
enum sim_ev { SIM_EVENTS(SIM_ENUM_EV) EV__N };
enum sim_waitreason { SIM_WAITREASONS(SIM_ENUM_WR) WR__N };
enum sim_rule { SIM_RULES(SIM_ENUM_RULE) RULE__N };

/* One trace record. g, p, m are -1 where none; the other fields are set
 * only for the event kinds that use them (docs/trace-format.md). */
struct sim_event {
	int64_t t;
	uint64_t seq;
	uint8_t ev;     /* enum sim_ev */
	uint8_t from;   /* enum sim_place (EV_G), sim_mstate (EV_M), sim_pstate (EV_P), sim_cpustate (EV_CPU) */
	uint8_t to;
	uint8_t reason; /* enum sim_reason (EV_G) */
	int32_t g, p, m;
	int32_t from_p;  /* EV_G */
	int32_t victim;  /* EV_STEAL */
	int32_t n;       /* EV_STEAL, EV_SPILL */
	int32_t runnext; /* EV_STEAL */
	int32_t from_m;  /* EV_HANDOFF */
	int64_t ran_us;  /* EV_PREEMPT */
	int32_t fn;      /* EV_G (only): from=new: the G's function (index in the program), else -1 */
	int32_t obj;     /* EV_G (only): to=waiting: the object waited on (channel index), else -1 */
	uint8_t wait;    /* EV_G (only): to=waiting: the wait reason (sim_waitreason_name), else 0 */
	int32_t by_m;    /* every kind: the M whose code made the change (sysmon's for its retakes), -1 if none */
	int32_t by_p;    /* every kind: the P that M held then, -1 if none */
	uint8_t rule;    /* with cfg.explain: the decision's rule (enum sim_rule), else 0 */
	int32_t rule_n;  /* the rule's number: a steal's pass (1..4), a global batch's size; else 0 */
};

/* The sink: where events go. event() returns nonzero to stop the run
 * (SIM_ABORTED), e.g. when its output failed; it gets event_ctx (NULL:
 * ctx), so that a trace writer's record function can be called directly.
 * schedtrace() is called at the sysmon passes where the runtime's
 * schedtrace() would print. progress() is called every SIM_PROGRESS_EVENTS
 * events and every SIM_PROGRESS_EVENTS rounds of the programs' loops
 * (backward jumps in the ops), so that a caller can show progress or stop
 * the run (nonzero) even inside one long instant. */
struct sim_sink {
	void *ctx, *event_ctx;
	int (*event)(void *ctx, const struct sim_event *e);
	int (*schedtrace)(void *ctx, const struct sim *s);
	int (*progress)(void *ctx, const struct sim *s);
};

#define SIM_PROGRESS_EVENTS (1 << 20)

enum sim_status {
	SIM_RUNNING, /* more to do */
	SIM_DONE,    /* every goroutine finished */
	SIM_DIED,    /* the simulated program died: sim_message() is the runtime's text */
	SIM_BROKEN,  /* an invariant failed: a bug in gosim; sim_message() says which */
	SIM_ABORTED, /* the sink asked to stop */
	SIM_UNTIL,   /* stopped at cfg.until_us: the state and trace as they were then */
	SIM_NOMEM,   /* an allocation failed: a resource limit, not a bug; sim_message() says for what */
	SIM_LIMIT,   /* the program went past cfg.max_steps or max_goroutines; sim_message() says which */
	SIM_INPUT    /* the program asked for what its workload does not hold (a goroutine beyond its socket
			array: "NAME[#]"); bad input, sim_message() names the place */
};

/* How the run ended, as the summary says it (sim_outcome_name): the
 * model's own ends (done, deadlock, thread-limit, broken) and the driver's
 * (until: stopped at a time limit; interrupted: by a signal). */
enum sim_outcome {
	OUT_RUNNING, OUT_DONE, OUT_DEADLOCK, OUT_THREAD_LIMIT, OUT_BROKEN, OUT_UNTIL, OUT_INTERRUPTED, OUT_PANIC,
	OUT_HANG, /* nothing left to happen, goroutines parked in the poller: the real program waits forever */
	OUT__N
};

struct sim_summary {
	uint8_t outcome;          /* enum sim_outcome */
	int64_t makespan_us;
	int64_t goroutines;
	int64_t threads_peak;
	int64_t steals, stolen, handoffs, preemptions, spills, events;
	int64_t work_us;          /* CPU work requested by run/loop ops started */
	int64_t sysmon_sleeps;    /* sysmon's sleeps ended by the makespan (its passes, run or idle) */
	int64_t sysmon_cpu_ns;    /* with --cpus below the Ps: the CPU sysmon's sleeps gave its thread (cpu.h) */
	int64_t thread_cpu_ns[TOP__N]; /* the thread operations' CPU (--cost-futex-wake, ...) */
	int64_t thread_cpu_off_ns; /* the part of it a trace shows no M running for: all of it without --cpus,
				      else what Ms not in the running state were given */
	int64_t busy_us[MAX_PROCS];
	int procs;
	uint64_t fingerprint;     /* a 64-bit hash of the event stream */
};

struct sim_error {
	char msg[512];
	int nomem; /* sim_new failed for want of memory (a resource error, not bad input) */
};

struct sim *sim_new(const struct sim_config *cfg, const struct program *prog,
		    const struct sim_sink *sink, struct sim_error *err);
/* One instant, and the instants after it that only end a CPU segment the
 * last one's G started, which its handler continues in place (driver.c's
 * continue_instant: nothing else happens in or between them). */
enum sim_status sim_step(struct sim *s);
/* Up to n sim_step calls (the caller's loop without a call per step;
 * each step one instant or more, as sim_step says). */
enum sim_status sim_steps(struct sim *s, int64_t n);
enum sim_status sim_run(struct sim *s);
void sim_summary(const struct sim *s, struct sim_summary *out);
const char *sim_message(const struct sim *s);
int64_t sim_now(const struct sim *s);
int64_t sim_live(const struct sim *s); /* goroutines not yet dead */
void sim_free(struct sim *s);

const char *sim_place_name(int place);
/* --cpu-place's name of a placement, "shared" ... (SIM_CPU_PLACES). */
const char *sim_cpu_place_name(int place);
const char *sim_reason_name(int reason);
const char *sim_mstate_name(int st);
const char *sim_pstate_name(int st);
const char *sim_cpustate_name(int st);
const char *sim_thread_op_name(int op); /* enum sim_thread_op: "futex-wake", ... (cpu.c) */
/* Whether the threads share cfg->cpus CPUs at nprocs Ps (cpu.h): sysmon's
 * and the thread operations' CPU is then placed on them, not counted. */
int sim_cpus_on(const struct sim_config *cfg, int nprocs);
const char *sim_ev_name(int ev);
const char *sim_outcome_name(int outcome);
/* The runtime's waitReason strings ("chan receive"); "" for none. */
const char *sim_waitreason_name(int wr);
const char *sim_rule_name(int rule);

#endif
