/* test_socket.c: {"read": S} and {"write": S} (socket.h): a read waits
 * in the poller for a write, a write first lets the read run on, a read no
 * write ends hangs the run (not Go's deadlock), a second reader waits for
 * the first's read lock. Every run also under --check, both models. */
#include <criterion/criterion.h>

#include <string.h>

#include "helpers.h"

static struct sim_config cfg_of(int procs, int model)
{
	struct sim_config cfg = test_config(procs);
	cfg.check = 1;
	cfg.model = model;
	return cfg;
}

/* The index of the first record of goroutine g going from `from` to `to`
 * (-1: any), or -1. */
static long move_of(const struct evlog *l, int g, int from, int to)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].ev == EV_G && l->ev[i].g == g && (from < 0 || l->ev[i].from == from) &&
		    (to < 0 || l->ev[i].to == to))
			return (long)i;
	return -1;
}

static const char reader_then_write[] =
	"{\"sockets\": [\"req\"], \"main\": [{\"go\": \"server\"}, {\"sleep\": \"1ms\"}, {\"write\": \"req\"}, {\"run\": 100}],"
	" \"funcs\": {\"server\": [{\"read\": \"req\"}, {\"run\": 50}]}}";

Test(socket, a_read_waits_in_the_poller_until_the_write_and_the_poller_returns_it)
{
	for (int model = MODEL_SEED; model <= MODEL_RUNTIME; model++)
		for (int procs = 1; procs <= 2; procs++) {
			struct sim_config cfg = cfg_of(procs, model);
			struct run_result r;
			run_text(reader_then_write, &cfg, &r);
			cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
			long park = move_of(&r.log, 2, PL_RUNNING, PL_WAITING);
			cr_assert_geq(park, 0);
			cr_assert_eq(r.log.ev[park].wait, WR_IO_WAIT);
			cr_assert_eq(r.log.ev[park].reason, R_NET);
			long wake = move_of(&r.log, 2, PL_WAITING, -1);
			cr_assert_geq(wake, 0);
			cr_assert_eq(r.log.ev[wake].reason, R_NETPOLL, "returned by a netpoll, as a net read's arrival");
			/* main writes at 1 ms (and a few us of costs): not before */
			cr_assert_geq(r.log.ev[wake].t, 1000, "woken at %lld, before the write", (long long)r.log.ev[wake].t);
			cr_assert_leq(r.log.ev[wake].t, 1200, "-p %d: woken at %lld", procs, (long long)r.log.ev[wake].t);
			run_result_free(&r);
		}
}

Test(socket, the_wait_moves_with_the_writer)
{
	struct sim_config cfg = cfg_of(2, MODEL_RUNTIME);
	struct run_result a, b;
	run_text(reader_then_write, &cfg, &a);
	run_text("{\"sockets\": [\"req\"], \"main\": [{\"go\": \"server\"}, {\"sleep\": \"3ms\"}, {\"write\": \"req\"}, {\"run\": 100}],"
		 " \"funcs\": {\"server\": [{\"read\": \"req\"}, {\"run\": 50}]}}",
		 &cfg, &b);
	long wa = move_of(&a.log, 2, PL_WAITING, -1), wb = move_of(&b.log, 2, PL_WAITING, -1);
	cr_assert(wa >= 0 && wb >= 0);
	/* the writer wakes from its sleep at 1 ms and 3 ms (and its timer's and thread's delays) */
	cr_assert(a.log.ev[wa].t >= 1000 && a.log.ev[wa].t < 1200, "woken at %lld", (long long)a.log.ev[wa].t);
	cr_assert(b.log.ev[wb].t >= 3000 && b.log.ev[wb].t < 3200, "the writer 2 ms later, the read's end too: %lld",
		  (long long)b.log.ev[wb].t);
	run_result_free(&a);
	run_result_free(&b);
}

Test(socket, a_write_before_the_read_lets_the_read_run_on_without_parking)
{
	for (int model = MODEL_SEED; model <= MODEL_RUNTIME; model++) {
		struct sim_config cfg = cfg_of(1, model);
		struct run_result r;
		run_text("{\"sockets\": [\"req\"], \"main\": [{\"write\": \"req\"}, {\"go\": \"server\"}, {\"run\": \"1ms\"}],"
			 " \"funcs\": {\"server\": [{\"read\": \"req\"}, {\"run\": 50}]}}",
			 &cfg, &r);
		cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
		cr_assert_eq(move_of(&r.log, 2, -1, PL_WAITING), -1, "the data was there: no wait");
		cr_assert_neq(move_of(&r.log, 2, PL_RUNNING, PL_DEAD), -1);
		run_result_free(&r);
	}
}

