/* report_wait.c: long waits with who ran meanwhile, and nearest-rank
 * latency percentiles (see report.h). */
#include "grow.h"
#include "report_impl.h"

#include <stdlib.h>
#include <string.h>

/* x ran longer than y on their P (ties: the lower goid first). */
static int longer(const struct ant *x, const struct ant *y)
{
	return x->us != y->us ? x->us > y->us : x->g < y->g;
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
		if (grow_array((void **)tmp, cap, n + 1, sizeof **tmp, 0))
			return -1;
		(*tmp)[n++] = (struct ant){ sg.p, sg.g, 1, us };
	}
	for (int p = 0; p < r->meta.procs; p++) {
		int64_t us = r->ps[p].curg > 0 ? overlap(a, b, r->ps[p].seg_start, b) : 0;
		if (us == 0)
			continue;
		if (grow_array((void **)tmp, cap, n + 1, sizeof **tmp, 0))
			return -1;
		(*tmp)[n++] = (struct ant){ p, r->ps[p].curg, 1, us };
	}
	return n;
}

/* Merges runs of one G on one P (a hash of (p, g)); keeps each P's
 * ANTS_PER_P longest and folds the rest into one g=0 entry (a P with just
 * one more lists it instead). Linear in the runs: no sort. Appends to
 * r->ants, Ps in id order, each P's longest first. */
static int keep_top(struct report *r, struct ant *a, int64_t n)
{
	enum { K = ANTS_PER_P + 1 };
	struct hmap h = { 0 };
	int64_t m = 0;
	for (int64_t i = 0; i < n; i++) {
		int64_t *slot = hmap_at(&h, (int64_t)a[i].p << 32 | (uint32_t)a[i].g);
		if (!slot)
			return hmap_free(&h), -1;
		if (*slot) {
			a[*slot - 1].us += a[i].us;
			a[*slot - 1].runs += a[i].runs;
		} else {
			a[m] = a[i];
			*slot = ++m;
		}
	}
	hmap_free(&h);
	int procs = r->meta.procs;
	struct ant *best = calloc((size_t)procs * K, sizeof *best), *rest = calloc((size_t)procs, sizeof *rest);
	int64_t *cnt = calloc((size_t)procs, sizeof *cnt);
	int rc = best && rest && cnt ? 0 : -1;
	for (int64_t i = 0; rc == 0 && i < m; i++) {
		int p = a[i].p;
		struct ant *b = best + (size_t)p * K, x = a[i];
		int64_t have = cnt[p] < K ? cnt[p] : K;
		if (have == K) { /* evict the shortest into the rest */
			if (!longer(&x, &b[K - 1])) {
				rest[p].us += x.us, rest[p].runs += x.runs;
				cnt[p]++;
				continue;
			}
			rest[p].us += b[K - 1].us, rest[p].runs += b[K - 1].runs;
			have--;
		}
		int64_t j = have;
		for (; j > 0 && longer(&x, &b[j - 1]); j--)
			b[j] = b[j - 1];
		b[j] = x;
		cnt[p]++;
	}
	for (int p = 0; rc == 0 && p < procs; p++) {
		const struct ant *b = best + (size_t)p * K;
		int64_t keep = cnt[p] <= K ? cnt[p] : ANTS_PER_P;
		if (grow_array((void **)&r->ants, &r->ants_cap, r->nants + keep + 1, sizeof *r->ants, 0)) {
			rc = -1;
			break;
		}
		memcpy(r->ants + r->nants, b, (size_t)keep * sizeof *b);
		r->nants += keep;
		if (cnt[p] > K) {
			struct ant o = rest[p];
			o.us += b[K - 1].us; /* the fourth longest joins the rest */
			o.runs += b[K - 1].runs;
			o.p = p;
			o.g = 0;
			r->ants[r->nants++] = o;
		}
	}
	free(best);
	free(rest);
	free(cnt);
	return rc;
}

int report_list_wait(struct report *r, const struct rg *gp, const struct sim_event *e, int over, int why)
{
	if (grow_array((void **)&r->waits, &r->waits_cap, r->nwaits + 1, sizeof *r->waits, 0))
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
