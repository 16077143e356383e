/* wakepreempt.c: does a thread that wakes another keep its CPU, on this
 * machine's kernel, when every CPU is busy? (docs/fidelity.md, "Wake-up
 * preemption: measured"). The situation of a Go M that readies a goroutine
 * and calls wakep (notewakeup -> futexwakeup) while CPU-bound Ms hold the
 * CPUs: the ticker twin at GOMAXPROCS=4 on 2 CPUs (an M back from netpoll's
 * epoll_wait readies a tick goroutine, wakes a spinning M, and runs the
 * goroutine ~150 us later), the mutex twin's Unlock.
 *
 * Threads: HOGS CPU-bound threads (default: one per CPU) that spin for the
 * whole run; a waker A; a wakee B, parked in FUTEX_WAIT between its runs.
 * Each of RUNS trials, in turn with and without the wake:
 *   A (mode sleep) sleeps in epoll_wait on an empty epoll set, 1 ms, as
 *     netpoll(delay) does; (mode run) spins 1 ms instead, so it comes to
 *     the wake having run;
 *   A spins 3 us (ready's work), then, with the wake, stores 1 and calls
 *     FUTEX_WAKE on B's word; then spins until its own thread CPU time
 *     (CLOCK_THREAD_CPUTIME_ID) has grown by WORK us (the goroutine it
 *     readied), reading CLOCK_MONOTONIC each pass: a pass that takes over
 *     5 us is time without the CPU ("a gap");
 *   B, woken, notes the time and its CPU and spins BWORK us of its own CPU
 *     time (a spinning M's findRunnable, or the goroutine it found), then
 *     parks again.
 * A's figures per trial: lost = wall - CPU time from the wake to the
 * work's end; first = when its first gap began (us after the wake, -1 if
 * none); and whether B ran on A's CPU (sched_getcpu, at the wake and at
 * B's start), B's wake latency.
 *
 * Prints, for the trials with and without the wake: how many lost the CPU
 * within 20 us of the wake, the lost time's median / p90, and (with the
 * wake) how often B ran on A's CPU and B's median latency; then the same
 * split by whether B ran on A's CPU. Usage:
 *   wakepreempt [MODE sleep|run] [RUNS 400] [WORK 150] [BWORK 150] [HOGS ncpu] [PIN 0]
 * PIN 1: A and B on CPU 0, hog i on CPU i (sched_setaffinity), so that B's
 * CPU is always A's: the wake-up preemption itself, without the kernel's
 * choice of CPU (select_task_rq_fair). PIN 2: A and B on CPU 0, every hog
 * on the last CPU: A has CPU 0 to itself until it wakes B.
 * Run it niced -20 on an idle machine (flock /work/measure.lock). */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static atomic_int stop;
static atomic_int bword;
static atomic_llong b_start;
static atomic_int b_cpu;
static int64_t bwork_ns;

static void *hog(void *arg)
{
	(void)arg;
	volatile uint64_t x = 0;
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		x++;
	return NULL;
}

