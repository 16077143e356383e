/* trace.c: the writer: picks a back end, owns the output, and builds the
 * metadata every back end opens with (see trace.h, backend.h). */
#include "trace.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../sim/workload.h"
#include "backend.h"

#define TRACE_OPS_REF(up, name) &trace_##name##_ops,
static const struct trace_ops *const backends[TRACE__N] = { TRACE_FORMATS(TRACE_OPS_REF) };
#undef TRACE_OPS_REF

struct trace_writer {
	struct trace_out out;
	const struct trace_ops *ops;
	void *st;
};

const char tr_digits2[220] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
			     "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
			     "8081828384858687888990919293949596979899"
			     "0,1,2,3,4,5,6,7,8,9,"; /* a one-digit window's digit and comma (window) */

/* "0000" .. "9999", 4 bytes each, as nested string concatenations */
#define TR_D1(p) p "0" p "1" p "2" p "3" p "4" p "5" p "6" p "7" p "8" p "9"
#define TR_D2(p) TR_D1(p "0") TR_D1(p "1") TR_D1(p "2") TR_D1(p "3") TR_D1(p "4") TR_D1(p "5") TR_D1(p "6") \
	TR_D1(p "7") TR_D1(p "8") TR_D1(p "9")
#define TR_D3(p) TR_D2(p "0") TR_D2(p "1") TR_D2(p "2") TR_D2(p "3") TR_D2(p "4") TR_D2(p "5") TR_D2(p "6") \
	TR_D2(p "7") TR_D2(p "8") TR_D2(p "9")
const char tr_digits4[40000] = TR_D3("0") TR_D3("1") TR_D3("2") TR_D3("3") TR_D3("4") TR_D3("5") TR_D3("6")
	TR_D3("7") TR_D3("8") TR_D3("9");

int tr_frags_set(struct tr_frags *t, int n, const char *(*name)(int), const char *pre, const char *post)
{
	size_t a = strlen(pre), c = strlen(post);
	for (int i = 0; i < 256; i++) {
		const char *s = name(i < n ? i : n);
		size_t b = strlen(s);
		struct tr_frag *f = &t->f[i];
		if (a + b + c > sizeof f->s)
			return -1;
		memset(f, 0, sizeof *f);
		memcpy(f->s, pre, a);
		memcpy(f->s + a, s, b);
		memcpy(f->s + a + b, post, c);
		f->len = (uint8_t)(a + b + c);
	}
	return 0;
}

/* The pair table's slots, each size bytes: the text, its length last. */
static int pair_set(char *slots, size_t size, int n, const char *(*name)(int), const char *pre, const char *mid,
		    const char *post)
{
	for (int i = 0; i < 256; i++) {
		const char *a = name(i >> 4 < n ? i >> 4 : n), *b = name((i & 15) < n ? i & 15 : n);
		char *f = slots + (size_t)i * size;
		int len = snprintf(f, size, "%s%s%s%s%s", pre, a, mid, b, post);
		if (len < 0 || (size_t)len >= size)
			return -1;
		f[size - 1] = (char)len;
	}
	return 0;
}

int tr_frags_pair(struct tr_frags *t, int n, const char *(*name)(int), const char *pre, const char *mid,
		  const char *post)
{
	memset(t, 0, sizeof *t);
	return pair_set((char *)t->f, sizeof t->f[0], n, name, pre, mid, post);
}

int tr_frags48_pair(struct tr_frags48 *t, int n, const char *(*name)(int), const char *pre, const char *mid,
		    const char *post)
{
	memset(t, 0, sizeof *t);
	return pair_set((char *)t->f, sizeof t->f[0], n, name, pre, mid, post);
}

int tr_tseq_init(struct tr_tseq *c, const char *pre, const char *mid, const char *post)
{
	size_t a = strlen(pre), b = strlen(mid), d = strlen(post);
	if (a > TR_TSEQ_PRE || b > TR_TSEQ_PRE || d > TR_TSEQ_PRE)
		return -1;
	*c = (struct tr_tseq){ .npre = (uint8_t)a, .nmid = (uint8_t)b, .npost = (uint8_t)d };
	memcpy(c->pre, pre, a);
	memcpy(c->mid, mid, b);
	memcpy(c->post, post, d);
	return 0;
}

