/* cpu.h: the machine's CPUs (--cpus=N, the runtime model): the OS threads
 * that want to run share N CPUs, as Linux's scheduler shares them.
 *
 * Which threads want a CPU: the Ms that hold a P (running Go code, or
 * spinning in findRunnable) and are not asleep (m.wake_at: a thread still
 * waking up, or in runqgrab's usleep). Ms in a system call, parked (stopm,
 * netpoll) and sysmon use none, except for their bursts: CPU work of the
 * thread's own (cpu_thread_work: sysmon's usleep, each pass of sysmon()
 * in proc.go, --cost-sysmon; the thread operations, cpu_thread_op:
 * notewakeup's futexwakeup and the futexsleep it ends, runqgrab's
 * usleep(3), entersyscall/exitsyscall, netpoll's epoll_wait,
 * --cost-futex-wake ...), which any M owes and does on a CPU before
 * its code goes on. An M that owes a whole microsecond wants a CPU like
 * any other (EEVDF below); on one, it pays (m.bursting, an EVQ_CPU_BURST
 * event at the end) while its G, if it has one, waits (exec_cpu_pause),
 * and a burst cut short by a preemption is resumed when it gets a CPU
 * again. Simplification: the burst is placed at the instant's end, so it
 * delays its G's next CPU work only: the ops that take no time (a send,
 * a receive, a go statement, an Unlock) the G reaches first happen at
 * once, before the M has paid (after a syscall's exitsyscall, a netpoll
 * return, a woken M's futexsleep); in exitsyscall0 the G is queued before
 * its old M pays the exit. Without the mechanism (a CPU per P) the work is not placed. Each M is in one CPU state (m.cpu): NONE
 * (wants none), WAIT (in a CPU run queue) or RUN (on CPU c,
 * s->cpus[c].m). A waiting M stalls: the CPU segment of its G is cut
 * (exec_cpu_pause) and its remaining run time does not progress until it
 * gets a CPU again (exec_cpu_resume); an M that needs a CPU to schedule
 * (it has a P but no G) does not run schedule() until it has one.
 *
 * Who runs: Linux's EEVDF (kernel/sched/fair.c; the real runs are taken
 * on a 6.18 kernel, HZ=250: /proc/config.gz; /sys/kernel/debug/sched/ has
 * base_slice_ns and no CFS latency_ns or wakeup_granularity_ns, though
 * its values cannot be read here), to first order, per thread: m.cpuv
 * (se->vruntime: CPU time, all Go threads having nice 0), m.cpud (the
 * virtual deadline) and m.cpulag (se->vlag), against V, the average
 * vruntime of a queue's runnable threads (avg_vruntime):
 *  - an M that newly wants a CPU is placed at V minus the lag it kept
 *    (place_entity, PLACE_LAG), its deadline a slice on (--cpu-slice,
 *    default sysctl_sched_base_slice: 0.75ms * (1 + ilog2(N)), N capped at
 *    8, SCHED_TUNABLESCALING_LOG: 1.5ms on 2 CPUs; half a slice for a
 *    thread's first run, PLACE_DEADLINE_INITIAL); an M that stops wanting
 *    keeps V - v (update_entity_lag);
 *  - it takes a free CPU; else it preempts an occupant that is past V
 *    (not eligible), if it is itself eligible with the earliest deadline
 *    of the eligible waiters (check_preempt_wakeup_fair: pick_eevdf would
 *    pick it; an eligible occupant keeps its CPU to its deadline,
 *    RUN_TO_PARITY); else it waits. So a thread that waited (V rose while
 *    it did not run) and then ran little comes back ahead of a CPU-bound
 *    one and takes its CPU at once, and one that had the CPU alone comes
 *    back at V and waits;
 *  - an occupant that reaches its deadline gets a new one a slice on
 *    (update_deadline) and, with waiters, the CPU goes to pick_eevdf's
 *    choice (itself included, losing ties): the eligible thread with the
 *    earliest deadline;
 *  - a CPU that an M leaves (syscall, park, sleep) goes to the queue's
 *    pick at once.
 *
 * Placement (--cpu-place; the command's default is prev, the library's,
 * sim_config_default, shared). shared: the above, one queue for all CPUs. last: each M runs on the CPU it last ran on (m.cpuhome),
 * as the kernel of the machine the fidelity table is measured on places
 * woken threads (docs/fidelity.md, "pipeline-p4": select_task_rq_fair
 * kept a woken Go thread on its previous CPU in about 97% of wake-ups,
 * also when the other CPU was idle), with a queue per CPU:
 *  - a new M starts on the CPU with the fewest Ms (sysmon counts), as
 *    wake_up_new_task's find_idlest_cpu spreads new threads;
 *  - an M that newly wants a CPU takes its own at once, preempting the
 *    occupant, which waits at the head of that CPU's queue (EEVDF wakeup
 *    preemption, check_preempt_wakeup_fair: a thread that slept has the
 *    earlier deadline); slices rotate a CPU's own queue;
 *  - an idle CPU (free, nobody waiting on it) takes the waiter of another
 *    CPU that left its CPU first, once that one has not run for
 *    --cpu-migration-cost (sysctl_sched_migration_cost, 0.5 ms): the load
 *    balancer's can_migrate_task refuses a cache-hot task (task_hot).
 *    So threads that hand work to each other every few tens of us stay
 *    stacked on one CPU while the other idles, and CPU-bound threads,
 *    which wait whole slices, spread.
 * linux and prev: a queue per CPU, each with its own EEVDF (V, lags,
 * deadlines and wake-up preemption as above, per CPU), and the rest
 * Linux's, kernel/sched/fair.c (not Go's):
 *  - a new M starts on the least loaded CPU (wake_up_new_task ->
 *    select_task_rq(WF_FORK) -> sched_balance_find_dst_cpu);
 *  - an M that newly wants a CPU joins the queue of the CPU cpu_select
 *    picks (select_task_rq_fair): linux: wake_affine between its waker's
 *    CPU (notewakeup's caller, when known) and its previous CPU, then
 *    select_idle_sibling (an idle CPU if there is one); prev: its
 *    previous CPU always, as this machine's kernel did (docs/fidelity.md,
 *    "pipeline-p4"). There it runs if the CPU is free, preempts its
 *    occupant (check_preempt_wakeup_fair) or waits;
 *  - load balance moves waiters, never a running thread: a CPU that goes
 *    idle pulls the least recently run waiter of the busiest CPU if it is
 *    cache cold (sched_balance_newidle; can_migrate_task/task_hot:
 *    --cpu-migration-cost); at every scheduler tick (CPU_TICK_US, 4 ms:
 *    HZ=250) an idle CPU, and every CPU_BUSY_BALANCE_US (32 ms) a busy
 *    one with two runnable threads fewer than the busiest, pulls one
 *    (sched_balance_trigger -> sched_balance_rq), a hot one too after
 *    more than CPU_CACHE_NICE_TRIES balances that found none to move.
 *
 * cpu_balance runs at the end of every instant (driver.c): it takes the
 * CPUs from Ms that no longer want them, queues the Ms that newly want
 * one (in P id order), and gives free CPUs to waiters.
 *
 * Records: an M that starts or stops waiting (enters or leaves the queue)
 * emits an EV_CPU record (from/to in sim.h's SIM_CPUSTATES: none, wait,
 * run); a change between none and run emits nothing, so a consumer sees
 * exactly the intervals an M (and its G) stalled.
 *
 * The mechanism is on only when there are fewer CPUs than Ps (s->ncpus >
 * 0): with one CPU per P no M ever waits, and nothing changes.
 *
 * Invariants (cpu_check, with --check): an M is RUN iff it is some CPU's
 * occupant, WAIT iff it is in a queue (once: the one queue, or with a
 * queue per CPU its own CPU's, m.cpuhome); nwaiting is the queues' total length. At the end of an
 * instant (after cpu_balance) also: an M waits only while every CPU (with
 * last: its own CPU) is occupied, no waiting M's G has a CPU segment in
 * progress, and a CPU's slice event is pending only while an M waits (on
 * it, with last).
 *
 * Simplifications: linux, prev: load is nr_running, not PELT's decayed
 * load_avg; the CPUs share one LLC and have equal capacity; no
 * recent_used_cpu, SIS_UTIL or avg_idle gate; never WF_SYNC (futex wakes
 * pass none); a wake-up with no thread as waker counts the previous CPU
 * as the waker's; all CPUs' ticks fall together; no active balance (the
 * kernel's stopper moving a running thread); one waiter per balance (see
 * cpu.c at each). shared: one global run queue and one V, where Linux
 * has a queue and a V per CPU with load balancing, and a woken thread may
 * preempt the occupant of any CPU, where Linux checks only the CPU
 * select_task_rq_fair chose. last: a woken thread always preempts (as
 * measured in 60-70% of the wake-ups), its CPU's queue is round robin,
 * it never moves at wake-up, and the kernel's load balance is only an
 * idle CPU taking a cold waiter the instant it turns cold (the kernel
 * balances when a CPU goes idle and at ticks; busy CPUs' periodic
 * balancing by load is left out); a new thread's CPU counts threads, not
 * load. Both: a thread that stops not eligible keeps its negative lag
 * (PLACE_LAG alone, Linux 6.6-6.11), where 6.12+'s DELAY_DEQUEUE keeps it
 * queued until it turns eligible and drops it with none (DELAY_ZERO);
 * deadlines are met when reached, where the kernel (no HRTICK) notices a
 * passed deadline at its next tick (4ms) or its next update_curr (a
 * wake-up or sleep on that CPU; tried here as 4ms ticks, it put the
 * mutex twin back into lockstep: 10.0ms, and the fan-out's completion
 * order +0.22); the zero-time work of an instant (exitsyscall, startm's
 * first findRunnable with --thread-wake 0, netpoll's return, a preemption
 * request being honoured, a woken spinner's fruitless findRunnable) is
 * done before the M queues for a CPU or after it preempted one, so a
 * spinner that finds nothing gives its CPU back in the instant it took it
 * (a zero-length wait of the occupant's); a pass of sysmon runs at its
 * sleep's end whether or not its thread has a CPU, and its sleeps are not
 * lengthened by the bursts (the measured overshoot has the usleep's own
 * CPU in it); no CPU migration cost. */
