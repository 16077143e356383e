/* exec.h: what a running G does: it steps through its function's ops until
 * it starts CPU work (run, loop), enters a system call, blocks on a channel,
 * yields (Gosched), is preempted or exits. Zero-time ops (go, send, recv
 * that need not wait, repeat bookkeeping) happen at the current instant.
 *
 * Mirrors newproc (go: the new G goes to runnext), goschedImpl (Gosched
 * and preemption: the G goes to the global queue's tail), goexit0 and
 * gopark (park.h). Every resumption of a G's program is here: after CPU
 * work, a system call's return, or a wake from a wait. CPU work is a segment on the G's P with a completion event;
 * preemption cuts it short and keeps the rest for later.
 *
 * Simplification: a `run` op is stopped at once by a preemption request
 * (it makes function calls all the time); a `loop` op only by asynchronous
 * preemption. A cooperative request pending when a `loop` ends is honoured
 * at the start of the next `run`. */
#ifndef GOSIM_EXEC_H
#define GOSIM_EXEC_H

#include "state.h"

/* Runs G gi, running on its P, until it leaves the CPU or starts CPU work. */
void exec_run(struct sim *s, int32_t gi);
/* The same from schedule_busy_ps's pass (sched.c's execute): then, while
 * the pass's next schedule of the P is known (next: sched.c's
 * sched_next_in_pass, passed down so that the interpreter does not call up
 * into the scheduler), the G it executes runs on in the same loop. */
typedef int32_t (*exec_next_fn)(struct sim *s, int32_t pi);
void exec_run_in_pass(struct sim *s, int32_t gi, exec_next_fn next);
/* The end of P pi's CPU segment numbered gen (the event queue's
 * EVQ_CPU_DONE): its G goes on. cont: the driver's continue_instant (or
 * NULL), which, asked after the G has started its next CPU segment on P
 * pi, returns 1 when it has taken the event loop's steps up to that
 * segment's end (nothing else happens before it), so that the G goes on
 * in the same loop; 0, nothing done, otherwise. */
typedef int (*exec_cont_fn)(struct sim *s, int32_t pi);
void exec_cpu_done(struct sim *s, int32_t pi, uint64_t gen, exec_cont_fn cont);
void exec_syscall_done(struct sim *s, int32_t gi);
int exec_preempt(struct sim *s, int32_t pi);
int exec_stoppable(const struct sim *s, int32_t gi);
/* --cpus (cpu.h): the M on P pi loses its CPU: its G's CPU segment is cut
 * (the rest kept in g.u.left); and gets it back: the segment goes on. */
void exec_cpu_pause(struct sim *s, int32_t pi);
void exec_cpu_resume(struct sim *s, int32_t pi);
/* The runtime model: execute's G switch (gogo) costs cfg.cost_switch_ns,
 * owed by P pi and paid before the G's next op (pay_cost). */
void exec_charge_switch(struct sim *s, int32_t pi);

/* The runtime model's cost of each op kind (s->op_cost_ns), from the
 * config; sim_new calls it once. */
void exec_init_costs(struct sim *s);

#endif
