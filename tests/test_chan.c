/* test_chan.c: channel handoff into the waker's runnext, buffering. */
#include <criterion/criterion.h>

#include "helpers.h"

Test(chan, a_send_to_a_waiting_receiver_readies_it_in_the_senders_runnext)
{
	/* main yields, G2 blocks in recv, main runs and sends. */
	struct sim_config cfg = test_config(1);
	struct run_result r;
	run_text("{\"chans\": {\"c\": 0}, \"main\": [{\"go\": \"r\"}, {\"gosched\": true}, {\"run\": 100}, {\"send\": \"c\"}, {\"run\": 100}],"
				      " \"funcs\": {\"r\": [{\"recv\": \"c\"}, {\"run\": 10}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE);
	long park = evlog_find(&r.log, 0, EV_G, 2, PL_WAITING);
	long wake = evlog_find(&r.log, (size_t)park, EV_G, 2, PL_RUNNEXT);
	cr_assert_geq(park, 0);
	cr_assert_geq(wake, 0);
	cr_assert_eq(r.log.ev[wake].reason, R_CHAN);
	cr_assert_eq(r.log.ev[wake].p, 0);
	cr_assert_eq(r.log.ev[wake].t, 100);
	long next = evlog_find(&r.log, (size_t)wake, EV_G, 1, -1);
	cr_assert_eq(r.log.ev[next].to, PL_DEAD, "the sender keeps running to its end");
	cr_assert_eq(r.log.ev[next].t, 200);
	run_result_free(&r);
}

Test(chan, a_buffered_channel_blocks_only_when_full)
{
	struct sim_config cfg = test_config(1);
	struct run_result r;
	run_text("{\"chans\": {\"b\": 2}, \"main\": [{\"go\": \"r\"}, {\"send\": \"b\"}, {\"send\": \"b\"}, {\"send\": \"b\"}],"
				      " \"funcs\": {\"r\": [{\"run\": 50}, {\"recv\": \"b\"}, {\"recv\": \"b\"}, {\"recv\": \"b\"}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE);
	long park = evlog_find(&r.log, 0, EV_G, 1, PL_WAITING);
	cr_assert_geq(park, 0, "the third send blocks");
	cr_assert_eq(r.log.ev[park].t, 0);
	cr_assert_eq(evlog_find(&r.log, 0, EV_G, 2, PL_WAITING), -1, "the receiver never waits");
	run_result_free(&r);
}

Test(chan, a_park_record_names_the_channel_and_direction_and_a_new_record_the_function)
{
	struct sim_config cfg = test_config(1);
	struct run_result r;
	struct program *prog = load_text("{\"chans\": {\"a\": 0, \"b\": 0}, \"main\": [{\"go\": \"r\"}, {\"recv\": \"b\"}],"
					 " \"funcs\": {\"r\": [{\"send\": \"b\"}]}}");
	run_program(prog, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE);
	long park = evlog_find(&r.log, 0, EV_G, 1, PL_WAITING);
	cr_assert_geq(park, 0);
	cr_assert_eq(r.log.ev[park].obj, 1, "channel b is index 1");
	cr_assert_str_eq(sim_waitreason_name(r.log.ev[park].wait), "chan receive");
	long born = evlog_find(&r.log, 0, EV_G, 2, -1);
	cr_assert_eq(r.log.ev[born].from, PL_NEW);
	cr_assert_str_eq(prog->funcs[r.log.ev[born].fn].name, "r");
	long woke = evlog_find(&r.log, (size_t)park + 1, EV_G, 1, -1);
	cr_assert_eq(r.log.ev[woke].obj, -1, "only a park record names an object");
	cr_assert_eq(r.log.ev[woke].fn, -1);
	run_result_free(&r);
	program_free(prog);
}
