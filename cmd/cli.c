/* cli.c: options into a struct opts (getopt_long), with one-line errors
 * that name the option and say what it takes (exit 2). */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim/number.h"
#include "../sim/release.h"
#include "../sim/workload.h"
#include "../trace/schedtrace.h"
#include "compress.h"
#include "msg.h"
#include "out.h"
#include "run.h"
#include "compare.h"
#include "import.h"
#include "sweep.h"

static const char usage_text[] =
	"Usage: gosim [OPTION]...\n"
	"Simulate the Go runtime scheduler (G/M/P, runtime/proc.go) on a workload and\n"
	"write what happened: an event trace, GODEBUG=schedtrace lines and a summary.\n"
	"\n"
	"Workload:\n"
	"  -w, --workload=NAME|FILE  a built-in workload or a JSON file (default fanout)\n"
	"      --list-workloads      describe the built-in workloads and exit\n"
	"  -D NAME=VALUE             override a workload parameter (repeatable),\n"
	"                            e.g. -D n=1000 -D work=250us\n"
	"\n"
	"Scheduler:\n"
	"      --model=MODEL         runtime (default): proc.go's own machinery\n"
	"                            (spinning Ms as proc.go counts them, runqgrab's\n"
	"                            usleep(3) back-off, adaptive sysmon with timer\n"
	"                            slack; README \"Two models\"); seed: the seed's\n"
	"                            simplified model (instant spinning Ms, fixed\n"
	"                            20us sysmon, free operations, a CPU per P)\n"
	"      --thread-wake=DUR     runtime model: startm waking a parked M (futex) until\n"
	"                            it runs findRunnable (default measured, README)\n"
	"      --thread-start=DUR    runtime model: startm creating an M (newm, clone)\n"
	"                            until it runs (default measured, README)\n"
	"      --init-threads=N      runtime model: idle Ms the process starts with, as\n"
	"                            the runtime's init leaves them (default 2, the\n"
	"                            real twins' first SCHED line on 2 CPUs; seed 0)\n"
	"      --runtime-init=MODE   measured (runtime model's default): sysmon started\n"
	"                            before the workload and saw main's slice begin\n"
	"                            when a measured real start-up did, one seeded\n"
	"                            draw per run (README \"sysmon's sleeps\"); none\n"
	"                            (seed model's, and with --sysmon=fixed): they\n"
	"                            start together\n"
	"      --cost-go=DUR, --cost-chan=DUR, --cost-switch=DUR, --cost-gosched=DUR\n"
	"                            runtime model: the CPU time of a go statement, a\n"
	"                            channel op, a G switch (execute), a Gosched, to the\n"
	"                            ns, e.g. 2.3us or 90ns (defaults measured, README)\n"
	"      --cost-sysmon=DUR     runtime model: the CPU time of one of sysmon's\n"
	"                            sleeps (usleep), counted in the summary's sysmon\n"
	"                            line; with --cpus, sysmon's thread takes it on\n"
	"                            the shared CPUs (default measured)\n"
	"      --cost-futex-wake=DUR, --cost-futex-sleep=DUR, --cost-usleep=DUR,\n"
	"      --cost-syscall=DUR, --cost-netpoll=DUR, --cost-clone=DUR, --cost-mstart=DUR\n"
	"                            runtime model: the CPU time of a thread's wake-up\n"
	"                            (the waker's futexwakeup, the woken thread's\n"
	"                            futexsleep), runqgrab's usleep(3), a syscall's\n"
	"                            entry and exit, netpoll's epoll_wait, a thread's\n"
	"                            creation (the creator's newm and clone, the new\n"
	"                            thread's mstart): with --cpus\n"
	"                            the thread takes it on the shared CPUs, else it is\n"
	"                            counted in the summary (defaults measured)\n"
	"      --cost-write=DUR      runtime model: the CPU time of one write(2) of\n"
	"                            sysmon's schedtrace (18 + 2 x Ps a SCHED line;\n"
	"                            with --schedtrace only; default measured)\n"
	"      --cpus=N              runtime model: the machine's CPUs, 1..1024, shared\n"
	"                            by the threads running Go code and by sysmon's and\n"
	"                            the thread operations' CPU (default: one per P);\n"
	"                            without --procs GOMAXPROCS is --go's default for them\n"
	"      --cpu-quota=CPUS      with --cpus: the cgroup's CPU limit (quota/period, e.g.\n"
	"                            1.5); only Go 1.25's default GOMAXPROCS reads it\n"
	"      --cpu-slice=DUR       with --cpus: a thread's time slice on a CPU (default\n"
	"                            Linux's base slice, 0.75ms x (1 + log2 CPUs): 1.5ms\n"
	"                            on 2 CPUs)\n"
	"      --cpu-place=MODE      with --cpus: shared: one run queue, a thread\n"
	"                            takes any free CPU; last: a thread runs on the CPU it\n"
	"                            last ran on and preempts the thread there, as this\n"
	"                            machine's kernel places woken threads (docs/fidelity.md);\n"
	"                            linux: a run queue per CPU, a woken thread placed by\n"
	"                            Linux's select_task_rq_fair (wake_affine, then an idle\n"
	"                            CPU), balanced when a CPU goes idle and at 4ms ticks;\n"
	"                            prev (default): the same, a woken thread on its\n"
	"                            previous CPU, as this machine's kernel does\n"
	"      --cpu-migration-cost=DUR  with --cpu-place=last, linux, prev: a balance moves\n"
	"                            a thread waiting on another CPU only once it has not\n"
	"                            run for DUR\n"
	"                            (default Linux's sched_migration_cost, 500us)\n"
	"      --netpoll-wait=MODE   ms (runtime model's default): the M blocked in\n"
	"                            netpoll for the next timer waits whole milliseconds,\n"
	"                            as Go's epoll_wait does (a delay under 1ms as 1ms);\n"
	"                            exact (seed model's): until the timer's time\n"
	"      --steal=on|off        work stealing (default on)\n"
	"      --preempt=MODE        async (Go 1.14+, default), cooperative (before\n"
	"                            1.14: call-free loops run on), off\n"
	"  -s, --seed=N              seed for the random steal order (default 1)\n"
	"      --slice=DUR           time slice before sysmon preempts (default 10ms)\n"
	"      --sysmon=MODE         adaptive (runtime model's default): the runtime's\n"
	"                            back-off, 20us doubling to 10ms after 50 passes\n"
	"                            that retake nothing; fixed (seed model's): a pass\n"
	"                            every period\n"
	"      --sysmon-period=DUR   sysmon's period, or first delay (default 20us)\n"
	"      --sysmon-slack=DUR|measured  what each of sysmon's sleeps lasts beyond\n"
	"                            its delay (Linux timer slack and wake-up): DUR\n"
	"                            for every sleep (seed model 0), or measured: a\n"
	"                            seeded draw per sleep from the distribution\n"
	"                            tools/timer-slack.c measured (runtime model's\n"
	"                            default); runqgrab's usleep(3) adds DUR\n"
	"                            (runtime model 70us)\n"
	"      --max-threads=N       thread limit, as debug.SetMaxThreads (default 10000)\n"
	"      --max-goroutines=N    refuse workloads that start more (default 100000000)\n"
	"      --max-steps=N         refuse workloads that execute more operations\n"
	"                            (default 10000000000)\n"
	"      --until=DUR           stop at DUR of simulated time, keeping the trace\n"
	"                            so far (outcome until, exit status 4)\n"
	"\n"
	"Output:\n"
	"  -t, --trace=FILE          write the event trace to FILE ('-': stdout)\n"
	"  -f, --format=FMT          json, jsonl, csv, gotrace (a Go execution trace for\n"
	"                            go tool trace: .trace, .gotrace), html (a replay\n"
	"                            page: .html) or chrome (Chrome Trace Event JSON\n"
	"                            for Perfetto: .chrome.json, .perfetto.json);\n"
	"                            default: FILE's extension in any case, json for\n"
	"                            '-' and for devices and FIFOs; FILE.zst and\n"
	"                            FILE.gz are compressed (zstd, gzip)\n"
	"      --schedtrace=MS       print SCHED lines to stderr every MS ms, as\n"
	"                            GODEBUG=schedtrace=MS does (0: off)\n"
	"      --scheddetail         add the P, M and G lines (scheddetail=1)\n"
	"      --go=VERSION          the Go release, 1.19 to 1.26 (default " SCHEDTRACE_NEWEST "):\n"
	"                            its schedtrace format, and in the runtime model\n"
	"                            its rules (README: \"Rules by release\")\n"
	"      --report[=FMT]        after the summary: where the time went (latency,\n"
	"                            each goroutine's time by place, Ps, Ms, counters);\n"
	"                            FMT text (default), json or csv (instead of the\n"
	"                            summary); docs/report-format.md\n"
	"      --report-threshold=DUR  list waits runnable longer than DUR, with who\n"
	"                            ran meanwhile (default 10ms)\n"
	"      --explain             each scheduling decision's record names the rule\n"
	"                            that made it, as proc.go does (field rule)\n"
	"      --why=N               every runnable interval of goroutine N: its queue,\n"
	"                            position, and the goroutines that ran meanwhile\n"
	"  -q, --quiet               no summary, no progress\n"
	"      --stats               print the run's cost to stderr: wall time, events\n"
	"                            per second, peak RSS, trace bytes per second\n"
	"\n"
	"Sweeps (every combination; one table row per configuration):\n"
	"  -p, --procs=LIST          GOMAXPROCS values, e.g. 1,2,4,8 or 1..8\n"
	"      --seeds=LIST          seeds, e.g. 1..20; each configuration runs once each\n"
	"  -D NAME=a,b,c             a list of workload parameter values\n"
	"      --jobs=N              worker threads (default: one per CPU)\n"
	"      --sweep-jobs          print each run's options, one line per run (tools/sweep)\n"
	"\n"
	"Checking:\n"
	"      --check               check the model's invariants after every step (incremental)\n"
	"      --eager-sysmon        run every sysmon pass instead of skipping idle\n"
	"                            ones (same result, slower; for testing)\n"
	"\n"
	"  -h, --help                this help\n"
	"  -V, --version             gosim's version\n"
	"\n"
	"DUR is microseconds or a number with a unit: 250us, 1.5ms, 2s.\n"
	"Exit status: 0 done; 1 a model invariant failed (a gosim bug); 2 bad usage\n"
	"or input; 3 the simulated program died or hangs (deadlock, thread limit, a\n"
	"socket read no write will end); 4 stopped at --until (the trace kept); 5 out\n"
	"of memory (the old trace kept); 128+N stopped by signal N (130 Ctrl-C, 141 the\n"
	"trace's reader left; old trace kept).\n"
	"Example: gosim -w syscalls -p 4 --trace out.json --schedtrace=1\n"
	"\n"
	"gosim compare A.json B.json: two --report=json outputs (runs or sweeps) side\n"
	"by side, each figure with the ratio B/A.\n"
	"gosim import FILE.trace [-o W.json]: a Go execution trace into a workload.\n";

