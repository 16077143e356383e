/* html.c: the html back end: one self-contained replay page (trace/html/,
 * compiled in by tools/embed-page.sh) with the run embedded in it as three
 * JSON blocks that the page's script reads (docs/trace-format.md, "html"):
 *
 *   gosim-meta    config, procs, workload, the name tables (event kinds,
 *                 places, reasons, M and P states, wait reasons), the
 *                 fields each record kind carries, function and channel names
 *   gosim-events  one JSON array per record, its kind's fields in order
 *   gosim-end     records kept and written, the cap, the summary
 *
 * The page needs nothing else: no network, no other file. Records stream
 * out as they come; past HTML_MAX_EVENTS they are counted, not written, and
 * the page says what it kept. Every '<' inside the JSON is written as
 * \u003c, so no name can end a script block. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "html_page.h"

/* The most records a page embeds: about 30 MB of data, which a browser
 * parses in well under a second. The first HTML_MAX_EVENTS are kept, so
 * the page replays a prefix of the run exactly. */
#define HTML_MAX_EVENTS 2000000

struct html_state {
	struct trace_out *o;
	int64_t n; /* records seen */
};

/* JSON text with every '<' as \u003c ('<' can only occur inside strings). */
static int put_script_safe(struct trace_out *o, const char *s)
{
	const char *lt;
	while ((lt = strchr(s, '<')) != NULL) {
		trace_out_put(o, s, (size_t)(lt - s));
		trace_out_puts(o, "\\u003c");
		s = lt + 1;
	}
	return trace_out_puts(o, s);
}

/* A name table of sim.h: names until name() says "?". */
static json_t *names_of(const char *(*name)(int))
{
	json_t *a = json_array();
	for (int i = 0; a && strcmp(name(i), "?") != 0; i++)
		json_array_append_new(a, json_string(name(i)));
	return a;
}

static json_t *strings_of(const char *const *s, int n)
{
	json_t *a = json_array();
	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(s && s[i] ? s[i] : ""));
	return a;
}

/* The fields of each kind's record, in the order html_record() writes
 * them: the kind's own, then its optional tail (TAIL_G or TAIL). */
static json_t *fields(void)
{
#define TAIL_G "rule", "rule_n", "fn", "obj", "wait", "seq"
#define TAIL "rule", "rule_n", "seq"
	return json_pack("{s[sssssssssssssssss] s[sssssssssssss] s[sssssssssss] s[sssssssssss] s[sssssssssss]"
			 " s[ssssssssssss] s[ssssssssssss] s[ssssssssssss]}",
			 "g", "t", "ev", "g", "p", "m", "from", "to", "from_p", "reason", "by_m", "by_p", TAIL_G,
			 "steal", "t", "ev", "g", "p", "m", "victim", "n", "runnext", "by_m", "by_p", TAIL,
			 "spill", "t", "ev", "g", "p", "m", "n", "by_m", "by_p", TAIL,
			 "handoff", "t", "ev", "g", "p", "m", "from_m", "by_m", "by_p", TAIL,
			 "preempt", "t", "ev", "g", "p", "m", "ran_us", "by_m", "by_p", TAIL,
			 "m", "t", "ev", "g", "p", "m", "from", "to", "by_m", "by_p", TAIL,
			 "p", "t", "ev", "g", "p", "m", "from", "to", "by_m", "by_p", TAIL,
			 "cpu", "t", "ev", "g", "p", "m", "from", "to", "by_m", "by_p", TAIL);
#undef TAIL_G
#undef TAIL
}

static json_t *meta_json(const struct trace_meta *m)
{
	json_t *names = json_pack("{so so so so so so so so}", "ev", names_of(sim_ev_name), "place",
				  names_of(sim_place_name), "reason", names_of(sim_reason_name), "mstate",
				  names_of(sim_mstate_name), "pstate", names_of(sim_pstate_name), "wait",
				  names_of(sim_waitreason_name), "rule", names_of(sim_rule_name), "cpustate",
				  names_of(sim_cpustate_name));
	return json_pack("{s{sssi} ss si si so so so so}", "gosim", "version", GOSIM_VERSION, "schema",
			 TRACE_SCHEMA, "workload", m->workload ? m->workload : "", "procs", m->procs, "main_fn",
			 m->main_fn, "names", names, "fields", fields(), "funcs",
			 strings_of(m->func_names, m->nfuncs), "chans", strings_of(m->chan_names, m->nchans));
}

