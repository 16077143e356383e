/* import_fold.c: repeat folding and merging by shape (import_fold.h). */
#include "import_fold.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TICK_US IMPORT_TICK_US

/* A one-tick run moved off the ops of a loop (tidy_runs with move) waits on
 * the op before it under this key, out of its shape, until fold_block
 * spreads it over the loop it is in or fold_level puts it back. */
#define CARRY_KEY "_carry"

/* A run slot's rounding loss over a loop this long or longer, when no one
 * pass's stint holds half of it, is spread over the passes (spread_carry)
 * rather than left as one run after the loop. */
#define SPREAD_LOST_US 300

static const char *const dur_keys[] = { "after", "loop", "net", "run", "sleep", "syscall" };

static int is_dur_key(const char *k)
{
	for (size_t i = 0; i < sizeof dur_keys / sizeof *dur_keys; i++)
		if (strcmp(k, dur_keys[i]) == 0)
			return 1;
	return 0;
}

/* A duration: obj[key], counted mult times per pass over its array (the
 * repeat counts around it). */
struct slot {
	json_t *obj;
	const char *key;
	long long mult;
};

struct slots {
	struct slot *s;
	size_t n, cap;
};

/* The walk's stack: a value to visit, or a slot to emit. */
struct item {
	json_t *v, *obj;
	const char *key;
	long long mult;
};

struct stack {
	struct item *it;
	size_t n, cap;
};

static int push(struct stack *st, struct item it)
{
	if (st->n == st->cap) {
		size_t c = st->cap ? st->cap * 2 : 64;
		struct item *a = realloc(st->it, c * sizeof *a);
		if (!a)
			return -1;
		st->it = a;
		st->cap = c;
	}
	st->it[st->n++] = it;
	return 0;
}

