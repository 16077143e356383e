/* test_proc.c: handoffp's cases in order, startm, exitsyscall's three
 * outcomes and the thread limit, each on a hand-built state. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "../sim/proc.h"
#include "../sim/runq.h"
#include "../sim/syscall.h"
#include "helpers.h"

static struct sim *s;
static const struct program *prog;
static struct evlog log_;

static void setup(void) { s = bare_sim(3, &prog, &log_); }
static void teardown(void)
{
	sim_free(s);
	program_free((struct program *)prog);
	free(log_.ev);
	log_ = (struct evlog){ 0 };
}

TestSuite(proc, .init = setup, .fini = teardown);

/* P pi as sysmon finds it when it retakes: _Psyscall, no M, not idle. */
static void syscall_p(int32_t pi)
{
	if (s->allp[pi].status == P_IDLE) { /* take it off the idle stack */
		int32_t prev = -1;
		for (int32_t q = s->pidle; q >= 0; prev = q, q = s->allp[q].link)
			if (q == pi) {
				if (prev < 0)
					s->pidle = s->allp[q].link;
				else
					s->allp[prev].link = s->allp[q].link;
				s->npidle--;
				break;
			}
	}
	p_set_status(s, pi, P_SYSCALL);
	s->allp[pi].m = -1;
}

static int handoff_count(void)
{
	int n = 0;
	for (size_t i = 0; i < log_.n; i++)
		n += log_.ev[i].ev == EV_HANDOFF;
	return n;
}

Test(proc, handoffp_starts_an_m_for_a_p_with_local_work)
{
	syscall_p(1);
	runq_put(s, 1, sim_newg(s, 0), 0, R_GO);
	sched_handoffp(s, 1, 0);
	cr_assert_eq(s->allp[1].status, P_RUNNING);
	cr_assert_eq(s->allm[s->allp[1].m].state, MS_RUNNING, "not spinning: it has work");
	cr_assert_eq(handoff_count(), 1);
}

Test(proc, handoffp_starts_an_m_when_the_global_queue_has_work)
{
	syscall_p(1);
	int32_t g = sim_newg(s, 0);
	globrunq_put(s, g, R_NONE);
	sched_handoffp(s, 1, 0);
	cr_assert_eq(s->allp[1].status, P_RUNNING);
}

Test(proc, handoffp_starts_a_spinning_m_when_no_p_is_idle_and_nobody_spins)
{
	syscall_p(1);
	syscall_p(2); /* P0 runs, P1 and P2 are in syscalls: npidle == 0 */
	sched_handoffp(s, 1, 0);
	cr_assert_eq(s->allp[1].status, P_RUNNING);
	cr_assert_eq(s->allm[s->allp[1].m].state, MS_SPINNING);
}

Test(proc, handoffp_starts_an_m_for_the_last_running_p_so_someone_polls)
{
	syscall_p(0); /* P1, P2 idle; P0 is the last non-idle P */
	s->allm[0].p = -1;
	sched_handoffp(s, 0, 0);
	cr_assert_eq(s->allp[0].status, P_RUNNING);
	cr_assert_eq(handoff_count(), 1);
}

Test(proc, handoffp_otherwise_puts_the_p_on_the_idle_stack)
{
	syscall_p(1); /* P0 running, P2 idle, P1 with nothing: not the last */
	int idle = s->npidle;
	sched_handoffp(s, 1, 0);
	cr_assert_eq(s->allp[1].status, P_IDLE);
	cr_assert_eq(s->npidle, idle + 1);
	cr_assert_eq(s->pidle, 1, "the idle stack is LIFO");
	cr_assert_eq(handoff_count(), 0);
}

Test(proc, startm_reuses_the_most_recently_parked_m)
{
	int32_t a = proc_newm(s), b = proc_newm(s);
	proc_mput(s, a);
	proc_mput(s, b);
	int32_t pi = proc_pidleget(s);
	cr_assert_eq(proc_startm(s, pi, 0), b);
}

Test(proc, a_thread_past_the_limit_kills_the_program)
{
	s->cfg.max_threads = s->nm + 1;
	cr_assert_geq(proc_newm(s), 0);
	cr_assert_eq(proc_newm(s), -1);
	cr_assert_eq(s->status, SIM_DIED);
	cr_assert_str_eq(s->msg, "runtime: program exceeds 3-thread limit\nfatal error: thread exhaustion");
}

/* G gi running on P0 / M0 enters a syscall; the test then decides what
 * happened to P0 meanwhile. */
static int32_t enter(void)
{
	int32_t gi = sim_newg(s, 0);
	s->allm[0].curg = gi;
	sim_move_g(s, gi, PL_RUNNING, 0, R_SCHEDULE);
	syscall_enter(s, gi, 100);
	cr_assert_eq(s->allp[0].status, P_SYSCALL);
	cr_assert_eq(s->allp[0].m, -1);
	return gi;
}

Test(proc, exitsyscall_takes_its_old_p_back_when_it_was_not_retaken)
{
	int32_t gi = enter();
	uint32_t tick = s->allp[0].syscalltick;
	cr_assert_eq(syscall_exit(s, gi), 0, "it runs on P0 (exec.c resumes it)");
	cr_assert_eq(s->allp[0].status, P_RUNNING);
	cr_assert_eq(s->allp[0].m, 0);
	cr_assert_eq(s->allp[0].syscalltick, tick + 1);
}

Test(proc, exitsyscall_takes_an_idle_p_when_its_own_was_retaken)
{
	int32_t gi = enter();
	s->allp[0].syscalltick++; /* retake: P0 handed to another M */
	s->allp[0].sysm = -1;
	int32_t m2 = proc_newm(s);
	proc_acquirep(s, m2, 0, MS_RUNNING);
	int32_t top = s->pidle;
	cr_assert_eq(syscall_exit(s, gi), top);
	cr_assert_eq(s->allm[0].p, top, "the P on top of the idle stack");
}

Test(proc, exitsyscall_without_a_p_queues_the_g_globally_and_parks_the_m)
{
	int32_t gi = enter();
	s->allp[0].sysm = -1; /* retaken */
	int32_t m2 = proc_newm(s);
	proc_acquirep(s, m2, 0, MS_RUNNING);
	while (s->pidle >= 0) { /* every other P busy */
		int32_t pi = proc_pidleget(s);
		proc_acquirep(s, proc_newm(s), pi, MS_RUNNING);
	}
	cr_assert_eq(syscall_exit(s, gi), -1);
	cr_assert_eq(s->allg[gi].place, PL_GLOBAL);
	cr_assert_eq(s->allm[0].state, MS_IDLE);
	cr_assert_eq(s->midle, 0);
}
