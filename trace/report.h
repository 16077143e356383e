/* report.h: answers computed from a run's event stream: where each
 * goroutine's time went, scheduler latency, what each P and M did, peaks
 * and counters (docs/report-format.md).
 *
 * The report is a consumer of the same records the trace writers get; it
 * reads nothing of the model's state. It keeps per-goroutine, per-P and
 * per-M accumulators, never the events themselves:
 * - a G's lifetime (its `new` record to its `dead` record, or the end of
 *   the run) is split by place: running, runnable in runnext / the local
 *   ring / the global queue, in a syscall, and blocked, one figure per
 *   (wait reason, object) pair met (a channel and a direction today; any
 *   wait reason the model adds later appears without change here). The
 *   split of every G sums to its lifetime by construction.
 * - scheduler latency is each runnable -> running interval (as
 *   /sched/latencies:seconds); percentiles by the nearest-rank rule, exact,
 *   from a table of distinct values and their counts (memory: one entry per
 *   distinct latency per function, not one per sample).
 * - waits longer than the threshold, and every wait of the G asked about
 *   (--why), are listed with who ran on each P meanwhile. For that the
 *   report keeps the run segments (G on P from..to) that ended after the
 *   oldest wait still open began, and drops older ones as waits end; the
 *   memory is what ran during the longest wait in progress.
 *
 * Lifecycle: report_open -> report_event for each record -> report_finish
 * (the run's end time) -> report_write / report_figures -> report_free. */
#ifndef GOSIM_REPORT_H
#define GOSIM_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "../sim/sim.h"
#include "trace.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_CSV };

#define REPORT_SCHEMA 1
#define REPORT_THRESHOLD_DEFAULT_US 10000

/* What the report is asked for besides the run's metadata. */
struct report_opts {
	int64_t threshold_us;      /* list waits longer than this; 0: none */
	int32_t why_g;             /* list every wait of this goid; 0: none */
};

/* The trace format's M1: the model boots M0 for main, then sysmon. */
#define REPORT_SYSMON_M 1

/* The figures a sweep tabulates, one run's worth. Latencies are -1 when
 * nothing was ever runnable. */
struct report_figures {
	int64_t makespan_us;
	int64_t latency_count, latency_p50_us, latency_p90_us, latency_p99_us, latency_max_us;
	int64_t threads_peak, steals, handoffs, preemptions;
};

struct report;

/* meta is read during the call only (names are copied). */
struct report *report_open(const struct trace_meta *meta, const struct report_opts *opts);
/* 0, or -1 when out of memory (the run should stop). */
int report_event(struct report *r, const struct sim_event *e);
/* Closes every interval still open at end_us (the run's end). */
void report_finish(struct report *r, int64_t end_us);
/* The report; sum is the run's summary (fingerprint, events), may be NULL.
 * Returns 0, or -1 when the write failed or memory ran out. */
int report_write(struct report *r, FILE *f, enum report_format fmt, const struct sim_summary *sum);
/* --why: every runnable interval of opts.why_g, as text. */
int report_write_why(struct report *r, FILE *f);
void report_figures(struct report *r, struct report_figures *out);
void report_free(struct report *r);

int report_format_parse(const char *name, enum report_format *out);

#endif
