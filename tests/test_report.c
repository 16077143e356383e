/* test_report.c: the report on hand-written event streams (latency by
 * nearest rank, time split, long waits and who ran meanwhile) and on real
 * runs (each goroutine's split sums to its lifetime; run segments are not
 * kept once no wait is open). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "../trace/report_impl.h"
#include "helpers.h"

static const char *const fn_names[] = { "main", "worker" };

static struct report *open_report(int procs, int64_t threshold_us)
{
	struct trace_meta m = { .workload = "hand", .procs = procs, .nfuncs = 2, .func_names = fn_names };
	struct report_opts ro = { .threshold_us = threshold_us };
	struct report *r = report_open(&m, &ro);
	cr_assert_not_null(r);
	return r;
}

/* A G record: g moves from -> to at t on P p (from P fp). */
static void move(struct report *r, int64_t t, int g, int from, int fp, int to, int p, int fn)
{
	struct sim_event e = { .t = t, .ev = EV_G, .g = g, .from = (uint8_t)from, .from_p = fp, .to = (uint8_t)to,
			       .p = p, .m = -1, .fn = fn, .obj = -1 };
	cr_assert_eq(report_event(r, &e), 0);
}

static json_t *as_json(struct report *r, int64_t end)
{
	report_finish(r, end);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_eq(report_write(r, f, REPORT_JSON, NULL), 0);
	fclose(f);
	json_error_t err;
	json_t *j = json_loads(buf, 0, &err);
	cr_assert_not_null(j, "%s: %s", err.text, buf);
	free(buf);
	return j;
}

static json_int_t get(json_t *j, const char *path)
{
	json_t *v = json_object_get(j, path);
	cr_assert_not_null(v, "no %s", path);
	return json_integer_value(v);
}

Test(report, latency_percentiles_follow_the_nearest_rank_rule)
{
	struct report *r = open_report(1, 0);
	/* G1 waits 10, 30, 20, 40 us before it runs (four samples). */
	int64_t t = 0, waits[] = { 10, 30, 20, 40 };
	move(r, 0, 1, PL_NEW, -1, PL_LOCAL, 0, 0);
	for (int i = 0; i < 4; i++) {
		t += waits[i];
		move(r, t, 1, PL_LOCAL, 0, PL_RUNNING, 0, -1);
		t += 5;
		move(r, t, 1, PL_RUNNING, 0, PL_LOCAL, 0, -1);
	}
	move(r, t, 1, PL_LOCAL, 0, PL_RUNNING, 0, -1); /* a fifth sample of 0 */
	move(r, t + 5, 1, PL_RUNNING, 0, PL_DEAD, -1, -1);
	json_t *j = as_json(r, t + 5);
	json_t *lat = json_object_get(j, "latency");
	cr_assert_eq(get(lat, "count"), 5);
	cr_assert_eq(get(lat, "p50_us"), 20, "ceil(0.5*5) = 3rd of 0,10,20,30,40");
	cr_assert_eq(get(lat, "p90_us"), 40, "ceil(0.9*5) = 5th");
	cr_assert_eq(get(lat, "max_us"), 40);
	json_t *g1 = json_array_get(json_object_get(j, "goroutines"), 0);
	json_t *tu = json_object_get(g1, "time_us");
	cr_assert_eq(get(tu, "local"), 100);
	cr_assert_eq(get(tu, "running"), 25);
	cr_assert_eq(get(g1, "lifetime_us"), 125);
	json_decref(j);
	report_free(r);
}

Test(report, a_goroutine_netpoll_runs_at_once_is_a_latency_sample_of_zero)
{
	struct report *r = open_report(1, 0);
	move(r, 0, 1, PL_NEW, -1, PL_LOCAL, 0, 0);
	move(r, 10, 1, PL_LOCAL, 0, PL_RUNNING, 0, -1); /* waited 10 */
	move(r, 20, 1, PL_RUNNING, 0, PL_WAITING, -1, -1);
	move(r, 50, 1, PL_WAITING, -1, PL_RUNNING, 0, -1); /* findRunnable's netpoll ran it */
	move(r, 60, 1, PL_RUNNING, 0, PL_DEAD, -1, -1);
	json_t *j = as_json(r, 60);
	json_t *lat = json_object_get(j, "latency");
	cr_assert_eq(get(lat, "count"), 2);
	cr_assert_eq(get(lat, "p50_us"), 0);
	cr_assert_eq(get(lat, "max_us"), 10);
	json_decref(j);
	report_free(r);
}

