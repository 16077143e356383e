/* test_workload.c: the workload compiler: durations, params, -D, errors
 * that name file:line:column. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"

static int64_t dur(const char *s)
{
	int64_t us = -1;
	return workload_parse_duration(s, &us) == 0 ? us : -1;
}

Test(workload, durations_take_units_and_round_up_to_the_tick)
{
	cr_assert_eq(dur("250us"), 250);
	cr_assert_eq(dur("1ms"), 1000);
	cr_assert_eq(dur("1.5ms"), 1500);
	cr_assert_eq(dur("2s"), 2000000);
	cr_assert_eq(dur("1us"), 10);
	cr_assert_eq(dur("100ns"), 10);
	cr_assert_eq(dur("0ms"), 0);
	cr_assert_eq(dur("1.0001ms"), 1010);
	cr_assert_eq(dur("ms"), -1);
	cr_assert_eq(dur("1.ms"), -1);
	cr_assert_eq(dur("-1ms"), -1);
	cr_assert_eq(dur("1h"), -1);
	cr_assert_eq(dur("99999999999999999999s"), -1);
	int64_t us;
	cr_assert_eq(workload_parse_duration_us("67us", &us), 0);
	cr_assert_eq(us, 67, "options that are not workload durations keep the microsecond");
}

/* What one goroutine's run of a random duration drew, summed over n passes. */
static int64_t drawn(const struct program *p, int n)
{
	int64_t sum = 0;
	for (int k = 0; k < n; k++)
		sum += workload_draw(p, p->funcs[p->main_fn].ops[1].val, 1, 1, (uint32_t)k);
	return sum;
}

Test(workload, a_3us_run_stays_3us_with_tick_1us_and_rounds_to_10_without)
{
	struct program *p = load_text("{\"tick\": \"1us\", \"main\": [{\"run\": 3}, {\"sleep\": \"2.5us\"}, "
				      "{\"select\": [{\"after\": 7}]}, {\"tick\": 13}]}");
	cr_assert_eq(p->tick_us, 1);
	cr_assert_eq(program_total_work(p), 3);
	const struct op *o = p->funcs[p->main_fn].ops;
	cr_assert_eq(o[1].val, 3, "2.5us rounds up to the microsecond");
	cr_assert_eq(o[3].kind, OP_CASE);
	cr_assert_eq(o[3].val, 7, "a select's timeout keeps the microsecond");
	int32_t t = 4;
	while (t < p->funcs[p->main_fn].nops && o[t].kind != OP_TICK)
		t++;
	cr_assert_lt(t, p->funcs[p->main_fn].nops);
	cr_assert_eq(o[t].val, 13, "a ticker's period keeps the microsecond");
	program_free(p);
	p = load_text("{\"main\": [{\"run\": 3}, {\"sleep\": \"2.5us\"}]}");
	cr_assert_eq(p->tick_us, 10);
	cr_assert_eq(program_total_work(p), 10);
	cr_assert_eq(p->funcs[p->main_fn].ops[1].val, 10);
	program_free(p);
	p = load_text("{\"tick\": \"10us\", \"main\": [{\"run\": 3}]}");
	cr_assert_eq(program_total_work(p), 10, "\"10us\" is the default said out loud");
	program_free(p);
}

Test(workload, a_random_duration_is_drawn_to_the_workloads_tick)
{
	struct program *p = load_text("{\"tick\": 1, \"main\": [{\"run\": 1}, {\"run\": {\"uniform\": [1, 4]}}]}");
	int odd = 0;
	for (int k = 0; k < 64; k++)
		odd |= workload_draw(p, p->funcs[p->main_fn].ops[1].val, 1, 1, (uint32_t)k) % 10 != 0;
	cr_assert(odd, "draws are not multiples of 10 us at tick 1us");
	cr_assert_lt(drawn(p, 1000), 4 * 1000);
	program_free(p);
	p = load_text("{\"main\": [{\"run\": 1}, {\"run\": {\"uniform\": [1, 4]}}]}");
	cr_assert_eq(drawn(p, 1000), 10 * 1000, "every draw of 1..4 us rounds up to one 10 us tick");
	program_free(p);
}