static int add_slot(struct slots *ss, struct slot s)
{
	if (ss->n == ss->cap) {
		size_t c = ss->cap ? ss->cap * 2 : 16;
		struct slot *a = realloc(ss->s, c * sizeof *a);
		if (!a)
			return -1;
		ss->s = a;
		ss->cap = c;
	}
	ss->s[ss->n++] = s;
	return 0;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* An object's members pushed so that they pop in sorted key order. */
static int push_object(struct stack *st, json_t *o, long long mult)
{
	size_t n = json_object_size(o), i = 0;
	const char **keys = malloc((n ? n : 1) * sizeof *keys), *k;
	json_t *v, *rep = json_object_get(o, "repeat");
	if (!keys)
		return -1;
	json_object_foreach(o, k, v)
		keys[i++] = k;
	qsort(keys, n, sizeof *keys, by_key);
	long long inner = mult * (json_is_integer(rep) ? json_integer_value(rep) : 1);
	int rc = 0;
	for (i = n; i-- > 0 && rc == 0;) {
		v = json_object_get(o, keys[i]);
		if (is_dur_key(keys[i]) && json_is_integer(v))
			rc = push(st, (struct item){ .obj = o, .key = keys[i], .mult = mult });
		else
			rc = push(st, (struct item){ .v = v, .mult = strcmp(keys[i], "body") == 0 ? inner : mult });
	}
	free(keys);
	return rc;
}

/* The slots of a's elements from .. to-1, in walk order, appended to ss. */
static int collect(json_t *a, size_t from, size_t to, struct slots *ss)
{
	struct stack st = { 0 };
	int rc = 0;
	for (size_t i = to; i-- > from && rc == 0;)
		rc = push(&st, (struct item){ .v = json_array_get(a, i), .mult = 1 });
	while (st.n && rc == 0) {
		struct item it = st.it[--st.n];
		if (it.obj) {
			const char *key = it.key;
			for (size_t k = 0; k < sizeof dur_keys / sizeof *dur_keys; k++)
				if (strcmp(key, dur_keys[k]) == 0)
					key = dur_keys[k]; /* static: outlives the object's key */
			rc = add_slot(ss, (struct slot){ it.obj, key, it.mult });
		} else if (json_is_array(it.v)) {
			for (size_t i = json_array_size(it.v); i-- > 0 && rc == 0;)
				rc = push(&st, (struct item){ .v = json_array_get(it.v, i), .mult = it.mult });
		} else if (json_is_object(it.v)) {
			rc = push_object(&st, it.v, it.mult);
		}
	}
	free(st.it);
	return rc;
}

/* The shape of a's elements from .. to-1: a copy with the slots null. */
static char *shape_of(json_t *a, size_t from, size_t to)
{
	json_t *c = json_array();
	for (size_t i = from; c && i < to; i++) {
		json_t *op = json_deep_copy(json_array_get(a, i));
		if (json_is_object(op))
			json_object_del(op, CARRY_KEY);
		if (json_array_append_new(c, op)) {
			json_decref(c);
			c = NULL;
		}
	}
	struct slots ss = { 0 };
	char *s = NULL;
	if (c && collect(c, 0, json_array_size(c), &ss) == 0) {
		int bad = 0;
		for (size_t i = 0; i < ss.n; i++)
			bad |= json_object_set_new(ss.s[i].obj, ss.s[i].key, json_null());
		s = bad ? NULL : json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	}
	free(ss.s);
	json_decref(c);
	return s;
}

char *ops_shape(json_t *ops)
{
	return shape_of(ops, 0, json_array_size(ops));
}

static json_int_t nearest_tick(long long sum, long long n)
{
	long long t = (sum * 2 + n * TICK_US) / (n * TICK_US * 2);
	return (json_int_t)(t < 1 ? 1 : t) * TICK_US;
}

static json_int_t floor_tick(long long sum, long long n)
{
	long long t = sum / (n * TICK_US);
	return (json_int_t)(t < 1 ? 1 : t) * TICK_US;
}

static int by_int(const void *a, const void *b)
{
	json_int_t x = *(const json_int_t *)a, y = *(const json_int_t *)b;
	return (x > y) - (x < y);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

struct elems {
	char **sh;
	uint64_t *h;
};

static int same(const struct elems *e, size_t p, size_t q, size_t len)
{
	for (size_t t = 0; t < len; t++)
		if (e->h[p + t] != e->h[q + t] || strcmp(e->sh[p + t], e->sh[q + t]) != 0)
			return 0;
	return 1;
}

/* The carried ticks (CARRY_KEY) on the c blocks of len ops at a[i..],
 * taken off them, in us. */
static long long take_carry(json_t *a, size_t i, size_t len, size_t c)
{
	long long t = 0;
	for (size_t j = i; j < i + c * len; j++) {
		json_t *op = json_array_get(a, j), *v = json_object_get(op, CARRY_KEY);
		if (json_is_integer(v)) {
			t += json_integer_value(v);
			json_object_del(op, CARRY_KEY);
		}
	}
	return t;
}

static json_t *run_op(long long us)
{
	json_t *o = json_object();
	if (o && json_object_set_new(o, "run", json_integer((json_int_t)us))) {
		json_decref(o);
		o = NULL;
	}
	return o;
}

static json_t *repeat_op(long long c, json_t *body)
{
	json_t *o = json_object();
	if (o && (json_object_set_new(o, "repeat", json_integer((json_int_t)c)) || json_object_set(o, "body", body))) {
		json_decref(o);
		o = NULL;
	}
	return o;
}

/* c passes over body, with k ticks (k >= 2) carried off its ops spread over
 * them, appended to out: every pass's share of whole ticks a run at the
 * body's end, the rest a run of one tick after each q = c / k' passes, in
 * {"repeat": k', "body": [{"repeat": q, "body": body}, {"run": 1}]}, and
 * the c - k' q passes left over (a copy of body, *extra) after it. So a
 * ping-pong whose stints are each under half a tick (a few hundred ns:
 * every other one rounded up to a tick of 1 us, the rounding carried on)
 * runs a tick every few exchanges, as it did, not
 * all of them in one lump after the loop, which would hold its partner
 * runnable for that long. Simplification: the tick runs at the body's end,
 * not at the op it followed. */
static int spread_carry(json_t *out, json_t *body, long long c, long long k, json_t **extra)
{
	int rc = 0;
	*extra = NULL;
	if (k / c)
		rc = json_array_append_new(body, run_op(k / c * TICK_US));
	k %= c;
	if (k <= 1 || rc) /* one tick: after the loop, as the rounding's loss */
		return rc || json_array_append_new(out, repeat_op(c, body)) || (k && json_array_append_new(out, run_op(TICK_US)));
	long long q = c / k, r = c % k;
	if (r) {
		*extra = json_deep_copy(body);
		rc = !*extra;
	}
	json_t *unit = body;
	if (rc == 0 && q == 1)
		rc = json_array_append_new(body, run_op(TICK_US));
	else if (rc == 0) {
		unit = json_array();
		rc = !unit || json_array_append_new(unit, repeat_op(q, body)) || json_array_append_new(unit, run_op(TICK_US));
	}
	if (rc == 0)
		rc = json_array_append_new(out, repeat_op(k, unit));
	if (unit != body)
		json_decref(unit);
	if (rc == 0 && r > 1)
		rc = json_array_append_new(out, repeat_op(r, *extra));
	for (size_t i = 0; rc == 0 && r == 1 && i < json_array_size(*extra); i++)
		rc = json_array_append(out, json_array_get(*extra, i)); /* one pass left: its ops, in out only */
	if (r == 1) {
		json_decref(*extra); /* out holds its ops; their own bodies stay as the fold left them */
		*extra = NULL;
	}
	return rc;
}

/* Whether running v in each of a run slot's c passes (its sorted values
 * vals, sum in all, mult times a pass) loses SPREAD_LOST_US or more that
 * no one pass's stint holds half of: a loss to spread thin, not a lump.
 * Then the slot keeps the mean, not a lower median: the median's loss is
 * not one outlier's; what flooring the mean loses is spread. */
static int thin_loss(const json_int_t *vals, size_t c, json_int_t v, long long sum, long long mult)
{
	long long lost = (sum - (long long)c * v) * mult;
	return lost >= SPREAD_LOST_US && (vals[c - 1] - v) * 2 * mult < lost;
}

/* The c blocks of L ops at a[i..] averaged into the first, as a repeat
 * appended to out (then the CPU time the rounding down lost, as a run and
 * a loop). The ticks carried off the blocks' ops (tidy_runs) are spread
 * over the passes when there are two or more (spread_carry, *extra the
 * copy of the body it may make), else join that run. */
static int fold_block(json_t *a, size_t i, size_t len, size_t c, json_t *out, json_t **body_out, json_t **extra)
{
	struct slots *ss = calloc(c, sizeof *ss);
	json_t *body = json_array(), *rep = json_object();
	int rc = ss && body && rep ? 0 : -1;
	for (size_t b = 0; b < c && rc == 0; b++)
		rc = collect(a, i + b * len, i + (b + 1) * len, &ss[b]);
	long long lost_run = 0, lost_loop = 0, carried = take_carry(a, i, len, c);
	*extra = NULL;
	json_int_t *vals = rc == 0 ? malloc(c * sizeof *vals) : NULL;
	if (!vals)
		rc = -1;
	for (size_t j = 0; rc == 0 && j < ss[0].n; j++) {
		long long sum = 0;
		for (size_t b = 0; b < c; b++)
			sum += vals[b] = json_integer_value(json_object_get(ss[b].s[j].obj, ss[b].s[j].key));
		const struct slot *s = &ss[0].s[j];
		int cpu = strcmp(s->key, "run") == 0 || strcmp(s->key, "loop") == 0;
		json_int_t v = cpu ? floor_tick(sum, (long long)c) : nearest_tick(sum, (long long)c);
		int run = strcmp(s->key, "run") == 0;
		if (cpu) { /* the median when below the mean: an outlier stint stays one lump after the loop */
			qsort(vals, c, sizeof *vals, by_int);
			json_int_t med = floor_tick(vals[c / 2], 1);
			if (med < v && !(run && thin_loss(vals, c, med, sum, s->mult)))
				v = med;
		}
		long long lost = (sum - (long long)c * v) * s->mult;
		if (run && thin_loss(vals, c, v, sum, s->mult))
			carried += lost; /* a long lump, spread thin over the passes: no one stint holds half of it */
		else if (strcmp(s->key, "run") == 0)
			lost_run += lost;
		else if (cpu)
			lost_loop += lost;
		rc = json_object_set_new(s->obj, s->key, json_integer(v));
	}
	for (size_t t = 0; t < len && rc == 0; t++)
		rc = json_array_append(body, json_array_get(a, i + t));
	if (carried < 2 * TICK_US)
		lost_run += carried;
	if (rc == 0 && carried >= 2 * TICK_US)
		rc = spread_carry(out, body, (long long)c, carried / TICK_US, extra);
	else if (rc == 0)
		rc = json_object_set_new(rep, "repeat", json_integer((json_int_t)c)) || json_object_set(rep, "body", body) ||
		     json_array_append(out, rep);
	const char *lk[2] = { "run", "loop" };
	long long lv[2] = { lost_run, lost_loop };
	for (int k = 0; k < 2 && rc == 0; k++)
		if (lv[k] * 2 >= TICK_US) {
			json_t *o = json_object();
			rc = !o || json_object_set_new(o, lk[k], json_integer(nearest_tick(lv[k], 1))) || json_array_append_new(out, o);
		}
	for (size_t b = 0; ss && b < c; b++)
		free(ss[b].s);
	free(ss);
	free(vals);
	json_decref(rep);
	*body_out = body;
	if (rc)
		json_decref(body), *body_out = NULL;
	return rc;
}

/* The best fold at i: the period L and count c covering the most ops (ties:
 * the shorter period), saving at least two ops; 0 if none. */
static size_t best_fold(const struct elems *e, size_t n, size_t i, size_t *count)
{
	size_t best_len = 0, best_c = 0;
	for (size_t len = 1; len <= FOLD_MAX_PERIOD && i + 2 * len <= n; len++) {
		size_t c = 1;
		while (i + (c + 1) * len <= n && same(e, i, i + c * len, len))
			c++;
		if ((c - 1) * len >= 3 && c * len > best_c * best_len) {
			best_len = len;
			best_c = c;
		}
	}
	*count = best_c;
	return best_len;
}

/* The durations of a's elements from .. to-1, each times its repeat count. */
static int total(json_t *a, size_t from, size_t to, long long *t)
{
	struct slots ss = { 0 };
	int rc = collect(a, from, to, &ss);
	*t = 0;
	for (size_t j = 0; rc == 0 && j < ss.n; j++)
		*t += json_integer_value(json_object_get(ss.s[j].obj, ss.s[j].key)) * ss.s[j].mult;
	free(ss.s);
	return rc;
}

/* Whether the first of c blocks of len ops at a[i..] is an outlier (a cold
 * start: the first request, the first tick): its durations' total off the
 * others' mean by over half and over 100 us. Then it is left out of the
 * fold, when the rest still folds. */
static int peel_first(json_t *a, size_t i, size_t len, size_t c, int *peel)
{
	long long t0, rest = 0, t;
	*peel = 0;
	if ((c - 2) * len < 3)
		return 0;
	if (total(a, i, i + len, &t0))
		return -1;
	for (size_t b = 1; b < c; b++) {
		if (total(a, i + b * len, i + (b + 1) * len, &t))
			return -1;
		rest += t;
	}
	long long m = rest / (long long)(c - 1), d = t0 > m ? t0 - m : m - t0;
	*peel = d * 2 > m && d > 100;
	return 0;
}

/* The op arrays inside op (bodies, select cases' bodies and defaults). */
static int push_bodies(json_t *op, json_t ***work, size_t *nw, size_t *cap)
{
	json_t *cand[2] = { json_object_get(op, "body"), NULL };
	json_t *sel = json_object_get(op, "select");
	size_t ns = json_is_array(sel) ? json_array_size(sel) : 0;
	for (size_t k = 0; k <= 2 * ns; k++) {
		json_t *v = k == 0 ? cand[0] : json_object_get(json_array_get(sel, (k - 1) / 2), k % 2 ? "body" : "default");
		if (!json_is_array(v))
			continue;
		if (*nw == *cap) {
			size_t c = *cap ? *cap * 2 : 16;
			json_t **a = realloc(*work, c * sizeof *a);
			if (!a)
				return -1;
			*work = a;
			*cap = c;
		}
		(*work)[(*nw)++] = v;
	}
	return 0;
}

/* op's run duration, or -1 when op is not a plain {"run": N}. */
static json_int_t run_of(json_t *op)
{
	json_t *v = json_object_get(op, "run");
	return v && json_is_integer(v) && json_object_size(op) == 1 ? json_integer_value(v) : -1;
}

/* Before folding: adjacent runs (a stint split by a preemption, or by a
 * fold's remainder) become one; with move, a run of one tick between two
 * ops that are not runs (the rounding's carry, as between a loop's channel
 * ops) is taken off the array and carried on the op before it
 * (CARRY_KEY), out of the shape, so the loop it broke folds; fold_block
 * spreads such ticks over the loop's passes, and put_back_carry puts the
 * ones left back where they were. */
static int tidy_runs(json_t *a, int move)
{
	json_t *out = json_array();
	size_t n = json_array_size(a);
	int rc = out ? 0 : -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		json_t *op = json_array_get(a, i), *last = json_array_get(out, json_array_size(out) - 1);
		json_int_t v = run_of(op);
		if (v < 0) {
			rc = json_array_append(out, op);
		} else if (last && run_of(last) >= 0) {
			rc = json_object_set_new(last, "run", json_integer(run_of(last) + v));
		} else if (move && last && v <= TICK_US && (i + 1 == n || run_of(json_array_get(a, i + 1)) < 0)) {
			json_t *was = json_object_get(last, CARRY_KEY);
			rc = json_object_set_new(last, CARRY_KEY, json_integer(v + (was ? json_integer_value(was) : 0)));
		} else {
			json_t *o = json_object();
			rc = !o || json_object_set_new(o, "run", json_integer(v)) || json_array_append_new(out, o);
		}
	}
	if (rc == 0 && (json_array_clear(a) || json_array_extend(a, out)))
		rc = -1;
	json_decref(out);
	return rc;
}

/* The ticks still carried on a's ops (no fold took them) back as runs
 * after those ops. */
static int put_back_carry(json_t *a)
{
	int rc = 0;
	for (size_t i = 0; i < json_array_size(a) && rc == 0; i++) {
		json_t *op = json_array_get(a, i), *v = json_object_get(op, CARRY_KEY);
		if (!json_is_integer(v))
			continue;
		json_int_t us = json_integer_value(v);
		json_object_del(op, CARRY_KEY);
		rc = json_array_insert_new(a, ++i, run_op(us));
	}
	return rc;
}

/* One array's top level folded in place; the bodies in it (new and old)
 * go to work. */
static int fold_level(json_t *a, int move, json_t ***work, size_t *nw, size_t *cap)
{
	if (tidy_runs(a, move))
		return -1;
	size_t n = json_array_size(a);
	struct elems e = { calloc(n ? n : 1, sizeof *e.sh), calloc(n ? n : 1, sizeof *e.h) };
	json_t *out = json_array();
	int rc = e.sh && e.h && out ? 0 : -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		e.sh[i] = shape_of(a, i, i + 1);
		rc = e.sh[i] ? 0 : -1;
		if (rc == 0)
			e.h[i] = hash_str(e.sh[i]);
	}
	for (size_t i = 0; i < n && rc == 0;) {
		size_t c, len = best_fold(&e, n, i, &c);
		int peel = 0;
		if (len && (rc = peel_first(a, i, len, c, &peel)) == 0 && peel) {
			for (size_t t = 0; t < len && rc == 0; t++) {
				json_t *op = json_array_get(a, i++);
				rc = json_array_append(out, op) || push_bodies(op, work, nw, cap);
			}
			c--;
		}
		if (rc)
			break;
		if (len) {
			json_t *body, *extra;
			rc = fold_block(a, i, len, c, out, &body, &extra);
			for (int k = 0; k < 2 && rc == 0; k++) {
				json_t *b = k ? extra : body, *wrap = b ? json_object() : NULL;
				if (b)
					rc = !wrap || json_object_set_new(wrap, "body", b) || push_bodies(wrap, work, nw, cap);
				json_decref(wrap); /* the body stays alive in its repeat */
			}
			i += c * len;
		} else {
			json_t *op = json_array_get(a, i++);
			rc = json_array_append(out, op) || push_bodies(op, work, nw, cap);
		}
	}
	if (rc == 0 && (json_array_clear(a) || json_array_extend(a, out) || put_back_carry(a) || tidy_runs(a, 0)))
		rc = -1;
	for (size_t i = 0; e.sh && i < n; i++)
		free(e.sh[i]);
	free(e.sh);
	free(e.h);
	json_decref(out);
	return rc;
}

