/* workload.h: the program a simulated Go process runs.
 *
 * A workload file (JSON; product.md) compiles to a struct program: named
 * functions, each a flat array of ops, plus channels with capacities and a
 * default GOMAXPROCS. `repeat` compiles to a REPEAT op that jumps past its
 * END when the count is 0 and an END op that jumps back while iterations
 * remain; each nesting depth has its own counter in the G, so a G costs no
 * more than its loop depth. Durations are whole microseconds, rounded up to
 * the workload's tick ("tick": 10 us, the default, or 1 us); "$name" operands are resolved when the workload is
 * compiled (params, overridden by -D).
 *
 * workload_parse() reads text from memory (cmd/ reads files): no I/O here.
 * Errors name the place: "file:line:column: what is wrong", or "-D name"
 * when an override is at fault. A program that would spawn goroutines
 * without end (a go cycle) is rejected, so every accepted program ends. */
#ifndef GOSIM_WORKLOAD_H
#define GOSIM_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

/* The operations, one row each: the enum's name, the interpreter's
 * handler (exec.c: op_<handler>), the JSON key (NULL: made by the compiler
 * only) and what the key's value is (enum opnd). The parser's names and
 * messages, the interpreter's dispatch and the README/docs list
 * (tools/names.sh) all come from this table: an op is one row here plus its
 * semantics. Rows keep their order (the numbers are in struct op). */
#define WORKLOAD_OPS(X) \
	X(RUN, run, "run", OPND_DUR) \
	X(LOOP, loop, "loop", OPND_DUR) \
	X(GO, go, "go", OPND_FUNC) \
	X(SYSCALL, syscall, "syscall", OPND_DUR) \
	X(SEND, send, "send", OPND_CHAN) \
	X(RECV, recv, "recv", OPND_CHAN) \
	X(GOSCHED, gosched, "gosched", OPND_TRUE) \
	X(REPEAT, repeat, "repeat", OPND_COUNT_BODY) \
	X(SLEEP, sleep, "sleep", OPND_DUR) \
	X(NET, net, "net", OPND_DUR) \
	X(CLOSE, close, "close", OPND_CHAN) \
	X(RANGE, range, "range", OPND_CHAN_BODY) \
	X(RANGE_END, range_end, NULL, OPND_NONE) \
	X(SELECT, select, "select", OPND_CASES) \
	X(CASE, case, NULL, OPND_NONE) \
	X(JUMP, jump, NULL, OPND_NONE) \
	X(LOCK, lock, "lock", OPND_MUTEX) \
	X(UNLOCK, unlock, "unlock", OPND_MUTEX) \
	X(ADD, add, "add", OPND_WG_N) \
	X(DONE, done, "done", OPND_WG) \
	X(WAIT, wait, "wait", OPND_WG) \
	X(REGION, region, "region", OPND_NAME_BODY) \
	X(REGION_END, region_end, NULL, OPND_NONE) \
	X(END, end, NULL, OPND_NONE) \
	X(TICK, tick, "tick", OPND_PERIOD) \
	X(READ, read, "read", OPND_SOCKET) \
	X(WRITE, write, "write", OPND_SOCKET) \
	X(READ_AT, read_at, NULL, OPND_NONE) \
	X(WRITE_AT, write_at, NULL, OPND_NONE)

/* What an op's key takes. */
enum opnd { OPND_NONE, OPND_DUR, OPND_FUNC, OPND_CHAN, OPND_TRUE, OPND_COUNT_BODY, OPND_CHAN_BODY, OPND_CASES, OPND_MUTEX, OPND_WG, OPND_WG_N, OPND_NAME_BODY,
		 OPND_PERIOD /* a fixed duration above 0 */, OPND_SOCKET /* a name in "sockets", or an array's element: "NAME[K]", "NAME[#]" */ };

/* A select compiles to SELECT (arg: its number of cases, val: the index
 * past the select), one CASE per case (depth: enum case_kind; arg: the
 * channel, or the body's index for AFTER; val: the body's index, or the
 * duration for AFTER), then each body ending in a JUMP (arg: past the
 * select). */
enum case_kind { CASE_RECV, CASE_SEND, CASE_AFTER, CASE_DEFAULT };

#define WORKLOAD_OP_ENUM(K, h, name, opnd) OP_##K,
enum op_kind { WORKLOAD_OPS(WORKLOAD_OP_ENUM) OP__N };
/* Every function's ops are followed by one more, past nops, of this kind
 * (no row of the table: no key, never a step): the function's return, so
 * that the interpreter reads its next op without a bounds check. */
#define OP_EXIT OP__N

struct op {
	uint8_t kind;
	uint8_t depth; /* OP_REPEAT/OP_END: counter slot */
	int32_t arg;   /* OP_GO: func; OP_SEND/RECV/CLOSE/RANGE: chan; OP_READ/WRITE: socket; OP_READ_AT/WRITE_AT: an
			  array's first socket; OP_REPEAT: index of its END; OP_END: index of its REPEAT */
	int64_t val;   /* OP_ADD: n; OP_RUN/LOOP/SYSCALL/SLEEP/NET: us; OP_TICK: the period (us, fixed, > 0);
			  OP_READ_AT/WRITE_AT: the word of the G's side block that holds its ordinal
			  (func.max_depth: "NAME[#]" is socket arg + ordinal); OP_REPEAT: count (-1: forever); OP_RANGE: index of its
			  RANGE_END; OP_RANGE_END: index of its RANGE; OP_END: the index a round after
			  the first starts at without --max-steps (the body's first op after its leading
			  runs of 0 us: exec.c) */
};

static inline int32_t case_body(const struct op *c) { return c->depth == CASE_AFTER ? c->arg : (int32_t)c->val; }

