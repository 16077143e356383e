/* threads.c: how long this machine takes to start a thread and to wake a
 * parked one, the two thread costs gosim's runtime model charges
 * (--thread-start: newm -> newosproc -> clone until the new M runs;
 * --thread-wake: notewakeup -> futexwakeup until the woken M runs).
 *
 * clone, start: CLOCK_MONOTONIC just before pthread_create, and as the
 *   new thread's first statement; the difference, RUNS times, each thread
 *   joined before the next (the kernel's stack cache is warm, as for a Go
 *   program's later threads). clone: the creator blocks in pthread_join at
 *   once, so the new thread can run on its CPU (the cost of clone and a
 *   switch); start: the creator spins until the new thread has run, as
 *   newm's caller runs on, so the new thread needs another CPU (on a busy
 *   machine it waits for one: the figure is then the load's).
 * wake: a thread parks in FUTEX_WAIT; 2 ms later (it is surely asleep,
 *   its CPU idle) the waker stores 1, takes the time and calls FUTEX_WAKE;
 *   the woken thread takes the time as it returns. RUNS times.
 * procyield: sync.Mutex's active spin (lockSlow: runtime_doSpin ->
 *   procyield(active_spin_cnt = 30), 30 PAUSE instructions on amd64, the
 *   runtime model's RUNTIME_SPIN_NS): 10000 of them timed by thread CPU
 *   time, RUNS times; x86 only.
 * usleep20: the CPU time one of sysmon's sleeps costs (proc.go sysmon:
 *   usleep(delay), 20 us at first): the thread's CPU time
 *   (CLOCK_THREAD_CPUTIME_ID: the nanosleep syscall, its hrtimer, the
 *   switch out and back in, all charged to the sleeping thread) over 200
 *   usleep(20) calls, divided by 200; RUNS / 10 such batches (the runtime
 *   model's --cost-sysmon).
 * futex-wake-cpu, futex-sleep-cpu: the CPU time of wake's two threads
 *   (CLOCK_THREAD_CPUTIME_ID): the waker's around its FUTEX_WAKE call
 *   (notewakeup -> futexwakeup: the runtime model's --cost-futex-wake),
 *   and the sleeper's from just before its FUTEX_WAIT to just after it
 *   returns (futexsleep and its wake-up path, both on the woken thread:
 *   --cost-futex-sleep). RUNS times each.
 * nanosleep3, nanosleep1ms, epoll1ms: the thread CPU time of one call,
 *   over batches of 200 (RUNS / 10 batches, as usleep20): nanosleep(3 us)
 *   as runqgrab's usleep(3) (--cost-usleep); nanosleep(1 ms) as a
 *   blocking system call (the twins' syscall.Nanosleep: entersyscall, the
 *   kernel's entry, sleep and exit, exitsyscall: --cost-syscall); and
 *   epoll_wait on an empty epoll set with a 1 ms timeout, as netpoll(delay)
 *   blocks and returns (--cost-netpoll).
 * write: the CPU time of one of schedtrace's writes (proc.go schedtrace:
 *   print(), one write(2) to stderr per piece, 18 + 2 x GOMAXPROCS of them
 *   a line in 1.20+, under sched.lock, on sysmon's thread): the thread CPU
 *   time of a 4-P SCHED line's 26 pieces written one write(2) each to a
 *   file in $TMPDIR (default /tmp: compare-real sends the twin's stderr
 *   to such a file), 200 lines a batch, per write; RUNS / 10 batches (the
 *   runtime model's --cost-write).
 * calibration: a fixed spin loop before and after, its thread CPU time
 *   against its wall time; a ratio well below 1 means other work took the
 *   CPU, and the figures of that run are suspect (printed, not hidden).
 *
 * Prints one line per figure: name, median, p10, p90 (ns). Usage:
 * threads [RUNS] (default 200). */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void report(const char *name, int64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	printf("%-14s median %8lld ns  p10 %8lld  p90 %8lld\n", name, (long long)v[n / 2], (long long)v[n / 10],
	       (long long)v[n * 9 / 10]);
}