Test(report, a_long_wait_names_who_ran_on_each_p_meanwhile)
{
	struct report *r = open_report(2, 50);
	move(r, 0, 1, PL_NEW, -1, PL_RUNNING, 0, 0);
	move(r, 0, 2, PL_NEW, -1, PL_LOCAL, 0, 1);
	move(r, 0, 3, PL_NEW, -1, PL_RUNNING, 1, 1);
	move(r, 30, 3, PL_RUNNING, 1, PL_DEAD, -1, -1); /* P1 ran G3 for 30 of the wait */
	move(r, 100, 1, PL_RUNNING, 0, PL_DEAD, -1, -1);
	move(r, 100, 2, PL_LOCAL, 0, PL_RUNNING, 0, -1); /* waited 100 > 50 */
	move(r, 110, 2, PL_RUNNING, 0, PL_DEAD, -1, -1);
	json_t *j = as_json(r, 110);
	json_t *lw = json_object_get(j, "long_waits");
	cr_assert_eq(get(lw, "count"), 1);
	json_t *w = json_array_get(json_object_get(lw, "list"), 0);
	cr_assert_eq(get(w, "g"), 2);
	cr_assert_eq(get(w, "runnable_us"), 100);
	json_t *ran = json_object_get(w, "ran_meanwhile");
	cr_assert_eq(json_array_size(ran), 2);
	json_t *a = json_array_get(ran, 0), *b = json_array_get(ran, 1);
	cr_assert_eq(get(a, "p"), 0);
	cr_assert_eq(get(a, "g"), 1);
	cr_assert_eq(get(a, "us"), 100);
	cr_assert_eq(get(b, "p"), 1);
	cr_assert_eq(get(b, "g"), 3);
	cr_assert_eq(get(b, "us"), 30);
	json_decref(j);
	report_free(r);
}

/* Feeds a whole run's records to a report. */
static struct report *report_of(const char *workload, int procs, int64_t threshold_us, const char *const *defines,
				struct run_result *rr)
{
	struct sim_config cfg = test_config(procs);
	run_builtin(workload, &cfg, defines, rr);
	struct report *r = open_report(procs ? procs : rr->sum.procs, threshold_us);
	for (size_t i = 0; i < rr->log.n; i++)
		cr_assert_eq(report_event(r, &rr->log.ev[i]), 0);
	return r;
}

Test(report, every_goroutines_split_sums_to_its_lifetime)
{
	const char *const ws[] = { "fanout", "syscalls", "pingpong", "tightloop", "sleepers" };
	for (size_t k = 0; k < sizeof ws / sizeof ws[0]; k++) {
		struct run_result rr;
		struct report *r = report_of(ws[k], 2, 0, NULL, &rr);
		report_finish(r, rr.sum.makespan_us);
		cr_assert_eq(r->ng, rr.sum.goroutines, "%s", ws[k]);
		for (int64_t gi = 0; gi < r->ng; gi++) {
			const struct rg *gp = &r->gs[gi];
			int64_t sum = 0;
			for (int i = 0; i < TK__N; i++)
				sum += gp->t[i];
			for (int32_t b = gp->blocked; b >= 0; b = r->bnodes[b].next)
				sum += r->bnodes[b].us;
			int64_t life = (gp->died >= 0 ? gp->died : r->end) - gp->born;
			cr_assert_eq(sum, life, "%s G%lld", ws[k], (long long)gi + 1);
		}
		for (int p = 0; p < r->meta.procs; p++)
			cr_assert_eq(r->ps[p].t[PK_BUSY], rr.sum.busy_us[p], "%s P%d busy", ws[k], p);
		report_free(r);
		run_result_free(&rr);
	}
}

Test(report, run_segments_are_not_kept_once_no_wait_is_open)
{
	struct run_result rr;
	const char *const defs[] = { "rounds=20000", NULL };
	struct report *r = report_of("pingpong", 1, REPORT_THRESHOLD_DEFAULT_US, defs, &rr);
	/* 40000 hand-offs ran; at the end nothing waits, so nothing is kept.
	 * The log held at most what ran while the longest wait lasted (the
	 * `other` goroutine's 10 ms slice: about 1000 runs of 10 us), not the
	 * 40000 runs of the whole run. */
	cr_assert_gt(r->cnt.events, 80000);
	cr_assert_eq(r->nseg - r->seg_head, 0);
	cr_assert_eq(r->nopen - r->open_head, 0);
	cr_assert_leq(r->seg_cap, 2048, "the segment log stays small (%lld)", (long long)r->seg_cap);
	report_free(r);
	run_result_free(&rr);
}
