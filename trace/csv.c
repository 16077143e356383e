/* csv.c: the csv back end: a fixed header, then one record per line
 * (docs/trace-format.md). */
#include "backend.h"

static const char csv_header[] = "t,seq,ev,g,p,m,from,to,from_p,reason,victim,n,runnext,from_m,ran_us\n";

static void *csv_open(struct trace_out *o, const struct trace_meta *m)
{
	(void)m;
	trace_out_put(o, csv_header, sizeof csv_header - 1);
	return o;
}

/* t,seq,ev,g,p,m,from,to,from_p,reason,victim,n,runnext,from_m,ran_us */
static int event_csv(char *buf, const struct sim_event *e)
{
	char *p = tr_put_i(buf, e->t);
	*p++ = ',';
	p = tr_put_i(p, (int64_t)e->seq);
	*p++ = ',';
	p = tr_put_s(p, sim_ev_name(e->ev));
	*p++ = ',';
	p = tr_put_i(p, e->g);
	*p++ = ',';
	p = tr_put_i(p, e->p);
	*p++ = ',';
	p = tr_put_i(p, e->m);
	*p++ = ',';
	int state = e->ev == EV_G || e->ev == EV_M || e->ev == EV_P;
	if (state)
		p = tr_put_s(p, trace_state_name(e, e->from));
	*p++ = ',';
	if (state)
		p = tr_put_s(p, trace_state_name(e, e->to));
	*p++ = ',';
	if (e->ev == EV_G)
		p = tr_put_s(tr_put_i(p, e->from_p), ",");
	else
		*p++ = ',';
	if (e->ev == EV_G)
		p = tr_put_s(p, sim_reason_name(e->reason));
	*p++ = ',';
	if (e->ev == EV_STEAL)
		p = tr_put_i(p, e->victim);
	*p++ = ',';
	if (e->ev == EV_STEAL || e->ev == EV_SPILL)
		p = tr_put_i(p, e->n);
	*p++ = ',';
	if (e->ev == EV_STEAL)
		p = tr_put_i(p, e->runnext);
	*p++ = ',';
	if (e->ev == EV_HANDOFF)
		p = tr_put_i(p, e->from_m);
	*p++ = ',';
	if (e->ev == EV_PREEMPT)
		p = tr_put_i(p, e->ran_us);
	*p++ = '\n';
	return (int)(p - buf);
}

static int csv_event(void *st, const struct sim_event *e)
{
	char buf[TRACE_MAX_RECORD];
	return trace_out_put(st, buf, (size_t)event_csv(buf, e));
}

static int csv_close(void *st, const struct sim_summary *sum)
{
	(void)st;
	(void)sum;
	return 0;
}

static void csv_release(void *st) { (void)st; }

static const char *const csv_suffixes[] = { ".csv", NULL };

const struct trace_ops trace_csv_ops = {
	.name = "csv", .suffixes = csv_suffixes,
	.open = csv_open, .event = csv_event, .close = csv_close, .release = csv_release,
};
