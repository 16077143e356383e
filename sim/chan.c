/* chan.c: chansend/chanrecv with direct handoff (see chan.h). */
#include "chan.h"

#include "park.h"

/* g.param for a waiter with sudog sg (-1: an inline one, a plain op):
 * PARAM_OK/PARAM_CLOSED, or for a select's case its index * 2 + closed. */
static int32_t wake_param(const struct sim *s, int32_t sg, int closed)
{
	int icase = sg >= 0 ? s->sudogs[sg].icase : -1;
	return icase >= 0 ? icase * 2 + closed : closed ? PARAM_CLOSED : PARAM_OK;
}

static struct waitq *waitq(struct chan *c, int recv)
{
	return recv ? &c->recvq : &c->sendq;
}

int chan_op(struct sim *s, int32_t gi, int32_t ci, int send)
{
	struct chan *c = &s->chans[ci];
	if (c->closed && send) {
		sim_crash(s, gi, "panic", "send on closed channel");
		return CHAN_DIED;
	}
	if (c->closed && c->count == 0)
		return CHAN_CLOSED; /* chanrecv: closed and drained, the zero value at once */
	struct waitq *q = waitq(c, send);
	if (q->g1 >= 0) { /* the first waiter, inline: a plain op's, PARAM_OK (wake_param) */
		park_ready_inline(s, q, s->allg[gi].p, PARAM_OK, R_CHAN);
		return CHAN_DONE;
	}
	struct waiter w = park_take(s, q);
	if (w.g >= 0) { /* send(): direct handoff; recv() from a full buffer keeps count */
		park_goready(s, w.sg, w.g, s->allg[gi].p, wake_param(s, w.sg, 0), R_CHAN);
		return CHAN_DONE;
	}
	if (send && c->count < c->cap) {
		c->count++;
		return CHAN_DONE;
	}
	if (!send && c->count > 0) {
		c->count--;
		return CHAN_DONE;
	}
	park_gopark(s, gi, send ? WR_CHAN_SEND : WR_CHAN_RECV, R_CHAN, ci);
	park_enqueue_g(s, waitq(&s->chans[ci], !send), gi, send ? WQ_CHAN_SEND : WQ_CHAN_RECV, ci);
	return CHAN_PARKED;
}

/* closechan: every parked receiver gets the zero value (success = false),
 * every parked sender will panic; they are readied in the LIFO order of
 * closechan's gList (senders, last first, then receivers, last first),
 * each into the closer's runnext. */
void chan_close(struct sim *s, int32_t gi, int32_t ci)
{
	struct chan *c = &s->chans[ci];
	if (c->closed) {
		sim_crash(s, gi, "panic", "close of closed channel");
		return;
	}
	c->closed = 1;
	int32_t pi = s->allg[gi].p;
	struct waiter w;
	while ((w = park_take_last(s, &s->chans[ci].sendq)).g >= 0)
		park_goready(s, w.sg, w.g, pi, wake_param(s, w.sg, 1), R_CLOSE);
	while ((w = park_take_last(s, &s->chans[ci].recvq)).g >= 0)
		park_goready(s, w.sg, w.g, pi, wake_param(s, w.sg, 1), R_CLOSE);
}

int chan_ready(const struct sim *s, int32_t ci, int send)
{
	const struct chan *c = &s->chans[ci];
	if (send)
		return c->closed || c->recvq.size > 0 || c->count < c->cap;
	return c->closed || c->sendq.size > 0 || c->count > 0;
}
