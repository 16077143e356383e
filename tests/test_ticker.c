/* test_ticker.c: the `tick` op, a time.Ticker as Go 1.23 makes it
 * (timer.h): fires on the grid start + k*period whatever the receiver's
 * lateness, one stale fire at once for a slow receiver and the rest lost,
 * the timer on the P's heap like a sleep's, both models. */
#include <criterion/criterion.h>

#include "../sim/netpoll.h"
#include "../sim/park.h"
#include "../sim/timer.h"
#include "helpers.h"

/* The times G g goes from waiting to runnable (its wakes), at most max. */
static int wakes(const struct run_result *r, int g, int64_t *t, int max)
{
	int n = 0;
	for (long i = evlog_find(&r->log, 0, EV_G, g, PL_RUNNEXT); i >= 0 && n < max;
	     i = evlog_find(&r->log, (size_t)i + 1, EV_G, g, PL_RUNNEXT))
		if (r->log.ev[i].from == PL_WAITING)
			t[n++] = r->log.ev[i].t;
	return n;
}

static int parks(const struct run_result *r, int g)
{
	int n = 0;
	for (long i = evlog_find(&r->log, 0, EV_G, g, PL_WAITING); i >= 0;
	     i = evlog_find(&r->log, (size_t)i + 1, EV_G, g, PL_WAITING))
		n++;
	return n;
}

/* The tests' epoll_wait overshoot (netpoll.h: --sysmon-slack's figure,
 * 0 in test_config). */
static int64_t runtime_slack(void)
{
	struct sim_config cfg = test_config(1);
	cfg.model = MODEL_RUNTIME;
	sim_config_fill_model(&cfg);
	return cfg.sysmon_slack_us;
}

/* The runtime model: when an M that blocked in netpoll at b for a fire at
 * f wakes (netpoll_wait_end, again while it wakes early). */
static int64_t netpoll_wakes_for(int64_t b, int64_t f)
{
	int64_t t = b;
	for (int i = 0; i < 4 && t < f; i++)
		t = netpoll_wait_end(t, f, runtime_slack());
	return t;
}

/* The runtime model: G g's every wait for a tick of a 1 ms ticker made at
 * `start`, from `from` in the log on, ends when the netpoll M's epoll_wait
 * does (netpoll.h) for the next fire on the grid start + k ms; returns
 * how many waits. */
static int waits_end_at_netpoll_wakes(const struct run_result *r, size_t from, int g, int64_t start)
{
	int n = 0;
	for (long i = evlog_find(&r->log, from, EV_G, g, PL_WAITING); i >= 0;
	     i = evlog_find(&r->log, (size_t)i + 1, EV_G, g, PL_WAITING)) {
		long w = evlog_find(&r->log, (size_t)i + 1, EV_G, g, PL_RUNNEXT);
		cr_assert_geq(w, 0);
		int64_t b = r->log.ev[i].t, fire = start + ((b - start) / 1000 + 1) * 1000;
		cr_assert_eq(r->log.ev[w].t, netpoll_wakes_for(b, fire), "a wait from %lld for the fire at %lld ended at %lld",
			     (long long)b, (long long)fire, (long long)r->log.ev[w].t);
		n++;
	}
	return n;
}

/* main ticks every 1 ms and works 300 us after each tick while another
 * goroutine keeps a P busy: sleeps of 1 ms would wake at 1300*k; the
 * ticker wakes at 1000*k, the lateness not adding up. */
