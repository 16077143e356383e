/* record.c: one gosim record as a JSON object, shared by the json and
 * jsonl back ends, and the program's names quoted for the record formats
 * (docs/trace-format.md lists the fields). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

const char *trace_state_name(const struct sim_event *e, int v)
{
	if (e->ev == EV_G)
		return sim_place_name(v);
	if (e->ev == EV_CPU)
		return sim_cpustate_name(v);
	return e->ev == EV_M ? sim_mstate_name(v) : sim_pstate_name(v);
}

/* A key (a literal: one memcpy) and its value. */
#define put_kv_i(p, key, v) tr_put_i(TR_PUT_LIT(p, key), v)
#define put_kv_s(p, key, v) put_s_quote(TR_PUT_LIT(p, key), v)

static char *put_s_quote(char *p, const char *v)
{
	p = tr_put_s(p, v);
	*p++ = '"';
	return p;
}

static int is_chan_wait(const struct sim_event *e)
{
	return e->wait == WR_CHAN_RECV || e->wait == WR_CHAN_SEND;
}

/* The record into buf (TRACE_MAX_RECORD bytes); t and seq through clk's
 * counters, or formatted afresh without one. */
static int event_json(char *buf, const struct sim_event *e, struct tr_clock *clk)
{
	char *p = TR_PUT_LIT(buf, "{\"t\":");
	p = clk ? tr_put_counter(p, &clk->t, e->t) : tr_put_i(p, e->t);
	p = TR_PUT_LIT(p, ",\"seq\":");
	p = clk ? tr_put_counter(p, &clk->seq, (int64_t)e->seq) : tr_put_i(p, (int64_t)e->seq);
	p = put_kv_s(p, ",\"ev\":\"", sim_ev_name(e->ev));
	p = put_kv_i(p, ",\"g\":", e->g);
	p = put_kv_i(p, ",\"p\":", e->p);
	p = put_kv_i(p, ",\"m\":", e->m);
	p = put_kv_i(p, ",\"by_m\":", e->by_m);
	p = put_kv_i(p, ",\"by_p\":", e->by_p);
	switch (e->ev) {
	case EV_G:
		p = put_kv_s(p, ",\"from\":\"", sim_place_name(e->from));
		p = put_kv_s(p, ",\"to\":\"", sim_place_name(e->to));
		p = put_kv_i(p, ",\"from_p\":", e->from_p);
		p = put_kv_s(p, ",\"reason\":\"", sim_reason_name(e->reason));
		if (e->wait)
			p = put_kv_s(p, ",\"wait\":\"", sim_waitreason_name(e->wait));
		if (e->obj >= 0 && !is_chan_wait(e))
			p = put_kv_i(p, ",\"obj\":", e->obj);
		break;
	case EV_STEAL:
		p = put_kv_i(p, ",\"victim\":", e->victim);
		p = put_kv_i(p, ",\"n\":", e->n);
		p = put_kv_i(p, ",\"runnext\":", e->runnext);
		break;
	case EV_SPILL:
		p = put_kv_i(p, ",\"n\":", e->n);
		break;
	case EV_HANDOFF:
		p = put_kv_i(p, ",\"from_m\":", e->from_m);
		break;
	case EV_PREEMPT:
		p = put_kv_i(p, ",\"ran_us\":", e->ran_us);
		break;
	case EV_REGION:
		p = put_kv_i(p, ",\"obj\":", e->obj);
		p = put_kv_i(p, ",\"n\":", e->n);
		break;
	case EV_SUDOG:
		p = put_kv_i(p, ",\"n\":", e->n);
		p = put_kv_s(p, ",\"wait\":\"", sim_waitreason_name(e->wait));
		break;
	default:
		p = put_kv_s(p, ",\"from\":\"", trace_state_name(e, e->from));
		p = put_kv_s(p, ",\"to\":\"", trace_state_name(e, e->to));
	}
	if (e->rule) { /* --explain */
		p = put_kv_s(p, ",\"rule\":\"", sim_rule_name(e->rule));
		p = put_kv_i(p, ",\"rule_n\":", e->rule_n);
	}
	*p++ = '}';
	return (int)(p - buf);
}

