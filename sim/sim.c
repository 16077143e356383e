/* sim.c: the core services every module uses: trace emission (and the
 * fingerprint), moving a G between places, creating a G, the error
 * records, and the names of the model's tables. It calls no other module:
 * the layers above it (runq, proc, park, the ops, exec, sched, sysmon,
 * driver) point down to it, never the other way. */
#include "sim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"

/* The fingerprint: a 64-bit hash of the stream. Each record's fields,
 * packed into eight words, are multiplied by odd constants and rotated
 * independently (so the CPU overlaps them), summed, and folded into the
 * running hash with one multiply-rotate round (as in xxHash). */
static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static uint64_t mix(uint64_t h, uint64_t w)
{
	h ^= w * 0x9e3779b97f4a7c15ULL;
	return rotl(h, 31) * 0xc2b2ae3d27d4eb4fULL;
}

static uint64_t pair(int32_t a, int32_t b) { return (uint64_t)(uint32_t)a << 32 | (uint32_t)b; }

static uint64_t digest(const struct sim_event *e)
{
	return rotl((uint64_t)e->t * 0xff51afd7ed558ccdULL, 7) +
	       rotl(e->seq * 0xc4ceb9fe1a85ec53ULL, 13) +
	       rotl(((uint64_t)e->ev << 24 | (uint64_t)e->from << 16 | (uint64_t)e->to << 8 | e->reason) *
			    0x87c37b91114253d5ULL, 19) +
	       rotl(pair(e->g, e->p) * 0x4cf5ad432745937fULL, 23) +
	       rotl(pair(e->m, e->from_p) * 0x52dce729da3ed4b5ULL, 29) +
	       rotl(pair(e->victim, e->n) * 0x9e3779b97f4a7c15ULL, 37) +
	       rotl(pair(e->runnext, e->from_m) * 0xd6e8feb86659fd93ULL, 41) +
	       rotl((uint64_t)e->ran_us * 0xa0761d6478bd642fULL, 47);
}

int sim_emit(struct sim *s, struct sim_event *e)
{
	e->t = s->now;
	e->seq = s->seq++;
	e->by_m = s->actor_m;
	e->by_p = s->actor_m >= 0 ? s->allm[s->actor_m].p : -1;
	for (int i = 0; i < 2; i++)
		if (s->rule_pending[i].rule && s->rule_pending[i].ev == e->ev) {
			e->rule = s->rule_pending[i].rule;
			e->rule_n = s->rule_pending[i].n;
			s->rule_pending[i].rule = 0;
		}
	s->sum.fingerprint = mix(s->sum.fingerprint, digest(e));
	s->sum.events++;
	if (s->sum.events % SIM_PROGRESS_EVENTS == 0)
		sim_poll(s);
	if (s->sink.event && s->sink.event(s->sink.ctx, e) != 0) {
		if (s->status == SIM_RUNNING)
			s->status = SIM_ABORTED;
		return -1;
	}
	return 0;
}

/* Lets the sink show progress or stop the run (see sim.h). */
void sim_poll(struct sim *s)
{
	if (s->sink.progress && s->sink.progress(s->sink.ctx, s) != 0 && s->status == SIM_RUNNING)
		s->status = SIM_ABORTED;
}

static void emit_state(struct sim *s, int ev, int32_t g, int32_t p, int32_t m, int from, int to)
{
	struct sim_event e = { .ev = (uint8_t)ev, .g = g, .p = p, .m = m,
			       .from = (uint8_t)from, .to = (uint8_t)to };
	sim_emit(s, &e);
}

void sim_emit_m(struct sim *s, int32_t mi, int from, int to)
{
	const struct m *mp = &s->allm[mi];
	emit_state(s, EV_M, goid(s, mp->curg), mp->p, mi, from, to);
}

void sim_emit_p(struct sim *s, int32_t pi, int from, int to)
{
	const struct p *pp = &s->allp[pi];
	int32_t g = pp->m >= 0 ? goid(s, s->allm[pp->m].curg) : -1;
	emit_state(s, EV_P, g, pi, pp->m, from, to);
}

