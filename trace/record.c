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

/* A key (a literal: one memcpy), its value and the comma after it. */
#define put_kv_i(p, f, key, v) tr_put_ic(TR_PUT_LIT(p, key), (f)->ints, v)

static char *put_kv_s(char *p, const char *key, const char *v)
{
	p = tr_put_s(tr_put_s(p, key), v);
	return TR_PUT_LIT(p, "\",");
}

/* The from and to of a state record (m, p, cpu). */
static char *state_from_to(char *p, const struct trace_json_fmt *f, const struct sim_event *e)
{
	const struct tr_frags *from = &f->pfrom, *to = &f->pto;
	if (e->ev == EV_M)
		from = &f->mfrom, to = &f->mto;
	else if (e->ev == EV_CPU)
		from = &f->cfrom, to = &f->cto;
	p = tr_put_frag(p, tr_frag_of(from, e->from));
	return tr_put_frag(p, tr_frag_of(to, e->to));
}

/* The record's fields after by_p, each followed by a comma. */
static char *event_json_kind(char *p, const struct trace_json_fmt *f, const struct sim_event *e)
{
	switch (e->ev) {
	case EV_G:
		p = tr_put_frag(p, tr_frag_of(&f->gfrom, e->from));
		p = tr_put_frag(p, tr_frag_of(&f->gto, e->to));
		p = put_kv_i(p, f, "\"from_p\":", e->from_p);
		p = tr_put_frag(p, tr_frag_of(&f->reason, e->reason));
		if (e->wait)
			p = tr_put_frag(p, tr_frag_of(&f->wait, e->wait));
		if (e->obj >= 0 && !trace_is_chan_wait(e->wait))
			p = put_kv_i(p, f, "\"obj\":", e->obj);
		return p;
	case EV_M:
	case EV_P:
	case EV_CPU:
		return state_from_to(p, f, e);
	case EV_STEAL:
		p = put_kv_i(p, f, "\"victim\":", e->victim);
		p = put_kv_i(p, f, "\"n\":", e->n);
		return put_kv_i(p, f, "\"runnext\":", e->runnext);
	case EV_SPILL:
		return put_kv_i(p, f, "\"n\":", e->n);
	case EV_HANDOFF:
		return put_kv_i(p, f, "\"from_m\":", e->from_m);
	case EV_PREEMPT:
		return put_kv_i(p, f, "\"ran_us\":", e->ran_us);
	case EV_REGION:
		p = put_kv_i(p, f, "\"obj\":", e->obj);
		return put_kv_i(p, f, "\"n\":", e->n);
	case EV_SUDOG:
		p = put_kv_i(p, f, "\"n\":", e->n);
		return put_kv_s(p, "\"wait\":\"", sim_waitreason_name(e->wait));
	default:
		p = put_kv_s(p, "\"from\":\"", trace_state_name(e, e->from));
		return put_kv_s(p, "\"to\":\"", trace_state_name(e, e->to));
	}
}

/* The record's fixed fields into p (TRACE_MAX_RECORD bytes and the
 * slack), each followed by a comma. */
