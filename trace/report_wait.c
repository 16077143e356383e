/* report_wait.c: long waits with who ran meanwhile, and nearest-rank
 * latency percentiles (see report.h). */
#include "report_impl.h"

#include <stdlib.h>
#include <string.h>

static int grow_to(void **a, int64_t *cap, int64_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	int64_t n = *cap ? *cap * 2 : 64;
	while (n < need)
		n *= 2;
	void *p = realloc(*a, (size_t)n * size);
	if (!p)
		return -1;
	*a = p;
	*cap = n;
	return 0;
}

static int cmp_pg(const void *a, const void *b)
{
	const struct ant *x = a, *y = b;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->g > y->g) - (x->g < y->g);
}

static int cmp_us_desc(const void *a, const void *b)
{
	const struct ant *x = a, *y = b;
	if (x->us != y->us)
		return x->us > y->us ? -1 : 1;
	return (x->g > y->g) - (x->g < y->g);
}

static int64_t overlap(int64_t s1, int64_t e1, int64_t s2, int64_t e2)
{
	int64_t s = s1 > s2 ? s1 : s2, e = e1 < e2 ? e1 : e2;
	return e > s ? e - s : 0;
}

/* Every (P, G) run that overlapped [a, b], with its time, into tmp. */
static int64_t collect(struct report *r, int64_t a, int64_t b, struct ant **tmp, int64_t *cap)
{
	int64_t lo = r->seg_head, hi = r->nseg, n = 0;
	while (lo < hi) { /* segments are in end order: the first ending after a */
		int64_t mid = lo + (hi - lo) / 2;
		if (r->segs[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int64_t i = lo; i < r->nseg; i++) {
		struct seg sg = r->segs[i];
		int64_t us = overlap(a, b, sg.start, sg.end);
		if (us == 0)
			continue;
		if (grow_to((void **)tmp, cap, n + 1, sizeof **tmp))
			return -1;
		(*tmp)[n++] = (struct ant){ sg.p, sg.g, 1, us };
	}
	for (int p = 0; p < r->meta.procs; p++) {
		int64_t us = r->ps[p].curg > 0 ? overlap(a, b, r->ps[p].seg_start, b) : 0;
		if (us == 0)
			continue;
		if (grow_to((void **)tmp, cap, n + 1, sizeof **tmp))
			return -1;
		(*tmp)[n++] = (struct ant){ p, r->ps[p].curg, 1, us };
	}
	return n;
}

/* Merges runs of one G on one P; keeps each P's ANTS_PER_P longest and
 * folds the rest into one g=0 entry. Appends to r->ants. */
static int keep_top(struct report *r, struct ant *a, int64_t n)
{
	qsort(a, (size_t)n, sizeof *a, cmp_pg);
	int64_t m = 0;
	for (int64_t i = 0; i < n; i++) {
		if (m > 0 && a[m - 1].p == a[i].p && a[m - 1].g == a[i].g) {
			a[m - 1].us += a[i].us;
			a[m - 1].runs += a[i].runs;
		} else {
			a[m++] = a[i];
		}
	}
	for (int64_t i = 0; i < m;) {
		int64_t j = i;
		while (j < m && a[j].p == a[i].p)
			j++;
		qsort(a + i, (size_t)(j - i), sizeof *a, cmp_us_desc);
		int64_t keep = j - i > ANTS_PER_P + 1 ? ANTS_PER_P : j - i;
		if (grow_to((void **)&r->ants, &r->ants_cap, r->nants + keep + 1, sizeof *r->ants))
			return -1;
		memcpy(r->ants + r->nants, a + i, (size_t)keep * sizeof *a);
		r->nants += keep;
		if (i + keep < j) {
			struct ant rest = { a[i].p, 0, 0, 0 };
			for (int64_t k = i + keep; k < j; k++) {
				rest.us += a[k].us;
				rest.runs += a[k].runs;
			}
			r->ants[r->nants++] = rest;
		}
		i = j;
	}
	return 0;
}

int report_list_wait(struct report *r, const struct rg *gp, const struct sim_event *e, int over, int why)
{
	if (grow_to((void **)&r->waits, &r->waits_cap, r->nwaits + 1, sizeof *r->waits))
		return -1;
	struct lwait *w = &r->waits[r->nwaits];
	*w = (struct lwait){ .g = e->g, .fn = gp->fn, .start = gp->wait_start, .end = e->t,
			     .ahead = gp->entry_ahead, .moves = gp->moves, .entry_p = gp->entry_p,
			     .exit_p = (int16_t)e->from_p, .entry_place = gp->entry_place,
			     .entry_reason = gp->entry_reason, .exit_place = e->from, .exit_reason = e->reason,
			     .over = (uint8_t)over, .why = (uint8_t)why, .ant0 = r->nants };
	for (int i = 0; i < 3; i++)
		w->in[i] = gp->t[TK_RUNNEXT + i] - gp->snap[i];
	struct ant *tmp = NULL;
	int64_t cap = 0, n = collect(r, w->start, w->end, &tmp, &cap);
	int rc = n < 0 ? -1 : keep_top(r, tmp, n);
	free(tmp);
	if (rc != 0)
		return -1;
	w->nant = r->nants - w->ant0;
	r->nwaits++;
	r->nover += over;
	return 0;
}

/* ---- latency percentiles -------------------------------------------- */

struct vc {
	int64_t v, c;
};

static int cmp_vc(const void *a, const void *b)
{
	const struct vc *x = a, *y = b;
	return (x->v > y->v) - (x->v < y->v);
}

/* The smallest value whose cumulative count reaches rank k (1-based). */
static int64_t at_rank(const struct vc *a, size_t n, int64_t k)
{
	int64_t seen = 0;
	for (size_t i = 0; i < n; i++) {
		seen += a[i].c;
		if (seen >= k)
			return a[i].v;
	}
	return n ? a[n - 1].v : -1;
}

/* Nearest rank: the percentile q of N samples is the ceil(q*N/100)-th
 * smallest. */
static int64_t rank(int64_t total, int q)
{
	int64_t k = (total * q + 99) / 100;
	return k < 1 ? 1 : k;
}

int report_latency(const struct hmap *h, struct lat *out)
{
	*out = (struct lat){ 0, -1, -1, -1, -1 };
	if (h->n == 0)
		return 0;
	struct vc *a = malloc(h->n * sizeof *a);
	if (!a)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < h->cap; i++)
		if (h->used[i]) {
			a[n++] = (struct vc){ h->keys[i], h->vals[i] };
			out->count += h->vals[i];
		}
	qsort(a, n, sizeof *a, cmp_vc);
	out->p50 = at_rank(a, n, rank(out->count, 50));
	out->p90 = at_rank(a, n, rank(out->count, 90));
	out->p99 = at_rank(a, n, rank(out->count, 99));
	out->max = a[n - 1].v;
	free(a);
	return 0;
}
