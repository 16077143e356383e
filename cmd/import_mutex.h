/* import_mutex.h: the sync.Mutex sections a Go execution trace leaves out,
 * inferred for gosim import (docs/import.md).
 *
 * A Lock that did not block and an Unlock that woke nobody leave no event.
 * What the trace does show of a mutex, per goroutine, is three events: its
 * block in Lock, its wake from that block, and an Unlock of its that woke a
 * waiter (import.c reconstructs each as lock/unlock ops). Between two of a
 * goroutine's such events (a stretch) it ran for a known CPU time, and the
 * stretch's ends are in known states: out of the lock after an Unlock and
 * before a block in Lock (and at the goroutine's start); holding it before an
 * Unlock (Unlock of an unlocked Mutex is a fatal error, sync/mutex.go); after
 * a wake, holding it, unless it blocks again within one pass (woken, it found
 * the mutex taken again: lockSlow's loop parks once more).
 *
 * The inference, per mutex (named by the site that calls Lock): the pass P,
 * the shortest stretch from an Unlock that woke a waiter to the same
 * goroutine's next such Unlock (it holds at least one Lock, so at least one
 * pass: work out of the lock, the Lock, the section); the section H, the
 * median stretch from a wake to the goroutine's Unlock (a section seen
 * whole); the work out of it G = P - H. A stretch holds as many whole
 * passes as fit at P beside what its ends imply (an out-to-out stretch
 * G + n*P, a wake to an Unlock H + n*P, a wake to a block (n+1)*P, an out
 * to an Unlock G + n*P + the last section), each laid out as work and
 * section in the ratio G:H scaled to the stretch, so its CPU time is kept to
 * the tick. The last section before an Unlock keeps its start from the
 * waiter's block where import.c had one in the stretch (the lock was held
 * then), else it is H long.
 * Simplification (and an assumption): the goroutine's CPU time between its
 * mutex events is passes of one loop (lock, section, unlock, work); a
 * stretch that does other work there gets sections in it that were not. A
 * stretch is laid out only when nothing but run ops lie in it.
 *
 * Where a goroutine's mutex events have other ops between them (a receive
 * of a job in each pass), its passes are the ops between those ops
 * instead (mutex_passes).
 *
 * No recursion; memory: one record per stretch. */
#ifndef GOSIM_IMPORT_MUTEX_H
#define GOSIM_IMPORT_MUTEX_H

#include <jansson.h>
#include <stddef.h>

enum { MX_NONE, MX_START, MX_OUT, MX_WOKE }; /* how a stretch begins */
enum { MX_BLOCK, MX_UNLOCK, MX_END };        /* how it ends */

/* A goroutine's open stretch: the ops of arr from index at on (after the op
 * after, NULL at the array's start); mu the mutex of the event that opened
 * it (NULL at the goroutine's start). */
struct mx_open {
	json_t *arr, *after;
	size_t at;
	int from;
	char *mu;
};

/* A closed stretch: ops at .. at + n - 1 of arr (after the op after, the
 * last one last). */
struct mx_seg {
	json_t *arr, *after, *last;
	size_t at, n;
	int from, to;
	char *mu;
	long d_us, h0_us;  /* its CPU time; an Unlock's last section as import.c made it */
	int ok;            /* nothing but what its ends put there: laid out */
};

struct mx_log {
	struct mx_seg *s;
	size_t n, cap;
};

/* Opens o after arr's last op (an event's own ops come before it). */
int mx_begin(struct mx_open *o, json_t *arr, int from, const char *mu);
/* Closes o at arr's last op (an Unlock's ops are the stretch's end), for
 * mutex mu (NULL: o's own); kept in log when it is one mutex's stretch
 * in one array. Returns -1 out of memory. */
int mx_end(struct mx_log *log, struct mx_open *o, json_t *arr, int to, const char *mu);
/* Lays out the logged stretches: returns how many sections it inferred
 * (whole Lock .. Unlock pairs that left no event), or -1 out of memory. */
long mutex_infer(struct mx_log *log);
/* Passes of one shape: in each of arrs (the ops of the goroutines of one
 * function, after mutex_infer), the op other than run, lock and unlock
 * that occurs most often (at least 16 times, and the same op in all: a
 * receive of a job channel) begins each pass. One pass is the median pass
 * of runs only; the Lock's offset is the median CPU offset from the pass's
 * start of a block in Lock (a block is at the Lock), the Unlock's the
 * median offset of an Unlock that woke a waiter (a seen section starts
 * where its waiter blocked, later than the Lock), each over the passes at
 * most half a pass longer (between two seen anchors there may be several
 * passes, where a receive did not block) and at least 8 of each, over the
 * goroutines. Each pass of runs only from half to 1.5 times one pass long
 * gets a section there, scaled to it. Returns the sections added, or -1
 * out of memory.
 * Simplification (an assumption): a function's passes of one shape all take
 * the lock; a loop that locks in some passes only gets a section in each,
 * and a longer pass (several, between two seen anchors) gets none. */
long mutex_passes(json_t **arrs, size_t narr);
void mx_free(struct mx_log *log);

#endif