#ifndef GOSIM_CPU_H
#define GOSIM_CPU_H

#include "state.h"

/* The default slice for n CPUs (sysctl_sched_base_slice, see above). */
int64_t cpu_default_slice_us(int n);
/* Sets up s->cpus for cfg.cpus below cfg.procs (else leaves the mechanism
 * off). Returns 0, or -1 when out of memory. */
int cpu_init(struct sim *s);
/* Whether the mechanism runs: fewer CPUs than Ps, or (any placement but last)
 * any --cpus when the threads have CPU work of their own (--cost-sysmon,
 * --cost-futex-wake, ...): with as many CPUs as Ps or more no M running Go
 * code waits, but sysmon's and the thread operations' bursts take CPU from
 * them, as on the real machine. (With last placement and as many CPUs as
 * Ps, two Ms could share a CPU while another idles; tried on the 2-P
 * pipelines, it made the hand-written one 18% slow, so the mechanism stays
 * off there.) */
int cpu_on(const struct sim_config *cfg, int32_t nprocs);
void cpu_free(struct sim *s);
/* End of an instant: CPUs follow the Ms that want them. Returns 1 if it
 * gave a CPU to an M that must run schedule() (it holds a P, no G). */
int cpu_balance(struct sim *s);
/* EVQ_CPU_SLICE: CPU c's slice ended; with an M waiting, its occupant
 * goes to the queue's tail (cpu_balance gives the CPU to the first). */
