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
/* The earliest timer fell due: an M blocked in netpoll returns. */
void netpoll_timer_wake(struct sim *s);
/* sysmon's netpoll: returns 1 if it injected Gs. */
int netpoll_sysmon(struct sim *s);
/* When sysmon's next poll falls due (INT64_MAX: not while one blocks). */
int64_t netpoll_sysmon_deadline(const struct sim *s);

#endif
