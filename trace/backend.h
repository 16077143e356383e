/* backend.h: what a trace back end implements, and the output it writes
 * through (trace.c owns both; see trace.h).
 *
 * A back end is an ops table, as Redis's ae_epoll.c is behind ae.h:
 * open() gets the run's metadata and returns the back end's state (NULL:
 * out of memory); event() formats one record; close() ends the document
 * (sum may be NULL); release() frees the state, whether or not close()
 * ran. Output goes through trace_out_put(), which remembers the first
 * failure; a back end returns -1 when it fails itself, after naming why
 * in o->error (trace_error()). The writer keeps its own buffer (TRACE_BUF
 * bytes, written with one fwrite when full: stdio's setvbuf(f, NULL, ...)
 * gets glibc's 4 KB), so a failure shows at the next flush.
 * trace_record_begin() lets a back end format a record in place.
 *
 * The formatting machinery the text back ends share is here, once: the
 * appenders build a record without snprintf, integers two digits a step
 * from a table (and the small ones, -1 included, from a table of their
 * texts), t and seq as one text stepped in place, and every constant run
 * (a key with its quotes, a state name with its comma, a G record's from
 * and to together) precomputed as a fragment copied in one block. */
#ifndef GOSIM_TRACE_BACKEND_H
#define GOSIM_TRACE_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "trace.h"

#define TRACE_BUF (1 << 20)

struct trace_out {
	FILE *f;
	int failed;
	int64_t bytes;     /* handed to f so far; trace_bytes() adds the pending at - buf */
	const char *error; /* a back end's own failure (static text), see trace_error() */
	char *buf;         /* cap bytes (TRACE_BUF, or more: trace_out_room) */
	char *at;          /* the next byte: buf .. at pending */
	char *end;         /* buf + cap */
	char *rec;         /* the last place a record may begin (trace_out_room) */
	size_t cap;
	int err;           /* the failed write's errno */
};

/* Writes the pending bytes to f; -1 once anything failed. */
int trace_out_flush(struct trace_out *o);
int trace_out_put_slow(struct trace_out *o, const char *s, size_t n);

static inline int trace_out_put(struct trace_out *o, const char *s, size_t n)
{
	if (n > (size_t)(o->end - o->at))
		return trace_out_put_slow(o, s, n);
	memcpy(o->at, s, n);
	o->at += n;
	return o->failed ? -1 : 0;
}

static inline int trace_out_puts(struct trace_out *o, const char *s) { return trace_out_put(o, s, strlen(s)); }

