/* test_check.c: --check is incremental (each check: every P and the Gs
 * moved since the last; the whole state walked every so often and at the
 * end), and still finds what breaks, by either path. */
#include <criterion/criterion.h>
#include <string.h>

#include "../sim/runq.h"
#include "../sim/timer.h"
#include "helpers.h"

static struct sim *s;
static const struct program *prog;

static void setup(void)
{
	s = bare_sim(4, &prog, NULL);
	s->cfg.check = 1;
}
static void teardown(void)
{
	sim_free(s);
	program_free((struct program *)prog);
}

TestSuite(check, .init = setup, .fini = teardown);

static int32_t local_g(int32_t pi)
{
	int32_t gi = sim_newg(s, 0);
	runq_put(s, pi, gi, 0, R_GO);
	return gi;
}

Test(check, a_moved_g_that_is_not_where_it_records_is_found_by_the_next_check)
{
	local_g(0);
	int32_t gi = local_g(0);
	sim_check_full(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", sim_message(s));
	sim_move_g(s, gi, PL_LOCAL, 1, R_STEAL); /* records P1's ring; still in P0's */
	sim_check(s);
	cr_assert_eq(s->status, SIM_BROKEN);
	cr_assert(strstr(sim_message(s), "moved to local but is not there") != NULL, "%s", sim_message(s));
}

Test(check, a_break_no_step_touched_is_found_by_the_full_walk_within_its_period)
{
	int32_t gi = sim_newg(s, 0);
	globrunq_put(s, gi, R_GO);
	sim_check_full(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", sim_message(s));
	s->allg[gi].place = PL_SYSCALL; /* in the global queue, records a syscall; no move */
	sim_check(s);
	cr_assert_eq(s->status, SIM_RUNNING, "an untouched G is left to the full walk");
	int n = 1; /* the state is small: the period is its floor, 64 checks */
	while (s->status == SIM_RUNNING && n++ < 64)
		sim_check(s);
	cr_assert_eq(s->status, SIM_BROKEN, "not found within 64 checks");
	cr_assert(strstr(sim_message(s), "global queue") != NULL, "%s", sim_message(s));
}

Test(check, a_run_ends_with_a_full_walk)
{
	int32_t gi = sim_newg(s, 0);
	globrunq_put(s, gi, R_GO);
	s->allg[gi].place = PL_SYSCALL;
	sim_check_full(s);
	cr_assert_eq(s->status, SIM_BROKEN);
}

Test(check, an_idle_p_left_in_busyp_is_found_by_the_next_check)
{
	sim_check(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", sim_message(s));
	pmask_add(s->busyp, 2); /* P2 is idle */
	sim_check(s);
	cr_assert_eq(s->status, SIM_BROKEN);
	cr_assert(strstr(sim_message(s), "busyp"), "%s", sim_message(s));
}

Test(check, a_p_with_timers_missing_from_timerp_is_found_by_the_next_check)
{
	int32_t gi = sim_newg(s, 0);
	sim_move_g_waiting(s, gi, R_SLEEP, WR_SLEEP, -1);
	cr_assert_eq(timer_add(s, 1, gi, 1000, PARAM_OK), 0);
	sim_check(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", sim_message(s));
	pmask_del(s->timerp, 1);
	sim_check(s);
	cr_assert_eq(s->status, SIM_BROKEN);
	cr_assert(strstr(sim_message(s), "timerpMask"), "%s", sim_message(s));
}

Test(check, a_p_with_a_queued_g_missing_from_runqp_is_found_by_the_next_check)
{
	local_g(0);
	sim_check(s);
	cr_assert_eq(s->status, SIM_RUNNING, "%s", sim_message(s));
	pmask_del(s->runqp, 0);
	sim_check(s);
	cr_assert_eq(s->status, SIM_BROKEN);
	cr_assert(strstr(sim_message(s), "runqp"), "%s", sim_message(s));
}
