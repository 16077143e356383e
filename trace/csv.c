/* csv.c: the csv back end: a fixed header, then one record per line
 * (docs/trace-format.md). Every integer column is an integer in every row
 * (-1 where the kind has none), so a reader infers integer types; the text
 * columns are empty where the kind has none, and names are quoted as
 * RFC 4180 says when they hold a comma, quote or line break. */
#include <stdlib.h>

#include "backend.h"

static const char csv_header[] =
	"t,seq,ev,g,p,m,from,to,from_p,reason,victim,n,runnext,from_m,ran_us,by_m,by_p,fn,wait,chan\n";
/* With --explain, two more columns: the rule (quoted: it has commas; empty
 * where none) and rule_n (0 where none). */
static const char csv_header_explain[] =
	"t,seq,ev,g,p,m,from,to,from_p,reason,victim,n,runnext,from_m,ran_us,by_m,by_p,fn,wait,chan,rule,rule_n\n";

struct csv_state {
	struct trace_out *o;
	struct trace_names names;
	int explain;
	struct tr_counter t, seq; /* the last record's */
	struct tr_small ints[TR_SMALL];
	/* each name with its comma, for the columns ev, from/to and reason */
	struct tr_frags ev, place, mstate, pstate, cpustate, reason;
};

static int csv_frags(struct csv_state *c)
{
	return tr_frags_set(&c->ev, EV__N, sim_ev_name, "", ",") | tr_frags_set(&c->place, PL__N, sim_place_name, "", ",") |
	       tr_frags_set(&c->mstate, MS__N, sim_mstate_name, "", ",") |
	       tr_frags_set(&c->pstate, PS__N, sim_pstate_name, "", ",") |
	       tr_frags_set(&c->cpustate, CPU__N, sim_cpustate_name, "", ",") |
	       tr_frags_set(&c->reason, R__N, sim_reason_name, "", ",");
}

static void *csv_open(struct trace_out *o, const struct trace_meta *m)
{
	struct csv_state *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->o = o;
	c->t = c->seq = (struct tr_counter)TR_COUNTER_INIT;
	tr_small_init(c->ints);
	if (csv_frags(c) != 0 || trace_names_init(&c->names, m) != 0) {
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

/* The columns from .. ran_us, each followed by its comma: a kind's own
 * values, -1 or empty for the rest (constant runs copied as one). */
static char *cols_kind(char *p, const struct csv_state *c, const struct sim_event *e)
{
	const struct tr_frags *states = &c->pstate;
	switch (e->ev) {
	case EV_G:
		p = tr_put_frag(p, tr_frag_of(&c->place, e->from));
		p = tr_put_frag(p, tr_frag_of(&c->place, e->to));
		p = tr_put_ic(p, c->ints, e->from_p);
		p = tr_put_frag(p, tr_frag_of(&c->reason, e->reason));
		return TR_PUT_LIT(p, "-1,-1,-1,-1,-1,");
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

/* The columns fn, wait, chan (and with --explain rule, rule_n) and the
 * line's end. */
static char *cols_tail(char *p, const struct csv_state *c, const struct sim_event *e, const struct tr_str *fn,
		       const struct tr_str *ch)
{
	if (fn)
		p = tr_put_str(p, fn);
	*p++ = ',';
	if ((e->ev == EV_G || e->ev == EV_SUDOG) && e->wait)
		p = tr_put_s(p, sim_waitreason_name(e->wait));
	*p++ = ',';
	if (ch)
		p = tr_put_str(p, ch);
	if (c->explain) { /* the rule is quoted: it has commas */
		p = e->rule ? tr_put_s(TR_PUT_LIT(p, ",\""), sim_rule_name(e->rule)) : TR_PUT_LIT(p, ",");
		p = e->rule ? TR_PUT_LIT(p, "\",") : TR_PUT_LIT(p, ",");
		p = tr_put_i(p, e->rule_n);
	}
	*p++ = '\n';
	return p;
}

static int csv_event(void *st, const struct sim_event *e)
{
	struct csv_state *c = st;
	const struct tr_str *fn = trace_record_fn(&c->names, e, 1), *ch = trace_record_chan(&c->names, e, 1);
	size_t names = (fn ? fn->len : 0) + (ch ? ch->len : 0);
	char *buf = trace_record_begin(c->o, TRACE_MAX_RECORD + TRACE_FRAG_SLACK + names), *p = buf;
	if (!buf)
		return -1;
	p = tr_put_counter(p, &c->t, e->t);
	*p++ = ',';
	p = tr_put_counter(p, &c->seq, (int64_t)e->seq);
	*p++ = ',';
	p = tr_put_frag(p, tr_frag_of(&c->ev, e->ev));
	p = tr_put_ic(p, c->ints, e->g);
	p = tr_put_ic(p, c->ints, e->p);
	p = tr_put_ic(p, c->ints, e->m);
	p = cols_kind(p, c, e);
	p = tr_put_ic(p, c->ints, e->by_m);
	p = tr_put_ic(p, c->ints, e->by_p);
	return trace_record_end(c->o, buf, cols_tail(p, c, e, fn, ch));
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
	.open = csv_open, .event = csv_event, .close = csv_close, .release = csv_release,
};
