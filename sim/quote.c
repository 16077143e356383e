/* quote.c: one-line quoting of user text (see quote.h). */
#include "quote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The length of the UTF-8 sequence at s if it is a valid one that prints
 * (not a C1 control, U+0080..U+009F), else 0. */
static size_t utf8_printable(const unsigned char *s)
{
	size_t n = s[0] >= 0xf5 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 0; /* C1 control */
	if (n == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)))
		return 0; /* overlong, surrogate */
	if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90)))
		return 0; /* overlong, past U+10FFFF */
	return n;
}

size_t quote_into(char *dst, const char *src, int keep_newlines)
{
	const unsigned char *s = (const unsigned char *)src;
	char *d = dst;
	while (*s) {
		size_t n;
		if ((*s >= 0x20 && *s < 0x7f) || (*s == '\n' && keep_newlines)) {
			*d++ = (char)*s++;
		} else if (*s >= 0x80 && (n = utf8_printable(s)) != 0) {
			memcpy(d, s, n);
			d += n;
			s += n;
		} else {
			char c = *s == '\n' ? 'n' : *s == '\t' ? 't' : *s == '\r' ? 'r' : 0;
			d += c ? (size_t)sprintf(d, "\\%c", c) : (size_t)sprintf(d, "\\x%02x", *s);
			s++;
		}
	}
	*d = 0;
	return (size_t)(d - dst);
}

char *quote_dup(const char *src)
{
	char *d = malloc(QUOTE_MAX(strlen(src)));
	if (d)
		quote_into(d, src, 0);
	return d;
}
