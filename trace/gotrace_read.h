/* gotrace_read.h: a reader of Go execution traces, format v2 (Go 1.22+;
 * src/internal/trace/: batch.go, base.go, generation.go), for gosim import.
 *
 * It reads the 16-byte header, then every batch of every generation: the
 * frequency, the string and stack tables (ids are per generation), and each
 * M's timed events, whose timestamps it makes absolute (the batch's time
 * plus the deltas), converts to ns from the trace's start, and sorts by
 * time (ties keep the file's order, so one M's events keep batch order).
 * Simplification: events are ordered by timestamp, not by the sequence
 * numbers order.go replays; CPU samples and experimental batches are skipped.
 *
 * Every read is bounds-checked; a malformed or truncated trace gives an error
 * naming its byte offset. Memory is proportional to the trace: no recursion. */
#ifndef GOSIM_GOTRACE_READ_H
#define GOSIM_GOTRACE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "gotrace_events.h"

struct gtr_event {
	int64_t ns;        /* from the trace's first event */
	uint64_t m;        /* the M (thread) whose batch holds it */
	uint64_t gen;
	uint64_t arg[5];   /* the arguments after dt */
	uint64_t raw_ts;   /* absolute, in ticks */
	size_t off;        /* byte offset of its type byte */
	uint8_t type;
};

struct gtr_string { uint64_t gen, id; char *s; };
#define GTR_FRAMES 8 /* the top frames kept per stack */
/* func[0..nf-1]: the top frames' function string ids, the top first */
struct gtr_stack { uint64_t gen, id, func[GTR_FRAMES]; unsigned nf; };

struct gtr_trace {
	struct gtr_event *ev;
	size_t nev;
	struct gtr_string *str;
	size_t nstr;
	struct gtr_stack *stk;
	size_t nstk;
	uint64_t freq;
	uint64_t ngen;
};

/* Reads n bytes of buf into t. Returns 0, or -1 with "offset N: what" in
 * err (errn bytes); t is then freed. */
int gotrace_read(const uint8_t *buf, size_t n, struct gtr_trace *t, char *err, size_t errn);
/* The string of id in generation gen, or NULL. */
const char *gtr_string(const struct gtr_trace *t, uint64_t gen, uint64_t id);
/* The top frame's function name of stack id in generation gen, or NULL. */
const char *gtr_stack_func(const struct gtr_trace *t, uint64_t gen, uint64_t id);
/* The function name of frame k (0: the top) of that stack, or NULL (no such
 * stack or frame, or k past the GTR_FRAMES kept). */
const char *gtr_stack_frame(const struct gtr_trace *t, uint64_t gen, uint64_t id, unsigned k);
void gtr_free(struct gtr_trace *t);

#endif
