/* chan.c: chansend/chanrecv with direct handoff (see chan.h). */
#include "chan.h"

#include "park.h"

static struct waitq *waitq(struct chan *c, int recv)
{
	return recv ? &c->recvq : &c->sendq;
}

int chan_op(struct sim *s, int32_t gi, int32_t ci, int send)
{
	struct chan *c = &s->chans[ci];
	int32_t sg = park_dequeue(s, waitq(c, send));
	if (sg >= 0) { /* send(): direct handoff; recv() from a full buffer keeps count */
		park_goready(s, sg, -1, s->allg[gi].p, PARAM_OK, R_CHAN);
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
	park_gopark(s, gi, send ? WR_CHAN_SEND : WR_CHAN_RECV, R_CHAN, ci);
	if (park_enqueue(s, waitq(&s->chans[ci], !send), gi, send ? WQ_CHAN_SEND : WQ_CHAN_RECV, ci, -1) < 0)
		return 0;
	return 0;
}
