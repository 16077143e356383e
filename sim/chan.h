/* chan.h: channels, unbuffered and buffered (runtime/chan.go).
 *
 * A send to a waiting receiver, or a receive from a waiting sender, hands
 * the value over directly and readies the other G with goready: it goes to
 * the *waker's* P, in runnext, and the waker keeps running. Otherwise a
 * buffered channel with room (or values) completes at once, and anything
 * else parks the G (park_gopark) on the channel's FIFO sendq or recvq; the
 * op is resumed by exec.c when the peer readies it.
 * Only counts are kept, never values.
 * Simplification: close and select are not modelled. */
#ifndef GOSIM_CHAN_H
#define GOSIM_CHAN_H

#include "state.h"

/* chansend/chanrecv for the running G gi: returns 1 if the op completed
 * and the G runs on, 0 if it parked (or the run broke). */
int chan_op(struct sim *s, int32_t gi, int32_t ci, int send);

#endif
