/* timer-slack: how long usleep(N) really sleeps on this machine.
 *
 * The runtime's sysmon sleeps with usleep(delay) (20us at first) and
 * runqgrab backs off with usleep(3); on Linux each such sleep overshoots by
 * the thread's timer slack (50us by default) plus the kernel's wake-up
 * latency. gosim's runtime model adds an overshoot to every such sleep
 * (--sysmon-slack: one fixed figure, or a draw per sleep from a measured
 * distribution); this program measures it. Run it on an idle machine.
 *
 *   timer-slack [RUNS]            for each N, RUNS calls of nanosleep(N us)
 *                                 on CLOCK_MONOTONIC: the median, 10th and
 *                                 90th percentiles of the overshoot
 *                                 (elapsed - N)
 *   timer-slack --quantiles [RUNS]  the overshoot of every sleep of sysmon's
 *                                 schedule pooled: its 1%, 5%..95%, 99% quantiles
 *                                 and mean, then the same per sleep length
 *   timer-slack --sysmon [RUNS]   RUNS replays of sysmon's back-off
 *                                 schedule (proc.go: sysmon: 51 sleeps of
 *                                 20us, then doubling to 10ms): per run, when
 *                                 the 51st..60th sleeps ended and the
 *                                 median overshoot of its 51 short sleeps
 *                                 (its level); then each end's median and
 *                                 range, and the tables gosim's
 *                                 --sysmon-slack=measured draws from. The
 *                                 pingpong knife edge: the 58th sleep's
 *                                 end against the first's + 10 ms
 *                                 (forcePreemptNS).
 *   timer-slack --sysmon-procs [RUNS]  the same, each replay in a process
 *                                 of its own (fork; the child measures and
 *                                 sends its overshoots through a pipe, the
 *                                 parent waits for it before the next), so
 *                                 the levels spread over processes, as
 *                                 sysmon's do over real runs, not over one
 *                                 process's time
 *
 *   make build/tools/timer-slack && build/tools/timer-slack [MODE] [RUNS]
 */
#define _POSIX_C_SOURCE 200809L /* fork, pipe, waitpid */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* One nanosleep of us microseconds; returns the overshoot in ns. */
static long long sleep_over(long us)
{
	struct timespec req = { us / 1000000, (us % 1000000) * 1000 };
	long long t = now_ns();
	nanosleep(&req, NULL);
	return now_ns() - t - us * 1000LL;
}

/* The sleeps of sysmon's loop before it reaches its 10 ms cap: 51 of
 * 20us (the first with idle == 0, then idle 1..50), then 40, 80, ...
 * 5120, 10000 (idle > 50: delay *= 2). Sleep i+1 ends at pass i+1. */
#define SHORT 51
#define SCHED_LEN (SHORT + 9)
static long sched_us(int i)
{
	if (i < SHORT)
		return 20;
	long d = 20L << (i - SHORT + 1);
	return d > 10000 ? 10000 : d;
}

static int usage(void)
{
	fprintf(stderr, "usage: timer-slack [--quantiles|--sysmon|--sysmon-procs] [RUNS]\n");
	return 2;
}

static int classic(int runs, long long *d)
{
	static const long sleeps_us[] = { 3, 20, 40, 80, 1000 };
	printf("usleep_us overshoot_median_us p10_us p90_us\n");
	for (size_t k = 0; k < sizeof sleeps_us / sizeof sleeps_us[0]; k++) {
		for (int i = 0; i < runs; i++)
			d[i] = sleep_over(sleeps_us[k]);
		qsort(d, (size_t)runs, sizeof *d, cmp);
		printf("%ld %.1f %.1f %.1f\n", sleeps_us[k], d[runs / 2] / 1e3, d[runs / 10] / 1e3, d[runs * 9 / 10] / 1e3);
	}
	return 0;
}

static void print_quantiles(const char *what, long long *d, int n)
{
	qsort(d, (size_t)n, sizeof *d, cmp);
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += (double)d[i];
	printf("%s n=%d mean=%.1f q:", what, n, sum / n / 1e3);
	for (int q = 0; q <= 20; q++) { /* 1%, 5%, 10%, ... 95%, 99% */
		int pc = q == 0 ? 1 : q == 20 ? 99 : 5 * q;
		long long v = d[(long long)n * pc / 100];
		printf(" %lld", (v + (v < 0 ? -500 : 500)) / 1000);
	}
	printf("\n");
}

/* Every sleep length of sysmon's schedule, RUNS rounds of the schedule. */
static int quantiles(int runs)
{
	long long *all = malloc(sizeof *all * (size_t)runs * SCHED_LEN);
	long long *by = malloc(sizeof *by * (size_t)runs * SCHED_LEN);
	if (!all || !by)
		return 1;
	for (int r = 0; r < runs; r++)
		for (int i = 0; i < SCHED_LEN; i++)
			all[(size_t)r * SCHED_LEN + i] = by[(size_t)i * runs + r] = sleep_over(sched_us(i));
	printf("overshoot quantiles 1%%, 5%%..95%%, 99%% (us)\n");
	print_quantiles("all", all, runs * SCHED_LEN);
	char what[32];
	for (int i = SHORT - 1; i < SCHED_LEN; i++) {
		int n = i == SHORT - 1 ? SHORT * runs : runs; /* the 20us sleeps together */
		long long *d = i == SHORT - 1 ? by : by + (size_t)i * runs;
		snprintf(what, sizeof what, "usleep(%ld)", sched_us(i));
		print_quantiles(what, d, n);
	}
	free(all);
	free(by);
	return 0;
}

