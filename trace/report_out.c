/* report_out.c: the report as text, JSON or CSV (docs/report-format.md). */
#include "report_impl.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const tk_names[TK__N] = { "running", "runnext", "local", "global", "syscall", "cpuwait" };
static const char *const pk_names[PK__N] = { "busy", "spinning", "idle", "syscall", "between_gs" };
static const char *const mk_names[MK__N] = { "running", "spinning", "syscall", "parked", "starting", "sysmon",
							      "cpuwait" };

/* ---- names ---------------------------------------------------------- */

static const char *fn_name(const struct report *r, int32_t fn)
{
	return fn >= 0 && fn < r->meta.nfuncs ? r->meta.func_names[fn] : "?";
}

/* "chan receive:pong": the runtime's wait reason, and the object's name.
 * Limit (of the report, not the model): only channels have names in
 * trace_meta; another wait's object (a mutex, a wait group) shows as
 * REASON:#index, its index among the objects of its kind. */
static void key_name(const struct report *r, int32_t k, char *buf, size_t len)
{
	const struct wkey *w = &r->keys[k];
	const char *reason = sim_waitreason_name(w->wait);
	int chan = w->wait == WR_CHAN_RECV || w->wait == WR_CHAN_SEND; /* obj indexes the channels */
	if (chan && w->obj >= 0 && w->obj < r->meta.nchans)
		snprintf(buf, len, "%s:%s", reason, r->meta.chan_names[w->obj]);
	else if (w->obj >= 0)
		snprintf(buf, len, "%s:#%d", reason, (int)w->obj);
	else
		snprintf(buf, len, "%s", *reason ? reason : "waiting");
}

static char *ms(char *buf, int64_t us)
{
	if (us < 0)
		snprintf(buf, 32, "-");
	else
		snprintf(buf, 32, "%lld.%03lldms", (long long)(us / 1000), (long long)(us % 1000));
	return buf;
}

/* ---- aggregation ------------------------------------------------------ */

static int64_t lifetime(const struct report *r, const struct rg *gp)
{
	return (gp->died >= 0 ? gp->died : r->end) - gp->born;
}

static int64_t blocked_total(const struct report *r, const struct rg *gp)
{
	int64_t n = 0;
	for (int32_t i = gp->blocked; i >= 0; i = r->bnodes[i].next)
		n += r->bnodes[i].us;
	return n;
}

/* Per function: goroutines, lifetime, time by kind, blocked by key. */
struct fagg {
	int64_t ngs, life, t[TK__N];
	int64_t *blocked; /* [nkeys] */
	uint8_t *seen;    /* [nkeys] */
};

static void fagg_free(struct fagg *f, int32_t n)
{
	for (int32_t i = 0; f && i < n; i++) {
		free(f[i].blocked);
		free(f[i].seen);
	}
	free(f);
}

static struct fagg *fagg_build(const struct report *r)
{
	int32_t nf = r->meta.nfuncs + 1;
	struct fagg *f = calloc((size_t)nf, sizeof *f);
	if (!f)
		return NULL;
	for (int32_t i = 0; i < nf; i++) {
		f[i].blocked = calloc((size_t)r->nkeys + 1, sizeof *f[i].blocked);
		f[i].seen = calloc((size_t)r->nkeys + 1, 1);
		if (!f[i].blocked || !f[i].seen) {
			fagg_free(f, nf);
			return NULL;
		}
	}
	for (int64_t gi = 0; gi < r->ng; gi++) {
		const struct rg *gp = &r->gs[gi];
		struct fagg *a = &f[gp->fn >= 0 && gp->fn < r->meta.nfuncs ? gp->fn : r->meta.nfuncs];
		a->ngs++;
		a->life += lifetime(r, gp);
		for (int k = 0; k < TK__N; k++)
			a->t[k] += gp->t[k];
		for (int32_t i = gp->blocked; i >= 0; i = r->bnodes[i].next) {
			a->blocked[r->bnodes[i].key] += r->bnodes[i].us;
			a->seen[r->bnodes[i].key] = 1;
		}
	}
	return f;
}

/* A G's blocked figures in key order. */
static void g_blocked(const struct report *r, const struct rg *gp, int64_t *by_key, uint8_t *seen)
{
	memset(by_key, 0, (size_t)(r->nkeys + 1) * sizeof *by_key);
	memset(seen, 0, (size_t)r->nkeys + 1);
	for (int32_t i = gp->blocked; i >= 0; i = r->bnodes[i].next) {
		by_key[r->bnodes[i].key] += r->bnodes[i].us;
		seen[r->bnodes[i].key] = 1;
	}
}

