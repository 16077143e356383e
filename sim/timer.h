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
 * The seed model: when a timer becomes a P's earliest, the P's timer slot
 * in the event queue is set to its time (an M blocked in netpoll is woken
 * for it), so the driver has an instant there; the scheduler then finds
 * it due. A timer whose G was woken otherwise (a select's other case) is
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
 * A time.Ticker (workload op `tick`) is a periodic channel timer as Go
 * 1.23 makes it (time/tick.go NewTicker, runtime/time.go; synchronous
 * timer channels, asynctimerchan=0): NewTicker sets when = now + period;
 * a receiver that blocks (chanrecv -> blockTimerChan) puts the timer on
 * its P's heap at `when`, parked as "chan receive"; the timer runs like a
 * sleep's (timers.check) and unlockAndRun moves it to
 * when + period*(1 + delay/period), on the grid, skipping the fires it
 * ran late for, before sendTime readies the receiver. While nobody
 * receives the timer is out of the heap (needsAdd: blocked > 0), so the
 * ticker costs nothing; the next receive runs a fire that fell due in the
 * meantime at once (chanrecv -> maybeRunChan -> unlockAndRun): the slow
 * receiver gets that one tick without waiting, and the fires between are
 * lost. Tickers are found by (goid, period): one per goroutine per
 * period, made at its first receive, dropped when the goroutine exits
 * (a Ticker no longer referenced is collected, Go 1.23).
 *
 * Simplification: the runtime leaves a ticker's timer in the heap, as a
 * zombie at its next when, after its receiver wakes (unblockTimerChan),
 * until cleanHead or the next block; here it leaves the heap when it
 * fires, and a block adds it again. Nothing counts zombie timers in the
 * output. The ticker's value (the time it fired) is not modelled. Every
 * --go release gets 1.23's synchronous channel: before 1.23 (asynctimerchan)
 * the timer stays in the heap and runs at each fire while nobody receives
 * (sendTime into the full buffer: a timer run that readies no G), which
 * here does not happen; what a receiver gets is the same (one stale tick,
 * the grid kept).
 * The M asleep in netpoll for the earliest timer: in the runtime model it
 * wakes when netpoll_epoll.go's whole-millisecond epoll_wait does
 * (netpoll.h: netpoll_wait_end), so a timer an idle M waits for (a
 * sleep's, a ticker's) fires up to about 1 ms late, and the P's slot is
 * not used. A timer that is its P's new earliest calls wakeNetPoller
 * (maybeAdd; netpoll_timer_added).
 * Simplification: in the seed model and with --netpoll-wait=exact it
 * wakes at the timer's `when` (the P's timer slot, EVQ_TIMER), not at
 * epoll_wait's whole millisecond.
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
/* The earliest live timer on any P (cleanHead first; findRunnable's
 * checkTimersNoP over timerpMask), or INT64_MAX. */
int64_t timer_earliest(struct sim *s);
/* Whether some P has a live timer due now. */
int timer_any_due(struct sim *s);
void timers_free(struct sim *s);

/* G gi's ticker of this period (time.NewTicker at its first receive), or
 * -1 out of memory (SIM_BROKEN). */
int32_t ticker_get(struct sim *s, int32_t gi, int64_t period);
/* A receive from ticker tk finds a fire due (maybeRunChan): 1, the next
 * fire moved on; 0: nothing due, the receiver must block. */
int ticker_take(struct sim *s, int32_t tk);
/* blockTimerChan: G gi, just parked, waits for ticker tk's next fire on P
 * pi's heap. Returns 0, or -1 out of memory. */
int ticker_block(struct sim *s, int32_t pi, int32_t gi, int32_t tk);
/* The goroutine goid exited: its tickers go. */
void tickers_drop(struct sim *s, int32_t goid);

#endif