static volatile int64_t started_at;
static int started;

static void *first_run(void *arg)
{
	(void)arg;
	started_at = now_ns(CLOCK_MONOTONIC);
	__atomic_store_n(&started, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void measure_start(int runs, int spin)
{
	int64_t *v = malloc((size_t)runs * sizeof *v);
	for (int i = 0; i < runs; i++) {
		pthread_t t;
		int64_t t0 = now_ns(CLOCK_MONOTONIC);
		__atomic_store_n(&started, 0, __ATOMIC_SEQ_CST);
		if (pthread_create(&t, NULL, first_run, NULL) != 0) {
			perror("pthread_create");
			exit(1);
		}
		while (spin && !__atomic_load_n(&started, __ATOMIC_SEQ_CST))
			; /* the creator runs on, as newm's caller does */
		pthread_join(t, NULL);
		v[i] = started_at - t0;
	}
	report(spin ? "thread-start" : "thread-clone", v, runs);
	free(v);
}

static uint32_t word;
static volatile int64_t woke_at;
static volatile int ready;

static void futex(uint32_t *addr, int op, uint32_t val)
{
	syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

static int64_t *sleep_cpu; /* per run: the sleeper's CPU time across its wait */

static void *sleeper(void *arg)
{
	int runs = *(int *)arg;
	for (int i = 0; i < runs; i++) {
		__atomic_store_n(&ready, 1, __ATOMIC_SEQ_CST);
		int64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		while (__atomic_load_n(&word, __ATOMIC_SEQ_CST) == 0)
			futex(&word, FUTEX_WAIT_PRIVATE, 0);
		sleep_cpu[i] = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
		woke_at = now_ns(CLOCK_MONOTONIC);
		__atomic_store_n(&word, 0, __ATOMIC_SEQ_CST);
		__atomic_store_n(&ready, 2, __ATOMIC_SEQ_CST);
		while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) == 2)
			; /* the waker has read woke_at */
	}
	return NULL;
}

static void measure_wake(int runs)
{
	int64_t *v = malloc((size_t)runs * sizeof *v), *wcpu = malloc((size_t)runs * sizeof *wcpu);
	sleep_cpu = malloc((size_t)runs * sizeof *sleep_cpu);
	if (!v || !wcpu || !sleep_cpu)
		exit(1);
	pthread_t t;
	pthread_create(&t, NULL, sleeper, &runs);
	for (int i = 0; i < runs; i++) {
		while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) != 1)
			;
		struct timespec d = { 0, 2000000 };
		nanosleep(&d, NULL); /* it is in FUTEX_WAIT by now */
		int64_t t0 = now_ns(CLOCK_MONOTONIC);
		__atomic_store_n(&word, 1, __ATOMIC_SEQ_CST);
		int64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		futex(&word, FUTEX_WAKE_PRIVATE, 1);
		wcpu[i] = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
		while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) != 2)
			;
		v[i] = woke_at - t0;
		__atomic_store_n(&ready, 0, __ATOMIC_SEQ_CST);
	}
	pthread_join(t, NULL);
	report("thread-wake", v, runs);
	report("futex-wake-cpu", wcpu, runs);
	report("futex-sleep-cpu", sleep_cpu, runs);
	free(v);
	free(wcpu);
	free(sleep_cpu);
}

