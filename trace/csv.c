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
	/* each name with its comma, for the columns ev, from/to and reason */
	struct tr_frag ev[EV__N], place[PL__N], mstate[MS__N], pstate[PS__N], cpustate[CPU__N], reason[R__N];
	struct tr_counter t, seq; /* the last record's */
};

static int frags(struct tr_frag *f, int n, const char *(*name)(int))
{
	for (int i = 0; i < n; i++)
		if (tr_frag_set(&f[i], name(i), ",") != 0)
			return -1;
	return 0;
}

static int csv_frags(struct csv_state *c)
{
	return frags(c->ev, EV__N, sim_ev_name) | frags(c->place, PL__N, sim_place_name) |
	       frags(c->mstate, MS__N, sim_mstate_name) | frags(c->pstate, PS__N, sim_pstate_name) |
	       frags(c->cpustate, CPU__N, sim_cpustate_name) |
	       frags(c->reason, R__N, sim_reason_name);
}

static void *csv_open(struct trace_out *o, const struct trace_meta *m)
{
	struct csv_state *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->o = o;
	c->t = c->seq = (struct tr_counter)TR_COUNTER_INIT;
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

static char *col_i(char *p, int have, int64_t v)
{
	p = tr_put_i(p, have ? v : -1);
	*p++ = ',';
	return p;
}

static char *col_s(char *p, int have, const char *v)
{
	p = have ? tr_put_s(p, v) : p;
	*p++ = ',';
	return p;
}

/* A state column: the name of v in the record's kind, or empty. */
static char *col_state(char *p, const struct csv_state *c, const struct sim_event *e, int v)
{
	const struct tr_frag *f = e->ev == EV_G ? c->place
				  : e->ev == EV_M ? c->mstate
				  : e->ev == EV_CPU ? c->cpustate
						    : c->pstate;
	int n = e->ev == EV_G ? PL__N : e->ev == EV_M ? MS__N : e->ev == EV_CPU ? CPU__N : PS__N;
	if (v >= 0 && v < n)
		return tr_put_frag(p, &f[v]);
	return col_s(p, 1, trace_state_name(e, v));
}

static char *col_frag(char *p, const struct tr_frag *f, int n, int v, const char *(*name)(int))
{
	return v >= 0 && v < n ? tr_put_frag(p, &f[v]) : col_s(p, 1, name(v));
}

/* The fixed columns, t .. wait, each followed by its comma. */
static int event_csv(char *buf, struct csv_state *c, const struct sim_event *e)
{
	int g = e->ev == EV_G, state = g || e->ev == EV_M || e->ev == EV_P || e->ev == EV_CPU;
	int steal = e->ev == EV_STEAL;
	char *p = tr_put_counter(buf, &c->t, e->t);
	*p++ = ',';
	p = tr_put_counter(p, &c->seq, (int64_t)e->seq);
	*p++ = ',';
	p = col_frag(p, c->ev, EV__N, e->ev, sim_ev_name);
	p = col_i(p, 1, e->g);
	p = col_i(p, 1, e->p);
	p = col_i(p, 1, e->m);
	p = state ? col_state(p, c, e, e->from) : col_s(p, 0, "");
	p = state ? col_state(p, c, e, e->to) : col_s(p, 0, "");
	p = col_i(p, g, e->from_p);
	p = g ? col_frag(p, c->reason, R__N, e->reason, sim_reason_name) : col_s(p, 0, "");
	p = col_i(p, steal, e->victim);
	p = col_i(p, steal || e->ev == EV_SPILL || e->ev == EV_SUDOG || e->ev == EV_REGION, e->n);
	p = col_i(p, steal, e->runnext);
	p = col_i(p, e->ev == EV_HANDOFF, e->from_m);
	p = col_i(p, e->ev == EV_PREEMPT, e->ran_us);
	p = col_i(p, 1, e->by_m);
	p = col_i(p, 1, e->by_p);
	return (int)(p - buf);
}

static int csv_event(void *st, const struct sim_event *e)
{
	struct csv_state *c = st;
	char *buf = trace_out_reserve(c->o, TRACE_MAX_RECORD + TRACE_FRAG_SLACK); /* formatted in place */
	int n = event_csv(buf, c, e);
	const char *fn = trace_record_fn(&c->names, e, 1), *ch = trace_record_chan(&c->names, e, 1);
	const char *wait = (e->ev == EV_G || e->ev == EV_SUDOG) && e->wait ? sim_waitreason_name(e->wait) : "";
	if (!fn && !ch && !*wait && !c->explain) {
		buf[n++] = ',';
		buf[n++] = ',';
		buf[n++] = '\n';
		return trace_out_commit(c->o, buf + n);
	}
	trace_out_commit(c->o, buf + n);
	trace_out_puts(c->o, fn ? fn : "");
	trace_out_put(c->o, ",", 1);
	trace_out_puts(c->o, wait);
	trace_out_put(c->o, ",", 1);
	trace_out_puts(c->o, ch ? ch : "");
	if (c->explain) { /* --explain */
		char tail[32];
		trace_out_puts(c->o, e->rule ? ",\"" : ",");
		trace_out_puts(c->o, e->rule ? sim_rule_name(e->rule) : "");
		trace_out_puts(c->o, e->rule ? "\"," : ",");
		trace_out_put(c->o, tail, (size_t)(tr_put_i(tail, e->rule_n) - tail));
	}
	return trace_out_put(c->o, "\n", 1);
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
