/* helpers.c: see helpers.h. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/runq.h"

int evlog_sink(void *ctx, const struct sim_event *e)
{
	struct evlog *l = ctx;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->ev = realloc(l->ev, l->cap * sizeof *l->ev);
		cr_assert_not_null(l->ev);
	}
	l->ev[l->n++] = *e;
	return 0;
}

struct program *load_builtin(const char *name, const char *const *defines)
{
	struct param_override ov[16];
	int n = 0;
	for (; defines && defines[n]; n++) {
		const char *eq = strchr(defines[n], '=');
		static char names[16][32];
		snprintf(names[n], sizeof names[n], "%.*s", (int)(eq - defines[n]), defines[n]);
		ov[n] = (struct param_override){ names[n], eq + 1 };
	}
	for (int i = 0; i < builtin_workloads_n; i++) {
		if (strcmp(builtin_workloads[i].name, name) != 0)
			continue;
		struct program *p;
		char err[512];
		int rc = workload_parse(builtin_workloads[i].text, builtin_workloads[i].len, name, ov, n, &p, err, sizeof err);
		cr_assert_eq(rc, 0, "%s", err);
		return p;
	}
	cr_assert_fail("no built-in workload %s", name);
	return NULL;
}

struct program *load_text(const char *json)
{
	struct program *p;
	char err[512];
	int rc = workload_parse(json, strlen(json), "test.json", NULL, 0, &p, err, sizeof err);
	cr_assert_eq(rc, 0, "%s", err);
	return p;
}

struct sim_config test_config(int procs)
{
	struct sim_config cfg;
	sim_config_default(&cfg);
	cfg.procs = procs;
	cfg.check = 1;
	return cfg;
}

void run_program(const struct program *prog, const struct sim_config *cfg, struct run_result *r)
{
	memset(r, 0, sizeof *r);
	struct sim_sink sink = { .ctx = &r->log, .event = evlog_sink };
	struct sim_error err;
	struct sim *s = sim_new(cfg, prog, &sink, &err);
	cr_assert_not_null(s, "%s", err.msg);
	r->status = sim_run(s);
	sim_summary(s, &r->sum);
	snprintf(r->msg, sizeof r->msg, "%s", sim_message(s));
	struct program_totals t;
	r->total_work = program_totals(prog, &t) == 0 ? t.work_us : -1;
	r->inexact = t.inexact;
	r->exit_main = prog->exit_main;
	sim_free(s);
}

void run_builtin(const char *name, const struct sim_config *cfg, const char *const *defines, struct run_result *r)
{
	struct program *p = load_builtin(name, defines);
	struct sim_config c = *cfg;
	if (c.procs == 0)
		c.procs = p->procs;
	run_program(p, &c, r);
	program_free(p);
}

void run_text(const char *json, const struct sim_config *cfg, struct run_result *r)
{
	struct program *p = load_text(json);
	run_program(p, cfg, r);
	program_free(p);
}

void run_result_free(struct run_result *r)
{
	free(r->log.ev);
	r->log = (struct evlog){ 0 };
}

struct sim *bare_sim(int procs, const struct program **prog_out, struct evlog *log)
{
	struct program *p = load_text("{\"main\": [], \"funcs\": {\"f\": [{\"run\": 100}]}, \"chans\": {\"c\": 0, \"b\": 2}}");
	struct sim_config cfg = test_config(procs);
	struct sim_sink sink = { .ctx = log, .event = log ? evlog_sink : NULL };
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, &sink, &err);
	cr_assert_not_null(s, "%s", err.msg);
	int inherit;
	int32_t gi = runq_get(s, 0, &inherit); /* the main G */
	cr_assert_eq(gi, 0);
	sim_move_g(s, gi, PL_DEAD, -1, R_EXIT);
	s->nlive--;
	*prog_out = p;
	return s;
}

long evlog_find(const struct evlog *l, size_t from, int ev, int g, int to)
{
	for (size_t i = from; i < l->n; i++) {
		const struct sim_event *e = &l->ev[i];
		if (e->ev == ev && (g < 0 || e->g == g) && (to < 0 || e->to == to))
			return (long)i;
	}
	return -1;
}

long first_start(const struct evlog *l, int g)
{
	long k = evlog_find(l, 0, EV_G, g, PL_RUNNING);
	return k < 0 ? -1 : (long)l->ev[k].t;
}
