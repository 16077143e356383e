/* test_socket.c: {"read": S} and {"write": S} (socket.h): a read waits
 * in the poller for a write, a write first lets the read run on, a read no
 * write ends hangs the run (not Go's deadlock), a second reader waits for
 * the first's read lock. Every run also under --check, both models. */
#include <criterion/criterion.h>

#include <stdio.h>
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

/* Handler k reads req[k] and writes resp[k]; main writes req[1] at once
 * and req[0] a millisecond later, then reads both replies. Each handler
 * has a socket of its own, so the second ends first and the first waits
 * for the late write; were "[#]" one socket for both, the first handler
 * would take the early write and the second would wait for data no one
 * writes. */
static const char pairs[] =
	"{\"sockets\": [{\"req\": 2, \"resp\": 2}], \"main\": [{\"repeat\": 2, \"body\": [{\"go\": \"handle\"}]},"
	" {\"write\": \"req[1]\"}, {\"sleep\": \"1ms\"}, {\"write\": \"req[0]\"}, {\"read\": \"resp[0]\"}, {\"read\": \"resp[1]\"}],"
	" \"funcs\": {\"handle\": [{\"read\": \"req[#]\"}, {\"run\": 100}, {\"write\": \"resp[#]\"}]}}";

Test(socket, each_goroutine_of_a_function_reads_and_writes_its_own_element_of_an_array)
{
	for (int model = MODEL_SEED; model <= MODEL_RUNTIME; model++)
		for (int procs = 1; procs <= 2; procs++) {
			struct sim_config cfg = cfg_of(procs, model);
			struct run_result r;
			run_text(pairs, &cfg, &r);
			cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
			cr_assert_eq(r.sum.outcome, OUT_DONE, "-p %d: every read met its own write", procs);
			/* the handlers are G2 (element 0) and G3 (element 1) */
			long end2 = move_of(&r.log, 2, -1, PL_DEAD), end3 = move_of(&r.log, 3, -1, PL_DEAD);
			cr_assert(end2 >= 0 && end3 >= 0);
			cr_assert_lt(r.log.ev[end3].t, 1000, "-p %d: the second handler ended at %lld", procs,
				     (long long)r.log.ev[end3].t);
			cr_assert_geq(r.log.ev[end2].t, 1100, "-p %d: the first handler ended at %lld", procs,
				      (long long)r.log.ev[end2].t);
			run_result_free(&r);
		}
}

Test(socket, an_element_named_by_number_is_that_socket_and_a_plain_name_keeps_its_meaning)
{
	struct program *p = load_text("{\"sockets\": [\"a[1]\", {\"q\": 3}, \"z\"], \"main\": [{\"write\": \"q[2]\"},"
				      " {\"write\": \"a[1]\"}, {\"write\": \"z\"}, {\"read\": \"q[#]\"}]}");
	cr_assert_eq(p->nsockets, 5, "a[1], q[0..2], z");
	const struct op *o = p->funcs[p->main_fn].ops;
	cr_assert_eq(o[0].kind, OP_WRITE);
	cr_assert_eq(o[0].arg, 3, "q[2]: q's first socket (1) + 2");
	cr_assert_eq(o[1].arg, 0, "\"a[1]\" is the plain socket declared by that name");
	cr_assert_eq(o[2].arg, 4);
	cr_assert_eq(o[3].kind, OP_READ_AT);
	cr_assert_eq(o[3].arg, 1);
	cr_assert_eq(p->funcs[p->main_fn].inst_n, 3);
	cr_assert_eq(p->funcs[p->main_fn].side, 1, "a block for the ordinal");
	program_free(p);
}

Test(socket, a_goroutine_beyond_its_array_ends_the_run_with_an_error_naming_the_op)
{
	const char *json = "{\"sockets\": [{\"req\": 2}],\n \"main\": [{\"repeat\": 3, \"body\": [{\"go\": \"h\"}]}],"
			   "\n \"funcs\": {\"h\": [{\"write\": \"req[#]\"}]}}";
	struct program *p = NULL;
	char err[256];
	cr_assert_eq(workload_parse(json, strlen(json), "w.json", NULL, 0, &p, err, sizeof err), 0, "%s", err);
	struct sim_config cfg = cfg_of(1, MODEL_RUNTIME);
	struct run_result r;
	run_program(p, &cfg, &r);
	cr_assert_eq(r.status, SIM_INPUT);
	cr_assert(strstr(r.msg, "w.json:3:28: \"write\": \"req[#]\": goroutine 4, the 3rd started running h, has no "
				"element: the array holds 2 (0..1)"), "%s", r.msg);
	run_result_free(&r);
	program_free(p);
}

Test(socket, an_array_named_without_an_element_or_out_of_range_is_rejected_where_it_is)
{
	static const struct { const char *op, *msg; } bad[] = {
		{ "{\"read\": \"q\"}", "w.json:2:20: \"read\": \"q\" is an array of 3 sockets: name one, \"q[#]\" (this "
				       "goroutine's own) or \"q[K]\" (K in 0..2)" },
		{ "{\"read\": \"q[3]\"}", "w.json:2:20: \"read\": \"q[3]\": an element of \"q\" is \"q[#]\" (this goroutine's own) "
					  "or \"q[K]\", K an integer in 0..2" },
		{ "{\"read\": \"q[-1]\"}", "an integer in 0..2" },
		{ "{\"read\": \"q[]\"}", "an integer in 0..2" },
		{ "{\"write\": \"s[0]\"}", "there is no array \"s\"" },
		{ "{\"write\": \"t[#]\"}", "there is no socket or array \"t\"" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char json[256];
		snprintf(json, sizeof json, "{\"sockets\": [\"s\", {\"q\": 3}],\n \"main\": [%s]}", bad[i].op);
		struct program *p = NULL;
		char err[256];
		cr_assert_eq(workload_parse(json, strlen(json), "w.json", NULL, 0, &p, err, sizeof err), -1, "%s", json);
		cr_assert(strstr(err, bad[i].msg), "%s: %s", json, err);
	}
	static const struct { const char *decl, *msg; } decls[] = {
		{ "{\"q\": 0}", "an array's size must be an integer in 1..16777216" },
		{ "{\"q[1]\": 2}", "an array's name is a non-empty string without \"[\" or \"]\"" },
		{ "\"q\", {\"q\": 2}", "\"q\" is named twice in \"sockets\"" },
		{ "{\"q\": 16777216}, \"r\"", "at most 16777216 sockets in all" },
	};
	for (size_t i = 0; i < sizeof decls / sizeof decls[0]; i++) {
		char json[256];
		snprintf(json, sizeof json, "{\"sockets\": [%s], \"main\": []}", decls[i].decl);
		struct program *p = NULL;
		char err[256];
		cr_assert_eq(workload_parse(json, strlen(json), "w.json", NULL, 0, &p, err, sizeof err), -1, "%s", json);
		cr_assert(strstr(err, decls[i].msg), "%s: %s", json, err);
	}
}