/* One array folded, twice: as it is, and with the one-tick runs moved on
 * (tidy_runs); the second is kept when it is a third shorter (the ticks
 * were what kept a loop from folding). */
static int fold_one(json_t *a, json_t ***work, size_t *nw, size_t *cap)
{
	json_t *b = json_deep_copy(a), **wa = NULL, **wb = NULL;
	size_t na = 0, ca = 0, nb = 0, cb = 0;
	int rc = !b || fold_level(a, 0, &wa, &na, &ca) || fold_level(b, 1, &wb, &nb, &cb) ? -1 : 0;
	int take_b = rc == 0 && json_array_size(b) * 3 < json_array_size(a) * 2;
	if (take_b && (json_array_clear(a) || json_array_extend(a, b)))
		rc = -1;
	json_t **w = take_b ? wb : wa;
	size_t n = take_b ? nb : na;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (*nw == *cap) {
			size_t c = *cap ? *cap * 2 : 16;
			json_t **t = realloc(*work, c * sizeof *t);
			if (!t) {
				rc = -1;
				break;
			}
			*work = t;
			*cap = c;
		}
		(*work)[(*nw)++] = w[i];
	}
	free(wa);
	free(wb);
	json_decref(b);
	return rc;
}

int fold_repeats(json_t *ops)
{
	json_t **work = malloc(sizeof *work);
	size_t nw = 0, cap = 1;
	int rc = work ? 0 : -1;
	if (work)
		work[nw++] = ops;
	while (nw && rc == 0)
		rc = fold_one(work[--nw], &work, &nw, &cap);
	free(work);
	return rc;
}

