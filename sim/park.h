/* park.h: the one protocol for blocking and waking (runtime/proc.go's
 * gopark/goready, runtime2.go's sudog).
 *
 * A G that must wait parks: park_gopark() takes it off its M (dropg) and
 * marks it waiting with a wait reason (what scheddetail prints); the op
 * then puts one sudog per object it waits on into that object's wait
 * queue (park_enqueue). Whoever makes the wait end (a channel's peer, a
 * timer, the netpoller, an unlock) takes the sudog off its queue and calls
 * park_goready(): every other sudog of the G is unlinked and recycled (a
 * select waits on many queues and is woken by the first), g.param says
 * what happened, and the G is put in the waker's P's runnext, as
 * ready(gp, next=true) does. Timers, the netpoller, channels, mutexes and
 * wait groups differ only in who calls goready and when. The G's op is
 * resumed by exec.c, which reads g.param: only exec.c runs a G's program.
 *
 * The common case needs no sudog: a plain channel op's G (not a select's)
 * that finds the queue empty waits inline in it (waitq.g1, park_enqueue_g),
 * at its head; whoever comes after it gets a sudog behind it, and the
 * queue stays FIFO (park_take). A G waiting inline has no sudog
 * (g.waiting is empty), so goready has none to recycle.
 *
 * Invariants (check.c): a sudog is in at most one queue; a queue's size is
 * its length (its inline G and its sudogs); every sudog on a waiting G's
 * list is in the queue its kind and object name; a queue's inline G waits
 * with no sudog, for the queue's kind; free sudogs are on the free list;
 * only channel queues have an inline G. */
#ifndef GOSIM_PARK_H
#define GOSIM_PARK_H

#include "state.h"

/* Which queue of which object a sudog waits in. */
enum wait_kind { WQ_CHAN_RECV, WQ_CHAN_SEND, WQ_SEMA, WQ_WG, WQ_FDMU /* a socket's read lock */, WQ__N };

/* gopark: G gi (running) leaves its M and waits with reason wr on object
 * obj (-1: none, or several: a select); the trace record carries both and
 * gives `why` (enum sim_reason). */
void park_gopark(struct sim *s, int32_t gi, int wr, int why, int32_t obj);
/* acquireSudog + enqueue: G gi waits at the tail of q. Returns the sudog,
 * or -1 out of memory (the run is then SIM_BROKEN). */
int32_t park_enqueue(struct sim *s, struct waitq *q, int32_t gi, int kind, int32_t obj, int icase);
/* enqueue for a plain channel op (no select case): G gi waits at the tail
 * of channel queue q, inline if q is empty (no sudog), else with a sudog
 * of kind WQ_CHAN_RECV or WQ_CHAN_SEND on channel ci; -1 out of memory. */
int park_enqueue_g(struct sim *s, struct waitq *q, int32_t gi, int kind, int32_t ci);
/* A waiter taken off a queue: its G (-1: the queue was empty) and its
 * sudog (-1: it waited inline). */
struct waiter {
	int32_t g, sg;
};
/* dequeue for a channel queue: its first waiter, the inline one first
 * (-1s if empty); a sudog stays on its G's list until park_goready
 * recycles it. */
struct waiter park_take(struct sim *s, struct waitq *q);
/* The same from the tail (closechan's LIFO gList readies the last first). */
struct waiter park_take_last(struct sim *s, struct waitq *q);
/* Moves queued sudog sg to the head of q (semacquire's lifo). */
void park_requeue_first(struct sim *s, struct waitq *q, int32_t sg);
/* dequeue for a queue of sudogs only (a semaphore's: no inline G): takes
 * the first sudog off q (-1 if empty); it stays on its G's list until
 * park_goready recycles it. */
int32_t park_dequeue(struct sim *s, struct waitq *q);
/* goready: wakes the G that sudog sg (already off its queue) belongs to,
 * or G gi when sg is -1 (a wait with no queue: a timer, the netpoller; or
 * an inline one, off its queue):
 * its other sudogs leave their queues, g.param = param, and it goes to P
 * pi's runnext with trace reason `why`. */
void park_goready(struct sim *s, int32_t sg, int32_t gi, int32_t pi, int32_t param, int why);
/* park_take + park_goready for q's inline G (q->g1 >= 0, a channel
 * queue's: park_enqueue_g): off the queue, g.param = param, into P pi's
 * runnext. It has no sudog (g.waiting is empty), so none is recycled. */
void park_ready_inline(struct sim *s, struct waitq *q, int32_t pi, int32_t param, int why);
/* The same without queueing the G anywhere: it becomes runnable and the
 * caller places it (injectglist, or running it at once). */
void park_unpark(struct sim *s, int32_t sg, int32_t gi, int32_t param);

/* The queue a sudog of this kind on object obj waits in. */
struct waitq *park_queue(struct sim *s, int kind, int32_t obj);
/* Calls fn on every wait queue of the state (check.c walks them). */
int park_each_queue(struct sim *s, int (*fn)(struct sim *s, const struct waitq *q, int kind, int32_t obj));

static inline struct waitq waitq_empty(void) { return (struct waitq){ .first = -1, .last = -1, .g1 = -1, .size = 0 }; }

#endif
