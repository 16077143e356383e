/* test_evq.c: the event queue: (time, sequence) order, one pending event
 * per keyed slot (replaced, cancelled), and a queue whose size follows the
 * program's state, not how long it runs. */
#include <criterion/criterion.h>

#include "helpers.h"

static struct evq_item pop(struct evq *q)
{
	struct evq_item it;
	cr_assert_eq(evq_pop(q, &it), 1);
	return it;
}

Test(evq, a_slot_keeps_one_pending_event_replaced_or_cancelled)
{
	struct evq q;
	cr_assert_eq(evq_init(&q, 3), 0);
	cr_assert_eq(evq_schedule(&q, 0, 50, EVQ_CPU_DONE, 0, 1), 0);
	cr_assert_eq(evq_push(&q, 30, EVQ_SYSCALL_DONE, 7, 0), 0);
	cr_assert_eq(evq_schedule(&q, 1, 30, EVQ_CPU_DONE, 1, 1), 0);
	cr_assert_eq(evq_schedule(&q, 0, 10, EVQ_CPU_DONE, 0, 2), 0); /* moves earlier */
	cr_assert_eq(evq_schedule(&q, 2, 40, EVQ_CPU_DONE, 2, 1), 0);
	cr_assert_eq(evq_schedule(&q, 2, 90, EVQ_CPU_DONE, 2, 2), 0); /* moves later */
	cr_assert_eq(evq_size(&q), 4, "one per slot plus the unkeyed one");
	evq_cancel(&q, 1);
	evq_cancel(&q, 1); /* nothing pending: no-op */
	cr_assert_eq(evq_size(&q), 3);
	struct evq_item a = pop(&q), b = pop(&q), c = pop(&q);
	cr_assert(a.t == 10 && a.id == 0 && a.gen == 2);
	cr_assert(b.t == 30 && b.kind == EVQ_SYSCALL_DONE && b.id == 7);
	cr_assert(c.t == 90 && c.id == 2 && c.gen == 2);
	cr_assert(evq_empty(&q));
	cr_assert_eq(evq_schedule(&q, 0, 5, EVQ_CPU_DONE, 0, 3), 0, "a popped slot can be scheduled again");
	cr_assert_eq(evq_size(&q), 1);
	evq_free(&q);
}

Test(evq, a_popped_slot_rescheduled_at_once_or_after_other_calls_comes_out_in_order)
{
	/* The popped slot event is held at the root until the next call
	 * (evq.h): rescheduling its slot replaces it there; anything else takes
	 * it out first. Either way the order is (t, seq) and the size counts
	 * only pending events. */
	struct evq q;
	cr_assert_eq(evq_init(&q, 4), 0);
	for (int32_t i = 0; i < 4; i++)
		cr_assert_eq(evq_schedule(&q, i, 10 * (i + 1), EVQ_CPU_DONE, i, 1), 0);
	struct evq_item a = pop(&q);
	cr_assert(a.t == 10 && a.slot == 0);
	cr_assert_eq(evq_size(&q), 3, "the popped event is not pending");
	cr_assert_eq(evq_schedule(&q, 0, 35, EVQ_CPU_DONE, 0, 2), 0); /* at once: replaced at the root */
	cr_assert_eq(evq_size(&q), 4);
	struct evq_item b = pop(&q);
	cr_assert(b.t == 20 && b.slot == 1);
	cr_assert_eq(evq_push(&q, 30, EVQ_SYSCALL_DONE, 9, 0), 0); /* another call first */
	cr_assert_eq(evq_schedule(&q, 1, 30, EVQ_CPU_DONE, 1, 2), 0); /* ties after the push */
	evq_cancel(&q, 3);
	int64_t want_t[] = { 30, 30, 30, 35 };
	int32_t want_slot[] = { 2, -1, 1, 0 };
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(evq_top_time(&q), want_t[i]);
		struct evq_item c = pop(&q);
		cr_assert(c.t == want_t[i] && c.slot == want_slot[i], "pop %d: t=%lld slot %d", i, (long long)c.t, c.slot);
	}
	cr_assert(evq_empty(&q));
	evq_cancel(&q, 0); /* the held last event: nothing pending */
	cr_assert_eq(evq_size(&q), 0);
	evq_free(&q);
}