static void keeps_period(enum sim_model model)
{
	struct sim_config cfg = test_config(2);
	cfg.model = model;
	struct run_result r;
	run_text("{\"main\": [{\"go\": \"spin\"}, {\"repeat\": 40, \"body\": [{\"tick\": \"1ms\"}, {\"run\": \"300us\"}]}],"
		 " \"funcs\": {\"spin\": [{\"run\": \"60ms\"}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	int64_t t[64];
	int n = wakes(&r, 1, t, 64);
	cr_assert_eq(n, 40, "one wake per tick: %d", n);
	cr_assert_eq(parks(&r, 1), 40, "each receive waits for its fire");
	int64_t start = t[0] - 1000; /* the ticker was made at main's first tick */
	cr_assert_leq(start, 100);
	for (int k = 1; k <= n; k++)
		cr_assert(t[k - 1] >= start + k * 1000 && t[k - 1] < start + k * 1000 + 100,
			  "tick %d woke at %lld, not on the grid %lld + %d ms", k, (long long)t[k - 1],
			  (long long)start, k);
	run_result_free(&r);
}

/* The runtime model, the same program: main's P idles between ticks, its
 * M in netpoll, so each tick wakes when epoll_wait's whole ms end (1 ms
 * from 300 us after a fire, plus 0.1% of it: 301 us late), and a fire that
 * falls due meanwhile is taken at once; the fires stay on the grid. */
Test(ticker, an_idle_receivers_ticks_wake_when_the_netpoll_wait_of_whole_ms_ends)
{
	struct sim_config cfg = test_config(2);
	cfg.model = MODEL_RUNTIME;
	cfg.preempt = PREEMPT_OFF; /* a preempted spinner's wakep would start an M that runs the timer */
	struct run_result r;
	run_text("{\"main\": [{\"go\": \"spin\"}, {\"repeat\": 40, \"body\": [{\"tick\": \"1ms\"}, {\"run\": \"300us\"}]}],"
		 " \"funcs\": {\"spin\": [{\"run\": \"60ms\"}]}}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	long first = evlog_find(&r.log, 0, EV_G, 1, PL_WAITING);
	cr_assert_geq(first, 0);
	int64_t start = r.log.ev[first].t; /* the ticker is made at main's first receive */
	int n = waits_end_at_netpoll_wakes(&r, 0, 1, start);
	int64_t t[64];
	cr_assert_eq(wakes(&r, 1, t, 64), n);
	cr_assert(n > 20 && n < 40, "%d of 40 receives waited: the others found a fire due", n);
	run_result_free(&r);
}
Test(ticker, a_ticker_keeps_its_period_behind_cpu_bound_work_in_the_seed_model) { keeps_period(MODEL_SEED); }

/* A 1 ms ticker's receiver (G1, 100 us a tick) on one P beside a 25 ms
 * spinner (G2) in the given model: the run, and the spinner's end record. */
static long run_ticker_behind_spinner(enum sim_model model, struct run_result *r)
{
	struct sim_config cfg = test_config(1);
	cfg.model = model;
	run_text("{\"main\": [{\"go\": \"spin\"}, {\"repeat\": 12, \"body\": [{\"tick\": \"1ms\"}, {\"run\": \"100us\"}]}],"
		 " \"funcs\": {\"spin\": [{\"run\": \"25ms\"}]}}", &cfg, r);
	cr_assert_eq(r->status, SIM_DONE, "%s", r->msg);
	long dead = evlog_find(&r->log, 0, EV_G, 2, PL_DEAD);
	cr_assert_geq(dead, 0);
	return dead;
}

/* On one P, a CPU-bound goroutine holds the P until it is preempted or
 * done: the ticks it delays are late, but the next fires stay on the 1 ms
 * grid (unlockAndRun: when + period*(1 + delay/period)), so once the P is
 * free the receiver wakes at whole milliseconds, 1 ms apart. */
static void skips_to_grid(enum sim_model model)
{
	struct run_result r;
	long dead = run_ticker_behind_spinner(model, &r);
	int64_t spun = r.log.ev[dead].t, t[16];
	int n = wakes(&r, 1, t, 16), after = 0;
	cr_assert_gt(t[0], 1000, "the first fire waits for the spinner");
	for (int k = 0; k < n; k++) {
		if (t[k] <= spun + 1000)
			continue;
		after++;
		cr_assert_eq(t[k] % 1000, 0, "wake %d at %lld is off the grid", k, (long long)t[k]);
		cr_assert_eq(t[k] - t[k - 1], 1000);
	}
	cr_assert_geq(after, 3, "%d wakes after the spinner", after);
	run_result_free(&r);
}

/* The runtime model, the same program: once the spinner is done the P
 * idles between ticks and each wait ends with the netpoll M's (1 ms from
 * 100 us after a fire, plus the slack), not on the grid, and is for the
 * next fire on it. */
Test(ticker, after_the_spinner_each_tick_wakes_at_the_netpoll_wait_for_the_next_fire_on_the_grid)
{
	struct run_result r;
	long dead = run_ticker_behind_spinner(MODEL_RUNTIME, &r);
	long first = evlog_find(&r.log, 0, EV_G, 1, PL_WAITING);
	int after = waits_end_at_netpoll_wakes(&r, (size_t)dead, 1, r.log.ev[first].t);
	cr_assert_geq(after, 3, "%d waits after the spinner", after);
	run_result_free(&r);
}
Test(ticker, late_fires_skip_to_the_grid_rather_than_drift_in_the_seed_model) { skips_to_grid(MODEL_SEED); }

/* Ticks at 1, 2, 3, 4 ms; main receives at 1 ms, then works 3.5 ms: its
 * next receive (4.5 ms) takes the 2 ms fire at once (chanrecv ->
 * maybeRunChan), the 3 and 4 ms fires are lost, and the receive after
 * waits for 5 ms. */
static void slow_receiver(enum sim_model model)
{
	struct sim_config cfg = test_config(1);
	cfg.model = model;
	struct run_result r;
	run_text("{\"main\": [{\"tick\": \"1ms\"}, {\"run\": \"3500us\"}, {\"tick\": \"1ms\"}, {\"tick\": \"1ms\"},"
		 " {\"run\": 10}]}", &cfg, &r);
	cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
	cr_assert_eq(parks(&r, 1), 2, "the stale tick is there at once: two of three receives wait");
	int64_t t[4];
	cr_assert_eq(wakes(&r, 1, t, 4), 2);
	/* The runtime model: main's M waits in netpoll, 1 ms plus the slack
	 * (netpoll.h); from 4501 for 5000, 499 us: 1 ms plus the slack too. */
	int rt = model == MODEL_RUNTIME;
	long park = evlog_find(&r.log, 0, EV_G, 1, PL_WAITING);
	cr_assert_eq(t[0], rt ? netpoll_wakes_for(r.log.ev[park].t, 1000) : 1000);
	park = evlog_find(&r.log, (size_t)park + 1, EV_G, 1, PL_WAITING);
	cr_assert_geq(r.log.ev[park].t, 4500, "the second wait starts after the stale tick");
	cr_assert_eq(r.log.ev[park].wait, WR_CHAN_RECV);
	cr_assert_eq(t[1], rt ? netpoll_wakes_for(r.log.ev[park].t, 5000) : 5000,
		     "the fires at 3 and 4 ms are dropped: the next is 5 ms");
	run_result_free(&r);
}

Test(ticker, a_slow_receiver_gets_one_stale_tick_at_once_and_loses_the_others) { slow_receiver(MODEL_RUNTIME); }
Test(ticker, a_slow_receiver_gets_one_stale_tick_at_once_in_the_seed_model) { slow_receiver(MODEL_SEED); }

/* Two periods in one goroutine are two tickers; goroutines' tickers are
 * their own and go when they exit: 200 goroutines, one after another,
 * each with two tickers, leave the pool at the few slots of the live ones
 * (memory follows the state, not the history). */
Test(ticker, each_goroutine_and_period_has_its_own_ticker_and_exited_ones_are_reused)
{
	const char *json = "{\"main\": [{\"repeat\": 200, \"body\": [{\"go\": \"t\"}, {\"sleep\": \"4ms\"}]}],"
			   " \"funcs\": {\"t\": [{\"tick\": \"1ms\"}, {\"tick\": \"2ms\"}, {\"tick\": \"1ms\"}]}}";
	struct program *p = load_text(json);
	struct sim_config cfg = test_config(2);
	struct evlog log = { 0 };
	struct sim_sink sink = { .ctx = &log, .event = evlog_sink };
	struct sim_error err;
	struct sim *s = sim_new(&cfg, p, &sink, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(sim_run(s), SIM_DONE, "%s", sim_message(s));
	cr_assert_eq(s->nlivetickers, 0, "every goroutine exited: no ticker left");
	cr_assert_leq(s->ntickers, 4, "%d ticker slots made for 400 tickers, 2 live at a time", s->ntickers);
	struct run_result r = { .log = log };
	/* the first t, started at T: its 1 ms ticker fires at T+1; its 2 ms
	 * one, made at that receive, at T+3; the 1 ms one's fire at T+2 is then
	 * due, taken at once, and t exits at T+3 */
	int64_t t[4];
	cr_assert_eq(wakes(&r, 2, t, 4), 2);
	cr_assert_eq(t[1] - t[0], 2000);
	cr_assert_eq(parks(&r, 2), 2);
	sim_free(s);
	program_free(p);
	free(log.ev);
}