enum { OPT_STEAL = 256, OPT_PREEMPT, OPT_SLICE, OPT_SYSMON_PERIOD, OPT_MAX_THREADS, OPT_SCHEDTRACE,
       OPT_SCHEDDETAIL, OPT_GO, OPT_CHECK, OPT_EAGER, OPT_LIST, OPT_MAX_GOROUTINES, OPT_MAX_STEPS, OPT_UNTIL, OPT_STATS, OPT_SYSMON,
       OPT_SYSMON_SLACK, OPT_REPORT, OPT_REPORT_THRESHOLD, OPT_WHY, OPT_SEEDS, OPT_JOBS, OPT_SWEEP_JOBS, OPT_EXPLAIN,
       OPT_MODEL, OPT_THREAD_WAKE, OPT_CPUS, OPT_CPU_SLICE, OPT_CPU_QUOTA, OPT_CPU_PLACE, OPT_CPU_MIGRATION_COST,
       OPT_THREAD_START, OPT_INIT_THREADS, OPT_RUNTIME_INIT, OPT_COST_GO, OPT_COST_CHAN, OPT_COST_SWITCH, OPT_COST_GOSCHED,
       OPT_NETPOLL_WAIT, OPT_COST_SYSMON, OPT_COST_THREAD /* + enum sim_thread_op: --cost-futex-wake, ... */ };

