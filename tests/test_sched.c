/* test_sched.c: findRunnable's order and stealing, on hand-built states. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/proc.h"
#include "../sim/runq.h"
#include "../sim/sched.h"
#include "../sim/timer.h"
#include "helpers.h"

static struct sim *s;
static const struct program *prog;

static void setup(void) { s = bare_sim(4, &prog, NULL); }
static void teardown(void)
{
	sim_free(s);
	program_free((struct program *)prog);
}

TestSuite(sched, .init = setup, .fini = teardown);

static int32_t global_g(void)
{
	int32_t gi = sim_newg(s, 0);
	sim_move_g(s, gi, PL_GLOBAL, -1, R_NONE);
	gqueue_push(s, &s->runq, gi);
	return gi;
}

static int32_t local_g(int32_t pi, int next)
{
	int32_t gi = sim_newg(s, 0);
	runq_put(s, pi, gi, next, R_GO);
	return gi;
}

Test(sched, every_61st_schedtick_takes_one_g_from_global_before_runnext)
{
	int32_t glob = global_g();
	local_g(0, 1);
	s->allp[0].schedtick = 61;
	struct found f;
	cr_assert(sched_find_runnable(s, 0, &f));
	cr_assert_eq(f.g, glob);
	cr_assert_eq(f.inherit, 0);
}

Test(sched, other_schedticks_take_runnext_then_the_ring_then_global)
{
	int32_t glob = global_g();
	int32_t ring = local_g(0, 0);
	int32_t next = local_g(0, 1);
	s->allp[0].schedtick = 60;
	struct found f;
	cr_assert(sched_find_runnable(s, 0, &f));
	cr_assert_eq(f.g, next);
	cr_assert_eq(f.inherit, 1);
	cr_assert(sched_find_runnable(s, 0, &f));
	cr_assert_eq(f.g, ring);
	cr_assert(sched_find_runnable(s, 0, &f));
	cr_assert_eq(f.g, glob);
}

Test(sched, a_p_with_nothing_steals_from_a_busy_p)
{
	for (int i = 0; i < 4; i++)
		local_g(0, 0);
	p_set_status(s, 1, P_RUNNING);
	struct found f;
	s->allp[1].schedtick = 1;
	cr_assert(sched_find_runnable(s, 1, &f));
	cr_assert_eq(f.reason, R_STEAL);
	cr_assert_eq(runq_len(&s->allp[0]), 2);
	cr_assert_eq(runq_len(&s->allp[1]), 1);
}

Test(sched, steal_off_never_takes_from_another_p)
{
	local_g(0, 0);
	s->cfg.steal = 0;
	struct found f;
	s->allp[1].schedtick = 1;
	cr_assert_not(sched_find_runnable(s, 1, &f));
	cr_assert_eq(runq_len(&s->allp[0]), 1);
}

Test(sched, idle_victims_are_skipped_and_runnext_is_taken_on_the_last_pass)
{
	int32_t g = local_g(2, 1); /* P2 idle with work breaks no rule here: we only look */
	p_set_status(s, 2, P_IDLE);
	struct found f;
	s->allp[1].schedtick = 1;
	cr_assert_not(sched_find_runnable(s, 1, &f), "idle P2 is not a victim");
	p_set_status(s, 2, P_SYSCALL); /* a P in a syscall can be robbed */
	cr_assert(sched_find_runnable(s, 1, &f));
	cr_assert_eq(f.g, g);
}

/* --model=runtime: findRunnable lets an M out of local work spin (and
 * steal) only while 2*nmspinning < gomaxprocs - npidle. Here 4 Ps, all
 * busy: P0 (M0, between goroutines), P1 with a G in its ring, P2 whose M
 * spins, and P3 whose M spins too if spinners is 2. */
static int32_t spin_cap_state(int spinners)
{
	s->cfg.model = MODEL_RUNTIME;
	for (int i = 0; i < 3; i++) {
		int32_t pi = proc_pidleget(s); /* P1, P2, P3 */
		proc_startm(s, pi, pi == 2 || (pi == 3 && spinners == 2));
	}
	cr_assert_eq(s->nmspinning, spinners);
	return local_g(1, 0);
}

Test(sched, in_the_runtime_model_an_m_out_of_work_spins_to_steal_below_the_limit)
{
	spin_cap_state(1); /* 2*1 < 4 - 0 */
	struct found f;
	cr_assert_eq(sched_find_runnable(s, 0, &f), 1);
	cr_assert_eq(f.reason, R_STEAL);
	cr_assert_eq(s->allm[s->allp[0].m].state, MS_RUNNING, "it spun until it found the G (resetspinning)");
	cr_assert_eq(s->nmspinning, 1);
}

Test(sched, in_the_runtime_model_an_m_does_not_steal_at_the_spinning_limit)
{
	int32_t gi = spin_cap_state(2); /* 2*2 < 4 - 0 is false */
	struct found f;
	cr_assert_eq(sched_find_runnable(s, 0, &f), 0, "it drops its P instead");
	cr_assert_eq(s->allm[s->allp[0].m].state, MS_RUNNING, "it never spun");
	cr_assert_eq(runq_len(&s->allp[1]), 1u);
	cr_assert_eq(s->allp[1].runq[s->allp[1].runqhead % RUNQ_SIZE], gi);
	s->cfg.model = MODEL_SEED;
	cr_assert_eq(sched_find_runnable(s, 0, &f), 1, "the seed model steals regardless");
}