/* ---- JSON --------------------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_num_or_null(FILE *f, int64_t v)
{
	if (v < 0)
		fputs("null", f);
	else
		fprintf(f, "%" PRId64, v);
}

static void json_lat(FILE *f, const struct lat *l)
{
	fprintf(f, "{\"count\":%" PRId64 ",\"p50_us\":", l->count);
	json_num_or_null(f, l->p50);
	fputs(",\"p90_us\":", f);
	json_num_or_null(f, l->p90);
	fputs(",\"p99_us\":", f);
	json_num_or_null(f, l->p99);
	fputs(",\"max_us\":", f);
	json_num_or_null(f, l->max);
	fputc('}', f);
}

static void json_times(FILE *f, const struct report *r, const int64_t *t, const int64_t *blocked, const uint8_t *seen)
{
	fputc('{', f);
	for (int k = 0; k < TK__N; k++)
		fprintf(f, "%s\"%s\":%" PRId64, k ? "," : "", tk_names[k], t[k]);
	for (int64_t k = 0; k < r->nkeys; k++) {
		if (!seen[k])
			continue;
		char name[256];
		key_name(r, (int32_t)k, name, sizeof name);
		fputc(',', f);
		json_str(f, name);
		fprintf(f, ":%" PRId64, blocked[k]);
	}
	fputc('}', f);
}

static int json_latency(FILE *f, const struct report *r)
{
	struct lat l;
	if (report_latency(&r->lat_all, &l) != 0)
		return -1;
	fputs("\"latency\":", f);
	json_lat(f, &l);
	fputs(",\n\"latency_by_function\":{", f);
	int first = 1;
	for (int32_t fn = 0; fn <= r->meta.nfuncs; fn++) {
		if (r->lat_fn[fn].n == 0)
			continue;
		if (report_latency(&r->lat_fn[fn], &l) != 0)
			return -1;
		fputs(first ? "" : ",", f);
		json_str(f, fn_name(r, fn));
		fputc(':', f);
		json_lat(f, &l);
		first = 0;
	}
	fputs("},\n\"latency_by_region\":{", f);
	for (int32_t i = 0; i < r->meta.nregions; i++) {
		if (report_latency(&r->lat_region[i], &l) != 0)
			return -1;
		fputs(i ? "," : "", f);
		json_str(f, r->meta.region_names[i]);
		fputc(':', f);
		json_lat(f, &l);
	}
	fputs("},\n", f);
	return 0;
}

static void json_functions(FILE *f, const struct report *r, const struct fagg *fa)
{
	fputs("\"time_by_function\":{", f);
	int first = 1;
	for (int32_t fn = 0; fn <= r->meta.nfuncs; fn++) {
		if (fa[fn].ngs == 0)
			continue;
		fputs(first ? "\n" : ",\n", f);
		json_str(f, fn_name(r, fn));
		fprintf(f, ":{\"goroutines\":%" PRId64 ",\"lifetime_us\":%" PRId64 ",\"time_us\":", fa[fn].ngs, fa[fn].life);
		json_times(f, r, fa[fn].t, fa[fn].blocked, fa[fn].seen);
		fputc('}', f);
		first = 0;
	}
	fputs("},\n", f);
}

static int json_goroutines(FILE *f, const struct report *r)
{
	int64_t *by_key = malloc((size_t)(r->nkeys + 1) * sizeof *by_key);
	uint8_t *seen = malloc((size_t)r->nkeys + 1);
	if (!by_key || !seen) {
		free(by_key);
		free(seen);
		return -1;
	}
	fputs("\"goroutines\":[", f);
	for (int64_t gi = 0; gi < r->ng; gi++) {
		const struct rg *gp = &r->gs[gi];
		g_blocked(r, gp, by_key, seen);
		fprintf(f, "%s{\"g\":%" PRId64 ",\"function\":", gi ? ",\n" : "\n", gi + 1);
		json_str(f, fn_name(r, gp->fn));
		fprintf(f, ",\"lifetime_us\":%" PRId64 ",\"time_us\":", lifetime(r, gp));
		json_times(f, r, gp->t, by_key, seen);
		fputc('}', f);
	}
	fputs("],\n", f);
	free(by_key);
	free(seen);
	return 0;
}

static void json_procs_threads(FILE *f, const struct report *r)
{
	fputs("\"procs\":{", f);
	for (int p = 0; p < r->meta.procs; p++) {
		fprintf(f, "%s\"P%d\":{", p ? "," : "", p);
		for (int k = 0; k < PK__N; k++)
			fprintf(f, "%s\"%s_us\":%" PRId64, k ? "," : "", pk_names[k], r->ps[p].t[k]);
		fputc('}', f);
	}
	fputs("},\n\"threads\":{", f);
	for (int32_t m = 0; m < r->nm; m++) {
		fprintf(f, "%s\"M%d\":{", m ? "," : "", (int)m);
		for (int k = 0; k < MK__N; k++)
			fprintf(f, "%s\"%s_us\":%" PRId64, k ? "," : "", mk_names[k], r->ms[m].t[k]);
		fputc('}', f);
	}
	fputs("},\n", f);
}

/* The counters, with null for what the model does not record. */
#define REPORT_COUNTERS(X)                                                        \
	X("steals", r->cnt.steals)                                                \
	X("steal_attempts", -1)                                                   \
	X("goroutines_stolen", r->cnt.stolen)                                     \
	X("runnext_steals", r->cnt.runnext_steals)                                \
	X("spills", r->cnt.spills)                                                \
	X("goroutines_spilled", r->cnt.spilled)                                   \
	X("global_gets", r->cnt.global_gets)                                      \
	X("global_to_local", r->cnt.global_to_local)                              \
	X("handoffs", r->cnt.handoffs)                                            \
	X("syscall_retakes", r->cnt.handoffs + r->cnt.retakes_idle)               \
	X("preemptions_slice", r->cnt.preempt_slice)                              \
	X("yields", r->cnt.yields)                                                \
	X("futile_wakeups", r->cnt.futile_wakeups)                                \
	X("threads_created", r->cnt.threads_created)                              \
	X("events", r->cnt.events)

