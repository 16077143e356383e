/* timer.c: the per-P timer heaps (see timer.h). */
#include "timer.h"

#include <stdlib.h>

#include "park.h"

static int before(const struct timer *a, const struct timer *b)
{
	return a->when < b->when || (a->when == b->when && a->seq < b->seq);
}

static void swap(struct timer *a, struct timer *b)
{
	struct timer t = *a;
	*a = *b;
	*b = t;
}

/* siftUp / siftDown over a binary heap. */
static void sift_up(struct timer *h, int32_t i)
{
	while (i > 0 && before(&h[i], &h[(i - 1) / 2])) {
		swap(&h[i], &h[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

static void sift_down(struct timer *h, int32_t n, int32_t i)
{
	for (;;) {
		int32_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && before(&h[l], &h[m]))
			m = l;
		if (r < n && before(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		swap(&h[i], &h[m]);
		i = m;
	}
}

/* deleteMin */
static void delete_min(struct sim *s, struct timers *ts)
{
	ts->heap[0] = ts->heap[--ts->len];
	sift_down(ts->heap, ts->len, 0);
	s->ntimers--;
}

/* The timer's G still waits for it (the same park). */
static int live(const struct sim *s, const struct timer *t)
{
	const struct g *gp = &s->allg[t->g];
	return gp->place == PL_WAITING && gp->parkgen == t->gen;
}

/* cleanHead: drop stale timers from the top. */
static void clean_head(struct sim *s, struct timers *ts)
{
	while (ts->len > 0 && !live(s, &ts->heap[0]))
		delete_min(s, ts);
}

/* The P's slot in the event queue follows its earliest timer still in
 * the future (one already due waits for a scheduler to run it: the
 * instant is now). */
static void arm(struct sim *s, int32_t pi)
{
	struct timers *ts = &s->allp[pi].timers;
	if (ts->len == 0 || ts->heap[0].when <= s->now)
		evq_cancel(&s->evq, s->nprocs + pi);
	else if (evq_schedule(&s->evq, s->nprocs + pi, ts->heap[0].when, EVQ_TIMER, pi, 0) != 0)
		sim_oom(s, "events");
}

int timer_add(struct sim *s, int32_t pi, int32_t gi, int64_t when, int32_t param)
{
	struct timers *ts = &s->allp[pi].timers;
	s->netpoll_inited = 1; /* addHeap: netpollGenericInit */
	clean_head(s, ts);
	if (ts->len == ts->cap) {
		int32_t cap = ts->cap ? ts->cap * 2 : 8;
		struct timer *a = realloc(ts->heap, (size_t)cap * sizeof *a);
		if (!a)
			return sim_oom(s, "timers");
		ts->heap = a;
		ts->cap = cap;
	}
	ts->heap[ts->len] = (struct timer){ .when = when, .seq = s->timerseq++, .g = gi,
					    .gen = s->allg[gi].parkgen, .param = param };
	sift_up(ts->heap, ts->len++);
	s->ntimers++;
	arm(s, pi); /* a new earliest: wakeNetPoller */
	return 0;
}

int timer_check(struct sim *s, int32_t pi, int32_t runner)
{
	struct timers *ts = &s->allp[pi].timers;
	int ran = 0;
	if (ts->len == 0)
		return 0;
	for (clean_head(s, ts); ts->len > 0 && ts->heap[0].when <= s->now; clean_head(s, ts)) {
		struct timer t = ts->heap[0];
		delete_min(s, ts);
		park_goready(s, -1, t.g, runner, t.param, R_TIMER); /* goroutineReady */
		ran++;
	}
	arm(s, pi);
	return ran;
}

void timer_wake(struct sim *s, int32_t pi)
{
	clean_head(s, &s->allp[pi].timers);
	arm(s, pi);
}

int64_t timer_next(struct sim *s, int32_t pi)
{
	struct timers *ts = &s->allp[pi].timers;
	clean_head(s, ts);
	return ts->len > 0 ? ts->heap[0].when : INT64_MAX;
}

int timer_any_due(struct sim *s)
{
	if (s->ntimers == 0)
		return 0;
	for (int32_t pi = 0; pi < s->nprocs; pi++)
		if (timer_next(s, pi) <= s->now)
			return 1;
	return 0;
}

void timers_free(struct sim *s)
{
	for (int32_t pi = 0; s->allp && pi < s->nprocs; pi++)
		free(s->allp[pi].timers.heap);
}
