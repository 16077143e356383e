/* test_mem.c: the big-array helper (sim/mem.h) and what the interpreter's
 * progress polling promises: a long loop of ops that emit nothing still
 * reaches the sink's progress callback, which can stop the run. */
#include <criterion/criterion.h>

#include "helpers.h"
#include "../sim/mem.h"

Test(mem, an_array_keeps_its_contents_as_it_grows_into_its_own_mapping)
{
	size_t n = 256; /* int32s: 1 KB, doubled up to 32 MB (past the mapping threshold) */
	int32_t *a = sim_big_grow(NULL, 0, n * sizeof *a);
	cr_assert_not_null(a);
	for (size_t i = 0; i < n; i++)
		a[i] = (int32_t)i;
	while (n < ((size_t)8 << 20)) {
		int32_t *b = sim_big_grow(a, n * sizeof *a, 2 * n * sizeof *a);
		cr_assert_not_null(b);
		a = b;
		for (size_t i = 0; i < n; i++)
			cr_assert_eq(a[i], (int32_t)i, "element %zu lost growing to %zu", i, 2 * n);
		for (size_t i = n; i < 2 * n; i++)
			a[i] = (int32_t)i;
		n *= 2;
	}
	sim_big_free(a, n * sizeof *a);
}

struct polls {
	int calls;
	int stop_at;
};

static int count_progress(void *ctx, const struct sim *s)
{
	(void)s;
	struct polls *p = ctx;
	return ++p->calls >= p->stop_at;
}

Test(mem, a_long_loop_that_emits_nothing_reaches_progress_and_can_be_stopped)
{
	/* 3M rounds of a buffered send and receive: no event, no time. */
	struct program *p = load_text("{\"chans\": {\"b\": 1}, \"main\": [{\"repeat\": 3000000, "
				      "\"body\": [{\"send\": \"b\"}, {\"recv\": \"b\"}]}]}");
	struct sim_config cfg = test_config(1);
	struct polls polls = { .stop_at = 2 };
	struct sim_sink sink = { .ctx = &polls, .progress = count_progress };
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, &sink, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(sim_run(s), SIM_ABORTED);
	cr_assert_eq(polls.calls, 2);
	cr_assert_lt(sim_now(s), 1, "the loop took no simulated time");
	sim_free(s);
	program_free(p);
}

Test(mem, nested_repeat_counters_of_dead_goroutines_are_reused)
{
	/* 5000 goroutines one after another, each with two nested repeats
	 * (a block of two counters): the pool holds a few blocks, not 5000. */
	struct program *p = load_text("{\"main\": [{\"repeat\": 5000, \"body\": [{\"go\": \"w\"}, {\"run\": \"100us\"}]}], "
				      "\"funcs\": {\"w\": [{\"repeat\": 2, \"body\": [{\"repeat\": 3, \"body\": [{\"run\": \"10us\"}]}]}]}}");
	struct sim_config cfg = test_config(2);
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(sim_run(s), SIM_DONE, "%s", sim_message(s));
	struct sim_summary sum;
	sim_summary(s, &sum);
	cr_assert_eq(sum.goroutines, 5001);
	cr_assert_eq(sum.work_us, 5000 * 100 + 5000 * 2 * 3 * 10, "every inner run ran: the counters worked (work %lld)", (long long)sum.work_us);
	cr_assert_leq(s->iterlen, 2 * 8, "the pool grew to %lld counters", (long long)s->iterlen);
	sim_free(s);
	program_free(p);
}