static const struct option long_opts[] = {
	{ "workload", required_argument, NULL, 'w' },
	{ "procs", required_argument, NULL, 'p' },
	{ "steal", required_argument, NULL, OPT_STEAL },
	{ "preempt", required_argument, NULL, OPT_PREEMPT },
	{ "seed", required_argument, NULL, 's' },
	{ "slice", required_argument, NULL, OPT_SLICE },
	{ "sysmon-period", required_argument, NULL, OPT_SYSMON_PERIOD },
	{ "sysmon", required_argument, NULL, OPT_SYSMON },
	{ "sysmon-slack", required_argument, NULL, OPT_SYSMON_SLACK },
	{ "max-threads", required_argument, NULL, OPT_MAX_THREADS },
	{ "max-goroutines", required_argument, NULL, OPT_MAX_GOROUTINES },
	{ "max-steps", required_argument, NULL, OPT_MAX_STEPS },
	{ "until", required_argument, NULL, OPT_UNTIL },
	{ "trace", required_argument, NULL, 't' },
	{ "format", required_argument, NULL, 'f' },
	{ "schedtrace", required_argument, NULL, OPT_SCHEDTRACE },
	{ "scheddetail", no_argument, NULL, OPT_SCHEDDETAIL },
	{ "go", required_argument, NULL, OPT_GO },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "eager-sysmon", no_argument, NULL, OPT_EAGER },
	{ "list-workloads", no_argument, NULL, OPT_LIST },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "report", optional_argument, NULL, OPT_REPORT },
	{ "report-threshold", required_argument, NULL, OPT_REPORT_THRESHOLD },
	{ "why", required_argument, NULL, OPT_WHY },
	{ "seeds", required_argument, NULL, OPT_SEEDS },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "sweep-jobs", no_argument, NULL, OPT_SWEEP_JOBS },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "thread-wake", required_argument, NULL, OPT_THREAD_WAKE },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "thread-start", required_argument, NULL, OPT_THREAD_START },
	{ "init-threads", required_argument, NULL, OPT_INIT_THREADS },
	{ "runtime-init", required_argument, NULL, OPT_RUNTIME_INIT },
	{ "cost-go", required_argument, NULL, OPT_COST_GO },
	{ "cost-chan", required_argument, NULL, OPT_COST_CHAN },
	{ "cost-switch", required_argument, NULL, OPT_COST_SWITCH },
	{ "cost-gosched", required_argument, NULL, OPT_COST_GOSCHED },
	{ "cost-sysmon", required_argument, NULL, OPT_COST_SYSMON },
