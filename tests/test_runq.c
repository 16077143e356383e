/* test_runq.c: runnext, the local ring, spills, steals and the global
 * batch, each on a hand-built state, and the queues against a plain array
 * model under seeded random operations. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/rng.h"
#include "../sim/runq.h"
#include "helpers.h"

static struct sim *s;
static const struct program *prog;
static struct evlog log_;

static void setup4(void) { s = bare_sim(4, &prog, &log_); }
static void teardown(void)
{
	cr_assert_eq(s->status, SIM_RUNNING, "%s", s->msg);
	sim_check_full(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", s->msg);
	sim_free(s);
	program_free((struct program *)prog);
	free(log_.ev);
	log_ = (struct evlog){ 0 };
}

static int32_t newg(void) { return sim_newg(s, 0); }

static int32_t ring_at(int32_t pi, uint32_t i)
{
	const struct p *pp = &s->allp[pi];
	return pp->runq[(pp->runqhead + i) % RUNQ_SIZE];
}

TestSuite(runq, .init = setup4, .fini = teardown);

Test(runq, go_puts_new_g_in_runnext_and_kicks_old_one_to_local_tail)
{
	int32_t a = newg(), b = newg(), c = newg();
	runq_put(s, 0, a, 1, R_GO);
	runq_put(s, 0, b, 1, R_GO);
	runq_put(s, 0, c, 1, R_GO);
	cr_assert_eq(s->allp[0].runnext, c);
	cr_assert_eq(runq_len(&s->allp[0]), 2);
	cr_assert_eq(ring_at(0, 0), a);
	cr_assert_eq(ring_at(0, 1), b);
	long k = evlog_find(&log_, 0, EV_G, goid(s, a), PL_LOCAL);
	cr_assert_geq(k, 0);
	cr_assert_eq(log_.ev[k].reason, R_KICK);
	cr_assert_eq(log_.ev[k].from, PL_RUNNEXT);
}

Test(runq, full_ring_moves_oldest_half_and_the_new_g_to_global_in_order)
{
	int32_t g[RUNQ_SIZE + 1];
	for (int i = 0; i <= RUNQ_SIZE; i++) {
		g[i] = newg();
		runq_put(s, 0, g[i], 0, R_GO);
	}
	cr_assert_eq(runq_len(&s->allp[0]), RUNQ_HALF);
	cr_assert_eq(s->runq.size, RUNQ_HALF + 1);
	int32_t gi = s->runq.head;
	for (int i = 0; i < RUNQ_HALF; i++, gi = s->allg[gi].schedlink)
		cr_assert_eq(gi, g[i], "global position %d", i);
	cr_assert_eq(gi, g[RUNQ_SIZE], "the new G is last");
	cr_assert_eq(ring_at(0, 0), g[RUNQ_HALF], "the ring keeps the newest half");
	cr_assert_eq(s->sum.spills, 1);
	long k = evlog_find(&log_, 0, EV_SPILL, -1, -1);
	cr_assert_eq(log_.ev[k].n, RUNQ_HALF + 1);
}

Test(runq, kicked_runnext_g_spills_after_the_oldest_half)
{
	int32_t first = newg();
	runq_put(s, 0, first, 1, R_GO);
	for (int i = 0; i < RUNQ_SIZE; i++)
		runq_put(s, 0, newg(), 0, R_GO);
	int32_t last = newg();
	runq_put(s, 0, last, 1, R_GO); /* kicks `first` into a full ring */
	cr_assert_eq(s->allp[0].runnext, last);
	cr_assert_eq(s->runq.tail, first);
	cr_assert_eq(s->allg[first].place, PL_GLOBAL);
}

