/* import_mutex.c: the uncontended sync.Mutex sections inferred for gosim
 * import (import_mutex.h says what and from what). */
#include "import_mutex.h"
#include "import_fold.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TICK_US IMPORT_TICK_US

int mx_begin(struct mx_open *o, json_t *arr, int from, const char *mu)
{
	free(o->mu);
	o->mu = mu ? strdup(mu) : NULL;
	o->arr = arr;
	o->at = json_array_size(arr);
	o->after = o->at ? json_array_get(arr, o->at - 1) : NULL;
	o->from = from;
	return mu && !o->mu ? -1 : 0;
}

int mx_end(struct mx_log *log, struct mx_open *o, json_t *arr, int to, const char *mu)
{
	int from = o->from;
	o->from = MX_NONE;
	if (from == MX_NONE || arr != o->arr || json_array_size(arr) <= o->at)
		return 0;
	if (!mu)
		mu = o->mu;
	if (!mu || (o->mu && strcmp(o->mu, mu) != 0))
		return 0;
	if (log->n == log->cap) {
		size_t c = log->cap ? log->cap * 2 : 64;
		struct mx_seg *a = realloc(log->s, c * sizeof *a);
		if (!a)
			return -1;
		log->s = a;
		log->cap = c;
	}
	size_t n = json_array_size(arr) - o->at;
	struct mx_seg *s = &log->s[log->n];
	*s = (struct mx_seg){ .arr = arr, .after = o->after, .last = json_array_get(arr, o->at + n - 1), .at = o->at,
			      .n = n, .from = from, .to = to, .mu = strdup(mu) };
	if (!s->mu)
		return -1;
	log->n++;
	return 0;
}

void mx_free(struct mx_log *log)
{
	for (size_t i = 0; i < log->n; i++)
		free(log->s[i].mu);
	free(log->s);
	*log = (struct mx_log){ 0 };
}

/* op is {key: mu}. */
static int is_mu_op(json_t *op, const char *key, const char *mu)
{
	json_t *v = json_object_get(op, key);
	return json_object_size(op) == 1 && v && json_is_string(v) && strcmp(json_string_value(v), mu) == 0;
}