#define REPORT_PEAKS(X)                                                           \
	X("goroutines_live", r->peak.live)                                        \
	X("runnable", r->peak.runnable)                                           \
	X("global_queue", r->peak.global)                                         \
	X("local_queue", r->peak.local)                                           \
	X("threads", r->peak.threads)                                             \
	X("threads_in_syscall", r->peak.syscall_ms)                               \
	X("procs_busy", r->peak.busy_ps)

static void json_counters(FILE *f, const struct report *r)
{
	const char *sep = "";
	fputs("\"peaks\":{", f);
#define X(name, v) fprintf(f, "%s\"%s\":%" PRId64, sep, name, (int64_t)(v)), sep = ",";
	REPORT_PEAKS(X)
#undef X
	sep = "";
	fputs("},\n\"counters\":{", f);
#define X(name, v) fprintf(f, "%s\"%s\":", sep, name), json_num_or_null(f, (v)), sep = ",";
	REPORT_COUNTERS(X)
#undef X
	fputs("},\n", f);
}

static const char *place(int pl) { return sim_place_name(pl); }

static void json_wait(FILE *f, const struct report *r, const struct lwait *w)
{
	fprintf(f, "{\"g\":%d,\"function\":", (int)w->g);
	json_str(f, fn_name(r, w->fn));
	fprintf(f, ",\"start_us\":%" PRId64 ",\"end_us\":%" PRId64 ",\"runnable_us\":%" PRId64, w->start, w->end,
		w->end - w->start);
	fprintf(f, ",\"entered\":{\"place\":\"%s\",\"p\":%d,\"reason\":\"%s\",\"ahead\":%d}", place(w->entry_place),
		w->entry_p, sim_reason_name(w->entry_reason), (int)w->ahead);
	fprintf(f, ",\"left\":{\"place\":\"%s\",\"p\":%d,\"reason\":\"%s\"},\"moves\":%d", place(w->exit_place),
		w->exit_p, sim_reason_name(w->exit_reason), (int)w->moves);
	fprintf(f, ",\"time_us\":{\"runnext\":%" PRId64 ",\"local\":%" PRId64 ",\"global\":%" PRId64 "}", w->in[0],
		w->in[1], w->in[2]);
	fputs(",\"ran_meanwhile\":[", f);
	for (int64_t i = 0; i < w->nant; i++) {
		const struct ant *a = &r->ants[w->ant0 + i];
		fprintf(f, "%s{\"p\":%d,\"g\":", i ? "," : "", (int)a->p);
		if (a->g > 0)
			fprintf(f, "%d,\"function\":", (int)a->g), json_str(f, fn_name(r, r->gs[a->g - 1].fn));
		else
			fputs("null,\"function\":null", f);
		fprintf(f, ",\"runs\":%d,\"us\":%" PRId64 "}", (int)a->runs, a->us);
	}
	fputs("]}", f);
}

