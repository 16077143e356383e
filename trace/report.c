/* report.c: the report's accumulators (see report.h); report_out.c
 * writes them out. */
#include "grow.h"
#include "report_impl.h"

#include <stdlib.h>
#include <string.h>

/* ---- a small int64 -> int64 hash map (open addressing) ------------- */

static uint64_t hash64(int64_t k)
{
	uint64_t x = (uint64_t)k * 0x9e3779b97f4a7c15ULL;
	return x ^ (x >> 29);
}

static int hmap_grow(struct hmap *h)
{
	size_t cap = h->cap ? h->cap * 2 : 16;
	struct hmap n = { calloc(cap, sizeof *n.keys), calloc(cap, sizeof *n.vals), calloc(cap, 1), cap, 0 };
	if (!n.keys || !n.vals || !n.used) {
		free(n.keys), free(n.vals), free(n.used);
		return -1;
	}
	for (size_t i = 0; i < h->cap; i++)
		if (h->used[i])
			*hmap_at(&n, h->keys[i]) = h->vals[i];
	hmap_free(h);
	*h = n;
	return 0;
}

int64_t *hmap_at(struct hmap *h, int64_t key)
{
	if ((h->n + 1) * 4 > h->cap * 3 && hmap_grow(h) != 0)
		return NULL;
	size_t i = hash64(key) & (h->cap - 1);
	while (h->used[i] && h->keys[i] != key)
		i = (i + 1) & (h->cap - 1);
	if (!h->used[i]) {
		h->used[i] = 1;
		h->keys[i] = key;
		h->vals[i] = 0;
		h->n++;
	}
	return &h->vals[i];
}

void hmap_free(struct hmap *h)
{
	free(h->keys);
	free(h->vals);
	free(h->used);
	*h = (struct hmap){ 0 };
}

/* ---- growable arrays ------------------------------------------------ */

#define GROW(arr, cap, need) grow_array((void **)&(arr), &(cap), (need), sizeof *(arr), 0)

/* ---- open waits: when each runnable interval still open began -------- */

/* Waits start at the current time, which never decreases, so (start,
 * count) pairs appended at the back stay sorted; the oldest open wait is
 * the first pair with a nonzero count. */
static int open_add(struct report *r, int64_t t)
{
	if (r->nopen > r->open_head && r->open[r->nopen - 1].t == t) {
		r->open[r->nopen - 1].n++;
		return 0;
	}
	if (r->open_head > 0 && r->open_head * 2 >= r->nopen) {
		memmove(r->open, r->open + r->open_head, (size_t)(r->nopen - r->open_head) * sizeof *r->open);
		r->nopen -= r->open_head;
		r->open_head = 0;
	}
	if (GROW(r->open, r->open_cap, r->nopen + 1))
		return -1;
	r->open[r->nopen++] = (struct open_wait){ t, 1 };
	return 0;
}

static void open_remove(struct report *r, int64_t t)
{
	int64_t lo = r->open_head, hi = r->nopen;
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (r->open[mid].t < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->nopen && r->open[lo].t == t)
		r->open[lo].n--;
	while (r->open_head < r->nopen && r->open[r->open_head].n == 0)
		r->open_head++;
}

/* Drops run segments that ended before the oldest open wait began. */
static void segs_trim(struct report *r)
{
	int64_t oldest = r->open_head < r->nopen ? r->open[r->open_head].t : INT64_MAX;
	while (r->seg_head < r->nseg && r->segs[r->seg_head].end <= oldest)
		r->seg_head++;
	if (r->seg_head == r->nseg) { /* nothing kept: start the log afresh */
		r->seg_head = r->nseg = 0;
		return;
	}
	if (r->seg_head > 4096 && r->seg_head * 2 >= r->nseg) {
		memmove(r->segs, r->segs + r->seg_head, (size_t)(r->nseg - r->seg_head) * sizeof *r->segs);
		r->nseg -= r->seg_head;
		r->seg_head = 0;
	}
}

/* ---- lifecycle ------------------------------------------------------ */

