/* test_netpoll.c: network waits: the G holds no M; who returns it from
 * the poller (a blocked M at once, findRunnable before stealing, sysmon
 * after 10 ms) and where it goes (injectglist). */
#include <criterion/criterion.h>

#include "../sim/netpoll.h"
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

/* netpoll_epoll.go's netpoll(delay) -> EpollWait(waitms): a delay under
 * 1 ms waits 1 ms, a longer one whole ms (truncated), none blocks, 0 polls;
 * the wait overshoots by the slack or 0.1% of it, the larger. */
Test(netpoll, a_wait_under_a_millisecond_lasts_one_and_longer_ones_are_cut_to_whole_milliseconds)
{
	cr_assert_eq(netpoll_wait_end(100, 350, 70), 100 + 1000 + 70, "250 us: 1 ms");
	cr_assert_eq(netpoll_wait_end(100, 2599, 70), 100 + 2000 + 70, "2.499 ms: 2 ms, early");
	cr_assert_eq(netpoll_wait_end(100, 3100, 0), 100 + 3000 + 3, "3 ms, no slack: 0.1% of it");
	cr_assert_eq(netpoll_wait_end(100, 100, 70), 100, "delay 0: it does not wait");
	cr_assert_eq(netpoll_wait_end(100, 50, 70), 100, "a timer already due: delay 0");
	cr_assert_eq(netpoll_wait_end(100, INT64_MAX, 70), INT64_MAX, "no timer: it blocks until woken");
	cr_assert_eq(netpoll_wait_end(0, 1000000000, 70), 1000000000 + 100000,
		     "a 1000 s wait: 0.1%% is 1 s, capped at fs/select.c's MAX_SLACK of 100 ms");
}

/* The runtime model: a timer earlier than the one the blocked M waits for
 * breaks its wait (wakeNetPoller -> netpollBreak): it returns, finds
 * nothing due, and blocks again for the new one. main sleeps 10 ms on P0
 * (its M blocks for 10 ms); G2 on P1 runs 500 us and sleeps 1 ms: it wakes
 * at 500 + 1 ms + 1 us, not with the 10 ms wait. */
Test(netpoll, a_new_earlier_timer_breaks_the_blocked_ms_wait_for_a_later_one)
{
	struct sim_config cfg = cfg_check(2);
	cfg.model = MODEL_RUNTIME;
	struct run_result r;
	run_text("{\"main\": [{\"go\": \"s\"}, {\"sleep\": \"10ms\"}], \"funcs\": {\"s\": [{\"run\": \"500us\"}, {\"sleep\": \"1ms\"}]}}",
		 &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long park = evlog_find(&r.log, 0, EV_G, 2, PL_WAITING);
	cr_assert_geq(park, 0);
	cr_assert_eq(r.log.ev[park].t, 500);
	long w = wake_of(&r.log, 2);
	cr_assert_geq(w, 0);
	cr_assert_eq(r.log.ev[w].t, 1501, "G2 woke at %lld", (long long)r.log.ev[w].t);
	run_result_free(&r);
}

/* --cost-netpoll (the runtime model): the M that returns from epoll_wait
 * with the data pays its CPU before it runs the G (cpu.h's bursts). */
static struct run_result run_netpoll_cost(int64_t cost_ns)
{
	struct sim_config cfg = cfg_check(2);
	cfg.model = MODEL_RUNTIME;
	cfg.cpus = 2;
	cfg.cost_thread_ns[TOP_NETPOLL] = cost_ns;
	struct run_result r;
	run_text("{\"main\": [{\"go\": \"h\"}, {\"run\": \"5ms\"}], \"funcs\": {\"h\": [{\"net\": \"1ms\"}, {\"run\": 10}]}}",
		 &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	return r;
}

Test(netpoll, the_m_returning_from_netpoll_with_data_pays_its_epoll_wait_before_the_g_runs)
{
	struct run_result a = run_netpoll_cost(0), b = run_netpoll_cost(20000);
	long ea = evlog_find(&a.log, 0, EV_G, 2, PL_DEAD), eb = evlog_find(&b.log, 0, EV_G, 2, PL_DEAD);
	cr_assert(ea >= 0 && eb >= 0);
	cr_assert_eq(b.sum.thread_cpu_ns[TOP_NETPOLL], 20000, "one return with data");
	cr_assert_eq(b.log.ev[eb].t, a.log.ev[ea].t + 20, "the G ran 20us later");
	run_result_free(&a);
	run_result_free(&b);
}

/* The runtime model: the M blocked in netpoll(delay) is a thread of its
 * own, not an idle one (sched.nmidle leaves it out), and it is the M that
 * takes the idle P when its data arrives. */
Test(netpoll, the_m_blocked_in_netpoll_is_not_idle_and_is_the_one_that_runs_the_g)
{
	struct sim_config cfg = cfg_check(2);
	cfg.model = MODEL_RUNTIME;
	cfg.until_us = 500;
	const char *text = "{\"main\": [{\"go\": \"h\"}, {\"run\": \"5ms\"}], \"funcs\": {\"h\": [{\"net\": \"1ms\"}, {\"run\": 10}]}}";
	struct program *p = load_text(text);
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(sim_run(s), SIM_UNTIL, "%s", sim_message(s));
	int32_t mi = s->netpoll_m;
	cr_assert(s->netpoll_blocked && mi >= 0, "an M waits in netpoll for G2's data");
	cr_assert_eq(s->allm[mi].state, MS_IDLE);
	cr_assert_eq(s->allm[mi].p, -1);
	for (int32_t m = s->midle; m >= 0; m = s->allm[m].schedlink)
		cr_assert_neq(m, mi, "M%d is not on the idle stack", mi);
	cr_assert_eq(s->nmidle, 1, "one M is idle: the spinner resetspinning's wakep created, as the netpoll M could not be woken");
	sim_free(s);
	program_free(p);

	cfg.until_us = 0;
	struct run_result r;
	run_text(text, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long w = wake_of(&r.log, 2);
	cr_assert_geq(w, 0);
	cr_assert_eq(r.log.ev[w].to, PL_RUNNING);
	cr_assert_eq(r.log.ev[w].m, mi, "the M back from netpoll runs G2");
	cr_assert_eq(r.sum.threads_peak, 4, "M0, sysmon, the netpoll M and the spinner");
	run_result_free(&r);
}
