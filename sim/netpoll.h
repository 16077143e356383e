/* netpoll.h: the network poller (runtime/netpoll.go, proc.go's netpoll
 * callers, Go 1.23).
 *
 * {"net": DUR} is a read whose data arrives DUR after the call: the G
 * parks (gopark, waitReasonIOWait) and holds no M ({"read": S} parks the
 * same way until a write to S: socket.h). When its data arrives
 * it is ready in the poller (netpollready), still waiting, until a netpoll
 * call returns it:
 *  - an M blocked in netpoll returns at once (findRunnable's blocking
 *    netpoll): it takes an idle P (pidleget), runs the first G and hands
 *    the rest to injectglist; with no idle P, injectglist gets them all;
 *  - findRunnable, after the local and global queues and before stealing,
 *    polls without blocking when no M is blocked in netpoll
 *    (sched.lastpoll != 0): it runs the first G, injectglist the rest;
 *  - sysmon polls when nobody has for 10 ms (lastpoll + 10ms < now) and
 *    injects what it finds.
 * injectglist: with no P (sysmon, an M without one) every G goes to the
 * global queue; otherwise as many as there are idle Ps go to the global
 * queue (startIdle) and the rest to the current P's ring.
 *
 * An M blocks in netpoll instead of sleeping (findRunnable's drop-P path)
 * when it gives up its P while Gs wait in the poller or timers exist
 * (pollUntil != 0) and no other M is blocked there (lastpoll.Swap(0)); it
 * returns when data arrives or at the earliest timer (its pollUntil): in
 * the seed model exactly then, in the runtime model when epoll_wait's
 * whole-millisecond timeout ends (netpoll_wait_end), so a timer an idle M
 * waits for runs up to ~1 ms late (a P running Go code runs its own on
 * time, checkTimers; a spinning M others', stealWork).
 * The blocked M is in findRunnable's netpoll(delay), not stopm: in the
 * runtime model it is a thread of its own (s->netpoll_m), off the idle
 * stack, so a startm meanwhile wakes another M or creates one, and
 * schedtrace's idlethreads (sched.nmidle) leaves it out; when it returns
 * it is the M that takes the idle P (findRunnable: pidleget, acquirep), or
 * with none it stops (stopm: the idle stack). Simplification: the seed
 * model keeps it one of the idle Ms. The poller is initialised
 * (netpollGenericInit) by the first timer or net op, as in the runtime. */
#ifndef GOSIM_NETPOLL_H
#define GOSIM_NETPOLL_H

#include "state.h"

/* netpollblock: the running G gi parks in the poller (gopark,
 * waitReasonIOWait; obj: its socket, -1 for a net read), until
 * netpoll_ready. */
void netpoll_park(struct sim *s, int32_t gi, int32_t obj);
/* The running G gi reads; its data arrives at `when`. Parks it. */
void netpoll_wait(struct sim *s, int32_t gi, int64_t when);
/* netpollready: G gi (park gen) is ready in the poller, still waiting,
 * until a netpoll returns it: the event queue's EVQ_NET_READY for a net
 * read, a write for a socket's parked reader (socket.h). */
void netpoll_ready(struct sim *s, int32_t gi, uint64_t gen);
/* The poller is in use (netpollinited): the first timer or net op. */
static inline void netpoll_init(struct sim *s) { s->netpoll_inited = 1; }
/* findRunnable's non-blocking netpoll (before stealing) for P pi: the
 * first G ready, the rest injected; -1 if none. Inline, the test that
 * nearly always fails (no G ready, or the poller's blocked M returns
 * them); netpoll_poll_ready the rest. */
int32_t netpoll_poll_ready(struct sim *s, int32_t pi);
static inline int32_t netpoll_poll(struct sim *s, int32_t pi)
{
	if (s->netpoll_waiters == 0 || s->netpoll_blocked || s->netready.size == 0)
		return -1;
	return netpoll_poll_ready(s, pi);
}
/* The M blocked in netpoll returns if data is ready: it takes the idle P
 * on top (*pi, now running on an M) for the first G (*gi, for the caller
 * to execute) and injects the rest; with no idle P it injects them all.
 * Returns 1 if there is a G to execute. */
