/* test_cost.c: the runtime model's thread and operation costs
 * (--thread-start, --cost-go, --cost-chan, --cost-switch, --cost-gosched). */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

static struct sim_config runtime_config(int procs)
{
	struct sim_config cfg = test_config(procs);
	cfg.model = MODEL_RUNTIME; /* every other runtime-model field 0: only what a test sets costs */
	return cfg;
}

static const char handoff_json[] =
	"{\"procs\": 2, \"chans\": {\"c\": 0}, \"main\": [{\"go\": \"worker\"},"
	" {\"repeat\": 100, \"body\": [{\"send\": \"c\"}, {\"run\": 50}]}],"
	" \"funcs\": {\"worker\": [{\"repeat\": 100, \"body\": [{\"recv\": \"c\"}, {\"run\": 50}]}]}}";

static long nth(const struct evlog *l, int ev, int n)
{
	long at = -1;
	for (size_t i = 0; i < l->n && n > 0; i++)
		if (l->ev[i].ev == ev && --n == 0)
			at = (long)i;
	return at;
}

Test(cost, a_new_m_takes_thread_start_and_a_parked_one_thread_wake)
{
	struct sim_config cfg = runtime_config(2);
	cfg.thread_start_us = 30;
	cfg.thread_wake_us = 10;
	struct run_result r;
	run_text(handoff_json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long s1 = nth(&r.log, EV_STEAL, 1), s2 = nth(&r.log, EV_STEAL, 2);
	cr_assert(s1 >= 0 && s2 >= 0);
	cr_assert_eq(r.log.ev[s1].t, 30 + RUNQGRAB_BACKOFF_US, "the first thief is a new thread: newm, 30us, then its usleep(3)");
	cr_assert_eq(r.log.ev[s2].t, 30 + RUNQGRAB_BACKOFF_US + 50 + 10 + RUNQGRAB_BACKOFF_US,
		     "the next is the same thread, parked and woken: 10us after the worker blocks, then its usleep(3)");
	run_result_free(&r);
}

static const char fanout_json[] =
	"{\"procs\": 1, \"main\": [{\"repeat\": 5, \"body\": [{\"go\": \"w\"}]}],"
	" \"funcs\": {\"w\": [{\"run\": 10}]}}";

Test(cost, a_go_statements_cost_delays_each_creation)
{
	struct sim_config cfg = runtime_config(1);
	struct run_result a, b;
	run_text(fanout_json, &cfg, &a);
	cfg.cost_go_ns = 2000;
	run_text(fanout_json, &cfg, &b);
	cr_assert_eq(a.status, SIM_DONE, "%s", a.msg);
	cr_assert_eq(b.status, SIM_DONE, "%s", b.msg);
	for (int g = 2; g <= 6; g++) {
		long ia = evlog_find(&a.log, 0, EV_G, g, -1), ib = evlog_find(&b.log, 0, EV_G, g, -1);
		cr_assert(ia >= 0 && ib >= 0);
		cr_assert_eq(a.log.ev[ia].t, 0, "free: every G exists at t=0");
		cr_assert_eq(b.log.ev[ib].t, 2 * (g - 1), "G%d is created after %d go statements of 2us", g, g - 1);
	}
	cr_assert_eq(b.sum.makespan_us, a.sum.makespan_us + 10, "main's 10us of go statements come first");
	run_result_free(&a);
	run_result_free(&b);
}

static const char chan_json[] =
	"{\"procs\": 1, \"chans\": {\"c\": 8}, \"main\": [{\"repeat\": 8, \"body\": [{\"send\": \"c\"}]}, {\"run\": 10}]}";

Test(cost, costs_below_a_microsecond_add_up_on_the_p)
{
	struct sim_config cfg = runtime_config(1);
	cfg.cost_chan_ns = 250;
	struct run_result r;
	run_text(chan_json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(r.sum.makespan_us, 8 * 250 / 1000 + 10, "eight sends of 250ns: 2us, then the run");
	cr_assert_eq(r.sum.busy_us[0], 12, "the cost is CPU time of the P");
	run_result_free(&r);
}

static const char two_json[] =
	"{\"procs\": 1, \"main\": [{\"go\": \"w\"}, {\"run\": 10}], \"funcs\": {\"w\": [{\"run\": 10}]}}";

Test(cost, each_switch_to_a_g_is_paid_before_it_runs)
{
	struct sim_config cfg = runtime_config(1);
	cfg.cost_switch_ns = 3000;
	struct run_result r;
	run_text(two_json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long w = first_start(&r.log, 2);
	long run = evlog_find(&r.log, 0, EV_G, 2, PL_DEAD);
	cr_assert(w >= 0 && run >= 0);
	cr_assert_eq(w, 3 + 10, "main: a switch, its run; then w is executed");
	cr_assert_eq(r.log.ev[run].t, w + 3 + 10, "w pays its switch, then runs");
	cr_assert_eq(r.sum.makespan_us, 2 * (3 + 10));
	run_result_free(&r);
}

static const char gosched_json[] =
	"{\"procs\": 1, \"main\": [{\"repeat\": 4, \"body\": [{\"gosched\": true}]}]}";

Test(cost, a_gosched_costs_its_own_time_and_a_switch)
{
	struct sim_config cfg = runtime_config(1);
	cfg.cost_gosched_ns = 1000;
	cfg.cost_switch_ns = 2000;
	struct run_result r;
	run_text(gosched_json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(r.sum.makespan_us, 2 + 4 * (1 + 2), "the first execute, then per Gosched its cost and the switch back");
	run_result_free(&r);
}

Test(cost, operation_costs_need_the_runtime_model)
{
	struct program *p = load_text(two_json);
	struct sim_config cfg = test_config(1);
	cfg.cost_go_ns = 1000;
	struct sim_error err;
	cr_assert_null(sim_new(&cfg, p, NULL, &err));
	cr_assert(strstr(err.msg, "runtime model") != NULL, "%s", err.msg);
	cfg.cost_go_ns = 0;
	cfg.thread_start_us = 5;
	cr_assert_null(sim_new(&cfg, p, NULL, &err));
	cr_assert(strstr(err.msg, "runtime model") != NULL, "%s", err.msg);
	program_free(p);
}

Test(cost, every_builtin_workload_completes_with_costs_and_uses_at_least_its_work)
{
	for (int w = 0; w < builtin_workloads_n; w++)
		for (int procs = 1; procs <= 4; procs *= 2) {
			struct sim_config cfg = runtime_config(procs);
			cfg.cost_go_ns = 2300;
			cfg.cost_chan_ns = 50;
			cfg.cost_switch_ns = 90;
			cfg.cost_gosched_ns = 500;
			cfg.thread_start_us = 20;
			cfg.thread_wake_us = 10;
			cfg.cpus = procs == 4 ? 2 : 0;
			struct run_result r;
			const char *name = builtin_workloads[w].name;
			run_builtin(name, &cfg, NULL, &r);
			cr_assert_eq(r.status, SIM_DONE, "%s procs=%d: %s", name, procs, r.msg);
			int64_t busy = 0;
			for (int i = 0; i < procs; i++)
				busy += r.sum.busy_us[i];
			if (!r.inexact && !r.exit_main)
				cr_assert_geq(busy, r.total_work, "%s procs=%d: the work and the costs", name, procs);
			cr_assert_leq(busy, r.sum.makespan_us * (procs == 4 ? 2 : procs), "%s procs=%d", name, procs);
			run_result_free(&r);
		}
}

/* The thread operations' CPU (--cost-futex-wake, ..., sim/cpu.h's bursts):
 * placed on the shared CPUs with --cpus, counted in the summary without. */
static const char syscall_json[] =
	"{\"procs\": 2, \"main\": [{\"run\": 100}, {\"syscall\": 1000}, {\"run\": 100}]}";

static struct run_result run_syscall_cost(int cpus, int64_t cost_ns)
{
	struct sim_config cfg = runtime_config(2);
	cfg.cpus = cpus;
	cfg.cost_thread_ns[TOP_SYSCALL] = cost_ns;
	struct run_result r;
	run_text(syscall_json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	return r;
}

Test(cost, a_syscalls_exit_half_delays_its_g_on_the_shared_cpus)
{
	struct run_result a = run_syscall_cost(2, 0), b = run_syscall_cost(2, 20000);
	cr_assert_eq(a.sum.makespan_us, 1200);
	cr_assert_eq(b.sum.makespan_us, 1210, "the entry's 10us inside the syscall, the exit's 10us before the G goes on");
	cr_assert_eq(b.sum.thread_cpu_ns[TOP_SYSCALL], 20000);
	cr_assert_eq(b.sum.thread_cpu_off_ns, 10000, "the exit's half is the running M's, in its running time");
	run_result_free(&a);
	run_result_free(&b);
}

Test(cost, without_a_cpu_count_a_syscalls_cost_is_counted_and_takes_no_time)
{
	struct run_result a = run_syscall_cost(0, 0), b = run_syscall_cost(0, 20000);
	cr_assert_eq(b.sum.makespan_us, a.sum.makespan_us);
	cr_assert_eq(b.sum.fingerprint, a.sum.fingerprint, "the same events, byte for byte");
	cr_assert_eq(b.sum.thread_cpu_ns[TOP_SYSCALL], 20000);
	cr_assert_eq(b.sum.thread_cpu_off_ns, 20000, "none of it in a trace's running time");
	run_result_free(&a);
	run_result_free(&b);
}

Test(cost, every_wake_of_a_parked_thread_costs_a_futex_wake_and_a_futex_sleep)
{
	struct sim_config cfg = runtime_config(2);
	cfg.cpus = 2;
	cfg.thread_wake_us = 10;
	cfg.cost_thread_ns[TOP_FUTEX_WAKE] = 5000;
	cfg.cost_thread_ns[TOP_FUTEX_SLEEP] = 7000;
	cfg.cost_thread_ns[TOP_USLEEP] = 3000;
	struct run_result r;
	run_text(handoff_json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	int64_t wakes = r.sum.thread_cpu_ns[TOP_FUTEX_WAKE] / 5000;
	cr_assert(wakes > 0, "the hand-offs wake parked Ms");
	cr_assert_eq(r.sum.thread_cpu_ns[TOP_FUTEX_WAKE], wakes * 5000);
	cr_assert_eq(r.sum.thread_cpu_ns[TOP_FUTEX_SLEEP], wakes * 7000, "each woken M pays its futexsleep's return");
	cr_assert(r.sum.thread_cpu_ns[TOP_USLEEP] > 0 && r.sum.thread_cpu_ns[TOP_USLEEP] % 3000 == 0,
		  "each runqgrab back-off sleeps");
	run_result_free(&r);
}

Test(cost, a_thread_operation_cost_needs_the_runtime_model)
{
	struct sim_config cfg = test_config(2);
	cfg.cost_thread_ns[TOP_NETPOLL] = 1000;
	struct program *p = load_text(syscall_json);
	struct sim_error err;
	cr_assert_null(sim_new(&cfg, p, NULL, &err));
	cr_assert(strstr(err.msg, "runtime model") != NULL, "%s", err.msg);
	program_free(p);
}

/* --cost-write: each SCHED line costs sysmon one write(2) per piece that
 * schedtrace() prints: 18 + 2 x GOMAXPROCS from Go 1.20 (needspinning),
 * 16 + 2 x GOMAXPROCS in 1.19; placed with --cpus, a burst of sysmon's
 * thread that delays a CPU-bound G on one CPU. */
static int count_line(void *ctx, const struct sim *s)
{
	(void)s;
	++*(int *)ctx;
	return 0;
}

static const char hog_json[] = "{\"main\": [{\"run\": \"5ms\"}]}";

static struct sim_summary run_write_cost(int go, int schedtrace_ms, int64_t cost_ns, int *lines)
{
	struct sim_config cfg = runtime_config(2);
	cfg.go_release = go;
	cfg.cpus = 1;
	cfg.schedtrace_ms = schedtrace_ms;
	cfg.cost_thread_ns[TOP_WRITE] = cost_ns;
	struct program *p = load_text(hog_json);
	*lines = 0;
	struct sim_sink sink = { .ctx = lines, .schedtrace = count_line };
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, &sink, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(sim_run(s), SIM_DONE);
	struct sim_summary sum;
	sim_summary(s, &sum);
	sim_free(s);
	program_free(p);
	return sum;
}

Test(cost, each_sched_line_costs_sysmon_a_write_per_piece)
{
	int n0, n23, n19, nno;
	struct sim_summary free_ = run_write_cost(23, 1, 0, &n0), w23 = run_write_cost(23, 1, 1000, &n23),
			   w19 = run_write_cost(19, 1, 1000, &n19), none = run_write_cost(23, 0, 1000, &nno);
	cr_assert(n23 > 0 && nno == 0);
	cr_assert_eq(w23.thread_cpu_ns[TOP_WRITE], (int64_t)n23 * (18 + 2 * 2) * 1000, "1.23: 22 writes a line at 2 Ps");
	cr_assert_eq(w19.thread_cpu_ns[TOP_WRITE], (int64_t)n19 * (16 + 2 * 2) * 1000, "1.19: no needspinning pair");
	cr_assert_eq(none.thread_cpu_ns[TOP_WRITE], 0, "no schedtrace, no writes");
	cr_assert_eq(free_.thread_cpu_ns[TOP_WRITE], 0);
	cr_assert_gt(w23.makespan_us, free_.makespan_us, "the writes took the one CPU from the G");
}
