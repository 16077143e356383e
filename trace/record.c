/* record.c: one gosim record as a JSON object, shared by the json and
 * jsonl back ends (docs/trace-format.md lists the fields). */
#include <string.h>

#include "backend.h"

const char *trace_state_name(const struct sim_event *e, int v)
{
	if (e->ev == EV_G)
		return sim_place_name(v);
	return e->ev == EV_M ? sim_mstate_name(v) : sim_pstate_name(v);
}

static char *put_kv_i(char *p, const char *key, int64_t v) { return tr_put_i(tr_put_s(p, key), v); }

static char *put_kv_s(char *p, const char *key, const char *v)
{
	p = tr_put_s(tr_put_s(p, key), v);
	*p++ = '"';
	return p;
}

int trace_event_json(char *buf, size_t len, const struct sim_event *e)
{
	if (len < TRACE_MAX_RECORD)
		return -1;
	char *p = put_kv_i(buf, "{\"t\":", e->t);
	p = put_kv_i(p, ",\"seq\":", (int64_t)e->seq);
	p = put_kv_s(p, ",\"ev\":\"", sim_ev_name(e->ev));
	p = put_kv_i(p, ",\"g\":", e->g);
	p = put_kv_i(p, ",\"p\":", e->p);
	p = put_kv_i(p, ",\"m\":", e->m);
	switch (e->ev) {
	case EV_G:
		p = put_kv_s(p, ",\"from\":\"", sim_place_name(e->from));
		p = put_kv_s(p, ",\"to\":\"", sim_place_name(e->to));
		p = put_kv_i(p, ",\"from_p\":", e->from_p);
		p = put_kv_s(p, ",\"reason\":\"", sim_reason_name(e->reason));
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
	default:
		p = put_kv_s(p, ",\"from\":\"", trace_state_name(e, e->from));
		p = put_kv_s(p, ",\"to\":\"", trace_state_name(e, e->to));
	}
	*p++ = '}';
	return (int)(p - buf);
}
