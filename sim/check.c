/* check.c: the invariant checker (--check). It runs after every event
 * handled, every scheduling decision and every sysmon pass when cfg.check
 * is set. The invariants are listed in state.h.
 *
 * Each check is incremental: every P's fields and counts (O(Ps)), and
 * each G moved since the last check is where it records (its P's runnext
 * or ring, its M's curg, its sudogs). The full walk (O(Gs + Ps + Ms +
 * sudogs): every queue, every G marked in exactly one place, every count)
 * runs once the checks since the last one reach a sixteenth of the
 * state's size (and at least CHECK_PERIOD_MIN), after a step that moved more than CHECK_LOG Gs, and at
 * the end of the run (sim_check_full), so a broken invariant is still
 * found, a little later than the step that broke it. */
#include <stdlib.h>

#include "cpu.h"
#include "park.h"
#include "runq.h"
#include "state.h"

/* Marks G gi as seen in place `pl`; fails if it was already seen or if
 * its recorded place differs. */
static int mark(struct sim *s, int32_t gi, int pl, const char *where)
{
	if (gi < 0 || gi >= s->ng) {
		sim_broken(s, "%s holds a G index %d out of range", where, gi);
		return -1;
	}
	if (s->scratch[gi]) {
		sim_broken(s, "G%d is in two places (second: %s)", goid(s, gi), where);
		return -1;
	}
	s->scratch[gi] = 1;
	if (s->allg[gi].place != pl) {
		sim_broken(s, "G%d found in %s but records place %s", goid(s, gi), where,
			   sim_place_name(s->allg[gi].place));
		return -1;
	}
	return 0;
}

static int check_gqueue(struct sim *s, const struct gqueue *q, int pl, const char *where)
{
	int64_t n = 0;
	for (int32_t gi = q->head; gi >= 0; gi = s->allg[gi].schedlink, n++)
		if (n > s->ng || mark(s, gi, pl, where) != 0)
			return -1;
	if (n != q->size) {
		sim_broken(s, "%s has %lld Gs but records size %lld", where, (long long)n, (long long)q->size);
		return -1;
	}
	return 0;
}

/* A queue's inline G (park.h): a channel queue's, waiting for the
 * queue's kind with no sudog. */
static int check_inline_g(struct sim *s, const struct waitq *q, int kind, int32_t obj)
{
	int32_t gi = q->g1;
	int chan = kind == WQ_CHAN_RECV || kind == WQ_CHAN_SEND;
	const struct g *gp = gi >= 0 && gi < s->ng ? &s->allg[gi] : NULL;
	if (!chan || !gp || gp->place != PL_WAITING || g_waiting(gp) >= 0 ||
	    gp->waitreason != (kind == WQ_CHAN_RECV ? WR_CHAN_RECV : WR_CHAN_SEND)) {
		sim_broken(s, "the G waiting inline in wait queue kind %d of object %d is not waiting there", kind, obj);
		return -1;
	}
	return 0;
}

/* A wait queue: its links, its size, and that each sudog belongs to a
 * waiting G and names this queue; its inline G, if any. Marks the
 * sudogs seen (sudog marks are the scratch bytes after the Gs'). */
static int check_waitq(struct sim *s, const struct waitq *q, int kind, int32_t obj)
{
	int64_t n = q->g1 >= 0;
	int32_t prev = -1;
	if (n && check_inline_g(s, q, kind, obj) != 0)
		return -1;
	uint8_t *seen = s->scratch + s->ng;
	for (int32_t sg = q->first; sg >= 0; prev = sg, sg = s->sudogs[sg].next, n++) {
		const struct sudog *sd = &s->sudogs[sg];
		if (n > s->nsudog + 1 || sg >= s->nsudog || seen[sg]) {
			sim_broken(s, "a wait queue's links are broken (sudog %d)", sg);
			return -1;
		}
		seen[sg] = 1;
		if (sd->prev != prev || sd->kind != kind || sd->obj != obj || sd->g < 0 || sd->g >= s->ng ||
		    s->allg[sd->g].place != PL_WAITING) {
			sim_broken(s, "sudog %d in wait queue kind %d of object %d is not a waiting G's", sg, kind, obj);
			return -1;
		}
	}
	if (n != q->size || q->last != prev) {
		sim_broken(s, "a wait queue has %lld waiters but records size %lld", (long long)n, (long long)q->size);
		return -1;
	}
	return 0;
}

