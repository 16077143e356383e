/* test_quote.c: one-line quoting of user text (sim/quote.h). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/quote.h"

static void expect_quoted(const char *in, const char *want, int keep_newlines)
{
	char buf[256];
	cr_assert_lt(QUOTE_MAX(strlen(in)), sizeof buf);
	size_t n = quote_into(buf, in, keep_newlines);
	cr_assert_str_eq(buf, want);
	cr_assert_eq(n, strlen(want));
}

Test(quote, control_bytes_become_escapes)
{
	expect_quoted("a\nb\tc\rd\x1b[2J\x7f", "a\\nb\\tc\\rd\\x1b[2J\\x7f", 0);
}

Test(quote, newlines_kept_only_when_asked)
{
	expect_quoted("line 1\nline\x1b 2", "line 1\nline\\x1b 2", 1);
}

Test(quote, printable_utf8_is_kept)
{
	expect_quoted("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80", 0);
}

Test(quote, c1_controls_and_bytes_that_are_not_utf8_become_escapes)
{
	/* U+009B (CSI), a lone continuation byte, a truncated sequence, an
	 * overlong '/', a surrogate, 0xff */
	expect_quoted("\xc2\x9b|\x80|\xe2\x9c|\xc0\xaf|\xed\xa0\x80|\xff",
		      "\\xc2\\x9b|\\x80|\\xe2\\x9c|\\xc0\\xaf|\\xed\\xa0\\x80|\\xff", 0);
}

Test(quote, the_worst_case_fits_quote_max)
{
	char in[65], out[QUOTE_MAX(64)];
	memset(in, 0x01, 64);
	in[64] = 0;
	cr_assert_eq(quote_into(out, in, 0), 4 * 64);
	char *d = quote_dup(in);
	cr_assert_str_eq(d, out);
	free(d);
}
