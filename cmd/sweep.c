/* sweep.c: every combination of the lists, over worker threads (see
 * sweep.h). */
#include "sweep.h"

#include <inttypes.h>
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim/number.h"
#include "cli.h"
#include "msg.h"
#include "run.h"

static void json_put_str(FILE *f, const char *s)
{
	json_t *j = json_string(s);
	char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	fputs(text ? text : "null", f);
	free(text);
	json_decref(j);
}

/* ---- lists ---------------------------------------------------------- */

static int parse_item(const char *s, size_t len, int64_t lo, int64_t hi, int64_t *a, int64_t *b)
{
	char buf[64];
	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	char *dots = strstr(buf, "..");
	if (dots)
		*dots = 0;
	if (number_parse_i64(buf, lo, hi, a) != 0)
		return -1;
	*b = *a;
	return dots ? number_parse_i64(dots + 2, *a, hi, b) : 0;
}

int sweep_parse_list(const char *s, int64_t lo, int64_t hi, int64_t **out, int64_t *n)
{
	int64_t *v = NULL, cnt = 0;
	while (1) {
		size_t len = strcspn(s, ",");
		int64_t a, b;
		if (parse_item(s, len, lo, hi, &a, &b) != 0 || b - a >= SWEEP_MAX_ITEMS - cnt)
			goto fail;
		int64_t *nv = realloc(v, (size_t)(cnt + (b - a) + 1) * sizeof *v);
		if (!nv)
			goto fail;
		v = nv;
		for (int64_t x = a; x <= b; x++)
			v[cnt++] = x;
		if (!s[len])
			break;
		s += len + 1;
	}
	*out = v;
	*n = cnt;
	return 0;
fail:
	free(v);
	return -1;
}

int sweep_wanted(const struct opts *o)
{
	if (o->nprocs_list > 1 || o->seeds || o->sweep_jobs)
		return 1;
	for (int i = 0; i < o->ndefines; i++)
		if (strchr(o->defines[i].value, ','))
			return 1;
	return 0;
}

const char *sweep_conflict(const struct opts *o)
{
	if (o->trace_path)
		return "--trace";
	if (o->cfg.schedtrace_ms)
		return "--schedtrace";
	if (o->why_g)
		return "--why";
	if (o->until_us)
		return "--until";
	return NULL;
}

/* ---- the configurations ---------------------------------------------- */

struct axis {
	char **vals;
	int n;
};

struct config {
	struct opts o;        /* the sweep's options with one value per list */
	struct program *prog;
};

struct job {
	int64_t cfg;
	uint64_t seed;
	int died;
	struct report_figures fig;
};

struct sweep {
	struct opts *o;
	int64_t *procs, nprocs;
	int64_t nseeds;
	const int64_t *seeds; /* as unsigned: a seed may be >= 2^63 */
	int64_t one_seed;     /* the only seed when no --seeds */
	struct axis axes[MAX_DEFINES];
	struct config *cfgs;
	int64_t ncfg;
	struct job *jobs;
	int64_t njobs, next;
	int failed;
	pthread_mutex_t mu;
};

static int split_axis(struct axis *ax, const char *value)
{
	for (const char *s = value;; s += strcspn(s, ",") + 1) {
		char **nv = realloc(ax->vals, (size_t)(ax->n + 1) * sizeof *nv);
		if (!nv)
			return -1;
		ax->vals = nv;
		size_t len = strcspn(s, ",");
		if (!(ax->vals[ax->n] = strndup(s, len)))
			return -1;
		ax->n++;
		if (!s[len])
			return 0;
	}
}

/* Configuration c: procs outermost, then the -D lists in their order. */
static int build_config(struct sweep *w, int64_t c, struct config *cf)
{
	cf->o = *w->o;
	for (int i = w->o->ndefines - 1; i >= 0; i--) {
		const struct axis *ax = &w->axes[i];
		cf->o.defines[i].value = ax->vals[c % ax->n];
		c /= ax->n;
	}
	cf->o.cfg.procs = w->nprocs ? (int)w->procs[c % w->nprocs] : w->o->cfg.procs;
	cf->o.seeds = NULL;
	return run_load_program(&cf->o, &cf->prog);
}

