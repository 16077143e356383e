/* run.c: one gosim run (see run.h). Traces go to a temporary file beside
 * the target, renamed into place only when the run got to its end, so a
 * failed or interrupted run leaves the user's old file as it was. */
#include "run.h"

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../sim/release.h"
#include "analysis.h"
#include "cli.h"
#include "compress.h"
#include "msg.h"
#include "out.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig) { interrupted = sig; }

/* The signals that end a run: the old trace is kept and the temporary
 * file removed. No SA_RESTART, so a blocking open (a FIFO with no reader)
 * returns EINTR. SIGPIPE is ignored: a write to a closed pipe fails with
 * EPIPE, which each output handles (the trace ends the run, SCHED lines
 * stop); SIGXFSZ too, so a file-size limit is a failed write. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
		sigaction(stop_signals[i], &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sigaction(SIGXFSZ, &sa, NULL);
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "INT" : sig == SIGTERM ? "TERM" : sig == SIGHUP ? "HUP" : sig == SIGQUIT ? "QUIT" : "?";
}

struct run {
	struct opts *o;
	struct program *prog;
	struct out trace;
	FILE *zf;               /* a .zst or .gz trace: the stream that compresses into trace.f */
	struct trace_writer *tw;
	struct report *rep;     /* --report, --why (analysis.h) */
	uint64_t workload_hash; /* trace_hash of the workload's text */
	struct stat inputs[1];  /* the files this run reads: the -w file */
	int ninputs;
	FILE *sched;     /* SCHED lines: buffered onto stderr; NULL once its reader left */
	char *sched_buf; /* its buffer (glibc ignores setvbuf's size without one) */
	int io_errno;    /* the write that failed, and on what */
	const char *io_what;
	double wall_s;
	double start, last_progress;
	int show_progress, progress_shown;
};

/* ---- workloads ---------------------------------------------------- */

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64];
	if (lb >= 64)
		return lb;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

static const struct builtin_workload *find_builtin(const char *name)
{
	for (int i = 0; i < builtin_workloads_n; i++)
		if (strcmp(builtin_workloads[i].name, name) == 0)
			return &builtin_workloads[i];
	return NULL;
}

static void unknown_workload(const char *name)
{
	const char *best = NULL;
	size_t bestd = 3;
	for (int i = 0; i < builtin_workloads_n; i++) {
		size_t d = edit_distance(name, builtin_workloads[i].name);
		if (d < bestd) {
			bestd = d;
			best = builtin_workloads[i].name;
		}
	}
	if (best)
		msg_error("--workload=%s: no such workload or file; did you mean '%s'? (gosim --list-workloads)",
			name, best);
	else
		msg_error("--workload=%s: no such workload or file (gosim --list-workloads lists the built-in ones)",
			name);
}

