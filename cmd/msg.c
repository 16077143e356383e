/* msg.c: messages quoted onto one line (see msg.h). */
#include "msg.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The length of the UTF-8 sequence at s if it is a valid one that prints
 * (not a C1 control, U+0080..U+009F), else 0. */
static size_t utf8_printable(const unsigned char *s)
{
	size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
	if (s[0] >= 0xf5)
		return 0;
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

static void put_quoted(FILE *f, const char *text, int keep_newlines)
{
	const unsigned char *s = (const unsigned char *)text;
	while (*s) {
		size_t n;
		if (*s >= 0x20 && *s < 0x7f) {
			fputc(*s++, f);
		} else if (*s == '\n' && keep_newlines) {
			fputc(*s++, f);
		} else if (*s >= 0x80 && (n = utf8_printable(s)) != 0) {
			fwrite(s, 1, n, f);
			s += n;
		} else {
			const char *esc = *s == '\n' ? "\\n" : *s == '\t' ? "\\t" : *s == '\r' ? "\\r" : NULL;
			if (esc)
				fputs(esc, f);
			else
				fprintf(f, "\\x%02x", *s);
			s++;
		}
	}
}

void msg_put_quoted(FILE *f, const char *s) { put_quoted(f, s, 0); }

static void vmessage(const char *tail, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	char small[512], *text = small;
	int n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= (int)sizeof small && (text = malloc((size_t)n + 1)) != NULL)
		vsnprintf(text, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	fputs("gosim: ", stderr);
	put_quoted(stderr, text ? text : small, 0);
	fputs(tail, stderr);
	fputc('\n', stderr);
	fflush(stderr);
	if (text != small)
		free(text);
}

void msg_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
}

void msg_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(" (see gosim --help)", fmt, ap);
	va_end(ap);
}

void msg_lines(const char *text)
{
	put_quoted(stderr, text, 1);
	fputc('\n', stderr);
	fflush(stderr);
}
