/* import_tick.c: a short-period ticker told from its wakes (import_tick.h). */
#include "import_tick.h"

#include <stdlib.h>

#define US 1000
#define FRAC 16 /* log2 values in 1/65536 bits */
#define ONE_BIT ((int64_t)1 << FRAC)
#define MISS_BITS (6 * ONE_BIT) /* log2 q, q = 1/64 */

/* log2 x in 1/65536 bits, x >= 1 (integer part from the top bit, the
 * fraction by squaring the mantissa: exact integers, the same everywhere). */
static int64_t lg2(uint64_t x)
{
	int e = 63;
	while (!(x >> e))
		e--;
	int64_t r = (int64_t)e << FRAC;
	/* m: x / 2^e in Q30, in [1, 2) */
	uint64_t m = e >= 30 ? x >> (e - 30) : x << (30 - e);
	for (int i = FRAC - 1; i >= 0; i--) {
		m = (m * m) >> 30;
		if (m >= (uint64_t)2 << 30) {
			m >>= 1;
			r += (int64_t)1 << i;
		}
	}
	return r;
}

/* An interval (a, b] a grid point of period p must fall in: b - a < p. */
struct arc { int64_t a, b; };

/* Where a phase x in [0, p) starts (+1, exclusive) or stops (-1,
 * inclusive) being held by an arc. */
struct edge { int64_t x; int d; };

static int by_edge(const void *pa, const void *pb)
{
	const struct edge *a = pa, *b = pb;
	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	return a->d - b->d; /* stops (-1) before starts */
}

static int64_t mod(int64_t v, int64_t p)
{
	int64_t r = v % p;
	return r < 0 ? r + p : r;
}

/* The phase in [0, p) that the most of the n arcs hold (the middle of the
 * widest such stretch); how many hold it in *held. e: 2n scratch edges. */
static int64_t best_phase(const struct arc *arc, size_t n, int64_t p, struct edge *e, size_t *held)
{
	size_t k = 0, cur = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t x = mod(arc[i].a, p), y = mod(arc[i].b, p);
		if (x >= y) /* wraps: holds (x, p) and [0, y] */
			cur++;
		e[k++] = (struct edge){ x, 1 };
		e[k++] = (struct edge){ y, -1 };
	}
	qsort(e, k, sizeof *e, by_edge);
	/* the stretch across 0, (e[k-1].x, p) and [0, e[0].x], is held by the
	 * wrapping arcs (cur); the others are (x, next x] */
	size_t best = cur;
	int64_t from = e[k - 1].x, wid = p - e[k - 1].x + e[0].x;
	for (size_t i = 0; i < k;) {
		int64_t x = e[i].x;
		for (; i < k && e[i].x == x; i++) {
			if (e[i].d > 0)
				cur++;
			else
				cur--;
		}
		int64_t nx = i < k ? e[i].x : p;
		if (nx > x && (cur > best || (cur == best && nx - x > wid))) {
			best = cur;
			from = x;
			wid = nx - x;
		}
	}
	*held = best;
	return mod(from + (wid + 1) / 2, p); /* the stretch is from + 1 .. from + wid */
}

/* Whether the grid phase + k p holds a point in (a, b]. */
static int holds(struct arc r, int64_t phase, int64_t p)
{
	int64_t d = mod(phase - r.a, p);
	return d > 0 && d <= r.b - r.a;
}

static int trailing_zeros10(int64_t v)
{
	int z = 0;
	while (v > 0 && v % 10 == 0 && z < 18) {
		v /= 10;
		z++;
	}
	return z;
}

/* The evidence for period p, in 1/65536 bits, or INT64_MIN when more than
 * one interval in TICK_MISS_SHARE misses its best phase. */
static int64_t evidence(const int64_t *wake, size_t n, int64_t made_lo, int64_t made_hi, int64_t p,
			struct arc *arc, struct edge *e)
{
	size_t na = 0, held;
	for (size_t i = 1; i < n; i++)
		if (wake[i] - wake[i - 1] + TICK_STALE_NS < p)
			arc[na++] = (struct arc){ wake[i - 1] - TICK_STALE_NS, wake[i] };
	struct arc made = { made_lo - TICK_STALE_NS, made_hi };
	int tied = made.b > made.a && made.b - made.a < p; /* the grid must pass through it */
	if (tied)
		arc[na++] = made;
	if (!na)
		return 0;
	int64_t phase = best_phase(arc, na, p, e, &held);
	if ((na - held) * TICK_MISS_SHARE > na || (tied && !holds(made, phase, p)))
		return INT64_MIN;
	int64_t s = 0;
	for (size_t i = 0; i < na; i++) {
		int64_t len = arc[i].b - arc[i].a;
		s += holds(arc[i], phase, p) ? lg2((uint64_t)p) - lg2((uint64_t)len)
					     : lg2((uint64_t)p) - lg2((uint64_t)(p - len)) - MISS_BITS;
	}
	return s;
}

int64_t tick_short_period(const int64_t *wake, size_t n, int64_t made_lo, int64_t made_hi, int64_t below_ns,
			  double *bits)
{
	if (bits)
		*bits = 0;
	if (n < 3)
		return 0;
	int64_t dmin = INT64_MAX;
	for (size_t i = 1; i < n; i++)
		if (wake[i] - wake[i - 1] < dmin)
			dmin = wake[i] - wake[i - 1];
	/* each of the n - 1 intervals holds a grid point of its own: n - 2
	 * periods between the first and the last, within the span (and the
	 * first interval's stale start) */
	int64_t hi = (wake[n - 1] - wake[0] + TICK_STALE_NS) / (int64_t)(n - 2);
	if (hi >= below_ns)
		hi = below_ns - 1;
	int64_t lo = (dmin + TICK_STALE_NS) / US + 1;
	if (dmin <= 0 || lo > hi / US)
		return 0;
	size_t np = (size_t)(hi / US - lo + 1);
	struct arc *arc = malloc((n + 1) * sizeof *arc);
	struct edge *e = malloc(2 * (n + 1) * sizeof *e);
	int64_t *ev = malloc(np * sizeof *ev);
	if (!arc || !e || !ev) {
		free(arc);
		free(e);
		free(ev);
		return -1;
	}
	int64_t top = INT64_MIN;
	for (size_t j = 0; j < np; j++) {
		ev[j] = evidence(wake, n, made_lo, made_hi, (lo + (int64_t)j) * US, arc, e);
		if (ev[j] > top)
			top = ev[j];
	}
	/* among the periods within a bit of the best, the roundest, then the most bits */
	size_t pick = np;
	for (size_t j = 0; top > INT64_MIN && j < np; j++) {
		if (ev[j] < top - ONE_BIT)
			continue;
		int z = trailing_zeros10(lo + (int64_t)j), zp = pick < np ? trailing_zeros10(lo + (int64_t)pick) : -1;
		if (z > zp || (z == zp && ev[j] > ev[pick]))
			pick = j;
	}
	int64_t best = pick < np ? ev[pick] : 0, period = pick < np ? (lo + (int64_t)pick) * US : 0;
	free(arc);
	free(e);
	free(ev);
	if (bits)
		*bits = (double)best / ONE_BIT;
	return best >= TICK_BITS * ONE_BIT ? period : 0;
}
