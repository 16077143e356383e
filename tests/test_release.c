/* test_release.c: the rules that differ by Go release (sim/release.h),
 * each shown to change what the runtime model does between the release
 * before it and the release that brought it, and the seed model to follow
 * none of them. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"
#include "../sim/release.h"

static struct sim_config runtime_config(int procs, int go)
{
	struct sim_config cfg = test_config(procs);
	cfg.model = MODEL_RUNTIME;
	cfg.go_release = go;
	return cfg;
}

/* Records of kind ev going to state `to` at time t. */
static int count_to_at(const struct evlog *l, int ev, int to, int64_t t)
{
	int n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += l->ev[i].ev == ev && l->ev[i].to == to && l->ev[i].t == t;
	return n;
}

/* Records of kind ev (EV_M, EV_P) going to state `to`. */
static int count_to(const struct evlog *l, int ev, int to)
{
	int n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += l->ev[i].ev == ev && l->ev[i].to == to;
	return n;
}

Test(release, go_takes_1_19_to_1_26_with_or_without_a_patch_release)
{
	cr_assert_eq(release_parse("1.19"), 19);
	cr_assert_eq(release_parse("1.26"), 26);
	cr_assert_eq(release_parse("1.22.12"), 22);
	cr_assert_eq(release_parse("1.18"), -1, "older than the model's releases");
	cr_assert_eq(release_parse("1.27"), -1, "a release whose rules the model does not know");
	cr_assert_eq(release_parse("1.23.+1"), -1);
	cr_assert_eq(release_parse("1.23."), -1);
	cr_assert_eq(release_parse("2.0"), -1);
	cr_assert_eq(release_parse("1. 23"), -1);
}

Test(release, each_rule_starts_at_the_release_whose_source_has_it)
{
	cr_assert_eq(release_rules(19), 0u, "1.19 follows none of the table's rules");
	cr_assert_eq(release_rules(20), 1u << RR_NEEDSPINNING);
	cr_assert_eq(release_rules(21), 1u << RR_NEEDSPINNING);
	cr_assert_eq(release_rules(22), 1u << RR_GOSCHED_WAKEP | 1u << RR_NEEDSPINNING);
	cr_assert_eq(release_rules(23), 1u << RR_GOSCHED_WAKEP | 1u << RR_INJECTGLIST_WAKEP | 1u << RR_NEEDSPINNING);
	cr_assert_eq(release_rules(24), release_rules(23));
	cr_assert(release_rules(25) & 1u << RR_CGROUP_GOMAXPROCS);
	cr_assert(!(release_rules(25) & 1u << RR_SYSCALL_KEEPS_P));
	cr_assert(release_rules(26) & 1u << RR_SYSCALL_KEEPS_P);
}

/* main alone on 2 Ps: 20 rounds of 100us of work, then Gosched. */
static const char yield_json[] =
	"{\"procs\": 2, \"main\": [{\"repeat\": 20, \"body\": [{\"run\": \"100us\"}, {\"gosched\": true}]}]}";

Test(release, from_go_1_22_gosched_wakes_a_spinning_m_that_finds_nothing)
{
	struct sim_config cfg = runtime_config(2, 21);
	struct run_result a, b;
	run_text(yield_json, &cfg, &a);
	cfg.go_release = 22;
	run_text(yield_json, &cfg, &b);
	cr_assert_eq(a.status, SIM_DONE, "%s", a.msg);
	cr_assert_eq(b.status, SIM_DONE, "%s", b.msg);
	cr_assert_eq(count_to(&a.log, EV_M, MS_SPINNING), 1, "1.21: goschedImpl calls no wakep (M0 spins once main has exited)");
	cr_assert_eq(a.sum.threads_peak, 2, "M0 and sysmon");
	cr_assert_eq(count_to(&b.log, EV_M, MS_SPINNING), 1 + 20, "1.22: one spinning M per Gosched");
	cr_assert_eq(b.sum.threads_peak, 3, "the spinning M is a thread of its own");
	cr_assert_eq(b.sum.steals, 0, "main is back on P0 before the spinner looks: it finds nothing");
	cr_assert_eq(b.sum.makespan_us, a.sum.makespan_us);
	run_result_free(&a);
	run_result_free(&b);
}

Test(release, from_go_1_22_a_preempted_g_wakes_a_spinning_m_too)
{
	static const char hog_json[] = "{\"procs\": 2, \"main\": [{\"run\": \"45ms\"}]}";
	struct sim_config cfg = runtime_config(2, 21);
	struct run_result a, b;
	run_text(hog_json, &cfg, &a);
	cfg.go_release = 22;
	run_text(hog_json, &cfg, &b);
	cr_assert_eq(a.sum.preemptions, 4);
	cr_assert_eq(b.sum.preemptions, 4);
	cr_assert_eq(count_to(&a.log, EV_M, MS_SPINNING), 1, "1.21: gopreempt_m -> goschedImpl, no wakep");
	cr_assert_eq(count_to(&b.log, EV_M, MS_SPINNING), 1 + 4, "1.22: one spinning M per preemption");
	run_result_free(&a);
	run_result_free(&b);
}

