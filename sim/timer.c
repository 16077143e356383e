/* timer.c: the per-P timer heaps (see timer.h). */
#include "timer.h"
#include "mem.h"

#include <stdlib.h>

#include "netpoll.h"
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

/* deleteMin (updateTimerPMask: an emptied heap leaves timerpMask) */
static void delete_min(struct sim *s, int32_t pi)
{
	struct timers *ts = &s->allp[pi].timers;
	ts->heap[0] = ts->heap[--ts->len];
	sift_down(ts->heap, ts->len, 0);
	s->ntimers--;
	if (ts->len == 0)
		pmask_del(s->timerp, pi);
}

/* The timer's G still waits for it (the same park). */
static int live(const struct sim *s, const struct timer *t)
{
	const struct g *gp = &s->allg[t->g];
	return gp->place == PL_WAITING && gp->parkgen == t->gen;
}

/* cleanHead: drop stale timers from the top. */
static void clean_head(struct sim *s, int32_t pi)
{
	struct timers *ts = &s->allp[pi].timers;
	while (ts->len > 0 && !live(s, &ts->heap[0]))
		delete_min(s, pi);
}

/* The P's slot in the event queue follows its earliest timer still in
 * the future (one already due waits for a scheduler to run it: the
 * instant is now). */
static void arm(struct sim *s, int32_t pi)
{
	struct timers *ts = &s->allp[pi].timers;
	if (netpoll_whole_ms(s))
		return; /* the M blocked in netpoll keeps its own time (netpoll.h) */
	if (ts->len == 0 || ts->heap[0].when <= s->now)
		evq_cancel(&s->evq, s->nprocs + pi);
	else if (evq_schedule(&s->evq, s->nprocs + pi, ts->heap[0].when, EVQ_TIMER, pi, 0) != 0)
		sim_oom(s, "events");
}

static int add(struct sim *s, int32_t pi, int32_t gi, int64_t when, int32_t param, int32_t tick)
{
	struct timers *ts = &s->allp[pi].timers;
	s->netpoll_inited = 1; /* addHeap: netpollGenericInit */
	clean_head(s, pi);
	if (ts->len == ts->cap) {
		void *a = sim_grow(ts->heap, &ts->cap, 8, sizeof *ts->heap);
		if (!a)
			return sim_oom(s, "timers");
		ts->heap = a;
	}
	int wake = ts->len == 0 || when < ts->heap[0].when; /* wakeTime == 0 || when < wakeTime */
	ts->heap[ts->len] = (struct timer){ .when = when, .seq = s->timerseq++, .g = gi,
					    .gen = s->allg[gi].parkgen, .param = param, .tick = tick };
	sift_up(ts->heap, ts->len++);
	s->ntimers++;
	pmask_add(s->timerp, pi); /* timerpMask */
	arm(s, pi);
	if (wake && netpoll_whole_ms(s))
		netpoll_timer_added(s, when); /* maybeAdd: wakeNetPoller(when) */
	return 0;
}

int timer_add(struct sim *s, int32_t pi, int32_t gi, int64_t when, int32_t param)
{
	return add(s, pi, gi, when, param, -1);
}

static void ticker_run(struct sim *s, int32_t tk);

int timer_check(struct sim *s, int32_t pi, int32_t runner)
{
	struct timers *ts = &s->allp[pi].timers;
	int ran = 0;
	if (ts->len == 0)
		return 0;
	for (clean_head(s, pi); ts->len > 0 && ts->heap[0].when <= s->now; clean_head(s, pi)) {
		struct timer t = ts->heap[0];
		delete_min(s, pi);
		if (t.tick >= 0)
			ticker_run(s, t.tick); /* sendTime, then the next fire */
		park_goready(s, -1, t.g, runner, t.param, R_TIMER); /* goroutineReady */
		ran++;
	}
	arm(s, pi);
	return ran;
}

void timer_wake(struct sim *s, int32_t pi)
{
	clean_head(s, pi);
	arm(s, pi);
}

int64_t timer_next(struct sim *s, int32_t pi)
{
	struct timers *ts = &s->allp[pi].timers;
	clean_head(s, pi);
	return ts->len > 0 ? ts->heap[0].when : INT64_MAX;
}

int64_t timer_earliest(struct sim *s)
{
	int64_t t = INT64_MAX;
	for (int32_t pi = pmask_next(s->timerp, s->nprocs, 0); pi >= 0; pi = pmask_next(s->timerp, s->nprocs, pi + 1)) {
		int64_t w = timer_next(s, pi);
		if (w < t)
			t = w;
	}
	return t;
}

