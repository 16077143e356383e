/* test_determinism.c: same inputs and seed, same bytes; no hidden state
 * shared between simulations; the seed drives the steal order. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../trace/trace.h"
#include "helpers.h"

struct out {
	char *buf;
	size_t len;
	FILE *f;
	struct trace_writer *w;
};

static int out_event(void *ctx, const struct sim_event *e)
{
	return trace_event(((struct out *)ctx)->w, e);
}

static struct sim *start(const struct program *p, const struct sim_config *cfg, struct out *o, enum trace_format fmt)
{
	o->f = open_memstream(&o->buf, &o->len);
	o->w = trace_open(o->f, fmt, NULL);
	struct sim_sink sink = { .ctx = o, .event = out_event };
	struct sim_error err;
	struct sim *s = sim_new(cfg, p, &sink, &err);
	cr_assert_not_null(s, "%s", err.msg);
	return s;
}

static void end(struct sim *s, struct out *o)
{
	struct sim_summary sum;
	sim_summary(s, &sum);
	cr_assert_eq(trace_finish(o->w, &sum), 0);
	trace_free(o->w);
	fclose(o->f);
	sim_free(s);
}

static char *render(const char *name, const struct sim_config *cfg, enum trace_format fmt, size_t *len)
{
	struct program *p = load_builtin(name, NULL);
	struct out o;
	struct sim *s = start(p, cfg, &o, fmt);
	cr_assert_eq(sim_run(s), SIM_DONE);
	end(s, &o);
	program_free(p);
	*len = o.len;
	return o.buf;
}

Test(determinism, the_same_seed_gives_the_same_bytes_in_every_format)
{
	const char *names[] = { "fanout", "syscalls", "tightloop", "pingpong" };
	for (int w = 0; w < 4; w++)
		for (int fmt = TRACE_JSON; fmt <= TRACE_CSV; fmt++) {
			struct sim_config cfg = test_config(3);
			cfg.seed = 7;
			size_t n1, n2;
			char *a = render(names[w], &cfg, (enum trace_format)fmt, &n1);
			char *b = render(names[w], &cfg, (enum trace_format)fmt, &n2);
			cr_assert_eq(n1, n2);
			cr_assert_eq(memcmp(a, b, n1), 0, "%s format %d", names[w], fmt);
			free(a);
			free(b);
		}
}

Test(determinism, two_simulations_stepped_alternately_match_each_run_alone)
{
	struct program *pa = load_builtin("fanout", NULL), *pb = load_builtin("syscalls", NULL);
	struct sim_config ca = test_config(4), cb = test_config(2);
	ca.seed = 3;
	cb.seed = 9;
	size_t la, lb;
	char *alone_a = render("fanout", &ca, TRACE_CSV, &la);
	char *alone_b = render("syscalls", &cb, TRACE_CSV, &lb);
	struct out oa, ob;
	struct sim *sa = start(pa, &ca, &oa, TRACE_CSV), *sb = start(pb, &cb, &ob, TRACE_CSV);
	enum sim_status st_a = SIM_RUNNING, st_b = SIM_RUNNING;
	while (st_a == SIM_RUNNING || st_b == SIM_RUNNING) {
		if (st_a == SIM_RUNNING)
			st_a = sim_step(sa);
		if (st_b == SIM_RUNNING)
			st_b = sim_step(sb);
	}
	end(sa, &oa);
	end(sb, &ob);
	cr_assert_eq(oa.len, la);
	cr_assert_eq(memcmp(oa.buf, alone_a, la), 0);
	cr_assert_eq(ob.len, lb);
	cr_assert_eq(memcmp(ob.buf, alone_b, lb), 0);
	free(oa.buf);
	free(ob.buf);
	free(alone_a);
	free(alone_b);
	program_free(pa);
	program_free(pb);
}

/* The victims of the first steals, as a string. */
static void victims(const struct evlog *l, char *out, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < l->n && k + 4 < n; i++)
		if (l->ev[i].ev == EV_STEAL)
			k += (size_t)snprintf(out + k, n - k, "%d>%d ", l->ev[i].victim, l->ev[i].p);
}

