/* sema.c: sync.Mutex over a semaphore queue (see sema.h). */
#include "sema.h"

#include "park.h"
#include "runq.h"

#define STARVATION_US 1000 /* sync/mutex.go: starvationThresholdNs = 1e6 */
#define PARAM_TICKET 2     /* semrelease with handoff: the waker passed the mutex on */
#define ACTIVE_SPIN 4      /* proc.go: active_spin, the spins sync_runtime_canSpin allows */

/* g.lockslow: lockSlow's locals that outlive one attempt: starving, awoke
 * when a spin set mutexWoken (a wake-up's awoke comes from g.param), and
 * iter, the spins so far. */
#define LS_STARVING 1u
#define LS_AWOKE 2u
#define LS_ITER_SHIFT 2

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
	if ((gp->lockslow & LS_STARVING) && mu->locked)
		mu->starving = 1;
	gp->lockslow &= LS_STARVING; /* semacquire returns with awoke = true, iter = 0 */
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
	gp->lockslow = 0;
	gp->pc++;
}

/* sync_runtime_canSpin (proc.go): spin only a few times (active_spin),
 * on a multicore machine, with GOMAXPROCS > npidle + nmspinning + 1 (at
 * least one other P running), and with the local run queue empty. The
 * runtime model only: a spin takes time, which only the model's costs can
 * pay (exec.c, pay_cost). */
static int can_spin(const struct sim *s, int32_t gi, unsigned iter)
{
	int ncpu = s->cfg.cpus > 0 ? s->cfg.cpus : s->nprocs; /* --cpus, else a CPU per P */
	if (s->cfg.model != MODEL_RUNTIME || !s->costs || iter >= ACTIVE_SPIN || ncpu <= 1 ||
	    s->nprocs <= s->npidle + s->nmspinning + 1)
		return 0;
	return runq_empty(s, s->allg[gi].p);
}

/* lockSlow's active spinning: on a held, non-starving mutex the G sets
 * mutexWoken if nobody is woken and there are waiters (so Unlock wakes
 * none: it will take the lock itself), then spins (sync_runtime_doSpin:
 * procyield(active_spin_cnt = 30), RUNTIME_SPIN_NS) on its P, and tries
 * again. The spin is a debt on its P (the op-cost mechanism): the op runs
 * again once it is paid. Returns 1 (the G runs on). */
static int spin(struct sim *s, int32_t gi, int32_t mi, int awoke, unsigned iter)
{
	struct mutex *mu = &s->mutexes[mi];
	struct g *gp = &s->allg[gi];
	if (!awoke && !mu->woken && mu->waiters != 0) {
		mu->woken = 1;
		awoke = 1;
	}
	gp->lockslow = (uint8_t)((gp->lockslow & LS_STARVING) | (awoke ? LS_AWOKE : 0) | ((iter + 1) << LS_ITER_SHIFT));
	s->allp[gp->p].cost_debt_ns += RUNTIME_SPIN_NS;
	return 1;
}

int sema_lock(struct sim *s, int32_t gi, int32_t mi)
{
	struct mutex *mu = &s->mutexes[mi];
	struct g *gp = &s->allg[gi];
	int awoke = (gp->lockslow & LS_AWOKE) != 0;
	unsigned iter = (unsigned)gp->lockslow >> LS_ITER_SHIFT;
	if (gp->param != PARAM_NONE) { /* back from semacquire */
		int ticket = gp->param == PARAM_TICKET;
		gp->param = PARAM_NONE;
		if (s->now - (gp->u.since - 1) > STARVATION_US)
			gp->lockslow |= LS_STARVING;
		if (ticket) { /* starvation mode: ownership was handed to us */
			mu->locked = 1;
			if (!(gp->lockslow & LS_STARVING) || mu->waiters == 1)
				mu->starving = 0; /* exit starvation mode */
			mu->waiters--;
			acquired(gp);
			return 1;
		}
		awoke = 1;
		iter = 0;
	}
	if (mu->locked && !mu->starving && can_spin(s, gi, iter))
		return spin(s, gi, mi, awoke, iter);
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