Test(workload, a_3us_run_takes_3us_of_simulated_time_with_tick_1us)
{
	struct sim_config cfg = test_config(1);
	cfg.model = MODEL_SEED;
	struct run_result r;
	run_text("{\"tick\": \"1us\", \"main\": [{\"repeat\": 5, \"body\": [{\"run\": 3}]}]}", &cfg, &r);
	cr_assert_eq(r.sum.makespan_us, 15);
	run_result_free(&r);
	run_text("{\"main\": [{\"repeat\": 5, \"body\": [{\"run\": 3}]}]}", &cfg, &r);
	cr_assert_eq(r.sum.makespan_us, 50);
	run_result_free(&r);
}

static const char *error_of(const char *json, const struct param_override *ov, int nov)
{
	static char err[512];
	struct program *p;
	err[0] = 0;
	int rc = workload_parse(json, strlen(json), "w.json", ov, nov, &p, err, sizeof err);
	cr_assert_neq(rc, 0, "accepted %s", json);
	return err;
}

Test(workload, an_unknown_operation_is_named_with_its_line_and_column)
{
	const char *json = "{\n  \"main\": [\n    {\"run\": 10},\n    {\"jump\": 1}\n  ]\n}\n";
	cr_assert_str_eq(error_of(json, NULL, 0),
			 "w.json:4:6: unknown operation \"jump\" (expected run, loop, go, syscall, send, recv, gosched, repeat, sleep, net, close, range, select, lock, unlock, add, done, wait, region, tick, read or write)");
}

Test(workload, bad_values_are_named_where_they_stand)
{
	cr_assert_str_eq(error_of("{\"procs\": 0, \"main\": []}", NULL, 0),
			 "w.json:1:11: \"procs\" must be an integer in 1..256");
	cr_assert(strstr(error_of("{\"main\": [{\"run\": \"-5ms\"}]}", NULL, 0), "w.json:1:19: expected a duration"));
	cr_assert(strstr(error_of("{\"main\": [{\"go\": \"nope\"}]}", NULL, 0), "w.json:1:18: \"go\" names a function"));
	cr_assert(strstr(error_of("{\"main\": [{\"send\": \"c\"}]}", NULL, 0), "names a channel defined in \"chans\""));
	cr_assert(strstr(error_of("{\"main\": [{\"run\": \"$x\"}]}", NULL, 0), "unknown parameter \"$x\""));
	cr_assert(strstr(error_of("{\"name\": \"x\"}", NULL, 0), "has no \"main\""));
	cr_assert(strstr(error_of("{\"main\": [], \"extra\": 1}", NULL, 0), "w.json:1:14: unknown key \"extra\""));
	cr_assert(strstr(error_of("{\"main\": [}", NULL, 0), "w.json:1:"));
	cr_assert_str_eq(error_of("{\"tick\": \"5us\", \"main\": []}", NULL, 0),
			 "w.json:1:10: \"tick\", what durations are rounded up to, is \"10us\" (the default) or \"1us\"");
	cr_assert(strstr(error_of("{\"tick\": \"1ns\", \"main\": []}", NULL, 0), "w.json:1:10: \"tick\","));
	cr_assert(strstr(error_of("{\"tick\": \"9.1us\", \"main\": []}", NULL, 0), "w.json:1:10: \"tick\","));
	cr_assert(strstr(error_of("{\"tick\": -10000000000000000, \"main\": []}", NULL, 0), "w.json:1:10: \"tick\","));
	cr_assert(strstr(error_of("{\"main\": [], \"tick\": true}", NULL, 0), "w.json:1:22: \"tick\","));
}