Test(runq, runqget_takes_runnext_first_and_it_inherits_the_slice)
{
	int32_t a = newg(), b = newg();
	runq_put(s, 1, a, 0, R_GO);
	runq_put(s, 1, b, 1, R_GO);
	int inherit;
	cr_assert_eq(runq_get(s, 1, &inherit), b);
	cr_assert_eq(inherit, 1);
	cr_assert_eq(runq_get(s, 1, &inherit), a);
	cr_assert_eq(inherit, 0);
	cr_assert_eq(runq_get(s, 1, &inherit), -1);
	sim_move_g(s, a, PL_GLOBAL, -1, R_NONE); /* put them somewhere for the checker */
	sim_move_g(s, b, PL_GLOBAL, -1, R_NONE);
	gqueue_push(s, &s->runq, a);
	gqueue_push(s, &s->runq, b);
}

Test(runq, steal_takes_half_rounded_up_oldest_first_and_returns_the_newest_taken)
{
	int32_t g[5];
	for (int i = 0; i < 5; i++) {
		g[i] = newg();
		runq_put(s, 0, g[i], 0, R_GO);
	}
	p_set_status(s, 1, P_RUNNING); /* a thief with an M */
	s->allp[1].m = 0;
	int32_t run = runq_steal(s, 1, 0, 0);
	cr_assert_eq(run, g[2], "3 of 5 taken; the thief runs the last");
	cr_assert_eq(runq_len(&s->allp[1]), 2);
	cr_assert_eq(ring_at(1, 0), g[0]);
	cr_assert_eq(ring_at(1, 1), g[1]);
	cr_assert_eq(runq_len(&s->allp[0]), 2);
	cr_assert_eq(ring_at(0, 0), g[3]);
	long k = evlog_find(&log_, 0, EV_STEAL, -1, -1);
	cr_assert_eq(log_.ev[k].n, 3);
	cr_assert_eq(log_.ev[k].victim, 0);
	sim_move_g(s, run, PL_GLOBAL, -1, R_NONE);
	gqueue_push(s, &s->runq, run);
	p_set_status(s, 1, P_IDLE);
	s->allp[1].m = -1;
	int inherit;
	while ((run = runq_get(s, 1, &inherit)) >= 0) { /* idle Ps keep empty queues */
		sim_move_g(s, run, PL_GLOBAL, -1, R_NONE);
		gqueue_push(s, &s->runq, run);
	}
}

static void run_on_p0(void)
{
	int32_t r = newg();
	s->allm[0].curg = r;
	sim_move_g(s, r, PL_RUNNING, 0, R_SCHEDULE);
}

Test(runq, steal_takes_a_busy_victims_runnext_only_on_the_last_pass)
{
	run_on_p0();
	int32_t a = newg();
	runq_put(s, 0, a, 1, R_GO);
	cr_assert_eq(runq_steal(s, 2, 0, 0), -1, "not on the first three passes");
	cr_assert_eq(runq_steal(s, 2, 0, 1), a, "on the last pass");
	cr_assert_eq(s->allp[0].runnext, -1);
	long k = evlog_find(&log_, 0, EV_STEAL, -1, -1);
	cr_assert_eq(log_.ev[k].runnext, 1);
	sim_move_g(s, a, PL_GLOBAL, -1, R_NONE);
	gqueue_push(s, &s->runq, a);
}

Test(runq, a_victim_between_goroutines_keeps_its_runnext)
{
	int32_t a = newg();
	runq_put(s, 0, a, 1, R_GO); /* P0's M has no G: it is in schedule() */
	cr_assert_eq(runq_steal(s, 2, 0, 1), -1, "the victim runs it during the thief's back-off");
	cr_assert_eq(s->allp[0].runnext, a);
}

static void fill_global(int n)
{
	for (int i = 0; i < n; i++) {
		int32_t gi = newg();
		sim_move_g(s, gi, PL_GLOBAL, -1, R_NONE);
		gqueue_push(s, &s->runq, gi);
	}
}

static void drain_p0(int32_t first)
{
	sim_move_g(s, first, PL_GLOBAL, -1, R_NONE);
	gqueue_push(s, &s->runq, first);
}

