/* policy.h: the model's numbers, one table, each with its Go origin.
 *
 * Everything here is a constant of the runtime (runtime/proc.go, runtime2.go)
 * or of the seed model (000). Command-line options override the ones marked
 * "default"; the rest are fixed by the runtime's code. */
#ifndef GOSIM_POLICY_H
#define GOSIM_POLICY_H

#define RUNQ_SIZE 256              /* len(p.runq), runtime2.go */
#define RUNQ_HALF (RUNQ_SIZE / 2)  /* runqputslow batch, globrunqget cap */
#define GLOBRUNQ_CHECK_TICK 61     /* findRunnable: pp.schedtick%61 == 0 */
#define STEAL_TRIES 4              /* stealWork: stealTries */
#define RUNQGRAB_BACKOFF_US 3      /* runqgrab: usleep(3) before a running P's runnext */
#define FORCE_PREEMPT_US 10000     /* forcePreemptNS (default; --slice) */
#define SYSMON_PERIOD_US 20        /* sysmon: delay = 20 (default; --sysmon-period) */
/* runtime model: thread and operation costs measured here (tools/measure-costs,
 * medians of 13 runs on a loaded 2-CPU machine; README "Two models") */
#define RUNTIME_THREAD_WAKE_US 31     /* futex wake until the woken thread runs */
#define RUNTIME_THREAD_START_US 42    /* clone until the new thread runs on the creator's CPU (11) + a wake (31) */
#define RUNTIME_COST_GO_NS 1773       /* a go statement creating a new G (newproc, malg) */
#define RUNTIME_COST_CHAN_NS 42       /* a channel op of an unbuffered hand-off, gopark or goready included */
#define RUNTIME_COST_SWITCH_NS 56     /* a G switch: a Gosched between two Gs (schedule, execute) */
#define RUNTIME_COST_GOSCHED_NS 0     /* Gosched beyond its switch: not separable by the method */
#define RUNTIME_COST_SYSMON_NS 15000 /* the CPU time of one of sysmon's usleep(20)s: nanosleep, its hrtimer, two switches (tools/measure-costs/threads.c usleep20: 15.1 us; placed on the shared CPUs with --cpus, else counted) */
/* the thread operations' CPU time, thread CPU time per call (tools/measure-costs/threads.c) */
#define RUNTIME_COST_FUTEX_WAKE_NS 13472  /* notewakeup -> futexwakeup, the waker's (futex-wake-cpu) */
#define RUNTIME_COST_FUTEX_SLEEP_NS 9183  /* futexsleep and its wake-up path, the woken thread's (futex-sleep-cpu) */
#define RUNTIME_COST_USLEEP_NS 15262       /* runqgrab's usleep(3) (nanosleep3) */
#define RUNTIME_COST_SYSCALL_NS 22303      /* a blocking syscall's entry and exit (nanosleep1ms) */
#define RUNTIME_COST_NETPOLL_NS 20150      /* netpoll's epoll_wait, its sleep and return (epoll1ms) */
/* a thread's creation (tools/measure-costs/newm.go: Go's newm beyond a
 * notewakeup, 38 us in all, 10 us of it on the creator's thread), kept
 * with the two above so that creation - wake is what was measured */
#define RUNTIME_COST_CLONE_NS 23500        /* newm -> allocm -> newosproc (clone), the creator's: futex-wake + 10 us */
#define RUNTIME_COST_MSTART_NS 37000       /* the new thread's mstart -> minit -> schedule: futex-sleep + 28 us */
/* one write(2) of schedtrace's print(): a few bytes to a file, the writer's
 * thread CPU (tools/measure-costs/threads.c write: 1.15-1.28 us over 5
 * runs, docs/costs.md) */
#define RUNTIME_COST_WRITE_NS 1187
#define RUNTIME_SPIN_NS 741           /* sync.Mutex's active spin (lockSlow -> runtime_doSpin): procyield(30), 30 PAUSEs (tools/measure-costs/threads.c) */
#define RUNTIME_INIT_THREADS 2    /* runtime model: idle Ms left by the runtime's init (README) */
#define RUNTIME_TIMER_SLACK_US 70  /* runtime model: usleep overshoot measured here (tools/timer-slack.c) */
#define RETAKE_SYSCALL_US 10000    /* retake: pd.syscallwhen + 10*1000*1000 */
#define MAX_THREADS_DEFAULT 10000  /* schedinit: sched.maxmcount = 10000 */
#define TICK_US 10                 /* seed model: 10 us time step */
#define MAX_PROCS 256              /* gosim's limit on --procs */
#define MAX_CPUS 1024              /* gosim's limit on --cpus */
#define CPU_MIGRATION_COST_US 500 /* Linux: sysctl_sched_migration_cost, 0.5ms: a thread that ran more recently is cache hot (--cpu-place=last; --cpu-migration-cost) */
#define CPU_TICK_US 4000           /* Linux: TICK_NSEC at CONFIG_HZ=250 (this machine's kernel): bounds a thread's kept lag (update_entity_lag) */
#define CPU_BUSY_BALANCE_US 32000  /* Linux: a busy CPU's periodic load balance interval, sd->min_interval (sd_weight ms, 2 on 2 CPUs) x sd->busy_factor (16), sd_init (--cpu-place=linux, prev) */
#define CPU_IMBALANCE_PCT 117      /* Linux: sd->imbalance_pct of the LLC (MC) domain, sd_init: wake_affine_weight's bias to the previous CPU */
#define CPU_CACHE_NICE_TRIES 1     /* Linux: sd->cache_nice_tries of the MC domain, sd_init: after this many failed periodic balances a cache-hot task may move */
#define CPU_BASE_SLICE_US 750      /* Linux: normalized_sysctl_sched_base_slice, 0.75ms, times 1+ilog2(CPUs) (default; --cpu-slice) */

#endif
