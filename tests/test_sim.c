/* test_sim.c: the seed's headless check, and whole-run properties:
 * every built-in workload (all of workloads/, so a new one joins by being
 * added) with 1..8 Ps, stealing on and off, each preemption mode, with the
 * invariant checker after every step, in both models (--model). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <sys/resource.h>

#include <string.h>

#include "helpers.h"

static void check_run(const char *name, int procs, int steal, enum sim_preempt mode, enum sim_model model)
{
	struct sim_config cfg = test_config(procs);
	cfg.model = model;
	if (model == MODEL_RUNTIME && procs % 2 == 0)
		cfg.thread_wake_us = 50; /* half the runtime-model runs with spinners that take time */
	cfg.steal = steal;
	cfg.preempt = mode;
	struct run_result r;
	run_builtin(name, &cfg, NULL, &r);
	const char *ctx = name;
	cr_assert_eq(r.status, SIM_DONE, "%s procs=%d steal=%d mode=%d: %s", ctx, procs, steal, mode, r.msg);
	int64_t busy = 0;
	for (int i = 0; i < procs; i++)
		busy += r.sum.busy_us[i];
	if (r.inexact) { /* range, select, forever: the totals are a lower bound */
		/* except in the runtime model when main's return ends the program:
		 * a sleep on an idle program there takes whole ms (netpoll.h), so
		 * server's acceptor starts fewer handlers before main returns */
		if (model == MODEL_SEED || !r.exit_main)
			cr_assert_geq(r.sum.work_us, r.total_work, "%s procs=%d steal=%d mode=%d", ctx, procs, steal,
				      mode);
		cr_assert_leq(busy, r.sum.work_us, "%s: no more CPU used than work started", ctx);
	} else {
		cr_assert_eq(busy, r.total_work, "%s procs=%d steal=%d mode=%d: CPU used %lld, work requested %lld",
			     ctx, procs, steal, mode, (long long)busy, (long long)r.total_work);
		cr_assert_eq(r.sum.work_us, r.total_work);
	}
	int64_t dead = 0;
	for (size_t i = 0; i < r.log.n; i++)
		dead += r.log.ev[i].ev == EV_G && r.log.ev[i].to == PL_DEAD;
	if (r.exit_main) /* main's return ends the program: main is dead, others may run on */
		cr_assert_geq(evlog_find(&r.log, 0, EV_G, 1, PL_DEAD), 0, "%s: main returned", ctx);
	else
		cr_assert_eq(dead, r.sum.goroutines, "every goroutine ran to completion");
	cr_assert_geq(r.sum.makespan_us * procs, busy, "no P does more than its share of time");
	if (!steal)
		cr_assert_eq(r.sum.steals, 0);
	if (mode == PREEMPT_OFF)
		cr_assert_eq(r.sum.preemptions, 0);
	run_result_free(&r);
}

Test(sim, every_builtin_workload_completes_with_cpu_used_equal_to_work_requested)
{
	cr_assert_geq(builtin_workloads_n, 5);
	for (int w = 0; w < builtin_workloads_n; w++)
		for (int procs = 1; procs <= 8; procs++)
			for (int steal = 0; steal <= 1; steal++)
				for (int mode = 0; mode < 3; mode++)
					check_run(builtin_workloads[w].name, procs, steal, (enum sim_preempt)mode, MODEL_SEED);
}

Test(sim, every_builtin_workload_completes_in_the_runtime_model_too)
{
	for (int w = 0; w < builtin_workloads_n; w++)
		for (int procs = 1; procs <= 8; procs++)
			for (int steal = 0; steal <= 1; steal++)
				for (int mode = 0; mode < 3; mode++)
					check_run(builtin_workloads[w].name, procs, steal, (enum sim_preempt)mode, MODEL_RUNTIME);
}

/* main readies a worker through an unbuffered channel and keeps running
 * for `work`: the worker waits in main's runnext, where only a thief can
 * take it before main blocks on its next send. */
static const char handoff_json[] =
	"{\"procs\": 2, \"chans\": {\"c\": 0}, \"main\": [{\"go\": \"worker\"},"
	" {\"repeat\": 100, \"body\": [{\"send\": \"c\"}, {\"run\": 50}]}],"
	" \"funcs\": {\"worker\": [{\"repeat\": 100, \"body\": [{\"recv\": \"c\"}, {\"run\": 50}]}]}}";

