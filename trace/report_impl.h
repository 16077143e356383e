/* report_impl.h: the report's state, shared by report.c (accumulating
 * from the records), report_wait.c (listing long waits and who ran
 * meanwhile) and report_out.c (text, JSON, CSV). Not for other modules. */
#ifndef GOSIM_REPORT_IMPL_H
#define GOSIM_REPORT_IMPL_H

#include "report.h"

/* Where a G's time goes, besides blocked (per wait key). cpuwait: running
 * in the scheduler's view, but its M waits for a CPU (--cpus, EV_CPU). */
enum tk { TK_RUNNING, TK_RUNNEXT, TK_LOCAL, TK_GLOBAL, TK_SYSCALL, TK_CPUWAIT, TK__N };
/* A P's time: a G runs on it, its M spins, idle, held by an M in a
 * syscall, owned by an M between goroutines. */
enum pk { PK_BUSY, PK_SPINNING, PK_IDLE, PK_SYSCALL, PK_SCHED, PK__N };
/* An M's time, from the M records' states (sysmon apart); cpuwait: it
 * waits for a CPU (EV_CPU), whatever its M state. */
enum mk { MK_RUNNING, MK_SPINNING, MK_SYSCALL, MK_PARKED, MK_STARTING, MK_SYSMON, MK_CPUWAIT, MK__N };

struct hmap {
	int64_t *keys, *vals;
	uint8_t *used;
	size_t cap, n;
};
/* The value slot of key (inserted as 0), or NULL when out of memory. */
int64_t *hmap_at(struct hmap *h, int64_t key);
void hmap_free(struct hmap *h);

struct wkey {
	uint8_t wait;
	int32_t obj;
};

/* A G's blocked time under one wait key: a singly linked list per G. */
struct bnode {
	int32_t key, next;
	int64_t us;
};

struct rg {
	int64_t since;       /* when it entered its current place */
	int64_t born, died;  /* died: -1 while alive */
	int64_t wait_start;  /* runnable since, -1 when not runnable */
	int64_t t[TK__N];
	int64_t snap[3];     /* runnext, local, global totals when the wait began */
	int32_t fn, blocked, key; /* key: its wait key while waiting */
	int32_t entry_ahead, moves;
	int32_t region;      /* its innermost open region (index into report.regs), -1 */
	int16_t entry_p;
	uint8_t place, entry_place, entry_reason;
	uint8_t cpuwait;     /* running, and its M waits for a CPU */
};

struct rp {
	int64_t since, t[PK__N];
	int64_t runnext_len, local_len;
	int64_t seg_start;   /* when curg started running here */
	int32_t curg;        /* goid running here, 0 */
	uint8_t status, spinning, cat;
	uint8_t insys;       /* Go 1.26: running, but its M is in a syscall (the P stays wired) */
	uint8_t taken;       /* Go 1.26: sysmon's takeP, not (yet) followed by a handoff */
};

struct rm {
	int64_t since, born, t[MK__N];
	int32_t p;
	uint8_t state;
	uint8_t cpuwait;     /* waits for a CPU (EV_CPU to=wait) */
};

struct open_wait {
	int64_t t, n;
};

/* A region a G is inside: entered at t; prev: the region around it (a
 * G's open regions are a stack, as the workload nests them), or the next
 * free slot. */
struct open_region {
	int64_t t;
	int32_t obj, prev;
};

/* G g ran on P p from start to end. */
struct seg {
	int32_t p, g;
	int64_t start, end;
};

/* One G that ran on P p during a listed wait (g 0: the others together). */
struct ant {
	int32_t p, g, runs;
	int64_t us;
};

#define ANTS_PER_P 3

struct lwait {
	int32_t g, fn;
	int64_t start, end, in[3];
	int32_t ahead, moves;
	int16_t entry_p, exit_p;
	uint8_t entry_place, entry_reason, exit_place, exit_reason, over, why;
	int64_t ant0, nant;
};

/* The run's facts the report keeps (names copied from trace_meta). */
struct report_meta {
	char *workload;
	char *config_json;  /* the run's config as JSON text, or NULL */
	int procs;
	uint64_t seed;
	int32_t sysmon_m, nfuncs, nchans, nregions;
	char **func_names, **chan_names, **region_names;
	int64_t threshold_us;
	int32_t why_g;
	int cpus;            /* the run shares fewer CPUs than Ps (--cpus): the text shows cpuwait */
};

struct report {
	struct report_meta meta;
	int keep_segs, finished, oom;
	int64_t end;

	struct rg *gs;
	int64_t ng, gs_cap, nlive, nrunnable;
	struct rp *ps;
	struct rm *ms;
	int64_t ms_cap;
	int32_t nm;
	int64_t global_len;

	struct wkey *keys;
	int64_t nkeys, keys_cap;
	struct hmap key_ids;       /* wait << 32 | obj -> key id + 1 */
	struct bnode *bnodes;
	int64_t nbnodes, bnodes_cap;

	struct hmap lat_all;       /* latency us -> count */
	struct hmap *lat_fn;       /* per function; [nfuncs]: unknown function */
	struct hmap *lat_region;   /* region latency (begin -> end) per region */
	struct open_region *regs;  /* open regions of all Gs, and a free list */
	int64_t nregs, regs_cap;
	int32_t regs_free;

	struct open_wait *open;
	int64_t nopen, open_head, open_cap;
	struct seg *segs;
	int64_t nseg, seg_head, seg_cap;
	struct lwait *waits;
	int64_t nwaits, waits_cap, nover;
	struct ant *ants;
	int64_t nants, ants_cap;

	struct {
		int64_t steals, stolen, runnext_steals, spills, spilled, global_gets, global_to_local;
		int64_t handoffs, retakes_idle, preempt_slice, yields, futile_wakeups, threads_created, events;
	} cnt;
	struct {
		int64_t live, runnable, global, local, threads, busy_ps, syscall_ms;
	} peak;
};

/* report_wait.c */
int report_list_wait(struct report *r, const struct rg *gp, const struct sim_event *e, int over, int why);

/* Nearest-rank percentiles of a value -> count table. */
struct lat {
	int64_t count, p50, p90, p99, max;
};
int report_latency(const struct hmap *h, struct lat *out);

#endif