/* Every waiting G: marked once, its sudogs all queued; no queued sudog
 * belongs to anyone else; the free list holds the rest. */
static int check_waiting(struct sim *s)
{
	uint8_t *seen = s->scratch + s->ng;
	int64_t owned = 0;
	for (int32_t gi = 0; gi < s->ng; gi++) {
		const struct g *gp = &s->allg[gi];
		if (gp->place != PL_WAITING)
			continue;
		if (mark(s, gi, PL_WAITING, "a wait") != 0)
			return -1;
		for (int32_t sg = g_waiting(gp); sg >= 0; sg = s->sudogs[sg].waitlink, owned++) {
			if (owned > s->nsudog || s->sudogs[sg].g != gi || seen[sg] != 1) {
				sim_broken(s, "G%d's sudog %d is not in the queue it names", goid(s, gi), sg);
				return -1;
			}
			seen[sg] = 2;
		}
	}
	int64_t nfree = 0;
	for (int32_t sg = s->sudogfree; sg >= 0 && nfree <= s->nsudog; sg = s->sudogs[sg].next)
		nfree++;
	if (owned != s->sudogs_used || owned + nfree != s->nsudog) {
		sim_broken(s, "%lld sudogs are in use, %lld free, of %d (records %lld in use)", (long long)owned,
			   (long long)nfree, s->nsudog, (long long)s->sudogs_used);
		return -1;
	}
	for (int32_t sg = 0; sg < s->nsudog; sg++)
		if (seen[sg] == 1) {
			sim_broken(s, "sudog %d is queued but no waiting G owns it", sg);
			return -1;
		}
	return 0;
}

/* A P's timer heap is ordered, and names real Gs. */
static int check_timers(struct sim *s, int32_t pi, int64_t *ntimers)
{
	const struct timers *ts = &s->allp[pi].timers;
	for (int32_t i = 0; i < ts->len; i++) {
		const struct timer *t = &ts->heap[i], *up = &ts->heap[(i - 1) / 2];
		if (t->g < 0 || t->g >= s->ng || (i > 0 && (t->when < up->when || (t->when == up->when && t->seq < up->seq)))) {
			sim_broken(s, "P%d's timer heap is out of order at %d", pi, i);
			return -1;
		}
	}
	*ntimers += ts->len;
	return 0;
}

/* The poller: every G whose data arrived is still waiting in IO wait, and
 * netpollWaiters counts the Gs in IO wait. */
static int check_netpoll(struct sim *s)
{
	int64_t n = 0, waiters = 0;
	for (int32_t gi = s->netready.head; gi >= 0; gi = s->allg[gi].schedlink, n++)
		if (n > s->ng || s->allg[gi].place != PL_WAITING || s->allg[gi].waitreason != WR_IO_WAIT) {
			sim_broken(s, "the poller's ready list holds G%d, which is not in IO wait", goid(s, gi));
			return -1;
		}
	for (int32_t gi = 0; gi < s->ng; gi++)
		waiters += s->allg[gi].place == PL_WAITING && s->allg[gi].waitreason == WR_IO_WAIT;
	if (n != s->netready.size || waiters != s->netpoll_waiters) {
		sim_broken(s, "the poller records %lld ready and %lld waiting, but holds %lld and %lld",
			   (long long)s->netready.size, (long long)s->netpoll_waiters, (long long)n, (long long)waiters);
		return -1;
	}
	return 0;
}

/* A socket's parked reader waits in IO wait holding its read lock, and
 * the Gs queued for the lock wait in semacquire (socket.h). */
static int check_sockets(struct sim *s)
{
	for (int32_t si = 0; si < s->prog->nsockets; si++) {
		const struct sock *sk = &s->socks[si];
		const struct g *r = sk->reader >= 0 && sk->reader < s->ng ? &s->allg[sk->reader] : NULL;
		if (sk->data < 0 || (sk->reader >= 0 && (!r || r->place != PL_WAITING || r->waitreason != WR_IO_WAIT ||
							   sk->holder != sk->reader || sk->data != 0))) {
			sim_broken(s, "socket %d's reader G%d is not parked in the poller holding its read lock", si,
				   r ? goid(s, sk->reader) : -1);
			return -1;
		}
		for (int32_t sg = sk->rsemaq.first; sg >= 0; sg = s->sudogs[sg].next)
			if (s->allg[s->sudogs[sg].g].waitreason != WR_SEMACQUIRE || sk->holder < 0) {
				sim_broken(s, "socket %d's read lock queue holds G%d, which is not waiting for it", si,
					   goid(s, s->sudogs[sg].g));
				return -1;
			}
	}
	return 0;
}

