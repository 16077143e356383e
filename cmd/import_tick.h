/* import_tick.h: a short-period time.Ticker told from its wakes (gosim
 * import, docs/import.md: the bracket rule), for periods under the window
 * rule's 2.5 ms (import.c ticker_period), where netpoll's whole-millisecond
 * lateness is as wide as the period and the wakes' phases alone say nothing.
 *
 * What a Go 1.23 ticker's wakes must satisfy (runtime/time.go): its timer
 * fires at `when` or later (a timer never runs early: timers.check runs
 * those with when <= now), and unlockAndRun then moves `when` to
 * when + period*(1 + delay/period), the first grid point after the run's
 * `now`: so between two wakes of its receiver, f' and f, there lies a point
 * of the grid made + k*period (made: time.NewTicker). A receive that finds a
 * fire already due takes it without blocking and leaves no event; that
 * only puts more grid points between two wakes. The check's `now` is read
 * before its timers run (stealWork's at findRunnable's top), so the next
 * grid point can lie a little before the observed wake: the interval
 * tested is (f' - TICK_STALE_NS, f]. A loop of sleeps or time.After waits
 * has no such grid: each wait starts when the loop reaches it, and lasts at
 * least its duration, so an interval shorter than the period says nothing
 * for a sleep and only fits a ticker's grid by chance. The grid must also
 * pass through (made_lo - TICK_STALE_NS, made_hi], from the goroutine's
 * first run to its first receive: there it made its ticker, and there the
 * replay's tick op makes it (the language's `tick` makes it at its first
 * receive, README); this interval is one more held.
 *
 * The evidence, for a period P (whole us) and the phase that the most
 * intervals shorter than P hold: a log-likelihood ratio in bits of "a
 * ticker of period P" against "wakes at random phases", summed over those
 * intervals: log2(P / len) for one the grid holds, log2(q P / (P - len))
 * for one it misses, q = 1/64 (a wake whose trace event came late: a
 * thread that lost its CPU between the check's now and its goready, seen
 * at 4 Ps on 2 CPUs). Intervals of P or longer hold a grid point whatever
 * the phase and count for nothing. P is the period of the most bits; among
 * periods within a bit of that (the wakes cannot tell 1999 us from 2000 us
 * over a few hundred ticks) the roundest in us (most trailing decimal
 * zeros, as periods are written: 2*time.Millisecond), then the most bits.
 * It is a ticker when those bits are at least TICK_BITS and at most one
 * interval in 32 is missed; the search over ~2,000 periods and their phases
 * found at most 20.1 bits in 33 real loops of <-time.After(D) and
 * Timer.Reset(D) (D 0.9-2 ms, beside CPU-bound work or not, GOMAXPROCS 1, 2
 * and 4), and 34.0-170.8 in the ticker twin's 1 ms and 2 ms tickers (its 15
 * real runs of /work/saved/if1: docs/import.md).
 * Simplification: the period is whole microseconds (the workload's
 * resolution); a ticker made before its goroutine started (passed in) is not
 * told, its waits stay sleeps; a ticker that never fires late (gosim's own
 * trace with --netpoll-wait=exact) leaves no interval shorter than its
 * period and is not told either. */
#ifndef GOSIM_IMPORT_TICK_H
#define GOSIM_IMPORT_TICK_H

#include <stddef.h>
#include <stdint.h>

#define TICK_STALE_NS 10000 /* how far before a wake the check's now can lie */
#define TICK_BITS 28        /* the evidence a ticker needs, in bits */
#define TICK_MISS_SHARE 32  /* at most one interval in this many missed */

/* The period in ns (whole us, below below_ns) of the ticker whose receives
 * were woken at wake[0..n) (ascending), made in (made_lo, made_hi] (the
 * stint that ends in the first receive; made_hi <= made_lo: unknown), or 0
 * when the wakes do not show one; -1 out of memory. *bits, if not NULL,
 * gets the evidence of the period returned (or of the best one seen). */
int64_t tick_short_period(const int64_t *wake, size_t n, int64_t made_lo, int64_t made_hi, int64_t below_ns,
			  double *bits);

#endif
