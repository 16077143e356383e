/* quote.h: text from the user (names, keys, paths, -D values) made safe
 * to show on one line of a terminal: every control byte becomes \n, \t,
 * \r or \xHH, and C1 controls and bytes that are not UTF-8 become \xHH;
 * printable UTF-8 is kept. The one quoting rule: cmd/msg.c applies it to
 * every message, and the deadlock report to the names it shows. */
#ifndef GOSIM_QUOTE_H
#define GOSIM_QUOTE_H

#include <stddef.h>

/* The most bytes quoting n bytes can give (each becomes at most \xHH). */
#define QUOTE_MAX(n) (4 * (n) + 1)

/* Writes src quoted into dst (QUOTE_MAX(strlen(src)) bytes), keeping
 * newlines if keep_newlines; returns the length written. */
size_t quote_into(char *dst, const char *src, int keep_newlines);
/* A quoted copy of src to free, or NULL when out of memory. */
char *quote_dup(const char *src);

#endif
