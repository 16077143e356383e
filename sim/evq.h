/* evq.h: the event queue: a binary min-heap of timed events ordered by
 * (time, sequence number taken when scheduled), so ties never depend on the
 * heap's internals.
 *
 * Some owners have at most one pending event, a deadline that moves: each
 * P's CPU-done (the end of its running G's CPU segment). Those are keyed by
 * a slot (the P's index): evq_schedule replaces the slot's pending event,
 * evq_cancel removes it, so a preemption leaves nothing behind and the
 * queue holds at most one event per slot plus the unkeyed ones (system
 * calls in flight): its size follows the program's state, never how long
 * it has run. Invariant: pos[slot] is the heap index of the slot's event,
 * or -1, and a[i].slot names the slot whose pos is i (or -1).
 *
 * A popped keyed event is taken out lazily: it stays at the root (held)
 * until the next call, and if that call reschedules the same slot (the
 * common case: a P's next CPU segment) the new event replaces it there with
 * one sift down instead of a sift down and a sift up. Any other call takes
 * it out first. The order events come out in depends only on (t, seq), not
 * on the heap's shape, so this changes no run. */
#ifndef GOSIM_EVQ_H
#define GOSIM_EVQ_H

#include <stddef.h>
#include <stdint.h>

/* EVQ_MWAKE (the runtime model): the instant the spinning M on P id runs
 * findRunnable: its thread has woken (--thread-wake), or runqgrab's
 * usleep(3) is over (sched.h). */
/* EVQ_CPU_SLICE (--cpus): CPU id's time slice ends (cpu.h).
 * EVQ_CPU_BALANCE (--cpus, --cpu-place=last): the load balancer runs (cpu.h). */
/* EVQ_CPU_BURST (--cpus): the thread on CPU id ends a burst of its own
 * CPU work (cpu.h). */
/* EVQ_NETPOLL_WAKE (the runtime model): the epoll_wait of the M blocked in
 * netpoll returns: it timed out, or netpollBreak woke it (netpoll.h). */
enum evq_kind { EVQ_CPU_DONE, EVQ_SYSCALL_DONE, EVQ_TIMER, EVQ_NET_READY, EVQ_MWAKE, EVQ_CPU_SLICE, EVQ_CPU_BALANCE, EVQ_NETPOLL_WAKE, EVQ_CPU_BURST };

struct evq_item {
	int64_t t;
	uint64_t seq;
	uint64_t gen;
	int32_t id;   /* P for EVQ_CPU_DONE, EVQ_TIMER and EVQ_MWAKE, CPU for EVQ_CPU_SLICE and EVQ_CPU_BURST, G for EVQ_SYSCALL_DONE and EVQ_NET_READY */
	int32_t slot; /* the keyed slot, or -1 */
	uint8_t kind;
};

struct evq {
	struct evq_item *a;
	int64_t n, cap;
	uint64_t seq;
	int64_t *pos;   /* per slot: heap index of its pending event, or -1 */
	int32_t nslots;
	uint8_t held;   /* a[0] was popped and is not yet taken out */
	struct evq_item popped; /* the last unkeyed event popped (evq_pop_at) */
};

/* A queue with nslots keyed slots. Returns 0, or -1 when out of memory. */
int evq_init(struct evq *q, int32_t nslots);
/* An unkeyed event. Returns 0, or -1 when out of memory. */
int evq_push(struct evq *q, int64_t t, uint8_t kind, int32_t id, uint64_t gen);
/* evq_schedule's cases beyond its inline one (evq.c). */
int evq_schedule_slow(struct evq *q, int32_t slot, int64_t t, uint8_t kind, int32_t id, uint64_t gen);
/* Slot's one pending event is now this one (a fresh sequence number, as if
 * pushed now); an earlier one is replaced. Returns 0, or -1 when out of
 * memory. */
static inline int evq_schedule(struct evq *q, int32_t slot, int64_t t, uint8_t kind, int32_t id, uint64_t gen)
{
	/* The common case inline: the slot's event has just popped (a P's
	 * next CPU segment) and the new one is earlier than both of the
	 * root's children, so it takes the held root's place. Its sequence
	 * number is the newest, so it goes first only if its time is
	 * earlier. */
	struct evq_item *a = q->a;
	if (q->held && q->pos[slot] == 0 && (q->n < 2 || t < a[1].t) && (q->n < 3 || t < a[2].t)) {
		q->held = 0;
		a[0].t = t;
		a[0].seq = q->seq++;
		a[0].gen = gen;
		a[0].id = id;
		a[0].kind = kind; /* slot and pos are right already */
		return 0;
	}
	return evq_schedule_slow(q, slot, t, kind, id, gen);
}
/* Removes slot's pending event, if any. */
void evq_cancel(struct evq *q, int32_t slot);
int evq_pop(struct evq *q, struct evq_item *out);
const struct evq_item *evq_pop_unkeyed(struct evq *q);
static inline int evq_empty(const struct evq *q) { return q->n == q->held; }
/* Whether slot has an event still to pop (a held one has popped). */
static inline int evq_pending(const struct evq *q, int32_t slot) { return q->pos[slot] > 0 || (q->pos[slot] == 0 && !q->held); }
static inline int64_t evq_size(const struct evq *q) { return q->n - q->held; }
/* Takes a held popped event out (see above). */
void evq_settle(struct evq *q);
/* The next event's time (the queue must not be empty). */
static inline int64_t evq_top_time(struct evq *q)
{
	if (q->held)
		evq_settle(q);
	return q->a[0].t;
}
/* The next event, popped, if it is due at t (no event is before t); NULL
 * if none is. The pointer is valid until the next call: a keyed event is
 * read where it is held (the root), an unkeyed one from a copy. */
static inline const struct evq_item *evq_pop_at(struct evq *q, int64_t t)
{
	if (q->held) { /* the next event is the earlier child: none due, and the held one can still be replaced */
		if ((q->n < 2 || q->a[1].t != t) && (q->n < 3 || q->a[2].t != t))
			return NULL;
		evq_settle(q);
	}
	if (q->n == 0 || q->a[0].t != t)
		return NULL;
	if (q->a[0].slot < 0)
		return evq_pop_unkeyed(q);
	q->held = 1; /* taken out by the next call, or replaced by its reschedule */
	return &q->a[0];
}
void evq_free(struct evq *q);

#endif
