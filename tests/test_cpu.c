/* test_cpu.c: the runtime model's CPUs (--cpus, sim/cpu.h): the threads
 * that want to run share the machine's CPUs. */
#include <criterion/criterion.h>
#include <string.h>

#include "../sim/cpu.h"
#include "helpers.h"

static const char fanout_json[] =
	"{\"procs\": 4, \"main\": [{\"repeat\": 8, \"body\": [{\"go\": \"w\"}]}],"
	" \"funcs\": {\"w\": [{\"run\": 1000}]}}";

Test(cpu, a_cpu_count_needs_the_runtime_model)
{
	struct program *p = load_text(fanout_json);
	struct sim_config cfg = test_config(4);
	cfg.cpus = 4;
	struct sim_error err;
	cr_assert_null(sim_new(&cfg, p, NULL, &err));
	cr_assert_eq(err.nomem, 0, "bad input, not out of memory");
	cr_assert(strstr(err.msg, "runtime model") != NULL, "%s", err.msg);
	cfg.model = MODEL_RUNTIME;
	struct sim *s = sim_new(&cfg, p, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	sim_free(s);
	program_free(p);
}

Test(cpu, as_many_cpus_as_ps_changes_nothing)
{
	struct sim_config cfg = test_config(4);
	cfg.model = MODEL_RUNTIME;
	struct run_result a, b;
	run_text(fanout_json, &cfg, &a);
	cfg.cpus = 4;
	run_text(fanout_json, &cfg, &b);
	cr_assert_eq(a.status, SIM_DONE, "%s", a.msg);
	cr_assert_eq(b.status, SIM_DONE, "%s", b.msg);
	cr_assert_eq(b.sum.makespan_us, a.sum.makespan_us);
	cr_assert_eq(b.sum.fingerprint, a.sum.fingerprint, "the same events, byte for byte");
	run_result_free(&a);
	run_result_free(&b);
}

static struct run_result run_cpus(const char *json, int procs, int cpus, int64_t slice_us, enum sim_cpu_place place)
{
	struct sim_config cfg = test_config(procs);
	cfg.model = MODEL_RUNTIME;
	cfg.cpus = cpus;
	cfg.cpu_slice_us = slice_us;
	cfg.cpu_place = place;
	struct run_result r;
	run_text(json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	return r;
}

static int64_t total_busy(const struct run_result *r)
{
	int64_t busy = 0;
	for (int i = 0; i < r->sum.procs; i++)
		busy += r->sum.busy_us[i];
	return busy;
}

/* Each goroutine's wall time, first run to exit, summed. */
static int64_t wall_sum(const struct run_result *r, int ngs)
{
	int64_t sum = 0;
	for (int g = 2; g < 2 + ngs; g++) {
		long start = first_start(&r->log, g), end = evlog_find(&r->log, 0, EV_G, g, PL_DEAD);
		cr_assert(start >= 0 && end >= 0, "G%d ran and exited", g);
		sum += r->log.ev[end].t - start; /* first_start is a time */
	}
	return sum;
}

Test(cpu, four_ps_on_two_cpus_double_a_cpu_bound_fanouts_makespan)
{
	struct run_result a = run_cpus(fanout_json, 4, 4, 0, CPU_PLACE_SHARED), b = run_cpus(fanout_json, 4, 2, 0, CPU_PLACE_SHARED);
	cr_assert_eq(a.sum.makespan_us, 2000, "8 x 1ms on 4 CPUs");
	/* 8 x 1ms on 2 CPUs: 4ms, and a tail while the last Gs' Ms take
	 * turns by their vruntime (a new M's first deadline is half a slice) */
	cr_assert(b.sum.makespan_us >= 4000 && b.sum.makespan_us <= 4400, "%lld", (long long)b.sum.makespan_us);
	cr_assert_eq(total_busy(&a), 8000);
	cr_assert_eq(total_busy(&b), 8000, "the same CPU time in all");
	run_result_free(&a);
	run_result_free(&b);
}

static const char hogs_json[] =
	"{\"procs\": 4, \"main\": [{\"repeat\": 4, \"body\": [{\"go\": \"w\"}]}],"
	" \"funcs\": {\"w\": [{\"run\": 20000}]}}";

Test(cpu, four_cpu_bound_goroutines_on_two_cpus_each_take_twice_as_long)
{
	struct run_result a = run_cpus(hogs_json, 4, 4, 0, CPU_PLACE_SHARED), b = run_cpus(hogs_json, 4, 2, 0, CPU_PLACE_SHARED);
	int64_t wa = wall_sum(&a, 4), wb = wall_sum(&b, 4);
	cr_assert_eq(wa, 4 * 20000, "each alone on its CPU");
	cr_assert(wb >= 2 * wa * 9 / 10 && wb <= 2 * wa * 11 / 10, "about twice: %lld vs %lld", (long long)wb,
		  (long long)wa);
	cr_assert_eq(total_busy(&b), total_busy(&a));
	run_result_free(&a);
	run_result_free(&b);
}

static const char two_json[] =
	"{\"procs\": 2, \"main\": [{\"go\": \"w\"}, {\"go\": \"w\"}],"
	" \"funcs\": {\"w\": [{\"run\": 3000}]}}";

Test(cpu, two_threads_on_one_cpu_share_it_by_vruntime)
{
	struct run_result r = run_cpus(two_json, 2, 1, 1000, CPU_PLACE_SHARED);
	long d1 = evlog_find(&r.log, 0, EV_G, -1, PL_DEAD);
	while (d1 >= 0 && r.log.ev[d1].g == 1) /* main exits at once */
		d1 = evlog_find(&r.log, (size_t)d1 + 1, EV_G, -1, PL_DEAD);
	cr_assert(d1 >= 0);
	/* a runs its 1ms slice; b, a new thread 1ms behind a in vruntime with
	 * a first deadline half a slice on, runs until it has caught up
	 * (1.5ms); then 1ms turns: a b a (done at 5.5ms) b */
	cr_assert_eq(r.log.ev[d1].t, 5500, "%lld", (long long)r.log.ev[d1].t);
	cr_assert_eq(r.sum.makespan_us, 6000);
	cr_assert_eq(total_busy(&r), 6000);
	run_result_free(&r);
}

/* A CPU-bound hog and a ticker that runs 10us after each 1ms syscall, on
 * one CPU: the ticker's thread, back from its syscall, wants the CPU the
 * hog's thread holds. */
static const char ticker_json[] =
	"{\"procs\": 2, \"main\": [{\"go\": \"hog\"}, {\"go\": \"tick\"}],"
	" \"funcs\": {\"hog\": [{\"run\": 20000}],"
	" \"tick\": [{\"repeat\": 10, \"body\": [{\"syscall\": 1000}, {\"run\": 10}]}]}}";

/* The EV_CPU records of G g's Ms that start a wait; the first at *first. */
static int cpu_waits(const struct run_result *r, int g, long *first)
{
	int n = 0;
	*first = -1;
	for (size_t i = 0; i < r->log.n; i++)
		if (r->log.ev[i].ev == EV_CPU && r->log.ev[i].g == g && r->log.ev[i].to == CPU_WAIT) {
			if (n++ == 0)
				*first = (long)i;
		}
	return n;
}

Test(cpu, a_woken_thread_far_behind_in_vruntime_preempts_a_long_running_one)
{
	struct run_result r = run_cpus(ticker_json, 2, 1, 0, CPU_PLACE_SHARED);
	long first;
	/* its first return (below) waits, and the ticker's thread gains lag
	 * (V rises by half the hog's run while it waits); each later return
	 * places it that far before V (place_entity), the hog's thread is past
	 * V and loses the CPU at once (check_preempt_wakeup_fair); each 10us
	 * run spends only 5us of the lag */
	cr_assert_eq(cpu_waits(&r, 3, &first), 1, "the ticker waits for a CPU once");
	cr_assert_geq(cpu_waits(&r, 2, &first), 9, "the hog is preempted at each of the ticker's returns");
	long end = evlog_find(&r.log, 0, EV_G, 3, PL_DEAD);
	cr_assert(end >= 0);
	cr_assert_leq(r.log.ev[end].t, 10 * 1010 + cpu_default_slice_us(1), "%lld", (long long)r.log.ev[end].t);
	run_result_free(&r);
}

Test(cpu, a_woken_thread_not_behind_in_vruntime_waits_for_the_running_ones_deadline)
{
	struct run_result r = run_cpus(ticker_json, 2, 1, 0, CPU_PLACE_SHARED);
	long w;
	cpu_waits(&r, 3, &w);
	cr_assert(w >= 0, "the ticker's first return waits");
	/* the ticker's thread ran alone before its first syscall (V was its
	 * own vruntime): it comes back with no lag, at V, where the hog's
	 * thread is still eligible and keeps the CPU to its deadline
	 * (RUN_TO_PARITY; pick_eevdf then picks the ticker), a slice after it
	 * got the CPU */
	long ran = -1, got = -1;
	for (long i = 0; i < w; i++)
		if (r.log.ev[i].ev == EV_CPU && r.log.ev[i].g == 2 && r.log.ev[i].to == CPU_RUN)
			ran = i;
	for (size_t i = (size_t)w + 1; i < r.log.n && got < 0; i++)
		if (r.log.ev[i].ev == EV_CPU && r.log.ev[i].g == 3 && r.log.ev[i].to == CPU_RUN)
			got = (long)i;
	cr_assert(ran >= 0 && got >= 0);
	cr_assert_gt(r.log.ev[got].t, r.log.ev[w].t, "it waited");
	cr_assert_eq(r.log.ev[got].t - r.log.ev[ran].t, cpu_default_slice_us(1), "the hog's whole slice");
	run_result_free(&r);
}

static const char syscall_json[] =
	"{\"procs\": 2, \"main\": [{\"go\": \"w\"}, {\"syscall\": 3000}],"
	" \"funcs\": {\"w\": [{\"run\": 2000}]}}";

Test(cpu, a_thread_in_a_syscall_uses_no_cpu)
{
	struct run_result r = run_cpus(syscall_json, 2, 1, 0, CPU_PLACE_SHARED);
	cr_assert_eq(r.sum.makespan_us, 3000, "w's 2ms of CPU runs on the one CPU during main's 3ms syscall");
	run_result_free(&r);
}

Test(cpu, every_builtin_workload_completes_on_fewer_cpus_than_ps)
{
	for (int w = 0; w < builtin_workloads_n; w++)
		for (int procs = 2; procs <= 8; procs *= 2)
			for (int cpus = 1; cpus < procs; cpus *= 2)
				for (int place = CPU_PLACE_SHARED; place <= CPU_PLACE_PREV; place++) {
					struct sim_config cfg = test_config(procs);
					cfg.model = MODEL_RUNTIME;
					cfg.cpus = cpus;
					cfg.cpu_place = (enum sim_cpu_place)place;
					cfg.thread_wake_us = procs == 4 ? 50 : 0;
					struct run_result r;
					run_builtin(builtin_workloads[w].name, &cfg, NULL, &r);
					const char *name = builtin_workloads[w].name;
					cr_assert_eq(r.status, SIM_DONE, "%s procs=%d cpus=%d: %s", name, procs, cpus, r.msg);
					int64_t busy = total_busy(&r);
					if (!r.inexact && !r.exit_main)
						cr_assert_eq(busy, r.total_work, "%s procs=%d cpus=%d: CPU used = work", name, procs, cpus);
					cr_assert_geq(r.sum.makespan_us * cpus, busy, "%s procs=%d cpus=%d: no more than %d CPUs used",
						      name, procs, cpus, cpus);
					run_result_free(&r);
				}
}

/* The ev=cpu records (sim/cpu.h): each M's records alternate, a wait's
 * start (to=wait) then its end (from=wait, to run or none); by the OS's
 * scheduler (by_m -1); none at all with a CPU per P. */
Test(cpu, an_m_waiting_for_a_cpu_is_recorded_from_start_to_end)
{
	struct run_result r = run_cpus(fanout_json, 4, 2, 0, CPU_PLACE_SHARED);
	int waiting[64] = { 0 }, starts = 0;
	for (size_t i = 0; i < r.log.n; i++) {
		const struct sim_event *e = &r.log.ev[i];
		if (e->ev != EV_CPU)
			continue;
		cr_assert(e->m >= 0 && e->m < 64);
		cr_assert_eq(e->by_m, -1, "record %zu: the OS's scheduler acts", i);
		cr_assert_eq(e->from == CPU_WAIT, waiting[e->m], "record %zu: M%d's records alternate", i, e->m);
		cr_assert((e->from == CPU_WAIT) != (e->to == CPU_WAIT), "record %zu: a wait's start or end", i);
		waiting[e->m] = e->to == CPU_WAIT;
		starts += e->to == CPU_WAIT;
	}
	cr_assert_gt(starts, 0, "8 CPU-bound Gs on 4 Ps and 2 CPUs: Ms wait");
	for (int m = 0; m < 64; m++)
		cr_assert_eq(waiting[m], 0, "M%d's last wait ended", m);
	run_result_free(&r);
	struct run_result a = run_cpus(fanout_json, 4, 4, 0, CPU_PLACE_SHARED);
	for (size_t i = 0; i < a.log.n; i++)
		cr_assert_neq(a.log.ev[i].ev, EV_CPU, "a CPU per P: nothing waits, nothing recorded");
	run_result_free(&a);
}


Test(cpu, a_cpu_placement_needs_a_cpu_count)
{
	struct program *p = load_text(fanout_json);
	struct sim_config cfg = test_config(4);
	cfg.model = MODEL_RUNTIME;
	cfg.cpu_place = CPU_PLACE_LAST;
	struct sim_error err;
	cr_assert_null(sim_new(&cfg, p, NULL, &err));
	cr_assert(strstr(err.msg, "--cpus") != NULL, "%s", err.msg);
	cfg.cpus = 2;
	cfg.cpu_place = CPU_PLACE_SHARED;
	cfg.cpu_migration_cost_us = 100;
	cr_assert_null(sim_new(&cfg, p, NULL, &err), "a migration cost needs --cpu-place=last");
	program_free(p);
}

/* With --cpu-place=last a cache-cold waiter still moves to an idle CPU:
 * CPU-bound Ms that wait a whole slice spread over both CPUs. */
Test(cpu, a_cpu_bound_fanout_still_fills_both_cpus_with_last_placement)
{
	struct run_result r = run_cpus(fanout_json, 4, 2, 0, CPU_PLACE_LAST);
	cr_assert_eq(total_busy(&r), 8000);
	cr_assert_leq(r.sum.makespan_us, 4400, "8 x 1ms on 2 CPUs, within 10%%: %lld", (long long)r.sum.makespan_us);
	run_result_free(&r);
}

/* A pipeline over unbuffered channels: each hand-off wakes a spinning M,
 * which (last) runs on its own last CPU and preempts the thread there, and
 * the hand-offs keep every waiter cache hot, so no idle CPU takes one:
 * the same work takes longer than with one shared run queue. */
static const char pipe_json[] =
	"{\"procs\": 4, \"chans\": {\"a\": 0, \"b\": 0, \"c\": 0},"
	" \"main\": [{\"go\": \"s1\"}, {\"go\": \"s2\"}, {\"go\": \"sink\"}, {\"repeat\": 100, \"body\": [{\"send\": \"a\"}]}],"
	" \"funcs\": {\"s1\": [{\"repeat\": 100, \"body\": [{\"recv\": \"a\"}, {\"run\": 50}, {\"send\": \"b\"}]}],"
	" \"s2\": [{\"repeat\": 100, \"body\": [{\"recv\": \"b\"}, {\"run\": 50}, {\"send\": \"c\"}]}],"
	" \"sink\": [{\"repeat\": 100, \"body\": [{\"recv\": \"c\"}]}]}}";

Test(cpu, last_placement_keeps_a_pipelines_threads_on_their_cpus)
{
	struct run_result a = run_cpus(pipe_json, 4, 2, 0, CPU_PLACE_SHARED), b = run_cpus(pipe_json, 4, 2, 0, CPU_PLACE_LAST);
	cr_assert_eq(total_busy(&a), 10000);
	cr_assert_eq(total_busy(&b), 10000, "the same work");
	cr_assert_gt(b.sum.makespan_us, a.sum.makespan_us * 11 / 10, "last %lld us vs shared %lld us",
		     (long long)b.sum.makespan_us, (long long)a.sum.makespan_us);
	run_result_free(&a);
	run_result_free(&b);
}

/* sysmon's CPU (--cost-sysmon) under --cpus: each of its sleeps is a burst
 * its thread does on the shared CPUs (cpu.h), taking time from Go code. */
static const char hog_json[] = "{\"procs\": 2, \"main\": [{\"run\": 10000}]}";

static struct run_result run_sysmon_cost(int procs, int cpus, int64_t cost_ns)
{
	struct sim_config cfg = test_config(procs);
	cfg.model = MODEL_RUNTIME;
	cfg.cpus = cpus;
	cfg.cost_sysmon_ns = cost_ns;
	cfg.sysmon = SYSMON_ADAPTIVE; /* sleeps of 20 us + 70 us of slack, 40 + 70 after 50 of them, ... */
	cfg.slack = SLACK_FIXED;
	cfg.sysmon_slack_us = 70;
	struct run_result r;
	run_text(hog_json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	return r;
}

Test(cpu, sysmons_sleeps_on_the_one_busy_cpu_lengthen_a_cpu_bound_run_by_their_cost)
{
	struct run_result a = run_sysmon_cost(2, 1, 0), b = run_sysmon_cost(2, 1, 15000);
	cr_assert_eq(a.sum.makespan_us, 10000);
	int64_t n = b.sum.sysmon_sleeps, extra = b.sum.makespan_us - a.sum.makespan_us;
	int64_t given = b.sum.sysmon_cpu_ns / 1000; /* a sleep due while sysmon waits for the CPU costs nothing */
	cr_assert(n > 50 && n < 70, "sysmon's first 50 short sleeps and its back-off: %lld", (long long)n);
	cr_assert(given > 40 * 15 && given <= n * 15, "%lld sleeps, %lld us of CPU given", (long long)n, (long long)given);
	cr_assert(extra >= given - 15 && extra <= given, "sysmon's %lld us took %lld us from the G", (long long)given,
		  (long long)extra);
	run_result_free(&a);
	run_result_free(&b);
}

Test(cpu, sysmon_takes_a_free_cpu_and_slows_no_one)
{
	struct run_result a = run_sysmon_cost(4, 2, 0), b = run_sysmon_cost(4, 2, 15000);
	cr_assert_eq(b.sum.makespan_us, a.sum.makespan_us, "one CPU runs the G, the other sysmon");
	run_result_free(&a);
	run_result_free(&b);
}

Test(cpu, without_a_cpu_count_sysmons_cpu_is_counted_not_placed)
{
	struct run_result a = run_sysmon_cost(2, 0, 0), b = run_sysmon_cost(2, 0, 15000);
	cr_assert_eq(b.sum.makespan_us, a.sum.makespan_us, "sysmon has a CPU of its own");
	cr_assert_eq(b.sum.fingerprint, a.sum.fingerprint, "the same events, byte for byte");
	cr_assert_eq(b.sum.sysmon_sleeps, a.sum.sysmon_sleeps);
	run_result_free(&a);
	run_result_free(&b);
}

Test(cpu, with_as_many_cpus_as_ps_sysmons_bursts_still_take_time_from_busy_ones)
{
	struct sim_config cfg = test_config(2);
	cfg.model = MODEL_RUNTIME;
	cfg.cpus = 2;
	cfg.sysmon = SYSMON_ADAPTIVE;
	cfg.slack = SLACK_FIXED;
	cfg.sysmon_slack_us = 70;
	struct run_result a, b;
	run_text(two_json, &cfg, &a); /* no bursts: the mechanism is off, a CPU per P */
	cfg.cost_sysmon_ns = 15000;
	run_text(two_json, &cfg, &b);
	cr_assert_eq(a.status, SIM_DONE, "%s", a.msg);
	cr_assert_eq(b.status, SIM_DONE, "%s", b.msg);
	cr_assert(b.sum.sysmon_cpu_ns > 0, "sysmon's sleeps are placed at 2 Ps on 2 CPUs");
	cr_assert(b.sum.makespan_us > a.sum.makespan_us, "both CPUs run a worker: sysmon's bursts delay one (%lld vs %lld us)",
		  (long long)b.sum.makespan_us, (long long)a.sum.makespan_us);
	run_result_free(&a);
	run_result_free(&b);
}

/* --cpu-place=linux and prev: where a woken thread goes (cpu_select, Linux's
 * select_task_rq_fair), on a sim with 4 Ps on 2 CPUs whose CPUs' occupants
 * and queue lengths the test sets by hand (cpu_select reads nothing else). */
static struct sim *placement_sim(enum sim_cpu_place place, struct program **p)
{
	*p = load_text(fanout_json);
	struct sim_config cfg = test_config(4);
	cfg.model = MODEL_RUNTIME;
	cfg.cpus = 2;
	cfg.cpu_place = place;
	struct sim_error err;
	struct sim *s = sim_new(&cfg, *p, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	sim_step(s); /* the first instant makes the threads */
	cr_assert_geq(s->nm, 3, "M0, sysmon and an init M");
	cr_assert_eq(s->ncpus, 2);
	for (int c = 0; c < 2; c++) /* no waiters: each test sets what it needs */
		s->cpus[c].q.n = 0;
	return s;
}

static void placement_free(struct sim *s, struct program *p)
{
	sim_free(s);
	program_free(p);
}

Test(cpu, linux_placement_takes_the_idle_cpu_over_a_busy_previous_one)
{
	struct program *p;
	struct sim *s = placement_sim(CPU_PLACE_LINUX, &p);
	s->allm[2].cpuhome = 0; /* M2 last ran on CPU 0, where M0 runs now; CPU 1 is idle */
	s->cpus[0].m = 0;
	s->cpus[1].m = -1;
	cr_assert_eq(cpu_select(s, 2), 1, "select_idle_sibling: the idle CPU");
	s->cpus[1].m = 1; /* both busy: it stays */
	cr_assert_eq(cpu_select(s, 2), 0, "no CPU idle: its previous CPU");
	placement_free(s, p);
}

Test(cpu, prev_placement_keeps_a_woken_thread_on_its_cpu_though_the_other_is_idle)
{
	struct program *p;
	struct sim *s = placement_sim(CPU_PLACE_PREV, &p);
	s->allm[2].cpuhome = 0;
	s->allm[2].cpuwaker = 1 + 1; /* woken from CPU 1 */
	s->cpus[0].m = 0;
	s->cpus[1].m = -1;
	cr_assert_eq(cpu_select(s, 2), 0, "this machine's kernel: the previous CPU");
	placement_free(s, p);
}

Test(cpu, linux_wake_affine_pulls_a_woken_thread_to_its_wakers_cpu_only_when_that_is_less_loaded)
{
	struct program *p;
	struct sim *s = placement_sim(CPU_PLACE_LINUX, &p);
	s->allm[2].cpuhome = 0;
	s->cpus[0].m = 0;
	s->cpus[1].m = 1;
	s->allm[2].cpuwaker = 1 + 1; /* the waker runs on CPU 1 */
	cr_assert_eq(cpu_select(s, 2), 0, "one runnable on each: (1 + 1) x 100 is not below 1 x 108, prev");
	s->cpus[0].q.n = 1; /* CPU 0 has a waiter too */
	cr_assert_eq(cpu_select(s, 2), 1, "(1 + 1) x 100 below 2 x 108: the waker's CPU");
	s->allm[2].cpuwaker = 0; /* no thread as waker: no wake_affine */
	cr_assert_eq(cpu_select(s, 2), 0);
	placement_free(s, p);
}

/* With a queue per CPU the load balance (a CPU going idle, the ticks)
 * still spreads CPU-bound threads that wait whole slices. */
Test(cpu, a_cpu_bound_fanout_fills_both_cpus_with_a_queue_per_cpu)
{
	for (int place = CPU_PLACE_LINUX; place <= CPU_PLACE_PREV; place++) {
		struct run_result r = run_cpus(fanout_json, 4, 2, 0, (enum sim_cpu_place)place);
		cr_assert_eq(total_busy(&r), 8000);
		cr_assert_leq(r.sum.makespan_us, 4400, "8 x 1ms on 2 CPUs, within 10%%: %lld", (long long)r.sum.makespan_us);
		run_result_free(&r);
	}
}

/* A pipeline's hand-offs, 4 Ps on 2 CPUs: with each woken thread kept on
 * its previous CPU (prev) a woken spinner queues behind the stage on its
 * own CPU instead of taking any free one, so the same work takes longer
 * than with one shared queue. */
Test(cpu, prev_placement_slows_a_pipeline_against_one_shared_queue)
{
	struct run_result a = run_cpus(pipe_json, 4, 2, 0, CPU_PLACE_SHARED), b = run_cpus(pipe_json, 4, 2, 0, CPU_PLACE_PREV);
	cr_assert_eq(total_busy(&b), 10000, "the same work");
	cr_assert_gt(b.sum.makespan_us, a.sum.makespan_us, "prev %lld us vs shared %lld us", (long long)b.sum.makespan_us,
		     (long long)a.sum.makespan_us);
	run_result_free(&a);
	run_result_free(&b);
}