#define COST_THREAD_OPT(K, name) { "cost-" name, required_argument, NULL, OPT_COST_THREAD + TOP_##K },
	SIM_THREAD_OPS(COST_THREAD_OPT)
	{ "cpu-slice", required_argument, NULL, OPT_CPU_SLICE },
	{ "cpu-place", required_argument, NULL, OPT_CPU_PLACE },
	{ "netpoll-wait", required_argument, NULL, OPT_NETPOLL_WAIT },
	{ "cpu-migration-cost", required_argument, NULL, OPT_CPU_MIGRATION_COST },
	{ "cpu-quota", required_argument, NULL, OPT_CPU_QUOTA },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int bad(const char *opt, const char *val, const char *what)
{
	msg_usage("%s=%s: %s", opt, val, what);
	return EXIT_USAGE;
}

/* Every integer option goes through number.h's strict parser. */
static int parse_int(const char *s, long long lo, long long hi, long long *out)
{
	int64_t v;
	if (number_parse_i64(s, lo, hi, &v) != 0)
		return -1;
	*out = v;
	return 0;
}

static int parse_dur(const char *s, int64_t *out)
{
	long long v;
	if (parse_int(s, 1, WORKLOAD_MAX_US, &v) == 0) {
		*out = (v + TICK_US - 1) / TICK_US * TICK_US;
		return 0;
	}
	return workload_parse_duration(s, out) == 0 && *out > 0 ? 0 : -1;
}

/* A duration to the microsecond, 0 to 1s: bare digits are microseconds. */
static int parse_dur_us(const char *s, int64_t *out)
{
	long long v;
	if (parse_int(s, 0, 1000000, &v) == 0) {
		*out = v;
		return 0;
	}
	return workload_parse_duration_us(s, out) == 0 && *out <= 1000000 ? 0 : -1;
}

/* An operation cost, to the nanosecond, 0 to 1s: bare digits are
 * microseconds, as for every DUR. */
static int parse_cost(const char *opt, const char *s, int64_t *ns)
{
	long long v;
	if (parse_int(s, 0, 1000000, &v) == 0) {
		*ns = v * 1000;
		return 0;
	}
	if (workload_parse_duration_ns(s, ns) == 0 && *ns <= 1000000000)
		return 0;
	return bad(opt, s, "expected a duration from 0 to 1s, such as 2.3us or 90ns");
}

static int add_define(struct opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg) {
		msg_usage("-D %s: expected NAME=VALUE, e.g. -D n=1000", arg);
		return EXIT_USAGE;
	}
	if (o->ndefines == MAX_DEFINES) {
		msg_usage("-D %s: at most %d -D options", arg, MAX_DEFINES);
		return EXIT_USAGE;
	}
	size_t n = (size_t)(eq - arg);
	char *name = malloc(n + 1);
	if (!name) {
		msg_error("out of memory");
		return EXIT_USAGE;
	}
	memcpy(name, arg, n);
	name[n] = 0;
	o->defines[o->ndefines++] = (struct param_override){ .name = name, .value = eq + 1 };
	return 0;
}

static int parse_choice(const char *opt, const char *val, const char *const *names, int n, int *out)
{
	for (int i = 0; i < n; i++)
		if (strcmp(val, names[i]) == 0) {
			*out = i;
			return 0;
		}
	char what[128] = "expected ";
	for (int i = 0; i < n; i++) {
		strcat(what, names[i]);
		strcat(what, i + 2 < n ? ", " : i + 1 < n ? " or " : "");
	}
	return bad(opt, val, what);
}

/* "2", "1.5", "0.125": a number of CPUs in thousandths, digits only, in
 * (0, MAX_CPUS]. */
static int parse_cpus_milli(const char *arg, int64_t *out)
{
	int64_t whole = 0, frac = 0, scale = 1000;
	const char *p = arg;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((whole = whole * 10 + (*p - '0')) > MAX_CPUS)
			return -1;
	if (*p == '.') {
		if (*++p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (scale == 1)
				return -1; /* finer than a thousandth of a CPU */
			scale /= 10;
			frac += (*p - '0') * scale;
		}
	}
	int64_t milli = whole * 1000 + frac;
	if (*p || milli <= 0 || milli > (int64_t)MAX_CPUS * 1000)
		return -1;
	*out = milli;
	return 0;
}

/* Whether any thread operation costs CPU (--cost-futex-wake, ...). */
static int thread_costs(const struct sim_config *c)
{
	for (int op = 0; op < TOP__N; op++)
		if (c->cost_thread_ns[op] > 0)
			return 1;
	return 0;
}

