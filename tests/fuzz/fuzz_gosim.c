/* fuzz_gosim.c: a libFuzzer target over gosim's inputs. An input starting
 * with '-' is a command line (arguments separated by newlines) for the
 * option parser; anything else is a workload file, which is compiled and,
 * if it is small, simulated with the invariant checker on in modes the
 * input picks: the model must finish or die the way a Go program does,
 * never break an invariant, use exactly the CPU work requested, and give
 * the same trace whether sysmon skips idle passes or runs every one. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmd/cli.h"
#include "../../cmd/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_options(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *argv[64];
	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = 0;
	int argc = 0;
	argv[argc++] = "gosim";
	for (char *p = text, *nl; p && argc < 63; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		argv[argc++] = p;
	}
	argv[argc] = NULL;
	struct opts o = { 0 };
	cli_parse_args(&o, argc, argv);
	cli_free_opts(&o);
	free(text);
}

/* Runs p; aborts if an invariant broke or, when it finished, if the CPU
 * used differs from the work requested. Returns -1 if the program died
 * (a deadlock or the thread limit: the simulated program's outcome). */
static int run_checked(const struct program *p, const struct sim_config *cfg, struct sim_summary *sum, int64_t work)
{
	struct sim_error e;
	struct sim *s = sim_new(cfg, p, NULL, &e);
	if (!s)
		abort(); /* the compiler accepted it, so the simulator must */
	enum sim_status st = sim_run(s);
	if (st == SIM_BROKEN) {
		fprintf(stderr, "%s\n", sim_message(s));
		abort();
	}
	sim_summary(s, sum);
	sim_free(s);
	if (st != SIM_DONE)
		return -1;
	int64_t busy = 0;
	for (int i = 0; i < cfg->procs; i++)
		busy += sum->busy_us[i];
	if (busy != work)
		abort(); /* CPU used equals work requested */
	return 0;
}

static void fuzz_workload(const uint8_t *data, size_t size)
{
	static const struct param_override ov[] = { { "n", "3" } };
	struct program *p;
	char err[512];
	if (workload_parse((const char *)data, size, "fuzz.json", ov, 0, &p, err, sizeof err) != 0) {
		if (strncmp(err, "fuzz.json", 9) != 0 && strncmp(err, "-D", 2) != 0)
			abort(); /* every error names its place */
		return;
	}
	struct program_totals t;
	if (program_totals(p, &t) == 0 && t.goroutines <= 200 && t.steps <= 100000 && t.work_us + t.syscall_us <= 1000000 &&
	    p->procs <= 8) {
		/* the input picks the modes; lazy and eager sysmon must agree */
		struct sim_config cfg;
		sim_config_default(&cfg);
		cfg.procs = p->procs;
		cfg.check = 1;
		cfg.max_threads = 64;
		cfg.preempt = (enum sim_preempt)(size % 3);
		cfg.sysmon = (enum sim_sysmon)(size / 3 % 2);
		cfg.sysmon_slack_us = size / 6 % 2 ? 67 : 0;
		cfg.steal = size / 12 % 4 != 0;
		struct sim_summary lazy, eager;
		int rc = run_checked(p, &cfg, &lazy, t.work_us);
		cfg.eager_sysmon = 1;
		cfg.check = 0;
		if (run_checked(p, &cfg, &eager, t.work_us) != rc || lazy.fingerprint != eager.fingerprint ||
		    lazy.events != eager.events)
			abort(); /* skipping idle sysmon passes changed the run */
	}
	program_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 0 && data[0] == '-')
		fuzz_options(data, size);
	else
		fuzz_workload(data, size);
	return 0;
}