int trace_event_json(char *buf, size_t len, const struct sim_event *e)
{
	return len < TRACE_MAX_RECORD ? -1 : event_json(buf, e, NULL);
}

/* ---- names ---------------------------------------------------------- */

static char *json_quoted(const char *s)
{
	json_t *j = json_string(s);
	char *q = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	json_decref(j);
	return q;
}

/* RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
static char *csv_quoted(const char *s)
{
	size_t n = strlen(s), extra = 0;
	int quote = strpbrk(s, ",\"\r\n") != NULL;
	for (const char *c = s; *c; c++)
		extra += *c == '"';
	char *q = malloc(n + extra + 3), *p = q;
	if (!q)
		return NULL;
	if (quote)
		*p++ = '"';
	for (const char *c = s; *c; c++) {
		if (*c == '"')
			*p++ = '"';
		*p++ = *c;
	}
	if (quote)
		*p++ = '"';
	*p = 0;
	return q;
}

static int quote_all(char ***json, char ***csv, int n, const char *const *names)
{
	*json = calloc((size_t)n + 1, sizeof **json);
	*csv = calloc((size_t)n + 1, sizeof **csv);
	if (!*json || !*csv)
		return -1;
	for (int i = 0; i < n; i++)
		if (!((*json)[i] = json_quoted(names[i])) || !((*csv)[i] = csv_quoted(names[i])))
			return -1;
	return 0;
}

int trace_names_init(struct trace_names *nm, const struct trace_meta *m)
{
	*nm = (struct trace_names){ .nfuncs = m->func_names ? m->nfuncs : 0,
				    .nchans = m->chan_names ? m->nchans : 0 };
	if (quote_all(&nm->fn_json, &nm->fn_csv, nm->nfuncs, m->func_names) != 0 ||
	    quote_all(&nm->chan_json, &nm->chan_csv, nm->nchans, m->chan_names) != 0) {
		trace_names_release(nm);
		return -1;
	}
	return 0;
}

static void free_all(char **v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void trace_names_release(struct trace_names *nm)
{
	free_all(nm->fn_json, nm->nfuncs);
	free_all(nm->fn_csv, nm->nfuncs);
	free_all(nm->chan_json, nm->nchans);
	free_all(nm->chan_csv, nm->nchans);
	*nm = (struct trace_names){ 0 };
}

const char *trace_record_fn(const struct trace_names *nm, const struct sim_event *e, int csv)
{
	if (e->ev != EV_G || e->from != PL_NEW || e->fn < 0 || e->fn >= nm->nfuncs)
		return NULL;
	return csv ? nm->fn_csv[e->fn] : nm->fn_json[e->fn];
}

const char *trace_record_chan(const struct trace_names *nm, const struct sim_event *e, int csv)
{
	if ((e->ev != EV_G && e->ev != EV_SUDOG) || !is_chan_wait(e) || e->obj < 0 || e->obj >= nm->nchans)
		return NULL;
	return csv ? nm->chan_csv[e->obj] : nm->chan_json[e->obj];
}

int trace_record_json(struct trace_out *o, const struct trace_names *nm, struct tr_clock *clk,
		      const struct sim_event *e, const char *pre, size_t npre, const char *post, size_t npost)
{
	char *buf = trace_out_reserve(o, TRACE_MAX_RECORD + npre + npost); /* formatted in place */
	memcpy(buf, pre, npre);
	int n = event_json(buf + npre, e, clk);
	if (n < 0)
		return -1;
	const char *fn = trace_record_fn(nm, e, 0), *ch = trace_record_chan(nm, e, 0);
	if (!fn && !ch) {
		memcpy(buf + npre + (size_t)n, post, npost);
		return trace_out_commit(o, buf + npre + (size_t)n + npost);
	}
	trace_out_commit(o, buf + npre + (size_t)n - 1); /* all but the closing brace */
	if (fn) {
		trace_out_puts(o, ",\"fn\":");
		trace_out_puts(o, fn);
	}
	if (ch) {
		trace_out_puts(o, ",\"chan\":");
		trace_out_puts(o, ch);
	}
	trace_out_put(o, "}", 1);
	return trace_out_put(o, post, npost);
}