static char *event_json(char *p, struct trace_json_fmt *f, const struct sim_event *e)
{
	p = tr_put_counter(TR_PUT_LIT(p, "{\"t\":"), &f->t, e->t);
	p = tr_put_counter(TR_PUT_LIT(p, ",\"seq\":"), &f->seq, (int64_t)e->seq);
	p = tr_put_frag(p, tr_frag_of(&f->ev, e->ev)); /* ,"ev":"g","g": */
	p = tr_put_ic(p, f->ints, e->g);
	p = put_kv_i(p, f, "\"p\":", e->p);
	p = put_kv_i(p, f, "\"m\":", e->m);
	p = put_kv_i(p, f, "\"by_m\":", e->by_m);
	p = put_kv_i(p, f, "\"by_p\":", e->by_p);
	p = event_json_kind(p, f, e);
	if (e->rule) { /* --explain */
		p = put_kv_s(p, "\"rule\":\"", sim_rule_name(e->rule));
		p = put_kv_i(p, f, "\"rule_n\":", e->rule_n);
	}
	return p;
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

static int set_str(struct tr_str *s, char *text)
{
	s->s = text;
	s->len = text ? strlen(text) : 0;
	return text ? 0 : -1;
}

static int quote_all(struct tr_str **json, struct tr_str **csv, int n, const char *const *names)
{
	*json = calloc((size_t)n + 1, sizeof **json);
	*csv = calloc((size_t)n + 1, sizeof **csv);
	if (!*json || !*csv)
		return -1;
	for (int i = 0; i < n; i++)
		if (set_str(&(*json)[i], json_quoted(names[i])) != 0 || set_str(&(*csv)[i], csv_quoted(names[i])) != 0)
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

static void free_all(struct tr_str *v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i].s);
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

/* ---- the json formatter --------------------------------------------- */

int trace_json_fmt_init(struct trace_json_fmt *f, const struct trace_meta *m)
{
	f->t = f->seq = (struct tr_counter)TR_COUNTER_INIT;
	tr_small_init(f->ints);
	if (tr_frags_set(&f->ev, EV__N, sim_ev_name, ",\"ev\":\"", "\",\"g\":") != 0 ||
	    tr_frags_set(&f->reason, R__N, sim_reason_name, "\"reason\":\"", "\",") != 0 ||
	    tr_frags_set(&f->wait, WR__N, sim_waitreason_name, "\"wait\":\"", "\",") != 0 ||
	    tr_frags_set(&f->gfrom, PL__N, sim_place_name, "\"from\":\"", "\",") != 0 ||
	    tr_frags_set(&f->gto, PL__N, sim_place_name, "\"to\":\"", "\",") != 0 ||
	    tr_frags_set(&f->mfrom, MS__N, sim_mstate_name, "\"from\":\"", "\",") != 0 ||
	    tr_frags_set(&f->mto, MS__N, sim_mstate_name, "\"to\":\"", "\",") != 0 ||
	    tr_frags_set(&f->pfrom, PS__N, sim_pstate_name, "\"from\":\"", "\",") != 0 ||
	    tr_frags_set(&f->pto, PS__N, sim_pstate_name, "\"to\":\"", "\",") != 0 ||
	    tr_frags_set(&f->cfrom, CPU__N, sim_cpustate_name, "\"from\":\"", "\",") != 0 ||
	    tr_frags_set(&f->cto, CPU__N, sim_cpustate_name, "\"to\":\"", "\",") != 0)
		return -1;
	return trace_names_init(&f->names, m);
}

void trace_json_fmt_release(struct trace_json_fmt *f) { trace_names_release(&f->names); }

int trace_record_json(struct trace_out *o, struct trace_json_fmt *f, const struct sim_event *e, const char *pre,
		      size_t npre, const char *post, size_t npost)
{
	const struct tr_str *fn = trace_record_fn(&f->names, e, 0), *ch = trace_record_chan(&f->names, e, 0);
	size_t names = (fn ? fn->len + 8 : 0) + (ch ? ch->len + 8 : 0);
	char *buf = trace_record_begin(o, npre + TRACE_MAX_RECORD + TRACE_FRAG_SLACK + names + npost);
	if (!buf)
		return -1;
	for (size_t i = 0; i < npre; i++) /* a byte or two: no call */
		buf[i] = pre[i];
	char *p = event_json(buf + npre, f, e);
	if (fn)
		p = TR_PUT_LIT(tr_put_str(TR_PUT_LIT(p, "\"fn\":"), fn), ",");
	if (ch)
		p = TR_PUT_LIT(tr_put_str(TR_PUT_LIT(p, "\"chan\":"), ch), ",");
	p[-1] = '}'; /* the last field's comma */
	for (size_t i = 0; i < npost; i++)
		*p++ = post[i];
	return trace_record_end(o, buf, p);
}
