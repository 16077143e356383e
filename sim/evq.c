/* evq.c: binary min-heap on (t, seq). */
#include "evq.h"

#include <stdlib.h>

static int before(const struct evq_item *a, const struct evq_item *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void swap(struct evq_item *a, struct evq_item *b)
{
	struct evq_item t = *a;
	*a = *b;
	*b = t;
}

int evq_push(struct evq *q, int64_t t, uint8_t kind, int32_t id, uint64_t gen)
{
	if (q->n == q->cap) {
		int64_t cap = q->cap ? q->cap * 2 : 64;
		struct evq_item *a = realloc(q->a, (size_t)cap * sizeof *a);
		if (!a)
			return -1;
		q->a = a;
		q->cap = cap;
	}
	int64_t i = q->n++;
	q->a[i] = (struct evq_item){ .t = t, .seq = q->seq++, .gen = gen, .id = id, .kind = kind };
	while (i > 0 && before(&q->a[i], &q->a[(i - 1) / 2])) {
		swap(&q->a[i], &q->a[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

int evq_pop(struct evq *q, struct evq_item *out)
{
	if (q->n == 0)
		return 0;
	*out = q->a[0];
	q->a[0] = q->a[--q->n];
	for (int64_t i = 0;;) {
		int64_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < q->n && before(&q->a[l], &q->a[m]))
			m = l;
		if (r < q->n && before(&q->a[r], &q->a[m]))
			m = r;
		if (m == i)
			break;
		swap(&q->a[i], &q->a[m]);
		i = m;
	}
	return 1;
}

void evq_free(struct evq *q)
{
	free(q->a);
	*q = (struct evq){ 0 };
}