static int setup(struct sweep *w)
{
	struct opts *o = w->o;
	w->procs = o->procs_list;
	w->nprocs = o->nprocs_list;
	w->one_seed = (int64_t)o->cfg.seed;
	w->seeds = o->seeds ? o->seeds : &w->one_seed;
	w->nseeds = o->seeds ? o->nseeds : 1;
	w->ncfg = w->nprocs ? w->nprocs : 1;
	for (int i = 0; i < o->ndefines; i++) {
		if (split_axis(&w->axes[i], o->defines[i].value) != 0)
			return msg_error("out of memory"), EXIT_USAGE;
		if (w->ncfg * w->axes[i].n * w->nseeds > SWEEP_MAX_ITEMS)
			return msg_usage("the sweep has more than %d runs", SWEEP_MAX_ITEMS), EXIT_USAGE;
		w->ncfg *= w->axes[i].n;
	}
	if (w->ncfg * w->nseeds > SWEEP_MAX_ITEMS)
		return msg_usage("the sweep has more than %d runs", SWEEP_MAX_ITEMS), EXIT_USAGE;
	w->cfgs = calloc((size_t)w->ncfg, sizeof *w->cfgs);
	w->njobs = w->ncfg * w->nseeds;
	w->jobs = calloc((size_t)w->njobs, sizeof *w->jobs);
	if (!w->cfgs || !w->jobs)
		return msg_error("out of memory"), EXIT_USAGE;
	for (int64_t c = 0; c < w->ncfg; c++) {
		int rc = build_config(w, c, &w->cfgs[c]);
		if (rc)
			return rc;
	}
	for (int64_t j = 0; j < w->njobs; j++)
		w->jobs[j] = (struct job){ .cfg = j / w->nseeds, .seed = (uint64_t)w->seeds[j % w->nseeds] };
	return 0;
}

static void teardown(struct sweep *w)
{
	for (int64_t c = 0; w->cfgs && c < w->ncfg; c++)
		program_free(w->cfgs[c].prog);
	for (int i = 0; i < w->o->ndefines; i++) {
		for (int k = 0; k < w->axes[i].n; k++)
			free(w->axes[i].vals[k]);
		free(w->axes[i].vals);
	}
	free(w->cfgs);
	free(w->jobs);
}

/* ---- the runs -------------------------------------------------------- */

static int sweep_sink(void *ctx, const struct sim_event *e) { return report_event(ctx, e); }

/* One run: a simulation feeding a report; 0, or -1 (out of memory, a bug). */
static int run_job(const struct config *cf, struct job *jb)
{
	struct sim_config cfg = cf->o.cfg;
	cfg.seed = jb->seed;
	struct trace_meta tm;
	if (trace_meta_init(&tm, cf->prog, &cfg, NULL, 0) != 0)
		return -1;
	struct report_opts ro = { 0 };
	struct report *rep = report_open(&tm, &ro);
	trace_meta_release(&tm);
	if (!rep)
		return -1;
	struct sim_sink sink = { .ctx = rep, .event = sweep_sink };
	struct sim_error err;
	struct sim *s = sim_new(&cfg, cf->prog, &sink, &err);
	enum sim_status st = s ? sim_run(s) : SIM_BROKEN;
	int rc = st == SIM_DONE || st == SIM_DIED ? 0 : -1;
	if (s) {
		struct sim_summary sum;
		sim_summary(s, &sum);
		report_finish(rep, sum.makespan_us);
		report_figures(rep, &jb->fig);
		jb->fig.makespan_us = sum.makespan_us;
	}
	jb->died = st == SIM_DIED;
	sim_free(s);
	report_free(rep);
	return rc;
}

static void *worker(void *arg)
{
	struct sweep *w = arg;
	for (;;) {
		pthread_mutex_lock(&w->mu);
		int64_t j = w->failed ? w->njobs : w->next++;
		pthread_mutex_unlock(&w->mu);
		if (j >= w->njobs)
			return NULL;
		if (run_job(&w->cfgs[w->jobs[j].cfg], &w->jobs[j]) != 0) {
			pthread_mutex_lock(&w->mu);
			w->failed = 1;
			pthread_mutex_unlock(&w->mu);
		}
	}
}

