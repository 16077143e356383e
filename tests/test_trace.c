/* test_trace.c: the three trace formats carry the same records, and the
 * JSON document is valid JSON with the documented top-level keys. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../trace/trace.h"
#include "helpers.h"

static char *write_trace(const struct evlog *l, const struct sim_summary *sum, enum trace_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct trace_writer *w = trace_open(f, fmt, &(struct trace_meta){ .config_json = "{\"workload\":\"fanout\"}" });
	for (size_t i = 0; i < l->n; i++)
		cr_assert_eq(trace_event(w, &l->ev[i]), 0);
	cr_assert_eq(trace_finish(w, sum), 0);
	trace_free(w);
	fclose(f);
	return buf;
}

static struct run_result r;

static void setup(void)
{
	struct sim_config cfg = test_config(0);
	run_builtin("syscalls", &cfg, NULL, &r);
}

static void teardown(void) { run_result_free(&r); }

TestSuite(trace, .init = setup, .fini = teardown);

Test(trace, json_is_one_document_with_gosim_config_events_and_summary)
{
	char *text = write_trace(&r.log, &r.sum, TRACE_JSON);
	json_error_t err;
	json_t *doc = json_loads(text, 0, &err);
	cr_assert_not_null(doc, "%s at %d:%d", err.text, err.line, err.column);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(doc, "gosim"), "schema")), TRACE_SCHEMA);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "config"), "workload")), "fanout");
	cr_assert_eq(json_array_size(json_object_get(doc, "events")), r.log.n);
	json_t *sum = json_object_get(doc, "summary");
	const char *keys[] = { "makespan_us", "goroutines", "threads_peak", "steals", "handoffs",
			       "preemptions", "spills", "busy_us", "fingerprint" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		cr_assert_not_null(json_object_get(sum, keys[i]), "summary.%s", keys[i]);
	cr_assert_eq(json_integer_value(json_object_get(sum, "makespan_us")), r.sum.makespan_us);
	json_decref(doc);
	free(text);
}

Test(trace, jsonl_and_csv_hold_the_same_records_as_json)
{
	char *jl = write_trace(&r.log, &r.sum, TRACE_JSONL), *csv = write_trace(&r.log, &r.sum, TRACE_CSV);
	char *line = jl, *row = strchr(csv, '\n') + 1;
	static const char header[] = "t,seq,ev,g,p,m,from,to,from_p,reason,victim,n,runnext,from_m,ran_us,by_m,by_p,fn,wait,chan\n";
	cr_assert_eq(strncmp(csv, header, sizeof header - 1), 0);
	for (size_t i = 0; i < r.log.n; i++) {
		json_t *o = json_loadb(line, strcspn(line, "\n"), 0, NULL);
		cr_assert_not_null(o, "line %zu", i);
		cr_assert_eq(json_integer_value(json_object_get(o, "seq")), (json_int_t)i);
		char t[32], ev[16];
		int g, p, m, commas = 0;
		for (const char *c = row; *c != '\n'; c++)
			commas += *c == ',';
		cr_assert_eq(commas, 19, "row %zu has 20 fields", i);
		cr_assert_eq(sscanf(row, "%31[^,],%*[^,],%15[^,],%d,%d,%d", t, ev, &g, &p, &m), 5);
		cr_assert_eq(atoll(t), json_integer_value(json_object_get(o, "t")));
		cr_assert_str_eq(ev, json_string_value(json_object_get(o, "ev")));
		cr_assert_eq(g, json_integer_value(json_object_get(o, "g")));
		cr_assert_eq(p, json_integer_value(json_object_get(o, "p")));
		cr_assert_eq(m, json_integer_value(json_object_get(o, "m")));
		json_decref(o);
		line = strchr(line, '\n') + 1;
		row = strchr(row, '\n') + 1;
	}
	cr_assert_eq(*line, 0, "jsonl holds events only");
	free(jl);
	free(csv);
}

Test(trace, a_steal_reads_from_the_victims_queue_to_the_thiefs)
{
	struct sim_config cfg = test_config(4);
	struct run_result f;
	run_builtin("fanout", &cfg, NULL, &f);
	long k = evlog_find(&f.log, 0, EV_STEAL, -1, -1);
	const struct sim_event *st = &f.log.ev[k], *mv = &f.log.ev[k + 1];
	cr_assert_eq(mv->ev, EV_G);
	cr_assert_eq(mv->from, PL_LOCAL);
	cr_assert_eq(mv->from_p, st->victim);
	cr_assert_eq(mv->to, PL_LOCAL);
	cr_assert_eq(mv->p, st->p);
	cr_assert_eq(mv->reason, R_STEAL);
	run_result_free(&f);
}

Test(trace, the_format_follows_the_file_extension)
{
	enum trace_format f;
	cr_assert_eq(trace_format_from_path("out.csv", &f), 0);
	cr_assert_eq(f, TRACE_CSV);
	cr_assert_eq(trace_format_from_path("a.b/out.jsonl", &f), 0);
	cr_assert_eq(f, TRACE_JSONL);
	cr_assert_neq(trace_format_from_path("a.json/out", &f), 0);
	cr_assert_neq(trace_format_from_path("out.txt", &f), 0);
	cr_assert_eq(trace_format_from_path("run.trace", &f), 0);
	cr_assert_eq(f, TRACE_GOTRACE);
	cr_assert_eq(trace_format_from_path("dir/RUN.GOTRACE", &f), 0);
	cr_assert_eq(f, TRACE_GOTRACE);
	cr_assert_eq(trace_format_from_path("run.chrome.json", &f), 0);
	cr_assert_eq(f, TRACE_CHROME, "the longest suffix wins");
	cr_assert_eq(trace_format_from_path("run.Perfetto.JSON", &f), 0);
	cr_assert_eq(f, TRACE_CHROME);
	cr_assert_eq(trace_format_from_path("chrome.json", &f), 0);
	cr_assert_eq(f, TRACE_JSON, "a name that is only the suffix's tail is json");
}

/* by_m/by_p: the M that acted and its P, on every record. */
static void check_actors(const struct evlog *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct sim_event *e = &l->ev[i];
		if (e->ev == EV_G && e->from == PL_WAITING) {
			cr_assert_geq(e->by_m, 0, "seq %zu: a wake-up has a waker", i);
			cr_assert_eq(e->by_p, e->p, "seq %zu: woken into the waker's P", i);
		}
		if (e->ev == EV_G && e->to == PL_RUNNING) {
			cr_assert_eq(e->by_m, e->m, "seq %zu: a G starts on the M that runs it", i);
			cr_assert_eq(e->by_p, e->p, "seq %zu", i);
		}
		if (e->ev == EV_STEAL)
			cr_assert(e->by_m == e->m && e->by_p == e->p, "seq %zu: the thief steals", i);
		if (e->ev == EV_HANDOFF)
			cr_assert(e->by_m == 1 && e->by_p == -1, "seq %zu: sysmon (M1) hands off", i);
		if (e->ev == EV_PREEMPT)
			cr_assert(e->by_m == 1 || e->by_m == e->m, "seq %zu: sysmon or the G itself", i);
		if (e->ev == EV_P && e->to == PS_RUNNING)
			cr_assert_eq(e->by_m, e->m, "seq %zu: the M acquiring the P", i);
		cr_assert(e->by_m < 0 || e->by_m < 1000, "seq %zu", i);
	}
}