static void *html_open(struct trace_out *o, const struct trace_meta *m)
{
	struct html_state *h = calloc(1, sizeof *h);
	json_t *meta = meta_json(m);
	char *text = meta ? json_dumps(meta, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(meta);
	if (!h || !text) {
		free(h);
		free(text);
		return NULL;
	}
	h->o = o;
	trace_out_put(o, trace_html_head, trace_html_head_len);
	trace_out_puts(o, "<script type=\"application/json\" id=\"gosim-meta\">");
	/* text ends with '}': the config goes in as one more member */
	text[strlen(text) - 1] = '\0';
	put_script_safe(o, text);
	trace_out_puts(o, ",\"config\":");
	put_script_safe(o, m->config_json ? m->config_json : "{}");
	trace_out_puts(o, "}</script>\n<script type=\"application/json\" id=\"gosim-events\">[");
	free(text);
	return h;
}

static char *put_field(char *p, int64_t v)
{
	*p++ = ',';
	return tr_put_i(p, v);
}

/* One record as an array: the fields of fields() for its kind. The tail
 * is cut after its last field that says something: rule, rule_n or wait
 * other than 0, fn or obj other than -1, seq other than the record's index.
 * (--explain puts a rule on every run, so the rule comes first.) */
static int html_record(char *buf, const struct sim_event *e, int64_t index)
{
	char *p = tr_put_i(tr_put_s(buf, "["), e->t);
	p = put_field(p, e->ev);
	p = put_field(p, e->g);
	p = put_field(p, e->p);
	p = put_field(p, e->m);
	switch (e->ev) {
	case EV_G:
		p = put_field(put_field(put_field(put_field(p, e->from), e->to), e->from_p), e->reason);
		break;
	case EV_STEAL:
		p = put_field(put_field(put_field(p, e->victim), e->n), e->runnext);
		break;
	case EV_SPILL:
		p = put_field(p, e->n);
		break;
	case EV_HANDOFF:
		p = put_field(p, e->from_m);
		break;
	case EV_PREEMPT:
		p = put_field(p, e->ran_us);
		break;
	default:
		p = put_field(put_field(p, e->from), e->to);
	}
	p = put_field(put_field(p, e->by_m), e->by_p);
	int64_t tail[6] = { e->rule, e->rule_n };
	int n = 2, keep = e->rule != 0 || e->rule_n != 0 ? 2 : 0;
	if (e->ev == EV_G) {
		tail[n++] = e->fn;
		keep = e->fn >= 0 ? n : keep;
		tail[n++] = e->obj;
		keep = e->obj >= 0 ? n : keep;
		tail[n++] = e->wait;
		keep = e->wait != 0 ? n : keep;
	}
	tail[n++] = (int64_t)e->seq;
	keep = e->seq != (uint64_t)index ? n : keep;
	for (int i = 0; i < keep; i++)
		p = put_field(p, tail[i]);
	*p++ = ']';
	return (int)(p - buf);
}

static int html_event(void *st, const struct sim_event *e)
{
	struct html_state *h = st;
	int64_t i = h->n++;
	if (i >= HTML_MAX_EVENTS)
		return 0;
	char buf[TRACE_MAX_RECORD + 8];
	size_t off = i > 0 ? 2 : 0;
	memcpy(buf, ",\n", off);
	int n = html_record(buf + off, e, i);
	return trace_out_put(h->o, buf, (size_t)n + off);
}

static int html_close(void *st, const struct sim_summary *sum)
{
	struct html_state *h = st;
	int64_t kept = h->n < HTML_MAX_EVENTS ? h->n : HTML_MAX_EVENTS;
	char head[160];
	int n = snprintf(head, sizeof head, "]</script>\n<script type=\"application/json\" id=\"gosim-end\">"
			 "{\"kept\":%lld,\"total\":%lld,\"cap\":%d,\"summary\":",
			 (long long)kept, (long long)h->n, HTML_MAX_EVENTS);
	trace_out_put(h->o, head, (size_t)n);
	char *s = sum ? trace_summary_json(sum) : NULL;
	int rc = sum && !s ? -1 : 0;
	trace_out_puts(h->o, s ? s : "null");
	free(s);
	trace_out_puts(h->o, "}</script>\n");
	trace_out_put(h->o, trace_html_tail, trace_html_tail_len);
	return rc;
}

static void html_release(void *st) { free(st); }

static const char *const html_suffixes[] = { ".html", ".htm", NULL };

const struct trace_ops trace_html_ops = {
	.name = "html", .suffixes = html_suffixes,
	.open = html_open, .event = html_event, .close = html_close, .release = html_release,
};
