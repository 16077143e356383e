/* test_netpoll.c: network waits: the G holds no M; who returns it from
 * the poller (a blocked M at once, findRunnable before stealing, sysmon
 * after 10 ms) and where it goes (injectglist). */
#include <criterion/criterion.h>

#include "helpers.h"

static struct sim_config cfg_check(int procs)
{
	struct sim_config cfg = test_config(procs);
	cfg.check = 1;
	return cfg;
}

/* The first record of G g leaving the waiting place. */
static long wake_of(const struct evlog *l, int g)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].ev == EV_G && l->ev[i].g == g && l->ev[i].from == PL_WAITING)
			return (long)i;
	return -1;
}

Test(netpoll, a_network_wait_parks_in_io_wait_and_holds_no_thread)
{
	struct sim_config cfg = cfg_check(2);
	struct run_result r;
	run_text("{\"main\": [{\"repeat\": 100, \"body\": [{\"go\": \"h\"}]}],"
		 " \"funcs\": {\"h\": [{\"net\": \"2ms\"}, {\"run\": 10}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long park = evlog_find(&r.log, 0, EV_G, 2, PL_WAITING);
	cr_assert_eq(r.log.ev[park].reason, R_NET);
	cr_assert_eq(r.log.ev[park].wait, WR_IO_WAIT);
	cr_assert_leq(r.sum.threads_peak, 4, "100 readers, %lld threads", (long long)r.sum.threads_peak);
	run_result_free(&r);
}

Test(netpoll, an_m_blocked_in_netpoll_returns_the_g_when_its_data_arrives)
{
	struct sim_config cfg = cfg_check(2);
	struct run_result r;
	run_text("{\"main\": [{\"go\": \"h\"}, {\"run\": \"5ms\"}], \"funcs\": {\"h\": [{\"net\": \"1ms\"}, {\"run\": 10}]}}",
		 &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long park = evlog_find(&r.log, 0, EV_G, 2, PL_WAITING);
	long wake = wake_of(&r.log, 2);
	cr_assert_eq(r.log.ev[wake].t, r.log.ev[park].t + 1000, "at once: the idle P's M waited in netpoll");
	cr_assert_eq(r.log.ev[wake].to, PL_RUNNING, "it runs the first G itself");
	cr_assert_eq(r.log.ev[wake].reason, R_NETPOLL);
	run_result_free(&r);
}

Test(netpoll, find_runnable_polls_before_stealing_when_its_queues_are_empty)
{
	struct sim_config cfg = cfg_check(2);
	struct run_result r;
	/* Both Ps busy when the data arrives (2 ms in); P0 frees at 3 ms. */
	run_text("{\"main\": [{\"go\": \"long\"}, {\"go\": \"h\"}, {\"gosched\": true}, {\"run\": \"3ms\"}],"
		 " \"funcs\": {\"long\": [{\"run\": \"6ms\"}], \"h\": [{\"net\": \"2ms\"}, {\"run\": 10}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long wake = wake_of(&r.log, 3);
	cr_assert_geq(wake, 0);
	cr_assert_eq(r.log.ev[wake].t, 3000, "when main ends and its P finds nothing else");
	cr_assert_eq(r.log.ev[wake].to, PL_RUNNING);
	cr_assert_eq(r.log.ev[wake].reason, R_NETPOLL);
	run_result_free(&r);
}

Test(netpoll, sysmon_injects_into_the_global_queue_when_nobody_polled_for_10ms)
{
	struct sim_config cfg = cfg_check(1);
	cfg.slice_us = 100000; /* no preemption: P0 never schedules meanwhile */
	struct run_result r;
	run_text("{\"main\": [{\"go\": \"h\"}, {\"gosched\": true}, {\"run\": \"30ms\"}],"
		 " \"funcs\": {\"h\": [{\"net\": \"1ms\"}, {\"run\": 10}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long wake = wake_of(&r.log, 2);
	cr_assert_geq(wake, 0);
	cr_assert_eq(r.log.ev[wake].to, PL_GLOBAL, "injectglist with no P: the global queue");
	cr_assert_eq(r.log.ev[wake].reason, R_NETPOLL);
	cr_assert_gt(r.log.ev[wake].t, 10000, "lastpoll + 10ms < now");
	cr_assert_leq(r.log.ev[wake].t, 10000 + 2 * SYSMON_PERIOD_US);
	run_result_free(&r);
}

Test(netpoll, everyone_waiting_on_the_network_is_not_a_deadlock)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"main\": [{\"net\": \"20ms\"}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(r.sum.makespan_us, 20000);
	run_result_free(&r);
}
