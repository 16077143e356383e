/* analysis.c: --report and --why around one run (see analysis.h). */
#include "analysis.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "msg.h"
#include "run.h"

struct report *analysis_open(struct opts *o, struct program *prog, int *rc)
{
	*rc = 0;
	if (!o->report && !o->why_g)
		return NULL;
	struct trace_meta meta;
	struct report *rep = NULL;
	char *cfg = run_config_json(o, prog);
	if (cfg && trace_meta_init(&meta, prog, &o->cfg, cfg, 0) == 0) {
		struct report_opts ro = { .threshold_us = o->report ? o->report_threshold_us : 0, .why_g = o->why_g };
		rep = report_open(&meta, &ro);
		trace_meta_release(&meta);
	}
	free(cfg);
	if (!rep) {
		msg_error("--report: out of memory");
		*rc = EXIT_USAGE;
	}
	return rep;
}

int analysis_keeps_summary(const struct opts *o)
{
	return !o->report || o->report_fmt == REPORT_TEXT;
}

int analysis_write(struct report *rep, const struct opts *o, const struct sim_summary *sum)
{
	if (!rep)
		return 0;
	report_finish(rep, sum->makespan_us);
	int bad = 0;
	if (o->report)
		bad = report_write(rep, stdout, o->report_fmt, sum) != 0;
	if (!bad && o->why_g)
		bad = report_write_why(rep, stdout) != 0;
	if (!bad && fflush(stdout) != 0)
		bad = 1;
	if (bad && errno != EPIPE) {
		msg_error("writing the report: %s", errno ? strerror(errno) : "out of memory");
		return EXIT_USAGE;
	}
	return 0;
}