static int parse_long_only(struct opts *o, int c, const char *arg)
{
	static const char *const onoff[] = { "off", "on" };
	static const char *const modes[] = { "async", "cooperative", "off" };
	long long v;
	int choice;
	switch (c) {
	case OPT_STEAL:
		if (parse_choice("--steal", arg, onoff, 2, &choice))
			return EXIT_USAGE;
		o->cfg.steal = choice;
		return 0;
	case OPT_PREEMPT:
		if (parse_choice("--preempt", arg, modes, 3, &choice))
			return EXIT_USAGE;
		o->cfg.preempt = (enum sim_preempt)choice;
		return 0;
	case OPT_MODEL: {
		static const char *const models[] = { "seed", "runtime" };
		if (parse_choice("--model", arg, models, 2, &choice))
			return EXIT_USAGE;
		o->cfg.model = (enum sim_model)choice;
		return 0;
	}
	case OPT_THREAD_WAKE:
		return parse_dur_us(arg, &o->cfg.thread_wake_us) ? bad("--thread-wake", arg, "expected a duration up to 1s, such as 50us") : 0;
	case OPT_INIT_THREADS:
		if (parse_int(arg, 0, 64, &v))
			return bad("--init-threads", arg, "expected a number of threads in 0..64");
		o->cfg.init_threads = (int)v;
		return 0;
	case OPT_RUNTIME_INIT: {
		static const char *const kinds[] = { "none", "measured" };
		if (parse_choice("--runtime-init", arg, kinds, 2, &choice))
			return EXIT_USAGE;
		o->cfg.runtime_init = (enum sim_init)choice;
		return 0;
	}
	case OPT_THREAD_START:
		return parse_dur_us(arg, &o->cfg.thread_start_us) ? bad("--thread-start", arg, "expected a duration up to 1s, such as 50us") : 0;
	case OPT_COST_GO:
		return parse_cost("--cost-go", arg, &o->cfg.cost_go_ns);
	case OPT_COST_CHAN:
		return parse_cost("--cost-chan", arg, &o->cfg.cost_chan_ns);
	case OPT_COST_SWITCH:
		return parse_cost("--cost-switch", arg, &o->cfg.cost_switch_ns);
	case OPT_COST_GOSCHED:
		return parse_cost("--cost-gosched", arg, &o->cfg.cost_gosched_ns);
	case OPT_COST_SYSMON:
		return parse_cost("--cost-sysmon", arg, &o->cfg.cost_sysmon_ns);
	case OPT_COST_THREAD + TOP_FUTEX_WAKE:
	case OPT_COST_THREAD + TOP_FUTEX_SLEEP:
	case OPT_COST_THREAD + TOP_USLEEP:
	case OPT_COST_THREAD + TOP_SYSCALL:
	case OPT_COST_THREAD + TOP_NETPOLL:
	case OPT_COST_THREAD + TOP_CLONE:
	case OPT_COST_THREAD + TOP_MSTART:
	case OPT_COST_THREAD + TOP_WRITE: {
		int op = c - OPT_COST_THREAD;
		char name[32];
		snprintf(name, sizeof name, "--cost-%s", sim_thread_op_name(op));
		return parse_cost(name, arg, &o->cfg.cost_thread_ns[op]);
	}
	case OPT_CPUS:
		if (parse_int(arg, 1, MAX_CPUS, &v))
			return bad("--cpus", arg, "expected an integer in 1..1024");
		o->cfg.cpus = (int)v;
		return 0;
	case OPT_CPU_SLICE:
		if (parse_int(arg, 1, 1000000, &v) == 0) {
			o->cfg.cpu_slice_us = v;
			return 0;
		}
		if (workload_parse_duration_us(arg, &o->cfg.cpu_slice_us) == 0 && o->cfg.cpu_slice_us >= 1 &&
		    o->cfg.cpu_slice_us <= 1000000)
			return 0;
		return bad("--cpu-slice", arg, "expected a duration from 1us to 1s, such as 1.5ms");
	case OPT_NETPOLL_WAIT: {
		static const char *const kinds[] = { "exact", "ms" };
		if (parse_choice("--netpoll-wait", arg, kinds, 2, &choice))
			return 2;
		o->cfg.netpoll_wait = choice ? NETPOLL_WAIT_MS : NETPOLL_WAIT_EXACT;
		return 0;
	}
	case OPT_CPU_PLACE: {
#define CPU_PLACE_NAME(K, name, phrase) name,
		static const char *const kinds[] = { SIM_CPU_PLACES(CPU_PLACE_NAME) };
#undef CPU_PLACE_NAME
		if (parse_choice("--cpu-place", arg, kinds, CPU_PLACE__N, &choice))
			return 2;
		o->cfg.cpu_place = (enum sim_cpu_place)choice;
		o->cpu_place_set = 1;
		return 0;
	}
	case OPT_CPU_MIGRATION_COST:
		if (workload_parse_duration_us(arg, &o->cfg.cpu_migration_cost_us) == 0 && o->cfg.cpu_migration_cost_us >= 1 &&
		    o->cfg.cpu_migration_cost_us <= 1000000)
			return 0;
		return bad("--cpu-migration-cost", arg, "expected a duration from 1us to 1s, such as 500us");
	case OPT_CPU_QUOTA:
		if (parse_cpus_milli(arg, &o->cpu_quota_milli))
			return bad("--cpu-quota", arg, "expected a number of CPUs such as 2 or 1.5, above 0 and at most 1024");
		return 0;
	case OPT_SYSMON: {
		static const char *const kinds[] = { "fixed", "adaptive" };
		if (parse_choice("--sysmon", arg, kinds, 2, &choice))
			return EXIT_USAGE;
		o->cfg.sysmon = (enum sim_sysmon)choice;
		return 0;
	}
	case OPT_SYSMON_SLACK: {
		long long v2;
		if (strcmp(arg, "measured") == 0) {
			o->cfg.slack = SLACK_MEASURED;
			return 0;
		}
		o->cfg.slack = SLACK_FIXED;
		if (parse_int(arg, 0, 1000000, &v2) == 0) {
			o->cfg.sysmon_slack_us = v2;
			return 0;
		}
		if (workload_parse_duration_us(arg, &o->cfg.sysmon_slack_us) == 0 && o->cfg.sysmon_slack_us <= 1000000)
			return 0;
		return bad("--sysmon-slack", arg, "expected 'measured' or a duration up to 1s, such as 67us");
	}
	case OPT_SLICE:
		return parse_dur(arg, &o->cfg.slice_us) ? bad("--slice", arg, "expected a duration such as 10ms") : 0;
	case OPT_SYSMON_PERIOD:
		return parse_dur(arg, &o->cfg.sysmon_period_us) ? bad("--sysmon-period", arg, "expected a duration such as 20us") : 0;
	case OPT_MAX_THREADS:
		if (parse_int(arg, 2, INT32_MAX, &v))
			return bad("--max-threads", arg, "expected an integer in 2..2147483647 (sysmon and the main thread count)");
		o->cfg.max_threads = v;
		return 0;
	case OPT_MAX_GOROUTINES:
		if (parse_int(arg, 1, INT64_MAX, &v))
			return bad("--max-goroutines", arg, "expected a positive integer");
		o->max_goroutines = v;
		return 0;
	case OPT_MAX_STEPS:
		if (parse_int(arg, 1, INT64_MAX, &v))
			return bad("--max-steps", arg, "expected a positive integer");
		o->max_steps = v;
		return 0;
	case OPT_UNTIL:
		return parse_dur(arg, &o->until_us) ? bad("--until", arg, "expected a duration such as 10s") : 0;
	case OPT_SCHEDTRACE:
		if (parse_int(arg, 0, 1000000000, &v)) /* 0: off, as GODEBUG=schedtrace=0 */
			return bad("--schedtrace", arg, "expected a period in milliseconds, 0 (off) to 1000000000");
		o->cfg.schedtrace_ms = v;
		return 0;
	case OPT_GO:
		if (schedtrace_family(arg, &o->family) || (o->cfg.go_release = release_parse(arg)) < 0)
			return bad("--go", arg, "expected a Go release 1.19 to 1.26, such as 1.19, 1.23 or " SCHEDTRACE_NEWEST);
		o->go_version = arg;
		return 0;
	case OPT_SCHEDDETAIL: o->detail = 1; return 0;
	case OPT_CHECK: o->cfg.check = 1; return 0;
	case OPT_EAGER: o->cfg.eager_sysmon = 1; return 0;
	case OPT_LIST: o->list = 1; return 0;
	case OPT_STATS: o->stats = 1; return 0;
	case OPT_REPORT:
		o->report = 1;
		if (arg && report_format_parse(arg, &o->report_fmt))
			return bad("--report", arg, "expected text, json or csv");
		return 0;
	case OPT_REPORT_THRESHOLD:
		return parse_dur(arg, &o->report_threshold_us) ? bad("--report-threshold", arg, "expected a duration such as 10ms") : 0;
	case OPT_WHY:
		if (parse_int(arg, 1, INT32_MAX, &v))
			return bad("--why", arg, "expected a goroutine id (1 is main)");
		o->why_g = (int32_t)v;
		return 0;
	case OPT_SEEDS:
		free(o->seeds);
		o->seeds = NULL;
		if (sweep_parse_list(arg, 0, INT64_MAX, &o->seeds, &o->nseeds))
			return bad("--seeds", arg, "expected seeds such as 1..20 or 1,5,9 (at most 100000)");
		return 0;
	case OPT_JOBS:
		if (parse_int(arg, 1, 256, &v))
			return bad("--jobs", arg, "expected an integer in 1..256");
		o->jobs = (int)v;
		return 0;
	case OPT_SWEEP_JOBS: o->sweep_jobs = 1; return 0;
	case OPT_EXPLAIN: o->cfg.explain = 1; return 0;
	}
	return EXIT_USAGE;
}