static void spin_cpu(int64_t ns)
{
	int64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ns;
	while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

static void *wakee(void *arg)
{
	(void)arg;
	for (;;) {
		while (atomic_load(&bword) == 0)
			syscall(SYS_futex, &bword, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
		if (atomic_load(&stop))
			return NULL;
		atomic_store(&b_start, now_ns(CLOCK_MONOTONIC));
		atomic_store(&b_cpu, sched_getcpu());
		spin_cpu(bwork_ns);
		atomic_store(&bword, 0);
	}
}

static void pin_to(pthread_t th, int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(th, sizeof set, &set);
}

struct trial {
	int64_t lost, first, blat;
	int wake, same;
};

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void summary(const char *name, struct trial *t, int n, int wake, int same)
{
	int64_t *lost = malloc(sizeof *lost * (size_t)(n + 1)), *blat = malloc(sizeof *blat * (size_t)(n + 1));
	int k = 0, early = 0, nsame = 0, nb = 0;
	for (int i = 0; i < n; i++) {
		if (t[i].wake != wake || (same >= 0 && t[i].same != same))
			continue;
		lost[k++] = t[i].lost;
		early += t[i].first >= 0 && t[i].first < 20000;
		nsame += t[i].same;
		if (t[i].blat >= 0)
			blat[nb++] = t[i].blat;
	}
	if (k == 0) {
		printf("%-26s 0 trials\n", name);
		free(lost), free(blat);
		return;
	}
	qsort(lost, (size_t)k, sizeof *lost, cmp64);
	qsort(blat, (size_t)nb, sizeof *blat, cmp64);
	printf("%-26s %4d trials: lost the CPU within 20us %3d (%3.0f%%); lost us median %7.1f p90 %7.1f",
	       name, k, early, 100.0 * early / k, lost[k / 2] / 1e3, lost[k * 9 / 10] / 1e3);
	if (wake)
		printf("; B on A's CPU %3.0f%%; B latency us median %6.1f p90 %6.1f", 100.0 * nsame / k,
		       nb ? blat[nb / 2] / 1e3 : -1.0, nb ? blat[nb * 9 / 10] / 1e3 : -1.0);
	printf("\n");
	free(lost), free(blat);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "sleep";
	int runs = argc > 2 ? atoi(argv[2]) : 400;
	int64_t work_ns = (argc > 3 ? atoll(argv[3]) : 150) * 1000;
	bwork_ns = (argc > 4 ? atoll(argv[4]) : 150) * 1000;
	int hogs = argc > 5 ? atoi(argv[5]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
	int pin = argc > 6 ? atoi(argv[6]) : 0;
	int sleeping = strcmp(mode, "run") != 0;
	if (runs < 2 || hogs < 0 || hogs > 64 || work_ns <= 0 || bwork_ns <= 0) {
		fprintf(stderr, "usage: wakepreempt [sleep|run] [RUNS] [WORK us] [BWORK us] [HOGS]\n");
		return 2;
	}
	pthread_t h[64], b;
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	for (int i = 0; i < hogs; i++) {
		pthread_create(&h[i], NULL, hog, NULL);
		if (pin)
			pin_to(h[i], pin == 2 ? ncpu - 1 : i % ncpu);
	}
	pthread_create(&b, NULL, wakee, NULL);
	if (pin) { /* A and B share CPU 0, as when B's previous CPU is A's */
		pin_to(b, 0);
		pin_to(pthread_self(), 0);
	}
	int ep = epoll_create1(0);
	struct epoll_event evs[1];
	struct trial *t = calloc((size_t)runs, sizeof *t);
	usleep(100000); /* the hogs settle */
	for (int i = 0; i < runs; i++) {
		int wake = i % 2 == 0;
		if (sleeping)
			epoll_wait(ep, evs, 1, 1);
		else
			spin_cpu(1000000);
		spin_cpu(3000); /* ready */
		int acpu = sched_getcpu();
		atomic_store(&b_start, 0);
		int64_t t0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		if (wake) {
			atomic_store(&bword, 1);
			syscall(SYS_futex, &bword, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		}
		int64_t t1 = now_ns(CLOCK_MONOTONIC), c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		int64_t last = t1, first = -1;
		for (;;) {
			int64_t w = now_ns(CLOCK_MONOTONIC);
			if (first < 0 && w - last > 5000)
				first = last - t1;
			last = w;
			if (now_ns(CLOCK_THREAD_CPUTIME_ID) - c0 >= work_ns)
				break;
		}
		t[i].lost = (last - t1) - (now_ns(CLOCK_THREAD_CPUTIME_ID) - c1);
		t[i].first = first;
		t[i].wake = wake;
		t[i].blat = -1;
		if (wake) {
			while (atomic_load(&bword) != 0) /* B's run ends before the next trial */
				usleep(20);
			int64_t bs = atomic_load(&b_start);
			t[i].blat = bs ? bs - t0 : -1;
			t[i].same = atomic_load(&b_cpu) == acpu;
		}
	}
	atomic_store(&stop, 1);
	atomic_store(&bword, 1);
	syscall(SYS_futex, &bword, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	for (int i = 0; i < hogs; i++)
		pthread_join(h[i], NULL);
	pthread_join(b, NULL);
	printf("# mode %s, %d trials, work %lld us, B's work %lld us, %d hogs%s\n", mode, runs,
	       (long long)(work_ns / 1000), (long long)(bwork_ns / 1000), hogs,
	       pin == 1 ? ", pinned: A and B on CPU 0, hog i on CPU i" : pin == 2 ? ", pinned: A and B on CPU 0, the hogs on the last CPU" : "");
	summary("without the wake", t, runs, 0, -1);
	summary("with the wake", t, runs, 1, -1);
	summary("with, B on A's CPU", t, runs, 1, 1);
	summary("with, B on the other CPU", t, runs, 1, 0);
	free(t);
	return 0;
}