/* The window of values whose text is v's but for its last two digits
 * (struct tr_tseq): v's hundred, from 100 on (never past max), or 10..99,
 * or 0..9, whose two bytes are the digit and the comma after it
 * (tr_digits2's tail: base is 0 - 100, so u - base is u + 100; valid only
 * where a comma or the text's end follows, which tr_tseq_put_slow checks;
 * a seed-model fan-out's records all have t = 0). at is where v's text
 * (len digits) begins; the two bytes of a value u in the window are
 * tr_digits2[2 * (u - base)]. */
static void window(uint64_t v, uint64_t max, int at, int len, uint64_t *lo, uint64_t *n, uint8_t *dig_at,
		   uint64_t *base)
{
	*lo = *base = v;
	*n = 0;
	*dig_at = (uint8_t)at;
	if (v >= 100) {
		*lo = *base = v - v % 100;
		*n = max - *lo < 100 ? max - *lo + 1 : 100;
		*dig_at = (uint8_t)(at + len - 2);
	} else if (v >= 10) {
		*lo = 10;
		*n = 90;
		*base = 0;
	} else {
		*lo = 0;
		*n = 10;
		*base = UINT64_C(0) - 100;
	}
}

/* A one-digit window is kept only where what follows the digit is a comma
 * or nothing (the text's end: what the copy writes past it, the caller
 * overwrites). */
static void one_digit_follows(const struct tr_tseq *c, uint8_t at, uint64_t base, uint64_t *n)
{
	if (base == UINT64_C(0) - 100 && at + 1 < c->len && c->s[at + 1] != ',')
		*n = 0;
}

/* The whole text anew (64 bytes hold any t and seq, 19 and 20 digits at
 * most, with three texts of 8), its windows around t and seq, and the
 * text copied to p (the caller's room covers 64 bytes). */
char *tr_tseq_put_slow(char *p, struct tr_tseq *c, int64_t t, uint64_t seq)
{
	memcpy(c->s, c->pre, TR_TSEQ_PRE);
	char *q = c->s + c->npre, *e = tr_put_i(q, t);
	if (t >= 0)
		window((uint64_t)t, INT64_MAX, (int)(q - c->s), (int)(e - q), &c->t_lo, &c->t_n, &c->t_at, &c->t_base);
	else
		c->t_n = 0;
	memcpy(e, c->mid, TR_TSEQ_PRE);
	q = e + c->nmid;
	e = tr_put_i(q, (int64_t)seq); /* an event count: under 2^63 */
	window(seq, INT64_MAX, (int)(q - c->s), (int)(e - q), &c->seq_lo, &c->seq_n, &c->seq_at, &c->seq_base);
	memcpy(e, c->post, TR_TSEQ_PRE);
	c->len = (uint8_t)(e + c->npost - c->s);
	one_digit_follows(c, c->t_at, c->t_base, &c->t_n);
	one_digit_follows(c, c->seq_at, c->seq_base, &c->seq_n);
	memcpy(p, c->s, 64);
	return p + c->len;
}

int tr_small2_init(struct tr_small2 t[TR_SMALL2 * TR_SMALL2], const char *key)
{
	for (int i = 0; i < TR_SMALL2 * TR_SMALL2; i++) {
		struct tr_small2 *f = &t[i];
		memset(f, 0, sizeof *f);
		int len = snprintf(f->s, sizeof f->s, "%d,%s%d,", (i >> 5) - 1, key, (i & 31) - 1);
		if (len < 0 || (size_t)len >= sizeof f->s)
			return -1;
		f->len = (uint8_t)len;
	}
	return 0;
}

int tr_small_init(struct tr_small t[TR_SMALL], const char *pre)
{
	size_t n = strlen(pre);
	if (n > 2)
		return -1;
	for (int i = 0; i < TR_SMALL; i++) {
		memset(&t[i], 0, sizeof t[i]);
		memcpy(t[i].s, pre, n);
		char *p = tr_put_i(t[i].s + n, i - 1);
		*p++ = ',';
		t[i].len = (uint8_t)(p - t[i].s);
	}
	return 0;
}

void tr_id_init(struct tr_id *c, const char *pre)
{
	size_t n = strlen(pre);
	*c = (struct tr_id){ .npre = (uint8_t)(n < sizeof c->pre ? n : sizeof c->pre) };
	memcpy(c->pre, pre, c->npre);
}