/* Two network reads that complete at the same instant while main sleeps:
 * the M blocked in netpoll returns with both, runs one and injects the
 * other into the global queue for an idle P (startIdle). */
static const char inject_json[] =
	"{\"procs\": 4, \"main\": [{\"go\": \"r\"}, {\"go\": \"r\"}, {\"sleep\": \"3ms\"}],"
	" \"funcs\": {\"r\": [{\"net\": \"1ms\"}, {\"run\": \"100us\"}]}}";

Test(release, from_go_1_23_injectglist_ends_with_a_wakep)
{
	struct sim_config cfg = runtime_config(4, 22);
	struct run_result a, b;
	run_text(inject_json, &cfg, &a);
	cfg.go_release = 23;
	run_text(inject_json, &cfg, &b);
	cr_assert_eq(a.status, SIM_DONE, "%s", a.msg);
	cr_assert_eq(b.status, SIM_DONE, "%s", b.msg);
	long at = evlog_find(&b.log, 0, EV_G, 3, PL_RUNNING);
	at = evlog_find(&b.log, (size_t)at + 1, EV_G, 3, PL_RUNNING);
	cr_assert_geq(at, 0);
	cr_assert_eq(b.log.ev[at].t, 1000, "G3 runs when its data arrives");
	cr_assert_eq(b.log.ev[at].reason, R_NETPOLL);
	cr_assert_eq(count_to_at(&b.log, EV_M, MS_SPINNING, 1000), count_to_at(&a.log, EV_M, MS_SPINNING, 1000) + 1,
		     "1.23: one more spinning M when the data arrives, started by injectglist's wakep on the third P");
	cr_assert_eq(a.sum.threads_peak, 3);
	cr_assert_eq(b.sum.threads_peak, 4);
	/* main's 3 ms sleep ends when the netpoll M's whole-ms wait does
	 * (netpoll.h), which starts when an M first blocks there: 1.23's extra
	 * M at 1000 (2 ms + 0.1% of it), 1.22's at 1100 (1 ms + 1 us, early,
	 * then 1 ms + 1 us). */
	cr_assert_eq(a.sum.makespan_us, 3102);
	cr_assert_eq(b.sum.makespan_us, 3002);
	run_result_free(&a);
	run_result_free(&b);
}

/* Two Ps, no stealing: main starts G2 and enters a 1ms syscall; sysmon
 * retakes P0 for G2 (work in its runq), which enters a 5ms syscall on it
 * (P1 idle: nobody retakes P0 again); main comes out first and takes its
 * old P back from G2's M. */
static const char syscalls_json[] =
	"{\"procs\": 2, \"main\": [{\"go\": \"b\"}, {\"syscall\": \"1ms\"}, {\"run\": \"100us\"}],"
	" \"funcs\": {\"b\": [{\"syscall\": \"5ms\"}]}}";

/* The EV_G records' (t, g, from, to, reason, p): what the scheduler decided. */
static int same_g_records(const struct evlog *a, const struct evlog *b)
{
	size_t i = 0, j = 0;
	for (;;) {
		while (i < a->n && a->ev[i].ev != EV_G)
			i++;
		while (j < b->n && b->ev[j].ev != EV_G)
			j++;
		if (i == a->n || j == b->n)
			return i == a->n && j == b->n;
		const struct sim_event *x = &a->ev[i++], *y = &b->ev[j++];
		if (x->t != y->t || x->g != y->g || x->from != y->from || x->to != y->to || x->reason != y->reason ||
		    x->p != y->p || x->m != y->m)
			return 0;
	}
}