/* A mutex's waiter count against its semaphore queue (sema.h). */
static int check_mutexes(struct sim *s)
{
	for (int32_t mi = 0; mi < s->prog->nmutexes; mi++) {
		const struct mutex *mu = &s->mutexes[mi];
		if (mu->semaq.size > mu->waiters || mu->waiters > mu->semaq.size + 1) {
			sim_broken(s, "mutex %d counts %lld waiters but queues %lld", mi, (long long)mu->waiters,
				   (long long)mu->semaq.size);
			return -1;
		}
	}
	for (int32_t wi = 0; wi < s->prog->nwgs; wi++) {
		const struct waitgroup *wg = &s->wgs[wi];
		if (wg->counter < 0 || wg->waiters != wg->semaq.size || (wg->waiters > 0 && wg->counter == 0)) {
			sim_broken(s, "wait group %d: counter %lld, %lld waiters, %lld queued", wi,
				   (long long)wg->counter, (long long)wg->waiters, (long long)wg->semaq.size);
			return -1;
		}
	}
	return 0;
}

/* A running P whose M has no G that schedule_busy_ps would never visit:
 * not in the needs-schedule set, and its M not asleep (until now at the
 * earliest) with the wake-up event (EVQ_MWAKE, slot 2 * nprocs + pi)
 * that puts it back still to come. */
static int p_lost_schedule(const struct sim *s, int32_t pi)
{
	const struct p *pp = &s->allp[pi];
	if (pp->status != P_RUNNING || s->allm[pp->m].curg >= 0 || pmask_has(s->needsched, pi))
		return 0;
	return !(s->allm[pp->m].wake_at >= s->now && evq_pending(&s->evq, 2 * s->nprocs + pi));
}

static int check_p(struct sim *s, int32_t pi)
{
	const struct p *pp = &s->allp[pi];
	uint32_t len = runq_len(pp);
	if (len > RUNQ_SIZE) {
		sim_broken(s, "P%d's ring holds %u Gs", pi, len);
		return -1;
	}
	if (pp->status == P_IDLE && (len || pp->runnext >= 0 || pp->m >= 0)) {
		sim_broken(s, "idle P%d has work or an M", pi);
		return -1;
	}
	if (pp->status == P_RUNNING && (pp->m < 0 || s->allm[pp->m].p != pi)) {
		sim_broken(s, "running P%d is not wired to an M", pi);
		return -1;
	}
	if (pp->status == P_SYSCALL && pp->m >= 0) {
		sim_broken(s, "P%d in a syscall has an M", pi);
		return -1;
	}
	if (pp->sysm >= 0 && (s->allm[pp->sysm].state != MS_SYSCALL || (pp->status == P_RUNNING) != (pp->m == pp->sysm) ||
			      pp->status == P_IDLE)) {
		sim_broken(s, "P%d's syscall M%d is not in a syscall holding it", pi, pp->sysm);
		return -1;
	}
	if (p_lost_schedule(s, pi)) {
		sim_broken(s, "P%d's M has no G but the P is not in the needs-schedule set (nor asleep)", pi);
		return -1;
	}
	if (pmask_has(s->runqp, pi) != (len > 0 || pp->runnext >= 0)) { /* sim_any_queued reads runqp */
		sim_broken(s, "P%d's queues hold %u + %d Gs but it is %sin runqp", pi, len, pp->runnext >= 0,
			   pmask_has(s->runqp, pi) ? "" : "not ");
		return -1;
	}
	if (pp->runnext >= 0 && mark(s, pp->runnext, PL_RUNNEXT, "a runnext") != 0)
		return -1;
	for (uint32_t i = pp->runqhead; i != pp->runqtail; i++)
		if (mark(s, pp->runq[i % RUNQ_SIZE], PL_LOCAL, "a local ring") != 0)
			return -1;
	for (uint32_t i = pp->runqhead; i != pp->runqtail + 1; i++) {
		int32_t gi = i == pp->runqtail ? pp->runnext : pp->runq[i % RUNQ_SIZE];
		if (gi >= 0 && s->allg[gi].p != pi) {
			sim_broken(s, "G%d is queued on P%d but records P%d", goid(s, gi), pi, s->allg[gi].p);
			return -1;
		}
	}
	return 0;
}