Test(trace, every_record_names_the_m_that_acted)
{
	static const char *const names[] = { "pingpong", "fanout", "syscalls", "tightloop" };
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		struct sim_config cfg = test_config(4);
		struct run_result w;
		run_builtin(names[k], &cfg, NULL, &w);
		long wake = -1;
		for (size_t i = 0; i < w.log.n && wake < 0; i++)
			if (w.log.ev[i].ev == EV_G && w.log.ev[i].from == PL_WAITING)
				wake = (long)i;
		if (strcmp(names[k], "pingpong") == 0)
			cr_assert_geq(wake, 0, "pingpong wakes goroutines");
		check_actors(&w.log);
		run_result_free(&w);
	}
}

static int contains(const char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(buf + i, s, n) == 0)
			return 1;
	return 0;
}

static uint64_t read_uvarint(const unsigned char **p, const unsigned char *end)
{
	uint64_t v = 0;
	for (int shift = 0; *p < end; shift += 7) {
		unsigned char b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	return v;
}

/* The Go trace's framing, without Go: the v2 header, then batches of one
 * generation, none over 64 KiB, and a string table naming main.<func> in
 * <workload>.go (go tool trace's own checks are in tests/gotrace.sh). */
Test(trace, gotrace_is_a_go_1_22_trace_of_batches_under_64_kib)
{
	struct program *prog = load_builtin("pingpong", (const char *const[]){ "rounds=3000", NULL });
	struct sim_config cfg = test_config(3);
	struct run_result w;
	run_program(prog, &cfg, &w);
	struct trace_meta meta;
	cr_assert_eq(trace_meta_init(&meta, prog, &cfg, "{}", 0), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct trace_writer *tw = trace_open(f, TRACE_GOTRACE, &meta);
	trace_meta_release(&meta);
	cr_assert_not_null(tw);
	for (size_t i = 0; i < w.log.n; i++)
		cr_assert_eq(trace_event(tw, &w.log.ev[i]), 0, "record %zu: %s", i, trace_error(tw));
	cr_assert_eq(trace_finish(tw, &w.sum), 0);
	trace_free(tw);
	fclose(f);
	cr_assert_eq(memcmp(buf, "go 1.22 trace\0\0\0", 16), 0);
	const unsigned char *p = (const unsigned char *)buf + 16, *end = (const unsigned char *)buf + len;
	int batches = 0, big = 0;
	while (p < end) {
		cr_assert_eq(*p++, 1, "EvEventBatch at offset %td", (const char *)p - buf);
		cr_assert_eq(read_uvarint(&p, end), 1, "one generation");
		read_uvarint(&p, end); /* M */
		read_uvarint(&p, end); /* time */
		uint64_t size = read_uvarint(&p, end);
		cr_assert_leq(size, 64 << 10);
		cr_assert_leq(size, (uint64_t)(end - p));
		big += size > 32 << 10;
		p += size;
		batches++;
	}
	cr_assert_gt(big, 0, "a long run fills batches");
	cr_assert_gt(batches, 4);
	cr_assert(contains(buf, len, "main.main"));
	cr_assert(contains(buf, len, "pingpong.go"));
	cr_assert(contains(buf, len, "chan receive"));
	free(buf);
	run_result_free(&w);
	program_free(prog);
}

/* A record the Go trace cannot express (a G starting on an M that holds
 * no P) is the back end's own failure, told apart from an I/O error. */
Test(trace, gotrace_refuses_a_record_with_no_valid_go_event)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct trace_writer *tw = trace_open(f, TRACE_GOTRACE, &(struct trace_meta){ .procs = 1, .config_json = "{}" });
	cr_assert_not_null(tw);
	cr_assert_null(trace_error(tw));
	struct sim_event e = { .t = 5, .ev = EV_G, .g = 1, .p = 0, .m = 0, .from = PL_LOCAL, .to = PL_RUNNING,
			       .from_p = 0, .reason = R_SCHEDULE, .fn = -1, .obj = -1, .by_m = 0, .by_p = 0 };
	cr_assert_eq(trace_event(tw, &e), -1);
	cr_assert_not_null(trace_error(tw));
	cr_assert(strstr(trace_error(tw), "no valid Go trace event") != NULL, "%s", trace_error(tw));
	trace_free(tw);
	fclose(f);
	free(buf);
}
