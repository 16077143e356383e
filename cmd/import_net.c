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

/* The index past the last write at or before t among a[0..n) (in time order). */
static size_t upto(const int64_t *a, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a[mid] <= t)
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

static int by_size(const void *a, const void *b)
{
	const size_t *x = a, *y = b;
	return (*x > *y) - (*x < *y);
}

/* A string table (open addressing, FNV-1a): key -> num, for the names
 * taken and each pair of functions' highest connection number. */
struct strtab { struct { char *key; size_t num; } *e; size_t n, cap; };

static size_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return (size_t)h;
}

/* The slot of key in t (its key NULL where key is not in t). */
static size_t tab_slot(const struct strtab *t, const char *key)
{
	size_t i = str_hash(key) & (t->cap - 1);
	while (t->e[i].key && strcmp(t->e[i].key, key) != 0)
		i = (i + 1) & (t->cap - 1);
	return i;
}

static size_t *tab_find(const struct strtab *t, const char *key)
{
	if (!t->cap)
		return NULL;
	size_t i = tab_slot(t, key);
	return t->e[i].key ? &t->e[i].num : NULL;
}

/* Put key (a copy) -> num; 0, or -1 out of memory. */
static int tab_put(struct strtab *t, const char *key, size_t num)
{
	size_t *v = tab_find(t, key);
	if (v) {
		*v = num;
		return 0;
	}
	if (2 * (t->n + 1) > t->cap) {
		struct strtab b = { calloc(t->cap ? 2 * t->cap : 64, sizeof *b.e), t->n, t->cap ? 2 * t->cap : 64 };
		if (!b.e)
			return -1;
		for (size_t i = 0; i < t->cap; i++)
			if (t->e[i].key)
				b.e[tab_slot(&b, t->e[i].key)] = t->e[i];
		free(t->e);
		*t = b;
	}
	char *c = strdup(key);
	if (!c)
		return -1;
	size_t i = tab_slot(t, key);
	t->e[i].key = c;
	t->e[i].num = num;
	t->n++;
	return 0;
}

static void tab_free(struct strtab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->e[i].key);
	free(t->e);
	*t = (struct strtab){ 0 };
}

/* The work of net_pair: the writes indexed per goroutine, the sockets'
 * names taken, the functions' pairs' numbers. */
struct pairing {
	const struct net_log *l;
	const char *const *fn;
	size_t ng;
	size_t *woff;         /* goroutine k's writes: wt[woff[k] .. woff[k + 1]) */
	int64_t *wt;          /* their times, in time order */
	long *word;           /* their ords */
	int64_t *at;          /* all writes' times, in time order */
	long *rsock;          /* the socket goroutine k reads, or -1 */
	struct strtab names;  /* the names taken */
	struct strtab top;    /* "A\nB" (A <= B): the highest number of functions A, B's connections */
};

/* Index l's writes by goroutine (a stable counting sort: each one's in time order). */
static int index_writes(struct pairing *pg)
{
	const struct net_log *l = pg->l;
	pg->woff = calloc(pg->ng + 2, sizeof *pg->woff);
	pg->wt = malloc((l->nwr + 1) * sizeof *pg->wt);
	pg->word = malloc((l->nwr + 1) * sizeof *pg->word);
	pg->at = malloc((l->nwr + 1) * sizeof *pg->at);
	if (!pg->woff || !pg->wt || !pg->word || !pg->at)
		return -1;
	for (size_t i = 0; i < l->nwr; i++)
		pg->at[i] = l->wr[i].ns;
	for (size_t i = 0; i < l->nwr; i++)
		if (l->wr[i].k < pg->ng)
			pg->woff[l->wr[i].k + 2]++;
	for (size_t k = 0; k < pg->ng; k++)
		pg->woff[k + 2] += pg->woff[k + 1];
	for (size_t i = 0; i < l->nwr; i++) /* woff[k + 1]: the next slot of k */
		if (l->wr[i].k < pg->ng) {
			size_t j = pg->woff[l->wr[i].k + 1]++;
			pg->wt[j] = l->wr[i].ns;
			pg->word[j] = l->wr[i].ord;
		}
	return 0;
}