Test(determinism, different_seeds_change_the_steal_order)
{
	struct sim_config cfg = test_config(8);
	char first[512], v[512];
	struct run_result r;
	cfg.seed = 1;
	run_builtin("fanout", &cfg, NULL, &r);
	victims(&r.log, first, sizeof first);
	uint64_t fp = r.sum.fingerprint;
	run_result_free(&r);
	int differ = 0;
	for (uint64_t seed = 2; seed < 6; seed++) {
		cfg.seed = seed;
		run_builtin("fanout", &cfg, NULL, &r);
		victims(&r.log, v, sizeof v);
		differ += strcmp(v, first) != 0 && r.sum.fingerprint != fp;
		run_result_free(&r);
	}
	cr_assert_geq(differ, 3, "steal order \"%s\" did not change with the seed", first);
}

/* What the fingerprint leaves out of a G record (sim.c): its from and
 * from_p, the G's previous record's to and p, and its m, which earlier
 * records name: its P's M (the last P record of that P, or M record
 * holding it) when it runs, the M it last ran on in a syscall, none
 * elsewhere. */
struct g_seen {
	int to, p, m;
};

static int g_records_follow(const struct evlog *l, int nprocs, char *why, size_t n)
{
	int32_t pm[MAX_PROCS];
	size_t ng = 0;
	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].ev == EV_G && (size_t)l->ev[i].g >= ng)
			ng = (size_t)l->ev[i].g + 1;
	struct g_seen *seen = malloc((ng + 1) * sizeof *seen);
	cr_assert_not_null(seen);
	for (size_t g = 0; g < ng; g++)
		seen[g] = (struct g_seen){ PL_NEW, -1, -1 };
	for (int p = 0; p < nprocs; p++)
		pm[p] = -1;
	int bad = 0;
	for (size_t i = 0; i < l->n && !bad; i++) {
		const struct sim_event *e = &l->ev[i];
		if ((e->ev == EV_P || e->ev == EV_M) && e->p >= 0)
			pm[e->p] = e->m;
		if (e->ev != EV_G)
			continue;
		struct g_seen *g = &seen[e->g];
		int32_t m = e->to == PL_RUNNING ? pm[e->p] : e->to == PL_SYSCALL ? g->m : -1;
		bad = e->from != g->to || e->from_p != g->p || e->m != m;
		if (bad)
			snprintf(why, n, "seq %llu: g %d from %d/%d p %d/%d m %d/%d", (unsigned long long)e->seq, e->g,
				 e->from, g->to, e->from_p, g->p, e->m, m);
		*g = (struct g_seen){ e->to, e->p, e->to == PL_RUNNING ? e->m : g->m };
	}
	free(seen);
	return !bad;
}

Test(determinism, a_g_records_from_and_m_follow_from_the_records_before_it)
{
	struct variant {
		int model, go, cpus, place, steal;
	} vs[] = { { MODEL_SEED, 0, 0, CPU_PLACE_SHARED, 1 },  { MODEL_RUNTIME, 0, 0, CPU_PLACE_SHARED, 1 },
		   { MODEL_RUNTIME, 19, 0, CPU_PLACE_SHARED, 1 }, { MODEL_RUNTIME, 26, 0, CPU_PLACE_SHARED, 1 },
		   { MODEL_RUNTIME, 0, 2, CPU_PLACE_LAST, 1 },    { MODEL_RUNTIME, 0, 0, CPU_PLACE_SHARED, 0 },
		   { MODEL_RUNTIME, 0, 2, CPU_PLACE_PREV, 1 },    { MODEL_RUNTIME, 0, 2, CPU_PLACE_LINUX, 1 } };
	const int procs[] = { 1, 4 };
	char why[160];
	for (int w = 0; w < builtin_workloads_n; w++)
		for (size_t v = 0; v < sizeof vs / sizeof vs[0]; v++)
			for (int k = 0; k < 2; k++) {
				struct sim_config cfg = test_config(procs[k]);
				cfg.model = vs[v].model;
				cfg.go_release = vs[v].go;
				cfg.cpus = vs[v].cpus;
				cfg.cpu_place = vs[v].place;
				cfg.steal = vs[v].steal;
				struct run_result r;
				run_builtin(builtin_workloads[w].name, &cfg, NULL, &r);
				cr_assert_gt(r.log.n, 10);
				cr_assert(g_records_follow(&r.log, cfg.procs, why, sizeof why), "%s variant %zu -p %d: %s",
					  builtin_workloads[w].name, v, cfg.procs, why);
				run_result_free(&r);
			}
}