static int run_all(struct sweep *w)
{
	long n = w->o->jobs > 0 ? w->o->jobs : sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	if (n > w->njobs)
		n = (long)w->njobs;
	if (n > 256)
		n = 256;
	pthread_t th[256];
	pthread_mutex_init(&w->mu, NULL);
	long started = 0;
	for (; started < n - 1; started++)
		if (pthread_create(&th[started], NULL, worker, w) != 0)
			break;
	worker(w); /* this thread works too */
	for (long i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&w->mu);
	if (w->failed)
		msg_error("a run of the sweep failed (out of memory or a gosim bug; run it alone to see)");
	return w->failed ? EXIT_INVARIANT : 0;
}

/* ---- the table --------------------------------------------------------- */

enum col { C_MAKESPAN, C_P50, C_P99, C_THREADS, C_STEALS, C_HANDOFFS, C__N };

struct row {
	int64_t med[C__N], min_makespan, max_makespan;
	int64_t runs, died;
};

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int64_t fig(const struct report_figures *f, int c)
{
	switch (c) {
	case C_MAKESPAN: return f->makespan_us;
	case C_P50: return f->latency_p50_us;
	case C_P99: return f->latency_p99_us;
	case C_THREADS: return f->threads_peak;
	case C_STEALS: return f->steals;
	default: return f->handoffs;
	}
}

/* The lower median of the values >= 0 (-1 if none). */
static int64_t lower_median(int64_t *v, int64_t n)
{
	int64_t m = 0;
	for (int64_t i = 0; i < n; i++)
		if (v[i] >= 0)
			v[m++] = v[i];
	if (m == 0)
		return -1;
	qsort(v, (size_t)m, sizeof *v, cmp_i64);
	return v[(m + 1) / 2 - 1];
}

static void make_row(const struct sweep *w, int64_t c, int64_t *tmp, struct row *r)
{
	const struct job *jb = &w->jobs[c * w->nseeds];
	*r = (struct row){ .runs = w->nseeds, .min_makespan = INT64_MAX, .max_makespan = -1 };
	for (int col = 0; col < C__N; col++) {
		for (int64_t k = 0; k < w->nseeds; k++)
			tmp[k] = fig(&jb[k].fig, col);
		r->med[col] = lower_median(tmp, w->nseeds);
	}
	for (int64_t k = 0; k < w->nseeds; k++) {
		r->died += jb[k].died;
		if (jb[k].fig.makespan_us < r->min_makespan)
			r->min_makespan = jb[k].fig.makespan_us;
		if (jb[k].fig.makespan_us > r->max_makespan)
			r->max_makespan = jb[k].fig.makespan_us;
	}
}

static const char *const col_names[C__N] = { "makespan_us", "latency_p50_us", "latency_p99_us",
					      "threads_peak", "steals", "handoffs" };

static void csv_value(FILE *f, int64_t v)
{
	if (v >= 0)
		fprintf(f, ",%" PRId64, v);
	else
		fputs(",", f);
}

static void write_csv(const struct sweep *w, const struct row *rows)
{
	fputs("procs", stdout);
	for (int i = 0; i < w->o->ndefines; i++)
		printf(",D_%s", w->o->defines[i].name);
	printf(",runs,died,makespan_us_median,makespan_us_min,makespan_us_max");
	for (int c = C_P50; c < C__N; c++)
		printf(",%s", col_names[c]);
	putchar('\n');
	for (int64_t c = 0; c < w->ncfg; c++) {
		const struct config *cf = &w->cfgs[c];
		const struct row *r = &rows[c];
		printf("%d", cf->o.cfg.procs);
		for (int i = 0; i < w->o->ndefines; i++)
			printf(",%s", cf->o.defines[i].value);
		printf(",%" PRId64 ",%" PRId64, r->runs, r->died);
		csv_value(stdout, r->med[C_MAKESPAN]);
		csv_value(stdout, r->min_makespan);
		csv_value(stdout, r->max_makespan);
		for (int col = C_P50; col < C__N; col++)
			csv_value(stdout, r->med[col]);
		putchar('\n');
	}
}

static void json_value(int64_t v)
{
	if (v >= 0)
		printf("%" PRId64, v);
	else
		fputs("null", stdout);
}

