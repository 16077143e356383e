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
#include "mem.h"

/* The fingerprint: a 64-bit hash of the event stream, cheap enough to
 * run on every event with no sink at all.
 *
 * Each record is packed into 64-bit words and each word is folded into
 * the running hash h with one multiply:
 *
 *     h = rotl((h ^ w) * FP_K, 29)
 *
 * (the rotation brings the product's well-mixed high bits down, so the
 * next word's low bits meet them). What a record folds is the part of
 * it that earlier records do not already say. A G record, nearly every
 * event, is one word:
 *
 *     w = g << 32 | (p + 1) << 16 | reason << 8 | to << 4 | ev
 *
 * Its from and from_p are the G's previous record's to and p (only
 * move_g changes a G's place and P; a new G is new, on no P), and its m
 * is its P's M when it runs (the P and M records name that M) or the M
 * it last ran on when it enters a syscall; tests/test_determinism.c
 * checks all three on every built-in workload. The M, P and CPU state
 * records are two words:
 *
 *     w0 = (p + 1) << 16 | to << 8 | from << 4 | ev      w1 = g << 32 | m
 *
 * (g, m as 32-bit two's complement), and the rarer kinds (steal, spill,
 * handoff, preempt, sudog, region) three more: victim << 32 | n,
 * runnext << 32 | from_m, ran_us. The clock is folded as a word of its
 * own, (t << 4) | 0xf, before the first record of each instant (0xf is
 * no event kind, so a clock word never reads as a record's first word);
 * seq is a record's position, which the chain's order already covers.
 * So the hash covers schema 1 (t .. ran_us); the later fields (fn, obj,
 * wait, by_m, by_p, rule) follow from them. sim_summary reports
 * fp_final(h): murmur3's 64-bit finalizer over h and the number of
 * events. */
#define FP_K 0x9e3779b97f4a7c15ULL
#define FP_CLOCK 0xfULL

static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static inline uint64_t fp_mix(uint64_t h, uint64_t w) { return rotl((h ^ w) * FP_K, 29); }
static uint64_t pair(int32_t a, int32_t b) { return (uint64_t)(uint32_t)a << 32 | (uint32_t)b; }

_Static_assert(MAX_PROCS < 0xffff && PL__N <= 16 && R__N <= 256 && EV__N < 0xf,
	       "a P + 1, a place, a reason and a kind fit their fields of the first word");
/* A G record's word (p is a P or -1). */
static inline uint64_t fp_g_word(int to, int reason, int32_t p, int32_t goid)
{
	return (uint64_t)(uint32_t)goid << 32 | (uint64_t)(uint32_t)(p + 1) << 16 | (uint64_t)reason << 8 |
	       (uint64_t)to << 4 | EV_G;
}

/* Any other record's first word. */
static inline uint64_t fp_w0(int ev, int from, int to, int32_t p)
{
	return (uint64_t)(uint32_t)(p + 1) << 16 | (uint64_t)to << 8 | (uint64_t)from << 4 | (uint64_t)ev;
}