static char **copy_names(const char *const *names, int n)
{
	char **a = calloc((size_t)n + 1, sizeof *a);
	for (int i = 0; a && i < n; i++)
		if (!(a[i] = strdup(names && names[i] ? names[i] : "?")))
			return a; /* the caller sees the NULL */
	return a;
}

static int names_ok(char **a, int n)
{
	for (int i = 0; a && i < n; i++)
		if (!a[i])
			return 0;
	return a != NULL;
}

static void free_names(char **a, int n)
{
	for (int i = 0; a && i < n; i++)
		free(a[i]);
	free(a);
}

struct report *report_open(const struct trace_meta *tm, const struct report_opts *opts)
{
	struct report *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->meta = (struct report_meta){ .workload = strdup(tm->workload ? tm->workload : "?"), .procs = tm->procs,
					.seed = tm->cfg.seed, .sysmon_m = REPORT_SYSMON_M, .nfuncs = tm->nfuncs,
					.nchans = tm->nchans, .func_names = copy_names(tm->func_names, tm->nfuncs),
					.chan_names = copy_names(tm->chan_names, tm->nchans),
					.nregions = tm->nregions,
					.region_names = copy_names(tm->region_names, tm->nregions),
					.threshold_us = opts->threshold_us, .why_g = opts->why_g,
					.cpus = tm->cfg.cpus > 0 && tm->cfg.cpus < tm->procs };
	struct report_meta *meta = &r->meta;
	if (tm->config_json && !(meta->config_json = strdup(tm->config_json))) {
		report_free(r);
		return NULL;
	}
	r->keep_segs = meta->threshold_us > 0 || meta->why_g > 0;
	r->ps = calloc((size_t)meta->procs, sizeof *r->ps);
	r->lat_fn = calloc((size_t)meta->nfuncs + 1, sizeof *r->lat_fn);
	r->lat_region = calloc((size_t)meta->nregions + 1, sizeof *r->lat_region);
	r->regs_free = -1;
	if (!r->ps || !r->lat_fn || !r->lat_region || !meta->workload || !names_ok(meta->func_names, meta->nfuncs) ||
	    !names_ok(meta->chan_names, meta->nchans) || !names_ok(meta->region_names, meta->nregions)) {
		report_free(r);
		return NULL;
	}
	for (int i = 0; i < meta->procs; i++)
		r->ps[i] = (struct rp){ .cat = PK_IDLE, .status = PS_IDLE };
	return r;
}

void report_free(struct report *r)
{
	if (!r)
		return;
	hmap_free(&r->lat_all);
	for (int32_t i = 0; r->lat_fn && i <= r->meta.nfuncs; i++)
		hmap_free(&r->lat_fn[i]);
	free(r->lat_fn);
	for (int32_t i = 0; r->lat_region && i < r->meta.nregions; i++)
		hmap_free(&r->lat_region[i]);
	free(r->lat_region);
	free(r->regs);
	hmap_free(&r->key_ids);
	free(r->keys);
	free(r->gs);
	free(r->ms);
	free(r->ps);
	free(r->bnodes);
	free(r->open);
	free(r->segs);
	free(r->waits);
	free(r->ants);
	free(r->meta.workload);
	free(r->meta.config_json);
	free_names(r->meta.func_names, r->meta.nfuncs);
	free_names(r->meta.chan_names, r->meta.nchans);
	free_names(r->meta.region_names, r->meta.nregions);
	free(r);
}

/* ---- Ps ------------------------------------------------------------- */

static int p_category(const struct rp *pp)
{
	if (pp->status == PS_IDLE)
		return PK_IDLE;
	if (pp->status == PS_SYSCALL || pp->insys)
		return PK_SYSCALL;
	if (pp->curg > 0)
		return PK_BUSY;
	return pp->spinning ? PK_SPINNING : PK_SCHED;
}

static void p_recat(struct report *r, int32_t pi, int64_t t)
{
	if (pi < 0 || pi >= r->meta.procs)
		return;
	struct rp *pp = &r->ps[pi];
	int cat = p_category(pp);
	if (cat == pp->cat)
		return;
	pp->t[pp->cat] += t - pp->since;
	pp->since = t;
	pp->cat = (uint8_t)cat;
}