static void write_json(const struct sweep *w, const struct row *rows)
{
	printf("{\"sweep\":{\"workload\":");
	json_put_str(stdout, w->cfgs[0].prog->name);
	printf(",\"seeds\":[");
	for (int64_t k = 0; k < w->nseeds; k++)
		printf("%s%" PRIu64, k ? "," : "", (uint64_t)w->seeds[k]);
	printf("],\"median\":\"lower\",\"rows\":[");
	for (int64_t c = 0; c < w->ncfg; c++) {
		const struct config *cf = &w->cfgs[c];
		const struct row *r = &rows[c];
		printf("%s\n{\"procs\":%d,\"defines\":{", c ? "," : "", cf->o.cfg.procs);
		for (int i = 0; i < w->o->ndefines; i++) {
			printf("%s", i ? "," : "");
			json_put_str(stdout, cf->o.defines[i].name);
			putchar(':');
			json_put_str(stdout, cf->o.defines[i].value);
		}
		printf("},\"runs\":%" PRId64 ",\"died\":%" PRId64 ",\"makespan_us_min\":%" PRId64
		       ",\"makespan_us_max\":%" PRId64, r->runs, r->died, r->min_makespan, r->max_makespan);
		for (int col = 0; col < C__N; col++) {
			printf(",\"%s%s\":", col_names[col], col == C_MAKESPAN ? "_median" : "");
			json_value(r->med[col]);
		}
		putchar('}');
	}
	printf("]}}\n");
}

static char *ms(char *b, int64_t us)
{
	if (us < 0)
		snprintf(b, 32, "-");
	else
		snprintf(b, 32, "%lld.%03lld", (long long)(us / 1000), (long long)(us % 1000));
	return b;
}

static void write_text(const struct sweep *w, const struct row *rows)
{
	printf("sweep: %s, %" PRId64 " configuration%s x %" PRId64 " seed%s = %" PRId64
	       " runs; lower medians over the seeds; times in ms\n",
	       w->cfgs[0].prog->name, w->ncfg, w->ncfg == 1 ? "" : "s", w->nseeds, w->nseeds == 1 ? "" : "s",
	       w->njobs);
	printf("  %5s", "procs");
	for (int i = 0; i < w->o->ndefines; i++)
		printf(" %10.10s", w->o->defines[i].name);
	printf(" %11s %11s %11s %10s %10s %7s %7s %8s%s\n", "makespan", "min", "max", "lat p50", "lat p99",
	       "threads", "steals", "handoffs", "");
	for (int64_t c = 0; c < w->ncfg; c++) {
		const struct config *cf = &w->cfgs[c];
		const struct row *r = &rows[c];
		char b[5][32];
		printf("  %5d", cf->o.cfg.procs);
		for (int i = 0; i < w->o->ndefines; i++)
			printf(" %10.10s", cf->o.defines[i].value);
		printf(" %11s %11s %11s %10s %10s %7" PRId64 " %7" PRId64 " %8" PRId64, ms(b[0], r->med[C_MAKESPAN]),
		       ms(b[1], r->min_makespan), ms(b[2], r->max_makespan), ms(b[3], r->med[C_P50]),
		       ms(b[4], r->med[C_P99]), r->med[C_THREADS], r->med[C_STEALS], r->med[C_HANDOFFS]);
		if (r->died)
			printf("  (%" PRId64 " died)", r->died);
		putchar('\n');
	}
}

static int write_table(const struct sweep *w)
{
	struct row *rows = calloc((size_t)w->ncfg, sizeof *rows);
	int64_t *tmp = malloc((size_t)w->nseeds * sizeof *tmp);
	if (!rows || !tmp) {
		free(rows);
		free(tmp);
		msg_error("out of memory");
		return EXIT_USAGE;
	}
	for (int64_t c = 0; c < w->ncfg; c++)
		make_row(w, c, tmp, &rows[c]);
	free(tmp);
	if (w->o->report && w->o->report_fmt == REPORT_CSV)
		write_csv(w, rows);
	else if (w->o->report && w->o->report_fmt == REPORT_JSON)
		write_json(w, rows);
	else
		write_text(w, rows);
	free(rows);
	return 0;
}

/* ---- --sweep-jobs ------------------------------------------------------- */

static void put_word(const char *s)
{
	if (*s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/=:+@%")]) {
		fputs(s, stdout);
		return;
	}
	putchar('\'');
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*s);
	putchar('\'');
}

