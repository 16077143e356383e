/* trace.h: trace writers: the sink that turns the model's events into one
 * of the formats of docs/trace-format.md, and the schedtrace printer
 * (schedtrace.h).
 *
 * Each format is a back end in its own file, trace/<format>.c, behind one
 * small ops table (backend.h): open(meta), event, close. trace.c picks the
 * back end and owns the output; the back ends never read sim/state.h:
 * everything a format needs up front comes in struct trace_meta, the rest
 * in the events.
 *
 * A writer streams: each event is formatted and written as it arrives (a
 * back end keeps only what the format needs in hand, never the trace).
 * Every write is checked; the first failure makes trace_event() and
 * trace_finish() return -1 and the caller stops the run. */
#ifndef GOSIM_TRACE_H
#define GOSIM_TRACE_H

#include <stdio.h>

#include "../sim/sim.h"

struct program; /* sim/workload.h */

/* The formats: one row each (name; back end trace_<name>_ops). */
#define TRACE_FORMATS(X) \
	X(JSON, json)    \
	X(JSONL, jsonl)  \
	X(CSV, csv)      \
	X(GOTRACE, gotrace) \
	X(HTML, html)      \
	X(CHROME, chrome)

#define TRACE_ENUM(up, name) TRACE_##up,
enum trace_format { TRACE_FORMATS(TRACE_ENUM) TRACE__N };
#undef TRACE_ENUM

#define TRACE_SCHEMA 3

/* What a back end is told before the first event. Valid only during
 * trace_open(): a back end copies what it keeps. */
struct trace_meta {
	const char *workload;      /* the program's name */
	uint64_t workload_hash;    /* trace_hash() of the workload's text; 0 if unknown */
	const char *config_json;   /* the run's configuration as a JSON object's text */
	struct sim_config cfg;     /* the same, as fields (procs resolved) */
	int procs;
	int nfuncs;
	const char *const *func_names; /* index: sim_event.fn */
	int main_fn;
	int nchans;
	const char *const *chan_names; /* index: the program's channel */
	int nregions;
	const char *const *region_names; /* index: a region record's obj */
};

/* Fills m from a compiled program and its config; the names point into
 * prog, and func_names is allocated: trace_meta_release() frees it.
 * Returns -1 when out of memory. */
int trace_meta_init(struct trace_meta *m, const struct program *prog, const struct sim_config *cfg,
		    const char *config_json, uint64_t workload_hash);
void trace_meta_release(struct trace_meta *m);
/* FNV-1a, 64 bits: the workload hash. */
uint64_t trace_hash(const void *data, size_t len);

struct trace_writer;

/* meta may be NULL (an empty config, no names). */
struct trace_writer *trace_open(FILE *f, enum trace_format fmt, const struct trace_meta *meta);
int trace_event(struct trace_writer *w, const struct sim_event *e);
/* Ends the document (json: "summary" from sum, which may be NULL) and flushes. */
int trace_finish(struct trace_writer *w, const struct sim_summary *sum);
void trace_free(struct trace_writer *w);
/* Why the back end itself failed (a record it cannot map: a gosim bug),
 * or NULL when it did not (an I/O error sets errno instead). */
const char *trace_error(const struct trace_writer *w);
/* Bytes handed to the file so far. */
int64_t trace_bytes(const struct trace_writer *w);
/* The errno of the first write to the file that failed; 0 if none did. */
int trace_write_errno(const struct trace_writer *w);

/* The record function a sink can call for w, and its argument (*ctx):
 * for a format that fails only when its output does (csv, json, jsonl),
 * the back end's own, one call fewer on every record; for the others
 * trace_event() itself, with w. Either returns what trace_event() would;
 * after a failure trace_write_errno() says why. */
typedef int (*trace_event_fn)(void *ctx, const struct sim_event *e);
trace_event_fn trace_event_direct(struct trace_writer *w, void **ctx);

int trace_format_parse(const char *name, enum trace_format *out);
int trace_format_from_path(const char *path, enum trace_format *out);
const char *trace_format_name(enum trace_format fmt);

/* The summary as a JSON object's text; the caller frees it. */
char *trace_summary_json(const struct sim_summary *sum);

#endif