Test(evq, ties_keep_the_order_they_were_scheduled_in_after_a_replacement)
{
	struct evq q;
	cr_assert_eq(evq_init(&q, 2), 0);
	cr_assert_eq(evq_schedule(&q, 0, 20, EVQ_CPU_DONE, 0, 1), 0);
	cr_assert_eq(evq_push(&q, 20, EVQ_SYSCALL_DONE, 5, 0), 0);
	cr_assert_eq(evq_schedule(&q, 0, 20, EVQ_CPU_DONE, 0, 2), 0); /* rescheduled: now after the push */
	cr_assert_eq(pop(&q).kind, EVQ_SYSCALL_DONE);
	cr_assert_eq(pop(&q).gen, 2);
	evq_free(&q);
}

Test(evq, a_popped_slot_rescheduled_at_a_childs_time_comes_out_after_it)
{
	/* The replaced root stays only if it is strictly earlier than both
	 * children: a tie goes after the child (its seq is older). */
	struct evq q;
	cr_assert_eq(evq_init(&q, 3), 0);
	cr_assert_eq(evq_schedule(&q, 0, 10, EVQ_CPU_DONE, 0, 1), 0);
	cr_assert_eq(evq_schedule(&q, 1, 30, EVQ_CPU_DONE, 1, 1), 0);
	cr_assert_eq(evq_schedule(&q, 2, 20, EVQ_CPU_DONE, 2, 1), 0);
	cr_assert_eq(pop(&q).slot, 0);
	cr_assert_eq(evq_schedule(&q, 0, 20, EVQ_CPU_DONE, 0, 2), 0); /* ties with slot 2, the later child */
	cr_assert_eq(pop(&q).slot, 2);
	cr_assert_eq(pop(&q).slot, 0);
	cr_assert_eq(evq_schedule(&q, 0, 25, EVQ_CPU_DONE, 0, 3), 0); /* before slot 1, its one child: stays */
	struct evq_item a = pop(&q);
	cr_assert(a.slot == 0 && a.t == 25 && a.gen == 3);
	cr_assert_eq(pop(&q).slot, 1);
	cr_assert(evq_empty(&q));
	evq_free(&q);
}

Test(evq, pop_at_takes_only_what_is_due_and_keeps_a_held_event_replaceable)
{
	struct evq q;
	cr_assert_eq(evq_init(&q, 2), 0);
	cr_assert_eq(evq_schedule(&q, 0, 10, EVQ_CPU_DONE, 0, 1), 0);
	cr_assert_eq(evq_push(&q, 10, EVQ_SYSCALL_DONE, 7, 0), 0);
	cr_assert_eq(evq_schedule(&q, 1, 20, EVQ_CPU_DONE, 1, 1), 0);
	const struct evq_item *it = evq_pop_at(&q, 10);
	cr_assert(it && it->slot == 0 && it->gen == 1);
	it = evq_pop_at(&q, 10); /* the unkeyed one, as a copy */
	cr_assert(it && it->kind == EVQ_SYSCALL_DONE && it->id == 7);
	cr_assert_null(evq_pop_at(&q, 10), "slot 1's is not due");
	cr_assert_eq(evq_size(&q), 1);
	cr_assert_eq(evq_top_time(&q), 20);
	it = evq_pop_at(&q, 20);
	cr_assert(it && it->slot == 1);
	cr_assert_null(evq_pop_at(&q, 20), "nothing else: the held event stays held");
	cr_assert(evq_empty(&q));
	cr_assert_eq(evq_schedule(&q, 1, 25, EVQ_CPU_DONE, 1, 2), 0); /* replaces the held root */
	it = evq_pop_at(&q, 25);
	cr_assert(it && it->slot == 1 && it->gen == 2 && it->t == 25);
	evq_free(&q);
}

/* The queue's bound: one event per P (its CPU deadline's keyed slot, or
 * in the runtime model its M's wake-up while the M sleeps with no G) and
 * one per G in a system call. */
static void assert_queue_bound(const struct sim *s)
{
	int64_t in_syscall = 0;
	for (int32_t gi = 0; gi < s->ng; gi++)
		in_syscall += s->allg[gi].place == PL_SYSCALL;
	cr_assert_leq(evq_size(&s->evq), s->nprocs + in_syscall, "%lld events pending at t=%lldus",
		      (long long)evq_size(&s->evq), (long long)s->now);
}

/* The sink sees every record as it is made, so the bound is checked in
 * every instant, also those that a CPU-done handler continues in place
 * within one sim_step (driver.c's continue_instant), which the loop's
 * check after each step does not see. */
struct bound_watch {
	const struct sim *s;
	int64_t last_t, instants; /* instants with a record */
};