char *tr_id_set(char *p, struct tr_id *c, int64_t v)
{
	memcpy(p, c->pre, sizeof c->pre);
	char *q = p + c->npre, *end = tr_put_i(q, v);
	*end++ = ',';
	size_t n = (size_t)(end - p);
	uint8_t at = 0;
	uint64_t base = 0;
	if (v >= 0 && n <= 16) /* a longer one is not kept: a hit copies 16 bytes */
		window((uint64_t)v, INT64_MAX, (int)(q - p), (int)(end - 1 - q), &c->lo, &c->n, &at, &base);
	else
		c->n = 0;
	if (base != c->lo) /* under 100 (the small table's): no window */
		c->n = 0;
	c->at = at;
	if (c->n) /* a window: n <= 16, within s; else s is never read */
		memcpy(c->s, p, n);
	c->len = (uint8_t)n;
	return end;
}

void tr_ktab_init(struct tr_ktab *t)
{
	for (int i = 0; i < TR_KTAB; i++)
		t->slot[i] = (struct tr_kslot){ .k0 = ~0ULL };
}

void tr_kslot_keep(struct tr_kslot *g, const struct tr_key *k, const char *s, size_t n, size_t most)
{
	if (n > most || n > TR_KTEXT)
		return;
	*g = (struct tr_kslot){ .k0 = k->k0, .k1 = k->k1, .k2 = k->k2, .k3 = k->k3, .len = (uint8_t)n };
	memcpy(g->s, s, n);
}

int trace_out_room(struct trace_out *o, size_t n)
{
	if (n > o->cap / 2) {
		if (n > SIZE_MAX / 2 || trace_out_flush(o) != 0)
			return -1;
		char *b = realloc(o->buf, 2 * n);
		if (!b)
			return -1;
		o->buf = o->at = b;
		o->cap = 2 * n;
		o->end = b + o->cap;
	}
	o->rec = o->end - n;
	return 0;
}

char *trace_record_begin_slow(struct trace_out *o)
{
	return trace_out_flush(o) == 0 && o->at <= o->rec ? o->at : NULL;
}

static void out_failed(struct trace_out *o)
{
	o->failed = 1;
	o->err = errno ? errno : EIO;
}

int trace_out_flush(struct trace_out *o)
{
	size_t len = (size_t)(o->at - o->buf);
	if (!o->failed && len > 0 && fwrite(o->buf, 1, len, o->f) != len)
		out_failed(o);
	o->bytes += (int64_t)len;
	o->at = o->buf;
	return o->failed ? -1 : 0;
}

/* s does not fit in what is left of the buffer: flush, then buffer it or,
 * if it is larger than the buffer, write it through. */
int trace_out_put_slow(struct trace_out *o, const char *s, size_t n)
{
	trace_out_flush(o);
	if (n <= o->cap)
		return trace_out_put(o, s, n);
	if (!o->failed && fwrite(s, 1, n, o->f) != n)
		out_failed(o);
	o->bytes += (int64_t)n;
	return o->failed ? -1 : 0;
}

int64_t trace_bytes(const struct trace_writer *w) { return w ? w->out.bytes + (int64_t)(w->out.at - w->out.buf) : 0; }

const char *trace_error(const struct trace_writer *w) { return w ? w->out.error : NULL; }

int trace_write_errno(const struct trace_writer *w) { return w && w->out.failed ? w->out.err : 0; }

