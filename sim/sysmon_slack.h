/* sysmon_slack.h: how much longer than asked each of sysmon's sleeps lasts
 * (proc.go: sysmon: usleep(delay); on Linux a nanosleep that overshoots by
 * the thread's timer slack plus the kernel's wake-up latency).
 *
 * SLACK_FIXED (the seed model's 0, or --sysmon-slack=DUR): every sleep
 * overshoots by cfg.sysmon_slack_us. SLACK_MEASURED (--sysmon-slack=
 * measured): sleep n of a run of length d overshoots by
 *
 *     level + excess(d) + residual(n)
 *
 * where the run's level is one draw per simulation from the measured
 * distribution of a run's mean overshoot of its 20us sleeps, excess(d) is
 * the measured median extra overshoot of a d-long sleep over its run's
 * level, and residual(n) a draw per sleep from the measured spread of one
 * sleep around its run's level. The tables come from tools/timer-slack.c
 * --sysmon (replays of sysmon's back-off schedule on this kind of machine;
 * README "sysmon's sleeps"). One level per run, because the replays show
 * the overshoot of one run's sleeps moving together (run levels spread
 * 65-126 us, one sleep only ~10 us around its run's level): the sum of 57
 * independent draws would never cross pingpong's knife edge.
 *
 * Every draw is a function of (seed, n) alone (rng_at), so a peek at a
 * future pass and the pass itself see the same sleep, and the same seed
 * gives the same bytes.
 *
 * Simplification: the residual's spread is the 20us sleeps' for every
 * length, and both tables are cut at their 1st and 99th percentiles; a
 * run's level does not drift however long it runs. */
#ifndef GOSIM_SYSMON_SLACK_H
#define GOSIM_SYSMON_SLACK_H

#include <stdint.h>

/* The run's level, in us, for this seed. */
int64_t sysmon_slack_level(uint64_t seed);
/* The overshoot of sysmon's sleep number n (0: its first), delay_us long,
 * in a run at `level`: never below 0. */
int64_t sysmon_slack_draw(uint64_t seed, int64_t level, int64_t n, int64_t delay_us);
/* --runtime-init=measured: one measured run's start-up, drawn for this
 * seed: sysmon's first sleep began head_us before the workload, and its
 * pass first saw the slice main runs the workload in seen_us before it
 * (seen_us <= head_us; sysmon.c: sysmon_start_early). */
void sysmon_init_draw(uint64_t seed, int64_t *head_us, int64_t *seen_us);

#endif
