/* run.h: one gosim run: load the workload, simulate, write the outputs. */
#ifndef GOSIM_RUN_H
#define GOSIM_RUN_H

#include <stdio.h>

#include "../sim/sim.h"
#include "../sim/workload.h"
#include "../trace/schedtrace.h"
#include "../trace/report.h"
#include "../trace/trace.h"

#define MAX_DEFINES 64
#define MAX_GOROUTINES_DEFAULT 100000000LL
#define MAX_STEPS_DEFAULT 10000000000LL /* 1e10 ops: hours of wall time at most */
#define MAX_SIM_US SIM_CLOCK_MAX_US

struct opts {
	struct sim_config cfg;
	const char *workload;
	struct param_override defines[MAX_DEFINES];
	int ndefines;
	const char *trace_path;
	enum trace_format format;
	int format_set;
	enum schedtrace_family family;
	const char *go_version;
	int64_t cpu_quota_milli; /* --cpu-quota in thousandths of a CPU, 0: none (release.h: defaultGOMAXPROCS) */
	int cpu_place_set;       /* --cpu-place given; else prev with --cpus (cli.c) */
	int detail;
	int64_t max_goroutines;
	int64_t max_steps;
	int64_t until_us; /* 0: no limit */
	int quiet, help, version, list, stats;
	int report;                  /* --report given */
	enum report_format report_fmt;
	int64_t report_threshold_us; /* --report-threshold */
	int32_t why_g;               /* --why=N, 0: none */
	int64_t *procs_list;         /* --procs=LIST (sweep.h), NULL: one value */
	int64_t nprocs_list;
	int64_t *seeds;              /* --seeds=LIST, NULL: none */
	int64_t nseeds;
	int jobs;                    /* --jobs: sweep worker threads, 0: one per CPU */
	int sweep_jobs;              /* --sweep-jobs */
};

int run_main(struct opts *o);
/* The workload of o compiled with o's -D values and checked as a run
 * does (o->cfg.procs 0 becomes the workload's). 0, or an exit code with
 * the message printed. */
int run_load_program(struct opts *o, struct program **out);
/* The run's configuration as the JSON trace's "config" object's text
 * (malloc'd), or NULL when out of memory. */
char *run_config_json(struct opts *o, struct program *prog);
/* cli.c: options into o (0, or an exit code after printing the problem);
 * cli_free_opts releases what parsing allocated. */
int cli_parse_args(struct opts *o, int argc, char **argv);
void cli_free_opts(struct opts *o);
int run_list_workloads(FILE *out);

#endif
