/* runq.c: runnext, the local ring and the global queue (see runq.h). */
#include "runq.h"


#include <assert.h>

void gqueue_push(struct sim *s, struct gqueue *q, int32_t gi)
{
	s->allg[gi].schedlink = -1;
	if (q->tail < 0)
		q->head = gi;
	else
		s->allg[q->tail].schedlink = gi;
	q->tail = gi;
	q->size++;
}

int32_t gqueue_pop(struct sim *s, struct gqueue *q)
{
	int32_t gi = q->head;
	if (gi < 0)
		return -1;
	q->head = s->allg[gi].schedlink;
	if (q->head < 0)
		q->tail = -1;
	s->allg[gi].schedlink = -1;
	q->size--;
	return gi;
}

/* P pi's place in runqp after its runnext or ring changed. */
static void note_runq(struct sim *s, int32_t pi)
{
	const struct p *pp = &s->allp[pi];
	if (pp->runqhead != pp->runqtail || pp->runnext >= 0)
		pmask_add(s->runqp, pi);
	else
		pmask_del(s->runqp, pi);
}

/* globrunqput: put gp at the tail of the global queue. */
void globrunq_put(struct sim *s, int32_t gi, int reason)
{
	sim_move_g(s, gi, PL_GLOBAL, -1, reason);
	gqueue_push(s, &s->runq, gi);
}

/* runqputslow: the ring is full; move its oldest half and gp, in that
 * order, to the global queue tail. (Race builds shuffle the batch; we
 * model the ordinary build.) */
static void runq_put_slow(struct sim *s, int32_t pi, int32_t gi)
{
	struct p *pp = &s->allp[pi];
	assert(runq_len(pp) == RUNQ_SIZE);
	struct sim_event e = { .ev = EV_SPILL, .g = -1, .p = pi, .m = pp->m, .n = RUNQ_HALF + 1 };
	sim_emit(s, &e);
	s->sum.spills++;
	for (int i = 0; i < RUNQ_HALF; i++) {
		int32_t bi = pp->runq[pp->runqhead++ % RUNQ_SIZE];
		globrunq_put(s, bi, R_SPILL);
	}
	globrunq_put(s, gi, R_SPILL);
	note_runq(s, pi);
}

/* runqgrab's back-off on a running victim's runnext: usleep(3), which on
 * Linux sleeps 3us plus the timer slack (--sysmon-slack: the same slack
 * as sysmon's sleeps). */
static int64_t runqgrab_backoff(const struct sim *s)
{
	return RUNQGRAB_BACKOFF_US + s->cfg.sysmon_slack_us;
}

/* runqput: next=1 puts gp in runnext and kicks the old runnext G to the
 * ring's tail; a full ring spills through runqputslow. */
static void runq_put_tail(struct sim *s, int32_t pi, int32_t gi, int reason)
{
	struct p *pp = &s->allp[pi];
	if (runq_len(pp) < RUNQ_SIZE) {
		sim_move_g(s, gi, PL_LOCAL, pi, reason);
		pp->runq[pp->runqtail++ % RUNQ_SIZE] = gi;
		pmask_add(s->runqp, pi);
		return;
	}
	runq_put_slow(s, pi, gi);
}

void runq_put(struct sim *s, int32_t pi, int32_t gi, int next, int reason)
{
	struct p *pp = &s->allp[pi];
	if (!next) {
		runq_put_tail(s, pi, gi, reason);
		return;
	}
	/* The old runnext G's kick to the tail is recorded before the new G
	 * takes the slot, so that a replay of the records never sees two Gs
	 * in one runnext (the state after both is the runtime's either way). */
	int32_t old = pp->runnext;
	if (old >= 0) {
		pp->runnext = -1;
		runq_put_tail(s, pi, old, R_KICK); /* its ring is not empty now: P pi is in runqp */
	} else {
		pmask_add(s->runqp, pi);
	}
	sim_move_g(s, gi, PL_RUNNEXT, pi, reason);
	pp->runnext = gi;
	pp->runnext_when = s->now;
}

/* runqget: runnext first (the G inherits the time slice), else the ring's
 * head. The G stays in its recorded place until the caller moves it
 * (sim_move_g) when it executes it. */
SIM_HOT int32_t runq_get(struct sim *s, int32_t pi, int *inherit)
{
	struct p *pp = &s->allp[pi];
	int32_t gi = pp->runnext;
	if (gi >= 0) {
		pp->runnext = -1;
		*inherit = 1;
		if (pp->runqhead == pp->runqtail)
			pmask_del(s->runqp, pi);
		return gi;
	}
	*inherit = 0;
	if (pp->runqhead == pp->runqtail)
		return -1;
	gi = pp->runq[pp->runqhead++ % RUNQ_SIZE];
	if (pp->runqhead == pp->runqtail)
		pmask_del(s->runqp, pi); /* runnext is empty: it was looked at first */
	return gi;
}

/* runqempty: true only if the ring and runnext are both empty. */
int runq_empty(const struct sim *s, int32_t pi)
{
	const struct p *pp = &s->allp[pi];
	return pp->runqhead == pp->runqtail && pp->runnext < 0;
}

