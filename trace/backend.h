/* backend.h: what a trace back end implements, and the output it writes
 * through (trace.c owns both; see trace.h).
 *
 * A back end is an ops table, as Redis's ae_epoll.c is behind ae.h:
 * open() gets the run's metadata and returns the back end's state (NULL:
 * out of memory); event() formats one record; close() ends the document
 * (sum may be NULL); release() frees the state, whether or not close()
 * ran. Output goes through trace_out_put(), which counts bytes and
 * remembers the first failure; a back end returns -1 when it fails itself.
 * The writer keeps its own buffer (TRACE_BUF bytes, written with one
 * fwrite when full: stdio's setvbuf(f, NULL, ...) gets glibc's 4 KB), so
 * a failure shows at the next flush. trace_out_reserve() and
 * trace_record_begin() let a back end format a record in place.
 *
 * The formatting machinery the text back ends share is here, once: the
 * appenders build a record without snprintf, integers two digits a step
 * from a table (and the small ones, -1 included, from a table of their
 * texts), t and seq as counters stepped in place, and every constant run
 * (a key with its quotes, a state name with its comma) precomputed as a
 * fragment copied in one block. */
#ifndef GOSIM_TRACE_BACKEND_H
#define GOSIM_TRACE_BACKEND_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "trace.h"

#define TRACE_BUF (1 << 20)

struct trace_out {
	FILE *f;
	int failed;
	int64_t bytes;
	const char *error; /* a back end's own failure (static text), see trace_error() */
	char *buf;         /* TRACE_BUF bytes; len of them pending */
	size_t len;
};

/* Writes the pending bytes to f; -1 once anything failed. */
int trace_out_flush(struct trace_out *o);
int trace_out_put_slow(struct trace_out *o, const char *s, size_t n);

static inline int trace_out_put(struct trace_out *o, const char *s, size_t n)
{
	if (n > TRACE_BUF - o->len)
		return trace_out_put_slow(o, s, n);
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->bytes += (int64_t)n;
	return o->failed ? -1 : 0;
}

static inline int trace_out_puts(struct trace_out *o, const char *s) { return trace_out_put(o, s, strlen(s)); }

/* Room for n (<= TRACE_BUF) bytes at the end of the buffer, to be
 * followed by trace_out_commit() with the end of what was written. */
static inline char *trace_out_reserve(struct trace_out *o, size_t n)
{
	if (n > TRACE_BUF - o->len)
		trace_out_flush(o);
	return o->buf + o->len;
}

static inline int trace_out_commit(struct trace_out *o, const char *end)
{
	size_t n = (size_t)(end - (o->buf + o->len));
	o->len += n;
	o->bytes += (int64_t)n;
	return o->failed ? -1 : 0;
}

struct trace_ops {
	const char *name;
	const char *const *suffixes; /* file names this format is picked for, NULL-ended */
	void *(*open)(struct trace_out *o, const struct trace_meta *m);
	int (*event)(void *st, const struct sim_event *e);
	int (*close)(void *st, const struct sim_summary *sum);
	void (*release)(void *st);
};

#define TRACE_OPS_DECL(up, name) extern const struct trace_ops trace_##name##_ops;
TRACE_FORMATS(TRACE_OPS_DECL)
#undef TRACE_OPS_DECL

/* Appenders: the caller's buffer has room (a record's formatter reserves
 * TRACE_MAX_RECORD + TRACE_FRAG_SLACK bytes: the fixed-size copies below
 * may write past the text they leave). */