/* op's run duration in us, or -1 when it is not a plain run. */
static long run_us(json_t *op)
{
	json_t *v = json_object_get(op, "run");
	return json_object_size(op) == 1 && v && json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

/* Finds s's ops in its array again (an Add inserted before a go may have
 * moved them) and checks that they are what its ends put there: the wake's
 * unlock first (from a wake), then runs, then (to an Unlock) lock, a run, unlock. */
static void check_seg(struct mx_seg *s)
{
	size_t size = json_array_size(s->arr);
	if (!(s->at == 0 ? s->after == NULL : s->at <= size && json_array_get(s->arr, s->at - 1) == s->after)) {
		size_t i = 0;
		while (i < size && json_array_get(s->arr, i) != s->after)
			i++;
		if (!s->after || i == size)
			return;
		s->at = i + 1;
	}
	if (s->at + s->n > size || json_array_get(s->arr, s->at + s->n - 1) != s->last)
		return;
	size_t i = s->at, end = s->at + s->n;
	if (s->from == MX_WOKE && !(i < end && is_mu_op(json_array_get(s->arr, i++), "unlock", s->mu)))
		return;
	if (s->to == MX_UNLOCK) {
		if (end - i < 2 || !is_mu_op(json_array_get(s->arr, end - 1), "unlock", s->mu))
			return;
		end--;
		long h = end - i >= 2 ? run_us(json_array_get(s->arr, end - 1)) : -1;
		if (h >= 0 && is_mu_op(json_array_get(s->arr, end - 2), "lock", s->mu)) {
			s->h0_us = h;
			end -= 2;
		} else if (is_mu_op(json_array_get(s->arr, end - 1), "lock", s->mu)) {
			end--;
		} else {
			return;
		}
	}
	long d = 0;
	for (; i < end; i++) {
		long r = run_us(json_array_get(s->arr, i));
		if (r < 0)
			return;
		d += r;
	}
	s->d_us = d;
	s->ok = 1;
}

/* One mutex's pass and section (us); pass 0: none seen, no inference. */
struct mx_est {
	const char *mu;
	long pass, held;
};

static int by_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* The pass (the shortest Unlock-to-Unlock stretch) and the section (the
 * median wake-to-Unlock stretch) of mu, from the checked stretches. */
static int estimate(const struct mx_log *log, struct mx_est *e)
{
	long *h = malloc((log->n ? log->n : 1) * sizeof *h);
	if (!h)
		return -1;
	size_t nh = 0;
	e->pass = 0;
	for (size_t i = 0; i < log->n; i++) {
		const struct mx_seg *s = &log->s[i];
		if (!s->ok || s->to != MX_UNLOCK || strcmp(s->mu, e->mu) != 0)
			continue;
		long d = s->d_us + s->h0_us;
		if (s->from == MX_WOKE)
			h[nh++] = d;
		else if (s->from == MX_OUT && (e->pass == 0 || d < e->pass))
			e->pass = d;
	}
	qsort(h, nh, sizeof *h, by_long);
	e->held = nh ? h[nh / 2] : 0;
	free(h);
	if (e->held <= 0 || e->pass <= e->held)
		e->pass = 0;
	return 0;
}

static int put(json_t *a, const char *key, json_t *v)
{
	json_t *o = json_object();
	if (!o || !v || json_object_set_new(o, key, v) || json_array_append_new(a, o)) {
		json_decref(o);
		return -1;
	}
	return 0;
}

static int put_run(json_t *a, long us) { return us > 0 ? put(a, "run", json_integer(us)) : 0; }

/* d us as nh sections and ng stretches of work in turn (first: a section
 * when held_first), in the ratio held : pass - held, each a whole tick
 * (the remainder's ticks to the first works): runs, with the lock taken
 * before each section that follows work and dropped after each section
 * that work follows. */
static int lay(json_t *a, long d, int held_first, long nh, long ng, const struct mx_est *e, const char *mu)
{
	long g = e->pass - e->held, w = nh * e->held + ng * g;
	long h = (e->held * d / w + TICK_US / 2) / TICK_US * TICK_US;
	if (h < TICK_US)
		h = TICK_US;
	if (nh * h > d)
		h = d / nh / TICK_US * TICK_US;
	long work = ng ? d - nh * h : 0, each = ng ? work / ng / TICK_US * TICK_US : 0;
	long extra = ng ? (work - each * ng) / TICK_US : 0;
	if (!ng)
		h = d / nh; /* all of it held: one section */
	int held = held_first, rc = 0;
	for (long k = 0, ih = 0, ig = 0; k < nh + ng && rc == 0; k++) {
		if (held) {
			rc = put_run(a, h);
			ih++;
		} else {
			rc = put_run(a, each + (ig < extra ? TICK_US : 0));
			ig++;
		}
		if (rc == 0 && k + 1 < nh + ng)
			rc = put(a, held ? "unlock" : "lock", json_string(mu));
		held = !held;
	}
	return rc;
}

/* s's ops laid out with the sections it holds (NULL: left as it is, and in
 * *sections how many whole sections it added), or NULL with *sections -1
 * out of memory. */
static json_t *layout(const struct mx_seg *s, const struct mx_est *e, long *sections)
{
	*sections = 0;
	long p = e->pass, h = e->held, g = p - h, d = s->d_us, n = 0;
	int rc = 0;
	json_t *a = json_array();
	if (!a) {
		*sections = -1;
		return NULL;
	}
	if (s->to != MX_UNLOCK && s->from != MX_WOKE) { /* out .. out: G + n*P */
		n = d >= g + p ? (d - g) / p : 0;
		if (n == 0)
			goto keep;
		rc = lay(a, d, 0, n, n + 1, e, s->mu);
	} else if (s->to != MX_UNLOCK) { /* wake .. out: (n+1)*P, or lost the lock at once */
		long k = d / p;
		if (k == 0)
			goto keep;
		n = k - 1;
		rc = lay(a, d, 1, k, k, e, s->mu);
	} else if (s->from == MX_WOKE) { /* wake .. Unlock: H + n*P, held from the wake */
		d += s->h0_us;
		n = d >= h ? (d - h) / p : 0;
		rc = lay(a, d, 1, n + 1, n, e, s->mu) || put(a, "unlock", json_string(s->mu));
	} else { /* out .. Unlock: G + n*P, then the last section */
		long last = s->h0_us, before = d;
		if (before == 0) { /* the waiter blocked before the stretch: the section's start unseen */
			last = s->h0_us < h ? s->h0_us : h;
			before = s->h0_us - last;
		}
		n = before >= g + p ? (before - g) / p : 0;
		if (n == 0 && last == s->h0_us)
			goto keep;
		rc = (n ? lay(a, before, 0, n, n + 1, e, s->mu) : put_run(a, before)) || put(a, "lock", json_string(s->mu)) ||
		     put_run(a, last) || put(a, "unlock", json_string(s->mu));
	}
	if (rc) {
		json_decref(a);
		*sections = -1;
		return NULL;
	}
	*sections = n;
	return a;
keep:
	json_decref(a);
	return NULL;
}

static int by_place(const void *a, const void *b)
{
	const struct mx_seg *x = a, *y = b;
	uintptr_t p = (uintptr_t)x->arr, q = (uintptr_t)y->arr;
	return p != q ? (p > q) - (p < q) : (x->at > y->at) - (x->at < y->at);
}

/* arr rebuilt with segs[0..n) (its stretches, in order) laid out. */
static long rebuild(json_t *arr, struct mx_seg *segs, size_t n, const struct mx_est *est, size_t nest)
{
	json_t *out = json_array();
	long total = 0;
	size_t i = 0;
	if (!out)
		return -1;
	for (size_t k = 0; k < n && total >= 0; k++) {
		const struct mx_seg *s = &segs[k];
		const struct mx_est *e = NULL;
		for (size_t j = 0; j < nest && !e; j++)
			if (strcmp(est[j].mu, s->mu) == 0 && est[j].pass)
				e = &est[j];
		long got = 0;
		json_t *a = s->ok && e && s->at >= i ? layout(s, e, &got) : NULL;
		if (got < 0) {
			total = -1;
			break;
		}
		if (!a)
			continue;
		for (; i < s->at; i++)
			if (json_array_append(out, json_array_get(arr, i)))
				total = -1;
		if (total >= 0 && json_array_extend(out, a))
			total = -1;
		json_decref(a);
		i = s->at + s->n;
		total += total >= 0 ? got : 0;
	}
	for (; total >= 0 && i < json_array_size(arr); i++)
		if (json_array_append(out, json_array_get(arr, i)))
			total = -1;
	if (total >= 0 && (json_array_clear(arr) || json_array_extend(arr, out)))
		total = -1;
	json_decref(out);
	return total;
}

long mutex_infer(struct mx_log *log)
{
	struct mx_est *est = malloc((log->n ? log->n : 1) * sizeof *est);
	size_t nest = 0;
	long total = 0;
	if (!est)
		return -1;
	for (size_t i = 0; i < log->n; i++)
		check_seg(&log->s[i]);
	for (size_t i = 0; i < log->n && total >= 0; i++) {
		size_t j = 0;
		while (j < nest && strcmp(est[j].mu, log->s[i].mu) != 0)
			j++;
		if (j < nest)
			continue;
		est[nest].mu = log->s[i].mu;
		if (estimate(log, &est[nest++]))
			total = -1;
	}
	if (total >= 0 && log->n)
		qsort(log->s, log->n, sizeof *log->s, by_place);
	for (size_t i = 0, j; i < log->n && total >= 0; i = j) {
		for (j = i; j < log->n && log->s[j].arr == log->s[i].arr;)
			j++;
		long got = rebuild(log->s[i].arr, &log->s[i], j - i, est, nest);
		total = got < 0 ? -1 : total + got;
	}
	free(est);
	return total;
}

/* The pass-shape inference (import_mutex.h, mutex_passes). */
#define PASS_MIN_SEEN 8    /* passes that show their section, at least */
#define PASS_MIN_ANCHORS 16
#define PASS_MAX_KINDS 64  /* distinct anchor candidates looked at */

static int is_plain(json_t *op) /* a run, lock or unlock: not an anchor */
{
	return json_object_get(op, "run") || json_object_get(op, "lock") || json_object_get(op, "unlock");
}

/* The op of ops (not a run, lock or unlock) that occurs most often, or NULL
 * when none occurs PASS_MIN_ANCHORS times. */
static json_t *anchor_of(json_t *ops)
{
	json_t *kind[PASS_MAX_KINDS];
	size_t count[PASS_MAX_KINDS], nk = 0, i, best = 0;
	json_t *op, *a = NULL;
	json_array_foreach(ops, i, op) {
		if (is_plain(op) || json_object_get(op, "body"))
			continue;
		size_t k = 0;
		while (k < nk && !json_equal(kind[k], op))
			k++;
		if (k == nk && nk < PASS_MAX_KINDS) {
			kind[nk] = op;
			count[nk++] = 0;
		}
		if (k < nk && ++count[k] > best) {
			best = count[k];
			a = kind[k];
		}
	}
	return best >= PASS_MIN_ANCHORS ? a : NULL;
}

/* What pass [i, end) of ops (after its anchor) shows of its mutex mu
 * (set from the first seen): its CPU time (d); the CPU to a block in Lock
 * (a lock and unlock pair: the wake of a waiter) in *x, or -1; the CPU to
 * an Unlock that woke a waiter (lock, a run, unlock) in *u, or -1. Returns
 * -1 when the pass has any other op, a second section or another mutex. */
static int pass_kind(json_t *ops, size_t i, size_t end, long *d, long *x, long *u, const char **mu)
{
	long cpu = 0;
	*x = *u = -1;
	for (; i < end; i++) {
		json_t *op = json_array_get(ops, i), *m = json_object_get(op, "lock");
		long r = run_us(op);
		if (r >= 0) {
			cpu += r;
			continue;
		}
		if (!m || !json_is_string(m) || i + 1 >= end || (*mu && strcmp(*mu, json_string_value(m)) != 0))
			return -1;
		*mu = json_string_value(m);
		if (is_mu_op(json_array_get(ops, i + 1), "unlock", *mu) && *x < 0 && *u < 0) {
			*x = cpu;
			i++;
		} else if (i + 2 < end && (r = run_us(json_array_get(ops, i + 1))) >= 0 &&
			   is_mu_op(json_array_get(ops, i + 2), "unlock", *mu) && *u < 0) {
			cpu += r;
			*u = cpu;
			i += 2;
		} else {
			return -1;
		}
	}
	*d = cpu;
	return 0;
}

static long median_of(long *v, size_t n)
{
	qsort(v, n, sizeof *v, by_long);
	return v[n / 2];
}

/* The passes' statistics over ops, each array with room for ops' size:
 * the CPU of each pass of runs only (ro), and of each with a block in Lock
 * its length and the block's offset (xd, xs), of each with an Unlock that
 * woke a waiter its length and the Unlock's offset (ud, us). */
struct pass_stats {
	long *ro, *xd, *xs, *ud, *us;
	size_t nro, nx, nu;
};

static void pass_stats(json_t *ops, json_t *anchor, struct pass_stats *st, const char **mu)
{
	size_t n = json_array_size(ops);
	for (size_t i = 0, next; i < n; i = next) {
		for (next = i + 1; next < n && !json_equal(json_array_get(ops, next), anchor);)
			next++;
		long d, x, u;
		if (!json_equal(json_array_get(ops, i), anchor) || next == n || next == i + 1 ||
		    pass_kind(ops, i + 1, next, &d, &x, &u, mu))
			continue;
		if (x < 0 && u < 0)
			st->ro[st->nro++] = d;
		if (x >= 0) {
			st->xd[st->nx] = d;
			st->xs[st->nx++] = x;
		}
		if (u >= 0) {
			st->ud[st->nu] = d;
			st->us[st->nu++] = u;
		}
	}
}

/* The median of the v[i] whose pass d[i] is at most lmax, or -1 when
 * fewer than PASS_MIN_SEEN are. */
static long median_within(const long *v, const long *d, size_t n, long lmax, long *scratch)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (d[i] <= lmax)
			scratch[k++] = v[i];
	return k >= PASS_MIN_SEEN ? median_of(scratch, k) : -1;
}