Test(socket, each_read_takes_one_write)
{
	struct sim_config cfg = cfg_of(2, MODEL_RUNTIME);
	struct run_result r;
	/* two writes first: two reads run on, the third waits for the third write at 2 ms */
	run_text("{\"sockets\": [\"s\"], \"main\": [{\"write\": \"s\"}, {\"write\": \"s\"}, {\"go\": \"r\"}, {\"run\": \"2ms\"},"
		 " {\"write\": \"s\"}, {\"run\": 100}], \"funcs\": {\"r\": [{\"repeat\": 3, \"body\": [{\"read\": \"s\"}, {\"run\": 10}]}]}}",
		 &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long park = move_of(&r.log, 2, PL_RUNNING, PL_WAITING);
	cr_assert_geq(park, 0);
	cr_assert_geq(r.log.ev[park].t, 20, "parks after its two reads' runs");
	cr_assert_geq(r.log.ev[move_of(&r.log, 2, PL_WAITING, -1)].t, 2000);
	run_result_free(&r);
}

Test(socket, a_read_that_no_write_will_end_hangs_the_run_and_says_it_is_not_gos_deadlock)
{
	for (int model = MODEL_SEED; model <= MODEL_RUNTIME; model++) {
		struct sim_config cfg = cfg_of(2, model);
		struct run_result r;
		run_text("{\"sockets\": [\"req\", \"other\"], \"chans\": {\"c\": 0}, \"main\": [{\"go\": \"server\"}, {\"go\": \"stuck\"},"
			 " {\"run\": \"1ms\"}, {\"write\": \"other\"}], \"funcs\": {\"server\": [{\"read\": \"req\"}, {\"run\": 50}],"
			 " \"stuck\": [{\"recv\": \"c\"}]}}",
			 &cfg, &r);
		cr_assert_eq(r.status, SIM_DIED, "%s", r.msg);
		cr_assert_str_eq(sim_outcome_name(r.sum.outcome), "hang");
		cr_assert(strstr(r.msg, "the program hangs: 1 goroutine waits in the network poller"), "%s", r.msg);
		cr_assert(strstr(r.msg, "Go reports no deadlock"), "%s", r.msg);
		cr_assert_null(strstr(r.msg, "fatal error"), "%s", r.msg);
		cr_assert(strstr(r.msg, "goroutine 2 [IO wait]:\nmain.server()"), "%s", r.msg);
		cr_assert(strstr(r.msg, "goroutine 3 [chan receive]:\nmain.stuck()"), "%s", r.msg);
		run_result_free(&r);
	}
}

Test(socket, goroutines_blocked_on_channels_alone_are_still_gos_deadlock)
{
	struct sim_config cfg = cfg_of(1, MODEL_RUNTIME);
	struct run_result r;
	run_text("{\"sockets\": [\"req\"], \"chans\": {\"c\": 0}, \"main\": [{\"write\": \"req\"}, {\"recv\": \"c\"}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED, "%s", r.msg);
	cr_assert_str_eq(sim_outcome_name(r.sum.outcome), "deadlock");
	run_result_free(&r);
}

Test(socket, a_second_reader_waits_in_semacquire_for_the_first_readers_lock)
{
	for (int model = MODEL_SEED; model <= MODEL_RUNTIME; model++) {
		struct sim_config cfg = cfg_of(2, model);
		struct run_result r;
		run_text("{\"sockets\": [\"req\"], \"main\": [{\"go\": \"server\"}, {\"go\": \"server\"}, {\"run\": \"1ms\"},"
			 " {\"write\": \"req\"}, {\"run\": \"1ms\"}, {\"write\": \"req\"}, {\"run\": 100}],"
			 " \"funcs\": {\"server\": [{\"read\": \"req\"}, {\"run\": 50}]}}",
			 &cfg, &r);
		cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
		long io = -1, sema = -1;
		for (int g = 2; g <= 3; g++) {
			long park = move_of(&r.log, g, PL_RUNNING, PL_WAITING);
			cr_assert_geq(park, 0);
			if (r.log.ev[park].wait == WR_IO_WAIT)
				io = g;
			else if (r.log.ev[park].wait == WR_SEMACQUIRE)
				sema = g;
		}
		cr_assert(io > 0 && sema > 0, "one reader in the poller, the other waiting for the read lock");
		long unlock = move_of(&r.log, (int)sema, PL_WAITING, -1);
		cr_assert_eq(r.log.ev[unlock].reason, R_UNLOCK, "readUnlock's semrelease wakes it");
		cr_assert_eq(r.log.ev[unlock].to, PL_RUNNEXT);
		long first_done = move_of(&r.log, (int)io, PL_WAITING, -1);
		cr_assert_eq(r.log.ev[unlock].t, r.log.ev[first_done].t, "as the first reader's read returns");
		/* the second then parks in the poller for the second write, at 2 ms */
		long second = evlog_find(&r.log, (size_t)unlock, EV_G, (int)sema, PL_RUNNING);
		long again = evlog_find(&r.log, (size_t)second, EV_G, (int)sema, PL_WAITING);
		cr_assert_geq(again, 0);
		cr_assert_eq(r.log.ev[again].wait, WR_IO_WAIT);
		long done = evlog_find(&r.log, (size_t)again, EV_G, (int)sema, PL_RUNNING);
		cr_assert_geq(r.log.ev[done].t, 2000);
		run_result_free(&r);
	}
}

Test(socket, a_read_or_write_of_an_undeclared_socket_is_rejected_where_it_is)
{
	const char *json = "{\"sockets\": [\"a\"],\n \"main\": [{\"write\": \"b\"}]}";
	struct program *p = NULL;
	char err[256];
	cr_assert_eq(workload_parse(json, strlen(json), "w.json", NULL, 0, &p, err, sizeof err), -1);
	cr_assert_str_eq(err, "w.json:2:21: \"write\" names a socket defined in \"sockets\"; there is no \"b\"");
	json = "{\"sockets\": [\"a\", \"a\"], \"main\": []}";
	cr_assert_eq(workload_parse(json, strlen(json), "w.json", NULL, 0, &p, err, sizeof err), -1);
	cr_assert(strstr(err, "\"a\" is named twice in \"sockets\""), "%s", err);
}
