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
 * a failure shows at the next flush. trace_out_reserve() lets a back end
 * format a record in place. The small appenders below build records
 * without snprintf. */
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

/* Appenders: the caller's buffer has room. */
static inline char *tr_put_s(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

/* A string literal: its length is known, one memcpy. */
#define TR_PUT_LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

extern const char tr_digits2[200]; /* "00".."99" (trace.c) */

/* v in decimal, two digits a step from the table (back to front). */
static inline char *tr_put_i(char *p, int64_t v)
{
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	if (v < 0)
		*p++ = '-';
	if (u < 10) {
		*p++ = (char)('0' + u);
		return p;
	}
	if (u < 100) {
		memcpy(p, &tr_digits2[2 * u], 2);
		return p + 2;
	}
	static const uint64_t pow10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
					  1000000000, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
					  10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
					  10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL,
					  10000000000000000000ULL };
	int n = 3;
	while (n < 20 && u >= pow10[n])
		n++;
	char *q = p + n;
	while (u >= 100) {
		const char *d = &tr_digits2[2 * (u % 100)];
		u /= 100;
		*--q = d[1];
		*--q = d[0];
	}
	if (u >= 10) {
		*--q = tr_digits2[2 * u + 1];
		*--q = tr_digits2[2 * u];
	} else {
		*--q = (char)('0' + u);
	}
	return p + n;
}

/* A number written on most records that changes by small steps (seq, t):
 * its decimal text kept, incremented in place when it grew by one, copied
 * when it did not change, reformatted otherwise. */
struct tr_counter {
	int64_t v;
	uint8_t len;
	char s[23];
};
static inline char *tr_put_counter(char *p, struct tr_counter *c, int64_t v)
{
	if (v != c->v) {
		int i = c->len - 1;
		if (v == c->v + 1 && v > 0) { /* carry from the last digit */
			while (i >= 0 && c->s[i] == '9')
				c->s[i--] = '0';
		}
		if (v == c->v + 1 && v > 0 && i >= 0) {
			c->s[i]++;
		} else {
			c->len = (uint8_t)(tr_put_i(c->s, v) - c->s);
		}
		c->v = v;
	}
	memcpy(p, c->s, sizeof c->s); /* within the caller's TRACE_FRAG_SLACK */
	return p + c->len;
}
#define TR_COUNTER_INIT { .v = 0, .len = 1, .s = "0" }
/* A writer's t and seq counters (the JSON back ends'). */
struct tr_clock {
	struct tr_counter t, seq;
};
#define TR_CLOCK_INIT { TR_COUNTER_INIT, TR_COUNTER_INIT }

/* A precomputed field fragment (a name and what follows it): copied as
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
/* f = s then tail, or -1 if that is longer than a fragment holds. */
int tr_frag_set(struct tr_frag *f, const char *s, const char *tail);
#define TRACE_FRAG_SLACK 32

#define TRACE_MAX_RECORD 640 /* longer than any record's fixed fields in json, jsonl or csv (an --explain rule included) */

/* The program's names, quoted once for the record formats: each function
 * and channel as a JSON string and as a CSV field (record.c). */
struct trace_names {
	int nfuncs, nchans;
	char **fn_json, **fn_csv, **chan_json, **chan_csv;
};
int trace_names_init(struct trace_names *nm, const struct trace_meta *m);
void trace_names_release(struct trace_names *nm);
/* The names a record carries: its function (new records) and, when it
 * waits on a channel, the channel; NULL where it has none. */
const char *trace_record_fn(const struct trace_names *nm, const struct sim_event *e, int csv);
const char *trace_record_chan(const struct trace_names *nm, const struct sim_event *e, int csv);
/* One record as a JSON object, names included, between pre and post;
 * t and seq formatted from the writer's clock (incrementally). */
int trace_record_json(struct trace_out *o, const struct trace_names *nm, struct tr_clock *clk,
		      const struct sim_event *e, const char *pre, size_t npre, const char *post, size_t npost);

/* The record's state names (sim_place_name, sim_mstate_name, sim_pstate_name, sim_cpustate_name by kind). */
const char *trace_state_name(const struct sim_event *e, int v);

#endif
