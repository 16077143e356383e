/* sysmon.h: the system monitor: preemption of long-running Gs, retaking Ps
 * from system calls, and the schedtrace hook (runtime/proc.go: sysmon,
 * retake, preemptone, schedtrace).
 *
 * Passes come after the instant's events and scheduling. With
 * SYSMON_FIXED (the seed model) they come every cfg.sysmon_period_us;
 * with SYSMON_ADAPTIVE they follow the runtime's loop in sysmon(): sleep
 * 20 us (the period), and after 50 passes in a row that retook no P from
 * a syscall double the sleep each pass up to 10 ms; a retake resets it.
 *
 * A pass that cannot change anything is skipped: sysmon's clock still
 * advances through it (an idle pass), but the model does no work for it.
 * A pass runs when an observation could differ (some P's schedtick,
 * syscalltick, status or G changed, or an idle P appeared or vanished
 * since the last one) or a deadline it computed falls due (a slice
 * expiring, a syscall's 10 ms grace, the next schedtrace line).
 * cfg.eager_sysmon runs every pass instead; both give the same trace (a
 * test checks it).
 *
 * The real sleep is longer than asked (Linux timer slack and wake-up:
 * usleep(20) takes about 90 us on the machines measured): each sleep adds
 * cfg.sysmon_slack_us (--sysmon-slack=DUR; the seed model's 0), or a draw
 * per sleep from the measured distribution (--sysmon-slack=measured, the
 * runtime model's; sysmon_slack.h). Each sleep also costs sysmon's thread
 * --cost-sysmon of CPU: with --cpus a burst on the shared CPUs (cpu.h),
 * so every pass is then simulated; else counted. Simplification: sysmon
 * never deep-sleeps (it would not with schedtrace on) and nothing wakes it
 * early; the netpoll, forcegc and scavenger parts of its loop do not
 * exist here. */
#ifndef GOSIM_SYSMON_H
#define GOSIM_SYSMON_H

#include "state.h"

/* sysmon's records start at zero and the runtime's clock (nanotime) is far
 * past zero when a program starts, so a record never written reads as
 * "long ago": a fresh P's first syscall (p.syscalltick == pd.syscalltick
 * == 0) is retaken at sysmon's first look, work or not. */
#define SYSMON_LONG_AGO (INT64_MIN / 4)

#define SYSMON_IDLE_PASSES 50   /* sysmon: idle > 50 -> delay *= 2 */
#define SYSMON_MAX_DELAY_US 10000 /* sysmon: delay capped at 10 ms */

void sysmon_pass(struct sim *s);
/* sysmon's clock as sim_new leaves it: its next pass worked out. */
void sysmon_init_clock(struct sim *s);
/* --runtime-init=measured, at boot: sysmon's clock as runtime init left it
 * (sysmon.c). */
void sysmon_start_early(struct sim *s);
/* Whether a pass falls at the current instant and must run. Inline, the
 * common cases (sysmon_runs_now_walk the rest): the pass sysmon_next_wake
 * found; nothing observed since the last pass; or something observed and
 * the clock's next pass not behind (catch_up would not move it). */
int sysmon_runs_now_walk(struct sim *s);
static inline int sysmon_runs_now(struct sim *s)
{
	if (s->now == s->sysmon_next)
		return 1;
	if (!s->sysmon_dirty)
		return 0;
	if (s->sm_next >= s->now)
		return s->sm_next == s->now;
	return sysmon_runs_now_walk(s);
}
/* How many sleeps sysmon's loop has ended by time t (its passes, run or
 * idle, at or before t), from its clock as it stands: for the summary's
 * count of what sysmon's usleeps cost (--cost-sysmon); moves nothing. */
int64_t sysmon_sleeps_by(const struct sim *s, int64_t t);
/* The next pass to run after the current instant (INT64_MAX: none due).
 * Inline, the common case (sysmon_next_wake_walk the rest): with something
 * observed since the last pass (sysmon_dirty) any pass after now may act,
 * so it is the clock's next pass when that is ahead. */
int64_t sysmon_next_wake_walk(struct sim *s);
static inline int64_t sysmon_next_wake(struct sim *s)
{
	if (s->sysmon_dirty && s->sm_next > s->now)
		return s->sm_next;
	return sysmon_next_wake_walk(s);
}

#endif
