/* test_timer.c: time.Sleep on per-P timer heaps: who runs a timer, where
 * the G it readies goes, and that a sleeper holds no M. */
#include <criterion/criterion.h>

#include "../sim/sched.h"
#include "../sim/park.h"
#include "../sim/timer.h"
#include "helpers.h"

static struct sim_config cfg_check(int procs)
{
	struct sim_config cfg = test_config(procs);
	cfg.check = 1;
	return cfg;
}

Test(timer, a_sleeper_is_readied_into_its_own_ps_runnext_when_the_timer_fires)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"main\": [{\"go\": \"s\"}, {\"run\": \"3ms\"}], \"funcs\": {\"s\": [{\"sleep\": \"1ms\"}, {\"run\": 10}]}}",
		 &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long park = evlog_find(&r.log, 0, EV_G, 2, PL_WAITING);
	cr_assert_geq(park, 0);
	cr_assert_eq(r.log.ev[park].reason, R_SLEEP);
	cr_assert_eq(r.log.ev[park].wait, WR_SLEEP);
	long wake = evlog_find(&r.log, (size_t)park, EV_G, 2, PL_RUNNEXT);
	cr_assert_geq(wake, 0);
	cr_assert_eq(r.log.ev[wake].reason, R_TIMER);
	cr_assert_eq(r.log.ev[wake].p, 0);
	/* P0 is busy with main's 3 ms until it is preempted (no other P): the
	 * timer waits for P0's next schedule(), as on a real 1-P runtime. */
	cr_assert_geq(r.log.ev[wake].t, 1000);
	run_result_free(&r);
}

