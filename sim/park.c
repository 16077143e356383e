/* park.c: gopark, goready and the sudog wait queues (see park.h). */
#include "park.h"

#include <assert.h>
#include <stdlib.h>

#include "mem.h"
#include "proc.h"
#include "runq.h"

/* A new sudog at the end of the array (grown when full) for the free
 * list, which is empty; -1 out of memory. Off the common path. */
__attribute__((noinline)) static int32_t new_sudog(struct sim *s)
{
	if (s->nsudog == s->sudogcap) {
		int32_t cap = s->sudogcap ? s->sudogcap * 2 : 64;
		struct sudog *a = cap > s->sudogcap ? sim_big_grow(s->sudogs, (size_t)s->sudogcap * sizeof *a,
								 (size_t)cap * sizeof *a)
						    : NULL;
		if (!a)
			return sim_oom(s, "wait queues");
		s->sudogs = a;
		s->sudogcap = cap;
	}
	s->sudogs[s->nsudog] = (struct sudog){ .next = -1 };
	return s->sudogfree = s->nsudog++;
}

static inline int32_t acquire_sudog(struct sim *s)
{
	int32_t sg = s->sudogfree;
	if (__builtin_expect(sg < 0, 0) && (sg = new_sudog(s)) < 0)
		return -1;
	s->sudogfree = s->sudogs[sg].next;
	s->sudogs_used++;
	return sg;
}

/* A free sudog's only field that counts is next (the free list). */
static inline void release_sudog(struct sim *s, int32_t sg)
{
	s->sudogs[sg].next = s->sudogfree;
	s->sudogfree = sg;
	s->sudogs_used--;
}

void park_gopark(struct sim *s, int32_t gi, int wr, int why, int32_t obj)
{
	struct g *gp = &s->allg[gi];
	sim_dropg(s, g_running_m(s, gp));
	gp->param = PARAM_NONE;
	gp->parkgen++;
	sim_move_g_waiting(s, gi, why, wr, obj);
	gp->schedlink = -1; /* g.waiting: no sudog yet */
}

int32_t park_enqueue(struct sim *s, struct waitq *q, int32_t gi, int kind, int32_t obj, int icase)
{
	/* acquire_sudog may move s->sudogs; q never points into it */
	int32_t sg = acquire_sudog(s);
	if (sg < 0)
		return -1;
	struct g *gp = &s->allg[gi];
	s->sudogs[sg] = (struct sudog){ .g = gi, .next = -1, .prev = q->last, .waitlink = gp->schedlink,
					.obj = obj, .icase = (int16_t)icase, .kind = (uint8_t)kind };
	gp->schedlink = sg; /* g.waiting */
	if (q->last >= 0)
		s->sudogs[q->last].next = sg;
	else
		q->first = sg;
	q->last = sg;
	q->size++;
	return sg;
}

int park_enqueue_g(struct sim *s, struct waitq *q, int32_t gi, int kind, int32_t ci)
{
	if (q->size == 0) { /* the G's g.waiting stays empty (park_gopark) */
		q->g1 = gi;
		q->size = 1;
		return 0;
	}
	return park_enqueue(s, q, gi, kind, ci, -1) < 0 ? -1 : 0;
}

/* Takes sudog sg out of queue q, wherever it is. */
static void unlink_sudog(struct sim *s, struct waitq *q, int32_t sg)
{
	struct sudog *sd = &s->sudogs[sg];
	if (sd->prev >= 0)
		s->sudogs[sd->prev].next = sd->next;
	else
		q->first = sd->next;
	if (sd->next >= 0)
		s->sudogs[sd->next].prev = sd->prev;
	else
		q->last = sd->prev;
	sd->next = sd->prev = -1;
	q->size--;
}

void park_requeue_first(struct sim *s, struct waitq *q, int32_t sg)
{
	if (q->first == sg)
		return;
	unlink_sudog(s, q, sg);
	struct sudog *sd = &s->sudogs[sg];
	sd->next = q->first;
	sd->prev = -1;
	s->sudogs[q->first].prev = sg;
	q->first = sg;
	if (q->last < 0)
		q->last = sg;
	q->size++;
}

/* The head sudog off q (-1: none), off every queue. */
static inline int32_t dequeue_sudog(struct sim *s, struct waitq *q)
{
	int32_t sg = q->first;
	if (sg >= 0) { /* unlink_sudog for the head */
		struct sudog *sd = &s->sudogs[sg];
		int32_t next = sd->next;
		q->first = next;
		if (next >= 0)
			s->sudogs[next].prev = -1;
		else
			q->last = -1;
		q->size--;
		sd->next = -1;
		sd->kind = WQ__N; /* off every queue */
	}
	return sg;
}

