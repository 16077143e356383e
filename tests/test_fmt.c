/* test_fmt.c: the trace back ends' shared formatting (trace/backend.h)
 * writes what printf would: integers at every digit count and sign, the
 * small-integer table's edges, t, seq and goids in and out of their
 * windows (every carry and jump). */
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
	for (int64_t v = 0; v < 100000; v++) /* every four-digit block (tr_digits4) at every length */
		check_i(v);
	for (int64_t v = 123450000; v < 123460000; v++)
		check_i(v);
}

Test(fmt, small_table_and_its_edges_match_the_general_path)
{
	static struct tr_small t[TR_SMALL];
	tr_small_init(t, "");
	for (int64_t v = -3; v < TR_SMALL + 3; v++) {
		char got[64], want[32];
		*tr_put_ic(got, t, v) = 0;
		snprintf(want, sizeof want, "%" PRId64 ",", v);
		cr_assert_str_eq(got, want, "tr_put_ic(%" PRId64 ")", v);
	}
	/* the part above four digits from the table: its edges */
	int64_t big[] = { 9999, 10000, 10001, 10999, 100000, 100009, 999999, 1000000, 1234567, 10000 * (TR_SMALL - 1) - 1,
			  10000 * (TR_SMALL - 1), 10000 * (TR_SMALL - 1) + 1, INT64_MAX, INT64_MIN, -10000 };
	for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
		char got[64], want[32];
		*tr_put_ic(got, t, big[i]) = 0;
		snprintf(want, sizeof want, "%" PRId64 ",", big[i]);
		cr_assert_str_eq(got, want, "tr_put_ic(%" PRId64 ")", big[i]);
	}
}

/* c's text for t and seq against printf's, as the text's pre, mid and
 * post print (want: a format of t then seq). */
static void step_as(struct tr_tseq *c, const char *want_fmt, int64_t t, uint64_t seq)
{
	char got[128], want[64];
	*tr_put_tseq(got, c, t, seq) = 0;
	snprintf(want, sizeof want, want_fmt, t, seq);
	cr_assert_str_eq(got, want, "t %" PRId64 " seq %" PRIu64, t, seq);
}

static void step(struct tr_tseq *c, int64_t t, uint64_t seq)
{
	step_as(c, "{\"t\":%" PRId64 ",\"seq\":%" PRIu64 "|", t, seq);
}

Test(fmt, t_and_seq_carry_through_nines_and_follow_jumps_back_and_forth)
{
	struct tr_tseq c;
	cr_assert_eq(tr_tseq_init(&c, "{\"t\":", ",\"seq\":", "|"), 0);
	uint64_t seq = 0;
	for (int64_t t = 0; t < 3; t++)
		for (int k = 0; k < 7000; k++) /* every carry to four digits, at one instant and across */
			step(&c, t * 1000 + k / 3, seq++);
	int64_t ts[] = { 999999, 1000000, 1000000, 5, 5, 0, INT64_MAX, INT64_MAX, 0 };
	uint64_t seqs[] = { 99999, 100000, 100001, 100002, 20, 21, 99999999999999999ULL, 100000000000000000ULL, 0 };
	for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++)
		step(&c, ts[i], seqs[i]);
	cr_assert_eq(tr_tseq_init(&c, "", "a text of nine", ""), -1);
}

static void csv_step(struct tr_tseq *c, int64_t t, uint64_t seq)
{
	step_as(c, "%" PRId64 ",%" PRIu64 ",", t, seq);
}

Test(fmt, a_one_digit_t_keeps_a_window_where_a_comma_follows_it)
{
	struct tr_tseq c;
	cr_assert_eq(tr_tseq_init(&c, "", ",", ","), 0); /* the CSV writer's texts */
	uint64_t seq = 0;
	for (int k = 0; k < 300; k++) /* a seed-model fan-out: every record at t = 0 */
		csv_step(&c, k < 250 ? 0 : (k - 250) % 10, seq++);
	cr_assert(tr_tseq_fits(&c, 0, seq - 1) && tr_tseq_fits(&c, 9, seq - 1), "0..9 after a t of one digit: one window");
	cr_assert(!tr_tseq_fits(&c, 10, seq - 1), "10 has two digits: outside");
	csv_step(&c, 10, seq++);
	csv_step(&c, 3, seq++);
	cr_assert_eq(tr_tseq_init(&c, "{\"t\":", ",\"seq\":", "|"), 0); /* seq followed by '|', not a comma */
	step(&c, 4, 5);
	cr_assert(!tr_tseq_fits(&c, 4, 6), "seq 0..9 before '|': no window (the byte after it is not a comma)");
	cr_assert((uint64_t)4 - c.t_lo < c.t_n, "t, before mid's comma: a window");
	step(&c, 6, 6);
}

static void id_step(struct tr_id *c, const struct tr_small *t, int64_t v)
{
	char got[64], want[40];
	*tr_put_id(got, c, t, v) = 0;
	snprintf(want, sizeof want, "g,%" PRId64 ",", v);
	cr_assert_str_eq(got, want, "tr_put_id(%" PRId64 ")", v);
}

Test(fmt, goids_step_through_their_hundreds_and_follow_jumps)
{
	static struct tr_small t[TR_SMALL];
	struct tr_id c;
	cr_assert_eq(tr_small_init(t, "g,"), 0);
	tr_id_init(&c, "g,");
	for (int64_t v = -1; v < 12000; v++) /* the small table, then every hundred to five digits */
		id_step(&c, t, v % 3 == 0 ? v : v - 1);
	int64_t vs[] = { 99999, 100000, 100099, 100100, 5, 1023, 1099, 1100, 1022, 99999999999999LL, 999999999999999LL,
			 1000000000000000LL, INT64_MAX, INT64_MAX - 99, -2, -12345, 123456 };
	for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
		id_step(&c, t, vs[i]);
	cr_assert_eq(tr_small_init(t, "abc"), -1);
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