static char *read_file(const char *path, size_t *len, struct stat *st)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fstat(fileno(f), st) != 0) {
		fclose(f);
		return NULL;
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *nb = cap < ((size_t)1 << 30) ? realloc(buf, cap * 2) : NULL;
		if (!nb) {
			free(buf);
			buf = NULL;
			errno = EFBIG;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

/* The program's size, known before it runs (the language has no
 * conditions): refuse what the limits or the clock cannot hold. */
static int check_totals(struct run *r)
{
	struct program_totals t;
	const char *w = r->o->workload;
	if (program_totals(r->prog, &t) != 0) {
		msg_error("out of memory");
		return EXIT_NOMEM;
	}
	/* the totals saturate at INT64_MAX: that much means they overflowed */
	if (t.goroutines == INT64_MAX) {
		msg_error("%s: the number of goroutines the program starts overflows (more than --max-goroutines=%lld)",
			w, (long long)r->o->max_goroutines);
		return EXIT_USAGE;
	}
	if (t.goroutines > r->o->max_goroutines) {
		msg_error("%s: the program starts %lld goroutines, more than --max-goroutines=%lld", w,
			(long long)t.goroutines, (long long)r->o->max_goroutines);
		return EXIT_USAGE;
	}
	if (t.work_us > MAX_SIM_US || t.syscall_us > MAX_SIM_US - t.work_us) {
		msg_error("%s: the program asks for more than %lld s of CPU and syscall time, "
				"which gosim's clock cannot hold", w, (long long)(MAX_SIM_US / 1000000));
		return EXIT_USAGE;
	}
	if (t.steps == INT64_MAX) {
		msg_error("%s: the number of steps the program takes overflows (more than --max-steps=%lld)", w,
			(long long)r->o->max_steps);
		return EXIT_USAGE;
	}
	if (t.steps > r->o->max_steps) {
		msg_error("%s: the program takes %lld steps, more than --max-steps=%lld", w, (long long)t.steps,
			(long long)r->o->max_steps);
		return EXIT_USAGE;
	}
	if (t.inexact) { /* range bodies count 0 times up front: the run counts them as they go */
		r->o->cfg.max_steps = r->o->max_steps;
		r->o->cfg.max_goroutines = r->o->max_goroutines;
	}
	return 0;
}

/* -w NAME: a name with a '/' is always a file (./fanout); a bare name is
 * the built-in of that name, and when a file of that name is here too the
 * run says which it took and how to take the other. */
static const struct builtin_workload *pick_builtin(const char *name)
{
	const struct builtin_workload *b = strchr(name, '/') ? NULL : find_builtin(name);
	struct stat st;
	if (b && stat(name, &st) == 0 && !S_ISDIR(st.st_mode))
		msg_error("-w %s: the built-in workload; -w ./%s reads the file %s here", name, name, name);
	return b;
}

/* A workload with no "name" is named after its file (without .json). */
static int name_after_file(struct program *p, const char *path)
{
	if (p->name[0])
		return 0;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		n -= 5;
	char *name = malloc(n + 1);
	if (!name)
		return -1;
	memcpy(name, base, n);
	name[n] = 0;
	free(p->name);
	p->name = name;
	return 0;
}

static int parse_workload(struct run *r, char *err, size_t errlen)
{
	struct opts *o = r->o;
	const struct builtin_workload *b = pick_builtin(o->workload);
	int rc;
	if (b) {
		char file[96];
		snprintf(file, sizeof file, "workloads/%s.json", b->name);
		r->workload_hash = trace_hash(b->text, b->len);
		rc = workload_parse(b->text, b->len, file, o->defines, o->ndefines, &r->prog, err, errlen);
	} else {
		size_t len;
		char *text = read_file(o->workload, &len, &r->inputs[0]);
		if (!text) {
			if (errno == ENOENT && !strchr(o->workload, '/') && !strstr(o->workload, ".json"))
				unknown_workload(o->workload);
			else
				msg_error("%s: %s", o->workload, strerror(errno));
			return EXIT_USAGE;
		}
		r->workload_hash = trace_hash(text, len);
		rc = workload_parse(text, len, o->workload, o->defines, o->ndefines, &r->prog, err, errlen);
		free(text);
		r->ninputs = 1;
	}
	if (rc != 0) {
		msg_error("%s", err);
		return rc == WORKLOAD_NOMEM ? EXIT_NOMEM : EXIT_USAGE;
	}
	if (name_after_file(r->prog, o->workload) != 0) {
		msg_error("out of memory");
		return EXIT_NOMEM;
	}
	return 0;
}

/* A message quotes the file name and -D text: size it to them, so a long
 * path never cuts off the problem after it. */
static size_t error_size(const struct opts *o)
{
	size_t n = 1024 + 2 * strlen(o->workload);
	for (int i = 0; i < o->ndefines; i++)
		n += 2 * (strlen(o->defines[i].name) + strlen(o->defines[i].value));
	return n;
}

static int load_workload(struct run *r)
{
	struct opts *o = r->o;
	size_t errlen = error_size(o);
	char *err = malloc(errlen);
	if (!err) {
		msg_error("out of memory");
		return EXIT_NOMEM;
	}
	int rc = parse_workload(r, err, errlen);
	free(err);
	if (rc)
		return rc;
	if (o->cfg.procs == 0 && o->cfg.cpus > 0) /* schedinit: GOMAXPROCS unset, defaultGOMAXPROCS(ncpu) */
		o->cfg.procs = release_default_gomaxprocs(o->cfg.go_release ? o->cfg.go_release : RELEASE_DEFAULT,
							  o->cfg.cpus, o->cpu_quota_milli);
	if (o->cfg.procs == 0)
		o->cfg.procs = r->prog->procs;
	/* The quota limits the CPU time the threads get. Simplification: as
	 * ceil(quota) CPUs shared round robin (sim/cpu.h); CFS bandwidth
	 * control instead lets them run on all the CPUs until the cgroup has
	 * used quota x 100ms in a 100ms period, then throttles it. */
	int64_t quota_cpus = (o->cpu_quota_milli + 999) / 1000;
	if (o->cpu_quota_milli > 0 && quota_cpus < o->cfg.cpus)
		o->cfg.cpus = (int)quota_cpus;
	return check_totals(r);
}

int run_load_program(struct opts *o, struct program **out)
{
	struct run r = { .o = o };
	int rc = load_workload(&r);
	if (rc) {
		program_free(r.prog);
		return rc;
	}
	*out = r.prog;
	return 0;
}

static void print_wrapped(FILE *out, const char *text, int indent, int width)
{
	int col = indent;
	fprintf(out, "%*s", indent, "");
	while (*text) {
		size_t w = strcspn(text, " ");
		if (col > indent && col + 1 + (int)w > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(text, 1, w, out);
		col += (int)w;
		text += w;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

int run_list_workloads(FILE *out)
{
	for (int i = 0; i < builtin_workloads_n; i++) {
		char err[256];
		struct program *p;
		const struct builtin_workload *b = &builtin_workloads[i];
		if (workload_parse(b->text, b->len, b->name, NULL, 0, &p, err, sizeof err) != 0) {
			msg_error("built-in workload %s", err);
			return EXIT_INVARIANT;
		}
		json_t *root = json_loadb(b->text, b->len, 0, NULL);
		char *params = root ? json_dumps(json_object_get(root, "params"), JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
		fprintf(out, "%s (procs %d; params %s)\n", b->name, p->procs, params ? params : "{}");
		print_wrapped(out, p->description, 2, 78);
		if (i + 1 < builtin_workloads_n)
			fputc('\n', out);
		free(params);
		json_decref(root);
		program_free(p);
	}
	return 0; /* the caller flushes and checks out */
}

static int sink_event(void *ctx, const struct sim_event *e)
{
	struct run *r = ctx;
	if (r->rep && report_event(r->rep, e) != 0) {
		r->io_errno = ENOMEM;
		r->io_what = "--report";
		return -1;
	}
	if (!r->tw || trace_event(r->tw, e) == 0)
		return 0;
	r->io_errno = errno ? errno : EIO;
	r->io_what = r->trace.path;
	return -1;
}

/* A failed write of SCHED lines: a reader of stderr that went away (EPIPE)
 * ends them quietly and the run goes on, as a trace on a closed pipe ends
 * quietly; any other failure (a full device) is an I/O error. */
static int sched_failed(struct run *r)
{
	errno = 0;
	fflush(r->sched); /* again, for the errno of the write that failed */
	int e = errno ? errno : EIO;
	fclose(r->sched);
	r->sched = NULL;
	if (e == EPIPE)
		return 0;
	r->io_errno = e;
	r->io_what = "writing SCHED lines to stderr";
	return -1;
}

static int sink_schedtrace(void *ctx, const struct sim *s)
{
	struct run *r = ctx;
	if (!r->sched)
		return 0;
	if (schedtrace_print(r->sched, s, r->o->family, r->o->detail) == 0)
		return 0;
	return sched_failed(r);
}

/* SCHED lines go through a buffer of their own (a line is about ten
 * stdio calls; unbuffered stderr made each one a write), flushed when the
 * run ends and before anything else is printed. */
#define SCHED_BUF (1 << 16)

static int open_sched(struct run *r)
{
	if (!r->o->cfg.schedtrace_ms)
		return 0;
	int fd = dup(STDERR_FILENO);
	if (fd < 0 || !(r->sched = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		msg_error("stderr: %s", strerror(errno));
		return EXIT_USAGE;
	}
	if ((r->sched_buf = malloc(SCHED_BUF)) != NULL)
		setvbuf(r->sched, r->sched_buf, _IOFBF, SCHED_BUF);
	return 0;
}

static int close_sched(struct run *r)
{
	if (!r->sched)
		return 0;
	if (fflush(r->sched) != 0 || ferror(r->sched))
		return sched_failed(r);
	fclose(r->sched);
	r->sched = NULL;
	return 0;
}

/* JSON integers are signed 64-bit in jansson: a seed of 2^63 or more is
 * packed as 0 and its digits put in place in the text, so the config says
 * exactly which seed ran. The key cannot occur earlier: in a string value
 * its quotes would be escaped. */
static char *patch_seed(char *text, uint64_t seed)
{
	static const char key[] = "\"seed\":0";
	char *at = text ? strstr(text, key) : NULL;
	if (!at || seed <= INT64_MAX)
		return text;
	char digits[24];
	int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)seed);
	size_t len = strlen(text);
	char *out = malloc(len + (size_t)nd);
	if (out) {
		size_t head = (size_t)(at - text) + sizeof key - 2; /* up to the 0 */
		memcpy(out, text, head);
		memcpy(out + head, digits, (size_t)nd);
		memcpy(out + head + nd, text + head + 1, len - head);
	}
	free(text);
	return out;
}

/* The thread operations' costs (--cost-futex-wake, ...) as
 * cost_futex_wake_ns, ...: each name with '_' for '-'. */
static int thread_costs_json(json_t *j, const struct sim_config *c)
{
	for (int op = 0; op < TOP__N; op++) {
		char key[48];
		int n = snprintf(key, sizeof key, "cost_%s_ns", sim_thread_op_name(op));
		for (int i = 0; i < n; i++)
			key[i] = key[i] == '-' ? '_' : key[i];
		if (json_object_set_new(j, key, json_integer((json_int_t)c->cost_thread_ns[op])) != 0)
			return -1;
	}
	return 0;
}

/* The run's configuration for the trace, exactly as run; NULL when out of
 * memory (every jansson call is checked). */
static char *config_json(const struct run *r)
{
	static const char *const modes[] = { "async", "cooperative", "off" };
	const struct sim_config *c = &r->o->cfg;
	json_t *defs = json_object();
	for (int i = 0; defs && i < r->o->ndefines; i++)
		if (json_object_set_new(defs, r->o->defines[i].name, json_string(r->o->defines[i].value)) != 0) {
			json_decref(defs); /* the compiler took them, so they are UTF-8: out of memory */
			defs = NULL;
		}
	if (!defs)
		return NULL;
	json_int_t seed = c->seed > INT64_MAX ? 0 : (json_int_t)c->seed;
	json_t *j = json_pack("{ss sI ss ss sI sI ss sI sI sI so ss}", "workload", r->prog->name, "procs",
			      (json_int_t)c->procs, "steal", c->steal ? "on" : "off", "preempt", modes[c->preempt],
			      "seed", seed, "slice_us", (json_int_t)c->slice_us, "sysmon",
			      c->sysmon == SYSMON_FIXED ? "fixed" : "adaptive", "sysmon_period_us",
			      (json_int_t)c->sysmon_period_us, "sysmon_slack_us", (json_int_t)c->sysmon_slack_us, "max_threads", (json_int_t)c->max_threads, "defines",
			      defs, "go", r->o->go_version);
	/* The runtime model only: the seed model's config stays as it was */
	if (j && c->model == MODEL_RUNTIME &&
	    (json_object_set_new(j, "model", json_string("runtime")) != 0 ||
	     json_object_set_new(j, "thread_wake_us", json_integer((json_int_t)c->thread_wake_us)) != 0 ||
	     json_object_set_new(j, "thread_start_us", json_integer((json_int_t)c->thread_start_us)) != 0 ||
	     json_object_set_new(j, "init_threads", json_integer((json_int_t)c->init_threads)) != 0 ||
	     json_object_set_new(j, "cost_go_ns", json_integer((json_int_t)c->cost_go_ns)) != 0 ||
	     json_object_set_new(j, "cost_chan_ns", json_integer((json_int_t)c->cost_chan_ns)) != 0 ||
	     json_object_set_new(j, "cost_switch_ns", json_integer((json_int_t)c->cost_switch_ns)) != 0 ||
	     json_object_set_new(j, "cost_gosched_ns", json_integer((json_int_t)c->cost_gosched_ns)) != 0 ||
	     json_object_set_new(j, "cost_sysmon_ns", json_integer((json_int_t)c->cost_sysmon_ns)) != 0 ||
	     thread_costs_json(j, c) != 0)) {
		json_decref(j);
		j = NULL;
	}
	/* --sysmon-slack=measured only (the runtime model's default): sysmon's
	 * sleeps draw their overshoot; runqgrab's usleep(3) keeps sysmon_slack_us */
	if (j && c->slack == SLACK_MEASURED && json_object_set_new(j, "sysmon_slack", json_string("measured")) != 0) {
		json_decref(j);
		j = NULL;
	}
	/* --runtime-init=measured only (the runtime model's default): sysmon's
	 * clock and main's first slice start before the workload, drawn */
	if (j && c->runtime_init == INIT_MEASURED && json_object_set_new(j, "runtime_init", json_string("measured")) != 0) {
		json_decref(j);
		j = NULL;
	}
	/* the runtime model with --netpoll-wait=exact only: its default (whole
	 * ms) is not written, so default runs' headers stay as they were */
	if (j && c->model == MODEL_RUNTIME && c->netpoll_wait == NETPOLL_WAIT_EXACT &&
	    json_object_set_new(j, "netpoll_wait", json_string("exact")) != 0) {
		json_decref(j);
		j = NULL;
	}
	/* --cpus only: without it every P has its own CPU, as before; the
	 * placement and migration cost only where not the defaults, so that
	 * earlier --cpus runs' headers stay as they were */
	if (j && c->cpus > 0 &&
	    (json_object_set_new(j, "cpus", json_integer(c->cpus)) != 0 ||
	     (c->cpu_slice_us > 0 && json_object_set_new(j, "cpu_slice_us", json_integer(c->cpu_slice_us)) != 0) ||
	     (c->cpu_place != CPU_PLACE_SHARED &&
	      json_object_set_new(j, "cpu_place", json_string(sim_cpu_place_name(c->cpu_place))) != 0) ||
	     (c->cpu_migration_cost_us > 0 &&
	      json_object_set_new(j, "cpu_migration_cost_us", json_integer(c->cpu_migration_cost_us)) != 0))) {
		json_decref(j);
		j = NULL;
	}
	char *s = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(j);
	return patch_seed(s, c->seed);
}

char *run_config_json(struct opts *o, struct program *prog)
{
	struct run r = { .o = o, .prog = prog };
	return config_json(&r);
}

static void print_summary(FILE *out, const struct run *r, const struct sim_summary *sum)
{
	static const char *const modes[] = { "async", "cooperative", "off" };
	const struct sim_config *c = &r->o->cfg;
	fputs("gosim: ", out);
	msg_put_quoted(out, r->prog->name); /* the workload's own text: one line */
	fprintf(out, ", %d P%s, steal %s, preempt %s, sysmon %s, seed %llu\n", c->procs,
		c->procs == 1 ? "" : "s", c->steal ? "on" : "off", modes[c->preempt],
		c->sysmon == SYSMON_FIXED ? "fixed" : "adaptive", (unsigned long long)c->seed);
	if (c->model == MODEL_RUNTIME) /* the seed model's first line stays as it was */
		fputs("  model        runtime\n", out);
#define CPU_PLACE_PHRASE(K, name, phrase) phrase,
	static const char *const place_phrase[] = { SIM_CPU_PLACES(CPU_PLACE_PHRASE) };
#undef CPU_PLACE_PHRASE
	if (c->cpus > 0)
		fprintf(out, "  cpus         %d (shared by the threads running Go code%s)\n", c->cpus,
			place_phrase[c->cpu_place]);
	fprintf(out, "  outcome      %s\n", sim_outcome_name(sum->outcome));
	fprintf(out, "  makespan     %lld.%03lld ms\n", (long long)(sum->makespan_us / 1000),
		(long long)(sum->makespan_us % 1000));
	fprintf(out, "  goroutines   %lld\n", (long long)sum->goroutines);
	fprintf(out, "  threads peak %lld (sysmon included)\n", (long long)sum->threads_peak);
	fprintf(out, "  steals       %lld (%lld goroutines moved)\n", (long long)sum->steals, (long long)sum->stolen);
	fprintf(out, "  handoffs     %lld\n  preemptions  %lld\n  spills       %lld\n", (long long)sum->handoffs,
		(long long)sum->preemptions, (long long)sum->spills);
	fprintf(out, "  events       %lld\n", (long long)sum->events);
	if (c->cost_sysmon_ns > 0) { /* the runtime model: what sysmon's usleeps cost (--cost-sysmon) */
		/* sleeps x cost, saturated: the sleeps grow with simulated time */
		int64_t us = sum->sysmon_sleeps > INT64_MAX / c->cost_sysmon_ns
				     ? INT64_MAX
				     : sum->sysmon_sleeps * c->cost_sysmon_ns / 1000;
		/* placed on the shared CPUs (cpu.h) with --cpus below the Ps: what its
		 * thread was given; else counted */
		int placed = sim_cpus_on(c, sum->procs);
		if (placed)
			us = sum->sysmon_cpu_ns / 1000;
		fprintf(out, "  sysmon       %lld sleeps, %lld.%03lld ms CPU%s\n", (long long)sum->sysmon_sleeps,
			(long long)(us / 1000), (long long)(us % 1000), placed ? " (on the shared CPUs)" : "");
	}
	int64_t tns = 0;
	for (int op = 0; op < TOP__N; op++)
		tns += sum->thread_cpu_ns[op];
	if (tns > 0) { /* the runtime model: the thread operations' CPU (--cost-futex-wake, ...) */
		int placed = sim_cpus_on(c, sum->procs);
		fprintf(out, "  thread ops   %lld.%03lld ms CPU (", (long long)(tns / 1000000), (long long)(tns / 1000 % 1000));
		for (int op = 0, first = 1; op < TOP__N; op++)
			if (sum->thread_cpu_ns[op] > 0) {
				int64_t us = sum->thread_cpu_ns[op] / 1000;
				fprintf(out, "%s%s %lld.%03lld", first ? "" : ", ", sim_thread_op_name(op), (long long)(us / 1000),
					(long long)(us % 1000));
				first = 0;
			}
		fprintf(out, "; %s%lld.%03lld ms of it off running Ms)\n", placed ? "on the shared CPUs, " : "",
			(long long)(sum->thread_cpu_off_ns / 1000000), (long long)(sum->thread_cpu_off_ns / 1000 % 1000));
	}
	fprintf(out, "  busy         ");
	for (int i = 0; i < sum->procs; i++) {
		int64_t b = sum->busy_us[i];
		int pct = sum->makespan_us ? (int)(b * 100 / sum->makespan_us) : 0;
		fprintf(out, "%sP%d %lld.%03lldms (%d%%)", i && i % 4 == 0 ? "\n               " : i ? "  " : "", i,
			(long long)(b / 1000), (long long)(b % 1000), pct);
	}
	fprintf(out, "\n  fingerprint  %016llx\n", (unsigned long long)sum->fingerprint);
}

/* --stats: what the run cost, for benchmarks (tools/bench.sh). */
static void print_stats(const struct run *r, const struct sim_summary *sum)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double wall = r->wall_s > 0 ? r->wall_s : 1e-9;
	int64_t tb = trace_bytes(r->tw);
	msg_error("stats: wall_s=%.4f events=%lld events_per_s=%.0f peak_rss_kb=%ld "
			"rss_bytes_per_goroutine=%.0f trace_bytes=%lld trace_mb_per_s=%.1f",
		r->wall_s, (long long)sum->events, (double)sum->events / wall, ru.ru_maxrss,
		(double)ru.ru_maxrss * 1024.0 / (double)(sum->goroutines ? sum->goroutines : 1), (long long)tb,
		(double)tb / wall / 1e6);
}

/* ---- the run ------------------------------------------------------ */

static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Shows progress on a terminal at most once a second; stops the run when
 * a signal came. Called between instants and, through the sink, every
 * SIM_PROGRESS_EVENTS events inside one. */
static int progress(void *ctx, const struct sim *s)
{
	struct run *r = ctx;
	if (interrupted)
		return 1;
	if (!r->show_progress)
		return 0;
	double now = wall_seconds();
	if (now - r->last_progress < 1.0)
		return 0;
	struct sim_summary sum;
	sim_summary(s, &sum);
	fprintf(stderr, "\rgosim: %lld ms simulated, %lld events, %lld goroutines live, %.0f s\033[K",
		(long long)(sim_now(s) / 1000), (long long)sum.events, (long long)sim_live(s), now - r->start);
	r->last_progress = now;
	r->progress_shown = 1;
	return 0;
}

static enum sim_status simulate(struct run *r, struct sim *s)
{
	r->show_progress = !r->o->quiet && isatty(STDERR_FILENO) && !r->o->cfg.schedtrace_ms;
	r->start = r->last_progress = wall_seconds();
	enum sim_status st;
	while ((st = sim_steps(s, 4096)) == SIM_RUNNING && !interrupted) /* the sink's progress polls inside */
		progress(r, s);
	if (r->progress_shown)
		fputs("\r\033[K", stderr);
	if (close_sched(r) != 0 && st != SIM_BROKEN)
		st = SIM_ABORTED;
	r->wall_s = wall_seconds() - r->start;
	return st;
}

/* A signal stopped the run (or the opening of a FIFO): nothing committed,
 * the exit status the shell gives a process the signal killed. */
static int report_interrupt(struct run *r)
{
	msg_error("interrupted by SIG%s; %s left as it was", signal_name(interrupted),
		  r->trace.path ? r->trace.path : "nothing written");
	return 128 + interrupted;
}

static int report(struct run *r, struct sim *s, enum sim_status st)
{
	if (interrupted)
		return report_interrupt(r);
	if (st == SIM_ABORTED && !r->io_what && trace_write_errno(r->tw)) { /* trace_event_direct's */
		r->io_errno = trace_write_errno(r->tw);
		r->io_what = r->trace.path;
	}
	if (st == SIM_ABORTED && r->tw && trace_error(r->tw)) {
		msg_error("%s: %s (a bug in gosim)", r->trace.path, trace_error(r->tw));
		return EXIT_INVARIANT;
	}
	if (st == SIM_ABORTED) {
		if (r->io_errno == EPIPE)
			return 128 + SIGPIPE; /* the trace's reader went away: end quietly, as a filter does */
		msg_error("%s: %s", r->io_what ? r->io_what : "the run", strerror(r->io_errno ? r->io_errno : EIO));
		return EXIT_USAGE;
	}
	if (st == SIM_BROKEN) {
		msg_error("%s", sim_message(s));
		return EXIT_INVARIANT;
	}
	if (st == SIM_LIMIT) { /* as refused up front: bad input, nothing committed */
		msg_error("%s: %s (limits: --max-steps=%lld, --max-goroutines=%lld, a clock of %lld s; its range, select or "
			  "forever loops, or its waits, made the totals unknown up front); %s left as it was",
			  r->o->workload, sim_message(s), (long long)r->o->max_steps, (long long)r->o->max_goroutines,
			  (long long)(SIM_CLOCK_MAX_US / 1000000), r->trace.path ? r->trace.path : "nothing written");
		return EXIT_USAGE;
	}
	if (st == SIM_INPUT) { /* bad input found by running it: nothing committed */
		if (r->trace.path)
			msg_error("%s; %s left as it was", sim_message(s), r->trace.path);
		else
			msg_error("%s", sim_message(s));
		return EXIT_USAGE;
	}
	if (st == SIM_NOMEM) { /* a resource error: nothing committed */
		msg_error("%s; %s left as it was", sim_message(s), r->trace.path ? r->trace.path : "nothing written");
		return EXIT_NOMEM;
	}
	if (st == SIM_UNTIL) {
		msg_error("stopped at --until=%lldus of simulated time; %s", (long long)r->o->until_us,
			  r->trace.path ? "the trace holds what happened up to then" : "the summary says how far it got");
		return EXIT_UNTIL;
	}
	if (st == SIM_DIED)
		msg_lines(sim_message(s));
	return st == SIM_DIED ? EXIT_DIED : EXIT_DONE;
}

static int open_trace(struct run *r)
{
	struct opts *o = r->o;
	if (!o->trace_path)
		return 0;
	if (out_open(&r->trace, o->trace_path, r->inputs, r->ninputs) != 0) {
		if (interrupted) /* Ctrl-C while a FIFO's open waits for a reader */
			return report_interrupt(r);
		msg_error("--trace=%s: %s", o->trace_path, r->trace.why ? r->trace.why : strerror(errno));
		return EXIT_USAGE;
	}
	size_t stem;
	enum compress_kind kind = compress_of_path(o->trace_path, &stem);
	if (kind != COMPRESS_NONE && !(r->zf = compress_open(r->trace.f, kind))) {
		msg_error("--trace=%s: out of memory", o->trace_path);
		return EXIT_NOMEM;
	}
	char *cfg = config_json(r);
	struct trace_meta meta;
	if (cfg && trace_meta_init(&meta, r->prog, &o->cfg, cfg, r->workload_hash) == 0) {
		r->tw = trace_open(r->zf ? r->zf : r->trace.f, o->format, &meta);
		trace_meta_release(&meta);
	}
	free(cfg);
	if (!r->tw)
		msg_error("--trace=%s: out of memory", o->trace_path);
	return r->tw ? 0 : EXIT_NOMEM;
}

/* Closes the trace file: a compressed one's stream ends first (its
 * failure fails the commit); commit puts the file in place (out.h).
 * Returns 0, or -1 with errno set. */
static int close_trace(struct run *r, int commit)
{
	int zrc = 0, err = 0;
	if (r->zf) {
		zrc = fclose(r->zf);
		err = errno;
		r->zf = NULL;
	}
	int rc = out_close(&r->trace, commit && zrc == 0);
	if (zrc != 0 && commit) {
		errno = err;
		return -1;
	}
	return rc;
}

static int finish(struct run *r, struct sim *s, int rc)
{
	struct sim_summary sum;
	sim_summary(s, &sum);
	int ok = rc == EXIT_DONE || rc == EXIT_DIED || rc == EXIT_INVARIANT || rc == EXIT_UNTIL;
	if (r->tw && ok && trace_finish(r->tw, &sum) != 0) {
		if (errno == EPIPE)
			return close_trace(r, 0), 128 + SIGPIPE;
		msg_error("%s: %s", r->trace.path, strerror(errno));
		ok = 0;
		rc = EXIT_USAGE;
	}
	if (close_trace(r, ok) != 0 && ok) {
		msg_error("%s: %s", r->trace.path, strerror(errno));
		rc = EXIT_USAGE;
		ok = 0;
	}
	if (r->o->stats)
		print_stats(r, &sum);
	if (ok && !r->o->quiet && analysis_keeps_summary(r->o)) {
		FILE *out = r->trace.to_stdout ? stderr : stdout;
		print_summary(out, r, &sum);
		if (fflush(out) != 0 || ferror(out)) {
			if (errno != EPIPE)
				msg_error("writing the summary: %s", strerror(errno));
			rc = errno == EPIPE ? rc : EXIT_USAGE;
		}
	}
	if (ok && rc != EXIT_USAGE) {
		int arc = analysis_write(r->rep, r->o, &sum);
		rc = arc ? arc : rc;
	}
	return rc;
}

int run_main(struct opts *o)
{
	struct run r = { .o = o };
	int rc = load_workload(&r);
	if (rc) {
		program_free(r.prog);
		return rc;
	}
	catch_signals();
	o->cfg.until_us = o->until_us;
	struct sim_error err;
	struct sim *s = NULL;
	if ((rc = open_sched(&r)) == 0 && (rc = open_trace(&r)) == 0)
		r.rep = analysis_open(o, r.prog, &rc);
	if (rc == 0) {
		struct sim_sink sink = { .ctx = &r, .event = r.tw || r.rep ? sink_event : NULL,
					 .schedtrace = o->cfg.schedtrace_ms ? sink_schedtrace : NULL, .progress = progress };
		if (r.tw && !r.rep) /* the records straight to the trace */
			sink.event = trace_event_direct(r.tw, &sink.event_ctx);
		s = sim_new(&o->cfg, r.prog, &sink, &err);
		if (!s) {
			msg_error("%s", err.msg);
			rc = err.nomem ? EXIT_NOMEM : EXIT_USAGE;
		}
	}
	if (s) {
		rc = report(&r, s, simulate(&r, s));
		rc = finish(&r, s, rc);
	} else {
		close_trace(&r, 0);
		if (r.sched)
			fclose(r.sched);
	}
	free(r.sched_buf); /* its stream is closed by now */
	trace_free(r.tw);
	report_free(r.rep);
	sim_free(s);
	program_free(r.prog);
	return rc;
}