/* ops with a section of mu (a us after the pass's start, h long, in passes
 * of l us; scaled to each pass) in each runs-only pass of l/2 to 3l/2. */
static long lay_passes(json_t *ops, json_t *anchor, const char *mu, long a, long h, long l)
{
	size_t n = json_array_size(ops);
	json_t *out = json_array();
	long total = 0;
	int rc = out ? 0 : -1;
	for (size_t i = 0, next; i < n && rc == 0; i = next) {
		for (next = i + 1; next < n && !json_equal(json_array_get(ops, next), anchor);)
			next++;
		long d = 0, x, u;
		const char *m = mu;
		rc = json_array_append(out, json_array_get(ops, i));
		int runs_only = json_equal(json_array_get(ops, i), anchor) && next < n && next > i + 1 &&
				pass_kind(ops, i + 1, next, &d, &x, &u, &m) == 0 && x < 0 && u < 0 && 2 * d >= l &&
				2 * d <= 3 * l;
		if (runs_only && rc == 0) {
			long hs = (h * d / l + TICK_US / 2) / TICK_US * TICK_US, as = (a * d / l + TICK_US / 2) / TICK_US * TICK_US;
			if (hs < TICK_US)
				hs = TICK_US;
			if (hs > d)
				hs = d; /* a section estimated longer than this pass: the whole pass */
			if (as + hs > d)
				as = d - hs; /* the pass's CPU stays d: as, hs and d - as - hs >= 0 */
			rc = put_run(out, as) || put(out, "lock", json_string(mu)) || put_run(out, hs) ||
			     put(out, "unlock", json_string(mu)) || put_run(out, d - as - hs);
			total++;
		} else {
			for (size_t j = i + 1; j < next && rc == 0; j++)
				rc = json_array_append(out, json_array_get(ops, j));
		}
	}
	if (rc == 0 && (json_array_clear(ops) || json_array_extend(ops, out)))
		rc = -1;
	json_decref(out);
	return rc ? -1 : total;
}

