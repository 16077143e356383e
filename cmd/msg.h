/* msg.h: the one place gosim's messages to the user are printed.
 *
 * A message is one line: "gosim: " and the text, in which every byte that
 * could break the line or drive the terminal is quoted (sim/quote.h):
 * control bytes as \n, \t, \r or \xHH, C1 controls and bytes that are
 * not UTF-8 as \xHH.
 * The text has no length limit (it is formatted into a buffer of its own
 * size), so a long path never cuts off the problem after it. stderr is
 * flushed after each message, so a message lands after the SCHED lines
 * printed before it even when stderr is buffered. */
#ifndef GOSIM_MSG_H
#define GOSIM_MSG_H

#include <stdio.h>

#define MSG_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* "gosim: TEXT\n" on stderr. */
void msg_error(const char *fmt, ...) MSG_PRINTF(1, 2);
/* A usage error: the same, ending with a pointer to gosim --help. */
void msg_usage(const char *fmt, ...) MSG_PRINTF(1, 2);
/* Several lines of text on stderr (the simulated program's death), each
 * line quoted as a message is, the newlines between them kept. */
void msg_lines(const char *text);
/* s, quoted as in a message, written to f (a name in the summary). */
void msg_put_quoted(FILE *f, const char *s);

#endif
