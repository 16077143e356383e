/* program.c: what a compiled program asks for in all (program_totals),
 * and freeing it. See workload.h. */
#include <stdlib.h>

#include "workload.h"

void program_free(struct program *p)
{
	if (!p)
		return;
	for (int32_t i = 0; i < p->nfuncs; i++) {
		free(p->funcs[i].name);
		free(p->funcs[i].ops);
	}
	for (int32_t i = 0; i < p->nchans; i++)
		free(p->chan_names[i]);
	free(p->funcs);
	free(p->chan_names);
	free(p->chan_cap);
	free(p->name);
	free(p->description);
	free(p);
}

static int64_t sat_add(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }
static int64_t sat_mul(int64_t a, int64_t b)
{
	int64_t r;
	return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

/* Totals of ops [i, end) of function fi; memo caches whole functions
 * (done: 1 computed, 2 being computed). The compiler rejected reachable go
 * cycles and repeats of 0 are skipped, so the recursion ends. */
static struct program_totals totals_of(const struct program *p, int32_t fi, int32_t i, int32_t end,
				       struct program_totals *memo, uint8_t *done)
{
	const struct func *f = &p->funcs[fi];
	struct program_totals t = { 0, 0, 0, 0 };
	for (; i < end; i++) {
		const struct op *op = &f->ops[i];
		t.steps = sat_add(t.steps, 1);
		if (op->kind == OP_RUN || op->kind == OP_LOOP) {
			t.work_us = sat_add(t.work_us, op->val);
		} else if (op->kind == OP_SYSCALL) {
			t.syscall_us = sat_add(t.syscall_us, op->val);
		} else if (op->kind == OP_GO) {
			int32_t g = op->arg;
			if (done[g] == 2) /* a cycle; the compiler rejects reachable ones */
				return (struct program_totals){ INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX };
			if (!done[g]) {
				done[g] = 2;
				memo[g] = totals_of(p, g, 0, p->funcs[g].nops, memo, done);
				done[g] = 1;
			}
			t.work_us = sat_add(t.work_us, memo[g].work_us);
			t.syscall_us = sat_add(t.syscall_us, memo[g].syscall_us);
			t.steps = sat_add(t.steps, memo[g].steps);
			t.goroutines = sat_add(t.goroutines, sat_add(memo[g].goroutines, 1));
		} else if (op->kind == OP_REPEAT && op->val == 0) {
			i = op->arg; /* never runs */
		} else if (op->kind == OP_REPEAT) {
			struct program_totals b = totals_of(p, fi, i + 1, op->arg, memo, done);
			t.work_us = sat_add(t.work_us, sat_mul(op->val, b.work_us));
			t.syscall_us = sat_add(t.syscall_us, sat_mul(op->val, b.syscall_us));
			t.steps = sat_add(t.steps, sat_mul(op->val, b.steps));
			t.goroutines = sat_add(t.goroutines, sat_mul(op->val, b.goroutines));
			i = op->arg;
		}
	}
	return t;
}

int program_totals(const struct program *p, struct program_totals *out)
{
	struct program_totals *memo = calloc((size_t)p->nfuncs, sizeof *memo);
	uint8_t *done = calloc((size_t)p->nfuncs, 1);
	int rc = memo && done ? 0 : -1;
	if (rc == 0) {
		*out = totals_of(p, p->main_fn, 0, p->funcs[p->main_fn].nops, memo, done);
		out->goroutines = sat_add(out->goroutines, 1); /* main */
	}
	free(memo);
	free(done);
	return rc;
}

int64_t program_total_work(const struct program *p)
{
	struct program_totals t;
	return program_totals(p, &t) == 0 ? t.work_us : -1;
}
