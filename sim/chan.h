/* chan.h: channels, unbuffered and buffered (runtime/chan.go).
 *
 * A send to a waiting receiver, or a receive from a waiting sender, hands
 * the value over directly and readies the other G with goready: it goes to
 * the *waker's* P, in runnext, and the waker keeps running. Otherwise a
 * buffered channel with room (or values) completes at once, and anything
 * else parks the G (park_gopark) on the channel's FIFO sendq or recvq; the
 * op is resumed by exec.c when the peer readies it.
 * Only counts are kept, never values.
 * close (closechan) readies every waiter: receivers get the zero value,
 * senders panic ("send on closed channel", as a send on a closed channel
 * does at once); a closed channel's buffer still drains. */
#ifndef GOSIM_CHAN_H
#define GOSIM_CHAN_H

#include "state.h"

enum chan_result {
	CHAN_PARKED,  /* the G parked; g.param says how it ended when it wakes */
	CHAN_DONE,    /* completed: the G runs on */
	CHAN_CLOSED,  /* a receive from a closed, drained channel: the zero value */
	CHAN_DIED     /* a send on a closed channel: the program panicked */
};

/* chansend/chanrecv for the running G gi. */
int chan_op(struct sim *s, int32_t gi, int32_t ci, int send);
/* Whether a send (recv) on channel ci would not block now: selectgo's
 * first pass (a send on a closed channel counts: it panics). */
int chan_ready(const struct sim *s, int32_t ci, int send);
/* closechan by the running G gi (a second close panics). */
void chan_close(struct sim *s, int32_t gi, int32_t ci);

#endif