/* --model=runtime: runqgrab's usleep(3) (on Linux 3us plus the timer
 * slack) before a running victim's runnext, as time, counted from when the
 * thief looks (a G long in runnext waits the whole back-off too). */
Test(runq, in_the_runtime_model_a_thief_sleeps_out_the_back_off_from_its_own_look)
{
	s->cfg.model = MODEL_RUNTIME;
	run_on_p0();
	int32_t a = newg();
	runq_put(s, 0, a, 1, R_GO);
	s->now = 500;
	cr_assert_eq(runq_backoff_until(s, 2), -1, "no thief has looked");
	cr_assert_eq(runq_steal(s, 2, 0, 1), RUNQ_BACKOFF, "the look starts usleep(3)");
	cr_assert_eq(runq_backoff_until(s, 2), 500 + RUNQGRAB_BACKOFF_US, "the thief sleeps until then");
	s->now = 500 + RUNQGRAB_BACKOFF_US - 1;
	cr_assert_eq(runq_steal(s, 2, 0, 1), -1, "still in usleep(3)");
	cr_assert_eq(s->allp[0].runnext, a);
	s->now = 500 + RUNQGRAB_BACKOFF_US;
	cr_assert_eq(runq_backoff_until(s, 2), -1, "the sleep is over");
	cr_assert_eq(runq_steal(s, 2, 0, 1), a, "taken after the sleep, still in runnext");
	drain_p0(a);
}

Test(runq, in_the_runtime_model_the_back_off_includes_the_timer_slack)
{
	s->cfg.model = MODEL_RUNTIME;
	s->cfg.sysmon_slack_us = 50;
	run_on_p0();
	int32_t a = newg();
	runq_put(s, 0, a, 1, R_GO);
	cr_assert_eq(runq_steal(s, 2, 0, 1), RUNQ_BACKOFF);
	s->now = RUNQGRAB_BACKOFF_US + 49;
	cr_assert_eq(runq_steal(s, 2, 0, 1), -1);
	s->now = RUNQGRAB_BACKOFF_US + 50;
	cr_assert_eq(runq_steal(s, 2, 0, 1), a);
	drain_p0(a);
}

/* runqgrab's loop: after the sleep runnext.cas(next, 0) fails if the G
 * left; the thief looks again, at the ring (where a newer ready kicked it)
 * or at the new runnext G, which costs a sleep of its own. */
Test(runq, in_the_runtime_model_a_thief_whose_g_was_kicked_to_the_ring_takes_it_there)
{
	s->cfg.model = MODEL_RUNTIME;
	run_on_p0();
	int32_t a = newg(), b = newg();
	runq_put(s, 0, a, 1, R_GO);
	cr_assert_eq(runq_steal(s, 2, 0, 1), RUNQ_BACKOFF);
	s->now = 10;
	runq_put(s, 0, b, 1, R_GO); /* a to the ring's tail */
	s->now = RUNQGRAB_BACKOFF_US;
	cr_assert_eq(runq_steal(s, 2, 0, 1), a, "half the ring, rounded up");
	cr_assert_eq(s->allp[0].runnext, b);
	drain_p0(a);
	s->now = RUNQGRAB_BACKOFF_US + 1;
	cr_assert_eq(runq_steal(s, 2, 0, 1), RUNQ_BACKOFF, "b is new: a sleep of its own");
	cr_assert_eq(runq_backoff_until(s, 2), 2 * RUNQGRAB_BACKOFF_US + 1);
	int inherit;
	cr_assert_eq(runq_get(s, 0, &inherit), b, "the victim runs b itself");
	drain_p0(b);
}