/* The index in wt of writer k's last write in wait w's window (w->lo, w->wake], or -1. */
static long partner_write(const struct pairing *pg, const struct net_wait *w, size_t k)
{
	size_t a = pg->woff[k], n = pg->woff[k + 1] - a, i = upto(pg->wt + a, n, w->wake);
	return i > 0 && pg->wt[a + i - 1] > w->lo ? (long)(a + i - 1) : -1;
}

/* The waits of w[0..n) (one reader's) with a write of k in their window. */
static size_t score(const struct pairing *pg, const struct net_wait *w, size_t n, size_t k)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += partner_write(pg, &w[i], k) >= 0;
	return c;
}

/* A writer-reader relation: r's waits with a write of w in their window. */
struct cand { size_t r, w, score, nw; };

/* The candidates of reader w[0].k (its waits w[0..n)): the writers among
 * the WINDOW_SCAN writes nearest the wake in each of its WINDOWS_SCANNED
 * windows with the fewest writes (its partner, having
 * written in each window, is in those too), each scored over all of its
 * waits; those in at least half of them are appended to *c. 0, or -1 out
 * of memory. */
static int reader_cands(const struct pairing *pg, const struct net_wait *w, size_t n, struct cand **c, size_t *nc,
			size_t *capc)
{
	const struct net_log *l = pg->l;
	const int64_t *at = pg->at;
	size_t r = w[0].k, nwin = n < WINDOWS_SCANNED ? n : WINDOWS_SCANNED, nk = 0, tot = 0;
	size_t *by = malloc(n * 2 * sizeof *by), *k = NULL;
	if (!by)
		return -1;
	for (size_t i = 0; i < n; i++) { /* (size, i) pairs: the smallest windows first */
		size_t hi = upto(at, l->nwr, w[i].wake), lo = upto(at, l->nwr, w[i].lo);
		by[2 * i] = hi > lo ? hi - lo : 0;
		by[2 * i + 1] = i;
	}
	qsort(by, n, 2 * sizeof *by, by_size);
	if (by[0] > WINDOW_SCAN) /* no window the scan sees whole: no candidate it can trust */
		nwin = 0;
	for (size_t j = 0; j < nwin; j++)
		tot += by[2 * j] < WINDOW_SCAN ? by[2 * j] : WINDOW_SCAN;
	if (tot && !(k = malloc(tot * sizeof *k))) {
		free(by);
		return -1;
	}
	for (size_t j = 0; j < nwin; j++) {
		const struct net_wait *x = &w[by[2 * j + 1]];
		size_t lo = upto(at, l->nwr, x->lo);
		for (size_t i = upto(at, l->nwr, x->wake), m = 0; i-- > lo && m < WINDOW_SCAN; m++)
			if (l->wr[i].k != r && l->wr[i].k < pg->ng && pg->fn[l->wr[i].k])
				k[nk++] = l->wr[i].k;
	}
	free(by);
	if (nk)
		qsort(k, nk, sizeof *k, by_size);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < nk; i++) {
		if (i > 0 && k[i] == k[i - 1])
			continue;
		size_t sc = score(pg, w, n, k[i]);
		if (sc * 2 < n)
			continue;
		rc = grow((void **)c, capc, *nc, sizeof **c);
		if (rc == 0)
			(*c)[(*nc)++] = (struct cand){ r, k[i], sc, n };
	}
	free(k);
	return rc;
}

/* A new socket from goroutine wk (function wfn) to rk (rfn): net_W_R,
 * then _2, _3, ... for each further pair of goroutines of those two
 * functions, a connection's two directions under one number (the pair
 * rk -> wk's, when it has one). */
