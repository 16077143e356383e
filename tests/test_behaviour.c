/* test_behaviour.c: the seed's behaviours, asserted from traces. */
#include <criterion/criterion.h>

#include "helpers.h"

Test(behaviour, fanout_with_stealing_on_4_ps_spreads_the_work)
{
	struct sim_config cfg = test_config(4);
	struct run_result r;
	run_builtin("fanout", &cfg, NULL, &r);
	cr_assert_geq(r.sum.makespan_us, 12000);
	cr_assert_leq(r.sum.makespan_us, 13000, "makespan %lld", (long long)r.sum.makespan_us);
	for (int i = 0; i < 4; i++)
		cr_assert_geq(r.sum.busy_us[i], 11000, "P%d busy %lld", i, (long long)r.sum.busy_us[i]);
	cr_assert_geq(r.sum.steals, 3);
	run_result_free(&r);
}

Test(behaviour, fanout_without_stealing_leaves_everything_to_p0)
{
	struct sim_config cfg = test_config(4);
	cfg.steal = 0;
	struct run_result r;
	run_builtin("fanout", &cfg, NULL, &r);
	cr_assert_eq(r.sum.makespan_us, 48000);
	cr_assert_eq(r.sum.busy_us[0], 48000);
	for (int i = 1; i < 4; i++)
		cr_assert_eq(r.sum.busy_us[i], 0);
	for (size_t i = 0; i < r.log.n; i++)
		if (r.log.ev[i].ev == EV_G && r.log.ev[i].to == PL_RUNNING)
			cr_assert_eq(r.log.ev[i].p, 0);
	run_result_free(&r);
}

Test(behaviour, fanout_goroutines_enter_through_runnext_and_are_kicked_to_the_ring)
{
	struct sim_config cfg = test_config(4);
	struct run_result r;
	run_builtin("fanout", &cfg, NULL, &r);
	int runnext = 0, kicks = 0;
	for (size_t i = 0; i < r.log.n; i++) {
		const struct sim_event *e = &r.log.ev[i];
		runnext += e->ev == EV_G && e->reason == R_GO && e->to == PL_RUNNEXT;
		kicks += e->ev == EV_G && e->reason == R_KICK && e->from == PL_RUNNEXT && e->to == PL_LOCAL;
	}
	cr_assert_eq(runnext, 48);
	cr_assert_eq(kicks, 47);
	long k = evlog_find(&r.log, 0, EV_STEAL, -1, -1);
	cr_assert_geq(k, 0);
	cr_assert_eq(r.log.ev[k].victim, 0);
	cr_assert_eq(r.log.ev[k].n, 24, "half of 47, rounded up");
	run_result_free(&r);
}

Test(behaviour, syscalls_push_threads_past_gomaxprocs_with_handoffs)
{
	struct sim_config cfg = test_config(0);
	struct run_result r;
	run_builtin("syscalls", &cfg, NULL, &r);
	cr_assert_eq(r.status, SIM_DONE);
	cr_assert_gt(r.sum.threads_peak, 2 + 1, "more than GOMAXPROCS plus sysmon");
	cr_assert_geq(r.sum.handoffs, 1);
	cr_assert_geq(evlog_find(&r.log, 0, EV_HANDOFF, -1, -1), 0);
	run_result_free(&r);
}

Test(behaviour, tightloop_short_goroutines_start_after_one_slice_with_async_preemption)
{
	struct sim_config cfg = test_config(0);
	struct run_result r;
	run_builtin("tightloop", &cfg, NULL, &r);
	long first = -1;
	for (int g = 2; g <= 4; g++) {
		long t = first_start(&r.log, g);
		if (first < 0 || t < first)
			first = t;
	}
	cr_assert_geq(first, 10000);
	cr_assert_leq(first, 10100, "first short goroutine at %ld us", first);
	run_result_free(&r);
}

Test(behaviour, tightloop_short_goroutines_wait_for_the_whole_loop_when_cooperative)
{
	struct sim_config cfg = test_config(0);
	cfg.preempt = PREEMPT_COOPERATIVE;
	struct run_result r;
	run_builtin("tightloop", &cfg, NULL, &r);
	for (int g = 2; g <= 4; g++)
		cr_assert_geq(first_start(&r.log, g), 40000, "G%d", g);
	run_result_free(&r);
}

Test(behaviour, pingpong_pair_runs_back_to_back_and_is_preempted_together_after_one_slice)
{
	struct sim_config cfg = test_config(0);
	struct run_result r;
	run_builtin("pingpong", &cfg, NULL, &r);
	long pre = evlog_find(&r.log, 0, EV_PREEMPT, -1, -1);
	cr_assert_geq(pre, 0);
	const struct sim_event *pe = &r.log.ev[pre];
	cr_assert(pe->g == 1 || pe->g == 3, "a member of the pair is preempted (G%d)", pe->g);
	cr_assert_geq(pe->ran_us, 10000, "after one whole slice (%lld us)", (long long)pe->ran_us);
	cr_assert_leq(pe->ran_us, 10000 + SYSMON_PERIOD_US);
	int handoffs = 0;
	for (long i = 0; i < pre; i++) {
		const struct sim_event *e = &r.log.ev[i];
		if (e->ev != EV_G || e->to != PL_RUNNING)
			continue;
		cr_assert(e->g == 1 || e->g == 3, "only the pair runs before the preemption (G%d)", e->g);
		cr_assert_eq(e->p, 0);
		handoffs += e->from == PL_RUNNEXT;
	}
	cr_assert_gt(handoffs, 100, "the pair hands over through runnext (%d times)", handoffs);
	long other = evlog_find(&r.log, (size_t)pre, EV_G, 2, PL_RUNNING);
	cr_assert_geq(other, 0);
	cr_assert_eq(r.log.ev[other].t, pe->t, "the other goroutine gets the P at once");
	run_result_free(&r);
}
