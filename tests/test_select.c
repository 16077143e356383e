/* test_select.c: selectgo: pollorder, default, blocking on every case at
 * once and waking by the first, time.After cases. */
#include <criterion/criterion.h>

#include <string.h>

#include "helpers.h"

static struct sim_config cfg_check(int procs)
{
	struct sim_config cfg = test_config(procs);
	cfg.check = 1;
	return cfg;
}

Test(select, picks_uniformly_among_ready_cases_over_many_seeds)
{
	/* Three channels, each with a value buffered; case k's body runs
	 * (k+1)*10 us, so the work done says which case ran. */
	struct program *p = load_text("{\"chans\": {\"a\": 1, \"b\": 1, \"c\": 1}, \"main\": [{\"send\": \"a\"}, {\"send\": \"b\"},"
				      " {\"send\": \"c\"}, {\"select\": [{\"recv\": \"a\", \"body\": [{\"run\": 10}]},"
				      " {\"recv\": \"b\", \"body\": [{\"run\": 20}]}, {\"recv\": \"c\", \"body\": [{\"run\": 30}]}]}]}");
	int count[3] = { 0 };
	const int seeds = 600;
	for (int seed = 1; seed <= seeds; seed++) {
		struct sim_config cfg = test_config(1);
		cfg.seed = (uint64_t)seed;
		struct run_result r;
		run_program(p, &cfg, &r);
		cr_assert_eq(r.status, SIM_DONE);
		int k = (int)(r.sum.work_us / 10) - 1;
		cr_assert(k >= 0 && k < 3);
		count[k]++;
		run_result_free(&r);
	}
	for (int k = 0; k < 3; k++) /* 200 expected each; 150..250 is over 4 sigma */
		cr_assert(count[k] > 150 && count[k] < 250, "case %d ran %d times of %d", k, count[k], seeds);
	program_free(p);
}

Test(select, default_runs_when_no_case_is_ready)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"chans\": {\"a\": 0}, \"main\": [{\"select\": [{\"recv\": \"a\", \"body\": [{\"run\": 10}]},"
		 " {\"default\": [{\"run\": 20}]}]}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(r.sum.work_us, 20);
	cr_assert_eq(evlog_find(&r.log, 0, EV_G, 1, PL_WAITING), -1, "it never parks");
	run_result_free(&r);
}

Test(select, a_blocked_select_parks_on_every_case_and_the_first_to_fire_wakes_it)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"chans\": {\"a\": 0, \"b\": 0}, \"main\": [{\"go\": \"sb\"}, {\"select\": [{\"recv\": \"a\", \"body\": [{\"run\": 10}]},"
		 " {\"recv\": \"b\", \"body\": [{\"run\": 20}]}, {\"after\": \"5ms\", \"body\": [{\"run\": 30}]}]}, {\"run\": 100}],"
		 " \"funcs\": {\"sb\": [{\"run\": 50}, {\"send\": \"b\"}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long park = evlog_find(&r.log, 0, EV_G, 1, PL_WAITING);
	cr_assert_geq(park, 0);
	cr_assert_eq(r.log.ev[park].wait, WR_SELECT);
	int sudogs = 0;
	for (size_t i = (size_t)park + 1; i < r.log.n && r.log.ev[i].ev == EV_SUDOG; i++)
		cr_assert_eq(r.log.ev[i].n, sudogs++, "one record per case, in case order");
	cr_assert_eq(sudogs, 3);
	long wake = evlog_find(&r.log, (size_t)park, EV_G, 1, PL_RUNNEXT);
	cr_assert_eq(r.log.ev[wake].reason, R_CHAN, "woken by the send on b");
	cr_assert_eq(r.sum.work_us, 50 + 20 + 100, "case b's body ran, not the after's");
	cr_assert_lt(r.sum.makespan_us, 5000, "the after's timer is stale and readies nobody");
	run_result_free(&r);
}

Test(select, an_after_case_fires_when_nothing_else_does)
{
	struct sim_config cfg = cfg_check(2);
	struct run_result r;
	run_text("{\"chans\": {\"a\": 0}, \"main\": [{\"select\": [{\"recv\": \"a\"}, {\"after\": \"2ms\", \"body\": [{\"run\": 30}]}]}]}",
		 &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long wake = evlog_find(&r.log, 0, EV_G, 1, PL_RUNNEXT);
	cr_assert_eq(r.log.ev[wake].reason, R_TIMER);
	cr_assert_eq(r.log.ev[wake].t, 2000);
	cr_assert_eq(r.sum.work_us, 30);
	run_result_free(&r);
}

Test(select, an_empty_select_blocks_forever)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"main\": [{\"select\": []}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED);
	cr_assert_eq(r.sum.outcome, OUT_DEADLOCK);
	run_result_free(&r);
}

Test(select, a_send_case_on_a_closed_channel_panics)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"chans\": {\"a\": 1}, \"main\": [{\"close\": \"a\"}, {\"select\": [{\"send\": \"a\"}]}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED);
	cr_assert(strncmp(r.msg, "panic: send on closed channel", 29) == 0, "%s", r.msg);
	run_result_free(&r);
}

Test(select, a_recv_case_on_a_closed_channel_is_ready)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"chans\": {\"a\": 0, \"b\": 0}, \"main\": [{\"close\": \"a\"},"
		 " {\"select\": [{\"recv\": \"b\"}, {\"recv\": \"a\", \"body\": [{\"run\": 10}]}]}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(r.sum.work_us, 10);
	run_result_free(&r);
}