/* resetspinning: a spinning M found work and runs. A thief does this as
 * it takes its victim's Gs (runq_steal), so that the steal's G records
 * follow the steal record without an M record among them.
 * Simplification: the runtime resets spinning after findRunnable returns;
 * the state after the steal is the same. */
void sim_resetspinning(struct sim *s, int32_t mi)
{
	if (mi < 0)
		return; /* a P without an M: only in tests' hand-built states */
	struct m *mp = &s->allm[mi];
	if (mp->state != MS_SPINNING)
		return;
	mp->state = MS_RUNNING;
	s->nmspinning--;
	sim_emit_m(s, mi, MS_SPINNING, MS_RUNNING);
}

static int queued_place(int pl) { return pl == PL_RUNNEXT || pl == PL_LOCAL; }

static void move_g(struct sim *s, int32_t gi, int to, int32_t pi, int reason, int wait, int32_t obj)
{
	struct g *gp = &s->allg[gi];
	int from = gp->place;
	int32_t from_p = (queued_place(from) || from == PL_RUNNING) ? gp->p : -1;
	s->nqueued += queued_place(to) - queued_place(from);
	gp->place = (uint8_t)to;
	gp->p = (queued_place(to) || to == PL_RUNNING) ? pi : -1;
	if (to == PL_RUNNING) /* its status follows from its place: g_status */
		gp->m = s->allp[pi].m;
	else if (to != PL_SYSCALL)
		gp->m = -1;
	struct sim_event e = { .ev = EV_G, .g = goid(s, gi), .p = gp->p, .m = gp->m,
			       .from = (uint8_t)from, .to = (uint8_t)to,
			       .from_p = from_p, .reason = (uint8_t)reason,
			       .fn = from == PL_NEW ? (int32_t)gp->fn : -1, .obj = obj, .wait = (uint8_t)wait };
	sim_emit(s, &e);
}

void sim_move_g(struct sim *s, int32_t gi, int to, int32_t pi, int reason)
{
	move_g(s, gi, to, pi, reason, WR_NONE, -1);
}

void sim_move_g_waiting(struct sim *s, int32_t gi, int reason, int wait, int32_t obj)
{
	s->allg[gi].waitreason = (uint8_t)wait;
	move_g(s, gi, PL_WAITING, -1, reason, wait, obj);
}

void sim_die(struct sim *s, int outcome, const char *msg)
{
	if (s->status != SIM_RUNNING)
		return;
	s->status = SIM_DIED;
	s->sum.outcome = (uint8_t)outcome;
	snprintf(s->msg, sizeof s->msg, "%s", msg);
}

void sim_crash(struct sim *s, int32_t gi, const char *kind, const char *what)
{
	char msg[sizeof s->msg];
	snprintf(msg, sizeof msg, "%s: %s\n\ngoroutine %d [running]:\nmain.%s()", kind, what, goid(s, gi),
		 s->prog->funcs[s->allg[gi].fn].name);
	sim_die(s, OUT_PANIC, msg);
}

void sim_broken(struct sim *s, const char *fmt, ...)
{
	if (s->status == SIM_BROKEN)
		return;
	s->status = SIM_BROKEN;
	s->sum.outcome = OUT_BROKEN;
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(s->msg, sizeof s->msg, "invariant violated at t=%lldus: ", (long long)s->now);
	vsnprintf(s->msg + n, sizeof s->msg - (size_t)n, fmt, ap);
	va_end(ap);
}

void sim_limit(struct sim *s, const char *did, int64_t limit, const char *what)
{
	if (s->status != SIM_RUNNING)
		return;
	s->status = SIM_LIMIT;
	snprintf(s->msg, sizeof s->msg, "the program %s more than %lld %s by t=%lldus", did, (long long)limit, what,
		 (long long)s->now);
}