static void write_jobs(const struct sweep *w)
{
	static const char *const modes[] = { "async", "cooperative", "off" };
	for (int64_t j = 0; j < w->njobs; j++) {
		const struct opts *o = &w->cfgs[w->jobs[j].cfg].o;
		const struct sim_config *c = &o->cfg;
		fputs("-w ", stdout);
		put_word(o->workload);
		printf(" -p %d -s %" PRIu64 " --steal=%s --preempt=%s --slice=%" PRId64 " --sysmon=%s"
		       " --sysmon-period=%" PRId64 " --sysmon-slack=%" PRId64 " --max-threads=%" PRId64
		       " --max-goroutines=%" PRId64 " --max-steps=%" PRId64,
		       c->procs, w->jobs[j].seed, c->steal ? "on" : "off", modes[c->preempt], c->slice_us,
		       c->sysmon == SYSMON_FIXED ? "fixed" : "adaptive", c->sysmon_period_us, c->sysmon_slack_us,
		       c->max_threads, o->max_goroutines, o->max_steps);
		if (c->slack == SLACK_MEASURED) /* after the figure, which runqgrab keeps */
			fputs(" --sysmon-slack=measured", stdout);
		if (c->cpus > 0)
			printf(" --cpus=%d", c->cpus);
		if (c->cpu_slice_us > 0)
			printf(" --cpu-slice=%" PRId64, c->cpu_slice_us);
		if (c->cpu_place != CPU_PLACE_SHARED)
			printf(" --cpu-place=%s", sim_cpu_place_name(c->cpu_place));
		if (c->cpu_migration_cost_us > 0)
			printf(" --cpu-migration-cost=%" PRId64 "us", c->cpu_migration_cost_us);
		if (o->cpu_quota_milli > 0)
			printf(" --cpu-quota=%" PRId64 ".%03" PRId64, o->cpu_quota_milli / 1000, o->cpu_quota_milli % 1000);
		/* The model and what only the runtime model has: a job must run
		 * the configuration its sweep row stands for, whatever the
		 * command's defaults are. */
		printf(" --model=%s", c->model == MODEL_RUNTIME ? "runtime" : "seed");
		if (c->model == MODEL_RUNTIME)
			printf(" --thread-wake=%" PRId64 "us --thread-start=%" PRId64 "us --init-threads=%d --cost-go=%" PRId64
			       "ns --cost-chan=%" PRId64 "ns --cost-switch=%" PRId64 "ns --cost-gosched=%" PRId64
			       "ns --cost-sysmon=%" PRId64 "ns --netpoll-wait=%s --runtime-init=%s",
			       c->thread_wake_us, c->thread_start_us, c->init_threads, c->cost_go_ns, c->cost_chan_ns,
			       c->cost_switch_ns, c->cost_gosched_ns, c->cost_sysmon_ns,
			       c->netpoll_wait == NETPOLL_WAIT_EXACT ? "exact" : "ms",
			       c->runtime_init == INIT_MEASURED ? "measured" : "none");
		for (int op = 0; c->model == MODEL_RUNTIME && op < TOP__N; op++)
			printf(" --cost-%s=%" PRId64 "ns", sim_thread_op_name(op), c->cost_thread_ns[op]);
		if (c->go_release > 0) /* --go: its rules and its schedtrace format */
			printf(" --go=%s", o->go_version);
		for (int i = 0; i < o->ndefines; i++) {
			char buf[512];
			snprintf(buf, sizeof buf, "%s=%s", o->defines[i].name, o->defines[i].value);
			fputs(" -D ", stdout);
			put_word(buf);
		}
		putchar('\n');
	}
}

int sweep_main(struct opts *o)
{
	const char *bad = sweep_conflict(o);
	if (bad) {
		msg_usage("%s cannot go with a sweep (lists of procs, seeds or -D values); run one configuration", bad);
		return EXIT_USAGE;
	}
	struct sweep w = { .o = o };
	int rc = setup(&w);
	if (rc == 0 && o->sweep_jobs)
		write_jobs(&w);
	else if (rc == 0 && (rc = run_all(&w)) == 0)
		rc = write_table(&w);
	teardown(&w);
	if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
		msg_error("writing the sweep: %s", "output error");
		rc = EXIT_USAGE;
	}
	return rc;
}
