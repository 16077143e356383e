/* import_net.c: network reads paired with their writers (import_net.h). */
#include "import_net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow(void **a, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 256;
	void *b = realloc(*a, c * size);
	if (!b)
		return -1;
	*a = b;
	*cap = c;
	return 0;
}

int net_log_wait(struct net_log *l, size_t k, long ord, int64_t lo, int64_t wake)
{
	if (grow((void **)&l->w, &l->capw, l->nw, sizeof *l->w))
		return -1;
	l->w[l->nw++] = (struct net_wait){ k, ord, lo, wake };
	return 0;
}

int net_log_write(struct net_log *l, size_t k, long ord, int64_t ns)
{
	if (grow((void **)&l->wr, &l->capwr, l->nwr, sizeof *l->wr))
		return -1;
	l->wr[l->nwr++] = (struct net_write){ k, ord, ns };
	return 0;
}

void net_log_free(struct net_log *l)
{
	free(l->w);
	free(l->wr);
	*l = (struct net_log){ 0 };
}

/* The index past the last write at or before t (writes are in time order). */
static size_t writes_upto(const struct net_log *l, int64_t t)
{
	size_t lo = 0, hi = l->nwr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->wr[mid].ns <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int by_reader(const void *a, const void *b)
{
	const struct net_wait *x = a, *y = b;
	return x->k != y->k ? (x->k < y->k ? -1 : 1) : (x->ord > y->ord) - (x->ord < y->ord);
}

static int by_k_ord(const void *a, const void *b)
{
	const struct net_asg *x = a, *y = b;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->ord != y->ord)
		return x->ord < y->ord ? -1 : 1;
	return (x->sock > y->sock) - (x->sock < y->sock);
}

/* A new socket from goroutine wk (function wfn) to rk (rfn): net_W_R,
 * then _2, _3, ... for each further pair of goroutines of those two
 * functions, a connection's two directions under one number (the pair
 * rk -> wk's, when it has one). */
static int new_sock(struct net_pairs *p, size_t wk, const char *wfn, size_t rk, const char *rfn)
{
	size_t num = 0, len = strlen(wfn) + strlen(rfn) + 32;
	for (size_t i = 0; i < p->nsock && !num; i++)
		if (p->ends[i].w == rk && p->ends[i].r == wk)
			num = p->ends[i].num;
	if (!num) { /* a new connection: past the others' numbers */
		size_t top = 0;
		for (size_t i = 0; i < p->nsock; i++)
			if ((strcmp(p->ends[i].wfn, wfn) == 0 && strcmp(p->ends[i].rfn, rfn) == 0) ||
			    (strcmp(p->ends[i].wfn, rfn) == 0 && strcmp(p->ends[i].rfn, wfn) == 0))
				top = p->ends[i].num > top ? p->ends[i].num : top;
		num = top + 1;
	}
	char *s = malloc(len);
	char **a = realloc(p->names, (p->nsock + 1) * sizeof *a);
	if (a)
		p->names = a;
	struct net_end *e = realloc(p->ends, (p->nsock + 1) * sizeof *e);
	if (e)
		p->ends = e;
	if (!s || !a || !e) {
		free(s);
		return -1;
	}
	for (;; num++) { /* a name taken already (the other direction between two goroutines of one
			    function, or names joined at an underscore: a_b + c, a + b_c): the next number */
		if (num == 1)
			snprintf(s, len, "net_%s_%s", wfn, rfn);
		else
			snprintf(s, len, "net_%s_%s_%zu", wfn, rfn, num);
		size_t i = 0;
		while (i < p->nsock && strcmp(p->names[i], s) != 0)
			i++;
		if (i == p->nsock)
			break;
	}
	p->ends[p->nsock] = (struct net_end){ wk, rk, wfn, rfn, num };
	p->names[p->nsock++] = s;
	return 0;
}

static int add_asg(struct net_asg **a, size_t *n, size_t *cap, size_t k, long ord, size_t sock)
{
	if (grow((void **)a, cap, *n, sizeof **a))
		return -1;
	(*a)[(*n)++] = (struct net_asg){ k, ord, sock };
	return 0;
}

/* The writers in wait w's window (the last PAIR_SCAN writes before its
 * wake, after its lo), each once, counted in cnt (by goroutine). */
