/* test_fmt.c: the trace back ends' shared formatting (trace/backend.h)
 * writes what printf would: integers at every digit count and sign, the
 * small-integer table's edges, counters stepped across carries and jumps. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../trace/backend.h"

static void check_i(int64_t v)
{
	char got[64], want[32];
	*tr_put_i(got, v) = 0;
	snprintf(want, sizeof want, "%" PRId64, v);
	cr_assert_str_eq(got, want, "tr_put_i(%" PRId64 ")", v);
}

Test(fmt, integers_print_as_printf_does_at_every_digit_count)
{
	int64_t p = 1;
	for (int d = 0; d < 19; d++) { /* p = 10^d, up to 10^18 */
		for (int64_t k = -2; k <= 2; k++) {
			check_i(p + k);
			check_i(-(p + k));
		}
		if (d < 18)
			p *= 10;
	}
	check_i(INT64_MAX);
	check_i(INT64_MIN);
}

Test(fmt, small_table_and_its_edges_match_the_general_path)
{
	static struct tr_small t[TR_SMALL];
	tr_small_init(t);
	for (int64_t v = -3; v < TR_SMALL + 3; v++) {
		char got[64], want[32];
		*tr_put_ic(got, t, v) = 0;
		snprintf(want, sizeof want, "%" PRId64 ",", v);
		cr_assert_str_eq(got, want, "tr_put_ic(%" PRId64 ")", v);
	}
}

static void step(struct tr_counter *c, int64_t v)
{
	char got[64], want[32];
	*tr_put_counter(got, c, v) = 0;
	snprintf(want, sizeof want, "%" PRId64, v);
	cr_assert_str_eq(got, want, "counter at %" PRId64, v);
}

Test(fmt, counter_carries_through_nines_and_follows_jumps_back_and_forth)
{
	struct tr_counter c = TR_COUNTER_INIT;
	for (int64_t v = 0; v < 20000; v++) /* every carry to five digits */
		step(&c, v);
	int64_t jumps[] = { 19999, 20008, 20017, 99995, 100003, 100003, 5, 4, -1, -10, -2, 0, 9, 18, 999999999999 };
	for (size_t i = 0; i < sizeof jumps / sizeof jumps[0]; i++)
		step(&c, jumps[i]);
}

static const char *two(int i) { return i == 0 ? "zero" : i == 1 ? "one" : "?"; }

Test(fmt, fragments_hold_pre_name_post_and_every_value_out_of_range_the_unknown_name)
{
	static struct tr_frags f;
	cr_assert_eq(tr_frags_set(&f, 2, two, "\"k\":\"", "\","), 0);
	cr_assert_eq(tr_frag_of(&f, 1)->len, strlen("\"k\":\"one\","));
	cr_assert_eq(memcmp(tr_frag_of(&f, 1)->s, "\"k\":\"one\",", tr_frag_of(&f, 1)->len), 0);
	for (int v = 2; v < 256; v++) {
		cr_assert_eq(tr_frag_of(&f, (uint8_t)v)->len, strlen("\"k\":\"?\","));
		cr_assert_eq(memcmp(tr_frag_of(&f, (uint8_t)v)->s, "\"k\":\"?\",", tr_frag_of(&f, (uint8_t)v)->len), 0);
	}
	cr_assert_eq(tr_frags_set(&f, 2, two, "a long prefix of thirty bytes..", "x"), -1);
}
