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

/* The record's fields after by_p, each followed by a comma (a g record's
 * are json_g's). */
static char *event_json_kind(char *p, const struct trace_json_fmt *f, const struct sim_event *e)
{
	switch (e->ev) {
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

/* The fields from ev to by_p of a record of another kind than g. */
static char *event_json_other(char *p, const struct trace_json_fmt *f, const struct sim_event *e)
{
	p = tr_put_frag(p, tr_frag_of(&f->ev, e->ev)); /* ,"ev":"m","g": */
	p = tr_put_ic(p, f->ints, e->g);
	p = put_kv_i(p, f, "\"p\":", e->p);
	p = put_kv_i(p, f, "\"m\":", e->m);
	p = put_kv_i(p, f, "\"by_m\":", e->by_m);
	p = put_kv_i(p, f, "\"by_p\":", e->by_p);
	return event_json_kind(p, f, e);
}

/* A g record's fields after g (nearly every record), from and to with
 * the key after them as one fragment. */
static char *event_json_g(char *p, const struct trace_json_fmt *f, const struct sim_event *e)
{
	p = put_kv_i(p, f, "\"p\":", e->p);
	p = put_kv_i(p, f, "\"m\":", e->m);
	p = put_kv_i(p, f, "\"by_m\":", e->by_m);
	p = put_kv_i(p, f, "\"by_p\":", e->by_p);
	if (tr_pair_fits(e->from, e->to)) {
		p = tr_put_frag48(p, &f->g_from_to.f[tr_pair(e->from, e->to)]);
	} else {
		p = tr_put_frag(p, tr_frag_of(&f->gfrom, e->from));
		p = TR_PUT_LIT(tr_put_frag(p, tr_frag_of(&f->gto, e->to)), "\"from_p\":");
	}
	p = tr_put_ic(p, f->ints, e->from_p);
	p = tr_put_frag(p, tr_frag_of(&f->reason, e->reason));
	if (e->wait)
		p = tr_put_frag(p, tr_frag_of(&f->wait, e->wait));
	if (e->obj >= 0 && !trace_is_chan_wait(e->wait))
		p = put_kv_i(p, f, "\"obj\":", e->obj);
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

/* Each name quoted both ways; most_json, most_csv grow by the longest's. */
static int quote_all(struct tr_str **json, struct tr_str **csv, int n, const char *const *names, size_t *most_json,
		     size_t *most_csv)
{
	*json = calloc((size_t)n + 1, sizeof **json);
	*csv = calloc((size_t)n + 1, sizeof **csv);
	if (!*json || !*csv)
		return -1;
	size_t mj = 0, mc = 0;
	for (int i = 0; i < n; i++) {
		if (set_str(&(*json)[i], json_quoted(names[i])) != 0 || set_str(&(*csv)[i], csv_quoted(names[i])) != 0)
			return -1;
		mj = (*json)[i].len > mj ? (*json)[i].len : mj;
		mc = (*csv)[i].len > mc ? (*csv)[i].len : mc;
	}
	*most_json += mj;
	*most_csv += mc;
	return 0;
}

/* pre name post for each name, as a fragment where it fits (else len 0). */
static struct tr_frag *fn_frags(const struct tr_str *names, int n, const char *pre, const char *post)
{
	struct tr_frag *f = calloc((size_t)n + 1, sizeof *f);
	size_t a = strlen(pre), c = strlen(post);
	for (int i = 0; f && i < n; i++)
		if (a + names[i].len + c <= sizeof f[i].s) {
			memcpy(f[i].s, pre, a);
			memcpy(f[i].s + a, names[i].s, names[i].len);
			memcpy(f[i].s + a + names[i].len, post, c);
			f[i].len = (uint8_t)(a + names[i].len + c);
		}
	return f;
}

int trace_names_init(struct trace_names *nm, const struct trace_meta *m)
{
	*nm = (struct trace_names){ .nfuncs = m->func_names ? m->nfuncs : 0,
				    .nchans = m->chan_names ? m->nchans : 0 };
	if (quote_all(&nm->fn_json, &nm->fn_csv, nm->nfuncs, m->func_names, &nm->most_json, &nm->most_csv) != 0 ||
	    quote_all(&nm->chan_json, &nm->chan_csv, nm->nchans, m->chan_names, &nm->most_json, &nm->most_csv) != 0 ||
	    !(nm->fn_json_frag = fn_frags(nm->fn_json, nm->nfuncs, "\"fn\":", ",")) ||
	    !(nm->fn_csv_frag = fn_frags(nm->fn_csv, nm->nfuncs, "", ","))) {
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
	free(nm->fn_json_frag);
	free(nm->fn_csv_frag);
	*nm = (struct trace_names){ 0 };
}

/* ---- the json formatter --------------------------------------------- */

int trace_json_fmt_init(struct trace_json_fmt *f, struct trace_out *o, const struct trace_meta *m, int jsonl)
{
	*f = (struct trace_json_fmt){ .o = o, .jsonl = jsonl, .first = 1 };
	tr_small_init(f->ints, "");
	if (tr_tseq_init(&f->ts, "{\"t\":", ",\"seq\":", "") != 0 ||
	    tr_frags_set(&f->ev, EV__N, sim_ev_name, ",\"ev\":\"", "\",\"g\":") != 0 ||
	    tr_frags_set(&f->reason, R__N, sim_reason_name, "\"reason\":\"", "\",") != 0 ||
	    tr_frags_set(&f->wait, WR__N, sim_waitreason_name, "\"wait\":\"", "\",") != 0 ||
	    tr_frags_set(&f->gfrom, PL__N, sim_place_name, "\"from\":\"", "\",") != 0 ||
	    tr_frags_set(&f->gto, PL__N, sim_place_name, "\"to\":\"", "\",") != 0 ||
	    tr_frags48_pair(&f->g_from_to, PL__N, sim_place_name, "\"from\":\"", "\",\"to\":\"", "\",\"from_p\":") != 0 ||
	    tr_frags_set(&f->mfrom, MS__N, sim_mstate_name, "\"from\":\"", "\",") != 0 ||
	    tr_frags_set(&f->mto, MS__N, sim_mstate_name, "\"to\":\"", "\",") != 0 ||
	    tr_frags_set(&f->pfrom, PS__N, sim_pstate_name, "\"from\":\"", "\",") != 0 ||
	    tr_frags_set(&f->pto, PS__N, sim_pstate_name, "\"to\":\"", "\",") != 0 ||
	    tr_frags_set(&f->cfrom, CPU__N, sim_cpustate_name, "\"from\":\"", "\",") != 0 ||
	    tr_frags_set(&f->cto, CPU__N, sim_cpustate_name, "\"to\":\"", "\",") != 0)
		return -1;
	tr_id_init(&f->id, "");
	tr_ktab_init(&f->gtab);
	tr_ktab_init(&f->otab);
	if (trace_names_init(&f->names, m) != 0)
		return -1;
	f->most = trace_record_most(&f->names, 0);
	return trace_out_room(o, f->most);
}

void trace_json_fmt_release(struct trace_json_fmt *f) { trace_names_release(&f->names); }

/* After the first record of a json document, every record opens with the
 * ",\n" that separates it from the last. */
static void json_after_first(struct trace_json_fmt *f)
{
	f->first = 0;
	if (!f->jsonl)
		tr_tseq_init(&f->ts, ",\n{\"t\":", ",\"seq\":", "");
}

/* A new G's function and the channel a G or sudog waits on. */
static char *put_names(char *p, const struct trace_json_fmt *f, const struct sim_event *e)
{
	const struct tr_frag *ff = trace_record_fn_frag(&f->names, e, 0);
	const struct tr_str *fn = ff ? NULL : trace_record_fn(&f->names, e, 0), *ch = trace_record_chan(&f->names, e, 0);
	if (ff)
		p = tr_put_frag(p, ff);
	if (fn)
		p = TR_PUT_LIT(tr_put_str(TR_PUT_LIT(p, "\"fn\":"), fn), ",");
	if (ch)
		p = TR_PUT_LIT(tr_put_str(TR_PUT_LIT(p, "\"chan\":"), ch), ",");
	return p;
}

/* A record's fields after those before it (g's for a g record, seq's
 * for the others), its rule (--explain), names and end. */
static char *record_rest(char *p, const struct trace_json_fmt *f, const struct sim_event *e)
{
	p = e->ev == EV_G ? event_json_g(p, f, e) : event_json_other(p, f, e);
	if (e->rule) { /* --explain */
		p = put_kv_s(p, "\"rule\":\"", sim_rule_name(e->rule));
		p = put_kv_i(p, f, "\"rule_n\":", e->rule_n);
	}
	if ((e->ev == EV_G && e->from == PL_NEW) | e->wait) /* the only records with names */
		p = put_names(p, f, e);
	p[-1] = '}'; /* the last field's comma */
	*p = '\n';
	return p + f->jsonl;
}

/* A record's text kept in its table (struct tr_ktab) has no rule; a hit
 * copies JSON_GCOPY (g) or JSON_OCOPY bytes, a longer text is formatted
 * every time. */
#define JSON_GCOPY 112
#define JSON_OCOPY 96

/* A g record's table miss: its text formatted and kept. */
__attribute__((noinline)) static char *g_rest_miss(char *p, void *ctx, const struct sim_event *e, struct tr_kslot *g)
{
	char *end = record_rest(p, ctx, e);
	struct tr_key k = tr_key_g(e);
	tr_kslot_keep(g, &k, p, (size_t)(end - p), JSON_GCOPY);
	return end;
}

/* A record of another kind than g after seq: through the table where it
 * has a key. */
__attribute__((noinline)) static char *record_other(char *p, struct trace_json_fmt *f, const struct sim_event *e)
{
	struct tr_key k;
	if (e->rule || !tr_key_other(e, &k))
		return record_rest(p, f, e);
	struct tr_kslot *g = tr_kslot_of(&f->otab, &k);
	if (tr_kslot_is(g, &k)) {
		memcpy(p, g->s, JSON_OCOPY);
		return p + g->len;
	}
	char *end = record_rest(p, f, e);
	tr_kslot_keep(g, &k, p, (size_t)(end - p), JSON_OCOPY);
	return end;
}

int trace_record_json(struct trace_json_fmt *f, const struct sim_event *e)
{
	char *p = trace_record_begin(f->o);
	if (!p)
		return -1;
	p = tr_put_tseq(p, &f->ts, e->t, e->seq);
	if (e->ev == EV_G) {
		p = TR_PUT_LIT(p, ",\"ev\":\"g\",\"g\":");
		p = tr_put_id(p, &f->id, f->ints, e->g);
		p = e->rule ? record_rest(p, f, e) : tr_ktab_put_g(p, &f->gtab, e, JSON_GCOPY, g_rest_miss, f);
	} else {
		p = record_other(p, f, e);
	}
	if (f->first)
		json_after_first(f);
	return trace_record_end(f->o, p);
}
