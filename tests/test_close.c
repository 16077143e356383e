/* test_close.c: close(ch) and for range ch (runtime/chan.go closechan,
 * chanrecv on a closed channel, chansend's panic). */
#include <criterion/criterion.h>

#include <string.h>

#include "helpers.h"

static struct sim_config cfg_check(int procs)
{
	struct sim_config cfg = test_config(procs);
	cfg.check = 1;
	return cfg;
}

Test(close, close_wakes_every_receiver_into_the_closers_runnext_last_parked_first)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	/* three receivers park in order (G2, G3, G4), then main closes. */
	run_text("{\"chans\": {\"c\": 0}, \"main\": [{\"go\": \"r\"}, {\"go\": \"r\"}, {\"go\": \"r\"}, {\"gosched\": true},"
		 " {\"close\": \"c\"}, {\"run\": 100}], \"funcs\": {\"r\": [{\"recv\": \"c\"}, {\"run\": 10}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	int woken[3], n = 0;
	for (size_t i = 0; i < r.log.n && n < 3; i++) {
		const struct sim_event *e = &r.log.ev[i];
		if (e->ev == EV_G && e->from == PL_WAITING) {
			cr_assert_eq(e->reason, R_CLOSE);
			cr_assert_eq(e->to, PL_RUNNEXT);
			woken[n++] = e->g;
		}
	}
	cr_assert_eq(n, 3, "every receiver is readied");
	long park2 = evlog_find(&r.log, 0, EV_G, -1, PL_WAITING);
	int first_parked = r.log.ev[park2].g;
	cr_assert_neq(woken[0], first_parked, "closechan's gList is LIFO: the first parked is readied last");
	cr_assert_eq(woken[2], first_parked);
	run_result_free(&r);
}

Test(close, range_ends_when_the_channel_is_closed_and_drained)
{
	struct sim_config cfg = cfg_check(2);
	struct run_result r;
	run_text("{\"chans\": {\"jobs\": 3, \"done\": 0},"
		 " \"funcs\": {\"w\": [{\"range\": \"jobs\", \"body\": [{\"run\": \"100us\"}]}, {\"send\": \"done\"}]},"
		 " \"main\": [{\"go\": \"w\"}, {\"repeat\": 7, \"body\": [{\"send\": \"jobs\"}]}, {\"close\": \"jobs\"},"
		 " {\"recv\": \"done\"}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(r.sum.work_us, 700, "the body ran once per value sent, buffered ones included");
	run_result_free(&r);
}

Test(close, a_receive_on_a_closed_channel_returns_at_once)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"chans\": {\"c\": 0}, \"main\": [{\"close\": \"c\"}, {\"recv\": \"c\"}, {\"recv\": \"c\"}, {\"run\": 10}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(evlog_find(&r.log, 0, EV_G, 1, PL_WAITING), -1);
	run_result_free(&r);
}

Test(close, a_send_on_a_closed_channel_panics)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"chans\": {\"c\": 1}, \"main\": [{\"close\": \"c\"}, {\"send\": \"c\"}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED);
	cr_assert_eq(r.sum.outcome, OUT_PANIC);
	cr_assert(strncmp(r.msg, "panic: send on closed channel\n\ngoroutine 1 [running]:\nmain.main()", 64) == 0, "%s", r.msg);
	run_result_free(&r);
}

Test(close, a_sender_parked_when_the_channel_closes_panics_when_it_runs)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"chans\": {\"c\": 0}, \"main\": [{\"go\": \"s\"}, {\"gosched\": true}, {\"close\": \"c\"}, {\"run\": 10}],"
		 " \"funcs\": {\"s\": [{\"send\": \"c\"}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED);
	cr_assert(strstr(r.msg, "panic: send on closed channel\n\ngoroutine 2 [running]:\nmain.s()") == r.msg, "%s", r.msg);
	run_result_free(&r);
}

Test(close, closing_twice_panics)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"chans\": {\"c\": 0}, \"main\": [{\"close\": \"c\"}, {\"close\": \"c\"}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED);
	cr_assert(strncmp(r.msg, "panic: close of closed channel", 30) == 0, "%s", r.msg);
	run_result_free(&r);
}

Test(close, totals_of_a_range_are_a_lower_bound)
{
	struct program *p = load_text("{\"chans\": {\"c\": 1}, \"main\": [{\"run\": 10}, {\"range\": \"c\", \"body\": [{\"run\": 50}]}]}");
	struct program_totals t;
	cr_assert_eq(program_totals(p, &t), 0);
	cr_assert_eq(t.work_us, 10);
	cr_assert_eq(t.inexact, 1);
	program_free(p);
	p = load_text("{\"main\": [{\"repeat\": 3, \"body\": [{\"run\": 10}]}]}");
	cr_assert_eq(program_totals(p, &t), 0);
	cr_assert_eq(t.inexact, 0);
	program_free(p);
}
