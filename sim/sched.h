/* sched.h: the scheduling loop: schedule, findRunnable, stealWork and
 * execute (runtime/proc.go).
 *
 * sched_find_runnable reads as the runtime's ordered list of work sources:
 * one G from the global queue every 61st schedtick, runnext, the local
 * ring, a global batch, then stealing. sched_all() runs the scheduler on
 * every P that needs it at the current instant, until none makes progress:
 * first the Ps whose M has just lost its G (id order), then idle Ps in the
 * order pidleget would hand them out, while there is work they can reach.
 *
 * Simplification (the seed model): every idle P looks for work at every
 * instant something changes, as if a spinning M were always at hand; an M
 * is woken (or created) only for a P that finds work. The runtime wakes at
 * most one spinning M per new G (wakep), limits spinners to half the busy
 * Ps, and a woken thread takes tens of microseconds to start. Context
 * switches and steals take no time.
 *
 * The runtime model (--model=runtime) instead: wakep starts a spinning M
 * only when none spins (nmspinning 0 -> 1), the M takes --thread-wake to
 * run findRunnable; an M out of local work steals only while
 * 2*nmspinning < gomaxprocs - npidle (becoming spinning); a spinner that
 * finds only a runnext in runqgrab's back-off sleeps until it ends; one
 * that finds nothing drops its P and parks (stopm). */
#ifndef GOSIM_SCHED_H
#define GOSIM_SCHED_H

#include "state.h"

/* What findRunnable found: the G (still recorded in the place it was
 * taken from, which execute reports), whether it inherits the time slice,
 * and the reason the trace gives. */
struct found {
	int32_t g;
	int inherit;
	int reason;
	int rule;        /* --explain: which source (enum sim_rule) */
	int32_t rule_n;
};

int sched_find_runnable(struct sim *s, int32_t pi, struct found *f);
void sched_execute(struct sim *s, int32_t pi, const struct found *f);
/* P pi's G has just left its M in schedule_busy_ps's pass: the G the
 * pass's next schedule of pi would run, already executed, when nothing
 * else can come first; -1 (nothing done) otherwise (sched.c). */
int32_t sched_next_in_pass(struct sim *s, int32_t pi);
/* sched_all's loop (sched.c): the Ps between goroutines, the M back
 * from netpoll, wakep's idle P, until none makes progress. */
void sched_all_loop(struct sim *s);

/* Whether sched_all would find nothing to do: no M back from netpoll
 * with Gs, no P in the needs-schedule set (up to 64 Ps one word, else its
 * four at once: no bit past nprocs is set), and
 * wake_idle_p would return at once (no idle P, or, in the runtime model,
 * no wakep call or an M spinning already). The test wake_idle_p makes
 * first, without its side effects. */
static inline int sched_nothing(const struct sim *s)
{
	if (s->status != SIM_RUNNING)
		return 1;
	_Static_assert(sizeof s->needsched == 4 * sizeof s->needsched[0], "the set is four words (MAX_PROCS 256)");
	if ((s->netpoll_blocked && s->netready.size != 0) ||
	    (s->nprocs <= 64 ? s->needsched[0] : s->needsched[0] | s->needsched[1] | s->needsched[2] | s->needsched[3]) != 0)
		return 0;
	return s->pidle < 0 || (s->cfg.model == MODEL_RUNTIME && (s->wakep_calls == 0 || s->nmspinning != 0));
}

/* The scheduler at the end of an instant's events. Inline: the instants
 * where nothing needs it (sched_nothing) pay for one test, not for the
 * loop's frame. */
static inline void sched_all(struct sim *s)
{
	if (!sched_nothing(s))
		sched_all_loop(s);
	s->wakep_calls = 0; /* the rest found a spinning M or no idle P: wakep does nothing */
}
int sched_reachable_work(struct sim *s);

#endif
