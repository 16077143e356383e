/* program.c: walks over a compiled program: the go graph in post-order
 * (program_go_order), what the program asks for in all (program_totals),
 * and freeing it. See workload.h.
 *
 * Nothing here recurses: the input controls how many functions start one
 * another (a chain f0 -> f1 -> ... may be as long as the workload), so the
 * walks keep their own stacks on the heap. */
#include <stdlib.h>

#include "workload.h"

#include "policy.h"

void program_free(struct program *p)
{
	if (!p)
		return;
	for (int32_t i = 0; i < p->nfuncs; i++) {
		free(p->funcs[i].name);
		free(p->funcs[i].ops);
		free(p->funcs[i].inst_where);
	}
	for (int32_t i = 0; i < p->nchans; i++)
		free(p->chan_names[i]);
	free(p->funcs);
	free(p->chan_names);
	for (int32_t i = 0; i < p->nmutexes; i++)
		free(p->mutex_names[i]);
	free(p->mutex_names);
	for (int32_t i = 0; i < p->nwgs; i++)
		free(p->wg_names[i]);
	free(p->wg_names);
	for (int32_t i = 0; i < p->nsocket_names; i++)
		free(p->socket_names[i]);
	free(p->socket_names);
	free(p->socket_first);
	free(p->socket_count);
	free(p->socket_array);
	free(p->dists);
	for (int32_t i = 0; i < p->nregions; i++)
		free(p->region_names[i]);
	free(p->region_names);
	free(p->chan_cap);
	free(p->name);
	free(p->description);
	free(p);
}

struct frame {
	int32_t fi; /* function being walked */
	int32_t pc; /* next op to look at */
};

/* The next function f starts from op *pc on (skipping the bodies of repeats
 * of count 0, which never run), or -1 at its end. */
static int32_t next_go(const struct func *f, int32_t *pc)
{
	while (*pc < f->nops) {
		const struct op *op = &f->ops[(*pc)++];
		if (op->kind == OP_REPEAT && op->val == 0)
			*pc = op->arg + 1;
		else if (op->kind == OP_GO)
			return op->arg;
	}
	return -1;
}

int program_go_order(const struct program *p, int32_t *order, int32_t *norder, int32_t *from, int32_t *to)
{
	uint8_t *state = calloc((size_t)p->nfuncs, 1); /* 1: on the stack, 2: done */
	struct frame *stack = malloc((size_t)p->nfuncs * sizeof *stack);
	int rc = state && stack ? 0 : -1;
	int32_t depth = 0;
	*norder = 0;
	if (rc == 0) {
		stack[depth++] = (struct frame){ p->main_fn, 0 };
		state[p->main_fn] = 1;
	}
	while (rc == 0 && depth > 0) {
		struct frame *fr = &stack[depth - 1];
		int32_t g = next_go(&p->funcs[fr->fi], &fr->pc);
		if (g < 0) {
			state[fr->fi] = 2;
			order[(*norder)++] = fr->fi;
			depth--;
		} else if (state[g] == 1) {
			*from = fr->fi;
			*to = g;
			rc = 1;
		} else if (state[g] == 0) {
			state[g] = 1;
			stack[depth++] = (struct frame){ g, 0 };
		}
	}
	free(state);
	free(stack);
	return rc;
}