uint64_t sim_fp_final(uint64_t h, int64_t events)
{
	h ^= (uint64_t)events;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* The running hash, with the clock word folded first if the instant is
 * new: a record's words follow. */
static inline uint64_t fp_start(struct sim *s)
{
	uint64_t h = s->sum.fingerprint;
	if (s->now != s->fp_now) {
		s->fp_now = s->now;
		h = fp_mix(h, (uint64_t)s->now << 4 | FP_CLOCK);
	}
	return h;
}

/* A record folded into h: stored and counted. Returns 1 when the sink is
 * due a progress poll (every SIM_PROGRESS_EVENTS): the caller polls, off
 * its lean path. */
static inline int fp_end(struct sim *s, uint64_t h)
{
	s->sum.fingerprint = h;
	return (uint64_t)++s->sum.events % SIM_PROGRESS_EVENTS == 0;
}

/* A state record (M, P, CPU), or the first two words of a rarer one. */
static inline int fold2(struct sim *s, uint64_t w0, uint64_t w1) { return fp_end(s, fp_mix(fp_mix(fp_start(s), w0), w1)); }

/* The three more words of the rarer kinds. */
static inline void fold_more(struct sim *s, int32_t victim, int32_t n, int32_t runnext, int32_t from_m, int64_t ran_us)
{
	uint64_t h = s->sum.fingerprint;
	h = fp_mix(h, pair(victim, n));
	h = fp_mix(h, pair(runnext, from_m));
	s->sum.fingerprint = fp_mix(h, (uint64_t)ran_us);
}

/* --explain: the pending rule for e's kind, taken. */
static void take_rule(struct sim *s, struct sim_event *e)
{
	for (int i = 0; i < 2; i++)
		if (s->rule_pending[i].rule && s->rule_pending[i].ev == e->ev) {
			e->rule = s->rule_pending[i].rule;
			e->rule_n = s->rule_pending[i].n;
			s->rule_pending[i].rule = 0;
		}
}

/* The full record for the sink: t, seq, the acting M and P, a pending
 * --explain rule (only sim_rule sets one, and only with it). Returns -1
 * if the sink stops the run. */
static inline int deliver(struct sim *s, struct sim_event *e)
{
	int32_t mi = s->actor_m;
	e->t = s->now;
	e->seq = (uint64_t)s->sum.events - 1;
	e->by_m = mi;
	e->by_p = mi >= 0 ? s->allm[mi].p : -1;
	if (s->cfg.explain)
		take_rule(s, e);
	if (s->sink.event(s->sink.event_ctx, e) != 0) {
		if (s->status == SIM_RUNNING)
			s->status = SIM_ABORTED;
		return -1;
	}
	return 0;
}

static int is_state_record(int ev) { return ev == EV_M || ev == EV_P || ev == EV_CPU; }

int sim_emit(struct sim *s, struct sim_event *e)
{
	int poll;
	if (e->ev == EV_G) {
		poll = fp_end(s, fp_mix(fp_start(s), fp_g_word(e->to, e->reason, e->p, e->g)));
	} else {
		poll = fold2(s, fp_w0(e->ev, e->from, e->to, e->p), pair(e->g, e->m));
		if (!is_state_record(e->ev))
			fold_more(s, e->victim, e->n, e->runnext, e->from_m, e->ran_us);
	}
	if (poll)
		sim_poll(s);
	return s->sink.event ? deliver(s, e) : 0;
}

/* Lets the sink show progress or stop the run (see sim.h). */
void sim_poll(struct sim *s)
{
	if (s->sink.progress && s->sink.progress(s->sink.ctx, s) != 0 && s->status == SIM_RUNNING)
		s->status = SIM_ABORTED;
}

/* What a state or steal record does besides the fingerprint, when
 * anything is asked: a progress poll, the record for the sink. Out of
 * line, as move_g_slow. */
__attribute__((noinline)) static void emit_slow(struct sim *s, int poll, struct sim_event e)
{
	if (poll)
		sim_poll(s);
	if (s->sink.event)
		deliver(s, &e);
}

/* A state record: its two words folded, the record built only for a
 * sink. */
static inline void emit_state(struct sim *s, int ev, int32_t g, int32_t p, int32_t m, int from, int to)
{
	int poll = fold2(s, fp_w0(ev, from, to, p), pair(g, m));
	if (__builtin_expect(((uintptr_t)s->sink.event | (uintptr_t)poll) != 0, 0))
		emit_slow(s, poll, (struct sim_event){ .ev = (uint8_t)ev, .g = g, .p = p, .m = m,
						       .from = (uint8_t)from, .to = (uint8_t)to });
}

void sim_emit_steal(struct sim *s, int32_t pi, int32_t victim, int32_t n, int runnext, int rule)
{
	int32_t m = s->allp[pi].m;
	int poll = fold2(s, fp_w0(EV_STEAL, 0, 0, pi), pair(-1, m));
	fold_more(s, victim, n, runnext, 0, 0);
	if (__builtin_expect(((uintptr_t)s->sink.event | (uintptr_t)poll) != 0, 0))
		emit_slow(s, poll, (struct sim_event){ .ev = EV_STEAL, .g = -1, .p = pi, .m = m, .victim = victim,
						       .n = n, .runnext = runnext,
						       .rule = s->cfg.explain ? (uint8_t)rule : 0 });
}

void sim_emit_m(struct sim *s, int32_t mi, int from, int to)
{
	const struct m *mp = &s->allm[mi];
	emit_state(s, EV_M, goid(s, mp->curg), mp->p, mi, from, to);
}

void sim_emit_cpu(struct sim *s, int32_t mi, int from, int to)
{
	const struct m *mp = &s->allm[mi];
	int32_t actor = s->actor_m;
	s->actor_m = -1; /* the OS's scheduler acts, not an M's code */
	emit_state(s, EV_CPU, goid(s, mp->curg), mp->p, mi, from, to);
	s->actor_m = actor;
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
void sim_resetspinning_m(struct sim *s, int32_t mi)
{
	struct m *mp = &s->allm[mi];
	mp->state = MS_RUNNING;
	s->nmspinning--;
	sim_emit_m(s, mi, MS_SPINNING, MS_RUNNING);
	if (s->cfg.model == MODEL_RUNTIME)
		s->wakep_calls++; /* resetspinning -> wakep */
}

/* The places where a G has a P (g.p), as a bit set over enum sim_place. */
#define PL_ON_P (1u << PL_RUNNEXT | 1u << PL_LOCAL | 1u << PL_RUNNING)
static inline int place_in(unsigned set, int pl) { return (int)(set >> pl & 1); }

/* What a G's move does besides the fingerprint, when anything is asked:
 * --check's log, a progress poll, the EV_G record for the sink. Kept out
 * of line and called last, so the lean path saves no registers for it;
 * k packs from, reason, wait and poll (a byte each), so that every
 * argument is in a register. */
#define MOVE_K(from, reason, wait, poll) ((uint32_t)(from) | (uint32_t)(reason) << 8 | (uint32_t)(wait) << 16 | (uint32_t)(poll) << 24)
__attribute__((noinline)) static void move_g_slow(struct sim *s, int32_t gi, uint32_t k, int32_t from_p, int32_t obj)
{
	if (__builtin_expect((k >> 24) | (unsigned)s->cfg.check, 0)) {
		if (s->cfg.check)
			sim_check_touch(s, gi);
		if (k >> 24)
			sim_poll(s);
	}
	if (!s->sink.event)
		return;
	const struct g *gp = &s->allg[gi];
	int from = (uint8_t)k;
	struct sim_event *e = &s->gev; /* ev is EV_G; victim .. ran_us stay 0 */
	e->g = gp->goid;
	e->p = gp->p;
	e->m = g_m(s, gp);
	e->from = (uint8_t)from;
	e->to = gp->place;
	e->from_p = from_p;
	e->reason = (uint8_t)(k >> 8);
	e->fn = from == PL_NEW ? (int32_t)gp->fn : -1;
	e->obj = obj;
	e->wait = (uint8_t)(k >> 16);
	e->rule = 0; /* --explain's, if any, set by deliver */
	e->rule_n = 0;
	deliver(s, e);
}

static inline void move_g(struct sim *s, int32_t gi, int to, int32_t pi, int reason, int wait, int32_t obj)
{
	struct g *gp = &s->allg[gi];
	int from = gp->place;
	int32_t from_p = gp->p; /* -1 unless its place has a P (state.h) */
	int32_t p = place_in(PL_ON_P, to) ? pi : -1;
	gp->place = (uint8_t)to;
	gp->p = p;
	/* g_m after the move; the lean path: two words into the fingerprint,
	 * the record only for a sink */
	int poll = fp_end(s, fp_mix(fp_start(s), fp_g_word(to, reason, p, gp->goid)));
	if (__builtin_expect(poll, 0) || ((uintptr_t)s->sink.event | (uintptr_t)(unsigned)s->cfg.check) != 0)
		move_g_slow(s, gi, MOVE_K(from, reason, wait, poll), from_p, obj); /* poll: its own branch, no flag to build */
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
		struct g *a = cap > s->gcap ? sim_big_grow(s->allg, (size_t)s->gcap * sizeof *a, (size_t)cap * sizeof *a)
					    : NULL;
		if (!a)
			return sim_oom(s, "goroutines");
		s->allg = a;
		s->gcap = cap;
	}
	s->allg[s->ng].parkgen = 0;
	return s->ng++;
}

/* A side block of depth words (func.side): a freed one of that size,
 * else the pool's next. Returns its index, or -1 (SIM_NOMEM). */
static int32_t iters_get(struct sim *s, int32_t depth)
{
	int32_t b = s->iterfree[depth];
	if (b >= 0) {
		s->iterfree[depth] = s->iterpool[b];
		return b;
	}
	if (s->iterlen + depth > INT32_MAX)
		return sim_oom(s, "goroutines");
	if (s->iterlen + depth > s->itercap) {
		int64_t cap = s->itercap ? s->itercap * 2 : 1024;
		int32_t *a = sim_big_grow(s->iterpool, (size_t)s->itercap * sizeof *a, (size_t)cap * sizeof *a);
		if (!a)
			return sim_oom(s, "goroutines");
		s->iterpool = a;
		s->itercap = cap;
	}
	b = (int32_t)s->iterlen;
	s->iterlen += depth;
	return b;
}

void sim_iters_put(struct sim *s, int32_t block, int32_t depth)
{
	s->iterpool[block] = s->iterfree[depth];
	s->iterfree[depth] = block;
}

int sim_bad_input(struct sim *s, const char *msg)
{
	if (s->status != SIM_RUNNING)
		return -1;
	s->status = SIM_INPUT;
	snprintf(s->msg, sizeof s->msg, "%s", msg);
	return -1;
}

/* A function that names "NAME[#]": the new G's ordinal, refused past the
 * smallest array it names (func.inst_n). */
static int32_t next_ordinal(struct sim *s, uint32_t fn)
{
	const struct func *f = &s->prog->funcs[fn];
	int32_t k = s->fn_started[fn];
	if (k >= f->inst_n) {
		char msg[512];
		snprintf(msg, sizeof msg,
			 "%s: goroutine %lld, the %d%s started running %s, has no element: the array holds %d "
			 "(0..%d), at t=%lldus",
			 f->inst_where, (long long)s->sum.goroutines + 1, k + 1,
			 (k + 1) % 100 / 10 == 1 ? "th" : (k + 1) % 10 == 1 ? "st" : (k + 1) % 10 == 2 ? "nd" : (k + 1) % 10 == 3 ? "rd" : "th",
			 f->name, f->inst_n, f->inst_n - 1, (long long)s->now);
		return sim_bad_input(s, msg);
	}
	s->fn_started[fn] = k + 1;
	return k;
}

int32_t sim_newg(struct sim *s, uint32_t fn)
{
	if (s->sum.goroutines >= INT32_MAX) {
		sim_limit(s, "started", INT32_MAX, "goroutines");
		return -1;
	}
	const struct func *f = &s->prog->funcs[fn];
	int32_t side = f->side, block = 0, ord = 0;
	if (f->inst_n && (ord = next_ordinal(s, fn)) < 0)
		return ord;
	if (side) {
		if ((block = iters_get(s, side)) < 0)
			return block;
		if (side > f->max_depth) /* it draws: none yet (g_draws); or its ordinal's word, set next */
			*(uint32_t *)&s->iterpool[block + side - 1] = 0;
		if (f->inst_n)
			s->iterpool[block + f->max_depth] = ord;
	}
	int32_t gi = gfget(s);
	if (gi < 0) {
		if (side)
			sim_iters_put(s, block, side);
		return gi;
	}
	struct g *gp = &s->allg[gi];
	uint32_t parkgen = gp->parkgen; /* stale timers of the slot's last G must stay stale */
	*gp = (struct g){ .schedlink = -1, .p = -1, .place = PL_NEW, .fn = fn,
			  .param = PARAM_NONE, .parkgen = parkgen, .goid = (int32_t)(s->sum.goroutines + 1),
			  .iters = block };
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

#define SIM_CPL_NAME(K, name, phrase) name,

const char *sim_cpu_place_name(int i)
{
	static const char *const names[] = { SIM_CPU_PLACES(SIM_CPL_NAME) };
	return name_of(names, CPU_PLACE__N, i);
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

const char *sim_cpustate_name(int i)
{
	static const char *const names[] = { SIM_CPUSTATES(SIM_NAME) };
	return name_of(names, CPU__N, i);
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
					     "until", "interrupted", "panic", "hang" };
	return name_of(names, OUT__N, i);
}
