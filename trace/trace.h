/* trace.h: trace writers: the sink that turns the model's events into
 * JSON, JSON Lines or CSV (docs/trace-format.md), and the schedtrace
 * printer (schedtrace.h).
 *
 * A writer streams: each event is formatted and written as it arrives, so
 * a trace never sits in memory. Every write is checked; the first failure
 * makes trace_event() and trace_finish() return -1 and the caller stops
 * the run. The records carry the same fields in every format. */
#ifndef GOSIM_TRACE_H
#define GOSIM_TRACE_H

#include <stdio.h>

#include "../sim/sim.h"

enum trace_format { TRACE_JSON, TRACE_JSONL, TRACE_CSV };

#define TRACE_SCHEMA 1

struct trace_writer;

/* config_json: the run's configuration as a JSON object's text (json only). */
struct trace_writer *trace_open(FILE *f, enum trace_format fmt, const char *config_json);
int trace_event(struct trace_writer *w, const struct sim_event *e);
/* Ends the document (json: "summary" from sum, which may be NULL) and flushes. */
int trace_finish(struct trace_writer *w, const struct sim_summary *sum);
void trace_free(struct trace_writer *w);
/* Bytes handed to the file so far. */
int64_t trace_bytes(const struct trace_writer *w);

int trace_format_parse(const char *name, enum trace_format *out);
int trace_format_from_path(const char *path, enum trace_format *out);

/* One event as a compact JSON object (no newline) into buf; returns its
 * length or -1 if it does not fit. */
int trace_event_json(char *buf, size_t len, const struct sim_event *e);
/* The summary as a JSON object's text; the caller frees it. */
char *trace_summary_json(const struct sim_summary *sum);

#endif