/* RUNS replays of sysmon's schedule. Each run's level is the median
 * overshoot of its 51 short sleeps (the median: one late sleep must not
 * move it); the tables gosim's
 * --sysmon-slack=measured draws from (sim/sysmon_slack.c) are the
 * quantiles of the levels over the runs, of every short sleep's residual
 * (its overshoot minus its run's level), and per long sleep the median of
 * its overshoot minus its run's level. */
/* One replay of the schedule: each sleep's overshoot (ns) and when the
 * 51st..60th ended (us from the first sleep's start). */
static void replay(long long *over, long long *ends)
{
	long long t0 = now_ns();
	for (int i = 0; i < SCHED_LEN; i++) {
		over[i] = sleep_over(sched_us(i));
		if (i >= SHORT - 1)
			ends[i - SHORT + 1] = (now_ns() - t0) / 1000;
	}
}

/* replay() in a child process: 0, or -1 if the child failed. */
static int replay_forked(long long *over, long long *ends)
{
	int fd[2];
	if (pipe(fd) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		long long buf[2 * SCHED_LEN];
		close(fd[0]);
		replay(buf, buf + SCHED_LEN);
		_exit(write(fd[1], buf, sizeof buf) == (ssize_t)sizeof buf ? 0 : 1);
	}
	close(fd[1]);
	long long buf[2 * SCHED_LEN];
	size_t got = 0;
	while (got < sizeof buf) {
		ssize_t n = read(fd[0], (char *)buf + got, sizeof buf - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd[0]);
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || got != sizeof buf)
		return -1;
	memcpy(over, buf, SCHED_LEN * sizeof *over);
	memcpy(ends, buf + SCHED_LEN, (SCHED_LEN - SHORT + 1) * sizeof *ends);
	return 0;
}

static int sysmon(int runs, int forked)
{
	long long *end = malloc(sizeof *end * (size_t)runs * (SCHED_LEN - SHORT + 1));
	long long *lvl = malloc(sizeof *lvl * (size_t)runs);
	long long *res = malloc(sizeof *res * (size_t)runs * SHORT);
	long long *exc = malloc(sizeof *exc * (size_t)runs * (SCHED_LEN - SHORT));
	long long over[SCHED_LEN];
	if (!end || !lvl || !res || !exc)
		return 1;
	printf("run: end of sleeps 51..60 (us from the first sleep's start)\n");
	for (int r = 0; r < runs; r++) {
		long long ends[SCHED_LEN - SHORT + 1];
		if (!forked)
			replay(over, ends);
		else if (replay_forked(over, ends) != 0) {
			fprintf(stderr, "timer-slack: replay %d in a child process failed\n", r);
			return 1;
		}
		printf("%d:", r);
		for (int k = 0; k < SCHED_LEN - SHORT + 1; k++) {
			end[(size_t)k * runs + r] = ends[k];
			printf(" %lld", ends[k]);
		}
		long long sorted[SHORT];
		memcpy(sorted, over, sizeof sorted);
		qsort(sorted, SHORT, sizeof sorted[0], cmp);
		lvl[r] = sorted[SHORT / 2];
		for (int i = 0; i < SHORT; i++)
			res[(size_t)r * SHORT + i] = over[i] - lvl[r];
		for (int i = SHORT; i < SCHED_LEN; i++)
			exc[(size_t)(i - SHORT) * runs + r] = over[i] - lvl[r];
		printf("  level %lld\n", lvl[r] / 1000);
	}
	for (int k = 0; k < SCHED_LEN - SHORT + 1; k++) {
		long long *d = end + (size_t)k * runs;
		qsort(d, (size_t)runs, sizeof *d, cmp);
		printf("sleep %d: median %lld [%lld-%lld]\n", SHORT + k, d[runs / 2], d[0], d[runs - 1]);
	}
	printf("overshoot tables, quantiles 1%%, 5%%..95%%, 99%% (us)\n");
	print_quantiles("level", lvl, runs);
	print_quantiles("residual", res, runs * SHORT);
	printf("excess over the level, median (us):");
	for (int i = SHORT; i < SCHED_LEN; i++) {
		long long *d = exc + (size_t)(i - SHORT) * runs;
		qsort(d, (size_t)runs, sizeof *d, cmp);
		printf(" %ld:%lld", sched_us(i), (d[runs / 2] + (d[runs / 2] < 0 ? -500 : 500)) / 1000);
	}
	printf("\n");
	free(end);
	free(lvl);
	free(res);
	free(exc);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = "";
	if (argc > 1 && strncmp(argv[1], "--", 2) == 0) {
		mode = argv[1];
		argc--, argv++;
	}
	int deflt = mode[0] == 0 ? 2001 : strncmp(mode, "--sysmon", 8) == 0 ? 40 : 200;
	int runs = argc > 1 ? atoi(argv[1]) : deflt;
	if (runs < 11 || runs > 1000000) {
		fprintf(stderr, "timer-slack: RUNS must be in 11..1000000\n");
		return 2;
	}
	if (strcmp(mode, "--quantiles") == 0)
		return quantiles(runs);
	if (strcmp(mode, "--sysmon") == 0)
		return sysmon(runs, 0);
	if (strcmp(mode, "--sysmon-procs") == 0)
		return sysmon(runs, 1);
	if (mode[0])
		return usage();
	long long *d = malloc(sizeof *d * (size_t)runs);
	if (!d)
		return 1;
	int rc = classic(runs, d);
	free(d);
	return rc;
}