static struct sim_summary run_handoff_woken(enum sim_model model, int64_t slack_us, int64_t wake_us)
{
	struct sim_config cfg = test_config(2);
	cfg.model = model;
	cfg.sysmon_slack_us = slack_us;
	cfg.thread_wake_us = cfg.thread_start_us = wake_us; /* the first thief is a new M, the rest woken */
	struct run_result r;
	run_text(handoff_json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	struct sim_summary sum = r.sum;
	run_result_free(&r);
	return sum;
}

static struct sim_summary run_handoff(enum sim_model model, int64_t slack_us)
{
	return run_handoff_woken(model, slack_us, 0);
}

Test(sim, a_handoff_crosses_ps_at_once_in_the_seed_model)
{
	struct sim_summary a = run_handoff(MODEL_SEED, 0), b = run_handoff(MODEL_SEED, 50);
	cr_assert_eq(a.makespan_us, 5000, "100 rounds of 50us on two Ps in parallel");
	cr_assert_eq(a.steals, 100, "every wake-up stolen from main's runnext at once");
	cr_assert_eq(b.makespan_us, a.makespan_us, "the slack does not matter there");
}

Test(sim, in_the_runtime_model_runqgrab_back_off_delays_each_steal_by_3us)
{
	struct sim_summary a = run_handoff(MODEL_RUNTIME, 0);
	cr_assert_eq(a.steals, 100, "the thief still takes it, 3us later");
	cr_assert_eq(a.makespan_us, 5000 + 100 * RUNQGRAB_BACKOFF_US);
}

Test(sim, in_the_runtime_model_a_back_off_longer_than_the_stage_keeps_the_handoff_on_its_p)
{
	struct sim_summary a = run_handoff(MODEL_RUNTIME, 50); /* 53us > 50us of work */
	cr_assert_eq(a.steals, 0, "main blocks and runs the worker from runnext first");
	cr_assert_eq(a.makespan_us, 10000, "the pair runs serially on one P");
}

Test(sim, a_goroutine_waiting_forever_is_a_deadlock_with_the_runtimes_message)
{
	struct sim_config cfg = test_config(2);
	struct run_result r;
	run_text("{\"chans\": {\"c\": 0}, \"main\": [{\"recv\": \"c\"}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED);
	cr_assert_str_eq(r.msg, "fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\nmain.main()");
	cr_assert_str_eq(sim_outcome_name(r.sum.outcome), "deadlock");
	run_result_free(&r);
}

Test(sim, more_threads_than_the_limit_kill_the_program_like_checkmcount)
{
	const char *const d[] = { "n=20", "sys=50ms", NULL };
	struct program *p = load_builtin("syscalls", d);
	struct sim_config cfg = test_config(2);
	cfg.max_threads = 6;
	struct run_result r;
	run_program(p, &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED);
	cr_assert_str_eq(r.msg, "runtime: program exceeds 6-thread limit\nfatal error: thread exhaustion");
	cr_assert_eq(r.sum.threads_peak, 6);
	cr_assert_str_eq(sim_outcome_name(r.sum.outcome), "thread-limit");
	run_result_free(&r);
	program_free(p);
}

Test(sim, a_million_goroutine_fanout_runs)
{
	const char *const d[] = { "n=1000000", "work=10us", NULL };
	struct sim_config cfg = test_config(4);
	cfg.check = 0;
	struct run_result r;
	struct program *p = load_builtin("fanout", d);
	memset(&r, 0, sizeof r);
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, NULL, &err);
	cr_assert_eq(sim_run(s), SIM_DONE, "%s", sim_message(s));
	sim_summary(s, &r.sum);
	cr_assert_eq(r.sum.goroutines, 1000001);
	int64_t busy = 0;
	for (int i = 0; i < 4; i++)
		busy += r.sum.busy_us[i];
	cr_assert_eq(busy, 10000000);
	cr_assert_geq(r.sum.spills, 1, "a million go statements overflow P0's ring");
	sim_free(s);
	program_free(p);
}

Test(sim, until_stops_before_the_first_instant_past_it_with_busy_time_up_to_it)
{
	struct sim_config cfg = test_config(2);
	cfg.until_us = 1500;
	struct run_result r;
	run_text("{\"main\": [{\"go\": \"f\"}, {\"run\": \"1ms\"}, {\"run\": \"1ms\"}], \"funcs\": {\"f\": [{\"run\": \"5ms\"}]}}",
		 &cfg, &r);
	cr_assert_eq(r.status, SIM_UNTIL, "%s", r.msg);
	cr_assert_str_eq(sim_outcome_name(r.sum.outcome), "until");
	cr_assert_eq(r.sum.makespan_us, 1500);
	cr_assert_gt(r.log.n, 0);
	cr_assert_leq(r.log.ev[r.log.n - 1].t, 1500, "no record past --until");
	long f_start = first_start(&r.log, 2);
	cr_assert_geq(f_start, 0);
	cr_assert_eq(r.sum.busy_us[0] + r.sum.busy_us[1], 1500 + (1500 - f_start),
		     "main ran from 0, f from %ldus on the other P, both cut at 1500us (busy %lld + %lld)", f_start,
		     (long long)r.sum.busy_us[0], (long long)r.sum.busy_us[1]);
	run_result_free(&r);
}

Test(sim, a_deadlock_lists_each_blocked_goroutine_with_its_wait_reason_and_function_capped_at_ten)
{
	struct sim_config cfg = test_config(2);
	struct run_result r;
	run_text("{\"chans\": {\"c\": 0, \"d\": 1}, \"main\": [{\"go\": \"sender\"}, {\"run\": 10},"
		 " {\"repeat\": 12, \"body\": [{\"go\": \"worker\"}]}, {\"recv\": \"c\"}],"
		 " \"funcs\": {\"worker\": [{\"recv\": \"c\"}], \"sender\": [{\"send\": \"d\"}, {\"send\": \"d\"}]}}",
		 &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED);
	char want[2048];
	int n = snprintf(want, sizeof want, "fatal error: all goroutines are asleep - deadlock!\n\n"
					    "goroutine 1 [chan receive]:\nmain.main()\n\n"
					    "goroutine 2 [chan send]:\nmain.sender()\n");
	for (int g = 3; g <= 10; g++)
		n += snprintf(want + n, sizeof want - (size_t)n, "\ngoroutine %d [chan receive]:\nmain.worker()\n", g);
	snprintf(want + n, sizeof want - (size_t)n, "\n...and 4 more goroutines");
	cr_assert_str_eq(r.msg, want);
	run_result_free(&r);
}

/* Run in Criterion's own process: a 200 MB address-space limit makes a
 * 20-million-goroutine fan-out's allocation fail. */
Test(sim, a_failed_allocation_is_out_of_memory_not_an_invariant)
{
#if defined(__SANITIZE_ADDRESS__)
	cr_skip_test("AddressSanitizer cannot run under an address-space limit; make test runs this");
#else
	const char *const d[] = { "n=20000000", "work=10us", NULL };
	struct program *p = load_builtin("fanout", d);
	struct rlimit rl = { 200 << 20, 200 << 20 };
	cr_assert_eq(setrlimit(RLIMIT_AS, &rl), 0);
	struct sim_config cfg = test_config(2);
	cfg.check = 0;
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(sim_run(s), SIM_NOMEM, "%s", sim_message(s));
	cr_assert_str_eq(sim_message(s), "out of memory for goroutines at t=0us");
	sim_free(s);
	program_free(p);
#endif
}

Test(sim, past_max_steps_or_max_goroutines_the_run_stops_with_a_limit)
{
	const char *json = "{\"chans\": {\"c\": 10}, \"main\": [{\"go\": \"r\"}, {\"repeat\": 10, \"body\": [{\"send\": \"c\"}]},"
			   " {\"close\": \"c\"}], \"funcs\": {\"r\": [{\"range\": \"c\", \"body\": [{\"go\": \"w\"},"
			   " {\"repeat\": 100, \"body\": [{\"gosched\": true}]}]}], \"w\": []}}";
	struct sim_config cfg = test_config(1);
	struct run_result r;
	run_text(json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "no limits set: %s", r.msg);
	int64_t goroutines = r.sum.goroutines;
	cr_assert_eq(goroutines, 12);
	run_result_free(&r);
	cfg.max_goroutines = 11;
	run_text(json, &cfg, &r);
	cr_assert_eq(r.status, SIM_LIMIT);
	cr_assert_str_eq(r.msg, "the program started more than 11 goroutines by t=0us");
	run_result_free(&r);
	cfg.max_goroutines = 0;
	cfg.max_steps = 500;
	run_text(json, &cfg, &r);
	cr_assert_eq(r.status, SIM_LIMIT);
	cr_assert_str_eq(r.msg, "the program executed more than 500 steps by t=0us");
	run_result_free(&r);
	cfg.max_steps = 2000; /* 1 + 1 + 10 + 1 in main, 1 + 10 * (1 + 1 + 100) + 1 in r, 10 w */
	run_text(json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	run_result_free(&r);
}

/* A repeat's END skips the body's leading runs of 0 us when no op is a
 * step (exec.c); with --max-steps they still count, in both models. */
Test(sim, leading_runs_of_zero_in_a_repeat_body_count_as_steps_under_max_steps)
{
	const char *json = "{\"main\": [{\"repeat\": 10, \"body\": [{\"run\": 0}, {\"run\": 0}, {\"gosched\": true}]}]}";
	for (int model = MODEL_SEED; model <= MODEL_RUNTIME; model++) {
		struct sim_config cfg = test_config(1);
		cfg.model = model;
		struct run_result r;
		cfg.max_steps = 31; /* the repeat, then 10 rounds of three ops (END is no step) */
		run_text(json, &cfg, &r);
		cr_assert_eq(r.status, SIM_DONE, "model %d: %s", model, r.msg);
		run_result_free(&r);
		cfg.max_steps = 30;
		run_text(json, &cfg, &r);
		cr_assert_eq(r.status, SIM_LIMIT, "model %d: the last gosched is the 31st step", model);
		run_result_free(&r);
	}
}

Test(sim, in_the_runtime_model_a_woken_spinning_m_takes_thread_wake_to_steal)
{
	struct sim_summary a = run_handoff_woken(MODEL_RUNTIME, 0, 10);
	cr_assert_eq(a.steals, 100);
	cr_assert_eq(a.makespan_us, 5000 + 100 * (10 + RUNQGRAB_BACKOFF_US),
		     "each hand-off waits for the thread, then for the thief's own 3us back-off (runqgrab sleeps after it looks)");
	struct sim_summary b = run_handoff_woken(MODEL_RUNTIME, 0, 50);
	cr_assert_eq(b.steals, 0, "by the time it runs, main has blocked and runs the worker itself");
	cr_assert_eq(b.makespan_us, 10000);
}

Test(sim, a_thread_wake_time_needs_the_runtime_model)
{
	struct program *p = load_text(handoff_json);
	struct sim_config cfg = test_config(2);
	cfg.thread_wake_us = 10;
	struct sim_error err;
	cr_assert_null(sim_new(&cfg, p, NULL, &err));
	cr_assert_eq(err.nomem, 0, "bad input, not out of memory");
	cr_assert(strstr(err.msg, "runtime model") != NULL, "%s", err.msg);
	program_free(p);
}

Test(sim, dead_gs_slots_are_reused_but_goids_are_not)
{
	struct sim_config cfg = test_config(1);
	cfg.check = 1;
	struct run_result r;
	run_text("{\"chans\": {\"done\": 0}, \"main\": [{\"repeat\": 50, \"body\": [{\"go\": \"f\"}, {\"recv\": \"done\"}]}],"
		 " \"funcs\": {\"f\": [{\"repeat\": 2, \"body\": [{\"repeat\": 3, \"body\": [{\"run\": 1}]}]},"
		 " {\"repeat\": 4, \"body\": [{\"run\": 1}]}, {\"send\": \"done\"}]}}",
		 &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(r.sum.goroutines, 51);
	int next = 1; /* main first */
	for (size_t i = 0; i < r.log.n; i++) {
		const struct sim_event *e = &r.log.ev[i];
		if (e->ev == EV_G && e->from == PL_NEW) {
			cr_assert_eq(e->g, next, "G number %d started has goid %d", next, e->g);
			next++;
		}
	}
	cr_assert_eq(next, 52);
	struct run_result flat;
	run_text("{\"chans\": {\"done\": 0}, \"main\": [{\"repeat\": 50, \"body\": [{\"go\": \"f\"}, {\"recv\": \"done\"}]}],"
		 " \"funcs\": {\"f\": [{\"run\": 1}, {\"run\": 1}, {\"run\": 1}, {\"run\": 1}, {\"run\": 1},"
		 " {\"run\": 1}, {\"run\": 1}, {\"run\": 1}, {\"run\": 1}, {\"run\": 1}, {\"send\": \"done\"}]}}",
		 &cfg, &flat);
	cr_assert_eq(flat.status, SIM_DONE, "%s", flat.msg);
	cr_assert_eq(r.sum.makespan_us, flat.sum.makespan_us,
		     "every G ran its nested (2 x 3) and its flat (4) repeat in full: as long as ten runs written out");
	run_result_free(&r);
	run_result_free(&flat);
}

Test(sim, the_runtime_inits_idle_ms_are_woken_before_any_thread_is_created)
{
	/* Two idle Ms from the runtime's init (runtime.main's init goroutines'
	 * wakep -> startm -> newm, then stopm): the syscalls workload's startm
	 * calls wake them (mget) before it creates any thread, and they count
	 * in the peak in place of two that it no longer creates. */
	struct sim_config cfg = test_config(2);
	cfg.model = MODEL_RUNTIME;
	cfg.sysmon = SYSMON_ADAPTIVE;
	struct run_result r0, r2;
	run_builtin("syscalls", &cfg, NULL, &r0);
	cfg.init_threads = 2;
	run_builtin("syscalls", &cfg, NULL, &r2);
	cr_assert_eq(r0.status, SIM_DONE, "%s", r0.msg);
	cr_assert_eq(r2.status, SIM_DONE, "%s", r2.msg);
	cr_assert_eq(r2.sum.threads_peak, r0.sum.threads_peak, "the init Ms are reused, not added");
	int created_at_boot = 0, woken_first = -1;
	for (size_t i = 0; i < r2.log.n; i++) {
		const struct sim_event *e = &r2.log.ev[i];
		if (e->ev != EV_M)
			continue;
		if (e->from == MS_NEW && e->to == MS_NEW) {
			if (e->t == 0 && woken_first < 0)
				created_at_boot++;
			else if (woken_first < 0)
				cr_assert_fail("an M was created at %lld before the init Ms were woken", (long long)e->t);
		}
		if (e->from == MS_IDLE && woken_first < 0) {
			woken_first = e->m;
			break;
		}
	}
	cr_assert_eq(created_at_boot, 4, "M0, sysmon and two init Ms");
	cr_assert(woken_first == 2 || woken_first == 3, "an init M (M2 or M3) runs first: %d", woken_first);
	run_result_free(&r0);
	run_result_free(&r2);
}

Test(sim, every_ready_calls_wakep_and_its_spinning_m_finds_nothing_in_a_pingpong)
{
	/* ready -> wakep (proc.go): each of the 40 hand-offs of a ping-pong at
	 * 2 Ps starts a spinning M on the idle P (none spins, one P is idle),
	 * which finds the partner already running from runnext and parks; the
	 * pair stays on one P. Trying wakep only where an idle P could reach
	 * work started 3. */
	static const char pp[] =
		"{\"procs\": 2, \"chans\": {\"ping\": 0, \"pong\": 0}, \"main\": [{\"go\": \"echo\"},"
		" {\"repeat\": 20, \"body\": [{\"run\": \"100us\"}, {\"send\": \"ping\"}, {\"recv\": \"pong\"}]}],"
		" \"funcs\": {\"echo\": [{\"repeat\": 20, \"body\": [{\"recv\": \"ping\"}, {\"run\": \"100us\"}, {\"send\": \"pong\"}]}]}}";
	struct sim_config cfg = test_config(2);
	cfg.model = MODEL_RUNTIME;
	cfg.thread_wake_us = cfg.thread_start_us = 10;
	struct run_result r;
	run_text(pp, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	int spinning = 0;
	for (size_t i = 0; i < r.log.n; i++)
		spinning += r.log.ev[i].ev == EV_M && r.log.ev[i].to == MS_SPINNING;
	cr_assert_geq(spinning, 40, "a spinning M per ready: %d", spinning);
	cr_assert_eq(r.sum.makespan_us, 4000, "the pair runs back to back on one P");
	run_result_free(&r);
}