static inline char *tr_put_s(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

/* A string literal: its length is known, one memcpy. */
#define TR_PUT_LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

extern const char tr_digits2[200]; /* "00".."99" (trace.c) */

/* u < 10000 in decimal, 1 to 4 digits. */
static inline char *tr_put_u4(char *p, uint32_t u)
{
	uint32_t hi = u / 100, lo = u % 100;
	if (u < 10) {
		*p = (char)('0' + u);
		return p + 1;
	}
	if (u < 100) {
		memcpy(p, &tr_digits2[2 * u], 2);
		return p + 2;
	}
	if (u < 1000) {
		*p = (char)('0' + hi);
		memcpy(p + 1, &tr_digits2[2 * lo], 2);
		return p + 3;
	}
	memcpy(p, &tr_digits2[2 * hi], 2);
	memcpy(p + 2, &tr_digits2[2 * lo], 2);
	return p + 4;
}

/* u < 10000 as exactly 4 digits. */
static inline char *tr_put_4(char *p, uint32_t u)
{
	memcpy(p, &tr_digits2[2 * (u / 100)], 2);
	memcpy(p + 2, &tr_digits2[2 * (u % 100)], 2);
	return p + 4;
}

/* v in decimal, two digits a step from the table: up to 8 digits in
 * fixed steps, longer ones back to front. */
static inline char *tr_put_i(char *p, int64_t v)
{
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	if (v < 0)
		*p++ = '-';
	if (u < 10000)
		return tr_put_u4(p, (uint32_t)u);
	if (u < 100000000)
		return tr_put_4(tr_put_u4(p, (uint32_t)(u / 10000)), (uint32_t)(u % 10000));
	int n = 9;
	for (uint64_t t = u / 1000000000; t > 0; t /= 10)
		n++;
	char *q = p + n;
	while (u >= 100) {
		memcpy(q -= 2, &tr_digits2[2 * (u % 100)], 2);
		u /= 100;
	}
	if (u >= 10)
		memcpy(q - 2, &tr_digits2[2 * u], 2);
	else
		q[-1] = (char)('0' + u);
	return p + n;
}

/* Small integers, -1 .. TR_SMALL - 2, each as its text and a comma (the
 * CSV column's end, or the JSON value's before the next key): copied as
 * one 8-byte block, the cursor moved by len. */
#define TR_SMALL 1024
struct tr_small {
	char s[7];
	uint8_t len;
};
void tr_small_init(struct tr_small t[TR_SMALL]); /* trace.c */

/* v and a comma. */
static inline char *tr_put_ic(char *p, const struct tr_small *t, int64_t v)
{
	uint64_t i = (uint64_t)v + 1;
	if (i < TR_SMALL) {
		memcpy(p, &t[i], sizeof t[i]);
		return p + t[i].len;
	}
	p = tr_put_i(p, v);
	*p++ = ',';
	return p;
}

/* A number written on most records that changes by small steps (seq, t):
 * its decimal text kept, a step under 10 added to its last digits in
 * place, copied when it did not change, reformatted otherwise. */
struct tr_counter {
	int64_t v;
	uint8_t len;
	char s[23];
};
/* c set to v: a step of 1..9 added to its last digits in place, any other
 * change reformatted (trace.c). */
void tr_counter_set(struct tr_counter *c, int64_t v);
static inline char *tr_put_counter(char *p, struct tr_counter *c, int64_t v)
{
	if (v != c->v) {
		char *last = &c->s[c->len - 1];
		if (v == c->v + 1 && c->v >= 0 && *last != '9') { /* the common step, inline */
			++*last;
			c->v = v;
		} else {
			tr_counter_set(c, v);
		}
	}
	memcpy(p, c->s, sizeof c->s); /* within the caller's TRACE_FRAG_SLACK */
	return p + c->len;
}
#define TR_COUNTER_INIT { .v = 0, .len = 1, .s = "0" }

/* A precomputed field fragment (a name and what is around it): copied as
 * one fixed-size block, then the cursor moves by len. */
struct tr_frag {
	uint8_t len;
	char s[31];
};
static inline char *tr_put_frag(char *p, const struct tr_frag *f)
{
	memcpy(p, f->s, sizeof f->s); /* the caller reserved TRACE_FRAG_SLACK bytes past the record */
	return p + f->len;
}
/* A name table as fragments, one for each value of a byte-wide field
 * (sim_event's ev, from, to, reason, wait): looked up without a range
 * check. */
struct tr_frags {
	struct tr_frag f[256];
};
/* t->f[i] = pre name(i) post for i < n, and the same with name(n) ("?",
 * a value out of range) for the rest; -1 if one is longer than a fragment
 * holds. */
int tr_frags_set(struct tr_frags *t, int n, const char *(*name)(int), const char *pre, const char *post);
static inline const struct tr_frag *tr_frag_of(const struct tr_frags *t, uint8_t v) { return &t->f[v]; }
#define TRACE_FRAG_SLACK 32

/* A name as the record formats quote it, with its length. */
struct tr_str {
	char *s;
	size_t len;
};
static inline char *tr_put_str(char *p, const struct tr_str *s)
{
	memcpy(p, s->s, s->len);
	return p + s->len;
}

#define TRACE_MAX_RECORD 640 /* longer than any record's fixed fields in json, jsonl or csv (an --explain rule included) */

/* The program's names, quoted once for the record formats: each function
 * and channel as a JSON string and as a CSV field (record.c). */
struct trace_names {
	int nfuncs, nchans;
	struct tr_str *fn_json, *fn_csv, *chan_json, *chan_csv;
};
int trace_names_init(struct trace_names *nm, const struct trace_meta *m);
void trace_names_release(struct trace_names *nm);

static inline int trace_is_chan_wait(int wait) { return wait == WR_CHAN_RECV || wait == WR_CHAN_SEND; }

/* The names a record carries: its function (new records) and, when it
 * waits on a channel, the channel; NULL where it has none. */
static inline const struct tr_str *trace_record_fn(const struct trace_names *nm, const struct sim_event *e, int csv)
{
	if (e->ev != EV_G || e->from != PL_NEW || e->fn < 0 || e->fn >= nm->nfuncs)
		return NULL;
	return csv ? &nm->fn_csv[e->fn] : &nm->fn_json[e->fn];
}
static inline const struct tr_str *trace_record_chan(const struct trace_names *nm, const struct sim_event *e,
						     int csv)
{
	if ((e->ev != EV_G && e->ev != EV_SUDOG) || !trace_is_chan_wait(e->wait) || e->obj < 0 || e->obj >= nm->nchans)
		return NULL;
	return csv ? &nm->chan_csv[e->obj] : &nm->chan_json[e->obj];
}

/* Where a record is formatted: in place in the output buffer when n bytes
 * fit in it (the common case, inline), else (names longer than the
 * buffer) in a block of its own; trace_record_end() hands it on. */
char *trace_record_begin_slow(struct trace_out *o, size_t n);
int trace_record_end_slow(struct trace_out *o, char *start, char *end);
static inline char *trace_record_begin(struct trace_out *o, size_t n)
{
	return n <= TRACE_BUF - o->len ? o->buf + o->len : trace_record_begin_slow(o, n);
}
static inline int trace_record_end(struct trace_out *o, char *start, char *end)
{
	return start == o->buf + o->len ? trace_out_commit(o, end) : trace_record_end_slow(o, start, end);
}

/* The json and jsonl back ends' record formatter (record.c): the names,
 * t and seq as counters, the small integers and every key with its
 * constant text as fragments. */
struct trace_json_fmt {
	struct trace_names names;
	struct tr_counter t, seq;
	struct tr_small ints[TR_SMALL];
	struct tr_frags ev, reason, wait, gfrom, gto, mfrom, mto, pfrom, pto, cfrom, cto;
};
int trace_json_fmt_init(struct trace_json_fmt *f, const struct trace_meta *m);
void trace_json_fmt_release(struct trace_json_fmt *f);
/* One record as a JSON object, names included, between pre and post. */
int trace_record_json(struct trace_out *o, struct trace_json_fmt *f, const struct sim_event *e, const char *pre,
		      size_t npre, const char *post, size_t npost);

/* The record's state names (sim_place_name, sim_mstate_name, sim_pstate_name, sim_cpustate_name by kind). */
const char *trace_state_name(const struct sim_event *e, int v);

#endif
