/* runq.h: where runnable goroutines wait: each P's runnext slot and
 * 256-slot ring, and the global queue.
 *
 * Mirrors runqput, runqputslow, runqget, runqgrab/runqsteal, globrunqput
 * and globrunqget (runtime/proc.go). Invariants: a ring holds at most
 * RUNQ_SIZE Gs (tail - head); runnext holds at most one; the global queue's
 * size equals its length; a P is in s->runqp exactly when its runnext or
 * ring holds a G (sim_any_queued). Every move is reported to the sink as an EV_G record (plus EV_SPILL
 * and EV_STEAL for the batch moves). */
#ifndef GOSIM_RUNQ_H
#define GOSIM_RUNQ_H

#include "state.h"

void runq_put(struct sim *s, int32_t pi, int32_t gi, int next, int reason);
int32_t runq_get(struct sim *s, int32_t pi, int *inherit);
int32_t runq_steal(struct sim *s, int32_t pi, int32_t p2, int steal_runnext);
int runq_empty(const struct sim *s, int32_t pi);
/* The runtime model: may thief P pi take P p2's runnext now (its
 * runqgrab back-off on that G over, or the victim not running a G)? 1:
 * yes; 0: no, in the back-off; -1: no, the first look starts the back-off
 * (on pi). Always 1 in the seed. */
int runq_runnext_take(struct sim *s, int32_t pi, int32_t p2);
/* runq_steal's answer when the thief's runqgrab back-off starts (its
 * usleep(3), whose CPU the caller charges). */
#define RUNQ_BACKOFF (-2)
/* When thief P pi's back-off ends, if it is in one; else -1. */
int64_t runq_backoff_until(const struct sim *s, int32_t pi);
static inline uint32_t runq_len(const struct p *pp) { return pp->runqtail - pp->runqhead; }

void globrunq_put(struct sim *s, int32_t gi, int reason);
int32_t globrunq_get(struct sim *s, int32_t pi, int64_t max);

/* The G queues threaded through g.schedlink (global queue, channel waits). */
void gqueue_push(struct sim *s, struct gqueue *q, int32_t gi);
int32_t gqueue_pop(struct sim *s, struct gqueue *q);

#endif
