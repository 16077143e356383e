/* evq.c: binary min-heap on (t, seq), with keyed slots (see evq.h). */
#include "evq.h"

#include <stdlib.h>

int evq_init(struct evq *q, int32_t nslots)
{
	*q = (struct evq){ .nslots = nslots };
	q->pos = malloc((size_t)(nslots > 0 ? nslots : 1) * sizeof *q->pos);
	if (!q->pos)
		return -1;
	for (int32_t i = 0; i < nslots; i++)
		q->pos[i] = -1;
	return 0;
}

static int before(const struct evq_item *a, const struct evq_item *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/* a[i] = it, keeping pos right. */
static void place(struct evq *q, int64_t i, const struct evq_item *it)
{
	q->a[i] = *it;
	if (it->slot >= 0)
		q->pos[it->slot] = i;
}

/* The item it, whose place is i, moved up to where it belongs (siftup). */
static void sift_up(struct evq *q, int64_t i, const struct evq_item *it)
{
	while (i > 0 && before(it, &q->a[(i - 1) / 2])) {
		place(q, i, &q->a[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	place(q, i, it);
}

/* The item it, whose place is i, moved down to where it belongs (siftdown). */
static void sift_down(struct evq *q, int64_t i, const struct evq_item *it)
{
	for (;;) {
		int64_t l = 2 * i + 1, r = l + 1, m = l;
		if (l >= q->n)
			break;
		if (r < q->n && before(&q->a[r], &q->a[l]))
			m = r;
		if (!before(&q->a[m], it))
			break;
		place(q, i, &q->a[m]);
		i = m;
	}
	place(q, i, it);
}

/* The item it put at i (a's item there is being replaced) and moved up
 * or down to where it belongs. */
static void fix(struct evq *q, int64_t i, const struct evq_item *it)
{
	if (i > 0 && before(it, &q->a[(i - 1) / 2]))
		sift_up(q, i, it);
	else
		sift_down(q, i, it);
}

static int add(struct evq *q, const struct evq_item *it)
{
	if (q->n == q->cap) {
		int64_t cap = q->cap ? q->cap * 2 : 64;
		struct evq_item *a = realloc(q->a, (size_t)cap * sizeof *a);
		if (!a)
			return -1;
		q->a = a;
		q->cap = cap;
	}
	sift_up(q, q->n++, it);
	return 0;
}

static void remove_at(struct evq *q, int64_t i);

void evq_settle(struct evq *q)
{
	q->held = 0;
	remove_at(q, 0);
}

static inline void settle(struct evq *q)
{
	if (q->held)
		evq_settle(q);
}

int evq_push(struct evq *q, int64_t t, uint8_t kind, int32_t id, uint64_t gen)
{
	settle(q);
	struct evq_item it = { .t = t, .seq = q->seq++, .gen = gen, .id = id, .slot = -1, .kind = kind };
	return add(q, &it);
}

/* evq_schedule's other cases, out of line: inlined (LTO), their sifts
 * make every caller save registers. */
__attribute__((noinline)) int evq_schedule_slow(struct evq *q, int32_t slot, int64_t t, uint8_t kind, int32_t id,
						uint64_t gen)
{
	struct evq_item it = { .t = t, .seq = q->seq++, .gen = gen, .id = id, .slot = slot, .kind = kind };
	if (q->held && q->pos[slot] == 0) { /* the slot's event just popped, and the new one goes below the root */
		q->held = 0;
		sift_down(q, 0, &it);
		return 0;
	}
	settle(q);
	if (q->pos[slot] < 0)
		return add(q, &it);
	fix(q, q->pos[slot], &it);
	return 0;
}

/* Takes the item at i out of the heap. */
static void remove_at(struct evq *q, int64_t i)
{
	if (q->a[i].slot >= 0)
		q->pos[q->a[i].slot] = -1;
	if (i == --q->n)
		return;
	struct evq_item last = q->a[q->n];
	fix(q, i, &last);
}

void evq_cancel(struct evq *q, int32_t slot)
{
	settle(q);
	if (q->pos[slot] >= 0)
		remove_at(q, q->pos[slot]);
}

const struct evq_item *evq_pop_unkeyed(struct evq *q)
{
	q->popped = q->a[0];
	remove_at(q, 0);
	return &q->popped;
}

int evq_pop(struct evq *q, struct evq_item *out)
{
	settle(q);
	if (q->n == 0)
		return 0;
	*out = *evq_pop_at(q, q->a[0].t);
	return 1;
}

void evq_free(struct evq *q)
{
	free(q->a);
	free(q->pos);
	*q = (struct evq){ 0 };
}
