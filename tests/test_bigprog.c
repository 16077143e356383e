/* test_bigprog.c: generated workloads far larger than any hand-written one:
 * a chain of 120,000 functions each starting the next (the walks over the
 * go graph must not recurse per function), 100,000 functions and 100,000
 * channels looked up by name (the compiler must find the right one, in
 * linear time: measured by hand, never here), nesting at the limits. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

struct text {
	char *s;
	size_t n, cap;
};

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
		va_end(ap);
		cr_assert_geq(k, 0);
		if (t->s && t->n + (size_t)k < t->cap) {
			t->n += (size_t)k;
			return;
		}
		t->cap = t->cap ? t->cap * 2 : 1 << 16;
		t->s = realloc(t->s, t->cap);
		cr_assert_not_null(t->s);
	}
}

/* main starts f0, fi starts fi+1, the last runs 10us (or, with cycle,
 * starts f0 again). */
static struct text chain(int n, int cycle)
{
	struct text t = { 0 };
	put(&t, "{\"main\": [{\"go\": \"f0\"}],\n \"funcs\": {\n");
	for (int i = 0; i < n - 1; i++)
		put(&t, "  \"f%d\": [{\"go\": \"f%d\"}],\n", i, i + 1);
	put(&t, cycle ? "  \"f%d\": [{\"go\": \"f0\"}]}}\n" : "  \"f%d\": [{\"run\": 10}]}}\n", n - 1);
	return t;
}

static int parse(const struct text *t, struct program **p, char *err, size_t errlen)
{
	return workload_parse(t->s, t->n, "big.json", NULL, 0, p, err, errlen);
}

Test(bigprog, a_chain_of_120000_functions_compiles_totals_and_runs_to_the_end)
{
	struct text t = chain(120000, 0);
	struct program *p;
	char err[512];
	cr_assert_eq(parse(&t, &p, err, sizeof err), 0, "%s", err);
	free(t.s);
	struct program_totals tot;
	cr_assert_eq(program_totals(p, &tot), 0);
	cr_assert_eq(tot.goroutines, 120001);
	cr_assert_eq(tot.steps, 120001);
	cr_assert_eq(tot.work_us, 10);
	struct sim_config cfg = test_config(2);
	cfg.check = 0; /* the checker walks every G each step */
	struct sim_error serr;
	struct sim *s = sim_new(&cfg, p, NULL, &serr);
	cr_assert_not_null(s, "%s", serr.msg);
	cr_assert_eq(sim_run(s), SIM_DONE, "%s", sim_message(s));
	struct sim_summary sum;
	sim_summary(s, &sum);
	cr_assert_eq(sum.goroutines, 120001);
	sim_free(s);
	program_free(p);
}

Test(bigprog, a_cycle_closing_a_chain_of_120000_functions_is_named_where_it_closes)
{
	struct text t = chain(120000, 1);
	struct program *p;
	char err[512];
	cr_assert_neq(parse(&t, &p, err, sizeof err), 0);
	free(t.s);
	cr_assert_str_eq(err, "big.json:120002:22: \"go\": \"f0\" in f119999 starts f0 again while it is being started: "
			      "the program would spawn goroutines without end");
}

/* main starts every fi, declared in reverse order so that no index equals
 * its number; fi sends on ci, declared in reverse too. */