static void count_busy_ps(struct report *r)
{
	int n = 0;
	for (int i = 0; i < r->meta.procs; i++)
		n += r->ps[i].curg > 0;
	if (n > r->peak.busy_ps)
		r->peak.busy_ps = n;
}

/* ---- Ms ------------------------------------------------------------- */

static int m_category(const struct report *r, int32_t mi, int st)
{
	if (mi == r->meta.sysmon_m)
		return MK_SYSMON;
	if (r->ms[mi].cpuwait)
		return MK_CPUWAIT;
	switch (st) {
	case MS_RUNNING: return MK_RUNNING;
	case MS_SPINNING: return MK_SPINNING;
	case MS_SYSCALL: return MK_SYSCALL;
	case MS_IDLE: return MK_PARKED;
	default: return MK_STARTING;
	}
}

static void set_spinning(struct report *r, int32_t pi, int on, int64_t t)
{
	if (pi < 0 || pi >= r->meta.procs)
		return;
	r->ps[pi].spinning = (uint8_t)on;
	p_recat(r, pi, t);
}

static int on_m(struct report *r, const struct sim_event *e)
{
	if (e->m < 0)
		return 0;
	if (e->from == MS_NEW && e->to == MS_NEW) {
		if (GROW(r->ms, r->ms_cap, (int64_t)e->m + 1))
			return -1;
		if (e->m >= r->nm)
			r->nm = e->m + 1;
		r->ms[e->m] = (struct rm){ .since = e->t, .born = e->t, .state = MS_NEW, .p = -1 };
		r->cnt.threads_created++;
		if (r->nm > r->peak.threads)
			r->peak.threads = r->nm;
		return 0;
	}
	if (e->m >= r->nm)
		return 0;
	struct rm *mp = &r->ms[e->m];
	mp->t[m_category(r, e->m, mp->state)] += e->t - mp->since;
	mp->since = e->t;
	if (mp->state == MS_SPINNING)
		set_spinning(r, mp->p, 0, e->t);
	if (e->to == MS_SPINNING)
		set_spinning(r, e->p, 1, e->t);
	if (e->from == MS_SPINNING && e->to == MS_IDLE)
		r->cnt.futile_wakeups++;
	mp->state = e->to;
	mp->p = e->p;
	int insys = 0;
	for (int32_t i = 0; i < r->nm; i++)
		insys += r->ms[i].state == MS_SYSCALL;
	if (insys > r->peak.syscall_ms)
		r->peak.syscall_ms = insys;
	return 0;
}

static int charge(struct report *r, struct rg *gp, int64_t t);

/* An M starts or stops waiting for a CPU: its time, and its running G's,
 * go to cpuwait meanwhile. */
static int on_cpu(struct report *r, const struct sim_event *e)
{
	if (e->m < 0 || e->m >= r->nm)
		return 0;
	struct rm *mp = &r->ms[e->m];
	mp->t[m_category(r, e->m, mp->state)] += e->t - mp->since;
	mp->since = e->t;
	mp->cpuwait = e->to == CPU_WAIT;
	if (e->g < 1 || e->g > r->ng || r->gs[e->g - 1].place != PL_RUNNING)
		return 0;
	struct rg *gp = &r->gs[e->g - 1];
	if (charge(r, gp, e->t) != 0)
		return -1;
	gp->cpuwait = mp->cpuwait;
	return 0;
}

static void on_p(struct report *r, const struct sim_event *e)
{
	if (e->p < 0 || e->p >= r->meta.procs)
		return;
	struct rp *pp = &r->ps[e->p];
	pp->status = e->to;
	pp->insys = pp->taken = 0;
	if (e->from == PS_SYSCALL && e->to == PS_IDLE)
		r->cnt.retakes_idle++;
	if (e->from == PS_RUNNING && e->to == PS_IDLE && e->by_m == r->meta.sysmon_m) {
		r->cnt.retakes_idle++; /* Go 1.26's takeP; undone if a handoff follows */
		pp->taken = 1;
	}
	p_recat(r, e->p, e->t);
}

