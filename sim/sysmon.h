/* sysmon.h: the system monitor: preemption of long-running Gs, retaking Ps
 * from system calls, and the schedtrace hook (runtime/proc.go: sysmon,
 * retake, preemptone, schedtrace).
 *
 * Passes happen every cfg.sysmon_period_us of simulated time (the seed's
 * fixed 20 us), after the instant's events and scheduling. A pass that
 * cannot change anything is skipped: sysmon records what it observed and
 * sleeps until the first pass at which an observation could differ (some
 * P's schedtick, syscalltick or status changed, or an idle P appeared or
 * vanished) or a deadline it computed falls due (a slice expiring, a
 * syscall's 10 ms grace, the next schedtrace line). cfg.eager_sysmon runs
 * every pass instead; both give the same trace (a test checks it).
 *
 * Simplification: the runtime's sysmon sleeps 20 us only while it keeps
 * retaking Ps and backs off to 10 ms when idle (and longer on Linux: timer
 * slack); here its period is fixed. */
#ifndef GOSIM_SYSMON_H
#define GOSIM_SYSMON_H

#include "state.h"

/* sysmon's records start at zero and the runtime's clock (nanotime) is far
 * past zero when a program starts, so a record never written reads as
 * "long ago": a fresh P's first syscall (p.syscalltick == pd.syscalltick
 * == 0) is retaken at sysmon's first look, work or not. */
#define SYSMON_LONG_AGO (INT64_MIN / 4)

void sysmon_pass(struct sim *s);
int sysmon_due(const struct sim *s);
int64_t sysmon_next_wake(const struct sim *s);

#endif