static void json_waits(FILE *f, const struct report *r)
{
	fprintf(f, "\"long_waits\":{\"threshold_us\":%" PRId64 ",\"count\":%" PRId64 ",\"list\":[",
		r->meta.threshold_us, r->nover);
	int first = 1;
	for (int64_t i = 0; i < r->nwaits; i++) {
		if (!r->waits[i].over)
			continue;
		fputs(first ? "\n" : ",\n", f);
		json_wait(f, r, &r->waits[i]);
		first = 0;
	}
	fputs("]}", f);
	if (r->meta.why_g > 0) {
		fprintf(f, ",\n\"why\":{\"g\":%d,\"waits\":[", (int)r->meta.why_g);
		first = 1;
		for (int64_t i = 0; i < r->nwaits; i++) {
			if (!r->waits[i].why)
				continue;
			fputs(first ? "\n" : ",\n", f);
			json_wait(f, r, &r->waits[i]);
			first = 0;
		}
		fputs("]}", f);
	}
}

static int write_json(struct report *r, FILE *f, const struct sim_summary *sum)
{
	fprintf(f, "{\"report\":{\"schema\":%d,\"workload\":", REPORT_SCHEMA);
	json_str(f, r->meta.workload ? r->meta.workload : "");
	fprintf(f, ",\"procs\":%d,\"seed\":%" PRIu64 ",\"makespan_us\":%" PRId64 ",\"end_us\":%" PRId64, r->meta.procs,
		r->meta.seed, sum ? sum->makespan_us : r->end, r->end);
	if (sum)
		fprintf(f, ",\"fingerprint\":\"%016" PRIx64 "\"", sum->fingerprint);
	fputs("},\n", f);
	if (r->meta.config_json)
		fprintf(f, "\"config\":%s,\n", r->meta.config_json);
	struct fagg *fa = fagg_build(r);
	if (!fa || json_latency(f, r) != 0) {
		fagg_free(fa, r->meta.nfuncs + 1);
		return -1;
	}
	json_functions(f, r, fa);
	fagg_free(fa, r->meta.nfuncs + 1);
	if (json_goroutines(f, r) != 0)
		return -1;
	json_procs_threads(f, r);
	json_counters(f, r);
	json_waits(f, r);
	fputs("}\n", f);
	return 0;
}

/* ---- CSV: section,name,metric,value ------------------------------------- */

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_row(FILE *f, const char *section, const char *name, const char *metric, int64_t v)
{
	csv_field(f, section);
	fputc(',', f);
	csv_field(f, name);
	fputc(',', f);
	csv_field(f, metric);
	fprintf(f, ",%" PRId64 "\n", v);
}

static void csv_lat(FILE *f, const char *section, const char *name, const struct lat *l)
{
	csv_row(f, section, name, "count", l->count);
	if (l->count == 0)
		return;
	csv_row(f, section, name, "p50_us", l->p50);
	csv_row(f, section, name, "p90_us", l->p90);
	csv_row(f, section, name, "p99_us", l->p99);
	csv_row(f, section, name, "max_us", l->max);
}

static void csv_times(FILE *f, const struct report *r, const char *section, const char *name, const int64_t *t,
		      const int64_t *blocked, const uint8_t *seen)
{
	for (int k = 0; k < TK__N; k++)
		csv_row(f, section, name, tk_names[k], t[k]);
	for (int64_t k = 0; k < r->nkeys; k++) {
		char key[256];
		if (!seen[k])
			continue;
		key_name(r, (int32_t)k, key, sizeof key);
		csv_row(f, section, name, key, blocked[k]);
	}
}

static int csv_gs(FILE *f, const struct report *r)
{
	int64_t *by_key = malloc((size_t)(r->nkeys + 1) * sizeof *by_key);
	uint8_t *seen = malloc((size_t)r->nkeys + 1);
	if (!by_key || !seen) {
		free(by_key);
		free(seen);
		return -1;
	}
	for (int64_t gi = 0; gi < r->ng; gi++) {
		char name[24];
		snprintf(name, sizeof name, "%" PRId64, gi + 1);
		g_blocked(r, &r->gs[gi], by_key, seen);
		csv_row(f, "goroutine", name, "function_index", r->gs[gi].fn);
		csv_row(f, "goroutine", name, "lifetime_us", lifetime(r, &r->gs[gi]));
		csv_times(f, r, "goroutine_time_us", name, r->gs[gi].t, by_key, seen);
	}
	free(by_key);
	free(seen);
	return 0;
}