static int new_sock(struct net_pairs *p, struct pairing *pg, size_t wk, const char *wfn, size_t rk, const char *rfn)
{
	size_t num, len = strlen(wfn) + strlen(rfn) + 32;
	long back = pg->rsock[wk];
	char *s = malloc(len), *key = malloc(len);
	char **a = realloc(p->names, (p->nsock + 1) * sizeof *a);
	if (a)
		p->names = a;
	struct net_end *e = realloc(p->ends, (p->nsock + 1) * sizeof *e);
	if (e)
		p->ends = e;
	if (!s || !key || !a || !e)
		goto fail;
	int lt = strcmp(wfn, rfn) <= 0;
	snprintf(key, len, "%s\x01%s", lt ? wfn : rfn, lt ? rfn : wfn);
	size_t *top = tab_find(&pg->top, key);
	if (back >= 0 && p->ends[back].w == rk)
		num = p->ends[back].num;
	else /* a new connection: past the others' numbers */
		num = (top ? *top : 0) + 1;
	for (;; num++) { /* a name taken already (the other direction between two goroutines of one
			    function, or names joined at an underscore: a_b + c, a + b_c): the next number */
		if (num == 1)
			snprintf(s, len, "net_%s_%s", wfn, rfn);
		else
			snprintf(s, len, "net_%s_%s_%zu", wfn, rfn, num);
		if (!tab_find(&pg->names, s))
			break;
	}
	if (tab_put(&pg->names, s, 0) || tab_put(&pg->top, key, top && *top > num ? *top : num))
		goto fail;
	free(key);
	pg->rsock[rk] = (long)p->nsock;
	p->ends[p->nsock] = (struct net_end){ wk, rk, num };
	p->names[p->nsock++] = s;
	return 0;
fail:
	free(s);
	free(key);
	return -1;
}

static int add_asg(struct net_asg **a, size_t *n, size_t *cap, size_t k, long ord, size_t sock)
{
	if (grow((void **)a, cap, *n, sizeof **a))
		return -1;
	(*a)[(*n)++] = (struct net_asg){ k, ord, sock };
	return 0;
}

static int by_rw(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	if (x->r != y->r)
		return x->r < y->r ? -1 : 1;
	return (x->w > y->w) - (x->w < y->w);
}

/* The candidate (r, w) of c[0..n) (sorted by_rw), or NULL. */
static const struct cand *find_cand(const struct cand *c, size_t n, size_t r, size_t w)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c[mid].r < r || (c[mid].r == r && c[mid].w < w))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && c[lo].r == r && c[lo].w == w ? &c[lo] : NULL;
}

/* A connection: goroutines a < b, each reading the other's writes; its
 * fit: the share of a's waits with a write of b in them plus b's. */
struct conn { size_t a, b; double fit; };

static int by_fit(const void *x, const void *y)
{
	const struct conn *c = x, *d = y;
	if (c->fit != d->fit)
		return c->fit > d->fit ? -1 : 1;
	if (c->a != d->a)
		return c->a < d->a ? -1 : 1;
	return (c->b > d->b) - (c->b < d->b);
}

/* Each goroutine's mate: the connections among candidates c[0..nc)
 * (sorted by_rw), taken best fit first, each goroutine in one; where two
 * connections of one goroutine fit equally well, neither (the timing
 * cannot tell them apart), and their goroutines are in none (NO_MATE).
 * FREE: in no connection. 0, or -1 out of memory. */
#define FREE(ng) (ng)
#define NO_MATE(ng) ((ng) + 1)
static int match_conns(const struct cand *c, size_t nc, size_t ng, size_t *mate)
{
	struct conn *cn = nc ? malloc(nc * sizeof *cn) : NULL;
	size_t n = 0, *deg = calloc(ng + 1, sizeof *deg);
	if ((nc && !cn) || !deg) {
		free(cn);
		free(deg);
		return -1;
	}
	for (size_t i = 0; i < nc; i++) {
		const struct cand *back = c[i].r < c[i].w ? find_cand(c, nc, c[i].w, c[i].r) : NULL;
		if (back)
			cn[n++] = (struct conn){ c[i].r, c[i].w,
						 (double)c[i].score / (double)c[i].nw + (double)back->score / (double)back->nw };
	}
	if (n)
		qsort(cn, n, sizeof *cn, by_fit);
	for (size_t k = 0; k < ng; k++)
		mate[k] = FREE(ng);
	for (size_t i = 0, j; i < n; i = j) { /* each run of equal fit: its free goroutines' connections in it */
		for (j = i; j < n && cn[j].fit == cn[i].fit; j++)
			if (mate[cn[j].a] == FREE(ng) && mate[cn[j].b] == FREE(ng))
				deg[cn[j].a]++, deg[cn[j].b]++;
		for (size_t x = i; x < j; x++) {
			size_t a = cn[x].a, b = cn[x].b;
			if (mate[a] != FREE(ng) || mate[b] != FREE(ng) || !deg[a] || !deg[b])
				continue;
			if (deg[a] == 1 && deg[b] == 1)
				mate[a] = b, mate[b] = a;
		}
		for (size_t x = i; x < j; x++) { /* the rest of the run: ties */
			size_t a = cn[x].a, b = cn[x].b;
			if (deg[a] > 1 && mate[a] == FREE(ng))
				mate[a] = NO_MATE(ng);
			if (deg[b] > 1 && mate[b] == FREE(ng))
				mate[b] = NO_MATE(ng);
			deg[a] = deg[b] = 0;
		}
	}
	free(cn);
	free(deg);
	return 0;
}

