/* csv.c: the csv back end: a fixed header, then one record per line
 * (docs/trace-format.md). Every integer column is an integer in every row
 * (-1 where the kind has none), so a reader infers integer types; the text
 * columns are empty where the kind has none, and names are quoted as
 * RFC 4180 says when they hold a comma, quote or line break. */
#include <stddef.h>
#include <stdlib.h>

#include "backend.h"

static const char csv_header[] =
	"t,seq,ev,g,p,m,from,to,from_p,reason,victim,n,runnext,from_m,ran_us,by_m,by_p,fn,wait,chan\n";
/* With --explain, two more columns: the rule (quoted: it has commas; empty
 * where none) and rule_n (0 where none). */
static const char csv_header_explain[] =
	"t,seq,ev,g,p,m,from,to,from_p,reason,victim,n,runnext,from_m,ran_us,by_m,by_p,fn,wait,chan,rule,rule_n\n";

/* A g record's columns after g (p, m, from, to, from_p, reason, the five
 * empty integers, by_m, by_p, fn, wait, chan) and its line's end, and an
 * M, P, CPU or steal record's line after t and seq, come from tables of
 * the texts already formatted (struct tr_ktab); a hit copies CSV_GCOPY
 * or CSV_OCOPY bytes, a longer text is formatted every time. */
#define CSV_GCOPY 80
#define CSV_OCOPY 64

struct csv_state {
	struct trace_out *o;
	struct trace_names names;
	int explain;
	size_t most; /* trace_record_most */
	struct tr_tseq ts; /* "t,seq," */
	struct tr_small ints[TR_SMALL], gints[TR_SMALL]; /* gints: a g record's "g,goid," */
	struct tr_small2 pairs[TR_SMALL2 * TR_SMALL2]; /* "p,m," and "by_m,by_p," */
	/* each name with its comma, for the columns ev, from/to and reason */
	struct tr_frags ev, place, mstate, pstate, cpustate, reason;
	/* a G record's: from and to as one (from << 4 | to); the reason with
	 * the five empty integers after it (victim .. ran_us); the wait */
	struct tr_frags g_from_to, g_reason, wait;
	struct tr_id id; /* "g," and the last g record's goid over 1022 */
	struct tr_ktab gtab, otab; /* g records', the others' */
};

static int csv_frags(struct csv_state *c)
{
	return tr_frags_set(&c->ev, EV__N, sim_ev_name, "", ",") | tr_frags_set(&c->place, PL__N, sim_place_name, "", ",") |
	       tr_frags_set(&c->mstate, MS__N, sim_mstate_name, "", ",") |
	       tr_frags_set(&c->pstate, PS__N, sim_pstate_name, "", ",") |
	       tr_frags_set(&c->cpustate, CPU__N, sim_cpustate_name, "", ",") |
	       tr_frags_set(&c->reason, R__N, sim_reason_name, "", ",") |
	       tr_frags_set(&c->g_reason, R__N, sim_reason_name, "", ",-1,-1,-1,-1,-1,") |
	       tr_frags_set(&c->wait, WR__N, sim_waitreason_name, "", ",") | tr_frags_pair(&c->g_from_to, PL__N, sim_place_name, "", ",", ",") |
	       tr_tseq_init(&c->ts, "", ",", ",") | tr_small2_init(c->pairs, "");
}

static void *csv_open(struct trace_out *o, const struct trace_meta *m)
{
	struct csv_state *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->o = o;
	tr_small_init(c->ints, "");
	tr_small_init(c->gints, "g,");
	tr_id_init(&c->id, "g,");
	tr_ktab_init(&c->gtab);
	tr_ktab_init(&c->otab);
	if (csv_frags(c) != 0 || trace_names_init(&c->names, m) != 0 ||
	    trace_out_room(o, c->most = trace_record_most(&c->names, 1)) != 0) {
		trace_names_release(&c->names);
		free(c);
		return NULL;
	}
	c->explain = m && m->cfg.explain;
	if (c->explain)
		trace_out_put(o, csv_header_explain, sizeof csv_header_explain - 1);
	else
		trace_out_put(o, csv_header, sizeof csv_header - 1);
	return c;
}

/* The columns from .. ran_us of a record of another kind than g, each
 * followed by its comma: a kind's own values, -1 or empty for the rest
 * (constant runs copied as one). */