static int write_csv(struct report *r, FILE *f, const struct sim_summary *sum)
{
	fputs("section,name,metric,value\n", f);
	csv_row(f, "run", "-", "procs", r->meta.procs);
	csv_row(f, "run", "-", "seed", (int64_t)r->meta.seed);
	csv_row(f, "run", "-", "makespan_us", sum ? sum->makespan_us : r->end);
	struct lat l;
	if (report_latency(&r->lat_all, &l) != 0)
		return -1;
	csv_lat(f, "latency", "all", &l);
	for (int32_t fn = 0; fn <= r->meta.nfuncs; fn++) {
		if (r->lat_fn[fn].n == 0)
			continue;
		if (report_latency(&r->lat_fn[fn], &l) != 0)
			return -1;
		csv_lat(f, "latency", fn_name(r, fn), &l);
	}
	for (int32_t i = 0; i < r->meta.nregions; i++) {
		if (report_latency(&r->lat_region[i], &l) != 0)
			return -1;
		csv_lat(f, "region_latency", r->meta.region_names[i], &l);
	}
	struct fagg *fa = fagg_build(r);
	if (!fa)
		return -1;
	for (int32_t fn = 0; fn <= r->meta.nfuncs; fn++) {
		if (fa[fn].ngs == 0)
			continue;
		csv_row(f, "function", fn_name(r, fn), "goroutines", fa[fn].ngs);
		csv_row(f, "function", fn_name(r, fn), "lifetime_us", fa[fn].life);
		csv_times(f, r, "function_time_us", fn_name(r, fn), fa[fn].t, fa[fn].blocked, fa[fn].seen);
	}
	fagg_free(fa, r->meta.nfuncs + 1);
	if (csv_gs(f, r) != 0)
		return -1;
	char name[24], metric[32];
	for (int p = 0; p < r->meta.procs; p++)
		for (int k = 0; k < PK__N; k++) {
			snprintf(name, sizeof name, "P%d", p);
			snprintf(metric, sizeof metric, "%s_us", pk_names[k]);
			csv_row(f, "proc", name, metric, r->ps[p].t[k]);
		}
	for (int32_t m = 0; m < r->nm; m++)
		for (int k = 0; k < MK__N; k++) {
			snprintf(name, sizeof name, "M%d", (int)m);
			snprintf(metric, sizeof metric, "%s_us", mk_names[k]);
			csv_row(f, "thread", name, metric, r->ms[m].t[k]);
		}
#define X(n, v) csv_row(f, "peak", "-", n, (int64_t)(v));
	REPORT_PEAKS(X)
#undef X
#define X(n, v) if ((v) >= 0) csv_row(f, "counter", "-", n, (int64_t)(v));
	REPORT_COUNTERS(X)
#undef X
	csv_row(f, "long_waits", "-", "threshold_us", r->meta.threshold_us);
	csv_row(f, "long_waits", "-", "count", r->nover);
	return 0;
}

/* ---- text ----------------------------------------------------------------- */

static void text_latency(FILE *f, const struct report *r)
{
	char b[5][32];
	struct lat l;
	fputs("\nscheduler latency (runnable -> running; percentiles by nearest rank)\n", f);
	fprintf(f, "  %-16s %8s %12s %12s %12s %12s\n", "function", "count", "p50", "p90", "p99", "max");
	for (int32_t fn = -1; fn <= r->meta.nfuncs; fn++) {
		const struct hmap *h = fn < 0 ? &r->lat_all : &r->lat_fn[fn];
		if (fn >= 0 && h->n == 0)
			continue;
		if (report_latency(h, &l) != 0)
			return;
		fprintf(f, "  %-16s %8" PRId64 " %12s %12s %12s %12s\n", fn < 0 ? "(all)" : fn_name(r, fn), l.count,
			ms(b[0], l.p50), ms(b[1], l.p90), ms(b[2], l.p99), ms(b[3], l.max));
	}
	if (r->meta.nregions > 0) {
		fputs("\nregion latency (a region's begin -> end, end to end)\n", f);
		fprintf(f, "  %-16s %8s %12s %12s %12s %12s\n", "region", "count", "p50", "p90", "p99", "max");
	}
	for (int32_t i = 0; i < r->meta.nregions; i++) {
		if (report_latency(&r->lat_region[i], &l) != 0)
			return;
		fprintf(f, "  %-16s %8" PRId64 " %12s %12s %12s %12s\n", r->meta.region_names[i], l.count,
			ms(b[0], l.p50), ms(b[1], l.p90), ms(b[2], l.p99), ms(b[3], l.max));
	}
}