/* procyield(30) as runtime/asm_amd64.s has it: PAUSE, 30 times. */
static void measure_procyield(int runs)
{
#if defined(__x86_64__) || defined(__i386__)
	int64_t *v = malloc((size_t)runs * sizeof *v);
	if (!v)
		exit(1);
	for (int r = 0; r < runs; r++) {
		int64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		for (int k = 0; k < 10000; k++)
			for (int i = 0; i < 30; i++)
				__asm__ volatile("pause");
		v[r] = (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / 10000;
	}
	report("procyield30", v, runs);
	free(v);
#else
	(void)runs;
#endif
}

/* A fixed spin: its thread CPU time over its wall time. */
static void calibrate(const char *when)
{
	int64_t w0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	volatile uint64_t x = 0;
	for (uint64_t i = 0; i < 50000000; i++)
		x += i;
	int64_t w = now_ns(CLOCK_MONOTONIC) - w0, c = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	printf("calibration %-6s spin %lld us wall, %lld us thread CPU (CPU/wall %.3f)\n", when, (long long)(w / 1000),
	       (long long)(c / 1000), (double)c / (double)w);
}

/* usleep(20)'s CPU time, per call, over batches of 200. */
static void measure_usleep(int runs)
{
	int n = runs / 10 < 10 ? 10 : runs / 10;
	int64_t *v = malloc((size_t)n * sizeof *v);
	if (!v)
		exit(1);
	for (int i = 0; i < n; i++) {
		int64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		for (int k = 0; k < 200; k++)
			usleep(20);
		v[i] = (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / 200;
	}
	report("usleep20", v, n);
	free(v);
}

/* One blocking call's thread CPU time, per call, over batches of 200. */
enum blocking { NANOSLEEP3, NANOSLEEP1MS, EPOLL1MS };

static void block_once(enum blocking what, int epfd)
{
	struct timespec d = { 0, what == NANOSLEEP3 ? 3000 : 1000000 };
	struct epoll_event ev;
	if (what == EPOLL1MS)
		epoll_wait(epfd, &ev, 1, 1);
	else
		nanosleep(&d, NULL);
}

static void measure_blocking(int runs, enum blocking what, const char *name)
{
	int n = runs / 10 < 10 ? 10 : runs / 10;
	int64_t *v = malloc((size_t)n * sizeof *v);
	int epfd = epoll_create1(0);
	if (!v || epfd < 0)
		exit(1);
	for (int i = 0; i < n; i++) {
		int64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		for (int k = 0; k < 200; k++)
			block_once(what, epfd);
		v[i] = (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / 200;
	}
	report(name, v, n);
	close(epfd);
	free(v);
}

/* A SCHED line at 4 Ps as Go 1.23's schedtrace prints it: one write(2)
 * per piece. */
static const char *const sched_pieces[] = { "SCHED ", "12", "ms: gomaxprocs=", "4", " idleprocs=", "3", " threads=", "5",
					    " spinningthreads=", "0", " needspinning=", "0", " idlethreads=", "2",
					    " runqueue=", "0", " ", "[", "0", " ", "0", " ", "0", " ", "0", "]\n" };

static void measure_write(int runs)
{
	int n = runs / 10 < 10 ? 10 : runs / 10, np = (int)(sizeof sched_pieces / sizeof *sched_pieces);
	int64_t *v = malloc((size_t)n * sizeof *v);
	const char *dir = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof path, "%s/threads-write-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (!v || fd < 0)
		exit(1);
	unlink(path);
	for (int i = 0; i < n; i++) {
		int64_t c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		for (int k = 0; k < 200; k++)
			for (int p = 0; p < np; p++)
				if (write(fd, sched_pieces[p], strlen(sched_pieces[p])) < 0)
					exit(1);
		v[i] = (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / (200 * np);
	}
	report("write", v, n);
	close(fd);
	free(v);
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 200;
	if (runs < 10)
		runs = 10;
	calibrate("before");
	measure_start(runs, 0);
	measure_start(runs, 1);
	measure_wake(runs);
	measure_procyield(runs);
	measure_usleep(runs);
	measure_blocking(runs, NANOSLEEP3, "nanosleep3");
	measure_blocking(runs, NANOSLEEP1MS, "nanosleep1ms");
	measure_blocking(runs, EPOLL1MS, "epoll1ms");
	measure_write(runs);
	calibrate("after");
	return 0;
}
