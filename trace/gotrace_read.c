/* gotrace_read.c: the Go execution trace v2 reader (gotrace_read.h). */
#include "gotrace_read.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The argument count of each event type, from the shared table; 0: unknown. */
#define NARGS(name, num, n) [num] = n + 1,
static const uint8_t nargs1[EV__MAX] = { GOTRACE_EVENTS(NARGS) }; /* +1: known */
#undef NARGS

struct rd {
	const uint8_t *b;
	size_t n, pos, end; /* end: the current batch's end */
	struct gtr_trace *t;
	char *err;
	size_t errn;
	int failed;
	size_t cap_ev, cap_str, cap_stk;
};

static int bad(struct rd *r, size_t off, const char *fmt, ...)
{
	if (r->failed)
		return -1;
	r->failed = 1;
	int k = snprintf(r->err, r->errn, "offset %zu: ", off);
	if (k >= 0 && (size_t)k < r->errn) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(r->err + k, r->errn - (size_t)k, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A uvarint within the current batch (encoding/binary.ReadUvarint). */
static int uv(struct rd *r, uint64_t *v)
{
	uint64_t x = 0;
	size_t start = r->pos;
	for (unsigned s = 0; s < 70; s += 7) {
		if (r->pos >= r->end)
			return bad(r, start, r->end == r->n ? "truncated: the file ends inside a number" :
						  "a number runs past the end of its batch");
		uint8_t c = r->b[r->pos++];
		if (s == 63 && c > 1)
			return bad(r, start, "a number overflows 64 bits");
		x |= (uint64_t)(c & 0x7f) << s;
		if (c < 0x80) {
			*v = x;
			return 0;
		}
	}
	return bad(r, start, "a number longer than 10 bytes");
}

static int grow(void *pa, size_t *cap, size_t need, size_t size)
{
	void **a = pa;
	if (need < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : 256;
	if (c <= need || c > SIZE_MAX / size)
		return -1;
	void *p = realloc(*a, c * size);
	if (!p)
		return -1;
	*a = p;
	*cap = c;
	return 0;
}

static int read_string(struct rd *r, uint64_t gen)
{
	size_t at = r->pos;
	uint64_t id, len;
	if (uv(r, &id) || uv(r, &len))
		return -1;
	if (len > GOTRACE_MAX_STRING)
		return bad(r, at, "a string of %" PRIu64 " bytes (at most %d)", len, GOTRACE_MAX_STRING);
	if (len > r->end - r->pos)
		return bad(r, r->pos, "truncated: a string runs past the end of its batch");
	struct gtr_trace *t = r->t;
	if (grow(&t->str, &r->cap_str, t->nstr, sizeof *t->str))
		return bad(r, at, "out of memory");
	char *s = malloc((size_t)len + 1);
	if (!s)
		return bad(r, at, "out of memory");
	memcpy(s, r->b + r->pos, (size_t)len);
	s[len] = 0;
	r->pos += (size_t)len;
	t->str[t->nstr++] = (struct gtr_string){ gen, id, s };
	return 0;
}

static int read_stack(struct rd *r, uint64_t gen)
{
	size_t at = r->pos;
	uint64_t id, nf, v, func[GTR_FRAMES] = { 0 };
	if (uv(r, &id) || uv(r, &nf))
		return -1;
	if (nf > GOTRACE_MAX_FRAMES)
		return bad(r, at, "a stack of %" PRIu64 " frames (at most %d)", nf, GOTRACE_MAX_FRAMES);
	for (uint64_t i = 0; i < nf * 4; i++) {
		if (uv(r, &v))
			return -1;
		if (i % 4 == 1 && i / 4 < GTR_FRAMES)
			func[i / 4] = v; /* each frame: pc, func, file, line */
	}
	struct gtr_trace *t = r->t;
	if (grow(&t->stk, &r->cap_stk, t->nstk, sizeof *t->stk))
		return bad(r, at, "out of memory");
	struct gtr_stack *k = &t->stk[t->nstk++];
	*k = (struct gtr_stack){ .gen = gen, .id = id, .nf = nf < GTR_FRAMES ? (unsigned)nf : GTR_FRAMES };
	memcpy(k->func, func, sizeof func);
	return 0;
}

/* The events of one batch, r->pos .. r->end. */
static int read_events(struct rd *r, uint64_t gen, uint64_t m, uint64_t time)
{
	struct gtr_trace *t = r->t;
	uint64_t ts = time;
	while (r->pos < r->end) {
		size_t at = r->pos;
		uint8_t type = r->b[r->pos++];
		if (type >= EV__MAX || !nargs1[type] || type == EV_EVENT_BATCH || type == EV_EXPERIMENTAL_BATCH)
			return bad(r, at, "unknown event type %u", type);
		if (type == EV_STRINGS || type == EV_STACKS) {
			continue; /* a table section: its entries follow */
		}
		if (type == EV_STRING) {
			if (read_string(r, gen))
				return -1;
			continue;
		}
		if (type == EV_STACK) {
			if (read_stack(r, gen))
				return -1;
			continue;
		}
		uint64_t a[6] = { 0 };
		int na = nargs1[type] - 1;
		for (int i = 0; i < na; i++)
			if (uv(r, &a[i]))
				return -1;
		if (type == EV_FREQUENCY) {
			if (a[0] == 0)
				return bad(r, at, "a frequency of 0");
			t->freq = a[0];
			continue;
		}
		if (type == EV_CPU_SAMPLES || type == EV_CPU_SAMPLE)
			continue;
		if (a[0] > UINT64_MAX - ts)
			return bad(r, at, "a timestamp overflows");
		ts += a[0];
		if (grow(&t->ev, &r->cap_ev, t->nev, sizeof *t->ev))
			return bad(r, at, "out of memory");
		struct gtr_event *e = &t->ev[t->nev++];
		*e = (struct gtr_event){ .m = m, .gen = gen, .raw_ts = ts, .off = at, .type = type };
		memcpy(e->arg, a + 1, sizeof e->arg);
	}
	return 0;
}

static int read_batch(struct rd *r)
{
	size_t at = r->pos;
	uint8_t type = r->b[r->pos++];
	if (type != EV_EVENT_BATCH && type != EV_EXPERIMENTAL_BATCH)
		return bad(r, at, "expected a batch, found event type %u", type);
	r->end = r->n;
	if (type == EV_EXPERIMENTAL_BATCH) {
		if (r->pos >= r->n)
			return bad(r, r->pos, "truncated: the file ends inside a batch header");
		r->pos++; /* the experiment */
	}
	uint64_t gen, m, time, size;
	if (uv(r, &gen) || uv(r, &m) || uv(r, &time) || uv(r, &size))
		return -1;
	if (size > r->n - r->pos)
		return bad(r, at, "truncated: a batch of %" PRIu64 " bytes, %zu left in the file", size, r->n - r->pos);
	if (size > GOTRACE_MAX_BATCH)
		return bad(r, at, "a batch of %" PRIu64 " bytes (at most %d)", size, GOTRACE_MAX_BATCH);
	if (gen == 0)
		return bad(r, at, "generation 0");
	if (gen > r->t->ngen)
		r->t->ngen = gen;
	r->end = r->pos + (size_t)size;
	if (type == EV_EXPERIMENTAL_BATCH) {
		r->pos = r->end; /* skipped: allocation experiments */
		return 0;
	}
	return read_events(r, gen, m, time);
}

static int by_time(const void *a, const void *b)
{
	const struct gtr_event *x = a, *y = b;
	if (x->raw_ts != y->raw_ts)
		return x->raw_ts < y->raw_ts ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int by_key(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b; /* gen, id */
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

int gotrace_read(const uint8_t *buf, size_t n, struct gtr_trace *t, char *err, size_t errn)
{
	memset(t, 0, sizeof *t);
	struct rd r = { .b = buf, .n = n, .t = t, .err = err, .errn = errn };
	if (n < 16 || memcmp(buf, "go 1.", 5) != 0 || memcmp(buf + 7, " trace\0\0\0", 9) != 0 ||
	    (memcmp(buf + 5, "22", 2) != 0 && memcmp(buf + 5, "23", 2) != 0 && memcmp(buf + 5, "24", 2) != 0 &&
	     memcmp(buf + 5, "25", 2) != 0)) {
		bad(&r, 0, n < 16 ? "truncated: not a Go execution trace (no 16-byte header)" :
			"not a Go 1.22-1.25 execution trace (header \"go 1.2x trace\")");
		gtr_free(t);
		return -1;
	}
	r.pos = 16;
	while (r.pos < n)
		if (read_batch(&r)) {
			gtr_free(t);
			return -1;
		}
	if (!t->freq) {
		bad(&r, n, "no frequency batch");
		gtr_free(t);
		return -1;
	}
	if (t->nev == 0) {
		bad(&r, n, "no events");
		gtr_free(t);
		return -1;
	}
	qsort(t->ev, t->nev, sizeof *t->ev, by_time);
	uint64_t t0 = t->ev[0].raw_ts;
	for (size_t i = 0; i < t->nev; i++) {
		double ns = (double)(t->ev[i].raw_ts - t0) * 1e9 / (double)t->freq + 0.5;
		if (ns > 9e18) { /* past int64 ns: 292 years */
			bad(&r, t->ev[i].off, "a timestamp %.3g s after the trace's first", ns / 1e9);
			gtr_free(t);
			return -1;
		}
		t->ev[i].ns = (int64_t)ns;
	}
	qsort(t->str, t->nstr, sizeof *t->str, by_key);
	qsort(t->stk, t->nstk, sizeof *t->stk, by_key);
	return 0;
}

const char *gtr_string(const struct gtr_trace *t, uint64_t gen, uint64_t id)
{
	uint64_t key[2] = { gen, id };
	const struct gtr_string *s = bsearch(key, t->str, t->nstr, sizeof *t->str, by_key);
	return s ? s->s : NULL;
}

const char *gtr_stack_frame(const struct gtr_trace *t, uint64_t gen, uint64_t id, unsigned k)
{
	uint64_t key[2] = { gen, id };
	const struct gtr_stack *s = bsearch(key, t->stk, t->nstk, sizeof *t->stk, by_key);
	return s && k < s->nf ? gtr_string(t, gen, s->func[k]) : NULL;
}

const char *gtr_stack_func(const struct gtr_trace *t, uint64_t gen, uint64_t id)
{
	return gtr_stack_frame(t, gen, id, 0);
}

void gtr_free(struct gtr_trace *t)
{
	for (size_t i = 0; i < t->nstr; i++)
		free(t->str[i].s);
	free(t->str);
	free(t->stk);
	free(t->ev);
	memset(t, 0, sizeof *t);
}