/* The cpuwait column, shown only for a run with --cpus below --procs. */
static void text_cpuwait(FILE *f, const struct report *r, const char *head, int64_t us)
{
	char b[32];
	if (r->meta.cpus)
		fprintf(f, " %11s", head ? head : ms(b, us));
	fputc('\n', f);
}

static void text_split_row(FILE *f, const struct report *r, const char *label, int64_t n, int64_t life,
			   const int64_t *t, int64_t blocked)
{
	char b[8][32];
	fprintf(f, "  %-12s %6" PRId64 " %12s %11s %11s %11s %11s %11s %11s", label, n, ms(b[0], life),
		ms(b[1], t[TK_RUNNING]), ms(b[2], t[TK_RUNNEXT]), ms(b[3], t[TK_LOCAL]), ms(b[4], t[TK_GLOBAL]),
		ms(b[5], t[TK_SYSCALL]), ms(b[6], blocked));
	text_cpuwait(f, r, NULL, t[TK_CPUWAIT]);
}

static void text_blocked(FILE *f, const struct report *r, const int64_t *blocked, const uint8_t *seen)
{
	int any = 0;
	for (int64_t k = 0; k < r->nkeys; k++) {
		char key[256], b[32];
		if (!seen[k])
			continue;
		key_name(r, (int32_t)k, key, sizeof key);
		fprintf(f, "%s%s %s", any ? ", " : "                blocked: ", key, ms(b, blocked[k]));
		any = 1;
	}
	if (any)
		fputc('\n', f);
}

static const char split_head[] = "  %-12s %6s %12s %11s %11s %11s %11s %11s %11s";

static void text_functions(FILE *f, const struct report *r, const struct fagg *fa)
{
	fputs("\ntime by function (totals over its goroutines; each goroutine's split sums to its lifetime)\n", f);
	fprintf(f, split_head, "function", "Gs", "lifetime", "running", "runnext", "local", "global", "syscall",
		"blocked");
	text_cpuwait(f, r, "cpuwait", 0);
	for (int32_t fn = 0; fn <= r->meta.nfuncs; fn++) {
		if (fa[fn].ngs == 0)
			continue;
		int64_t bl = 0;
		for (int64_t k = 0; k < r->nkeys; k++)
			bl += fa[fn].blocked[k];
		text_split_row(f, r, fn_name(r, fn), fa[fn].ngs, fa[fn].life, fa[fn].t, bl);
		text_blocked(f, r, fa[fn].blocked, fa[fn].seen);
	}
}

static int64_t runnable_time(const struct rg *gp)
{
	return gp->t[TK_RUNNEXT] + gp->t[TK_LOCAL] + gp->t[TK_GLOBAL];
}

#define TEXT_GS 10

/* The TEXT_GS goroutines runnable longest (all of them when few). */
static void text_goroutines(FILE *f, const struct report *r)
{
	int64_t top[TEXT_GS], n = 0;
	for (int64_t gi = 0; gi < r->ng; gi++) {
		int64_t i;
		if (n < TEXT_GS)
			i = n++;
		else if (runnable_time(&r->gs[gi]) <= runnable_time(&r->gs[top[TEXT_GS - 1]]))
			continue;
		else
			i = TEXT_GS - 1;
		top[i] = gi;
		for (; i > 0 && runnable_time(&r->gs[top[i]]) > runnable_time(&r->gs[top[i - 1]]); i--) {
			int64_t t = top[i];
			top[i] = top[i - 1];
			top[i - 1] = t;
		}
	}
	if (r->ng > TEXT_GS)
		fprintf(f, "\ngoroutines: the %d runnable longest of %" PRId64 " (--report=json lists all)\n", TEXT_GS, r->ng);
	else
		fputs("\ngoroutines\n", f);
	fprintf(f, split_head, "G function", "", "lifetime", "running", "runnext", "local", "global", "syscall",
		"blocked");
	text_cpuwait(f, r, "cpuwait", 0);
	for (int64_t i = 0; i < n; i++) {
		const struct rg *gp = &r->gs[top[i]];
		char label[64];
		snprintf(label, sizeof label, "G%" PRId64 " %s", top[i] + 1, fn_name(r, gp->fn));
		fprintf(f, "  %-19s", label);
		char b[8][32];
		fprintf(f, " %12s %11s %11s %11s %11s %11s %11s", ms(b[0], lifetime(r, gp)), ms(b[1], gp->t[TK_RUNNING]),
			ms(b[2], gp->t[TK_RUNNEXT]), ms(b[3], gp->t[TK_LOCAL]), ms(b[4], gp->t[TK_GLOBAL]),
			ms(b[5], gp->t[TK_SYSCALL]), ms(b[6], blocked_total(r, gp)));
		text_cpuwait(f, r, NULL, gp->t[TK_CPUWAIT]);
	}
}