int merge_shapes(json_t **members, size_t n, const char *prefix, json_t *params)
{
	struct slots *ss = calloc(n ? n : 1, sizeof *ss);
	int rc = ss ? 0 : -1, k = 0;
	for (size_t m = 0; m < n && rc == 0; m++)
		rc = collect(members[m], 0, json_array_size(members[m]), &ss[m]);
	for (size_t m = 1; m < n && rc == 0; m++)
		if (ss[m].n != ss[0].n)
			rc = -1; /* not one shape: a caller's bug */
	for (size_t j = 0; rc == 0 && j < ss[0].n; j++) {
		long long sum = 0;
		json_int_t first = json_integer_value(json_object_get(ss[0].s[j].obj, ss[0].s[j].key));
		int differ = 0;
		for (size_t m = 0; m < n; m++) {
			json_int_t v = json_integer_value(json_object_get(ss[m].s[j].obj, ss[m].s[j].key));
			sum += v;
			differ |= v != first;
		}
		if (!differ)
			continue;
		char name[256], ref[260];
		snprintf(name, sizeof name, "%s_%s%d", prefix, ss[0].s[j].key, ++k);
		snprintf(ref, sizeof ref, "$%s", name);
		rc = json_object_set_new(params, name, json_integer(nearest_tick(sum, (long long)n))) ||
		     json_object_set_new(ss[0].s[j].obj, ss[0].s[j].key, json_string(ref));
	}
	for (size_t m = 0; ss && m < n; m++)
		free(ss[m].s);
	free(ss);
	return rc;
}