struct trace_ops {
	const char *name;
	const char *const *suffixes; /* file names this format is picked for, NULL-ended */
	void *(*open)(struct trace_out *o, const struct trace_meta *m);
	int (*event)(void *st, const struct sim_event *e);
	int (*close)(void *st, const struct sim_summary *sum);
	void (*release)(void *st);
	int direct; /* event() fails only when the output does: trace_event_direct() hands it out */
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

extern const char tr_digits2[220]; /* "00".."99", then "0,".."9," (trace.c) */

extern const char tr_digits4[40000]; /* "0000".."9999" (trace.c) */

/* u < 10000 as exactly 4 digits. */
static inline char *tr_put_4(char *p, uint32_t u)
{
	memcpy(p, &tr_digits4[4 * u], 4);
	return p + 4;
}

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
	return tr_put_4(p, u);
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
 * CSV column's end, or the JSON value's before the next key), after a
 * text of two bytes at most (a CSV g record's "g,"): copied as one 8-byte
 * block, the cursor moved by len. */
#define TR_SMALL 1024
struct tr_small {
	char s[7];
	uint8_t len;
};
int tr_small_init(struct tr_small t[TR_SMALL], const char *pre); /* trace.c; -1 if pre is longer */

/* v and a comma. From 10^4 to about 10^7 (goroutine ids): the part above
 * the last four digits from the table too, its comma overwritten. */
static inline char *tr_put_ic(char *p, const struct tr_small *t, int64_t v)
{
	uint64_t i = (uint64_t)v + 1;
	if (__builtin_expect(i < TR_SMALL, 1)) {
		size_t n = t[i].len; /* before the copy: a char store may alias it */
		memcpy(p, &t[i], sizeof t[i]);
		return p + n;
	}
	if (v >= 10000 && v < 10000 * (int64_t)(TR_SMALL - 1)) {
		uint32_t u = (uint32_t)v, hi = u / 10000 + 1;
		size_t n = t[hi].len;
		memcpy(p, &t[hi], sizeof t[hi]);
		p = tr_put_4(p + n - 1, u % 10000);
	} else {
		p = tr_put_i(p, v);
	}
	*p++ = ',';
	return p;
}

/* A record's t and seq with the text around them (a CSV line's "t,seq,",
 * a JSON object's {"t":t,"seq":seq), kept as one text, each number with a
 * window of values whose texts differ only in its last two digits: from
 * lo to lo + n - 1 (the hundred it is in, 10..99, or 0..9 where a comma
 * follows: the digit and the comma).
 * Nearly every record's t and seq are in their windows (seq steps by one,
 * t by a few microseconds): the text is copied and the two digits of each
 * written over it from the table, with no state changed; anything else
 * writes the text anew (tr_tseq_put_slow, trace.c). */
#define TR_TSEQ_PRE 8 /* the most bytes of pre, mid or post */
struct tr_tseq {
	uint64_t t_lo, t_n;     /* t's window: (uint64_t)t - t_lo < t_n */
	uint64_t seq_lo, seq_n;
	uint64_t t_base, seq_base; /* t's two bytes are tr_digits2[2 * (t - t_base)] (t_lo; 0 for 10..99; 0 - 100 for 0..9) */
	uint8_t len;            /* of s */
	uint8_t t_at, seq_at;   /* s[t_at], s[seq_at]: the two last digits of t and of seq */
	uint8_t npre, nmid, npost;
	char pre[TR_TSEQ_PRE], mid[TR_TSEQ_PRE], post[TR_TSEQ_PRE];
	char s[64 + TR_TSEQ_PRE]; /* pre t mid seq post; the first 32 bytes copied, or 64 */
};
/* Empty, with its texts; the first record writes it. -1 if one is longer
 * than TR_TSEQ_PRE. */
int tr_tseq_init(struct tr_tseq *c, const char *pre, const char *mid, const char *post);
char *tr_tseq_put_slow(char *p, struct tr_tseq *c, int64_t t, uint64_t seq);
static inline int tr_tseq_fits(const struct tr_tseq *c, int64_t t, uint64_t seq)
{
	return (uint64_t)t - c->t_lo < c->t_n && seq - c->seq_lo < c->seq_n;
}
/* The text when t and seq fit (tr_tseq_fits). */
static inline char *tr_tseq_copy(char *p, const struct tr_tseq *c, int64_t t, uint64_t seq)
{
	size_t n = c->len;
	memcpy(p, c->s, 32); /* within the caller's TRACE_FRAG_SLACK */
	if (n > 32)
		memcpy(p + 32, c->s + 32, 32);
	memcpy(p + c->t_at, tr_digits2 + 2 * ((uint64_t)t - c->t_base), 2);
	memcpy(p + c->seq_at, tr_digits2 + 2 * (seq - c->seq_base), 2);
	return p + n;
}
static inline char *tr_put_tseq(char *p, struct tr_tseq *c, int64_t t, uint64_t seq)
{
	if (__builtin_expect(!tr_tseq_fits(c, t, seq), 0))
		return tr_tseq_put_slow(p, c, t, seq);
	return tr_tseq_copy(p, c, t, seq);
}

/* A precomputed field fragment (a name and what is around it): copied as
 * one fixed-size block, its length byte last (overwritten by what
 * follows), then the cursor moves by len. */
struct tr_frag {
	char s[31];
	uint8_t len;
};
static inline char *tr_put_frag(char *p, const struct tr_frag *f)
{
	size_t n = f->len; /* before the copy: a char store may alias it */
	memcpy(p, f, sizeof *f); /* the caller reserved TRACE_FRAG_SLACK bytes past the record */
	return p + n;
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

/* Two byte-wide fields under 16 as one fragment (a g record's from and
 * to): t->f[a << 4 | b] = pre name(a) mid name(b) post, name(n) ("?") for
 * a value of n or more; the caller looks it up only when both are under 16
 * (tr_pair_fits). A wide one holds 47 bytes. -1 if one is longer. */
struct tr_frag48 {
	char s[47];
	uint8_t len;
};
struct tr_frags48 {
	struct tr_frag48 f[256];
};
int tr_frags_pair(struct tr_frags *t, int n, const char *(*name)(int), const char *pre, const char *mid,
		  const char *post);
int tr_frags48_pair(struct tr_frags48 *t, int n, const char *(*name)(int), const char *pre, const char *mid,
		    const char *post);
static inline int tr_pair_fits(uint8_t a, uint8_t b) { return (a | b) < 16; }
static inline uint8_t tr_pair(uint8_t a, uint8_t b) { return (uint8_t)(a << 4 | b); }
static inline char *tr_put_frag48(char *p, const struct tr_frag48 *f)
{
	size_t n = f->len;
	memcpy(p, f, sizeof *f);
	return p + n;
}

/* Two small integers of a record, -1 .. 30 each (a P and an M: the p and
 * m columns, by_m and by_p), as one text "a," key "b,": one block of 16
 * bytes, its length last, for the pair a << 5 | b (+1 each). tr_put_ic2()
 * takes two integers in that range from it and any other two from the
 * small table. */
#define TR_SMALL2 32
struct tr_small2 {
	char s[15];
	uint8_t len;
};
/* -1 if "30," key "30," does not fit. */
int tr_small2_init(struct tr_small2 t[TR_SMALL2 * TR_SMALL2], const char *key);
static inline char *tr_put_ic2(char *p, const struct tr_small2 *t2, const struct tr_small *t, int32_t a, int32_t b,
			       const char *key, size_t nkey)
{
	uint32_t i = (uint32_t)(a + 1), j = (uint32_t)(b + 1);
	if (__builtin_expect((i | j) < TR_SMALL2, 1)) {
		const struct tr_small2 *f = &t2[i << 5 | j];
		size_t n = f->len;
		memcpy(p, f, sizeof *f);
		return p + n;
	}
	p = tr_put_ic(p, t, a);
	memcpy(p, key, nkey);
	return tr_put_ic(p + nkey, t, b);
}
#define TRACE_FRAG_SLACK 48

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

/* A record's goid and its comma, after a text of up to 8 bytes (a CSV g
 * record's "g,"): below 1023 from a small table of those texts, above
 * from the text of the last one written, its last two digits from the
 * table: most records show a goid in the hundred the record before
 * showed (the G a go statement makes after the one it made, or the same G
 * again). */
struct tr_id {
	uint64_t lo, n; /* the window: (uint64_t)v - lo < n (n 0: none yet, or longer than 16 bytes) */
	uint8_t len, at; /* of s; s[at]: the two last digits */
	uint8_t npre;
	char pre[8];
	char s[22]; /* pre, the last one's digits and a comma (16 bytes at most): 16 bytes copied */
};
void tr_id_init(struct tr_id *c, const char *pre); /* pre: at most 8 bytes */
char *tr_id_set(char *p, struct tr_id *c, int64_t v); /* trace.c: any v above the small table's */
static inline int tr_id_fits(const struct tr_id *c, int64_t v)
{
	return (uint64_t)v + 1 < TR_SMALL || (uint64_t)v - c->lo < c->n;
}
/* v's text and comma, when it fits (tr_id_fits). */
static inline char *tr_id_copy(char *p, const struct tr_id *c, const struct tr_small *t, int64_t v)
{
	uint64_t i = (uint64_t)v + 1;
	if (i < TR_SMALL) {
		size_t n = t[i].len;
		memcpy(p, &t[i], sizeof t[i]);
		return p + n;
	}
	memcpy(p, c->s, 16);
	memcpy(p + c->at, tr_digits2 + 2 * ((uint64_t)v - c->lo), 2);
	return p + c->len;
}
static inline char *tr_put_id(char *p, struct tr_id *c, const struct tr_small *t, int64_t v)
{
	if (__builtin_expect(!tr_id_fits(c, v), 0))
		return tr_id_set(p, c, v);
	return tr_id_copy(p, c, t, v);
}

/* A record's text kept for the fields that made it (struct tr_ktab): a
 * g record's after its goid (the fields it shows, its names and the
 * record's end), an M, P, CPU or steal record's after t and seq. Nearly
 * every record repeats one of a few dozen (the same P, M and move), so a
 * hit is a hash, a compare and one block copy instead of the appenders.
 * A direct-mapped table: a slot holds the last key hashed to it (k0 ~0
 * when empty, which no record's key is: its ev, from, to and reason would
 * be 0xff). A key is four words of the fields the text shows, read in
 * place: for a g record from, to, reason, and wait in ev's place, with
 * from_p; p and m; by_m and by_p; fn and obj (tr_key_g). Not for
 * --explain's records (a rule each). The csv, json and jsonl back ends
 * keep a table for g records and one for the others. */
#define TR_KTAB 256
#define TR_KTEXT 223 /* the longest text a slot holds (a slot is 256 bytes: its index a shift) */
struct tr_kslot {
	uint64_t k0, k1, k2, k3;
	char s[TR_KTEXT];
	uint8_t len;
};
struct tr_ktab {
	struct tr_kslot slot[TR_KTAB];
};
struct tr_key {
	uint64_t k0, k1, k2, k3;
};
_Static_assert(offsetof(struct sim_event, from) == offsetof(struct sim_event, ev) + 1 &&
		       offsetof(struct sim_event, to) == offsetof(struct sim_event, ev) + 2 &&
		       offsetof(struct sim_event, reason) == offsetof(struct sim_event, ev) + 3 &&
		       offsetof(struct sim_event, m) == offsetof(struct sim_event, p) + 4 &&
		       offsetof(struct sim_event, by_p) == offsetof(struct sim_event, by_m) + 4 &&
		       offsetof(struct sim_event, obj) == offsetof(struct sim_event, fn) + 4 &&
		       offsetof(struct sim_event, runnext) == offsetof(struct sim_event, n) + 4,
	       "the fields a record's key reads as words are adjacent");
static inline uint32_t tr_key_head(const struct sim_event *e) /* ev, from, to and reason */
{
	uint32_t w;
	memcpy(&w, &e->ev, 4);
	return w;
}
static inline uint64_t tr_key_word(const int32_t *two) /* two adjacent int32 fields */
{
	uint64_t w;
	memcpy(&w, two, 8);
	return w;
}
static inline struct tr_key tr_key_g(const struct sim_event *e)
{
	return (struct tr_key){ .k0 = (uint64_t)(uint32_t)e->from_p << 32 | (tr_key_head(e) & ~0xffu) | e->wait,
				.k1 = tr_key_word(&e->p), .k2 = tr_key_word(&e->by_m), .k3 = tr_key_word(&e->fn) };
}
/* An M, P or CPU record's: ev, from, to with g; p and m; by_m and by_p. */
static inline struct tr_key tr_key_state(const struct sim_event *e)
{
	return (struct tr_key){ .k0 = (uint64_t)(uint32_t)e->g << 32 | tr_key_head(e), .k1 = tr_key_word(&e->p),
				.k2 = tr_key_word(&e->by_m) };
}
/* A steal record's (its g is -1): ev with victim; p and m; by_m and by_p;
 * n and runnext. */
static inline struct tr_key tr_key_steal(const struct sim_event *e)
{
	return (struct tr_key){ .k0 = (uint64_t)(uint32_t)e->victim << 32 | tr_key_head(e), .k1 = tr_key_word(&e->p),
				.k2 = tr_key_word(&e->by_m), .k3 = tr_key_word(&e->n) };
}
/* The key of an M, P, CPU or steal record's text (a steal's when its g is
 * -1, as every one's is); 0 for the kinds formatted every time. */
static inline int tr_key_other(const struct sim_event *e, struct tr_key *k)
{
	switch (e->ev) {
	case EV_M:
	case EV_P:
	case EV_CPU:
		*k = tr_key_state(e);
		return 1;
	case EV_STEAL:
		*k = tr_key_steal(e);
		return e->g == -1;
	default:
		return 0;
	}
}

void tr_ktab_init(struct tr_ktab *t); /* every slot empty */
static inline struct tr_kslot *tr_kslot_of(struct tr_ktab *t, const struct tr_key *k)
{
	return &t->slot[((k->k0 ^ k->k1 ^ k->k2 << 1 ^ k->k3 << 2) * 0x9e3779b97f4a7c15ULL) >> 56];
}
static inline int tr_kslot_is(const struct tr_kslot *g, const struct tr_key *k)
{
	return g->k0 == k->k0 && g->k1 == k->k1 && g->k2 == k->k2 && g->k3 == k->k3;
}
/* After a miss: the text the record's formatter wrote (s, n bytes) kept
 * with its key in the slot g when it fits in most bytes (the most a hit
 * copies), so that the next record with those fields copies it. */
void tr_kslot_keep(struct tr_kslot *g, const struct tr_key *k, const char *s, size_t n, size_t most);
/* The text after a g record's goid: copy bytes from its slot (the
 * caller's room covers them), or miss(p, ctx, e, slot) when the slot
 * holds another key: it formats the text and keeps it (tr_kslot_keep
 * with tr_key_g(e)). */
typedef char *tr_kmiss_fn(char *p, void *ctx, const struct sim_event *e, struct tr_kslot *g);
static inline __attribute__((always_inline)) char *tr_ktab_put_g(char *p, struct tr_ktab *t, const struct sim_event *e,
								size_t copy, tr_kmiss_fn *miss, void *ctx)
{
	struct tr_key k = tr_key_g(e);
	struct tr_kslot *g = tr_kslot_of(t, &k);
	if (__builtin_expect(tr_kslot_is(g, &k), 1)) {
		memcpy(p, g->s, copy);
		return p + g->len;
	}
	return miss(p, ctx, e, g);
}

/* The program's names, quoted once for the record formats: each function
 * and channel as a JSON string and as a CSV field (record.c). */
struct trace_names {
	int nfuncs, nchans;
	struct tr_str *fn_json, *fn_csv, *chan_json, *chan_csv;
	/* each function as a fragment, "fn":NAME, and NAME, (len 0 where the
	 * name is too long for one) */
	struct tr_frag *fn_json_frag, *fn_csv_frag;
	size_t most_json, most_csv; /* the longest function's and channel's together */
};
/* The most bytes a record of the format takes, its names, the slack
 * and the keys around the names included. */
static inline size_t trace_record_most(const struct trace_names *nm, int csv)
{
	return TRACE_MAX_RECORD + TRACE_FRAG_SLACK + (csv ? nm->most_csv : nm->most_json + 16);
}
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
/* The fragment of the record's function (see trace_record_fn), NULL if
 * it has none or the name does not fit in one. */
static inline const struct tr_frag *trace_record_fn_frag(const struct trace_names *nm, const struct sim_event *e,
							 int csv)
{
	if (e->ev != EV_G || e->from != PL_NEW || e->fn < 0 || e->fn >= nm->nfuncs)
		return NULL;
	const struct tr_frag *f = csv ? &nm->fn_csv_frag[e->fn] : &nm->fn_json_frag[e->fn];
	return f->len ? f : NULL;
}
static inline const struct tr_str *trace_record_chan(const struct trace_names *nm, const struct sim_event *e,
						     int csv)
{
	if ((e->ev != EV_G && e->ev != EV_SUDOG) || !trace_is_chan_wait(e->wait) || e->obj < 0 || e->obj >= nm->nchans)
		return NULL;
	return csv ? &nm->chan_csv[e->obj] : &nm->chan_json[e->obj];
}

/* A record format's open makes the buffer hold two of its longest
 * records (names included: n bytes; o->rec is then the last place one may
 * begin); -1 when out of memory. Then every record is formatted in place:
 * trace_record_begin() returns where (after a flush when fewer than n
 * bytes are left; NULL when the flush failed) and trace_record_end()
 * takes the record's end. */
int trace_out_room(struct trace_out *o, size_t n);
char *trace_record_begin_slow(struct trace_out *o);
static inline char *trace_record_begin(struct trace_out *o)
{
	return __builtin_expect(o->at <= o->rec, 1) ? o->at : trace_record_begin_slow(o);
}
static inline int trace_record_end(struct trace_out *o, char *end)
{
	o->at = end;
	return 0;
}

/* The json and jsonl back ends' record formatter (record.c): the names,
 * t and seq as one text, the small integers and every key with its
 * constant text as fragments. A json document's records after the first
 * open with ",\n"; a jsonl record ends its line. */
struct trace_json_fmt {
	struct trace_out *o;
	struct trace_names names;
	int jsonl, first;
	size_t most; /* trace_record_most */
	struct tr_tseq ts;
	struct tr_small ints[TR_SMALL];
	struct tr_frags ev, reason, wait, gfrom, gto, mfrom, mto, pfrom, pto, cfrom, cto;
	struct tr_frags48 g_from_to; /* "from":"new","to":"runnext","from_p": */
	struct tr_id id; /* the last g record's goid over 1022 */
	struct tr_ktab gtab, otab; /* the records' texts: g records' after the goid, the others' after seq */
};
int trace_json_fmt_init(struct trace_json_fmt *f, struct trace_out *o, const struct trace_meta *m, int jsonl);
void trace_json_fmt_release(struct trace_json_fmt *f);
/* One record as a JSON object, names included. */
int trace_record_json(struct trace_json_fmt *f, const struct sim_event *e);

/* The record's state names (sim_place_name, sim_mstate_name, sim_pstate_name, sim_cpustate_name by kind). */
const char *trace_state_name(const struct sim_event *e, int v);

#endif