static void count_writers(const struct net_log *l, const struct net_wait *w, long *cnt, size_t *seen, size_t ng)
{
	size_t nseen = 0;
	for (size_t i = writes_upto(l, w->wake), n = 0; i-- > 0 && n < PAIR_SCAN && l->wr[i].ns > w->lo; n++) {
		size_t k = l->wr[i].k;
		if (k == w->k || k >= ng)
			continue;
		size_t j = 0;
		while (j < nseen && seen[j] != k)
			j++;
		if (j < nseen)
			continue;
		if (nseen < PAIR_SCAN)
			seen[nseen++] = k;
		cnt[k]++;
	}
}

/* The index of writer k's last write in wait w's window, or -1. */
static long partner_write(const struct net_log *l, const struct net_wait *w, size_t k)
{
	for (size_t i = writes_upto(l, w->wake), n = 0; i-- > 0 && n < PAIR_SCAN && l->wr[i].ns > w->lo; n++)
		if (l->wr[i].k == k)
			return (long)i;
	return -1;
}

int net_pair(const struct net_log *l, const char *const *fn, size_t ng, struct net_pairs *p)
{
	*p = (struct net_pairs){ 0 };
	size_t caprd = 0, capwr = 0, seen[PAIR_SCAN];
	struct net_wait *w = l->nw ? malloc(l->nw * sizeof *w) : NULL;
	long *cnt = ng ? calloc(ng, sizeof *cnt) : NULL;
	int rc = (l->nw && !w) || (ng && !cnt) ? -1 : 0;
	if (rc == 0 && l->nw) {
		memcpy(w, l->w, l->nw * sizeof *w);
		qsort(w, l->nw, sizeof *w, by_reader);
	}
	for (size_t i = 0, j; rc == 0 && i < l->nw; i = j) {
		size_t r = w[i].k;
		for (j = i; j < l->nw && w[j].k == r; j++)
			count_writers(l, &w[j], cnt, seen, ng);
		size_t best = ng;
		for (size_t k = 0; k < ng; k++) {
			if (cnt[k] > 0 && fn[k] && (best == ng || cnt[k] > cnt[best]))
				best = k;
		}
		int paired = r < ng && fn[r] && best < ng && (size_t)cnt[best] * 2 >= j - i;
		memset(cnt, 0, ng * sizeof *cnt);
		if (!paired)
			continue;
		if (new_sock(p, best, fn[best], r, fn[r]) != 0) {
			rc = -1;
			break;
		}
		for (size_t m = i; m < j && rc == 0; m++) {
			long at = partner_write(l, &w[m], best);
			if (at >= 0)
				rc = add_asg(&p->rd, &p->nrd, &caprd, r, w[m].ord, p->nsock - 1) ||
				     add_asg(&p->wr, &p->nwr, &capwr, best, l->wr[at].ord, p->nsock - 1);
		}
	}
	free(w);
	free(cnt);
	for (size_t i = 0; i < p->nsock; i++)
		p->ends[i].wfn = p->ends[i].rfn = NULL; /* the caller's, for new_sock only */
	if (rc != 0) {
		net_pairs_free(p);
		return -1;
	}
	if (p->nrd)
		qsort(p->rd, p->nrd, sizeof *p->rd, by_k_ord);
	if (p->nwr)
		qsort(p->wr, p->nwr, sizeof *p->wr, by_k_ord);
	return 0;
}

/* The first entry of a (n, sorted) for k, ord, or -1. */
static long find(const struct net_asg *a, size_t n, size_t k, long ord)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a[mid].k < k || (a[mid].k == k && a[mid].ord < ord))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && a[lo].k == k && a[lo].ord == ord ? (long)lo : -1;
}

long net_read_sock(const struct net_pairs *p, size_t k, long ord)
{
	long i = find(p->rd, p->nrd, k, ord);
	return i < 0 ? -1 : (long)p->rd[i].sock;
}

long net_write_first(const struct net_pairs *p, size_t k, long ord) { return find(p->wr, p->nwr, k, ord); }

void net_pairs_free(struct net_pairs *p)
{
	for (size_t i = 0; i < p->nsock; i++)
		free(p->names[i]);
	free(p->names);
	free(p->ends);
	free(p->rd);
	free(p->wr);
	*p = (struct net_pairs){ 0 };
}
