/* test_needspinning.c: sched.needspinning in the runtime model (Go 1.20+,
 * release.h NEEDSPINNING): set where pidlegetSpinning finds no idle P,
 * cleared by becomeSpinning. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "helpers.h"

/* One P, always busy: main's go statement calls wakep with no M spinning
 * and no idle P. */
static const char busy_json[] =
	"{\"procs\": 1, \"main\": [{\"go\": \"w\"}, {\"run\": 100}], \"funcs\": {\"w\": [{\"run\": 100}]}}";

static int needspinning_after_boot(int release)
{
	struct program *p = load_text(busy_json);
	struct sim_config cfg = test_config(1);
	cfg.model = MODEL_RUNTIME;
	cfg.go_release = release;
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(sim_step(s), SIM_RUNNING);
	int v = s->needspinning;
	cr_assert_eq(sim_run(s), SIM_DONE);
	sim_free(s);
	program_free(p);
	return v;
}

Test(needspinning, a_wakep_that_finds_no_idle_p_sets_it_from_go_1_20)
{
	cr_assert_eq(needspinning_after_boot(20), 1, "newproc -> wakep -> pidlegetSpinning: no P");
	cr_assert_eq(needspinning_after_boot(23), 1);
	cr_assert_eq(needspinning_after_boot(19), 0, "Go 1.19 has no needspinning");
}

Test(needspinning, the_seed_model_never_sets_it)
{
	struct program *p = load_text(busy_json);
	struct sim_config cfg = test_config(1);
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	while (sim_step(s) == SIM_RUNNING)
		cr_assert_eq(s->needspinning, 0);
	sim_free(s);
	program_free(p);
}

/* Two Ps busy; main starts a G (no idle P: needspinning), then w1 exits
 * and its M, out of local work, becomes spinning to steal main's new G
 * (becomeSpinning clears needspinning). */
static const char drop_json[] =
	"{\"procs\": 2, \"main\": [{\"go\": \"w1\"}, {\"run\": 20}, {\"go\": \"w2\"}, {\"run\": 100}],"
	" \"funcs\": {\"w1\": [{\"run\": 30}], \"w2\": [{\"run\": 10}]}}";

Test(needspinning, an_m_that_becomes_spinning_clears_it)
{
	struct program *p = load_text(drop_json);
	struct sim_config cfg = test_config(2);
	cfg.model = MODEL_RUNTIME;
	struct evlog log = { 0 };
	struct sim_sink sink = { .ctx = &log, .event = evlog_sink };
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, &sink, &err);
	cr_assert_not_null(s, "%s", err.msg);
	int seen = 0;
	while (sim_step(s) == SIM_RUNNING)
		if (sim_now(s) == 20)
			seen = s->needspinning;
	cr_assert_eq(s->status, SIM_DONE, "%s", sim_message(s));
	cr_assert_eq(seen, 1, "at 20us main's go statement found both Ps busy");
	cr_assert_eq(s->needspinning, 0, "an M became spinning since");
	sim_free(s);
	program_free(p);
	free(log.ev);
}