static int check_m(struct sim *s, int32_t mi)
{
	const struct m *mp = &s->allm[mi];
	if (mp->curg < 0)
		return 0;
	int pl = mp->state == MS_SYSCALL ? PL_SYSCALL : PL_RUNNING;
	if (mark(s, mp->curg, pl, "an M's curg") != 0)
		return -1;
	if (g_m(s, &s->allg[mp->curg]) != mi) {
		sim_broken(s, "G%d runs on M%d but records M%d", goid(s, mp->curg), mi, g_m(s, &s->allg[mp->curg]));
		return -1;
	}
	return 0;
}

static int count_stack(const struct sim *s, int32_t head, int is_p)
{
	int n = 0;
	for (int32_t i = head; i >= 0 && n <= s->nprocs + s->nm; n++)
		i = is_p ? s->allp[i].link : s->allm[i].schedlink;
	return n;
}

static int check_all(struct sim *s)
{
	int64_t ntimers = 0;
	for (int32_t pi = 0; pi < s->nprocs; pi++)
		if (check_p(s, pi) != 0 || check_timers(s, pi, &ntimers) != 0)
			return -1;
	if (ntimers != s->ntimers) {
		sim_broken(s, "ntimers is %lld but the heaps hold %lld", (long long)s->ntimers, (long long)ntimers);
		return -1;
	}
	int nspin = 0;
	for (int32_t mi = 0; mi < s->nm; mi++) {
		if (check_m(s, mi) != 0)
			return -1;
		nspin += s->allm[mi].state == MS_SPINNING;
	}
	if (nspin != s->nmspinning) {
		sim_broken(s, "nmspinning is %d but %d Ms spin", s->nmspinning, nspin);
		return -1;
	}
	if (check_gqueue(s, &s->runq, PL_GLOBAL, "the global queue") != 0)
		return -1;
	if (park_each_queue(s, check_waitq) != 0 || check_waiting(s) != 0 || check_netpoll(s) != 0 || check_mutexes(s) != 0 ||
	    check_sockets(s) != 0)
		return -1;
	if (count_stack(s, s->pidle, 1) != s->npidle || count_stack(s, s->midle, 0) != s->nmidle) {
		sim_broken(s, "an idle stack's length differs from its count");
		return -1;
	}
	int64_t live = 0;
	for (int32_t gi = 0; gi < s->ng; gi++) {
		const struct g *gp = &s->allg[gi];
		live += g_status(gp) != G_DEAD;
		if (!s->scratch[gi] && gp->place != PL_DEAD && gp->place != PL_NEW) {
			sim_broken(s, "G%d records place %s but is in none", goid(s, gi), sim_place_name(gp->place));
			return -1;
		}
	}
	if (live != s->nlive) {
		sim_broken(s, "nlive is %lld but %lld Gs are live", (long long)s->nlive, (long long)live);
		return -1;
	}
	return cpu_check(s);
}

/* The fewest checks between two full walks. */
#define CHECK_PERIOD_MIN 64

/* P pi's own fields, ring length and counts, without marking its Gs. */
static int check_p_fields(struct sim *s, int32_t pi, int64_t *ntimers)
{
	const struct p *pp = &s->allp[pi];
	uint32_t len = runq_len(pp);
	if (len > RUNQ_SIZE || (pp->status == P_IDLE && (len || pp->runnext >= 0 || pp->m >= 0 || pp->sysm >= 0)) ||
	    (pp->status == P_RUNNING && (pp->m < 0 || s->allm[pp->m].p != pi)) || (pp->status == P_SYSCALL && pp->m >= 0)) {
		sim_broken(s, "P%d: status %d, M%d, ring %u, runnext %d", pi, pp->status, pp->m, len, pp->runnext);
		return -1;
	}
	if (p_lost_schedule(s, pi)) {
		sim_broken(s, "P%d's M has no G but the P is not in the needs-schedule set (nor asleep)", pi);
		return -1;
	}
	if (pmask_has(s->busyp, pi) != (pp->status != P_IDLE)) {
		sim_broken(s, "P%d has status %d but is %sin busyp", pi, pp->status, pmask_has(s->busyp, pi) ? "" : "not ");
		return -1;
	}
	if (pmask_has(s->runqp, pi) != (len > 0 || pp->runnext >= 0)) {
		sim_broken(s, "P%d's queues hold %u + %d Gs but it is %sin runqp", pi, len, pp->runnext >= 0,
			   pmask_has(s->runqp, pi) ? "" : "not ");
		return -1;
	}
	if (pmask_has(s->timerp, pi) != (pp->timers.len > 0)) {
		sim_broken(s, "P%d has %d timers but is %sin timerpMask", pi, pp->timers.len,
			   pmask_has(s->timerp, pi) ? "" : "not ");
		return -1;
	}
	*ntimers += pp->timers.len;
	return 0;
}