Test(timer, an_idle_p_runs_a_busy_ps_timer_by_stealing_it)
{
	struct sim_config cfg = cfg_check(2);
	struct run_result r;
	/* s sleeps on P0 (main goes on running there); P1 idles meanwhile. */
	run_text("{\"main\": [{\"go\": \"s\"}, {\"gosched\": true}, {\"run\": \"5ms\"}],"
		 " \"funcs\": {\"s\": [{\"sleep\": \"1ms\"}, {\"run\": 10}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long park = evlog_find(&r.log, 0, EV_G, 2, PL_WAITING);
	cr_assert_geq(park, 0);
	int32_t owner = r.log.ev[park].from_p;
	long wake = evlog_find(&r.log, (size_t)park, EV_G, 2, PL_RUNNEXT);
	cr_assert_geq(wake, 0);
	cr_assert_eq(r.log.ev[wake].t, r.log.ev[park].t + 1000, "on time: an idle P was there");
	cr_assert_neq(r.log.ev[wake].p, owner, "the thief's runnext, not the owner's");
	run_result_free(&r);
}

Test(timer, with_stealing_off_an_idle_p_still_runs_other_ps_timers)
{
	struct sim_config cfg = cfg_check(2);
	cfg.steal = 0;
	struct run_result r;
	run_text("{\"main\": [{\"go\": \"s\"}, {\"gosched\": true}, {\"run\": \"5ms\"}],"
		 " \"funcs\": {\"s\": [{\"sleep\": \"1ms\"}, {\"run\": 10}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long park = evlog_find(&r.log, 0, EV_G, 2, PL_WAITING);
	long wake = evlog_find(&r.log, (size_t)park, EV_G, 2, PL_RUNNEXT);
	cr_assert_eq(r.log.ev[wake].t, r.log.ev[park].t + 1000);
	run_result_free(&r);
}

Test(timer, sleepers_hold_no_thread)
{
	struct sim_config cfg = cfg_check(2);
	struct run_result r;
	run_text("{\"main\": [{\"repeat\": 200, \"body\": [{\"go\": \"s\"}]}],"
		 " \"funcs\": {\"s\": [{\"run\": 10}, {\"sleep\": \"5ms\"}, {\"run\": 10}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_leq(r.sum.threads_peak, 4, "200 sleepers, %lld threads", (long long)r.sum.threads_peak);
	cr_assert_geq(r.sum.makespan_us, 5000);
	run_result_free(&r);
}

Test(timer, everyone_asleep_is_not_a_deadlock)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"main\": [{\"sleep\": \"20ms\"}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(r.sum.makespan_us, 20000);
	run_result_free(&r);
}

Test(timer, a_zero_sleep_does_not_park)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"main\": [{\"sleep\": 0}, {\"run\": 10}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE);
	cr_assert_eq(evlog_find(&r.log, 0, EV_G, 1, PL_WAITING), -1);
	run_result_free(&r);
}

/* Hand-built: timers on P0's heap fire in `when` order, readying into the
 * runner's runnext; timerslen counts the heap. */
Test(timer, check_runs_only_due_timers_in_order)
{
	const struct program *prog;
	struct sim *s = bare_sim(2, &prog, NULL);
	s->cfg.check = 1;
	int32_t g[3];
	for (int i = 0; i < 3; i++) {
		g[i] = sim_newg(s, 0);
		s->allm[0].curg = g[i];
		sim_move_g(s, g[i], PL_RUNNING, 0, R_SCHEDULE);
		park_gopark(s, g[i], WR_SLEEP, R_SLEEP, -1);
	}
	timer_add(s, 0, g[0], 300, PARAM_OK);
	timer_add(s, 0, g[1], 100, PARAM_OK);
	timer_add(s, 0, g[2], 200, PARAM_OK);
	cr_assert_eq(s->allp[0].timers.len, 3);
	cr_assert_eq(timer_next(s, 0), 100);
	s->now = 200;
	cr_assert_eq(timer_check(s, 0, 0), 2);
	cr_assert_eq(s->allp[0].runnext, g[2], "the later of the two fired last: it is runnext");
	cr_assert_eq(s->allg[g[1]].place, PL_LOCAL, "the first was kicked to the ring");
	cr_assert_eq(s->allg[g[0]].place, PL_WAITING);
	cr_assert_eq(timer_next(s, 0), 300);
	sim_check_full(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", s->msg);
	sim_free(s);
	program_free((struct program *)prog);
}

Test(timer, a_timer_for_an_earlier_park_is_stale_and_dropped)
{
	const struct program *prog;
	struct sim *s = bare_sim(1, &prog, NULL);
	int32_t gi = sim_newg(s, 0);
	s->allm[0].curg = gi;
	sim_move_g(s, gi, PL_RUNNING, 0, R_SCHEDULE);
	park_gopark(s, gi, WR_SLEEP, R_SLEEP, -1);
	timer_add(s, 0, gi, 100, PARAM_OK);
	park_goready(s, -1, gi, 0, PARAM_OK, R_CHAN); /* woken by something else */
	s->now = 100;
	cr_assert_eq(timer_check(s, 0, 0), 0, "a stale timer readies nobody");
	cr_assert_eq(s->allp[0].timers.len, 0);
	cr_assert_eq(s->ntimers, 0);
	sim_free(s);
	program_free((struct program *)prog);
}

/* The runtime model: a lone 1.5 ms sleep on an idle program ends when the
 * M blocked in netpoll for it wakes (netpoll.h): epoll_wait's 1 ms (1.5 ms
 * truncated) ends early, then the 499 us left wait 1 ms more, each plus
 * 0.1% of it (no slack here): 2002 us, not 1500 (the seed model's). */
static int64_t lone_sleep(enum sim_model model)
{
	struct sim_config cfg = cfg_check(1);
	cfg.model = model;
	struct run_result r;
	run_text("{\"main\": [{\"sleep\": \"1500us\"}, {\"run\": 10}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long park = evlog_find(&r.log, 0, EV_G, 1, PL_WAITING);
	long wake = evlog_find(&r.log, (size_t)park, EV_G, 1, PL_RUNNEXT);
	cr_assert_geq(wake, 0);
	int64_t d = r.log.ev[wake].t - r.log.ev[park].t;
	run_result_free(&r);
	return d;
}

Test(timer, a_lone_sleep_ends_when_the_netpoll_ms_whole_millisecond_waits_do)
{
	cr_assert_eq(lone_sleep(MODEL_RUNTIME), 2002);
	cr_assert_eq(lone_sleep(MODEL_SEED), 1500);
}
