/* schedtrace.h: GODEBUG=schedtrace lines in the byte format of a chosen Go
 * release (runtime/proc.go: schedtrace), printed at the sysmon passes the
 * model makes.
 *
 * Families (our reading of the runtime's print statements, checked against
 * captures from Go 1.19 and 1.23 in shared/reference/schedtrace):
 * - 1.19 (1.19, 1.20): "[a b]", detail lines print -1 for none and 0/1;
 * - 1.21 (1.21 to 1.24): adds needspinning=, detail lines print nil and
 *   true/false;
 * - 1.25 (1.25 and later): "[ a b ]" and " schedticks=[ t0 t1 ]".
 * Counts follow the runtime: idleprocs = npidle, threads = mcount() (sysmon
 * included), per-P queue lengths exclude runnext.
 * spinningthreads is sched.nmspinning: 0 at every line in the seed model,
 * where spinning is instant (sched.h); real in --model=runtime, where a
 * spinning M takes time (--thread-wake, runqgrab's back-off).
 * needspinning is sched.needspinning (Go 1.20+: set by a wakep that found
 * no idle P while an M dropped its P; sim/proc.c), 0 in the seed model;
 * timerslen is the P's timer heap.
 * Simplification: gfreecnt prints 0 (dead Gs go on one free list, not
 * per-P gFree); lockedg/lockedm are none (no LockOSThread); the wait reason of
 * a G is the last thing it blocked on (sim.h SIM_WAITREASONS: channel, select,
 * sleep, IO wait, Mutex, WaitGroup) or empty. */
#ifndef GOSIM_SCHEDTRACE_H
#define GOSIM_SCHEDTRACE_H

#include <stdio.h>

#include "../sim/sim.h"

enum schedtrace_family { SCHEDTRACE_GO119, SCHEDTRACE_GO121, SCHEDTRACE_GO125 };

#define SCHEDTRACE_NEWEST "1.25"

/* "1.19", "1.23", "1.25.3", ... -> family; -1 if not a release we print. */
int schedtrace_family(const char *version, enum schedtrace_family *out);
/* Writes one schedtrace (header, and the P/M/G lines if detail). */
int schedtrace_print(FILE *f, const struct sim *s, enum schedtrace_family fam, int detail);

#endif
