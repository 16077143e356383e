/* test_import_tick.c: gosim import's short-period ticker rule
 * (cmd/import_tick.h) on wakes made by Go 1.23's rules: a ticker's wakes
 * late by up to netpoll's millisecond keep to its grid and are told as its
 * period; a loop of 1 ms sleeps with the same lateness is not a ticker;
 * and a grid that does not pass where the goroutine made its ticker is not
 * taken. */
#include <criterion/criterion.h>

#include "../cmd/import_tick.h"

#define MS 1000000
#define N 300

/* A seeded draw in [0, n). */
static int64_t draw(uint64_t *s, int64_t n)
{
	*s = *s * 6364136223846793005u + 1442695040888963407u;
	return (int64_t)((*s >> 33) % (uint64_t)n);
}

/* The wakes of a receiver that works `work` ns after each tick of a ticker
 * of period p made at 0, each fire late by up to 1.1 ms (netpoll waits whole
 * milliseconds); a receive that finds its fire due takes it without a wake
 * (maybeRunChan), and a fire moves the next to the first grid point after
 * it (unlockAndRun). Returns how many wakes. */
static size_t ticker_wakes(int64_t *w, int64_t p, int64_t work, uint64_t seed)
{
	int64_t when = p, t = 0;
	size_t n = 0;
	while (n < N) {
		if (when <= t) { /* due at the receive: no block, no wake */
			when += p * (1 + (t - when) / p);
		} else {
			int64_t f = when + draw(&seed, 1100000);
			w[n++] = f;
			when += p * (1 + (f - when) / p);
			t = f;
		}
		t += work;
	}
	return n;
}

Test(import_tick, a_ticker_late_by_netpolls_millisecond_is_told_by_its_period)
{
	int64_t w[N];
	for (uint64_t seed = 1; seed <= 5; seed++) {
		size_t n = ticker_wakes(w, MS, 150000, seed);
		double bits;
		cr_assert_eq(tick_short_period(w, n, 0, 2000, 2500000, &bits), MS, "seed %lu: %.1f bits", (unsigned long)seed,
			     bits);
		n = ticker_wakes(w, 2 * MS, 150000, seed);
		cr_assert_eq(tick_short_period(w, n, 0, 2000, 2500000, &bits), 2 * MS, "2 ms, seed %lu: %.1f bits",
			     (unsigned long)seed, bits);
	}
}

Test(import_tick, a_loop_of_sleeps_with_the_same_lateness_is_not_a_ticker)
{
	int64_t w[N];
	for (uint64_t seed = 1; seed <= 5; seed++) {
		uint64_t s = seed;
		int64_t t = 0;
		for (size_t i = 0; i < N; i++) { /* <-time.After(1ms), then 150 us of work */
			t += MS + draw(&s, 1100000);
			w[i] = t;
			t += 150000;
		}
		double bits;
		cr_assert_eq(tick_short_period(w, N, 0, 2000, 2500000, &bits), 0, "seed %lu: %.1f bits", (unsigned long)seed,
			     bits);
	}
}

Test(import_tick, a_grid_that_misses_where_the_ticker_was_made_is_not_taken)
{
	int64_t w[N];
	size_t n = ticker_wakes(w, MS, 150000, 1);
	/* the goroutine ran only from 400 to 402 us before its first receive:
	 * the real grid (0 + k ms) cannot have been made there */
	cr_assert_eq(tick_short_period(w, n, 400000, 402000, 2500000, NULL), 0);
	cr_assert_eq(tick_short_period(w, n, 0, 2000, 2500000, NULL), MS);
}
