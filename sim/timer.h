/* timer.h: per-P timer heaps (runtime/time.go, Go 1.14+ as in 1.23).
 *
 * time.Sleep (timeSleep, then resetForSleep after the park) parks the G
 * with waitReasonSleep and adds a timer to the heap of the P it ran on
 * (timer.maybeAdd: the current P's timers); the G holds no M while it
 * sleeps. Timers run in timers.check: findRunnable runs its own P's at its
 * top (checkTimers), and stealWork, on its last pass, runs those of every
 * other P that has any (timerpMask, idle Ps included), so an idle P's M,
 * asleep in netpoll until the earliest timer (findRunnable's pollUntil),
 * runs a busy P's timer when it falls due. A timer that fires readies its G
 * with goready (goroutineReady): into the runnext of the P running the
 * check, the owner's or the thief's. A select's `after` case is a timer
 * the same way, woken with its case index.
 *
 * When a timer becomes a P's earliest, the P's timer slot in the event
 * queue is set to its time (wakeNetPoller: an M blocked in netpoll is woken
 * for it), so the driver has an instant there; the scheduler then finds it
 * due. A timer whose G was woken otherwise (a select's other case) is
 * stale: it stays in the heap, counted by timerslen as the runtime counts
 * its zombies, until it reaches the top (cleanHead).
 *
 * Simplification: ties in `when` fire in the order the timers were added
 * (the runtime's 4-ary heap does not promise an order). The runtime's
 * sysmon starts an M for an overdue timer only on netbsd
 * (needSysmonWorkaround), so on Linux, as here, a timer on a P that is
 * busy while no P is idle waits for the owner's next schedule() or another
 * P's stealWork. --steal=off turns off taking other Ps' goroutines, not
 * their timers: the timer half of stealWork still runs.
 *
 * Invariants (check.c): each heap is ordered; s->ntimers is the number of
 * entries in all heaps. */
#ifndef GOSIM_TIMER_H
#define GOSIM_TIMER_H

#include "state.h"

/* addtimer/maybeAdd: G gi (just parked, parkgen current) is woken at
 * `when` with g.param = param, from P pi's heap. Returns 0, or -1 out of
 * memory (SIM_BROKEN). */
int timer_add(struct sim *s, int32_t pi, int32_t gi, int64_t when, int32_t param);
/* timers.check on P pi's heap, run by P runner (its runnext gets the Gs):
 * runs every timer due now. Returns how many Gs it readied. */
int timer_check(struct sim *s, int32_t pi, int32_t runner);
/* P pi's timer slot fired: drop stale timers at the top and set the slot
 * to the earliest live one still ahead. */
void timer_wake(struct sim *s, int32_t pi);
/* P pi's earliest live timer (cleanHead first), or INT64_MAX. */
int64_t timer_next(struct sim *s, int32_t pi);
/* Whether some P has a live timer due now. */
int timer_any_due(struct sim *s);
void timers_free(struct sim *s);

#endif