static int parse_opt(struct opts *o, int c, const char *arg)
{
	long long v;
	switch (c) {
	case 'w': o->workload = arg; return 0;
	case 'p':
		free(o->procs_list);
		o->procs_list = NULL;
		o->nprocs_list = 0;
		if ((strchr(arg, ',') || strstr(arg, "..")) &&
		    sweep_parse_list(arg, 1, MAX_PROCS, &o->procs_list, &o->nprocs_list) == 0) {
			o->cfg.procs = (int)o->procs_list[0];
			return 0;
		}
		if (parse_int(arg, 1, MAX_PROCS, &v))
			return bad("--procs", arg, "expected an integer in 1..256, or a list such as 1,2,4,8 or 1..8");
		o->cfg.procs = (int)v;
		return 0;
	case 's':
		return number_parse_u64(arg, UINT64_MAX, &o->cfg.seed) ? bad("--seed", arg, "expected an integer in 0..18446744073709551615") : 0;
	case 't':
		if (!*arg)
			return bad("--trace", arg, "expected a file name, or - for stdout");
		o->trace_path = arg;
		return 0;
	case 'f':
		if (trace_format_parse(arg, &o->format))
			return bad("--format", arg, "expected json, jsonl, csv, gotrace, html or chrome");
		o->format_set = 1;
		return 0;
	case 'D': return add_define(o, arg);
	case 'q': o->quiet = 1; return 0;
	case 'h': o->help = 1; return 0;
	case 'V': o->version = 1; return 0;
	default: return parse_long_only(o, c, arg);
	}
}

