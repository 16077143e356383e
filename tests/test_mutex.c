/* test_mutex.c: sync.Mutex's normal and starvation modes (sync/mutex.go
 * over runtime/sema.go). */
#include <criterion/criterion.h>

#include <string.h>

#include "helpers.h"

static struct sim_config cfg_check(int procs)
{
	struct sim_config cfg = test_config(procs);
	cfg.check = 1;
	return cfg;
}

/* main holds mu and re-locks it every 100 us; w wants it once. */
static const char *const hog =
	"{\"procs\": 2, \"mutexes\": [\"mu\"], \"main\": [{\"go\": \"w\"}, {\"lock\": \"mu\"}, {\"repeat\": 30, \"body\":"
	" [{\"run\": \"100us\"}, {\"unlock\": \"mu\"}, {\"lock\": \"mu\"}]}, {\"unlock\": \"mu\"}],"
	" \"funcs\": {\"w\": [{\"run\": 10}, {\"lock\": \"mu\"}, {\"run\": 10}, {\"unlock\": \"mu\"}]}}";

Test(mutex, in_normal_mode_a_woken_waiter_loses_to_the_unlocker_and_requeues)
{
	struct sim_config cfg = cfg_check(2);
	struct run_result r;
	run_text(hog, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	int parks = 0;
	for (size_t i = 0; i < r.log.n; i++) {
		const struct sim_event *e = &r.log.ev[i];
		if (e->ev == EV_G && e->g == 2 && e->to == PL_WAITING && e->t < 1000) {
			cr_assert_eq(e->wait, WR_MUTEX);
			cr_assert_eq(e->reason, R_LOCK);
			parks++;
		}
	}
	cr_assert_geq(parks, 5, "woken every 100 us, it finds the lock taken again");
	run_result_free(&r);
}

Test(mutex, starvation_mode_starts_after_1ms_of_waiting_and_hands_the_lock_over)
{
	struct sim_config cfg = cfg_check(2);
	struct run_result r;
	run_text(hog, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long y = -1;
	for (size_t i = 0; i < r.log.n && y < 0; i++)
		if (r.log.ev[i].ev == EV_G && r.log.ev[i].reason == R_YIELD)
			y = (long)i;
	cr_assert_geq(y, 0, "an Unlock in starvation mode yields to the waiter (goyield)");
	cr_assert_eq(r.log.ev[y].g, 1);
	cr_assert_gt(r.log.ev[y].t, 1010, "only after w has waited over 1 ms");
	cr_assert_leq(r.log.ev[y].t, 1210, "at the first Unlock after that");
	long dead = evlog_find(&r.log, 0, EV_G, 2, PL_DEAD);
	cr_assert_eq(r.log.ev[dead].t, r.log.ev[y].t + 10, "w ran at once and finished");
	run_result_free(&r);
}

Test(mutex, unlock_of_an_unlocked_mutex_is_fatal)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"mutexes\": [\"mu\"], \"main\": [{\"unlock\": \"mu\"}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED);
	cr_assert_eq(r.sum.outcome, OUT_PANIC);
	cr_assert(strncmp(r.msg, "fatal error: sync: unlock of unlocked mutex", 43) == 0, "%s", r.msg);
	run_result_free(&r);
}

Test(mutex, locking_twice_is_a_deadlock)
{
	struct sim_config cfg = cfg_check(1);
	struct run_result r;
	run_text("{\"mutexes\": [\"mu\"], \"main\": [{\"lock\": \"mu\"}, {\"lock\": \"mu\"}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DIED);
	cr_assert_eq(r.sum.outcome, OUT_DEADLOCK);
	run_result_free(&r);
}

Test(mutex, the_lock_serializes_its_holders)
{
	struct sim_config cfg = cfg_check(4);
	struct run_result r;
	run_builtin("mutex", &cfg, NULL, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_geq(r.sum.makespan_us, 8 * 50 * 20, "n * rounds * hold, one holder at a time");
	run_result_free(&r);
}

/* The runtime model's active spinning (lockSlow: sync_runtime_canSpin,
 * sync_runtime_doSpin). h, kicked from runnext to main's queue, is
 * stolen at once and holds mu over 0..10; w, left in main's runnext, is
 * stolen after runqgrab's back-off (usleep(3) + 6 us of slack) and asks
 * for mu at 9; main keeps a third P busy. */
static const char *const brief_hold =
	"{\"procs\": 4, \"mutexes\": [\"mu\"], \"main\": [{\"go\": \"h\"}, {\"go\": \"w\"}, {\"run\": 100}],"
	" \"funcs\": {\"h\": [{\"lock\": \"mu\"}, {\"run\": 10}, {\"unlock\": \"mu\"}],"
	" \"w\": [{\"lock\": \"mu\"}, {\"run\": 10}, {\"unlock\": \"mu\"}]}}";

static struct sim_config spin_config(int cpus)
{
	struct sim_config cfg = cfg_check(4);
	cfg.model = MODEL_RUNTIME; /* thread times and slack 0: the Gs start at once */
	cfg.cost_switch_ns = 1;    /* costs on: a spin is paid as CPU time */
	cfg.cpus = cpus;
	cfg.slack = SLACK_FIXED;
	cfg.sysmon_slack_us = 6;
	return cfg;
}

/* Whether G g ever parked on the mutex. */
static int parked_on_mutex(const struct evlog *l, int g)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].ev == EV_G && l->ev[i].g == g && l->ev[i].to == PL_WAITING && l->ev[i].wait == WR_MUTEX)
			return 1;
	return 0;
}

Test(mutex, the_runtime_model_spins_for_a_briefly_held_lock_instead_of_parking)
{
	struct sim_config cfg = spin_config(0);
	struct run_result r;
	run_text(brief_hold, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long hd = evlog_find(&r.log, 0, EV_G, 2, PL_DEAD), wd = evlog_find(&r.log, 0, EV_G, 3, PL_DEAD);
	cr_assert(hd >= 0 && wd >= 0);
	cr_assert_eq(r.log.ev[hd].t, 10, "h held mu over 0..10");
	cr_assert_not(parked_on_mutex(&r.log, 3), "w spins (procyield(30), 0.74 us a time, up to 4 times) and takes mu");
	cr_assert_leq(r.log.ev[wd].t, 10 + 1 + 10, "w holds mu within a spin of h's Unlock");
	run_result_free(&r);
}

Test(mutex, no_spin_on_a_single_cpu)
{
	struct sim_config cfg = spin_config(1); /* ncpu <= 1: sync_runtime_canSpin refuses */
	struct run_result r;
	run_text(brief_hold, &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert(parked_on_mutex(&r.log, 3), "one CPU: the holder cannot run while w spins, so w parks at once");
	run_result_free(&r);
}
