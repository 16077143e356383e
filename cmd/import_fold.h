/* import_fold.h: what makes an imported workload readable (gosim import,
 * docs/import.md): runs of repeated ops folded
 * into repeat loops, and goroutines of one site with the same op shape
 * merged into one function whose differing durations are parameters.
 *
 * An op array's *shape* is the ops with every duration (the value of run,
 * loop, sleep, net, syscall and a select case's after) left out; its
 * *slots* are those durations, in one fixed order (objects' keys sorted,
 * arrays in order), so two arrays of one shape have their slots aligned.
 * Every walk is over an explicit stack: nothing recurses to a depth the
 * input controls. */
#ifndef GOSIM_IMPORT_FOLD_H
#define GOSIM_IMPORT_FOLD_H

#include <jansson.h>

/* The tick imported workloads declare ("tick": "1us"): their durations are
 * whole microseconds, the resolution of gosim's clock, so a real program's
 * stints of a few us (a ping-pong's hops) keep their length. */
#define IMPORT_TICK_US 1
#define IMPORT_TICK "1us"

/* Folds ops in place, every nested body too: c >= 2 consecutive blocks of
 * L ops (L <= FOLD_MAX_PERIOD) of one shape become {"repeat": c, "body":
 * block}, when that saves at least two ops; the blocks' durations are
 * averaged slot by slot (waits to the nearest tick; run and loop the
 * median or the mean, whichever is lower, rounded down, the CPU time that
 * loses put in one run after the loop; but a run keeps its mean where the
 * median would lose SPREAD_LOST_US or more that no one pass holds half
 * of, and what rounding its mean down loses is spread over the passes
 * when it is that much, so the total CPU is kept to the tick). A first block whose durations are far off
 * the others' (a cold start) stays out of the loop. Returns 0, or -1 out
 * of memory. */
#define FOLD_MAX_PERIOD 16
int fold_repeats(json_t *ops);

/* ops' shape as a string (malloc'd), or NULL out of memory. */
char *ops_shape(json_t *ops);

/* members[0..n-1], op arrays of one shape, merged into members[0]: a slot
 * whose value is the same in all stays; one that differs becomes "$NAME"
 * with NAME = PREFIX_KEYk (k counting from 1) and params[NAME] = the mean
 * to the nearest tick. Returns 0, or -1 out of memory. */
int merge_shapes(json_t **members, size_t n, const char *prefix, json_t *params);

#endif