/* ---- Gs ------------------------------------------------------------- */

static int runnable(int pl) { return pl == PL_RUNNEXT || pl == PL_LOCAL || pl == PL_GLOBAL; }

static int time_kind(int pl)
{
	switch (pl) {
	case PL_RUNNING: return TK_RUNNING;
	case PL_RUNNEXT: return TK_RUNNEXT;
	case PL_LOCAL: return TK_LOCAL;
	case PL_GLOBAL: return TK_GLOBAL;
	case PL_SYSCALL: return TK_SYSCALL;
	default: return -1;
	}
}

/* The id of the (wait reason, object) pair, interned. */
static int32_t wait_key(struct report *r, int wait, int32_t obj)
{
	int64_t *id = hmap_at(&r->key_ids, (int64_t)wait << 32 | (uint32_t)obj);
	if (!id)
		return -1;
	if (*id == 0) {
		if (GROW(r->keys, r->keys_cap, r->nkeys + 1))
			return -1;
		r->keys[r->nkeys] = (struct wkey){ (uint8_t)wait, obj };
		*id = ++r->nkeys;
	}
	return (int32_t)(*id - 1);
}

static int add_blocked(struct report *r, struct rg *gp, int32_t key, int64_t us)
{
	for (int32_t i = gp->blocked; i >= 0; i = r->bnodes[i].next)
		if (r->bnodes[i].key == key) {
			r->bnodes[i].us += us;
			return 0;
		}
	if (GROW(r->bnodes, r->bnodes_cap, r->nbnodes + 1))
		return -1;
	r->bnodes[r->nbnodes] = (struct bnode){ .key = key, .next = gp->blocked, .us = us };
	gp->blocked = (int32_t)r->nbnodes++;
	return 0;
}

/* Charges the time since gp entered its place to that place. */
static int charge(struct report *r, struct rg *gp, int64_t t)
{
	int64_t dt = t - gp->since;
	gp->since = t;
	int k = gp->place == PL_RUNNING && gp->cpuwait ? TK_CPUWAIT : time_kind(gp->place);
	if (k >= 0)
		gp->t[k] += dt;
	else if (gp->place == PL_WAITING)
		return add_blocked(r, gp, gp->key, dt);
	return 0;
}

static int64_t *queue_len(struct report *r, int pl, int32_t p)
{
	if (pl == PL_GLOBAL)
		return &r->global_len;
	if ((pl != PL_RUNNEXT && pl != PL_LOCAL) || p < 0 || p >= r->meta.procs)
		return NULL;
	return pl == PL_RUNNEXT ? &r->ps[p].runnext_len : &r->ps[p].local_len;
}

/* Queue lengths follow the records; returns how many Gs were ahead of
 * this one in the queue it entered (0 for runnext: it runs next). */
static int64_t move_queues(struct report *r, const struct sim_event *e)
{
	int64_t *from = queue_len(r, e->from, e->from_p), *to = queue_len(r, e->to, e->p);
	if (from && *from > 0)
		(*from)--;
	int64_t ahead = to && e->to != PL_RUNNEXT ? *to : 0;
	if (to)
		(*to)++;
	if (r->global_len > r->peak.global)
		r->peak.global = r->global_len;
	if (e->to == PL_LOCAL && e->p >= 0 && e->p < r->meta.procs && r->ps[e->p].local_len > r->peak.local)
		r->peak.local = r->ps[e->p].local_len;
	return ahead;
}

static int latency_sample(struct report *r, const struct rg *gp, int64_t us)
{
	int32_t fn = gp->fn >= 0 && gp->fn < r->meta.nfuncs ? gp->fn : r->meta.nfuncs;
	int64_t *a = hmap_at(&r->lat_all, us), *b = hmap_at(&r->lat_fn[fn], us);
	if (!a || !b)
		return -1;
	(*a)++;
	(*b)++;
	return 0;
}