/* Reader r's partner (ng: none) among its candidates c[0..n): its mate;
 * if it is FREE, the one FREE too whose writes are in the most of its
 * waits, unless another's are in as many. */
static size_t partner(const struct cand *c, size_t n, const size_t *mate, size_t ng, size_t r)
{
	if (mate[r] != FREE(ng))
		return mate[r] < ng ? mate[r] : ng;
	size_t best = n, tie = 0;
	for (size_t i = 0; i < n; i++) {
		if (mate[c[i].w] != FREE(ng))
			continue;
		if (best == n || c[i].score > c[best].score)
			best = i, tie = 0;
		else if (c[i].score == c[best].score)
			tie = 1;
	}
	return best < n && !tie ? c[best].w : ng;
}

int net_pair(const struct net_log *l, const char *const *fn, size_t ng, struct net_pairs *p)
{
	*p = (struct net_pairs){ 0 };
	struct pairing pg = { .l = l, .fn = fn, .ng = ng };
	size_t caprd = 0, capwr = 0, nc = 0, capc = 0, *mate = malloc((ng + 1) * sizeof *mate);
	struct cand *c = NULL;
	struct net_wait *w = l->nw ? malloc(l->nw * sizeof *w) : NULL;
	pg.rsock = malloc((ng + 1) * sizeof *pg.rsock);
	int rc = (l->nw && !w) || !mate || !pg.rsock || index_writes(&pg) ? -1 : 0;
	for (size_t k = 0; rc == 0 && k < ng; k++)
		pg.rsock[k] = -1;
	if (rc == 0 && l->nw) {
		memcpy(w, l->w, l->nw * sizeof *w);
		qsort(w, l->nw, sizeof *w, by_reader);
	}
	for (size_t i = 0, j; rc == 0 && i < l->nw; i = j) { /* each reader's candidates */
		for (j = i; j < l->nw && w[j].k == w[i].k; j++)
			;
		if (w[i].k < ng && fn[w[i].k])
			rc = reader_cands(&pg, &w[i], j - i, &c, &nc, &capc);
	}
	if (rc == 0 && nc)
		qsort(c, nc, sizeof *c, by_rw); /* each reader's in a row, in reader order */
	if (rc == 0)
		rc = match_conns(c, nc, ng, mate);
	for (size_t i = 0, j, ci = 0, cj; rc == 0 && i < l->nw; i = j) {
		size_t r = w[i].k;
		for (j = i; j < l->nw && w[j].k == r; j++)
			;
		while (ci < nc && c[ci].r < r)
			ci++;
		for (cj = ci; cj < nc && c[cj].r == r; cj++)
			;
		size_t best = cj > ci ? partner(&c[ci], cj - ci, mate, ng, r) : ng;
		if (best >= ng)
			continue;
		if (new_sock(p, &pg, best, fn[best], r, fn[r]) != 0) {
			rc = -1;
			break;
		}
		for (size_t m = i; m < j && rc == 0; m++) {
			long at = partner_write(&pg, &w[m], best);
			if (at >= 0)
				rc = add_asg(&p->rd, &p->nrd, &caprd, r, w[m].ord, p->nsock - 1) ||
				     add_asg(&p->wr, &p->nwr, &capwr, best, pg.word[at], p->nsock - 1);
		}
	}
	free(w);
	free(c);
	free(mate);
	free(pg.woff);
	free(pg.wt);
	free(pg.word);
	free(pg.at);
	free(pg.rsock);
	tab_free(&pg.names);
	tab_free(&pg.top);
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