/* The trace format a file name asks for: its extension, after a .zst or
 * .gz (compress.h) is taken off (t.csv.zst: csv). */
static int format_from_name(const char *path, enum trace_format *fmt)
{
	size_t stem;
	if (compress_of_path(path, &stem) == COMPRESS_NONE)
		return trace_format_from_path(path, fmt);
	char *name = strndup(path, stem);
	int rc = name ? trace_format_from_path(name, fmt) : -1;
	free(name);
	return rc;
}


static int check_combination(struct opts *o)
{
	if (o->detail && !o->cfg.schedtrace_ms) {
		msg_usage("--scheddetail needs --schedtrace=MS (as scheddetail=1 needs schedtrace)");
		return EXIT_USAGE;
	}
	if (o->trace_path && !o->format_set && format_from_name(o->trace_path, &o->format) != 0) {
		if (!out_is_stream(o->trace_path)) {
			msg_usage("--trace=%s: cannot tell the format from the name; add --format=json, jsonl, csv, gotrace, html or chrome",
				o->trace_path);
			return EXIT_USAGE;
		}
		o->format = TRACE_JSON; /* "-", a device, a FIFO: JSON, as for "-" */
	}
	if ((o->report || o->why_g) && o->trace_path && out_is_stdout(o->trace_path)) {
		msg_usage("--report and --why write to stdout, and so does --trace=%s; write the trace to a file", o->trace_path);
		return EXIT_USAGE;
	}
	if (o->format_set && !o->trace_path) {
		msg_usage("--format needs --trace=FILE");
		return EXIT_USAGE;
	}
	if (o->cfg.model != MODEL_RUNTIME && o->cfg.thread_wake_us > 0) {
		msg_usage("--thread-wake needs the runtime model (drop --model=seed)");
		return EXIT_USAGE;
	}
	if (o->cpu_quota_milli > 0 && o->cfg.cpus == 0) {
		msg_usage("--cpu-quota needs --cpus=N (the CPUs the quota limits)");
		return EXIT_USAGE;
	}
	/* The command's default placement: a queue per CPU, a woken thread on
	 * its previous CPU, as the kernel of the machine the fidelity table is
	 * measured on places them (cpu.h); the library's stays shared. */
	if (!o->cpu_place_set && o->cfg.cpus > 0 && o->cfg.model == MODEL_RUNTIME)
		o->cfg.cpu_place = CPU_PLACE_PREV;
	if (o->cfg.model != MODEL_RUNTIME && (o->cfg.thread_start_us > 0 || o->cfg.cost_go_ns > 0 || o->cfg.cost_chan_ns > 0 ||
					      o->cfg.cost_switch_ns > 0 || o->cfg.cost_gosched_ns > 0 ||
					      o->cfg.cost_sysmon_ns > 0 || thread_costs(&o->cfg))) {
		msg_usage("--thread-start and --cost-* need the runtime model (drop --model=seed)");
		return EXIT_USAGE;
	}
	int init_asked = o->cfg.runtime_init == INIT_MEASURED;
	sim_config_fill_model(&o->cfg);
	if (init_asked && o->cfg.sysmon != SYSMON_ADAPTIVE) {
		msg_usage("--runtime-init=measured needs --sysmon=adaptive (the start-up it draws is adaptive sysmon's head start)");
		return EXIT_USAGE;
	}
	return 0;
}

/* What getopt_long refused (c is '?' or ':'), in getopt's words but
 * starting with gosim: and pointing to --help. word is the argument at
 * fault for a long option. */
