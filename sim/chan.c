/* chan.c: chansend/chanrecv with direct handoff (see chan.h). */
#include "chan.h"

#include "runq.h"

/* goready -> ready(gp, next=true): runqput on the waker's P. */
static void goready(struct sim *s, int32_t gi, int32_t waker)
{
	runq_put(s, s->allg[waker].p, gi, 1, R_CHAN);
}

static void gopark(struct sim *s, int32_t gi, int32_t ci, struct gqueue *q, int reason)
{
	struct g *gp = &s->allg[gi];
	s->allm[gp->m].curg = -1;
	sim_move_g_waiting(s, gi, R_CHAN, reason, ci);
	gqueue_push(s, q, gi);
}

static struct gqueue *waitq(struct chan *c, int recv)
{
	return recv ? &c->recvq : &c->sendq;
}

int chan_op(struct sim *s, int32_t gi, int32_t ci, int send)
{
	struct chan *c = &s->chans[ci];
	int32_t peer = gqueue_pop(s, waitq(c, send));
	if (peer >= 0) { /* send(): direct handoff; recv() from a full buffer keeps count */
		goready(s, peer, gi);
		return 1;
	}
	if (send && c->count < c->cap) {
		c->count++;
		return 1;
	}
	if (!send && c->count > 0) {
		c->count--;
		return 1;
	}
	gopark(s, gi, ci, waitq(c, !send), send ? WR_CHAN_SEND : WR_CHAN_RECV);
	return 0;
}