static void wait_begin(struct report *r, struct rg *gp, const struct sim_event *e, int64_t ahead)
{
	gp->wait_start = e->t;
	gp->entry_place = e->to;
	gp->entry_p = (int16_t)e->p;
	gp->entry_reason = e->reason;
	gp->entry_ahead = ahead > INT32_MAX ? INT32_MAX : (int32_t)ahead;
	gp->moves = 0;
	for (int i = 0; i < 3; i++)
		gp->snap[i] = gp->t[TK_RUNNEXT + i];
	r->nrunnable++;
	if (r->nrunnable > r->peak.runnable)
		r->peak.runnable = r->nrunnable;
}

static int wait_end(struct report *r, struct rg *gp, const struct sim_event *e)
{
	int64_t us = e->t - gp->wait_start;
	r->nrunnable--;
	if (e->to == PL_RUNNING && latency_sample(r, gp, us) != 0)
		return -1;
	int rc = 0;
	if (r->keep_segs) {
		int over = r->meta.threshold_us > 0 && us > r->meta.threshold_us;
		int why = e->g == r->meta.why_g;
		if (over || why)
			rc = report_list_wait(r, gp, e, over, why);
		open_remove(r, gp->wait_start);
		segs_trim(r);
	}
	gp->wait_start = -1;
	return rc;
}

static int run_segment(struct report *r, const struct sim_event *e)
{
	if (e->from == PL_RUNNING && e->from_p >= 0 && e->from_p < r->meta.procs) {
		struct rp *pp = &r->ps[e->from_p];
		if (r->keep_segs && e->t > pp->seg_start) {
			if (GROW(r->segs, r->seg_cap, r->nseg + 1))
				return -1;
			r->segs[r->nseg++] = (struct seg){ e->from_p, e->g, pp->seg_start, e->t };
		}
		pp->curg = 0;
		pp->insys = e->to == PL_SYSCALL; /* Go 1.26 emits no P record: the P stays running */
		p_recat(r, e->from_p, e->t);
	}
	if (e->to == PL_RUNNING && e->p >= 0 && e->p < r->meta.procs) {
		r->ps[e->p].curg = e->g;
		r->ps[e->p].insys = 0;
		r->ps[e->p].seg_start = e->t;
		p_recat(r, e->p, e->t);
		count_busy_ps(r);
	}
	return 0;
}

static void count_g(struct report *r, const struct sim_event *e)
{
	switch (e->reason) {
	case R_SPILL: r->cnt.spilled += e->to == PL_GLOBAL; break;
	case R_GOSCHED: r->cnt.yields += e->from == PL_RUNNING; break;
	case R_GLOBRUNQ: r->cnt.global_to_local += e->from == PL_GLOBAL; break;
	}
	if (e->from == PL_GLOBAL && e->to == PL_RUNNING)
		r->cnt.global_gets++;
}

static struct rg *g_new(struct report *r, const struct sim_event *e)
{
	int64_t gi = (int64_t)e->g - 1;
	if (GROW(r->gs, r->gs_cap, gi + 1))
		return NULL;
	if (gi >= r->ng)
		r->ng = gi + 1;
	struct rg *gp = &r->gs[gi];
	*gp = (struct rg){ .since = e->t, .born = e->t, .died = -1, .wait_start = -1, .fn = e->fn,
			   .blocked = -1, .key = -1, .place = PL_NEW, .entry_p = -1, .region = -1 };
	if (++r->nlive > r->peak.live)
		r->peak.live = r->nlive;
	return gp;
}

