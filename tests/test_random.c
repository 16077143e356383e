/* test_random.c: random durations ({"exp": MEAN}, {"uniform": [LO, HI]})
 * drawn from one stream per goroutine. */
#include <criterion/criterion.h>

#include "helpers.h"

static struct program *prog_of(const char *json) { return load_text(json); }

Test(random, exponential_draws_have_the_mean_asked_for)
{
	struct program *p = prog_of("{\"main\": [{\"run\": {\"exp\": \"1ms\"}}]}");
	cr_assert_eq(p->ndists, 1);
	int64_t v = p->funcs[p->main_fn].ops[0].val, sum = 0;
	const int n = 20000;
	for (int k = 0; k < n; k++)
		sum += workload_draw(p, v, 1, 1, (uint32_t)k);
	int64_t mean = sum / n;
	cr_assert(mean > 970 && mean < 1030, "mean %lld us, asked 1000", (long long)mean); /* 3 sigma ~ 21 */
	program_free(p);
}

Test(random, uniform_draws_stay_in_range_and_on_the_tick)
{
	struct program *p = prog_of("{\"main\": [{\"sleep\": {\"uniform\": [\"100us\", \"200us\"]}}]}");
	int64_t v = p->funcs[p->main_fn].ops[0].val, lo = INT64_MAX, hi = 0;
	for (int k = 0; k < 5000; k++) {
		int64_t d = workload_draw(p, v, 7, 3, (uint32_t)k);
		cr_assert(d % 10 == 0 && d >= 100 && d <= 200, "%lld", (long long)d);
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	cr_assert_eq(lo, 100);
	cr_assert_eq(hi, 200);
	program_free(p);
}

Test(random, a_goroutines_draws_depend_on_its_own_stream_only)
{
	/* G2 runs one random op in both; in b, G3 draws three more first. */
	const char *a = "{\"procs\": 1, \"main\": [{\"go\": \"f\"}, {\"go\": \"g\"}], \"funcs\": {\"f\": [{\"run\": {\"exp\": \"1ms\"}}],"
			" \"g\": [{\"run\": 10}]}}";
	const char *b = "{\"procs\": 1, \"main\": [{\"go\": \"f\"}, {\"go\": \"g\"}], \"funcs\": {\"f\": [{\"run\": {\"exp\": \"1ms\"}}],"
			" \"g\": [{\"sleep\": {\"exp\": \"1ms\"}}, {\"sleep\": {\"exp\": \"1ms\"}}, {\"run\": {\"exp\": \"1ms\"}}]}}";
	struct sim_config cfg = test_config(1);
	struct run_result ra, rb;
	run_text(a, &cfg, &ra);
	run_text(b, &cfg, &rb);
	long da = evlog_find(&ra.log, 0, EV_G, 2, PL_DEAD), sa = evlog_find(&ra.log, 0, EV_G, 2, PL_RUNNING);
	long db = evlog_find(&rb.log, 0, EV_G, 2, PL_DEAD), sb = evlog_find(&rb.log, 0, EV_G, 2, PL_RUNNING);
	cr_assert_eq(ra.log.ev[da].t - ra.log.ev[sa].t, rb.log.ev[db].t - rb.log.ev[sb].t,
		     "G2's draw is the same whatever G3 draws");
	run_result_free(&ra);
	run_result_free(&rb);
}

Test(random, a_goroutine_in_a_reused_slot_draws_from_the_start_of_its_own_stream)
{
	/* G2 draws twice and dies; G3 takes its slot and its side block (a
	 * repeat counter and the draw count: func.side) and draws its own
	 * first two, not G2's third and fourth. */
	const char *w = "{\"procs\": 1, \"main\": [{\"go\": \"f\"}, {\"sleep\": \"1ms\"}, {\"go\": \"f\"}, {\"sleep\": \"1ms\"}],"
			" \"funcs\": {\"f\": [{\"repeat\": 2, \"body\": [{\"run\": {\"uniform\": [\"10us\", \"400us\"]}}]}]}}";
	struct program *p = prog_of(w);
	const struct func *f = &p->funcs[p->main_fn == 0 ? 1 : 0];
	cr_assert_eq(f->side, 2, "one counter and the draw count");
	int64_t v = f->ops[1].val;
	struct sim_config cfg = test_config(1);
	struct run_result r;
	run_text(w, &cfg, &r);
	for (int32_t id = 2; id <= 3; id++) {
		long d = evlog_find(&r.log, 0, EV_G, id, PL_DEAD), st = evlog_find(&r.log, 0, EV_G, id, PL_RUNNING);
		cr_assert(d >= 0 && st >= 0);
		int64_t want = workload_draw(p, v, cfg.seed, id, 0) + workload_draw(p, v, cfg.seed, id, 1);
		cr_assert_eq(r.log.ev[d].t - r.log.ev[st].t, want, "G%d ran %lld us, its draws 0 and 1 say %lld", id,
			     (long long)(r.log.ev[d].t - r.log.ev[st].t), (long long)want);
	}
	cr_assert_eq(r.sum.goroutines, 3);
	run_result_free(&r);
	program_free(p);
}

Test(random, the_same_seed_draws_the_same_and_another_seed_does_not)
{
	struct program *p = prog_of("{\"main\": [{\"run\": {\"exp\": \"1ms\"}}]}");
	int64_t v = p->funcs[p->main_fn].ops[0].val;
	cr_assert_eq(workload_draw(p, v, 5, 2, 0), workload_draw(p, v, 5, 2, 0));
	int same = 0;
	for (int k = 0; k < 50; k++)
		same += workload_draw(p, v, 5, 2, (uint32_t)k) == workload_draw(p, v, 6, 2, (uint32_t)k);
	cr_assert_lt(same, 10);
	program_free(p);
}

/* Regions (runtime/trace.WithRegion) are here for want of a better home:
 * a begin and an end record around the body. */
Test(region, begin_and_end_records_bracket_the_body)
{
	struct sim_config cfg = test_config(1);
	cfg.check = 1;
	struct run_result r;
	run_text("{\"main\": [{\"region\": \"req\", \"body\": [{\"net\": \"1ms\"}, {\"region\": \"cpu\", \"body\": [{\"run\": 100}]}]},"
		 " {\"region\": \"req\"}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long ev[6];
	int n = 0;
	for (size_t i = 0; i < r.log.n && n < 6; i++)
		if (r.log.ev[i].ev == EV_REGION)
			ev[n++] = (long)i;
	cr_assert_eq(n, 6);
	const struct sim_event *e = r.log.ev;
	cr_assert(e[ev[0]].obj == 0 && e[ev[0]].n == 1 && e[ev[1]].obj == 1 && e[ev[1]].n == 1);
	cr_assert(e[ev[2]].obj == 1 && e[ev[2]].n == 0 && e[ev[3]].obj == 0 && e[ev[3]].n == 0);
	cr_assert_eq(e[ev[3]].t - e[ev[0]].t, 1100, "the request's latency: its wait and its CPU");
	cr_assert_eq(e[ev[4]].obj, 0, "a name used again keeps its index");
	run_result_free(&r);
}