/* Whether G gi is in P pi's ring (at most RUNQ_SIZE looks). */
static int in_ring(const struct sim *s, int32_t pi, int32_t gi)
{
	const struct p *pp = &s->allp[pi];
	for (uint32_t i = pp->runqhead; i != pp->runqtail; i++)
		if (pp->runq[i % RUNQ_SIZE] == gi)
			return 1;
	return 0;
}

/* A G that moved is where it records. */
static int check_moved(struct sim *s, int32_t gi)
{
	const struct g *gp = &s->allg[gi];
	int ok = 1;
	switch (gp->place) {
	case PL_RUNNEXT:
		ok = gp->p >= 0 && s->allp[gp->p].runnext == gi;
		break;
	case PL_LOCAL:
		ok = gp->p >= 0 && in_ring(s, gp->p, gi);
		break;
	case PL_GLOBAL:
		ok = gp->p < 0 && s->runq.size > 0;
		break;
	case PL_RUNNING:
	case PL_SYSCALL: { /* g_m: its P's M, or the M its syscall kept in schedlink */
		int32_t m = gp->place == PL_SYSCALL		   ? gp->schedlink
			    : gp->p >= 0 && gp->p < s->nprocs ? s->allp[gp->p].m
							       : -1;
		ok = m >= 0 && m < s->nm && s->allm[m].curg == gi;
		break;
	}
	case PL_WAITING: {
		int32_t n = 0;
		for (int32_t sg = g_waiting(gp); ok && sg >= 0; sg = s->sudogs[sg].waitlink)
			ok = sg < s->nsudog && s->sudogs[sg].g == gi && n++ <= s->nsudog;
		break;
	}
	default: /* new, dead: nowhere */
		ok = gp->p < 0;
	}
	if (!ok)
		sim_broken(s, "G%d moved to %s but is not there", goid(s, gi), sim_place_name(gp->place));
	return ok ? 0 : -1;
}

static int check_step(struct sim *s)
{
	int64_t ntimers = 0;
	for (int32_t pi = 0; pi < s->nprocs; pi++)
		if (check_p_fields(s, pi, &ntimers) != 0)
			return -1;
	if (ntimers != s->ntimers) {
		sim_broken(s, "ntimers %lld, but the heaps hold %lld", (long long)s->ntimers, (long long)ntimers);
		return -1;
	}
	for (int32_t i = 0; i < s->ntouched; i++)
		if (s->touched[i] < s->ng && check_moved(s, s->touched[i]) != 0)
			return -1;
	return 0;
}

void sim_check_full(struct sim *s)
{
	if (!s->cfg.check || s->status != SIM_RUNNING)
		return;
	s->ntouched = 0;
	s->checks_since_full = 0;
	if (s->scratch_cap < (int64_t)s->ng + s->nsudog) {
		free(s->scratch);
		s->scratch_cap = (int64_t)s->gcap + s->sudogcap;
		s->scratch = malloc((size_t)s->scratch_cap);
		if (!s->scratch) {
			s->scratch_cap = 0;
			sim_oom(s, "the checker");
			return;
		}
	}
	for (int64_t i = 0; i < (int64_t)s->ng + s->nsudog; i++)
		s->scratch[i] = 0;
	check_all(s);
}

void sim_check_step(struct sim *s)
{
	if (!s->cfg.check || s->status != SIM_RUNNING)
		return;
	int64_t size = (int64_t)s->ng + s->nsudog + s->nm + s->nprocs;
	if (s->ntouched > CHECK_LOG || ++s->checks_since_full >= (size / 16 > CHECK_PERIOD_MIN ? size / 16 : CHECK_PERIOD_MIN)) {
		sim_check_full(s);
		return;
	}
	check_step(s);
	s->ntouched = 0;
}