static void text_procs_threads(FILE *f, const struct report *r)
{
	char b[MK__N][32];
	fprintf(f, "\nprocs (P: what it did over the run's %s)\n", ms(b[0], r->end));
	fprintf(f, "  %-5s %12s %12s %12s %12s %12s\n", "P", "busy", "spinning", "idle", "syscall", "between Gs");
	for (int p = 0; p < r->meta.procs; p++) {
		const int64_t *t = r->ps[p].t;
		int pct = r->end ? (int)(t[PK_BUSY] * 100 / r->end) : 0;
		fprintf(f, "  P%-4d %12s %12s %12s %12s %12s  (%d%% busy)\n", p, ms(b[0], t[PK_BUSY]),
			ms(b[1], t[PK_SPINNING]), ms(b[2], t[PK_IDLE]), ms(b[3], t[PK_SYSCALL]), ms(b[4], t[PK_SCHED]),
			pct);
	}
	fputs("\nthreads (M: from its creation to the end)\n", f);
	fprintf(f, "  %-5s %12s %12s %12s %12s %12s %12s%s\n", "M", "running", "spinning", "syscall", "parked",
		"starting", "sysmon", r->meta.cpus ? "      cpuwait" : "");
	int nk = r->meta.cpus ? MK__N : MK_CPUWAIT;
	for (int32_t m = 0; m < r->nm; m++) {
		const int64_t *t = r->ms[m].t;
		fprintf(f, "  M%-4d", (int)m);
		for (int k = 0; k < nk; k++)
			fprintf(f, " %12s", ms(b[k], t[k]));
		fputc('\n', f);
	}
}

static void text_counters(FILE *f, const struct report *r)
{
	fputs("\npeaks\n ", f);
	int col = 1;
#define X(name, v) col += fprintf(f, "%s %s %" PRId64, col > 60 ? "\n " : "", name, (int64_t)(v)), col = col > 60 ? 1 : col;
	REPORT_PEAKS(X)
#undef X
	fputs("\n\ncounters\n", f);
#define X(name, v)                                                                     \
	if ((v) >= 0)                                                                  \
		fprintf(f, "  %-20s %" PRId64 "\n", name, (int64_t)(v));                 \
	else                                                                           \
		fprintf(f, "  %-20s not recorded (the model emits no record for it)\n", name);
	REPORT_COUNTERS(X)
#undef X
}

static void text_wait(FILE *f, const struct report *r, const struct lwait *w)
{
	char b[6][32];
	fprintf(f, "  G%d %s: runnable %s, from %s to %s\n", (int)w->g, fn_name(r, w->fn), ms(b[0], w->end - w->start),
		ms(b[1], w->start), ms(b[2], w->end));
	fprintf(f, "    entered %s", place(w->entry_place));
	if (w->entry_p >= 0)
		fprintf(f, " of P%d", w->entry_p);
	fprintf(f, " (%s) with %d ahead; %d move%s; ran from %s", sim_reason_name(w->entry_reason), (int)w->ahead,
		(int)w->moves, w->moves == 1 ? "" : "s", place(w->exit_place));
	if (w->exit_p >= 0)
		fprintf(f, " of P%d", w->exit_p);
	fprintf(f, " (%s); in runnext %s, local %s, global %s\n", sim_reason_name(w->exit_reason), ms(b[3], w->in[0]),
		ms(b[4], w->in[1]), ms(b[5], w->in[2]));
	int lastp = -1;
	for (int64_t i = 0; i < w->nant; i++) {
		const struct ant *a = &r->ants[w->ant0 + i];
		if (a->p != lastp)
			fprintf(f, "%s    P%d ran:", lastp >= 0 ? "\n" : "", (int)a->p);
		if (a->g > 0)
			fprintf(f, "%s G%d %s %s (%d run%s)", a->p == lastp ? "," : "", (int)a->g,
				fn_name(r, r->gs[a->g - 1].fn), ms(b[0], a->us), (int)a->runs, a->runs == 1 ? "" : "s");
		else
			fprintf(f, ", %d more runs %s", (int)a->runs, ms(b[0], a->us));
		lastp = a->p;
	}
	if (lastp >= 0)
		fputc('\n', f);
	else
		fputs("    no goroutine ran meanwhile\n", f);
}

