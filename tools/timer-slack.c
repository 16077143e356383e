/* timer-slack: how long usleep(N) really sleeps on this machine.
 *
 * The runtime's sysmon sleeps with usleep(delay) (20us at first) and
 * runqgrab backs off with usleep(3); on Linux each such sleep overshoots by
 * the thread's timer slack (50us by default) plus the kernel's wake-up
 * latency. gosim's runtime model adds one figure, --sysmon-slack, to every
 * such sleep; this program measures it: for each N it times RUNS calls of
 * nanosleep(N us) on CLOCK_MONOTONIC and prints the median, 10th and 90th
 * percentiles of the overshoot (elapsed - N). Run it on an idle machine:
 *
 *   make build/tools/timer-slack && build/tools/timer-slack [RUNS]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 2001;
	if (runs < 11 || runs > 1000000) {
		fprintf(stderr, "timer-slack: RUNS must be in 11..1000000\n");
		return 2;
	}
	long long *d = malloc(sizeof *d * (size_t)runs);
	if (!d)
		return 1;
	static const long sleeps_us[] = { 3, 20, 40, 80, 1000 };
	printf("usleep_us overshoot_median_us p10_us p90_us\n");
	for (size_t k = 0; k < sizeof sleeps_us / sizeof sleeps_us[0]; k++) {
		struct timespec req = { 0, sleeps_us[k] * 1000 };
		for (int i = 0; i < runs; i++) {
			long long t = now_ns();
			nanosleep(&req, NULL);
			d[i] = now_ns() - t - sleeps_us[k] * 1000;
		}
		qsort(d, (size_t)runs, sizeof *d, cmp);
		printf("%ld %.1f %.1f %.1f\n", sleeps_us[k], d[runs / 2] / 1e3, d[runs / 10] / 1e3, d[runs * 9 / 10] / 1e3);
	}
	free(d);
	return 0;
}
