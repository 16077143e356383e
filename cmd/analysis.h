/* analysis.h: the command line's side of the report (trace/report.h):
 * --report[=text|json|csv], --report-threshold, --why. Kept apart from
 * run.c so that a run only calls three hooks. */
#ifndef GOSIM_ANALYSIS_H
#define GOSIM_ANALYSIS_H

#include "../sim/sim.h"
#include "../sim/workload.h"
#include "../trace/report.h"

struct opts;

/* A report for this run if --report or --why asked for one, else NULL
 * (*rc stays 0); on failure NULL and *rc an exit code, message printed. */
struct report *analysis_open(struct opts *o, struct program *prog, int *rc);
/* Writes what was asked to stdout after the run; returns an exit code
 * (0, or EXIT_USAGE when the write failed). */
int analysis_write(struct report *rep, const struct opts *o, const struct sim_summary *sum);
/* Whether the plain summary goes to stdout (not with a JSON or CSV report). */
int analysis_keeps_summary(const struct opts *o);

#endif