static int64_t sat_add(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }
static int64_t sat_mul(int64_t a, int64_t b)
{
	int64_t r;
	return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

static void add_into(struct program_totals *t, const struct program_totals *b, int64_t times)
{
	t->work_us = sat_add(t->work_us, sat_mul(times, b->work_us));
	t->syscall_us = sat_add(t->syscall_us, sat_mul(times, b->syscall_us));
	t->steps = sat_add(t->steps, sat_mul(times, b->steps));
	t->goroutines = sat_add(t->goroutines, sat_mul(times, b->goroutines));
	t->inexact |= b->inexact;
}

/* The totals of one function, given those of every function it starts
 * (memo). acc[d] accumulates the body of the repeat open at depth d - 1
 * (acc[0]: the function's top level), so repeats need no recursion. */
static struct program_totals func_totals(const struct program *p, const struct func *f,
					 const struct program_totals *memo, struct program_totals *acc)
{
	int32_t d = 0;
	acc[0] = (struct program_totals){ 0, 0, 0, 0, 0 };
	for (int32_t i = 0; i < f->nops; i++) {
		const struct op *op = &f->ops[i];
		if (op->kind == OP_END) { /* not a step of its own; the body runs val times */
			d--;
			add_into(&acc[d], &acc[d + 1], f->ops[op->arg].val);
			continue;
		}
		struct program_totals *t = &acc[d];
		t->steps = sat_add(t->steps, 1);
		if ((op->kind == OP_RUN || op->kind == OP_LOOP || op->kind == OP_SYSCALL) && op->val < 0) {
			t->inexact = 1; /* a random duration: at least its lower end */
			const struct dist *dd = &p->dists[-op->val - 1];
			int64_t lo = dd->kind == DIST_UNIFORM ? dd->a : 0;
			if (op->kind == OP_SYSCALL)
				t->syscall_us = sat_add(t->syscall_us, lo);
			else
				t->work_us = sat_add(t->work_us, lo);
		} else if (op->kind == OP_RUN || op->kind == OP_LOOP) {
			t->work_us = sat_add(t->work_us, op->val);
		} else if (op->kind == OP_SYSCALL) {
			t->syscall_us = sat_add(t->syscall_us, op->val);
		} else if (op->kind == OP_GO) {
			add_into(t, &memo[op->arg], 1);
			t->goroutines = sat_add(t->goroutines, 1);
		} else if (op->kind == OP_REPEAT && op->val == 0) {
			i = op->arg; /* never runs */
		} else if (op->kind == OP_REPEAT && op->val < 0) {
			i = op->arg; /* forever, until main returns: counted 0 times */
			t->inexact = 1;
		} else if (op->kind == OP_SELECT) {
			i = (int32_t)op->val - 1; /* one case runs: counted none */
			t->inexact = 1;
		} else if (op->kind == OP_RANGE) {
			i = (int32_t)op->val; /* as often as values come: counted 0 times */
			t->inexact = 1;
		} else if (op->kind == OP_REPEAT) {
			acc[++d] = (struct program_totals){ 0, 0, 0, 0, 0 };
		}
	}
	return acc[0];
}

int program_totals(const struct program *p, struct program_totals *out)
{
	struct program_totals *memo = calloc((size_t)p->nfuncs, sizeof *memo);
	struct program_totals acc[WORKLOAD_MAX_DEPTH + 1];
	int32_t *order = malloc((size_t)p->nfuncs * sizeof *order);
	int32_t n = 0, from, to;
	int rc = memo && order ? program_go_order(p, order, &n, &from, &to) : -1;
	if (rc == 1) { /* a cycle; the compiler rejects reachable ones */
		*out = (struct program_totals){ INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, 1 };
		rc = 0;
	} else if (rc == 0) {
		for (int32_t k = 0; k < n; k++)
			memo[order[k]] = func_totals(p, &p->funcs[order[k]], memo, acc);
		*out = memo[p->main_fn];
		out->goroutines = sat_add(out->goroutines, 1); /* main */
	}
	free(memo);
	free(order);
	return rc;
}

int64_t program_total_work(const struct program *p)
{
	struct program_totals t;
	return program_totals(p, &t) == 0 ? t.work_us : -1;
}

/* -ln(u / 2^64) in 32.32 fixed point (u > 0), integers only: log2 by
 * repeated squaring, times ln 2. */
static uint64_t neg_ln(uint64_t u)
{
	int lz = __builtin_clzll(u);
	uint64_t y = (u << lz) >> 32, frac = 0; /* the mantissa in [2^31, 2^32) */
	for (int i = 0; i < 32; i++) {
		y = (y * y) >> 31;
		frac <<= 1;
		if (y >= (1ULL << 32)) {
			y >>= 1;
			frac |= 1;
		}
	}
	uint64_t nlog2 = ((uint64_t)(1 + lz) << 32) - frac; /* -log2(u / 2^64) */
	return (uint64_t)(((unsigned __int128)nlog2 * 2977044472ULL) >> 32); /* ln 2 = 2977044472 / 2^32 */
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int64_t workload_draw(const struct program *p, int64_t v, uint64_t seed, int32_t goid, uint32_t k)
{
	if (v >= 0)
		return v;
	const struct dist *d = &p->dists[-v - 1];
	uint64_t r = mix64(mix64(seed ^ 0x6a09e667f3bcc909ULL) ^ ((uint64_t)(uint32_t)goid << 32 | k));
	int64_t us;
	if (d->kind == DIST_UNIFORM) {
		us = d->a + (int64_t)(((unsigned __int128)r * (uint64_t)(d->b - d->a + 1)) >> 64);
	} else {
		unsigned __int128 x = ((unsigned __int128)(uint64_t)d->a * neg_ln(r | 1)) >> 32;
		us = x > (unsigned __int128)WORKLOAD_MAX_US ? WORKLOAD_MAX_US : (int64_t)x;
	}
	us = (us + p->tick_us - 1) / p->tick_us * p->tick_us; /* the workload's tick */
	return us > WORKLOAD_MAX_US ? WORKLOAD_MAX_US : us;
}