/* The runtime model (runqgrab): a thief pi that finds a running victim
 * p2's ring empty and its runnext set sleeps usleep(3) first, so that a
 * victim about to block runs the G itself (ping-pong pairs), and then
 * takes it if it is still there (runnext.cas(next, 0)); if it is not, it
 * looks again (runqgrab's loop: the ring, which a kicked runnext G went
 * to, then the new runnext, with a sleep of its own). Here the first
 * look records the back-off on the thief's P and returns -1 (the thief's
 * M sleeps until then: spinner_backs_off, sched.c, whose steal_visit
 * charges the usleep's CPU); a look after the sleep at the same G in the
 * same stay in runnext returns 1, one during it 0.
 * Simplifications: after its sleep the thief runs findRunnable again from
 * the top, not from the victim it slept on; the record stays until it is
 * used or replaced, so a thief that ran other work after its sleep and
 * meets the same G in the same stay again takes it without a new sleep. */
int runq_runnext_take(struct sim *s, int32_t pi, int32_t p2)
{
	const struct p *vp = &s->allp[p2];
	struct p *pp = &s->allp[pi];
	if (s->cfg.model != MODEL_RUNTIME || vp->status != P_RUNNING || s->allm[vp->m].curg < 0 || vp->sysm >= 0)
		return 1; /* 1.26's runqgrab: no sleep when the victim's curg is in a syscall */
	if (pp->backoff_g == vp->runnext && pp->backoff_p == p2 && pp->backoff_set == vp->runnext_when)
		return s->now >= pp->backoff_until;
	pp->backoff_g = vp->runnext;
	pp->backoff_p = p2;
	pp->backoff_set = vp->runnext_when;
	pp->backoff_until = s->now + runqgrab_backoff(s);
	return -1;
}

int64_t runq_backoff_until(const struct sim *s, int32_t pi)
{
	const struct p *pp = &s->allp[pi];
	return pp->backoff_g >= 0 && pp->backoff_until > s->now ? pp->backoff_until : -1;
}

/* runqgrab + runqsteal: take half, rounded up, of p2's ring (oldest
 * first) into pp's ring; if the ring is empty and steal_runnext is set,
 * take p2's runnext. Returns the last G taken, which the thief runs (or
 * -1, or RUNQ_BACKOFF: none, the thief backs off); the
 * others stay in the thief's ring in their order.
 * Before taking a running victim's runnext the runtime backs off 3 us so
 * the victim can run it itself (ping-pong pairs): a victim that is between
 * goroutines (its M has no G) takes it in that time, so the thief leaves
 * it. Simplification (the seed model; --model=runtime models the back-off
 * as time, above): a victim busy running a G cannot take it within
 * 3 us, and the back-off is below the 10 us tick, so there the thief
 * takes it at once (also in a "tick": "1us" workload, where a 1-2 us run
 * could end within the back-off). */
int32_t runq_steal(struct sim *s, int32_t pi, int32_t p2, int steal_runnext)
{
	struct p *pp = &s->allp[pi], *vp = &s->allp[p2];
	uint32_t n = runq_len(vp);
	n = n - n / 2;
	if (n == 0) {
		if (!steal_runnext || vp->runnext < 0)
			return -1;
		if (vp->status == P_RUNNING && s->allm[vp->m].curg < 0)
			return -1; /* usleep(3): the victim runs it itself */
		int take = runq_runnext_take(s, pi, p2);
		if (take <= 0)
			return take < 0 ? RUNQ_BACKOFF : -1; /* the runtime model: in runqgrab's usleep(3) */
		int32_t gi = vp->runnext;
		vp->runnext = -1;
		pp->backoff_g = -1;
		note_runq(s, p2);
		sim_resetspinning(s, pp->m);
		sim_emit_steal(s, pi, p2, 1, 1, RULE_RUNNEXT_STEAL);
		s->sum.steals++;
		s->sum.stolen++;
		return gi;
	}
	sim_resetspinning(s, pp->m);
	sim_emit_steal(s, pi, p2, (int32_t)n, 0, RULE_NONE);
	s->sum.steals++;
	s->sum.stolen += n;
	for (uint32_t i = 0; i + 1 < n; i++) {
		int32_t gi = vp->runq[vp->runqhead++ % RUNQ_SIZE];
		sim_move_g(s, gi, PL_LOCAL, pi, R_STEAL);
		pp->runq[pp->runqtail++ % RUNQ_SIZE] = gi;
	}
	int32_t gi = vp->runq[vp->runqhead++ % RUNQ_SIZE];
	note_runq(s, p2);
	note_runq(s, pi);
	return gi;
}

/* globrunqget: take n = min(size, size/gomaxprocs + 1, max, 128) Gs from
 * the global head; return the first, put the rest in pp's ring in order
 * with runqput(next=false). */
int32_t globrunq_get(struct sim *s, int32_t pi, int64_t max)
{
	int64_t size = s->runq.size;
	if (size == 0)
		return -1;
	int64_t n = size / s->nprocs + 1;
	if (n > size)
		n = size;
	if (max > 0 && n > max)
		n = max;
	if (n > RUNQ_HALF)
		n = RUNQ_HALF;
	int32_t gi = gqueue_pop(s, &s->runq);
	while (--n > 0)
		runq_put(s, pi, gqueue_pop(s, &s->runq), 0, R_GLOBRUNQ);
	return gi;
}
