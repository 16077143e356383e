/* helpers.h: shared test scaffolding: load a built-in workload, run it into
 * a memory sink that keeps every event, build bare simulations whose state
 * a test sets by hand. */
#ifndef GOSIM_TEST_HELPERS_H
#define GOSIM_TEST_HELPERS_H

#include "../sim/sim.h"
#include "../sim/state.h"
#include "../sim/workload.h"

struct evlog {
	struct sim_event *ev;
	size_t n, cap;
};

struct run_result {
	enum sim_status status;
	struct sim_summary sum;
	struct evlog log;
	int64_t total_work; /* program_total_work (a lower bound when inexact) */
	int inexact;        /* the program's totals are a lower bound (range, select, forever) */
	int exit_main;      /* "exit": "main": other goroutines may be left running */
	char msg[512];
};

struct program *load_builtin(const char *name, const char *const *defines);
struct program *load_text(const char *json);
struct sim_config test_config(int procs);
/* Runs prog to the end; keeps every event in r->log. */
void run_program(const struct program *prog, const struct sim_config *cfg, struct run_result *r);
/* Compiles a workload from JSON text, runs it, frees the program. */
void run_text(const char *json, const struct sim_config *cfg, struct run_result *r);
void run_builtin(const char *name, const struct sim_config *cfg, const char *const *defines, struct run_result *r);
void run_result_free(struct run_result *r);

/* A simulation of `main: []` with the main G removed: Ps and Ms booted,
 * queues empty, ready for a test to place Gs by hand. Events go to log. */
struct sim *bare_sim(int procs, const struct program **prog_out, struct evlog *log);
int evlog_sink(void *ctx, const struct sim_event *e);

/* The first event at or after index from matching ev/g/to (-1: any). */
long evlog_find(const struct evlog *l, size_t from, int ev, int g, int to);
/* When goroutine g (its goid) first ran, or -1. */
long first_start(const struct evlog *l, int g);

#endif
