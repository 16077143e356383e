/* test_waitgroup.c: sync.WaitGroup (sync/waitgroup.go over sema.go). */
#include <criterion/criterion.h>

#include <string.h>

#include "helpers.h"

static struct sim_config cfg_check(int procs)
{
	struct sim_config cfg = test_config(procs);
	cfg.check = 1;
	return cfg;
}

Test(waitgroup, wait_returns_when_the_last_done_brings_the_counter_to_zero)
{
	struct sim_config cfg = cfg_check(2);
	struct run_result r;
	run_text("{\"waitgroups\": [\"wg\"], \"main\": [{\"add\": \"wg\", \"n\": 3}, {\"repeat\": 3, \"body\": [{\"go\": \"w\"}]},"
		 " {\"wait\": \"wg\"}, {\"run\": 10}], \"funcs\": {\"w\": [{\"run\": \"1ms\"}, {\"done\": \"wg\"}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long park = evlog_find(&r.log, 0, EV_G, 1, PL_WAITING);
	cr_assert_geq(park, 0);
	cr_assert_eq(r.log.ev[park].wait, WR_WAITGROUP);
	long wake = evlog_find(&r.log, (size_t)park, EV_G, 1, PL_RUNNEXT);
	cr_assert_eq(r.log.ev[wake].reason, R_WGDONE);
	cr_assert_geq(r.log.ev[wake].t, 1500, "after the third worker (two Ps, 1 ms each)");
	run_result_free(&r);
}

Test(waitgroup, every_waiter_is_released_at_zero)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"waitgroups\": [\"wg\"], \"main\": [{\"add\": \"wg\", \"n\": 1}, {\"go\": \"w\"}, {\"go\": \"w\"}, {\"gosched\": true},"
		 " {\"done\": \"wg\"}], \"funcs\": {\"w\": [{\"wait\": \"wg\"}, {\"run\": 10}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	int woken = 0;
	for (size_t i = 0; i < r.log.n; i++)
		woken += r.log.ev[i].ev == EV_G && r.log.ev[i].reason == R_WGDONE;
	cr_assert_eq(woken, 2);
	run_result_free(&r);
}

Test(waitgroup, wait_at_zero_returns_at_once)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"waitgroups\": [\"wg\"], \"main\": [{\"wait\": \"wg\"}, {\"run\": 10}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(evlog_find(&r.log, 0, EV_G, 1, PL_WAITING), -1);
	run_result_free(&r);
}

Test(waitgroup, a_negative_counter_panics)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"waitgroups\": [\"wg\"], \"main\": [{\"add\": \"wg\", \"n\": 1}, {\"done\": \"wg\"}, {\"done\": \"wg\"}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED);
	cr_assert(strncmp(r.msg, "panic: sync: negative WaitGroup counter", 39) == 0, "%s", r.msg);
	run_result_free(&r);
}

Test(waitgroup, waiting_for_a_done_that_never_comes_is_a_deadlock)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"waitgroups\": [\"wg\"], \"main\": [{\"add\": \"wg\", \"n\": 1}, {\"wait\": \"wg\"}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED);
	cr_assert_eq(r.sum.outcome, OUT_DEADLOCK);
	run_result_free(&r);
}

Test(waitgroup, add_needs_n_and_n_belongs_to_add)
{
	struct program *p;
	char err[256];
	const char *a = "{\"waitgroups\": [\"wg\"], \"main\": [{\"add\": \"wg\"}]}";
	cr_assert_neq(workload_parse(a, strlen(a), "w.json", NULL, 0, &p, err, sizeof err), 0);
	cr_assert(strstr(err, "\"add\" needs \"n\"") != NULL, "%s", err);
	const char *b = "{\"waitgroups\": [\"wg\"], \"main\": [{\"done\": \"wg\", \"n\": 2}]}";
	cr_assert_neq(workload_parse(b, strlen(b), "w.json", NULL, 0, &p, err, sizeof err), 0);
	cr_assert(strstr(err, "\"n\" belongs to \"add\" only") != NULL, "%s", err);
}