/* schedule_busy_ps looks only at the needs-schedule set; the checker
 * holds every P that could need schedule() to be in it. */
Test(sched, a_running_p_whose_m_has_no_g_must_be_in_the_needs_schedule_set)
{
	s->cfg.check = 1;
	cr_assert_eq(s->allp[0].status, P_RUNNING);
	cr_assert_lt(s->allm[s->allp[0].m].curg, 0);
	sim_check(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", sim_message(s)); /* acquirep put P0 in the set */
	s->needsched[0] &= ~1ULL;
	sim_check(s);
	cr_assert_eq(s->status, SIM_BROKEN);
	cr_assert(strstr(sim_message(s), "needs-schedule set") != NULL, "%s", sim_message(s));
}

Test(sched, dropg_puts_the_p_in_the_needs_schedule_set)
{
	int32_t gi = local_g(0, 1);
	int inherit;
	cr_assert_eq(runq_get(s, 0, &inherit), gi);
	s->needsched[0] = 0;
	s->allm[s->allp[0].m].curg = gi; /* as execute leaves it, without running the G */
	sim_dropg(s, s->allp[0].m);
	cr_assert_eq(s->needsched[0] & 1, 1);
}

Test(sched, each_steal_stride_has_its_inverse_mod_gomaxprocs)
{
	for (int n = 1; n <= MAX_PROCS; n++) {
		const struct program *p;
		struct sim *t = bare_sim(n, &p, NULL);
		for (int i = 0; i < t->ncoprimes; i++)
			cr_assert_eq((uint64_t)t->coprimes[i] * t->coprime_inv[i] % (uint32_t)n, 1u % (uint32_t)n,
				     "procs %d, stride %u", n, t->coprimes[i]);
		sim_free(t);
		program_free((struct program *)p);
	}
}

/* With nothing queued, stealWork's last pass visits only the Ps with
 * timers; the one it runs must be the first with a timer in the pass's
 * order, as the plain scan (random start, coprime stride) meets them.
 * 12 Ps: the pass walks its order; 40: it visits the marked places. */
static void first_timer_in_steal_order_runs(int32_t n)
{
	for (uint64_t seed = 1; seed <= 60; seed++) {
		const struct program *p;
		struct sim *t = bare_sim(n, &p, NULL);
		rng_init(&t->rng_steal, seed, RNG_STEAL);
		int32_t owner[MAX_PROCS];
		for (int32_t pi = 0; pi < n; pi++) {
			owner[pi] = -1;
			if (pi == 0 || (pi * 7 + (int)seed) % 3 != 0)
				continue; /* about a third of the other Ps get a due timer */
			owner[pi] = sim_newg(t, 0);
			sim_move_g_waiting(t, owner[pi], R_SLEEP, WR_SLEEP, -1);
			cr_assert_eq(timer_add(t, pi, owner[pi], t->now, PARAM_OK), 0);
		}
		struct rng r = t->rng_steal;
		for (int i = 1; i < STEAL_TRIES; i++)
			(void)rng_next32(&r);
		uint32_t x = rng_next32(&r), start = x % (uint32_t)n;
		uint32_t inc = t->coprimes[(x / (uint32_t)n) % (uint32_t)t->ncoprimes];
		int32_t want = -1;
		for (uint32_t k = 0, q = start; k < (uint32_t)n && want < 0; k++, q = (q + inc) % (uint32_t)n)
			if (q != 0)
				want = owner[q];
		struct found f;
		cr_assert(sched_find_runnable(t, 0, &f));
		cr_assert_eq(f.g, want, "%d Ps, seed %llu: G%d, not G%d", n, (unsigned long long)seed, f.g, want);
		cr_assert_eq(f.rule, RULE_STEAL_TIMERS);
		sim_free(t);
		program_free((struct program *)p);
	}
}

Test(sched, with_nothing_queued_the_first_p_with_timers_in_the_steal_order_runs_its_timer)
{
	first_timer_in_steal_order_runs(12);
	first_timer_in_steal_order_runs(40);
}

/* A P whose M sleeps (a thread wake-up, runqgrab's back-off) leaves the
 * needs-schedule set, which its EVQ_MWAKE puts it back in: the checker
 * allows that only while the wake-up is still to come. */
Test(sched, a_p_whose_m_sleeps_is_out_of_the_needs_schedule_set_only_until_its_wake_up)
{
	s->cfg.check = 1;
	proc_m_sleep_until(s, 0, s->now + 10);
	sched_all(s);
	cr_assert_eq(s->needsched[0] & 1, 0, "the pass drops the sleeping P");
	sim_check(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", sim_message(s));
	evq_cancel(&s->evq, 2 * s->nprocs); /* no wake-up left to put it back */
	sim_check(s);
	cr_assert_eq(s->status, SIM_BROKEN);
	cr_assert(strstr(sim_message(s), "needs-schedule set") != NULL, "%s", sim_message(s));
}