int timer_any_due(struct sim *s)
{
	/* the Ps with timers (timerpMask), in id order: an empty heap is never due */
	for (int32_t pi = pmask_next(s->timerp, s->nprocs, 0); pi >= 0; pi = pmask_next(s->timerp, s->nprocs, pi + 1))
		if (timer_next(s, pi) <= s->now)
			return 1;
	return 0;
}

void timers_free(struct sim *s)
{
	for (int32_t pi = 0; s->allp && pi < s->nprocs; pi++)
		free(s->allp[pi].timers.heap);
	free(s->tickers);
	free(s->tickhash);
}

/* Tickers. */

static uint32_t bucket(const struct sim *s, int32_t goid)
{
	return ((uint32_t)goid * 2654435761u) & (uint32_t)(s->tickbuckets - 1);
}

/* The hash doubles with the tickers it holds (at most one per bucket on
 * average); rehashing moves chains, never tickers, so indices stay. */
static int grow_hash(struct sim *s)
{
	int32_t n = s->tickbuckets ? s->tickbuckets * 2 : 16;
	int32_t *h = malloc((size_t)n * sizeof *h);
	if (!h)
		return sim_oom(s, "tickers");
	for (int32_t i = 0; i < n; i++)
		h[i] = -1;
	int32_t old = s->tickbuckets;
	int32_t *oh = s->tickhash;
	s->tickhash = h;
	s->tickbuckets = n;
	for (int32_t b = 0; b < old; b++)
		for (int32_t i = oh[b], next; i >= 0; i = next) {
			next = s->tickers[i].next;
			uint32_t nb = bucket(s, s->tickers[i].goid);
			s->tickers[i].next = h[nb];
			h[nb] = i;
		}
	free(oh);
	return 0;
}

/* A free ticker slot (the free list first), or -1 out of memory. */
static int32_t ticker_slot(struct sim *s)
{
	if (s->tickfree > 0) {
		int32_t i = s->tickfree - 1;
		s->tickfree = s->tickers[i].next + 1;
		return i;
	}
	if (s->ntickers == s->tickcap) {
		void *a = sim_grow(s->tickers, &s->tickcap, 8, sizeof *s->tickers);
		if (!a)
			return sim_oom(s, "tickers");
		s->tickers = a;
	}
	return s->ntickers++;
}

int32_t ticker_get(struct sim *s, int32_t gi, int64_t period)
{
	int32_t goid = s->allg[gi].goid;
	for (int32_t i = s->tickbuckets ? s->tickhash[bucket(s, goid)] : -1; i >= 0; i = s->tickers[i].next)
		if (s->tickers[i].goid == goid && s->tickers[i].period == period)
			return i;
	if (s->nlivetickers >= s->tickbuckets && grow_hash(s) != 0)
		return -1;
	int32_t i = ticker_slot(s);
	if (i < 0)
		return -1;
	uint32_t b = bucket(s, goid);
	s->tickers[i] = (struct ticker){ .when = s->now + period, .period = period, .goid = goid,
					 .next = s->tickhash[b] }; /* NewTicker: when(d) */
	s->tickhash[b] = i;
	s->nlivetickers++;
	return i;
}

/* unlockAndRun for a periodic timer run at now (late by delay): the next
 * fire stays on the grid, skipping every one already past:
 * next = when + period*(1 + delay/period). */
static void ticker_run(struct sim *s, int32_t tk)
{
	struct ticker *t = &s->tickers[tk];
	int64_t delay = s->now - t->when;
	t->when += t->period * (1 + delay / t->period);
}

int ticker_take(struct sim *s, int32_t tk)
{
	if (s->tickers[tk].when > s->now)
		return 0;
	ticker_run(s, tk); /* chanrecv -> maybeRunChan: the due fire runs now, its value is there */
	return 1;
}

int ticker_block(struct sim *s, int32_t pi, int32_t gi, int32_t tk)
{
	return add(s, pi, gi, s->tickers[tk].when, PARAM_OK, tk); /* blockTimerChan -> maybeAdd */
}

void tickers_drop(struct sim *s, int32_t goid)
{
	if (s->nlivetickers == 0)
		return;
	for (int32_t *link = &s->tickhash[bucket(s, goid)]; *link >= 0;) {
		struct ticker *t = &s->tickers[*link];
		if (t->goid != goid) {
			link = &t->next;
			continue;
		}
		int32_t i = *link;
		*link = t->next;
		t->next = s->tickfree - 1;
		s->tickfree = i + 1;
		s->nlivetickers--;
	}
}