int32_t park_dequeue(struct sim *s, struct waitq *q)
{
	assert(q->g1 < 0);
	return dequeue_sudog(s, q);
}

/* q's inline G off it. */
static inline struct waiter take_g1(struct waitq *q)
{
	struct waiter w = { q->g1, -1 };
	q->g1 = -1;
	q->size--;
	return w;
}

struct waiter park_take(struct sim *s, struct waitq *q)
{
	if (q->g1 >= 0)
		return take_g1(q);
	int32_t sg = dequeue_sudog(s, q);
	return (struct waiter){ sg >= 0 ? s->sudogs[sg].g : -1, sg };
}

struct waiter park_take_last(struct sim *s, struct waitq *q)
{
	int32_t sg = q->last;
	if (sg < 0)
		return q->g1 >= 0 ? take_g1(q) : (struct waiter){ -1, -1 };
	unlink_sudog(s, q, sg);
	s->sudogs[sg].kind = WQ__N;
	return (struct waiter){ s->sudogs[sg].g, sg };
}

/* The G's sudogs recycled, those of a select's other cases taken off
 * their queues first. */
static void release_all(struct sim *s, int32_t i)
{
	do {
		struct sudog *sd = &s->sudogs[i];
		int32_t next = sd->waitlink;
		if (sd->kind != WQ__N) /* still queued: a select's other cases */
			unlink_sudog(s, park_queue(s, sd->kind, sd->obj), i);
		release_sudog(s, i);
		i = next;
	} while (i >= 0);
}

static inline void unpark_g(struct sim *s, int32_t gi, int32_t param)
{
	struct g *gp = &s->allg[gi];
	if (gp->waitreason != WR_IO_WAIT) { /* g_waiting */
		if (gp->schedlink >= 0)
			release_all(s, gp->schedlink);
		gp->schedlink = -1;
	}
	gp->param = param; /* u is kept: 0, or a Lock's waitStartTime */
}

void park_unpark(struct sim *s, int32_t sg, int32_t gi, int32_t param)
{
	unpark_g(s, sg >= 0 ? s->sudogs[sg].g : gi, param);
}

void park_goready(struct sim *s, int32_t sg, int32_t gi, int32_t pi, int32_t param, int why)
{
	if (sg >= 0)
		gi = s->sudogs[sg].g;
	unpark_g(s, gi, param);
	runq_put(s, pi, gi, 1, why);
	proc_wakep_noidle(s); /* ready -> wakep */
}

void park_ready_inline(struct sim *s, struct waitq *q, int32_t pi, int32_t param, int why)
{
	int32_t gi = take_g1(q).g;
	s->allg[gi].param = (int16_t)param; /* unpark_g without sudogs: g.waiting stays -1 */
	runq_put(s, pi, gi, 1, why);
	proc_wakep_noidle(s); /* ready -> wakep */
}

struct waitq *park_queue(struct sim *s, int kind, int32_t obj)
{
	switch (kind) {
	case WQ_CHAN_RECV:
		return &s->chans[obj].recvq;
	case WQ_CHAN_SEND:
		return &s->chans[obj].sendq;
	case WQ_SEMA:
		return &s->mutexes[obj].semaq;
	case WQ_WG:
		return &s->wgs[obj].semaq;
	case WQ_FDMU:
		return &s->socks[obj].rsemaq;
	default:
		return NULL;
	}
}

int park_each_queue(struct sim *s, int (*fn)(struct sim *s, const struct waitq *q, int kind, int32_t obj))
{
	for (int32_t ci = 0; ci < s->prog->nchans; ci++)
		if (fn(s, &s->chans[ci].recvq, WQ_CHAN_RECV, ci) != 0 || fn(s, &s->chans[ci].sendq, WQ_CHAN_SEND, ci) != 0)
			return -1;
	for (int32_t mi = 0; mi < s->prog->nmutexes; mi++)
		if (fn(s, &s->mutexes[mi].semaq, WQ_SEMA, mi) != 0)
			return -1;
	for (int32_t wi = 0; wi < s->prog->nwgs; wi++)
		if (fn(s, &s->wgs[wi].semaq, WQ_WG, wi) != 0)
			return -1;
	for (int32_t si = 0; si < s->prog->nsockets; si++)
		if (fn(s, &s->socks[si].rsemaq, WQ_FDMU, si) != 0)
			return -1;
	return 0;
}
