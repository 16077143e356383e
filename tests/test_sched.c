/* test_sched.c: findRunnable's order and stealing, on hand-built states. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "../sim/runq.h"
#include "../sim/sched.h"
#include "helpers.h"

static struct sim *s;
static const struct program *prog;

static void setup(void) { s = bare_sim(4, &prog, NULL); }
static void teardown(void)
{
	sim_free(s);
	program_free((struct program *)prog);
}

TestSuite(sched, .init = setup, .fini = teardown);

static int32_t global_g(void)
{
	int32_t gi = sim_newg(s, 0);
	sim_move_g(s, gi, PL_GLOBAL, -1, R_NONE);
	gqueue_push(s, &s->runq, gi);
	return gi;
}

static int32_t local_g(int32_t pi, int next)
{
	int32_t gi = sim_newg(s, 0);
	runq_put(s, pi, gi, next, R_GO);
	return gi;
}

Test(sched, every_61st_schedtick_takes_one_g_from_global_before_runnext)
{
	int32_t glob = global_g();
	local_g(0, 1);
	s->allp[0].schedtick = 61;
	struct found f;
	cr_assert(sched_find_runnable(s, 0, &f));
	cr_assert_eq(f.g, glob);
	cr_assert_eq(f.inherit, 0);
}

Test(sched, other_schedticks_take_runnext_then_the_ring_then_global)
{
	int32_t glob = global_g();
	int32_t ring = local_g(0, 0);
	int32_t next = local_g(0, 1);
	s->allp[0].schedtick = 60;
	struct found f;
	cr_assert(sched_find_runnable(s, 0, &f));
	cr_assert_eq(f.g, next);
	cr_assert_eq(f.inherit, 1);
	cr_assert(sched_find_runnable(s, 0, &f));
	cr_assert_eq(f.g, ring);
	cr_assert(sched_find_runnable(s, 0, &f));
	cr_assert_eq(f.g, glob);
}

Test(sched, a_p_with_nothing_steals_from_a_busy_p)
{
	for (int i = 0; i < 4; i++)
		local_g(0, 0);
	s->allp[1].status = P_RUNNING;
	struct found f;
	s->allp[1].schedtick = 1;
	cr_assert(sched_find_runnable(s, 1, &f));
	cr_assert_eq(f.reason, R_STEAL);
	cr_assert_eq(runq_len(&s->allp[0]), 2);
	cr_assert_eq(runq_len(&s->allp[1]), 1);
}

Test(sched, steal_off_never_takes_from_another_p)
{
	local_g(0, 0);
	s->cfg.steal = 0;
	struct found f;
	s->allp[1].schedtick = 1;
	cr_assert_not(sched_find_runnable(s, 1, &f));
	cr_assert_eq(runq_len(&s->allp[0]), 1);
}

Test(sched, idle_victims_are_skipped_and_runnext_is_taken_on_the_last_pass)
{
	int32_t g = local_g(2, 1); /* P2 idle with work breaks no rule here: we only look */
	s->allp[2].status = P_IDLE;
	struct found f;
	s->allp[1].schedtick = 1;
	cr_assert_not(sched_find_runnable(s, 1, &f), "idle P2 is not a victim");
	s->allp[2].status = P_SYSCALL; /* a P in a syscall can be robbed */
	cr_assert(sched_find_runnable(s, 1, &f));
	cr_assert_eq(f.g, g);
}
