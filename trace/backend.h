/* backend.h: what a trace back end implements, and the output it writes
 * through (trace.c owns both; see trace.h).
 *
 * A back end is an ops table, as Redis's ae_epoll.c is behind ae.h:
 * open() gets the run's metadata and returns the back end's state (NULL:
 * out of memory); event() formats one record; close() ends the document
 * (sum may be NULL); release() frees the state, whether or not close()
 * ran. Output goes through trace_out_put(), which counts bytes and
 * remembers the first failure; a back end returns -1 when it fails itself.
 * The small appenders below build records without snprintf. */
#ifndef GOSIM_TRACE_BACKEND_H
#define GOSIM_TRACE_BACKEND_H

#include <stdint.h>
#include <stdio.h>

#include "trace.h"

struct trace_out {
	FILE *f;
	int failed;
	int64_t bytes;
	const char *error; /* a back end's own failure (static text), see trace_error() */
};

int trace_out_put(struct trace_out *o, const char *s, size_t n);
int trace_out_puts(struct trace_out *o, const char *s);

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

static inline char *tr_put_i(char *p, int64_t v)
{
	char tmp[24];
	int n = 0;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	if (v < 0)
		*p++ = '-';
	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

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
/* One record as a JSON object, names included, between pre and post. */
int trace_record_json(struct trace_out *o, const struct trace_names *nm, const struct sim_event *e,
		      const char *pre, size_t npre, const char *post, size_t npost);

/* The record's state names (sim_place_name, sim_mstate_name, sim_pstate_name by kind). */
const char *trace_state_name(const struct sim_event *e, int v);

#endif