static char *cols_kind(char *p, const struct csv_state *c, const struct sim_event *e)
{
	const struct tr_frags *states = &c->pstate;
	switch (e->ev) {
	case EV_M:
		states = &c->mstate;
		break;
	case EV_CPU:
		states = &c->cpustate;
		break;
	case EV_P:
		break;
	default: { /* no state columns */
		int steal = e->ev == EV_STEAL;
		p = TR_PUT_LIT(p, ",,-1,,");
		p = tr_put_ic(p, c->ints, steal ? e->victim : -1);
		p = tr_put_ic(p, c->ints, steal || e->ev == EV_SPILL || e->ev == EV_SUDOG || e->ev == EV_REGION ? e->n : -1);
		p = tr_put_ic(p, c->ints, steal ? e->runnext : -1);
		p = tr_put_ic(p, c->ints, e->ev == EV_HANDOFF ? e->from_m : -1);
		return tr_put_ic(p, c->ints, e->ev == EV_PREEMPT ? e->ran_us : -1);
	}
	}
	p = tr_put_frag(p, tr_frag_of(states, e->from));
	p = tr_put_frag(p, tr_frag_of(states, e->to));
	return TR_PUT_LIT(p, "-1,,-1,-1,-1,-1,-1,");
}

/* With --explain, the columns rule (quoted: it has commas) and rule_n. */
static char *cols_rule(char *p, const struct sim_event *e)
{
	p = e->rule ? tr_put_s(TR_PUT_LIT(p, ",\""), sim_rule_name(e->rule)) : TR_PUT_LIT(p, ",");
	p = e->rule ? TR_PUT_LIT(p, "\",") : TR_PUT_LIT(p, ",");
	return tr_put_i(p, e->rule_n);
}

/* The columns wait (shown when has_wait), chan (and rule, rule_n) and the
 * line's end: every record's tail. */
static inline char *cols_wait_end(char *p, const struct csv_state *c, const struct sim_event *e, int has_wait,
				  const struct tr_str *ch)
{
	if (has_wait)
		p = tr_put_frag(p, tr_frag_of(&c->wait, e->wait));
	else
		*p++ = ',';
	if (ch)
		p = tr_put_str(p, ch);
	if (c->explain)
		p = cols_rule(p, e);
	*p++ = '\n';
	return p;
}

/* The columns fn (empty: only a g record has one), wait, chan (and rule,
 * rule_n) and the line's end. */
static char *cols_tail(char *p, const struct csv_state *c, const struct sim_event *e, const struct tr_str *ch)
{
	*p++ = ',';
	return cols_wait_end(p, c, e, e->ev == EV_SUDOG, ch);
}

/* A record of any kind but g after t and seq, formatted. */
static char *other_put(char *p, const struct csv_state *c, const struct sim_event *e)
{
	p = tr_put_frag(p, tr_frag_of(&c->ev, e->ev));
	p = tr_put_ic(p, c->ints, e->g);
	p = tr_put_ic2(p, c->pairs, c->ints, e->p, e->m, "", 0);
	p = cols_kind(p, c, e);
	p = tr_put_ic2(p, c->pairs, c->ints, e->by_m, e->by_p, "", 0);
	return cols_tail(p, c, e, trace_record_chan(&c->names, e, 1));
}

/* A record of any kind but g: through the table where it has a key (but
 * with --explain: the table stays empty). */
__attribute__((noinline)) static int csv_other(struct csv_state *c, const struct sim_event *e)
{
	char *p = trace_record_begin(c->o);
	if (!p)
		return -1;
	p = tr_put_tseq(p, &c->ts, e->t, e->seq);
	struct tr_key k;
	if (c->explain || !tr_key_other(e, &k))
		return trace_record_end(c->o, other_put(p, c, e));
	struct tr_kslot *g = tr_kslot_of(&c->otab, &k);
	if (tr_kslot_is(g, &k)) { /* t, seq or the room were not */
		memcpy(p, g->s, CSV_OCOPY);
		return trace_record_end(c->o, p + g->len);
	}
	char *end = other_put(p, c, e);
	tr_kslot_keep(g, &k, p, (size_t)(end - p), CSV_OCOPY);
	return trace_record_end(c->o, end);
}

/* A g record's columns fn, wait, chan (rule, rule_n) and the line's end,
 * when it has any of them. */
static char *g_tail(char *p, const struct csv_state *c, const struct sim_event *e)
{
	const struct tr_frag *ff = trace_record_fn_frag(&c->names, e, 1);
	const struct tr_str *fn = ff ? NULL : trace_record_fn(&c->names, e, 1), *ch = trace_record_chan(&c->names, e, 1);
	if (ff) {
		p = tr_put_frag(p, ff); /* the name and its comma */
	} else {
		if (fn)
			p = tr_put_str(p, fn);
		*p++ = ',';
	}
	return cols_wait_end(p, c, e, e->wait != 0, ch);
}