struct program;

/* Duration operand v of an op: v >= 0 is fixed; v < 0 draws from
 * dists[-v - 1]. A draw (workload_draw) is the k-th of goroutine goid's
 * own stream, so a draw in one goroutine moves no other's. */
int64_t workload_draw(const struct program *p, int64_t v, uint64_t seed, int32_t goid, uint32_t k);

/* The JSON key of op kind k, NULL for internal ops or out of range. */
const char *workload_op_name(int k);

/* A random duration: {"exp": MEAN} or {"uniform": [LO, HI]} (us). */
enum dist_kind { DIST_EXP, DIST_UNIFORM };
struct dist {
	uint8_t kind;
	int64_t a, b; /* exp: the mean; uniform: lo, hi */
};

struct func {
	char *name;
	struct op *ops; /* nops of them, then an OP_EXIT */
	int32_t nops;
	int32_t max_depth;
	int32_t side;  /* words of a G's side block (state.h, g.iters): max_depth counters, then its
			  ordinal if an op names "NAME[#]", then one draw count if an op has a random
			  duration; 0 (no block) for at most one counter, no ordinal and no random
			  duration */
	int32_t inst_n; /* 0, or the size of the smallest socket array an op names as "NAME[#]": its
			   goroutines beyond that many (ordinal >= inst_n) are an error (sim_newg) */
	char *inst_where; /* that op's place and text, "file:line:column: \"read\": \"conn[#]\"", for the error */
};

struct program {
	char *name;
	char *description;
	int procs;
	struct func *funcs;
	int32_t nfuncs;
	int32_t main_fn;
	char **chan_names;
	int64_t *chan_cap;
	int32_t nchans;
	char **mutex_names;   /* "mutexes": sync.Mutex values */
	int32_t nmutexes;
	char **wg_names;      /* "waitgroups": sync.WaitGroup values */
	int32_t nwgs;
	char **socket_names;  /* "sockets": the names declared, a socket's or an array's (socket.h) */
	int32_t *socket_first, *socket_count; /* a name's first socket and its number (1 for a plain name) */
	uint8_t *socket_array; /* declared as an array ({"NAME": N}) */
	int32_t nsocket_names;
	int32_t nsockets;     /* the sockets, an array's elements one each: name i's are socket_first[i] .. + count - 1 */
	int exit_main;        /* "exit": "main": the program ends when main returns (Go's rule) */
	int64_t tick_us;      /* "tick": every duration is a multiple of it, 10 (default) or 1 */
	struct dist *dists;   /* random durations; an op's val -(i + 1) draws from dists[i] */
	char **region_names;  /* "region" names, in the order they first appear */
	int32_t nregions;
	int32_t ndists;
};

struct param_override {
	const char *name;
	const char *value;
};

#define WORKLOAD_MAX_DEPTH 32
#define WORKLOAD_MAX_SIDE (WORKLOAD_MAX_DEPTH + 1) /* func.side */
#define WORKLOAD_MAX_CASES 256 /* cases in one select */
#define WORKLOAD_MAX_SOCKETS (1 << 24) /* sockets in all, arrays' elements counted */
#define WORKLOAD_MAX_ADD 1000000000LL /* |n| of a WaitGroup add */
#define WORKLOAD_MAX_COUNT 1000000000LL         /* repeat counts */
#define WORKLOAD_MAX_US (1000LL * 1000 * 1000 * 1000) /* 11.5 days */

/* Returns 0; -1 for bad input (err names the place); WORKLOAD_NOMEM when
 * out of memory (err says so: a resource error, not the input's fault). */
#define WORKLOAD_NOMEM (-2)
int workload_parse(const char *text, size_t len, const char *filename,
		   const struct param_override *ov, int nov,
		   struct program **out, char *err, size_t errlen);
void program_free(struct program *p);

/* Parses a duration ("250us", "1.5ms", "2s", "100ns" or an integer of us),
 * rounded up to the tick. Returns 0 on success. */
int workload_parse_duration(const char *s, int64_t *us);
/* The same, rounded up to the microsecond only (for options such as
 * --sysmon-slack that are not workload durations). */
int workload_parse_duration_us(const char *s, int64_t *us);
/* The same in nanoseconds, exactly (digits below a nanosecond round up). */
int workload_parse_duration_ns(const char *s, int64_t *ns);

/* What a program does in all, following go statements and repeats;
 * saturates at INT64_MAX. Exact when the program has no range (a repeat
 * runs its count); otherwise a lower bound (inexact set): refusing a
 * program over a limit stays right, and the run checks the rest. */
struct program_totals {
	int64_t work_us;    /* CPU work: run + loop */
	int64_t syscall_us; /* time in system calls */
	int64_t goroutines; /* main included */
	int64_t steps;      /* ops executed */
	int inexact;        /* 1: a lower bound (range bodies, run as often as values come, count 0 times) */
};
int program_totals(const struct program *p, struct program_totals *out);
/* The functions reachable from main through go statements (outside repeats
 * of count 0), each listed in order[] after every function it starts
 * (post-order; order has room for nfuncs). Iterative: no recursion on the
 * input's depth. Returns 0; 1 when a go statement starts a function that is
 * still being started (a cycle: *from starts *to); -1 when out of memory. */
int program_go_order(const struct program *p, int32_t *order, int32_t *norder, int32_t *from, int32_t *to);
int64_t program_total_work(const struct program *p);

/* Built-in workloads, compiled in from workloads/ (build/workloads.c). */
struct builtin_workload {
	const char *name;
	const char *text;
	size_t len;
};
extern const struct builtin_workload builtin_workloads[];
extern const int builtin_workloads_n;

#endif
