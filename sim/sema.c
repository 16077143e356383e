/* sema.c: sync.Mutex over a semaphore queue (see sema.h). */
#include "sema.h"

#include "park.h"
#include "runq.h"

#define STARVATION_US 1000 /* sync/mutex.go: starvationThresholdNs = 1e6 */
#define PARAM_TICKET 2     /* semrelease with handoff: the waker passed the mutex on */

/* semacquire: park on the mutex's queue, at its head when lifo. */
static void semacquire(struct sim *s, int32_t gi, int32_t mi, int lifo)
{
	struct mutex *mu = &s->mutexes[mi];
	park_gopark(s, gi, WR_MUTEX, R_LOCK, mi);
	int32_t sg = park_enqueue(s, &mu->semaq, gi, WQ_SEMA, mi, -1);
	if (sg >= 0 && lifo)
		park_requeue_first(s, &mu->semaq, sg);
}

/* lockSlow's CAS when the mutex is held (or starving): count a waiter,
 * maybe switch to starvation mode, and park. */
static int lock_wait(struct sim *s, int32_t gi, int32_t mi, int awoke)
{
	struct mutex *mu = &s->mutexes[mi];
	struct g *gp = &s->allg[gi];
	mu->waiters++;
	if (gp->starving && mu->locked)
		mu->starving = 1;
	if (awoke)
		mu->woken = 0;
	int lifo = gp->u.since != 0; /* queueLifo := waitStartTime != 0 */
	if (!lifo)
		gp->u.since = s->now + 1;
	semacquire(s, gi, mi, lifo);
	return 0;
}

static void acquired(struct g *gp)
{
	gp->u.since = 0; /* and u.left is 0 for the ops after */
	gp->starving = 0;
	gp->pc++;
}

int sema_lock(struct sim *s, int32_t gi, int32_t mi)
{
	struct mutex *mu = &s->mutexes[mi];
	struct g *gp = &s->allg[gi];
	int awoke = 0;
	if (gp->param != PARAM_NONE) { /* back from semacquire */
		int ticket = gp->param == PARAM_TICKET;
		gp->param = PARAM_NONE;
		gp->starving = gp->starving || s->now - (gp->u.since - 1) > STARVATION_US;
		if (ticket) { /* starvation mode: ownership was handed to us */
			mu->locked = 1;
			if (!gp->starving || mu->waiters == 1)
				mu->starving = 0; /* exit starvation mode */
			mu->waiters--;
			acquired(gp);
			return 1;
		}
		awoke = 1;
	}
	if (!mu->locked && !mu->starving) { /* the fast path, or lockSlow's CAS */
		mu->locked = 1;
		if (awoke)
			mu->woken = 0;
		acquired(gp);
		return 1;
	}
	return lock_wait(s, gi, mi, awoke);
}

/* goyield: the G goes to its P's ring tail and the P schedules. */
static void goyield(struct sim *s, int32_t gi)
{
	struct g *gp = &s->allg[gi];
	int32_t pi = gp->p;
	sim_dropg(s, g_running_m(s, gp));
	runq_put(s, pi, gi, 0, R_YIELD);
}

int sema_unlock(struct sim *s, int32_t gi, int32_t mi)
{
	struct mutex *mu = &s->mutexes[mi];
	if (!mu->locked) {
		sim_crash(s, gi, "fatal error", "sync: unlock of unlocked mutex");
		return 0;
	}
	mu->locked = 0;
	s->allg[gi].pc++;
	if (!mu->starving) { /* unlockSlow, normal mode */
		if (mu->waiters == 0 || mu->woken)
			return 1;
		int32_t sg = park_dequeue(s, &mu->semaq);
		if (sg < 0)
			return 1;
		mu->waiters--;
		mu->woken = 1;
		park_goready(s, sg, -1, s->allg[gi].p, PARAM_OK, R_UNLOCK); /* semrelease */
		return 1;
	}
	int32_t sg = park_dequeue(s, &mu->semaq); /* semrelease(handoff=true) */
	if (sg < 0)
		return 1;
	park_goready(s, sg, -1, s->allg[gi].p, PARAM_TICKET, R_UNLOCK);
	goyield(s, gi);
	return 0;
}

/* WaitGroup.Add(delta) (Done is Add(-1)): a negative counter panics; the
 * counter reaching 0 with waiters releases every one (semrelease each,
 * into the adder's runnext, first waiter first). */
int sema_add(struct sim *s, int32_t gi, int32_t wi, int64_t delta)
{
	struct waitgroup *wg = &s->wgs[wi];
	wg->counter += delta;
	if (wg->counter < 0) {
		sim_crash(s, gi, "panic", "sync: negative WaitGroup counter");
		return 0;
	}
	s->allg[gi].pc++;
	if (wg->counter > 0 || wg->waiters == 0)
		return 1;
	wg->waiters = 0; /* wg.state.Store(0) */
	for (int32_t sg; (sg = park_dequeue(s, &wg->semaq)) >= 0;)
		park_goready(s, sg, -1, s->allg[gi].p, PARAM_OK, R_WGDONE);
	return 1;
}

/* WaitGroup.Wait: returns at once at counter 0, else one more waiter
 * parks on the semaphore (runtime_Semacquire). */
int sema_wait(struct sim *s, int32_t gi, int32_t wi)
{
	struct waitgroup *wg = &s->wgs[wi];
	struct g *gp = &s->allg[gi];
	if (gp->param != PARAM_NONE || wg->counter == 0) {
		gp->param = PARAM_NONE;
		gp->pc++;
		return 1;
	}
	wg->waiters++;
	park_gopark(s, gi, WR_WAITGROUP, R_WAIT, wi);
	park_enqueue(s, &wg->semaq, gi, WQ_WG, wi, -1);
	return 0;
}
