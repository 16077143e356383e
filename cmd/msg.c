/* msg.c: messages quoted onto one line (see msg.h). */
#include "msg.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/quote.h"

/* Quoted with quote.h's rule; text that cannot be copied (out of
 * memory) is shown as it would be without its unsafe bytes. */
static void put_quoted(FILE *f, const char *text, int keep_newlines)
{
	char *q = malloc(QUOTE_MAX(strlen(text)));
	if (q) {
		quote_into(q, text, keep_newlines);
		fputs(q, f);
		free(q);
		return;
	}
	for (const unsigned char *s = (const unsigned char *)text; *s; s++)
		if ((*s >= 0x20 && *s < 0x7f) || (*s == '\n' && keep_newlines))
			fputc(*s, f);
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
