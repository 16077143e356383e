/* sysmon_slack.c: the measured overshoot of sysmon's sleeps (see
 * sysmon_slack.h). The tables are tools/timer-slack.c --sysmon's output,
 * taken as the README says. */
#include "sysmon_slack.h"

#include "rng.h"

/* Quantiles at 1%, 5%, 10%, ..., 95%, 99%, in us. */
#define NQ 21
/* A run's level: the mean overshoot of its 50 usleep(20)s. */
static const int16_t level_q[NQ] = { 66, 68, 69, 70, 71, 72, 73, 74, 75, 76, 76, 77, 77, 78, 79, 80, 80, 81, 83, 85, 94 };
/* One sleep's overshoot minus its run's level. */
static const int16_t residual_q[NQ] = { -12, -8, -6, -5, -4, -3, -2, -2, -1, -1, 0, 1, 1, 2, 3, 4, 6, 9, 15, 32, 216 };
/* The median extra overshoot of usleep(d) over the run's level, for the
 * sleeps of sysmon's back-off (d = 20us << k, then the 10 ms cap). */
static const struct { int32_t delay_us, excess_us; } excess[] = { { 40, 0 }, { 80, 3 }, { 160, 7 }, { 320, 11 }, { 640, 15 }, { 1280, 22 }, { 2560, 25 }, { 5120, 37 }, { 10000, 38 } };

/* The quantile function at u in [0, 2^32): piecewise linear between the
 * table's points, flat outside the 1st and 99th percentiles. */
static int64_t quantile(const int16_t *q, uint32_t u)
{
	static const int32_t pc[NQ] = { 1, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95, 99 };
	int64_t x = (int64_t)(((uint64_t)u * 10000) >> 32); /* u in hundredths of a percent */
	if (x <= pc[0] * 100)
		return q[0];
	if (x > pc[NQ - 1] * 100)
		return q[NQ - 1];
	/* the first i with x <= pc[i] * 100: the points between 5% and 95%
	 * are 5% apart, so no search */
	int i = x <= 500 ? 1 : x <= 9500 ? (int)((x + 499) / 500) : NQ - 1;
	int64_t lo = pc[i - 1] * 100, hi = pc[i] * 100;
	return q[i - 1] + ((int64_t)(q[i] - q[i - 1]) * (x - lo) + (hi - lo) / 2) / (hi - lo);
}

int64_t sysmon_slack_level(uint64_t seed)
{
	return quantile(level_q, rng_at(seed, RNG_SLACK, 0));
}

static int64_t excess_of(int64_t delay_us)
{
	int64_t e = 0; /* usleep(20): the level itself */
	for (unsigned i = 0; i < sizeof excess / sizeof excess[0]; i++)
		if (delay_us >= excess[i].delay_us)
			e = excess[i].excess_us;
	return e;
}

int64_t sysmon_slack_draw(uint64_t seed, int64_t level, int64_t n, int64_t delay_us)
{
	int64_t o = level + excess_of(delay_us) + quantile(residual_q, rng_at(seed, RNG_SLACK, (uint64_t)n + 1));
	return o > 0 ? o : 0;
}

/* Runtime init (sysmon.c, sysmon_start_early): per measured run, how long
 * before the workload's clock started sysmon's first usleep began, and how
 * long before it sysmon's pass first saw P0's last slice (us). */
static const struct { int16_t head_us, seen_us; } init_runs[] = {
	{ 546, 168 }, { 558, 256 }, { 579, 146 }, { 594, 456 }, { 627, 165 }, { 630, 474 },
	{ 633, 158 }, { 646, 177 }, { 647, 177 }, { 656, 181 }, { 662, 183 }, { 666, 186 },
	{ 669, 193 }, { 677, 195 }, { 707, 141 }, { 728, 178 }, { 763, 173 }, { 843, 726 },
	{ 858, 289 }, { 1013, 690 }, { 1226, 1109 }, { 1279, 187 }, { 1535, 617 }, { 1617, 180 },
	{ 1738, 200 },
};

void sysmon_init_draw(uint64_t seed, int64_t *head_us, int64_t *seen_us)
{
	uint32_t n = (uint32_t)(sizeof init_runs / sizeof init_runs[0]);
	uint32_t i = (uint32_t)(((uint64_t)rng_at(seed, RNG_INIT, 0) * n) >> 32);
	*head_us = init_runs[i].head_us;
	*seen_us = init_runs[i].seen_us;
}
