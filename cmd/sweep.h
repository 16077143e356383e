/* sweep.h: many runs of one workload, one table.
 *
 * `--procs=1,2,4,8`, `--seeds=1..20` and `-D NAME=a,b,c` (lists of items
 * or ranges a..b) run every combination: a configuration is one value of
 * each list but the seeds, and each configuration runs once per seed. The
 * runs are independent simulations (sim/ has no globals), spread over
 * --jobs worker threads; the table does not depend on how many. Each row
 * gives, over the seeds of one configuration, the lower median (the
 * ceil(n/2)-th smallest, an integer) of makespan, scheduler-latency p50
 * and p99 (each run's, from its report), threads peak, steals and
 * handoffs, and the min and max makespan. Text, or --report=csv/json.
 *
 * --sweep-jobs prints instead one line per run: the gosim options that
 * make that run alone (every config field explicit), for tools/sweep. */
#ifndef GOSIM_SWEEP_H
#define GOSIM_SWEEP_H

#include <stdint.h>

struct opts;

#define SWEEP_MAX_ITEMS 100000

/* "1,2,4" or "1..8" or "1,4..6": items in lo..hi, at most SWEEP_MAX_ITEMS.
 * Returns 0 and a malloc'd array, or -1. */
int sweep_parse_list(const char *s, int64_t lo, int64_t hi, int64_t **out, int64_t *n);
/* Whether o asks for a sweep (a list of procs, --seeds, a -D list). */
int sweep_wanted(const struct opts *o);
/* An option that cannot go with a sweep, or NULL. */
const char *sweep_conflict(const struct opts *o);
int sweep_main(struct opts *o);

#endif