static int on_g(struct report *r, const struct sim_event *e)
{
	if (e->g < 1)
		return 0;
	struct rg *gp = e->from == PL_NEW ? g_new(r, e) : e->g <= r->ng ? &r->gs[e->g - 1] : NULL;
	if (!gp)
		return e->from == PL_NEW ? -1 : 0;
	if (charge(r, gp, e->t) != 0)
		return -1;
	int64_t ahead = move_queues(r, e);
	if (run_segment(r, e) != 0)
		return -1;
	count_g(r, e);
	int was = runnable(e->from), now = runnable(e->to);
	if (!was && now) {
		wait_begin(r, gp, e, ahead);
		if (r->keep_segs && open_add(r, e->t) != 0)
			return -1;
	} else if (was && now) {
		gp->moves++;
	} else if (was && wait_end(r, gp, e) != 0) {
		return -1;
	} else if (e->from == PL_WAITING && e->to == PL_RUNNING && latency_sample(r, gp, 0) != 0) {
		/* findRunnable's netpoll runs a G it woke at once: one record
		 * here, but the runtime makes it _Grunnable first (proc.go
		 * findRunnable: casgstatus(gp, _Gwaiting, _Grunnable), a
		 * GoUnblock in its trace) and counts that interval in
		 * /sched/latencies, as go tool trace does: a sample of 0. */
		return -1;
	}
	if (e->to == PL_WAITING && (gp->key = wait_key(r, e->wait, e->obj)) < 0)
		return -1;
	if (e->to == PL_DEAD) {
		gp->died = e->t;
		r->nlive--;
	}
	gp->place = e->to;
	gp->cpuwait = e->to == PL_RUNNING && e->m >= 0 && e->m < r->nm && r->ms[e->m].cpuwait;
	return 0;
}

/* A region record (runtime/trace's WithRegion): n 1 enters region obj,
 * n 0 leaves the G's innermost one; the time between is one sample of
 * that region's latency. */
static int on_region(struct report *r, const struct sim_event *e)
{
	if (e->g < 1 || e->g > r->ng || e->obj < 0 || e->obj >= r->meta.nregions)
		return 0;
	struct rg *gp = &r->gs[e->g - 1];
	if (e->n) {
		int32_t i = r->regs_free;
		if (i >= 0) {
			r->regs_free = r->regs[i].prev;
		} else {
			if (GROW(r->regs, r->regs_cap, r->nregs + 1))
				return -1;
			i = (int32_t)r->nregs++;
		}
		r->regs[i] = (struct open_region){ e->t, e->obj, gp->region };
		gp->region = i;
		return 0;
	}
	int32_t i = gp->region;
	if (i < 0)
		return 0;
	int64_t *c = hmap_at(&r->lat_region[r->regs[i].obj], e->t - r->regs[i].t);
	if (!c)
		return -1;
	(*c)++;
	gp->region = r->regs[i].prev;
	r->regs[i].prev = r->regs_free;
	r->regs_free = i;
	return 0;
}

int report_event(struct report *r, const struct sim_event *e)
{
	if (e->t > r->end)
		r->end = e->t;
	r->cnt.events++;
	switch (e->ev) {
	case EV_G: return on_g(r, e);
	case EV_M: return on_m(r, e);
	case EV_P: on_p(r, e); return 0;
	case EV_STEAL:
		r->cnt.steals++;
		r->cnt.stolen += e->n;
		r->cnt.runnext_steals += e->runnext != 0;
		return 0;
	case EV_SPILL: r->cnt.spills++; return 0;
	case EV_HANDOFF:
		r->cnt.handoffs++;
		if (e->p >= 0 && e->p < r->meta.procs && r->ps[e->p].taken) { /* takeP + startm: a handoff */
			r->cnt.retakes_idle--;
			r->ps[e->p].taken = 0;
		}
		return 0;
	case EV_PREEMPT: r->cnt.preempt_slice++; return 0;
	case EV_REGION: return on_region(r, e);
	case EV_CPU: return on_cpu(r, e);
	}
	return 0;
}

void report_finish(struct report *r, int64_t end_us)
{
	if (end_us > r->end)
		r->end = end_us;
	int64_t t = r->end;
	for (int64_t i = 0; i < r->ng; i++) {
		struct rg *gp = &r->gs[i];
		if (gp->died < 0 && charge(r, gp, t) != 0)
			r->oom = 1;
	}
	for (int i = 0; i < r->meta.procs; i++) {
		r->ps[i].t[r->ps[i].cat] += t - r->ps[i].since;
		r->ps[i].since = t;
	}
	for (int32_t i = 0; i < r->nm; i++) {
		struct rm *mp = &r->ms[i];
		mp->t[m_category(r, i, mp->state)] += t - mp->since;
		mp->since = t;
	}
	r->finished = 1;
}