static int option_error(int c, const char *word)
{
	if (optopt && optopt < 256 && (word[0] != '-' || word[1] != '-')) { /* a short option */
		if (c == ':')
			msg_usage("option requires an argument -- '%c'", optopt);
		else
			msg_usage("invalid option -- '%c'", optopt);
		return EXIT_USAGE;
	}
	size_t n = strcspn(word + 2, "=");
	int matches = 0, exact = 0;
	const struct option *hit = NULL;
	for (const struct option *lo = long_opts; lo->name; lo++)
		if (strncmp(lo->name, word + 2, n) == 0) {
			matches++;
			hit = lo;
			exact |= strlen(lo->name) == n;
		}
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)n, word + 2);
	if (c == ':')
		msg_usage("option '--%s' requires an argument", hit && matches == 1 ? hit->name : name);
	else if (matches > 1 && !exact)
		msg_usage("option '--%s' is ambiguous", name);
	else if (matches >= 1 && word[2 + n] == '=')
		msg_usage("option '--%s' doesn't allow an argument", hit->name);
	else
		msg_usage("unrecognized option '%s'", word);
	return EXIT_USAGE;
}

int cli_parse_args(struct opts *o, int argc, char **argv)
{
	sim_config_default(&o->cfg);
	/* The command's default is the runtime model; what depends on the
	 * model is filled in once all options are read, so that --sysmon or
	 * --sysmon-slack given before or after --model wins either way. */
	o->cfg.model = MODEL_RUNTIME;
	o->cfg.sysmon = SYSMON_MODEL;
	o->cfg.sysmon_slack_us = SIM_MODEL_DEFAULT;
	o->cfg.slack = SLACK_MODEL;
	o->cfg.runtime_init = INIT_MODEL;
	o->cfg.thread_wake_us = SIM_MODEL_DEFAULT;
	o->cfg.thread_start_us = SIM_MODEL_DEFAULT;
	o->cfg.init_threads = SIM_MODEL_DEFAULT;
	o->cfg.cost_go_ns = o->cfg.cost_chan_ns = o->cfg.cost_switch_ns = o->cfg.cost_gosched_ns = SIM_MODEL_DEFAULT;
	o->cfg.cost_sysmon_ns = SIM_MODEL_DEFAULT;
	for (int op = 0; op < TOP__N; op++)
		o->cfg.cost_thread_ns[op] = SIM_MODEL_DEFAULT;
	o->workload = "fanout";
	o->max_goroutines = MAX_GOROUTINES_DEFAULT;
	o->report_threshold_us = REPORT_THRESHOLD_DEFAULT_US;
	o->max_steps = MAX_STEPS_DEFAULT;
	o->format = TRACE_JSON;
	o->family = SCHEDTRACE_GO125;
	o->go_version = SCHEDTRACE_NEWEST;
	opterr = 0; /* our own messages, not getopt's "./gosim: ..." */
	optind = 0; /* glibc: start afresh, so the parser can run more than once */
	int c;
	while ((c = getopt_long(argc, argv, ":w:p:s:t:f:D:qhV", long_opts, NULL)) != -1) {
		int rc = c == '?' || c == ':' ? option_error(c, argv[optind - 1]) : parse_opt(o, c, optarg);
		if (rc)
			return rc;
	}
	if (optind < argc) {
		msg_usage("unexpected argument '%s' (options start with -)", argv[optind]);
		return EXIT_USAGE;
	}
	return check_combination(o);
}

void cli_free_opts(struct opts *o)
{
	free(o->procs_list);
	free(o->seeds);
	for (int i = 0; i < o->ndefines; i++)
		free((char *)o->defines[i].name);
}

/* --help, --version, --list-workloads: stdout must take it all. */
static int print_info(const struct opts *o)
{
	const char *what = o->help ? "the help" : o->version ? "the version" : "the workloads";
	int rc = 0;
	errno = 0;
	if (o->help)
		fputs(usage_text, stdout);
	else if (o->version)
		printf("gosim %s (trace schema %d, schedtrace formats Go 1.19 to %s)\n", GOSIM_VERSION, TRACE_SCHEMA,
		       SCHEDTRACE_NEWEST);
	else
		rc = run_list_workloads(stdout);
	if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
		if (errno != EPIPE)
			msg_error("writing %s to stdout: %s", what, strerror(errno ? errno : EIO));
		rc = EXIT_USAGE;
	}
	return rc;
}

/* Opens /dev/null onto any of 0, 1 and 2 that is closed, so that no file
 * gosim opens takes its number (with 2>&- a trace file would become
 * stderr and SCHED lines would land in it). */
static int open_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int nfd = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (nfd != fd) { /* the lowest free number: fd, unless /dev/null is missing */
			if (nfd >= 0)
				close(nfd);
			return -1;
		}
	}
	return 0;
}

int cli_main(int argc, char **argv)
{
	struct opts o = { 0 };
	if (open_std_fds() != 0)
		return EXIT_USAGE; /* nowhere to say so */
	if (argc >= 2 && strcmp(argv[1], "compare") == 0)
		return compare_main(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "import") == 0)
		return import_main(argc - 1, argv + 1);
	int rc = cli_parse_args(&o, argc, argv);
	if (rc == 0 && (o.help || o.version || o.list))
		rc = print_info(&o);
	else if (rc == 0 && sweep_wanted(&o))
		rc = sweep_main(&o);
	else if (rc == 0)
		rc = run_main(&o);
	cli_free_opts(&o);
	return rc;
}
