/* fuzz_gosim.c: a libFuzzer target over gosim's inputs. An input starting
 * with '-' is a command line (arguments separated by newlines) for the
 * option parser; one starting with '#' picks a large generated workload
 * (gen_workload: deep go chains, many functions and channels, nesting at
 * and past the limits), so a few bytes of corpus keep the walks, the name
 * tables and the error positions covered at sizes no hand-written file
 * reaches; one starting with "go 1." is a Go execution trace, imported
 * (gosim import) and its workload fuzzed as a file; anything else is a
 * workload file, which is compiled and, if it is small, simulated with the
 * invariant checker on in modes the input picks: the model must finish or die the way a Go program does,
 * never break an invariant, use exactly the CPU work requested, and give
 * the same trace whether sysmon skips idle passes or runs every one. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmd/cli.h"
#include "../../cmd/run.h"
#include "../../cmd/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_options(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *argv[64];
	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = 0;
	int argc = 0;
	argv[argc++] = "gosim";
	for (char *p = text, *nl; p && argc < 63; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		argv[argc++] = p;
	}
	argv[argc] = NULL;
	struct opts o = { 0 };
	cli_parse_args(&o, argc, argv);
	cli_free_opts(&o);
	free(text);
}

/* Runs p; aborts if an invariant broke or, when it finished, if the CPU
 * used differs from the work requested (work >= 0), or is below the lower
 * bound -work - 1 of an inexact total. Returns -1 if the program died
 * (a deadlock or the thread limit: the simulated program's outcome). */
static int run_checked(const struct program *p, const struct sim_config *cfg, struct sim_summary *sum, int64_t work)
{
	struct sim_error e;
	struct sim *s = sim_new(cfg, p, NULL, &e);
	if (!s)
		abort(); /* the compiler accepted it, so the simulator must */
	enum sim_status st = sim_run(s);
	if (st == SIM_BROKEN) {
		fprintf(stderr, "%s\n", sim_message(s));
		abort();
	}
	sim_summary(s, sum);
	sim_free(s);
	if (st != SIM_DONE)
		return -1;
	int64_t busy = 0;
	for (int i = 0; i < cfg->procs; i++)
		busy += sum->busy_us[i];
	if (work >= 0 ? busy != work : busy < -work - 1)
		abort(); /* CPU used equals work requested (at least the lower bound if inexact) */
	return 0;
}

static void fuzz_workload(const uint8_t *data, size_t size)
{
	static const struct param_override ov[] = { { "n", "3" } };
	struct program *p;
	char err[512];
	if (workload_parse((const char *)data, size, "fuzz.json", ov, 0, &p, err, sizeof err) != 0) {
		if (strncmp(err, "fuzz.json", 9) != 0 && strncmp(err, "-D", 2) != 0)
			abort(); /* every error names its place */
		return;
	}
	struct program_totals t;
	if (program_totals(p, &t) == 0 && t.goroutines <= 200 && t.steps <= 100000 && t.work_us + t.syscall_us <= 1000000 &&
	    p->procs <= 8) {
		/* the input picks the modes; lazy and eager sysmon must agree */
		struct sim_config cfg;
		sim_config_default(&cfg);
		cfg.procs = p->procs;
		cfg.check = 1;
		cfg.max_threads = 64;
		cfg.preempt = (enum sim_preempt)(size % 3);
		cfg.sysmon = (enum sim_sysmon)(size / 3 % 2);
		cfg.sysmon_slack_us = size / 6 % 2 ? 67 : 0;
		cfg.steal = size / 12 % 4 != 0;
		struct sim_summary lazy, eager;
		int64_t work = t.inexact ? -t.work_us - 1 : t.work_us;
		int rc = run_checked(p, &cfg, &lazy, work);
		cfg.eager_sysmon = 1;
		cfg.check = 0;
		if (run_checked(p, &cfg, &eager, work) != rc || lazy.fingerprint != eager.fingerprint ||
		    lazy.events != eager.events)
			abort(); /* skipping idle sysmon passes changed the run */
	}
	program_free(p);
}

struct gen {
	char *s;
	size_t n, cap;
};

