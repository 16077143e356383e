/* test_threadcost.c: the runtime model's CPU for getting an M to run a P
 * (proc.c startm_cpu): a new thread's creation (--cost-clone, the
 * creator's; --cost-mstart, the new thread's) and a parked one's wake
 * (--cost-futex-wake, --cost-futex-sleep), on every startm, handoffp's
 * included. */
#include <criterion/criterion.h>

#include "helpers.h"

#define CLONE_NS 4000
#define MSTART_NS 6000
#define WAKE_NS 2000
#define SLEEP_NS 3000

static struct sim_config costed(int procs, int init_threads, int cpus)
{
	struct sim_config cfg = test_config(procs);
	cfg.model = MODEL_RUNTIME; /* every other runtime-model field 0: only what is set here costs */
	cfg.init_threads = init_threads;
	cfg.cpus = cpus;
	cfg.cost_thread_ns[TOP_CLONE] = CLONE_NS;
	cfg.cost_thread_ns[TOP_MSTART] = MSTART_NS;
	cfg.cost_thread_ns[TOP_FUTEX_WAKE] = WAKE_NS;
	cfg.cost_thread_ns[TOP_FUTEX_SLEEP] = SLEEP_NS;
	return cfg;
}

/* Three callers block in long syscalls at 1 P: sysmon's retake hands the
 * P off (handoffp -> startm) for each of the others queued behind. */
static const char calls_json[] = "{\"procs\": 1, \"main\": [{\"repeat\": 3, \"body\": [{\"go\": \"c\"}]}],"
				 " \"funcs\": {\"c\": [{\"syscall\": 2000}, {\"run\": 10}]}}";

/* Ms created after boot (M0 and sysmon, plus the init Ms). */
static int64_t created(const struct run_result *r, int init_threads)
{
	int64_t n = 0;
	for (size_t i = 0; i < r->log.n; i++)
		n += r->log.ev[i].ev == EV_M && r->log.ev[i].from == MS_NEW && r->log.ev[i].to == MS_NEW;
	return n - 2 - init_threads;
}

Test(threadcost, each_new_m_costs_its_creator_a_clone_and_itself_an_mstart)
{
	struct sim_config cfg = costed(1, 0, 0);
	struct run_result r;
	run_text(calls_json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	int64_t n = created(&r, 0);
	cr_assert_geq(n, 2, "sysmon's handoffs find no idle M and create threads");
	cr_assert_eq(r.sum.thread_cpu_ns[TOP_CLONE], n * CLONE_NS);
	cr_assert_eq(r.sum.thread_cpu_ns[TOP_MSTART], n * MSTART_NS);
	run_result_free(&r);
}

Test(threadcost, a_handoff_to_a_parked_m_costs_a_futex_wake_and_sleep_not_a_clone)
{
	struct sim_config cfg = costed(1, 3, 0);
	struct run_result r;
	run_text(calls_json, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(created(&r, 3), 0, "the init Ms are enough");
	cr_assert_eq(r.sum.thread_cpu_ns[TOP_CLONE] + r.sum.thread_cpu_ns[TOP_MSTART], 0);
	cr_assert_geq(r.sum.handoffs, 2);
	cr_assert_geq(r.sum.thread_cpu_ns[TOP_FUTEX_WAKE], r.sum.handoffs * WAKE_NS, "handoffp's startm wakes its M (notewakeup)");
	cr_assert_eq(r.sum.thread_cpu_ns[TOP_FUTEX_SLEEP] / SLEEP_NS, r.sum.thread_cpu_ns[TOP_FUTEX_WAKE] / WAKE_NS,
		     "each woken M pays its futexsleep's return");
	run_result_free(&r);
}

Test(threadcost, the_new_threads_start_delays_the_g_it_runs_on_one_cpu)
{
	struct sim_config cfg = costed(1, 0, 1), free_cfg = costed(1, 0, 1);
	free_cfg.cost_thread_ns[TOP_CLONE] = free_cfg.cost_thread_ns[TOP_MSTART] = 0;
	struct run_result a, b;
	run_text(calls_json, &free_cfg, &a);
	run_text(calls_json, &cfg, &b);
	cr_assert_eq(a.status, SIM_DONE, "%s", a.msg);
	cr_assert_eq(b.status, SIM_DONE, "%s", b.msg);
	long ia = first_start(&a.log, 3), ib = first_start(&b.log, 3);
	cr_assert(ia >= 0 && ib >= 0);
	cr_assert_geq(ib, ia + MSTART_NS / 1000, "the second caller runs on a new M after its mstart (%ld vs %ld)", ib, ia);
	run_result_free(&a);
	run_result_free(&b);
}