Test(runq, in_the_seed_model_a_running_victims_runnext_is_taken_at_once)
{
	s->cfg.sysmon_slack_us = 50;
	run_on_p0();
	int32_t a = newg();
	runq_put(s, 0, a, 1, R_GO);
	cr_assert_eq(runq_steal(s, 2, 0, 1), a);
	cr_assert_eq(runq_backoff_until(s, 2), -1);
	drain_p0(a);
}


Test(runq, global_batch_is_size_over_gomaxprocs_plus_one)
{
	fill_global(10);
	int32_t first = globrunq_get(s, 0, 0);
	cr_assert_eq(first, 1, "the head");
	cr_assert_eq(runq_len(&s->allp[0]), 2, "min(10, 10/4+1, 128) = 3: one runs, two queue");
	cr_assert_eq(s->runq.size, 7);
	drain_p0(first);
}

Test(runq, global_batch_is_capped_at_half_a_ring)
{
	fill_global(1000);
	int32_t first = globrunq_get(s, 0, 0);
	cr_assert_eq(runq_len(&s->allp[0]), 127, "min(1000, 251, 128) = 128");
	drain_p0(first);
}

Test(runq, global_get_with_max_one_takes_one)
{
	fill_global(10);
	int32_t first = globrunq_get(s, 0, 1);
	cr_assert_eq(runq_len(&s->allp[0]), 0);
	cr_assert_eq(s->runq.size, 9);
	drain_p0(first);
}

/* A plain model: runnext slot plus an array ring, and a global array. */
struct model {
	int32_t runnext, ring[4096], glob[8192];
	int nring, nglob;
};

static void model_put(struct model *m, int32_t g, int next)
{
	if (next) {
		int32_t old = m->runnext;
		m->runnext = g;
		if (old < 0)
			return;
		g = old;
	}
	if (m->nring < RUNQ_SIZE) {
		m->ring[m->nring++] = g;
		return;
	}
	for (int i = 0; i < RUNQ_HALF; i++)
		m->glob[m->nglob++] = m->ring[i];
	m->glob[m->nglob++] = g;
	memmove(m->ring, m->ring + RUNQ_HALF, RUNQ_HALF * sizeof m->ring[0]);
	m->nring = RUNQ_HALF;
}

static int32_t model_get(struct model *m)
{
	if (m->runnext >= 0) {
		int32_t g = m->runnext;
		m->runnext = -1;
		return g;
	}
	if (m->nring == 0)
		return -1;
	int32_t g = m->ring[0];
	memmove(m->ring, m->ring + 1, (size_t)--m->nring * sizeof m->ring[0]);
	return g;
}

Test(runq, queues_match_an_array_model_under_random_operations)
{
	struct model *m = calloc(1, sizeof *m);
	m->runnext = -1;
	struct rng r;
	rng_init(&r, 42, RNG_STEAL);
	for (int step = 0; step < 3000; step++) {
		uint32_t x = rng_next32(&r) % 10;
		if (x < 6 && s->ng < 2000) {
			int32_t g = newg();
			int next = x < 2;
			runq_put(s, 0, g, next, R_GO);
			model_put(m, g, next);
		} else {
			int inherit;
			int32_t g = runq_get(s, 0, &inherit), want = model_get(m);
			cr_assert_eq(g, want, "step %d", step);
			if (g >= 0) {
				sim_move_g(s, g, PL_DEAD, -1, R_EXIT);
				s->nlive--;
			}
		}
		cr_assert_eq(runq_len(&s->allp[0]), (uint32_t)m->nring, "step %d", step);
		cr_assert_eq(s->runq.size, m->nglob, "step %d", step);
	}
	int32_t gi = s->runq.head;
	for (int i = 0; i < m->nglob; i++, gi = s->allg[gi].schedlink)
		cr_assert_eq(gi, m->glob[i]);
	int inherit;
	int32_t g;
	while ((g = runq_get(s, 0, &inherit)) >= 0) {
		sim_move_g(s, g, PL_DEAD, -1, R_EXIT);
		s->nlive--;
	}
	free(m);
}