long mutex_passes(json_t **arrs, size_t narr)
{
	json_t *anchor = narr ? anchor_of(arrs[0]) : NULL;
	size_t n = 0;
	for (size_t k = 0; anchor && k < narr; k++) {
		json_t *ak = anchor_of(arrs[k]);
		if (!ak || !json_equal(ak, anchor))
			return 0; /* the goroutines' passes are not of one shape */
		n += json_array_size(arrs[k]);
	}
	if (!anchor)
		return 0;
	struct pass_stats st = { 0 };
	long *mem = malloc(6 * n * sizeof *mem), a = -1, u = -1, l = 0, total = 0;
	const char *mu = NULL;
	if (!mem)
		return -1;
	st.ro = mem, st.xd = mem + n, st.xs = mem + 2 * n, st.ud = mem + 3 * n, st.us = mem + 4 * n;
	for (size_t k = 0; k < narr; k++)
		pass_stats(arrs[k], anchor, &st, &mu);
	/* One pass: the median pass of runs only (the passes between two seen
	 * anchors may hold several, when a receive did not block); the block's
	 * and the Unlock's offsets from the passes up to half a pass longer. */
	if (st.nro >= PASS_MIN_SEEN) {
		l = median_of(st.ro, st.nro);
		a = median_within(st.xs, st.xd, st.nx, l + l / 2, mem + 5 * n);
		u = median_within(st.us, st.ud, st.nu, l + l / 2, mem + 5 * n);
	}
	free(mem);
	if (a < 0 || u - a < TICK_US)
		return 0;
	char *name = strdup(mu); /* mu and anchor live in the arrays, which are rebuilt */
	json_t *anc = json_deep_copy(anchor);
	if (!name || !anc)
		total = -1;
	for (size_t k = 0; k < narr && total >= 0; k++) {
		long got = lay_passes(arrs[k], anc, name, a, u - a, l);
		total = got < 0 ? -1 : total + got;
	}
	free(name);
	json_decref(anc);
	return total;
}