void cpu_slice_end(struct sim *s, int32_t c);
/* EVQ_CPU_BALANCE (last): a CPU is idle and a waiter on another turns
 * cache cold; cpu_balance at the instant's end moves it. */
void cpu_load_balance(struct sim *s);
/* M mi (holding a P) needs a CPU to run schedule(): 1 if it has one
 * (always without the mechanism), taking a free one if nobody waits;
 * else 0, and it waits in the queue. */
int cpu_get(struct sim *s, int32_t mi);
int cpu_check(struct sim *s);
/* M mi (any M: sysmon, one parked or in a syscall too) has ns of CPU work
 * of its own to do (a burst: see above); a no-op without the mechanism. */
void cpu_thread_work(struct sim *s, int32_t mi, int64_t ns);
/* Thread operation op's CPU (cfg.cost_thread_ns[op]) is M mi's to pay:
 * counted in the summary, and placed as a burst with the mechanism on. */
void cpu_thread_op(struct sim *s, int32_t mi, enum sim_thread_op op);
/* The same for ns of it (a part of op's cost). */
void cpu_thread_cost(struct sim *s, int32_t mi, enum sim_thread_op op, int64_t ns);
/* startm woke the parked M mi (notewakeup): the waker (-1: not known)
 * pays the futexwakeup, mi the futexsleep it ends. */
void cpu_notewakeup(struct sim *s, int32_t waker, int32_t mi);
/* EVQ_CPU_BURST: the M on CPU c ends its burst; its code goes on. */
void cpu_burst_end(struct sim *s, int32_t c);
/* The CPU a new thread (M) starts on: --cpu-place=last, the one with the
 * fewest threads; linux, prev: the least loaded (wake_up_new_task); else
 * -1 (any). */
int32_t cpu_new_thread(const struct sim *s);
/* linux, prev: the CPU whose queue M mi joins when it newly wants one
 * (select_task_rq_fair on a wake-up, see above), from its previous CPU
 * (m.cpuhome), its waker's (m.cpuwaker) and which CPUs are idle. */
int32_t cpu_select(const struct sim *s, int32_t mi);

#endif