Test(release, in_go_1_26_a_p_stays_running_through_its_ms_syscall_with_the_same_decisions)
{
	struct sim_config cfg = runtime_config(2, 25);
	cfg.steal = 0;
	cfg.explain = 1;
	struct run_result a, b;
	run_text(syscalls_json, &cfg, &a);
	cfg.go_release = 26;
	run_text(syscalls_json, &cfg, &b);
	cr_assert_eq(a.status, SIM_DONE, "%s", a.msg);
	cr_assert_eq(b.status, SIM_DONE, "%s", b.msg);
	cr_assert_eq(count_to(&a.log, EV_P, PS_SYSCALL), 2, "1.25: _Psyscall at each entersyscall");
	cr_assert_eq(count_to(&b.log, EV_P, PS_SYSCALL), 0, "1.26: the P stays _Prunning");
	cr_assert(same_g_records(&a.log, &b.log), "every goroutine moves the same way at the same time");
	cr_assert_eq(b.sum.handoffs, a.sum.handoffs);
	cr_assert_eq(b.sum.makespan_us, a.sum.makespan_us);
	cr_assert_eq(a.sum.handoffs, 1, "P0 retaken once, for G2");
	long e25 = evlog_find(&a.log, 0, EV_G, 1, PL_RUNNING);
	e25 = evlog_find(&a.log, (size_t)e25 + 1, EV_G, 1, PL_RUNNING); /* out of its syscall */
	long e26 = evlog_find(&b.log, 0, EV_G, 1, PL_RUNNING);
	e26 = evlog_find(&b.log, (size_t)e26 + 1, EV_G, 1, PL_RUNNING);
	cr_assert(e25 > 0 && e26 > 0);
	cr_assert_eq(a.log.ev[e25].t, 1000);
	cr_assert_eq(a.log.ev[e25].p, 0, "on its old P");
	cr_assert_eq(a.log.ev[e25].reason, R_EXITSYSCALL);
	cr_assert_eq(a.log.ev[e25].rule, RULE_EXITSYSCALL_OLDP, "1.25: P0, in G2's _Psyscall, is taken back");
	cr_assert_eq(b.log.ev[e26].rule, RULE_EXITSYSCALL_TAKEP, "1.26: setBlockOnExitSyscall + takeP from G2's M");
	run_result_free(&a);
	run_result_free(&b);
}

/* The state while main is in its syscall, before sysmon retakes P0
 * (t = 10us): the P's status and links, as scheddetail prints them. */
static void state_in_syscall(int go, int *status, int32_t *pm, int32_t *mp_p)
{
	struct program *p = load_text(syscalls_json);
	struct sim_config cfg = runtime_config(2, go);
	cfg.steal = 0;
	cfg.until_us = 10;
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(sim_run(s), SIM_UNTIL);
	int32_t mi = -1;
	for (int32_t i = 0; i < s->nm; i++)
		if (s->allm[i].state == MS_SYSCALL)
			mi = i;
	cr_assert_geq(mi, 0, "an M is in a syscall");
	*status = s->allp[0].status;
	*pm = s->allp[0].m == mi;
	*mp_p = s->allm[mi].p;
	sim_free(s);
	program_free(p);
}

Test(release, in_go_1_26_the_m_in_a_syscall_keeps_its_p_wired)
{
	int status;
	int32_t wired, mp_p;
	state_in_syscall(25, &status, &wired, &mp_p);
	cr_assert_eq(status, P_SYSCALL);
	cr_assert_eq(wired, 0);
	cr_assert_eq(mp_p, -1, "1.25: m.p = 0");
	state_in_syscall(26, &status, &wired, &mp_p);
	cr_assert_eq(status, P_RUNNING, "1.26: _Prunning");
	cr_assert_eq(wired, 1, "p.m is the M in the syscall");
	cr_assert_eq(mp_p, 0, "m.p is P0");
}

Test(release, from_go_1_25_gomaxprocs_defaults_to_the_cpu_limit_rounded_up_at_least_2)
{
	cr_assert_eq(release_default_gomaxprocs(24, 8, 2500), 8, "1.24: NumCPU, the quota ignored");
	cr_assert_eq(release_default_gomaxprocs(25, 8, 2500), 3, "ceil(2.5)");
	cr_assert_eq(release_default_gomaxprocs(25, 8, 1000), 2, "at least 2");
	cr_assert_eq(release_default_gomaxprocs(25, 8, 500), 2);
	cr_assert_eq(release_default_gomaxprocs(25, 1, 500), 1, "never above the CPUs");
	cr_assert_eq(release_default_gomaxprocs(25, 4, 8000), 4);
	cr_assert_eq(release_default_gomaxprocs(25, 8, 0), 8, "no limit: the CPUs, as every release");
	cr_assert_eq(release_default_gomaxprocs(26, 8, 2001), 3);
}

Test(release, the_seed_model_follows_no_release_rule)
{
	const char *const progs[] = { yield_json, inject_json, syscalls_json };
	for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) {
		struct sim_config cfg = test_config(2);
		cfg.model = MODEL_SEED;
		cfg.go_release = 19;
		struct run_result a, b;
		run_text(progs[i], &cfg, &a);
		cfg.go_release = 26;
		run_text(progs[i], &cfg, &b);
		cr_assert_eq(a.status, SIM_DONE, "%s", a.msg);
		cr_assert_eq(b.sum.fingerprint, a.sum.fingerprint, "program %zu: the same events for every --go", i);
		run_result_free(&a);
		run_result_free(&b);
	}
}