static int watch_bound(void *ctx, const struct sim_event *e)
{
	struct bound_watch *w = ctx;
	if (!w->s)
		return 0; /* sim_new's boot, before it returns the sim */
	if (e->t != w->last_t) {
		w->last_t = e->t;
		w->instants++;
	}
	assert_queue_bound(w->s);
	return 0;
}

struct bounded_run {
	int64_t preemptions, steps, instants;
};

static void assert_bounded_queue_model(const char *json, int procs, enum sim_model model, struct bounded_run *out)
{
	struct program *p = load_text(json);
	struct sim_config cfg = test_config(procs);
	cfg.check = 0; /* --check stops continue_instant: this runs as gosim does */
	if ((cfg.model = model) == MODEL_RUNTIME) { /* with the model's own defaults, as gosim runs it */
		cfg.sysmon = SYSMON_MODEL;
		cfg.slack = SLACK_MODEL;
		cfg.sysmon_slack_us = cfg.thread_wake_us = cfg.thread_start_us = SIM_MODEL_DEFAULT;
		cfg.init_threads = SIM_MODEL_DEFAULT;
		cfg.cost_go_ns = cfg.cost_chan_ns = cfg.cost_switch_ns = cfg.cost_gosched_ns = SIM_MODEL_DEFAULT;
		cfg.cost_sysmon_ns = SIM_MODEL_DEFAULT;
		for (int op = 0; op < TOP__N; op++)
			cfg.cost_thread_ns[op] = SIM_MODEL_DEFAULT;
	}
	struct bound_watch w = { .last_t = -1 };
	struct sim_sink sink = { .ctx = &w, .event = watch_bound };
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, &sink, &err);
	cr_assert_not_null(s, "%s", err.msg);
	w.s = s;
	int64_t steps = 0;
	while (sim_step(s) == SIM_RUNNING) {
		assert_queue_bound(s);
		steps++;
	}
	cr_assert_eq(s->status, SIM_DONE, "%s", sim_message(s));
	struct sim_summary sum;
	sim_summary(s, &sum);
	*out = (struct bounded_run){ sum.preemptions, steps, w.instants };
	sim_free(s);
	program_free(p);
}

static void assert_bounded_queue(const char *json, int procs, int64_t *preemptions)
{
	struct bounded_run r;
	assert_bounded_queue_model(json, procs, MODEL_SEED, &r);
	*preemptions = r.preemptions;
}

Test(evq, a_preempted_goroutine_leaves_no_event_behind)
{
	int64_t preemptions;
	assert_bounded_queue("{\"main\": [{\"run\": \"20s\"}]}", 1, &preemptions);
	cr_assert_geq(preemptions, 1000, "sysmon preempts it every 10-20ms");
}

Test(evq, the_queue_holds_one_cpu_deadline_per_p_plus_the_syscalls_in_flight)
{
	int64_t preemptions;
	assert_bounded_queue("{\"main\": [{\"repeat\": 20, \"body\": [{\"go\": \"f\"}]}, {\"run\": \"2s\"}],"
			     " \"funcs\": {\"f\": [{\"run\": \"300ms\"}, {\"syscall\": \"5ms\"}, {\"loop\": \"200ms\"}]}}",
			     3, &preemptions);
	cr_assert_geq(preemptions, 100);
}

Test(evq, the_bound_holds_in_every_instant_a_cpu_done_handler_continues)
{
	/* The runtime model's fan-out: main's go statements cost CPU time,
	 * and most of the segments that pay for them end in instants that
	 * their handler continues in place (each with main's records), so a
	 * step runs several instants; with the workers' system calls fewer. */
	const char *fanout = "{\"main\": [{\"repeat\": 3000, \"body\": [{\"go\": \"f\"}]}],"
			     " \"funcs\": {\"f\": [{\"run\": 0}]}}";
	const char *syscalls = "{\"main\": [{\"repeat\": 3000, \"body\": [{\"go\": \"f\"}]}],"
			       " \"funcs\": {\"f\": [{\"syscall\": \"1us\"}]}}";
	const char *const progs[] = { fanout, syscalls };
	for (int i = 0; i < 2; i++) {
		struct bounded_run r;
		assert_bounded_queue_model(progs[i], 4, MODEL_RUNTIME, &r);
		cr_assert_gt(r.instants, r.steps, "%lld instants in %lld steps: none continued", (long long)r.instants,
			     (long long)r.steps);
	}
}