#define TEXT_WAITS 20

static void text_waits(FILE *f, const struct report *r)
{
	char b[32];
	fprintf(f, "\nwaits runnable longer than %s: %" PRId64 "%s\n", ms(b, r->meta.threshold_us), r->nover,
		r->nover > TEXT_WAITS ? " (the first 20; --report=json lists all)" : "");
	int64_t shown = 0;
	for (int64_t i = 0; i < r->nwaits && shown < TEXT_WAITS; i++)
		if (r->waits[i].over) {
			text_wait(f, r, &r->waits[i]);
			shown++;
		}
}

static int write_text(struct report *r, FILE *f)
{
	char b[32];
	fprintf(f, "\nreport: %s, %d P%s, seed %" PRIu64 "; %" PRId64 " goroutines over %s\n",
		r->meta.workload ? r->meta.workload : "?", r->meta.procs, r->meta.procs == 1 ? "" : "s", r->meta.seed,
		r->ng, ms(b, r->end));
	text_latency(f, r);
	struct fagg *fa = fagg_build(r);
	if (!fa)
		return -1;
	text_functions(f, r, fa);
	fagg_free(fa, r->meta.nfuncs + 1);
	text_goroutines(f, r);
	text_procs_threads(f, r);
	text_counters(f, r);
	if (r->meta.threshold_us > 0)
		text_waits(f, r);
	return 0;
}

int report_write_why(struct report *r, FILE *f)
{
	int64_t n = 0;
	for (int64_t i = 0; i < r->nwaits; i++)
		n += r->waits[i].why;
	if (r->meta.why_g > r->ng) {
		fprintf(f, "\nwhy G%d: there is no such goroutine (the run had %" PRId64 ")\n", (int)r->meta.why_g, r->ng);
		return ferror(f) ? -1 : 0;
	}
	const struct rg *gp = &r->gs[r->meta.why_g - 1];
	char b[3][32];
	fprintf(f, "\nwhy G%d (%s) waited: %" PRId64 " runnable interval%s, %s in all over a lifetime of %s\n",
		(int)r->meta.why_g, fn_name(r, gp->fn), n, n == 1 ? "" : "s", ms(b[0], runnable_time(gp)),
		ms(b[1], lifetime(r, gp)));
	for (int64_t i = 0; i < r->nwaits; i++)
		if (r->waits[i].why)
			text_wait(f, r, &r->waits[i]);
	return ferror(f) ? -1 : 0;
}

int report_write(struct report *r, FILE *f, enum report_format fmt, const struct sim_summary *sum)
{
	if (r->oom)
		return -1;
	int rc = fmt == REPORT_JSON ? write_json(r, f, sum) : fmt == REPORT_CSV ? write_csv(r, f, sum) : write_text(r, f);
	return rc != 0 || ferror(f) ? -1 : 0;
}

void report_figures(struct report *r, struct report_figures *out)
{
	struct lat l;
	if (report_latency(&r->lat_all, &l) != 0)
		l = (struct lat){ -1, -1, -1, -1, -1 };
	*out = (struct report_figures){ .makespan_us = r->end, .latency_count = l.count, .latency_p50_us = l.p50,
					.latency_p90_us = l.p90, .latency_p99_us = l.p99, .latency_max_us = l.max,
					.threads_peak = r->peak.threads, .steals = r->cnt.steals,
					.handoffs = r->cnt.handoffs, .preemptions = r->cnt.preempt_slice };
}

int report_format_parse(const char *name, enum report_format *out)
{
	static const char *const names[] = { "text", "json", "csv" };
	for (int i = 0; i < 3; i++)
		if (strcmp(name, names[i]) == 0) {
			*out = (enum report_format)i;
			return 0;
		}
	return -1;
}