/* The columns after g of a g record and the line's end, formatted. */
static char *g_rest_put(char *p, const struct csv_state *c, const struct sim_event *e)
{
	p = tr_put_ic2(p, c->pairs, c->ints, e->p, e->m, "", 0);
	if (tr_pair_fits(e->from, e->to)) {
		p = tr_put_frag(p, tr_frag_of(&c->g_from_to, tr_pair(e->from, e->to)));
	} else {
		p = tr_put_frag(p, tr_frag_of(&c->place, e->from));
		p = tr_put_frag(p, tr_frag_of(&c->place, e->to));
	}
	p = tr_put_ic(p, c->ints, e->from_p);
	p = tr_put_frag(p, tr_frag_of(&c->g_reason, e->reason));
	p = tr_put_ic2(p, c->pairs, c->ints, e->by_m, e->by_p, "", 0);
	if ((e->from == PL_NEW) | e->wait | c->explain)
		return g_tail(p, c, e);
	return TR_PUT_LIT(p, ",,\n");
}

/* A table miss: the columns formatted and kept in the record's slot. */
__attribute__((noinline)) static char *g_rest_miss(char *p, void *ctx, const struct sim_event *e, struct tr_kslot *g)
{
	char *end = g_rest_put(p, ctx, e);
	struct tr_key k = tr_key_g(e);
	tr_kslot_keep(g, &k, p, (size_t)(end - p), CSV_GCOPY);
	return end;
}

/* The same through the table (struct tr_ktab), but with --explain. */
static inline char *g_rest(char *p, struct csv_state *c, const struct sim_event *e)
{
	if (c->explain)
		return g_rest_put(p, c, e);
	return tr_ktab_put_g(p, &c->gtab, e, CSV_GCOPY, g_rest_miss, c);
}

/* A g record: t, seq, ev and g, then the rest as one block (g_rest). */
__attribute__((noinline)) static int csv_g(struct csv_state *c, const struct sim_event *e)
{
	char *p = trace_record_begin(c->o);
	if (!p)
		return -1;
	p = tr_put_tseq(p, &c->ts, e->t, e->seq);
	p = tr_put_id(p, &c->id, c->gints, e->g);
	return trace_record_end(c->o, g_rest(p, c, e));
}

/* A record of another kind than g whose text after seq is in the table,
 * with room for it and t and seq in their windows; else csv_other. */
static inline int csv_other_hit(struct csv_state *c, const struct sim_event *e)
{
	struct tr_key k;
	if (!tr_key_other(e, &k))
		return csv_other(c, e);
	const struct tr_kslot *g = tr_kslot_of(&c->otab, &k);
	if (__builtin_expect(!tr_kslot_is(g, &k) || !tr_tseq_fits(&c->ts, e->t, e->seq), 0))
		return csv_other(c, e);
	struct trace_out *o = c->o;
	char *p = o->at;
	if (__builtin_expect(p > o->rec, 0))
		return csv_other(c, e);
	p = tr_tseq_copy(p, &c->ts, e->t, e->seq);
	memcpy(p, g->s, CSV_OCOPY);
	o->at = p + g->len;
	return 0;
}

/* Nearly every record: a g record whose text after the goid is in the
 * table, with room for it, t, seq and the goid in their windows. Every
 * test comes first, before anything changes, and anything else is
 * csv_g's (a tail call: this path saves no registers); the other kinds
 * likewise. With --explain the tables stay empty. */
static int csv_event(void *st, const struct sim_event *e)
{
	struct csv_state *c = st;
	if (e->ev != EV_G)
		return csv_other_hit(c, e);
	struct tr_key k = tr_key_g(e);
	const struct tr_kslot *g = tr_kslot_of(&c->gtab, &k);
	if (__builtin_expect(!tr_kslot_is(g, &k) || !tr_tseq_fits(&c->ts, e->t, e->seq) || !tr_id_fits(&c->id, e->g), 0))
		return csv_g(c, e);
	struct trace_out *o = c->o;
	char *p = o->at;
	if (__builtin_expect(p > o->rec, 0))
		return csv_g(c, e);
	p = tr_tseq_copy(p, &c->ts, e->t, e->seq);
	p = tr_id_copy(p, &c->id, c->gints, e->g);
	memcpy(p, g->s, CSV_GCOPY);
	o->at = p + g->len;
	return 0;
}

static int csv_close(void *st, const struct sim_summary *sum)
{
	(void)st;
	(void)sum;
	return 0;
}

static void csv_release(void *st)
{
	struct csv_state *c = st;
	if (c)
		trace_names_release(&c->names);
	free(c);
}

static const char *const csv_suffixes[] = { ".csv", NULL };

const struct trace_ops trace_csv_ops = {
	.name = "csv", .suffixes = csv_suffixes,
	.open = csv_open, .event = csv_event, .close = csv_close, .release = csv_release, .direct = 1,
};