static void put(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int k = vsnprintf(g->s ? g->s + g->n : NULL, g->s ? g->cap - g->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0)
			abort();
		if (g->s && g->n + (size_t)k < g->cap) {
			g->n += (size_t)k;
			return;
		}
		g->cap = g->cap ? g->cap * 2 : 1 << 16;
		if (!(g->s = realloc(g->s, g->cap)))
			abort();
	}
}

/* "#" SHAPE N0 N1 V: a workload of size N = N0 + 256 * N1 (times 4 for the
 * chain, up to 262,140 functions), shaped by SHAPE % 4:
 * 0: main starts f0, fi starts fi+1; V bit 0: the last starts f0 again (a
 *    cycle); bit 1: each go sits in a repeat of count V / 4 % 3;
 * 1: N functions and N channels (capacity V % 2), declared in reverse; main
 *    starts every fi, fi sends on c((i * 7) % N) and receives on ci;
 * 2: repeats nested N % 40 deep (past 32 is refused) around a gosched;
 * 3: a function whose body is an array nested N % 3000 deep (past
 *    jansson's 2,048 is refused), then an unknown operation in main (the
 *    error's position is found by skipping the deep value). */
static void gen_workload(const uint8_t *d, size_t size, struct gen *g)
{
	uint8_t b[5] = { 0 };
	memcpy(b, d, size < 5 ? size : 5);
	unsigned shape = b[1] % 4, n = b[2] + 256u * b[3], v = b[4];
	if (shape == 0) {
		n = n * 4 + 1;
		const char *open = v & 2 ? "[{\"repeat\": " : "[", *close = v & 2 ? "]}]" : "]";
		char cnt[32] = "";
		if (v & 2)
			snprintf(cnt, sizeof cnt, "%u, \"body\": [", v / 4 % 3);
		put(g, "{\"main\": [{\"go\": \"f0\"}], \"funcs\": {");
		for (unsigned i = 0; i + 1 < n; i++)
			put(g, "\"f%u\": %s%s{\"go\": \"f%u\"}%s,\n", i, open, cnt, i + 1, close);
		put(g, v & 1 ? "\"f%u\": [{\"go\": \"f0\"}]}}" : "\"f%u\": [{\"run\": 10}]}}", n - 1);
	} else if (shape == 1) {
		n = n ? n : 1;
		put(g, "{\"chans\": {");
		for (unsigned i = n; i-- > 0;)
			put(g, "\"c%u\": %u%s", i, v % 2, i ? ", " : "},\n\"main\": [");
		for (unsigned i = 0; i < n; i++)
			put(g, "{\"go\": \"f%u\"}%s", i, i + 1 < n ? ", " : "],\n\"funcs\": {");
		for (unsigned i = n; i-- > 0;)
			put(g, "\"f%u\": [{\"send\": \"c%u\"}, {\"recv\": \"c%u\"}]%s", i, (i * 7) % n, i, i ? ",\n" : "}}");
	} else if (shape == 2) {
		put(g, "{\"main\": ");
		for (unsigned i = 0; i < n % 40; i++)
			put(g, "[{\"repeat\": 2, \"body\": ");
		put(g, "[{\"gosched\": true}]");
		for (unsigned i = 0; i < n % 40; i++)
			put(g, "}]");
		put(g, "}");
	} else {
		put(g, "{\"funcs\": {\"a\": ");
		for (unsigned i = 0; i < n % 3000; i++)
			put(g, "[");
		for (unsigned i = 0; i < n % 3000; i++)
			put(g, "]");
		put(g, "}, \"main\": [{\"jump\": 1}]}");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 0 && data[0] == '-') {
		fuzz_options(data, size);
	} else if (size > 0 && data[0] == '#') {
		struct gen g = { 0 };
		gen_workload(data, size, &g);
		fuzz_workload((const uint8_t *)g.s, g.n);
		free(g.s);
	} else if (size >= 5 && memcmp(data, "go 1.", 5) == 0) {
		char *w = import_text(data, size, size % 2); /* a Go execution trace: gosim import */
		if (w)
			fuzz_workload((const uint8_t *)w, strlen(w));
		free(w);
	} else
		fuzz_workload(data, size);
	return 0;
}