int netpoll_block_return(struct sim *s, int32_t *pi, int32_t *gi);
/* findRunnable's drop-P path: this M blocks in netpoll if it should (1:
 * it does); in
 * the runtime model until poll_until (findRunnable's pollUntil: the
 * earliest timer, timer_earliest; INT64_MAX: none), rounded as
 * netpoll_wait_end says. The seed model ignores poll_until. */
int netpoll_block(struct sim *s, int64_t poll_until);
/* Right after netpoll_block said 1 and the M stopped (mput): the runtime
 * model takes it back off the idle stack, as the M blocked in netpoll. */
void netpoll_hold_m(struct sim *s);
/* The seed model: the earliest timer fell due, an M blocked in netpoll
 * returns. (The runtime model's returns when its epoll_wait does.) */
void netpoll_timer_wake(struct sim *s);
/* The runtime model's whole-millisecond netpoll wait is on (--netpoll-wait
 * =ms, its default); off, the M waits exactly until the earliest timer, as
 * in the seed model. */
static inline int netpoll_whole_ms(const struct sim *s) { return s->cfg.netpoll_wait == NETPOLL_WAIT_MS; }
/* netpoll_epoll.go netpoll(delay), the wait findRunnable's blocking
 * netpoll makes for pollUntil (proc.go: delay := pollUntil - now, 0 if
 * negative; -1, blocking, with no timer: poll_until INT64_MAX):
 *	if delay < 0 { waitms = -1 } else if delay == 0 { waitms = 0 }
 *	else if delay < 1e6 { waitms = 1 }
 *	else if delay < 1e15 { waitms = int32(delay / 1e6) }
 *	else { waitms = 1e9 }
 *	n, errno := syscall.EpollWait(epfd, events[:], int32(len(events)), waitms)
 * so the M wakes whole milliseconds later, a delay under 1 ms as 1 ms,
 * and a truncated one early (findRunnable then finds nothing, blocks
 * again with the remainder: under 1 ms, 1 ms more). Linux's epoll_wait
 * sleeps on an hrtimer with the task's timer slack (fs/eventpoll.c
 * ep_poll -> select_estimate_accuracy, fs/select.c: the larger of
 * current->timer_slack_ns and 0.1% of the timeout) and overshoots as
 * usleep does: the model adds the usleep figure, cfg.sysmon_slack_us (the
 * runtime model's 70 us, as runqgrab's usleep(3) gets), or 0.1% if larger.
 * Returns when the M wakes: INT64_MAX if it blocks until woken, `now` if
 * it does not wait. */
int64_t netpoll_wait_end(int64_t now, int64_t poll_until, int64_t slack_us);
/* EVQ_NETPOLL_WAKE (the runtime model): the blocked M's epoll_wait
 * returned (timed out, or netpollBreak). findRunnable's code after
 * netpoll(delay): pollUntil = 0, lastpoll = now, pidleget: with an idle P
 * the M acquires it (awake: no --thread-wake) and starts findRunnable over
 * (goto top; sched_all runs it): it runs a due timer's G, or finds nothing
 * and blocks again for the next; with none, stopm. */
void netpoll_wake(struct sim *s);
/* The runtime model's wakeNetPoller(when), from timer.maybeAdd when the
 * timer is its P's new earliest: with an M blocked in netpoll for a later
 * pollUntil, netpollBreak (its epoll_wait returns --thread-wake later: an
 * eventfd write wakes it as a futex would); with none blocked (lastpoll
 * != 0), wakep, to get an M there.
 * Simplification: findRunnable's own netpollBreak (an M that drops its P
 * with an earlier pollUntil than the poller's) is not made: every timer
 * is added through maybeAdd, whose break already keeps the poller's
 * pollUntil the earliest. */
void netpoll_timer_added(struct sim *s, int64_t when);
/* sysmon's netpoll: returns 1 if it injected Gs. */
int netpoll_sysmon(struct sim *s);
/* When sysmon's next poll falls due (INT64_MAX: not while one blocks). */
int64_t netpoll_sysmon_deadline(const struct sim *s);

#endif
