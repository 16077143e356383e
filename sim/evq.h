/* evq.h: the event queue: a binary min-heap of timed events ordered by
 * (time, sequence number taken when scheduled), so ties never depend on the
 * heap's internals. Cancelled events are not removed: each carries a
 * generation that its handler compares with its owner's (lazy deletion). */
#ifndef GOSIM_EVQ_H
#define GOSIM_EVQ_H

#include <stdint.h>

enum evq_kind { EVQ_CPU_DONE, EVQ_SYSCALL_DONE };

struct evq_item {
	int64_t t;
	uint64_t seq;
	uint64_t gen;
	int32_t id;   /* P for EVQ_CPU_DONE, G for EVQ_SYSCALL_DONE */
	uint8_t kind;
};

struct evq {
	struct evq_item *a;
	int64_t n, cap;
	uint64_t seq;
};

int evq_push(struct evq *q, int64_t t, uint8_t kind, int32_t id, uint64_t gen);
int evq_pop(struct evq *q, struct evq_item *out);
static inline int evq_empty(const struct evq *q) { return q->n == 0; }
static inline int64_t evq_top_time(const struct evq *q) { return q->a[0].t; }
void evq_free(struct evq *q);

#endif