Test(bigprog, a_hundred_thousand_functions_and_channels_are_each_found_by_name)
{
	enum { N = 100000 };
	struct text t = { 0 };
	put(&t, "{\"chans\": {");
	for (int i = N - 1; i >= 0; i--)
		put(&t, "\"c%d\": 1%s", i, i ? ", " : "},\n");
	put(&t, "\"main\": [");
	for (int i = 0; i < N; i++)
		put(&t, "{\"go\": \"f%d\"}%s", i, i < N - 1 ? ", " : "],\n");
	put(&t, "\"funcs\": {");
	for (int i = N - 1; i >= 0; i--)
		put(&t, "\"f%d\": [{\"send\": \"c%d\"}, {\"recv\": \"c%d\"}]%s", i, i, i, i ? ",\n" : "}}\n");
	struct program *p;
	char err[512];
	cr_assert_eq(parse(&t, &p, err, sizeof err), 0, "%s", err);
	free(t.s);
	cr_assert_eq(p->nfuncs, N + 1);
	cr_assert_eq(p->nchans, N);
	const struct func *m = &p->funcs[p->main_fn];
	cr_assert_eq(m->nops, N);
	char want[32];
	for (int i = 0; i < N; i++) {
		const struct func *f = &p->funcs[m->ops[i].arg];
		snprintf(want, sizeof want, "f%d", i);
		cr_assert_str_eq(f->name, want);
		cr_assert_eq(f->nops, 2);
		snprintf(want, sizeof want, "c%d", i);
		cr_assert_str_eq(p->chan_names[f->ops[0].arg], want);
		cr_assert_eq(f->ops[0].kind, OP_SEND);
		cr_assert_eq(f->ops[1].arg, f->ops[0].arg);
	}
	struct sim_config cfg = test_config(4);
	cfg.check = 0;
	struct run_result r;
	run_program(p, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(r.sum.goroutines, N + 1);
	run_result_free(&r);
	program_free(p);
}

Test(bigprog, a_missing_name_among_a_hundred_thousand_is_refused)
{
	enum { N = 100000 };
	struct text t = { 0 };
	put(&t, "{\"chans\": {");
	for (int i = 0; i < N; i++)
		put(&t, "\"c%d\": 0, ", i);
	put(&t, "\"cx\": 0},\n\"funcs\": {");
	for (int i = 0; i < N; i++)
		put(&t, "\"f%d\": [], ", i);
	put(&t, "\"fx\": []},\n\"main\": [{\"go\": \"f%d\"}, {\"recv\": \"c%d\"}]}\n", N - 1, N);
	struct program *p;
	char err[512];
	cr_assert_neq(parse(&t, &p, err, sizeof err), 0);
	free(t.s);
	cr_assert_str_eq(err, "big.json:3:37: \"recv\" names a channel defined in \"chans\"; there is no \"c100000\"");
}

/* repeat 2 { repeat 2 { ... { run 10 } } }, depth levels. */
static struct text nest(int depth)
{
	struct text t = { 0 };
	put(&t, "{\"main\": ");
	for (int i = 0; i < depth; i++)
		put(&t, "[{\"repeat\": 2, \"body\": ");
	put(&t, "[{\"run\": 10}]");
	for (int i = 0; i < depth; i++)
		put(&t, "}]");
	put(&t, "}\n");
	return t;
}

Test(bigprog, repeats_nested_to_the_limit_total_exactly_and_one_more_is_refused)
{
	struct text t = nest(WORKLOAD_MAX_DEPTH);
	struct program *p;
	char err[512];
	cr_assert_eq(parse(&t, &p, err, sizeof err), 0, "%s", err);
	free(t.s);
	struct program_totals tot;
	cr_assert_eq(program_totals(p, &tot), 0);
	int64_t steps = 1; /* the run */
	for (int i = 0; i < WORKLOAD_MAX_DEPTH; i++)
		steps = 1 + 2 * steps; /* a REPEAT op, then its body twice */
	cr_assert_eq(tot.steps, steps);
	cr_assert_eq(tot.work_us, 10LL << WORKLOAD_MAX_DEPTH);
	program_free(p);
	t = nest(WORKLOAD_MAX_DEPTH + 1);
	cr_assert_neq(parse(&t, &p, err, sizeof err), 0);
	free(t.s);
	cr_assert(strstr(err, "repeats nest deeper than 32"), "%s", err);
}

/* An error after a value nested 2,000 deep: finding its place skips the
 * deep value without recursing. */
Test(bigprog, an_error_after_a_deeply_nested_value_is_placed_right)
{
	enum { D = 2000 };
	struct text t = { 0 };
	put(&t, "{\"funcs\": {\"a\": ");
	for (int i = 0; i < D; i++)
		put(&t, "[");
	for (int i = 0; i < D; i++)
		put(&t, "]");
	put(&t, "},\n \"main\": [{\"jump\": 1}]}\n");
	struct program *p;
	char err[512];
	cr_assert_neq(parse(&t, &p, err, sizeof err), 0);
	free(t.s);
	cr_assert_str_eq(err, "big.json:2:12: unknown operation \"jump\" (expected run, loop, go, syscall, send, recv, gosched, repeat, sleep, net, close, range, select, lock, unlock, add, done, wait, region, tick, read or write)");
}

/* Range bodies do not count as repeat depth; the compiler's path limit
 * stops their nesting before its recursion gets deep. */
Test(bigprog, ranges_nested_1000_deep_are_refused_at_the_path_limit)
{
	enum { D = 1000 };
	struct text t = { 0 };
	put(&t, "{\"chans\": {\"c\": 1}, \"main\": ");
	for (int i = 0; i < D; i++)
		put(&t, "[{\"range\": \"c\", \"body\": ");
	put(&t, "[]");
	for (int i = 0; i < D; i++)
		put(&t, "}]");
	put(&t, "}\n");
	struct program *p;
	char err[512];
	cr_assert_neq(parse(&t, &p, err, sizeof err), 0);
	free(t.s);
	cr_assert(strstr(err, ": nesting too deep"), "%s", err);
}
