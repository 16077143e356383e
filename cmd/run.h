/* run.h: one gosim run: load the workload, simulate, write the outputs. */
#ifndef GOSIM_RUN_H
#define GOSIM_RUN_H

#include <stdio.h>

#include "../sim/sim.h"
#include "../sim/workload.h"
#include "../trace/schedtrace.h"
#include "../trace/trace.h"

#define MAX_DEFINES 64

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
	int detail;
	int quiet, help, version, list;
};

int run_main(struct opts *o);
int run_list_workloads(FILE *out);

#endif