Test(workload, d_overrides_replace_params_and_bad_ones_name_the_flag)
{
	const char *json = "{\"params\": {\"n\": 2, \"w\": \"1ms\"}, \"main\": [{\"repeat\": \"$n\", \"body\": [{\"run\": \"$w\"}]}]}";
	struct param_override ov[] = { { "n", "5" }, { "w", "20us" } };
	struct program *p;
	char err[256];
	cr_assert_eq(workload_parse(json, strlen(json), "w.json", ov, 2, &p, err, sizeof err), 0, "%s", err);
	cr_assert_eq(program_total_work(p), 100);
	program_free(p);
	struct param_override bad[] = { { "n", "many" } };
	cr_assert(strstr(error_of(json, bad, 1), "(set by -D n=many)"));
	struct param_override none[] = { { "m", "1" } };
	cr_assert_str_eq(error_of(json, none, 1), "-D m: the workload has no parameter \"m\"");
}

Test(workload, total_work_follows_go_and_repeat)
{
	struct program *p = load_builtin("fanout", NULL);
	cr_assert_eq(program_total_work(p), 48 * 1000);
	program_free(p);
	p = load_text("{\"main\": [{\"go\": \"f\"}, {\"go\": \"f\"}], \"funcs\": {\"f\": [{\"repeat\": 3, \"body\": [{\"run\": 10}, {\"loop\": 20}]}]}}");
	cr_assert_eq(program_total_work(p), 2 * 3 * 30);
	program_free(p);
	struct program_totals t;
	p = load_text("{\"main\": [{\"repeat\": 4, \"body\": [{\"go\": \"f\"}]}], \"funcs\": {\"f\": [{\"go\": \"g\"}, {\"go\": \"g\"}], \"g\": []}}");
	cr_assert_eq(program_totals(p, &t), 0);
	cr_assert_eq(t.goroutines, 1 + 4 * 3);
	program_free(p);
}

Test(workload, a_go_cycle_is_rejected_where_it_closes)
{
	const char *json = "{\"main\": [{\"go\": \"f\"}],\n \"funcs\": {\"f\": [{\"run\": 10}, {\"go\": \"g\"}],\n  \"g\": [{\"repeat\": 2, \"body\": [{\"go\": \"f\"}]}]}}";
	cr_assert_str_eq(error_of(json, NULL, 0), "w.json:3:39: \"go\": \"f\" in g starts f again while it is being started: "
						  "the program would spawn goroutines without end");
	struct program *p = load_text("{\"main\": [{\"go\": \"f\"}], \"funcs\": {\"f\": [{\"repeat\": 0, \"body\": [{\"go\": \"f\"}]}]}}");
	program_free(p); /* a cycle that never runs is fine */
}

Test(workload, every_builtin_workload_has_a_description_and_its_seed_numbers)
{
	for (int i = 0; i < builtin_workloads_n; i++) {
		struct program *p = load_builtin(builtin_workloads[i].name, NULL);
		cr_assert_gt(strlen(p->description), 80, "%s", p->name);
		cr_assert_str_eq(p->name, builtin_workloads[i].name);
		program_free(p);
	}
	struct program *p = load_builtin("tightloop", NULL);
	cr_assert_eq(p->procs, 1);
	program_free(p);
}

Test(workload, procs_may_be_a_parameter_set_by_params_or_d)
{
	struct program *p = load_text("{\"params\": {\"p\": 3}, \"procs\": \"$p\", \"main\": []}");
	cr_assert_eq(p->procs, 3);
	program_free(p);
	const char *json = "{\"procs\": \"$p\", \"params\": {\"p\": 3}, \"main\": []}";
	struct param_override ov[] = { { "p", "6" } };
	char err[256];
	cr_assert_eq(workload_parse(json, strlen(json), "w.json", ov, 1, &p, err, sizeof err), 0, "%s", err);
	cr_assert_eq(p->procs, 6);
	program_free(p);
	struct param_override zero[] = { { "p", "0" } };
	cr_assert_str_eq(error_of(json, zero, 1), "w.json:1:11: \"procs\" must be an integer in 1..256 (set by -D p=0)");
	cr_assert(strstr(error_of("{\"procs\": \"$q\", \"main\": []}", NULL, 0), "unknown parameter \"$q\""));
}

Test(workload, a_utf8_byte_order_mark_is_named)
{
	cr_assert_str_eq(error_of("\xef\xbb\xbf{\"main\": []}", NULL, 0),
			 "w.json:1:1: the workload starts with a UTF-8 byte-order mark; remove it");
}