int sim_oom(struct sim *s, const char *what)
{
	if (s->status == SIM_BROKEN || s->status == SIM_NOMEM)
		return -1;
	s->status = SIM_NOMEM;
	snprintf(s->msg, sizeof s->msg, "out of memory for %s at t=%lldus", what, (long long)s->now);
	return -1;
}

/* A slot for a new G: a dead G's (gfget, proc.go: newproc1 reuses a dead
 * G before allocating one), else the next one of allg.
 * Simplification: one LIFO list of dead Gs, not a per-P gFree spilling to
 * sched.gFree; only scheddetail's G lines (allgs order) could tell. */
static int32_t gfget(struct sim *s)
{
	if (s->gfree >= 0) {
		int32_t gi = s->gfree;
		s->gfree = s->allg[gi].schedlink;
		return gi;
	}
	if (s->ng == s->gcap) {
		int32_t cap = s->gcap ? (s->gcap > INT32_MAX / 2 ? INT32_MAX : s->gcap * 2) : 64;
		struct g *a = cap > s->gcap ? realloc(s->allg, (size_t)cap * sizeof *a) : NULL;
		if (!a)
			return sim_oom(s, "goroutines");
		s->allg = a;
		s->gcap = cap;
	}
	s->allg[s->ng].parkgen = 0;
	return s->ng++;
}

int32_t sim_newg(struct sim *s, uint32_t fn)
{
	if (s->sum.goroutines >= INT32_MAX) {
		sim_limit(s, "started", INT32_MAX, "goroutines");
		return -1;
	}
	int32_t depth = s->prog->funcs[fn].max_depth;
	int64_t *many = NULL;
	if (depth > 1 && !(many = calloc((size_t)depth, sizeof *many)))
		return sim_oom(s, "goroutines");
	int32_t gi = gfget(s);
	if (gi < 0) {
		free(many);
		return gi;
	}
	struct g *gp = &s->allg[gi];
	uint32_t parkgen = gp->parkgen; /* stale timers of the slot's last G must stay stale */
	*gp = (struct g){ .schedlink = -1, .p = -1, .m = -1, .place = PL_NEW, .fn = fn,
			  .param = PARAM_NONE, .parkgen = parkgen, .goid = (int32_t)(s->sum.goroutines + 1),
			  .since = -1 };
	if (depth > 1)
		gp->iters.many = many;
	s->nlive++;
	s->sum.goroutines++;
	if (s->cfg.max_goroutines > 0 && s->sum.goroutines > s->cfg.max_goroutines)
		sim_limit(s, "started", s->cfg.max_goroutines, "goroutines");
	return gi;
}

static const char *name_of(const char *const *names, int n, int i)
{
	return i >= 0 && i < n ? names[i] : "?";
}

#define SIM_NAME(K, name) name,

const char *sim_place_name(int i)
{
	static const char *const names[] = { SIM_PLACES(SIM_NAME) };
	return name_of(names, PL__N, i);
}

const char *sim_reason_name(int i)
{
	static const char *const names[] = { SIM_REASONS(SIM_NAME) };
	return name_of(names, R__N, i);
}

const char *sim_mstate_name(int i)
{
	static const char *const names[] = { SIM_MSTATES(SIM_NAME) };
	return name_of(names, MS__N, i);
}

const char *sim_pstate_name(int i)
{
	static const char *const names[] = { SIM_PSTATES(SIM_NAME) };
	return name_of(names, PS__N, i);
}

const char *sim_ev_name(int i)
{
	static const char *const names[] = { SIM_EVENTS(SIM_NAME) };
	return name_of(names, EV__N, i);
}

const char *sim_waitreason_name(int i)
{
	static const char *const names[] = { SIM_WAITREASONS(SIM_NAME) };
	return name_of(names, WR__N, i);
}

const char *sim_rule_name(int i)
{
	static const char *const names[] = { SIM_RULES(SIM_NAME) };
	return name_of(names, RULE__N, i);
}

const char *sim_outcome_name(int i)
{
	static const char *const names[] = { "running", "done", "deadlock", "thread-limit", "broken",
					     "until", "interrupted", "panic" };
	return name_of(names, OUT__N, i);
}
