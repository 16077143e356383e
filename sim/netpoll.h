/* netpoll.h: the network poller (runtime/netpoll.go, proc.go's netpoll
 * callers, Go 1.23).
 *
 * {"net": DUR} is a read whose data arrives DUR after the call: the G
 * parks (gopark, waitReasonIOWait) and holds no M. When its data arrives
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
 * returns when data arrives or at the earliest timer (its pollUntil).
 * Simplification: the blocked M is not a separate thread in the model (it
 * is one of the idle Ms); the poller is initialised (netpollGenericInit)
 * by the first timer or net op, as in the runtime. */
#ifndef GOSIM_NETPOLL_H
#define GOSIM_NETPOLL_H

#include "state.h"

/* The running G gi reads; its data arrives at `when`. Parks it. */
void netpoll_wait(struct sim *s, int32_t gi, int64_t when);
/* The event queue's EVQ_NET_READY for G gi, park gen. */
void netpoll_ready(struct sim *s, int32_t gi, uint64_t gen);
/* The poller is in use (netpollinited): the first timer or net op. */
static inline void netpoll_init(struct sim *s) { s->netpoll_inited = 1; }
/* findRunnable's non-blocking netpoll (before stealing) for P pi: the
 * first G ready, the rest injected; -1 if none. */
int32_t netpoll_poll(struct sim *s, int32_t pi);
/* The M blocked in netpoll returns if data is ready: it takes the idle P
 * on top (*pi, now running on an M) for the first G (*gi, for the caller
 * to execute) and injects the rest; with no idle P it injects them all.
 * Returns 1 if there is a G to execute. */
int netpoll_block_return(struct sim *s, int32_t *pi, int32_t *gi);
/* findRunnable's drop-P path: this M blocks in netpoll if it should. */
void netpoll_block(struct sim *s);
/* The earliest timer fell due: an M blocked in netpoll returns (the seed
 * model; the runtime model's returns when its epoll_wait times out). */
void netpoll_timer_wake(struct sim *s);
/* netpoll_epoll.go netpoll(delay), the wait findRunnable's blocking
 * netpoll makes for pollUntil (proc.go: delay := pollUntil - now, 0 if
 * negative; -1, blocking, with no timer: poll_until INT64_MAX):
 *	if delay < 0 { waitms = -1 } else if delay == 0 { waitms = 0 }
 *	else if delay < 1e6 { waitms = 1 }
 *	else if delay < 1e15 { waitms = int32(delay / 1e6) }
 *	else { waitms = 1e9 }
 *	n, errno := syscall.EpollWait(epfd, events[:], int32(len(events)), waitms)
 * so the M wakes whole milliseconds later, a delay under 1 ms as 1 ms, and
 * a truncated one early (findRunnable then finds nothing, blocks again
 * with the remainder, under 1 ms: 1 ms more). Linux's epoll_wait sleeps
 * on an hrtimer with the task's timer slack (fs/eventpoll.c ep_poll:
 * slack = select_estimate_accuracy(), fs/select.c: the larger of
 * current->timer_slack_ns and 0.1% of the timeout), and wakes at its end,
 * as usleep does (sysmon.h): the model adds the same figure,
 * cfg.sysmon_slack_us, or waitms us if larger. Returns when the M wakes,
 * INT64_MAX if it blocks until woken, `now` if it does not wait. */
int64_t netpoll_wait_end(int64_t now, int64_t poll_until, int64_t slack_us);
/* EVQ_NETPOLL_WAKE: the blocked M's epoll_wait timed out: it returns,
 * and blocks again if no timer is due yet (it woke early).
 * Simplification: an early wake does not show the M taking an idle P,
 * finding nothing and dropping it (findRunnable's `goto top`). */
void netpoll_wake(struct sim *s);
/* wakeNetPoller: a timer at `when` was added. In the runtime model an M
 * blocked in netpoll for a later pollUntil is woken (netpollBreak) and
 * blocks again for the new earliest; with none blocked, wakep (an idle P,
 * no spinning M) starts an M that finds nothing and blocks in netpoll.
 * Simplification: that break and re-block, and that wakep's M, take no
 * time and show no P or M: the blocked M is one of the idle ones. */
void netpoll_timer_added(struct sim *s, int64_t when);
/* The runtime model, an M blocked in netpoll: a timer due on an idle P is
 * not work an idle P finds until that M's epoll_wait times out. */
int netpoll_timers_hidden(const struct sim *s);
/* sysmon's netpoll: returns 1 if it injected Gs. */
int netpoll_sysmon(struct sim *s);
/* When sysmon's next poll falls due (INT64_MAX: not while one blocks). */
int64_t netpoll_sysmon_deadline(const struct sim *s);

#endif