uint64_t trace_hash(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

int trace_meta_init(struct trace_meta *m, const struct program *prog, const struct sim_config *cfg,
		    const char *config_json, uint64_t workload_hash)
{
	*m = (struct trace_meta){ .workload = prog->name, .workload_hash = workload_hash,
				  .config_json = config_json, .cfg = *cfg, .procs = cfg->procs,
				  .nfuncs = prog->nfuncs, .main_fn = prog->main_fn, .nchans = prog->nchans,
				  .chan_names = (const char *const *)prog->chan_names,
				  .nregions = prog->nregions,
				  .region_names = (const char *const *)prog->region_names };
	const char **names = calloc((size_t)prog->nfuncs + 1, sizeof *names);
	if (!names)
		return -1;
	for (int32_t i = 0; i < prog->nfuncs; i++)
		names[i] = prog->funcs[i].name;
	m->func_names = names;
	return 0;
}

void trace_meta_release(struct trace_meta *m)
{
	free((void *)m->func_names);
	m->func_names = NULL;
}

struct trace_writer *trace_open(FILE *f, enum trace_format fmt, const struct trace_meta *meta)
{
	static const struct trace_meta none = { .config_json = "{}" };
	if ((unsigned)fmt >= TRACE__N)
		return NULL;
	struct trace_writer *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->out.f = f;
	w->ops = backends[fmt];
	w->out.buf = w->out.at = malloc(TRACE_BUF);
	w->out.cap = TRACE_BUF;
	w->out.end = w->out.buf ? w->out.buf + TRACE_BUF : NULL;
	w->out.rec = w->out.buf; /* until the back end asks for room */
	w->st = w->out.buf ? w->ops->open(&w->out, meta ? meta : &none) : NULL;
	if (!w->st) {
		free(w->out.buf);
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	return w;
}

int trace_event(struct trace_writer *w, const struct sim_event *e)
{
	if (w->ops->event(w->st, e) != 0 && !w->out.failed && !w->out.error)
		w->out.error = "the trace back end failed";
	if (w->out.error)
		w->out.failed = 1;
	return w->out.failed ? -1 : 0;
}

static int event_any(void *w, const struct sim_event *e) { return trace_event(w, e); }

trace_event_fn trace_event_direct(struct trace_writer *w, void **ctx)
{
	*ctx = w->ops->direct ? w->st : w;
	return w->ops->direct ? w->ops->event : event_any;
}

int trace_finish(struct trace_writer *w, const struct sim_summary *sum)
{
	if (w->ops->close(w->st, sum) != 0)
		w->out.failed = 1;
	if (trace_out_flush(&w->out) != 0 || fflush(w->out.f) != 0)
		w->out.failed = 1;
	return w->out.failed ? -1 : 0;
}

void trace_free(struct trace_writer *w)
{
	if (!w)
		return;
	w->ops->release(w->st);
	/* no flush: without trace_finish the run's trace is not kept, and the
	 * caller may have closed the stream already */
	free(w->out.buf);
	free(w);
}

char *trace_summary_json(const struct sim_summary *sum)
{
	char fp[17];
	snprintf(fp, sizeof fp, "%016" PRIx64, sum->fingerprint);
	json_t *busy = json_array();
	for (int i = 0; i < sum->procs; i++)
		json_array_append_new(busy, json_integer(sum->busy_us[i]));
	json_t *o = json_pack("{ss sI sI sI sI sI sI sI sI sI so ss}", "outcome", sim_outcome_name(sum->outcome),
			      "makespan_us", (json_int_t)sum->makespan_us,
			      "goroutines", (json_int_t)sum->goroutines, "threads_peak",
			      (json_int_t)sum->threads_peak, "steals", (json_int_t)sum->steals, "stolen",
			      (json_int_t)sum->stolen, "handoffs", (json_int_t)sum->handoffs, "preemptions",
			      (json_int_t)sum->preemptions, "spills", (json_int_t)sum->spills, "events",
			      (json_int_t)sum->events, "busy_us", busy, "fingerprint", fp);
	if (!o)
		return NULL;
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}

const char *trace_format_name(enum trace_format fmt)
{
	return (unsigned)fmt < TRACE__N ? backends[fmt]->name : "?";
}

int trace_format_parse(const char *name, enum trace_format *out)
{
	for (int i = 0; i < TRACE__N; i++)
		if (strcmp(name, backends[i]->name) == 0) {
			*out = (enum trace_format)i;
			return 0;
		}
	return -1;
}

/* The format whose suffix is the longest one path ends with, in any case
 * (T.CSV is CSV; x.chrome.json is not taken for json), after its last '/'. */
int trace_format_from_path(const char *path, enum trace_format *out)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t blen = strlen(base), best = 0;
	for (int i = 0; i < TRACE__N; i++)
		for (const char *const *sfx = backends[i]->suffixes; *sfx; sfx++) {
			size_t n = strlen(*sfx);
			if (n > best && n <= blen && strcasecmp(base + blen - n, *sfx) == 0) {
				best = n;
				*out = (enum trace_format)i;
			}
		}
	return best ? 0 : -1;
}
