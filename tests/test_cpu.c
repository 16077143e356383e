/* test_cpu.c: the runtime model's CPUs (--cpus, sim/cpu.h): the threads
 * that want to run share the machine's CPUs. */
#include <criterion/criterion.h>
#include <string.h>

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
