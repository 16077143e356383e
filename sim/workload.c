/* workload.c: compile a JSON workload into a struct program (see
 * workload.h). jansson parses; jsonpos finds where a rejected value is. */
#include "workload.h"
#include "mem.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonpos.h"
#include "names.h"
#include "number.h"
#include "policy.h"

#define MAX_PATH 80

struct wctx {
	const char *text;
	size_t len;
	const char *file;
	char *err;
	size_t errlen;
	struct jsonpos_step path[MAX_PATH];
	int depth;
	json_t *params;  /* name -> value, with -D applied */
	json_t *ovnames; /* names set by -D -> their text */
	json_t *funcs;   /* the "funcs" object */
	struct names fnames; /* function name -> index */
	struct names cnames; /* channel name -> index */
	struct names mnames; /* mutex name -> index */
	struct names wnames; /* wait group name -> index */
	struct names snames; /* socket name -> index */
	struct program *prog;
	int32_t fi;      /* the function being compiled */
	int nomem;       /* an allocation failed */
};

struct fbuf {
	struct op *ops;
	int32_t n, cap, max_depth;
};

static int fail(struct wctx *c, int at_key, const char *fmt, ...)
{
	int line, col;
	if (c->depth > 0)
		c->path[c->depth - 1].want_key = at_key;
	jsonpos_find(c->text, c->len, c->path, c->depth, &line, &col);
	int n = snprintf(c->err, c->errlen, "%s:%d:%d: ", c->file, line, col);
	if (n < 0 || (size_t)n >= c->errlen)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Out of memory: a resource error, which workload_parse returns as
 * WORKLOAD_NOMEM (not bad input). */
static int nomem(struct wctx *c)
{
	c->nomem = 1;
	return fail(c, 0, "out of memory");
}

static int push_key(struct wctx *c, const char *key)
{
	if (c->depth == MAX_PATH)
		return fail(c, 0, "nesting too deep");
	c->path[c->depth++] = (struct jsonpos_step){ .key = key };
	return 0;
}

static int push_index(struct wctx *c, int i)
{
	if (c->depth == MAX_PATH)
		return fail(c, 0, "nesting too deep");
	c->path[c->depth++] = (struct jsonpos_step){ .key = NULL, .index = i };
	return 0;
}

static void pop(struct wctx *c) { c->depth--; }

/* Resolves "$name" to the parameter's value; *via names the -D that set it. */
static int resolve(struct wctx *c, json_t *v, json_t **out, char *via, size_t vialen)
{
	via[0] = 0;
	*out = v;
	const char *s = json_is_string(v) ? json_string_value(v) : NULL;
	if (!s || s[0] != '$')
		return 0;
	json_t *pv = json_object_get(c->params, s + 1);
	if (!pv)
		return fail(c, 0, "unknown parameter \"%s\" (define it in \"params\")", s);
	json_t *ov = json_object_get(c->ovnames, s + 1);
	if (ov)
		snprintf(via, vialen, " (set by -D %s=%s)", s + 1, json_string_value(ov));
	*out = pv;
	return 0;
}

int workload_parse_duration(const char *s, int64_t *us)
{
	if (workload_parse_duration_us(s, us) != 0)
		return -1;
	*us = (*us + TICK_US - 1) / TICK_US * TICK_US;
	return 0;
}

int workload_parse_duration_us(const char *s, int64_t *us)
{
	int64_t ns;
	if (workload_parse_duration_ns(s, &ns) != 0)
		return -1;
	int64_t u = ns / 1000 + (ns % 1000 != 0);
	if (u > WORKLOAD_MAX_US)
		return -1;
	*us = u;
	return 0;
}

int workload_parse_duration_ns(const char *s, int64_t *out)
{
	static const struct { const char *name; int64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "\xc2\xb5s", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	int64_t whole = 0, frac = 0, scale = 1;
	const char *p = s;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(whole, 10, &whole) || __builtin_add_overflow(whole, *p - '0', &whole))
			return -1;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++)
			if (scale < 1000000000) {
				frac = frac * 10 + (*p - '0');
				scale *= 10;
			} else if (*p != '0') {
				frac += frac == 0; /* digits below a nanosecond round up */
			}
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(p, units[i].name) != 0)
			continue;
		int64_t ns;
		if (__builtin_mul_overflow(whole, units[i].ns, &ns))
			return -1;
		int64_t fns = (frac * units[i].ns + scale - 1) / scale;
		if (__builtin_add_overflow(ns, fns, &ns))
			return -1;
		*out = ns;
		return 0;
	}
	return -1;
}

/* us rounded up to the program's tick ("tick": 10 us, or 1 us). */
static int64_t to_tick(const struct wctx *c, int64_t us)
{
	int64_t t = c->prog->tick_us;
	return (us + t - 1) / t * t;
}

static int get_duration(struct wctx *c, json_t *raw, int64_t *us)
{
	json_t *v;
	char via[160];
	if (resolve(c, raw, &v, via, sizeof via) != 0)
		return -1;
	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= WORKLOAD_MAX_US) {
		*us = to_tick(c, json_integer_value(v));
		return 0;
	}
	if (json_is_string(v) && workload_parse_duration_us(json_string_value(v), us) == 0) {
		*us = to_tick(c, *us);
		return 0;
	}
	return fail(c, 0, "expected a duration: whole microseconds or a string such as \"250us\", "
			  "\"1.5ms\", \"2s\" (at most %lld s)%s",
		    WORKLOAD_MAX_US / 1000000, via);
}

/* A duration or a random one: {"exp": MEAN} (exponential with that mean)
 * or {"uniform": [LO, HI]}; a random one is stored as -(index + 1) into
 * the program's dists. */
static int get_any_duration(struct wctx *c, json_t *v, int64_t *out)
{
	if (!json_is_object(v))
		return get_duration(c, v, out);
	json_t *e = json_object_get(v, "exp"), *u = json_object_get(v, "uniform");
	if (json_object_size(v) != 1 || (!e && !u))
		return fail(c, 0, "a random duration is {\"exp\": MEAN} or {\"uniform\": [LO, HI]}");
	struct dist d = { .kind = e ? DIST_EXP : DIST_UNIFORM };
	if (e) {
		if (push_key(c, "exp") || get_duration(c, e, &d.a))
			return -1;
		pop(c);
	} else {
		if (push_key(c, "uniform"))
			return -1;
		if (!json_is_array(u) || json_array_size(u) != 2)
			return fail(c, 0, "\"uniform\" takes [LO, HI], two durations");
		for (int i = 0; i < 2; i++) {
			if (push_index(c, i) || get_duration(c, json_array_get(u, (size_t)i), i ? &d.b : &d.a))
				return -1;
			pop(c);
		}
		if (d.a > d.b)
			return fail(c, 0, "\"uniform\": [LO, HI] needs LO <= HI");
		pop(c);
	}
	struct program *p = c->prog;
	struct dist *a = realloc(p->dists, (size_t)(p->ndists + 1) * sizeof *a);
	if (!a)
		return nomem(c);
	p->dists = a;
	p->dists[p->ndists++] = d;
	*out = -(int64_t)p->ndists;
	return 0;
}

static int get_count(struct wctx *c, json_t *raw, int64_t lo, int64_t hi, const char *what, int64_t *out)
{
	json_t *v;
	char via[160];
	if (resolve(c, raw, &v, via, sizeof via) != 0)
		return -1;
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return fail(c, 0, "%s must be an integer in %lld..%lld%s", what, (long long)lo, (long long)hi, via);
	*out = json_integer_value(v);
	return 0;
}

static int emit(struct wctx *c, struct fbuf *fb, struct op op)
{
	if (fb->n == fb->cap) {
		void *a = sim_grow(fb->ops, &fb->cap, 8, sizeof *fb->ops);
		if (!a)
			return nomem(c);
		fb->ops = a;
	}
	fb->ops[fb->n++] = op;
	return 0;
}

/* compile_body, compile_op, compile_repeat and compile_range recurse once
 * per body nesting level. The path they push to name errors holds at most
 * MAX_PATH steps ("nesting too deep" past it), and repeats stop at
 * WORKLOAD_MAX_DEPTH before descending, so the depth is a constant, not the
 * input's (tests/test_bigprog.c nests 1,000 deep). */
static int compile_body(struct wctx *c, json_t *body, struct fbuf *fb, int depth);

static int compile_repeat(struct wctx *c, json_t *op, struct fbuf *fb, int depth)
{
	int64_t count;
	json_t *rv = json_object_get(op, "repeat");
	if (push_key(c, "repeat"))
		return -1;
	if (json_is_string(rv) && strcmp(json_string_value(rv), "forever") == 0) {
		if (!c->prog->exit_main)
			return fail(c, 0, "\"repeat\": \"forever\" needs the top-level \"exit\": \"main\" "
					  "(with \"exit\": \"all\" the program would never end)");
		count = -1;
	} else if (get_count(c, rv, 0, WORKLOAD_MAX_COUNT, "a repeat count", &count)) {
		return -1;
	}
	pop(c);
	if (depth >= WORKLOAD_MAX_DEPTH)
		return fail(c, 1, "repeats nest deeper than %d", WORKLOAD_MAX_DEPTH);
	json_t *body = json_object_get(op, "body");
	if (!body)
		return fail(c, 0, "\"repeat\" needs a \"body\": an array of operations");
	int32_t start = fb->n;
	if (emit(c, fb, (struct op){ .kind = OP_REPEAT, .depth = (uint8_t)depth, .val = count }))
		return -1;
	if (depth + 1 > fb->max_depth)
		fb->max_depth = depth + 1;
	if (push_key(c, "body") || compile_body(c, body, fb, depth + 1))
		return -1;
	pop(c);
	if (fb->n == start + 1) { /* an empty body: the loop does nothing */
		fb->n = start;
		return 0;
	}
	fb->ops[start].arg = fb->n;
	/* END's val: where a round after the first starts when no op is a
	 * step (no --max-steps): past the body's leading runs of 0 us, which
	 * then do nothing (exec.c's OP_END) */
	int32_t loop = start + 1;
	while (loop < fb->n && fb->ops[loop].kind == OP_RUN && fb->ops[loop].val == 0)
		loop++;
	return emit(c, fb, (struct op){ .kind = OP_END, .depth = (uint8_t)depth, .arg = start, .val = loop });
}

static const struct {
	const char *name;
	uint8_t opnd;
} op_table[] = {
#define WORKLOAD_OP_ROW(K, h, name, opnd) { name, opnd },
	WORKLOAD_OPS(WORKLOAD_OP_ROW)
#undef WORKLOAD_OP_ROW
};

const char *workload_op_name(int k) { return k >= 0 && k < OP__N ? op_table[k].name : NULL; }

/* The keys an operation may have, from the table: "run, loop, ... or repeat". */
static void op_names(char *buf, size_t len)
{
	int n = 0, total = 0;
	for (int k = 0; k < OP__N; k++)
		total += op_table[k].name != NULL;
	buf[0] = 0;
	for (int k = 0; k < OP__N; k++) {
		if (!op_table[k].name)
			continue;
		size_t used = strlen(buf);
		const char *sep = n == 0 ? "" : n == total - 1 ? " or " : ", ";
		snprintf(buf + used, len - used, "%s%s", sep, op_table[k].name);
		n++;
	}
}

static int find_op(const char *key)
{
	for (int k = 0; k < OP__N; k++)
		if (op_table[k].name && strcmp(key, op_table[k].name) == 0)
			return k;
	return -1;
}

static int named_index(struct wctx *c, const char *key, json_t *v, const struct names *names, const char *what,
		       const char *where)
{
	const char *name = json_is_string(v) ? json_string_value(v) : NULL;
	int32_t i = name ? names_find(names, name) : -1;
	if (i < 0)
		return fail(c, 0, "\"%s\" names a %s defined in \"%s\"%s%s%s", key, what, where,
			    name ? "; there is no \"" : "", name ? name : "", name ? "\"" : "");
	return i;
}

static int compile_func_ref(struct wctx *c, json_t *v, struct fbuf *fb)
{
	const char *name = json_is_string(v) ? json_string_value(v) : NULL;
	int32_t fi = name ? names_find(&c->fnames, name) : -1;
	if (fi < 0 || fi == c->prog->main_fn)
		return fail(c, 0, "\"go\" names a function defined in \"funcs\"%s%s%s",
			    name ? "; there is no \"" : "", name ? name : "", name ? "\"" : "");
	return emit(c, fb, (struct op){ .kind = OP_GO, .arg = fi });
}

/* A socket operand: a plain socket's name (looked up first, exactly, so
 * any name declared before arrays existed means what it meant), or an
 * array's element, "NAME[K]" (a fixed one) or "NAME[#]" (this goroutine's
 * own: element k for the k-th goroutine started running the function,
 * 0-based; OP_READ_AT/WRITE_AT, resolved when the op runs with one add). */
static int compile_socket_ref(struct wctx *c, int k, json_t *v, struct fbuf *fb)
{
	const struct program *p = c->prog;
	const char *key = op_table[k].name, *name = json_is_string(v) ? json_string_value(v) : NULL;
	int32_t i = name ? names_find(&c->snames, name) : -1;
	if (i >= 0 && !p->socket_array[i])
		return emit(c, fb, (struct op){ .kind = (uint8_t)k, .arg = p->socket_first[i] });
	if (i >= 0)
		return fail(c, 0, "\"%s\": \"%s\" is an array of %d sockets: name one, \"%s[#]\" (this goroutine's "
				  "own) or \"%s[K]\" (K in 0..%d)",
			    key, name, p->socket_count[i], name, name, p->socket_count[i] - 1);
	const char *open = name ? strrchr(name, '[') : NULL;
	size_t len = name ? strlen(name) : 0;
	if (!open || open == name || name[len - 1] != ']')
		return named_index(c, key, v, &c->snames, "socket", "sockets");
	char base[256];
	size_t blen = (size_t)(open - name);
	if (blen >= sizeof base || (memcpy(base, name, blen), base[blen] = 0, (i = names_find(&c->snames, base)) < 0) ||
	    !p->socket_array[i])
		return fail(c, 0, "\"%s\" names a socket defined in \"sockets\", or an element of an array there "
				  "(\"NAME[#]\", \"NAME[K]\"); there is no %s \"%.*s\"",
			    key, i >= 0 ? "array" : "socket or array", (int)blen, name);
	const char *ix = open + 1;
	size_t ixlen = len - blen - 2;
	if (ixlen == 1 && ix[0] == '#') {
		struct func *f = &c->prog->funcs[c->fi];
		if (f->inst_n == 0 || p->socket_count[i] < f->inst_n) {
			int line, col;
			jsonpos_find(c->text, c->len, c->path, c->depth, &line, &col);
			char where[320];
			snprintf(where, sizeof where, "%s:%d:%d: \"%s\": \"%s\"", c->file, line, col, key, name);
			free(f->inst_where);
			if (!(f->inst_where = strdup(where)))
				return nomem(c);
			f->inst_n = p->socket_count[i];
		}
		uint8_t at = k == OP_READ ? OP_READ_AT : OP_WRITE_AT;
		return emit(c, fb, (struct op){ .kind = at, .arg = p->socket_first[i] });
	}
	int64_t e = -1;
	char digits[24];
	if (ixlen > 0 && ixlen < sizeof digits) {
		memcpy(digits, ix, ixlen);
		digits[ixlen] = 0;
		if (number_parse_i64(digits, 0, p->socket_count[i] - 1, &e) != 0)
			e = -1;
	}
	if (e < 0)
		return fail(c, 0, "\"%s\": \"%s\": an element of \"%s\" is \"%s[#]\" (this goroutine's own) or "
				  "\"%s[K]\", K an integer in 0..%d",
			    key, name, base, base, base, p->socket_count[i] - 1);
	return emit(c, fb, (struct op){ .kind = (uint8_t)k, .arg = p->socket_first[i] + (int32_t)e });
}

/* The operand of op kind k (not repeat), by what the table says it takes. */
static int compile_operand(struct wctx *c, int k, json_t *v, struct fbuf *fb)
{
	int64_t us;
	int32_t i;
	switch (op_table[k].opnd) {
	case OPND_TRUE:
		return json_is_true(v) ? emit(c, fb, (struct op){ .kind = (uint8_t)k })
				       : fail(c, 0, "\"%s\" takes true", op_table[k].name);
	case OPND_DUR:
		return get_any_duration(c, v, &us) ? -1 : emit(c, fb, (struct op){ .kind = (uint8_t)k, .val = us });
	case OPND_PERIOD: /* time.NewTicker: "non-positive interval for NewTicker" */
		if (json_is_object(v))
			return fail(c, 0, "\"%s\" takes a fixed duration (a ticker's period), not a random one",
				    op_table[k].name);
		if (get_duration(c, v, &us) != 0)
			return -1;
		return us > 0 ? emit(c, fb, (struct op){ .kind = (uint8_t)k, .val = us })
			      : fail(c, 0, "\"%s\" takes a period above 0 (time.NewTicker panics on a non-positive one)",
				     op_table[k].name);
	case OPND_FUNC:
		return compile_func_ref(c, v, fb);
	case OPND_CHAN:
		i = named_index(c, op_table[k].name, v, &c->cnames, "channel", "chans");
		return i < 0 ? -1 : emit(c, fb, (struct op){ .kind = (uint8_t)k, .arg = i });
	case OPND_MUTEX:
		i = named_index(c, op_table[k].name, v, &c->mnames, "mutex", "mutexes");
		return i < 0 ? -1 : emit(c, fb, (struct op){ .kind = (uint8_t)k, .arg = i });
	case OPND_WG:
	case OPND_WG_N:
		i = named_index(c, op_table[k].name, v, &c->wnames, "wait group", "waitgroups");
		return i < 0 ? -1 : emit(c, fb, (struct op){ .kind = (uint8_t)k, .arg = i });
	case OPND_SOCKET:
		return compile_socket_ref(c, k, v, fb);
	default:
		return fail(c, 0, "internal: op \"%s\" has no operand rule", op_table[k].name);
	}
}

static int takes_body(int k)
{
	return op_table[k].opnd == OPND_COUNT_BODY || op_table[k].opnd == OPND_CHAN_BODY ||
	       op_table[k].opnd == OPND_NAME_BODY;
}

/* {"region": NAME, "body": [...]}: REGION (arg: the name's index), the
 * body, REGION_END (the same arg): trace.WithRegion around the body. */
static int compile_region(struct wctx *c, json_t *op, struct fbuf *fb, int depth)
{
	json_t *v = json_object_get(op, "region");
	if (push_key(c, "region"))
		return -1;
	if (!json_is_string(v) || !json_string_value(v)[0])
		return fail(c, 0, "\"region\" takes a name: a non-empty string");
	pop(c);
	struct program *p = c->prog;
	int32_t ri = 0;
	while (ri < p->nregions && strcmp(p->region_names[ri], json_string_value(v)) != 0)
		ri++;
	if (ri == p->nregions) {
		char **a = realloc(p->region_names, (size_t)(p->nregions + 1) * sizeof *a);
		if (!a)
			return nomem(c);
		p->region_names = a;
		if (!(a[p->nregions] = strdup(json_string_value(v))))
			return nomem(c);
		p->nregions++;
	}
	if (emit(c, fb, (struct op){ .kind = OP_REGION, .arg = ri }))
		return -1;
	json_t *body = json_object_get(op, "body");
	if (body && (push_key(c, "body") || compile_body(c, body, fb, depth)))
		return -1;
	if (body)
		pop(c);
	return emit(c, fb, (struct op){ .kind = OP_REGION_END, .arg = ri });
}

/* "\"repeat\" or \"range\"": the ops a body belongs to, from the table. */
static void body_owners(char *buf, size_t len)
{
	int n = 0, total = 0;
	for (int k = 0; k < OP__N; k++)
		total += op_table[k].name && takes_body(k);
	buf[0] = 0;
	for (int k = 0; k < OP__N; k++) {
		if (!op_table[k].name || !takes_body(k))
			continue;
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, "%s\"%s\"", n == 0 ? "" : n == total - 1 ? " or " : ", ",
			 op_table[k].name);
		n++;
	}
}

/* {"range": CHAN, "body": [...]}: RANGE (a receive; closed and drained
 * jumps past RANGE_END), the body, RANGE_END (back to RANGE). */
static int compile_range(struct wctx *c, json_t *op, struct fbuf *fb, int depth)
{
	if (push_key(c, "range"))
		return -1;
	int32_t ci = named_index(c, "range", json_object_get(op, "range"), &c->cnames, "channel", "chans");
	if (ci < 0)
		return -1;
	pop(c);
	int32_t start = fb->n;
	if (emit(c, fb, (struct op){ .kind = OP_RANGE, .arg = ci }))
		return -1;
	json_t *body = json_object_get(op, "body");
	if (body && (push_key(c, "body") || compile_body(c, body, fb, depth)))
		return -1;
	if (body)
		pop(c);
	fb->ops[start].val = fb->n;
	return emit(c, fb, (struct op){ .kind = OP_RANGE_END, .arg = ci, .val = start });
}

/* One select case (see workload.h): fills CASE op *k and compiles its
 * body, ending it in a JUMP whose index goes to *jump. */
static int compile_case(struct wctx *c, json_t *cs, struct fbuf *fb, int depth, int32_t at, int32_t *jump)
{
	static const char *const keys[] = { "recv", "send", "after", "default" };
	if (!json_is_object(cs))
		return fail(c, 0, "a select case is an object such as {\"recv\": \"c\", \"body\": [...]}");
	int kind = -1;
	const char *key;
	json_t *v;
	json_object_foreach(cs, key, v) {
		int k = 0;
		while (k < 4 && strcmp(key, keys[k]) != 0)
			k++;
		if ((k == 4 && strcmp(key, "body") != 0) || (k < 4 && kind >= 0) || (k == 4 && kind == CASE_DEFAULT)) {
			push_key(c, key);
			return fail(c, 1, k < 4 ? "one case per object: \"%s\" and \"%s\"" : "unknown select case key \"%s\"%s",
				    k < 4 ? keys[kind] : key, k < 4 ? key : " (expected recv, send, after or default, and body)");
		}
		if (k < 4)
			kind = k;
	}
	if (kind < 0)
		return fail(c, 0, "an empty select case: expected recv, send, after or default");
	if (kind == CASE_DEFAULT && json_object_get(cs, "body")) {
		push_key(c, "body");
		return fail(c, 1, "a default case's body is its value: {\"default\": [...]}");
	}
	struct op cop = { .kind = OP_CASE, .depth = (uint8_t)kind, .arg = -1 };
	v = json_object_get(cs, keys[kind]);
	if (push_key(c, keys[kind]))
		return -1;
	if (kind == CASE_RECV || kind == CASE_SEND) {
		if ((cop.arg = named_index(c, keys[kind], v, &c->cnames, "channel", "chans")) < 0)
			return -1;
	} else if (kind == CASE_AFTER && get_any_duration(c, v, &cop.val) != 0) {
		return -1;
	}
	pop(c);
	if (kind == CASE_AFTER)
		cop.arg = fb->n;
	else
		cop.val = fb->n;
	json_t *body = kind == CASE_DEFAULT ? v : json_object_get(cs, "body");
	const char *bkey = kind == CASE_DEFAULT ? "default" : "body";
	if (body && (push_key(c, bkey) || compile_body(c, body, fb, depth)))
		return -1;
	if (body)
		pop(c);
	fb->ops[at] = cop;
	*jump = fb->n;
	return emit(c, fb, (struct op){ .kind = OP_JUMP });
}

/* {"select": [CASE, ...]} (see workload.h for what it compiles to). */
static int compile_select(struct wctx *c, json_t *op, struct fbuf *fb, int depth)
{
	json_t *cases = json_object_get(op, "select");
	if (push_key(c, "select"))
		return -1;
	if (!json_is_array(cases))
		return fail(c, 0, "\"select\" takes an array of cases such as {\"recv\": \"c\"}");
	int32_t n = (int32_t)json_array_size(cases), start = fb->n, jumps[WORKLOAD_MAX_CASES];
	if (n > WORKLOAD_MAX_CASES)
		return fail(c, 0, "a select has at most %d cases", WORKLOAD_MAX_CASES);
	if (emit(c, fb, (struct op){ .kind = OP_SELECT, .arg = n }))
		return -1;
	for (int32_t i = 0; i < n; i++)
		if (emit(c, fb, (struct op){ .kind = OP_CASE }))
			return -1;
	int defaults = 0;
	for (int32_t i = 0; i < n; i++) {
		json_t *cs = json_array_get(cases, (size_t)i);
		if (push_index(c, (int)i))
			return -1;
		if (json_is_object(cs) && json_object_get(cs, "default") && defaults++)
			return fail(c, 1, "a select has at most one default");
		if (compile_case(c, cs, fb, depth, start + 1 + i, &jumps[i]))
			return -1;
		pop(c);
	}
	pop(c);
	for (int32_t i = 0; i < n; i++)
		fb->ops[jumps[i]].arg = fb->n;
	fb->ops[start].val = fb->n;
	return 0;
}

/* {"add": WG, "n": N}: wg.Add(N), N an integer (negative too). */
static int compile_add(struct wctx *c, json_t *op, struct fbuf *fb, int kind)
{
	if (json_object_get(op, "body")) {
		char names[256];
		body_owners(names, sizeof names);
		push_key(c, "body");
		return fail(c, 1, "\"body\" belongs to %s only", names);
	}
	if (push_key(c, "add") || compile_operand(c, kind, json_object_get(op, "add"), fb))
		return -1;
	pop(c);
	json_t *n = json_object_get(op, "n");
	if (!n)
		return fail(c, 0, "\"add\" needs \"n\": how much to add to the counter");
	if (push_key(c, "n") ||
	    get_count(c, n, -WORKLOAD_MAX_ADD, WORKLOAD_MAX_ADD, "\"n\"", &fb->ops[fb->n - 1].val))
		return -1;
	pop(c);
	return 0;
}

static int compile_op(struct wctx *c, json_t *op, struct fbuf *fb, int depth)
{
	char names[256]; /* filled only for an error: an op is compiled in constant time */
	if (!json_is_object(op))
		return fail(c, 0, "an operation is an object such as {\"run\": \"1ms\"}");
	const char *key;
	int kind = -1;
	json_t *v;
	json_object_foreach(op, key, v) {
		int k = find_op(key);
		if (k >= 0 && kind >= 0) {
			push_key(c, key);
			return fail(c, 1, "one operation per object: \"%s\" and \"%s\"", op_table[kind].name, key);
		}
		if (k >= 0)
			kind = k;
		else if (strcmp(key, "body") != 0 && strcmp(key, "n") != 0) {
			op_names(names, sizeof names);
			push_key(c, key);
			return fail(c, 1, "unknown operation \"%s\" (expected %s)", key, names);
		}
	}
	if (kind < 0) {
		op_names(names, sizeof names);
		return fail(c, 0, "empty operation: expected %s", names);
	}
	if (json_object_get(op, "n") && op_table[kind].opnd != OPND_WG_N) {
		push_key(c, "n");
		return fail(c, 1, "\"n\" belongs to \"add\" only");
	}
	if (op_table[kind].opnd == OPND_WG_N)
		return compile_add(c, op, fb, kind);
	if (op_table[kind].opnd == OPND_COUNT_BODY)
		return compile_repeat(c, op, fb, depth);
	if (op_table[kind].opnd == OPND_CHAN_BODY)
		return compile_range(c, op, fb, depth);
	if (op_table[kind].opnd == OPND_NAME_BODY)
		return compile_region(c, op, fb, depth);
	if (op_table[kind].opnd == OPND_CASES) {
		if (json_object_get(op, "body")) {
			push_key(c, "body");
			return fail(c, 1, "a select's bodies go in its cases");
		}
		return compile_select(c, op, fb, depth);
	}
	if (json_object_get(op, "body")) {
		body_owners(names, sizeof names);
		push_key(c, "body");
		return fail(c, 1, "\"body\" belongs to %s only", names);
	}
	if (push_key(c, op_table[kind].name) || compile_operand(c, kind, json_object_get(op, op_table[kind].name), fb))
		return -1;
	pop(c);
	return 0;
}

static int compile_body(struct wctx *c, json_t *body, struct fbuf *fb, int depth)
{
	if (!json_is_array(body))
		return fail(c, 0, "a body is an array of operations");
	for (size_t i = 0; i < json_array_size(body); i++) {
		if (push_index(c, (int)i) || compile_op(c, json_array_get(body, i), fb, depth))
			return -1;
		pop(c);
	}
	return 0;
}

/* Whether op draws a random duration when it runs (exec.c's dur). */
static int op_draws(const struct op *op)
{
	switch (op->kind) {
	case OP_RUN: case OP_LOOP: case OP_SYSCALL: case OP_SLEEP: case OP_NET:
		return op->val < 0;
	case OP_CASE:
		return op->depth == CASE_AFTER && op->val < 0;
	default:
		return 0;
	}
}

/* func.side: the counters beyond the one g.iters holds, the ordinal of a
 * function that names "NAME[#]", and a draw count. */
static int32_t side_words(const struct func *f)
{
	int draws = 0;
	for (int32_t i = 0; i < f->nops && !draws; i++)
		draws = op_draws(&f->ops[i]);
	int inst = f->inst_n > 0;
	return f->max_depth > 1 || draws || inst ? f->max_depth + inst + draws : 0;
}

static int compile_func(struct wctx *c, int32_t fi, json_t *body)
{
	struct fbuf fb = { 0 };
	c->fi = fi;
	int rc = compile_body(c, body, &fb, 0);
	int32_t n = fb.n;
	if (rc == 0)
		rc = emit(c, &fb, (struct op){ .kind = OP_EXIT });
	struct func *f = &c->prog->funcs[fi];
	f->ops = fb.ops;
	f->nops = n;
	f->max_depth = fb.max_depth;
	f->side = side_words(f);
	for (int32_t i = 0; i < n; i++) /* "NAME[#]": the ordinal's word, after the counters */
		if (fb.ops[i].kind == OP_READ_AT || fb.ops[i].kind == OP_WRITE_AT)
			fb.ops[i].val = f->max_depth;
	return rc;
}

static int parse_params(struct wctx *c, json_t *root, const struct param_override *ov, int nov)
{
	json_t *params = json_object_get(root, "params");
	c->params = params ? json_deep_copy(params) : json_object();
	c->ovnames = json_object();
	if (push_key(c, "params"))
		return -1;
	if (!json_is_object(c->params))
		return fail(c, 0, "\"params\" is an object of names and values");
	const char *key;
	json_t *v;
	json_object_foreach(c->params, key, v) {
		if (!json_is_integer(v) && !json_is_string(v)) {
			push_key(c, key);
			return fail(c, 0, "a parameter is an integer or a string");
		}
	}
	pop(c);
	for (int i = 0; i < nov; i++) {
		if (!json_object_get(c->params, ov[i].name)) {
			snprintf(c->err, c->errlen, "-D %s: the workload has no parameter \"%s\"", ov[i].name, ov[i].name);
			return -1;
		}
		/* an integer is written strictly (number.h); anything else is a
		 * string, which JSON needs to be UTF-8 */
		int64_t n;
		int is_int = number_parse_i64(ov[i].value, INT64_MIN, INT64_MAX, &n) == 0;
		json_t *val = is_int ? json_integer(n) : json_string(ov[i].value);
		if (!val && !is_int) {
			snprintf(c->err, c->errlen, "-D %s=%s: the value is not UTF-8 text", ov[i].name, ov[i].value);
			return -1;
		}
		if (json_object_set_new(c->params, ov[i].name, val) != 0 ||
		    json_object_set_new(c->ovnames, ov[i].name, json_string(ov[i].value)) != 0) {
			snprintf(c->err, c->errlen, "-D %s: out of memory", ov[i].name);
			c->nomem = 1;
			return -1;
		}
	}
	return 0;
}

/* "mutexes": ["mu", ...] and "waitgroups": ["wg", ...]: names, each once. */
static int parse_namelist(struct wctx *c, json_t *root, const char *key, const char *what, char ***names,
			  int32_t *n, struct names *table)
{
	json_t *list = json_object_get(root, key);
	if (names_init(table, list ? json_array_size(list) : 0) != 0)
		return nomem(c);
	if (!list)
		return 0;
	if (push_key(c, key))
		return -1;
	if (!json_is_array(list))
		return fail(c, 0, "\"%s\" is an array of names", key);
	if (!(*names = calloc(json_array_size(list) + 1, sizeof **names)))
		return nomem(c);
	for (size_t i = 0; i < json_array_size(list); i++) {
		json_t *v = json_array_get(list, i);
		if (push_index(c, (int)i))
			return -1;
		if (!json_is_string(v) || !json_string_value(v)[0])
			return fail(c, 0, "%s's name is a non-empty string", what);
		if (names_find(table, json_string_value(v)) >= 0)
			return fail(c, 0, "\"%s\" is named twice in \"%s\"", json_string_value(v), key);
		if (!((*names)[*n] = strdup(json_string_value(v))))
			return nomem(c);
		names_add(table, (*names)[*n], *n);
		(*n)++;
		pop(c);
	}
	pop(c);
	return 0;
}

/* One name of "sockets": a socket (count 1) or an array of count. */
static int add_socket_name(struct wctx *c, const char *name, int64_t count, int array)
{
	struct program *p = c->prog;
	if (!name[0])
		return fail(c, array, "a socket's name is a non-empty string"); /* an array's: at its key */
	if (names_find(&c->snames, name) >= 0)
		return fail(c, 0, "\"%s\" is named twice in \"sockets\"", name);
	if (array && ( strchr(name, '[') || strchr(name, ']'))) /* "a[b][#]" would read two ways */
		return fail(c, 0, "an array's name is a non-empty string without \"[\" or \"]\"");
	if (p->nsockets + count > WORKLOAD_MAX_SOCKETS)
		return fail(c, 0, "at most %d sockets in all (arrays' elements counted)", WORKLOAD_MAX_SOCKETS);
	int32_t n = p->nsocket_names;
	if (!(p->socket_names[n] = strdup(name)))
		return nomem(c);
	p->socket_first[n] = p->nsockets;
	p->socket_count[n] = (int32_t)count;
	p->socket_array[n] = (uint8_t)array;
	names_add(&c->snames, p->socket_names[n], n);
	p->nsocket_names++;
	p->nsockets += (int32_t)count;
	return 0;
}

/* "sockets": ["s", {"conn": 2000}, ...]: a name is one socket; an object
 * names arrays and their sizes (an integer or "$param"), each element a
 * socket of its own ("conn[#]", "conn[3]": compile_socket_ref). */
static int parse_sockets(struct wctx *c, json_t *root)
{
	json_t *list = json_object_get(root, "sockets");
	size_t n = 0;
	for (size_t i = 0; json_is_array(list) && i < json_array_size(list); i++)
		n += json_is_object(json_array_get(list, i)) ? json_object_size(json_array_get(list, i)) : 1;
	struct program *p = c->prog;
	if (names_init(&c->snames, n) != 0 || !(p->socket_names = calloc(n + 1, sizeof *p->socket_names)) ||
	    !(p->socket_first = calloc(n + 1, sizeof *p->socket_first)) ||
	    !(p->socket_count = calloc(n + 1, sizeof *p->socket_count)) || !(p->socket_array = calloc(n + 1, 1)))
		return nomem(c);
	if (!list)
		return 0;
	if (push_key(c, "sockets"))
		return -1;
	if (!json_is_array(list))
		return fail(c, 0, "\"sockets\" is an array of names (a socket each) and {\"NAME\": N} objects (an array of N)");
	for (size_t i = 0; i < json_array_size(list); i++) {
		json_t *v = json_array_get(list, i);
		if (push_index(c, (int)i))
			return -1;
		if (json_is_object(v)) {
			const char *key;
			json_t *cv;
			json_object_foreach(v, key, cv) {
				int64_t count;
				if (push_key(c, key) || get_count(c, cv, 1, WORKLOAD_MAX_SOCKETS, "an array's size", &count) ||
				    add_socket_name(c, key, count, 1))
					return -1;
				pop(c);
			}
		} else if (!json_is_string(v)) {
			return fail(c, 0, "a socket's name is a string (or {\"NAME\": N}, an array of N sockets)");
		} else if (add_socket_name(c, json_string_value(v), 1, 0)) {
			return -1;
		}
		pop(c);
	}
	pop(c);
	return 0;
}

static int parse_chans(struct wctx *c, json_t *root)
{
	json_t *chans = json_object_get(root, "chans");
	if (!chans)
		return 0;
	if (push_key(c, "chans"))
		return -1;
	if (!json_is_object(chans))
		return fail(c, 0, "\"chans\" is an object of channel names and capacities");
	size_t n = json_object_size(chans);
	struct program *p = c->prog;
	p->chan_names = calloc(n, sizeof *p->chan_names);
	p->chan_cap = calloc(n, sizeof *p->chan_cap);
	if ((n && (!p->chan_names || !p->chan_cap)) || names_init(&c->cnames, n) != 0)
		return nomem(c);
	const char *key;
	json_t *v;
	json_object_foreach(chans, key, v) {
		if (push_key(c, key))
			return -1;
		if (!key[0])
			return fail(c, 1, "a channel's name is a non-empty string");
		if ( get_count(c, v, 0, WORKLOAD_MAX_COUNT, "a channel capacity", &p->chan_cap[p->nchans]))
			return -1;
		pop(c);
		if (!(p->chan_names[p->nchans] = strdup(key)))
			return nomem(c);
		names_add(&c->cnames, p->chan_names[p->nchans], p->nchans);
		p->nchans++;
	}
	pop(c);
	return 0;
}

static int parse_funcs(struct wctx *c, json_t *root)
{
	json_t *funcs = json_object_get(root, "funcs");
	if (funcs && !json_is_object(funcs)) {
		push_key(c, "funcs");
		return fail(c, 0, "\"funcs\" is an object of function names and bodies");
	}
	c->funcs = funcs;
	size_t n = funcs ? json_object_size(funcs) : 0;
	struct program *p = c->prog;
	if (!(p->funcs = calloc(n + 1, sizeof *p->funcs)) || names_init(&c->fnames, n + 1) != 0)
		return nomem(c);
	const char *key;
	json_t *v;
	if (funcs)
		json_object_foreach(funcs, key, v) {
			if (strcmp(key, "main") == 0 || !key[0]) {
				push_key(c, "funcs");
				push_key(c, key);
				return fail(c, 1, key[0] ? "\"main\" is the top-level key, not a function in \"funcs\""
							 : "a function's name is a non-empty string");
			}
			if (!(p->funcs[p->nfuncs].name = strdup(key)))
				return nomem(c);
			names_add(&c->fnames, p->funcs[p->nfuncs].name, p->nfuncs);
			p->nfuncs++;
		}
	p->main_fn = p->nfuncs;
	if (!(p->funcs[p->nfuncs].name = strdup("main")))
		return nomem(c);
	names_add(&c->fnames, p->funcs[p->nfuncs].name, p->nfuncs);
	p->nfuncs++;
	return 0;
}

static int compile_all(struct wctx *c, json_t *root)
{
	struct program *p = c->prog;
	json_t *main_body = json_object_get(root, "main");
	if (!main_body)
		return fail(c, 0, "the workload has no \"main\" (the main goroutine's operations)");
	if (push_key(c, "main") || compile_func(c, p->main_fn, main_body))
		return -1;
	pop(c);
	for (int32_t fi = 0; fi < p->main_fn; fi++) {
		if (push_key(c, "funcs") || push_key(c, p->funcs[fi].name) ||
		    compile_func(c, fi, json_object_get(c->funcs, p->funcs[fi].name)))
			return -1;
		c->depth -= 2;
	}
	return 0;
}

/* "tick": the step durations are rounded up to, 10 us (the default, the
 * seed's) or 1 us (imported workloads: a real program's stints of a few
 * us). Durations only: the clock is whole us either way. */
static int parse_tick(struct wctx *c, json_t *v)
{
	int64_t ns = TICK_US * 1000;
	if (json_is_integer(v))
		ns = json_integer_value(v) == 1 || json_integer_value(v) == TICK_US ? json_integer_value(v) * 1000 : 0;
	else if (v && (!json_is_string(v) || workload_parse_duration_ns(json_string_value(v), &ns) != 0))
		ns = 0;
	if (ns != 1000 && ns != TICK_US * 1000) { /* exactly: "1ns" or "9.1us" is no tick */
		push_key(c, "tick");
		return fail(c, 0, "\"tick\", what durations are rounded up to, is \"10us\" (the default) or \"1us\"");
	}
	c->prog->tick_us = ns / 1000;
	return 0;
}

static int parse_top(struct wctx *c, json_t *root)
{
	static const char *const keys[] = { "name", "description", "procs", "params", "chans", "main", "funcs",
					    "mutexes", "waitgroups", "sockets", "exit", "tick" };
	if (!json_is_object(root))
		return fail(c, 0, "a workload is a JSON object with \"main\" and optionally \"name\", "
				  "\"description\", \"procs\", \"params\", \"chans\", \"funcs\", \"mutexes\", "
				  "\"waitgroups\", \"sockets\", \"exit\", \"tick\"");
	const char *key;
	json_t *v;
	json_object_foreach(root, key, v) {
		size_t i = 0;
		while (i < sizeof keys / sizeof keys[0] && strcmp(key, keys[i]) != 0)
			i++;
		if (i == sizeof keys / sizeof keys[0]) {
			push_key(c, key);
			return fail(c, 1, "unknown key \"%s\" (expected name, description, procs, params, chans, main, "
					  "funcs, mutexes, waitgroups, sockets, exit, tick)", key);
		}
	}
	struct program *p = c->prog;
	json_t *ex = json_object_get(root, "exit");
	if (ex && (!json_is_string(ex) || (strcmp(json_string_value(ex), "all") != 0 &&
					   strcmp(json_string_value(ex), "main") != 0))) {
		push_key(c, "exit");
		return fail(c, 0, "\"exit\" is \"all\" (the run ends when every goroutine has finished) or "
				  "\"main\" (when main returns, as in Go)");
	}
	c->prog->exit_main = ex && strcmp(json_string_value(ex), "main") == 0;
	if (parse_tick(c, json_object_get(root, "tick")) != 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		json_t *s = json_object_get(root, keys[i]);
		if (s && !json_is_string(s)) {
			push_key(c, keys[i]);
			return fail(c, 0, "\"%s\" is a string", keys[i]);
		}
		char **dst = i ? &p->description : &p->name;
		*dst = strdup(s ? json_string_value(s) : "");
		if (!*dst)
			return nomem(c);
	}
	return 0;
}

/* "procs" after "params", so that "$p" resolves like any operand. */
static int parse_procs(struct wctx *c, json_t *root)
{
	int64_t procs = 1;
	if (json_object_get(root, "procs")) {
		if (push_key(c, "procs") || get_count(c, json_object_get(root, "procs"), 1, MAX_PROCS, "\"procs\"", &procs))
			return -1;
		pop(c);
	}
	c->prog->procs = (int)procs;
	return 0;
}

/* Finds {"go": target} in a body (outside repeats of count 0), leaving the
 * path to it on c's stack. Runs on compiled bodies only, so it recurses at
 * most WORKLOAD_MAX_DEPTH deep. */
static int locate_go(struct wctx *c, json_t *body, const char *target)
{
	for (size_t i = 0; i < json_array_size(body); i++) {
		json_t *op = json_array_get(body, i), *v;
		if (push_index(c, (int)i))
			return 0;
		if ((v = json_object_get(op, "go")) && json_is_string(v) && strcmp(json_string_value(v), target) == 0)
			return push_key(c, "go") == 0;
		if (json_object_get(op, "body") && push_key(c, "body") == 0) {
			if (locate_go(c, json_object_get(op, "body"), target))
				return 1;
			pop(c);
		}
		pop(c);
	}
	return 0;
}

/* A go statement reachable from main that starts a function already being
 * started (f -> ... -> f) spawns goroutines without end: the language has
 * no conditions to stop it. program_go_order walks the go graph depth-first
 * (skipping the bodies of repeats that run 0 times) and finds it. */
static int check_cycles(struct wctx *c, json_t *root)
{
	const struct program *p = c->prog;
	int32_t *order = malloc((size_t)p->nfuncs * sizeof *order);
	int32_t n, from, to;
	int cyc = order ? program_go_order(p, order, &n, &from, &to) : -1;
	free(order);
	if (cyc < 0)
		return nomem(c);
	if (!cyc)
		return 0;
	const char *fname = p->funcs[from].name, *tname = p->funcs[to].name;
	c->depth = 0;
	json_t *body = from == p->main_fn ? json_object_get(root, "main") : json_object_get(c->funcs, fname);
	if (from == p->main_fn)
		push_key(c, "main");
	else if (push_key(c, "funcs") == 0)
		push_key(c, fname);
	locate_go(c, body, tname);
	return fail(c, 0, "\"go\": \"%s\" in %s starts %s again while it is being started: "
			  "the program would spawn goroutines without end", tname, fname, tname);
}

/* The line and column of the last character jansson read before it gave
 * up (its own column is 0 at a line's start), skipping back over trailing
 * white space so an early end of file points at the last thing written. */
static void text_position(const char *text, size_t len, size_t pos, int *line, int *col)
{
	if (pos > len)
		pos = len;
	while (pos > 1 && strchr(" \t\r\n", text[pos - 1]))
		pos--;
	*line = 1;
	*col = 0;
	for (size_t i = 0; i < pos; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 0;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			(*col)++;
		}
	}
	if (*col == 0)
		*col = 1;
}

int workload_parse(const char *text, size_t len, const char *filename,
		   const struct param_override *ov, int nov,
		   struct program **out, char *err, size_t errlen)
{
	struct wctx c = { .text = text, .len = len, .file = filename, .err = err, .errlen = errlen };
	json_error_t jerr;
	*out = NULL;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) { /* jansson would say "invalid token near ''" */
		snprintf(err, errlen, "%s:1:1: the workload starts with a UTF-8 byte-order mark; remove it", filename);
		return -1;
	}
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		int line, col;
		text_position(text, len, (size_t)jerr.position, &line, &col);
		snprintf(err, errlen, "%s:%d:%d: %s", filename, line, col, jerr.text);
		return json_error_code(&jerr) == json_error_out_of_memory ? WORKLOAD_NOMEM : -1;
	}
	c.prog = calloc(1, sizeof *c.prog);
	int rc = !c.prog ? -1 : 0;
	if (rc == 0)
		rc = parse_top(&c, root);
	if (rc == 0)
		rc = parse_params(&c, root, ov, nov);
	if (rc == 0)
		rc = parse_procs(&c, root);
	if (rc == 0)
		rc = parse_chans(&c, root);
	if (rc == 0)
		rc = parse_namelist(&c, root, "mutexes", "a mutex", &c.prog->mutex_names, &c.prog->nmutexes, &c.mnames);
	if (rc == 0)
		rc = parse_namelist(&c, root, "waitgroups", "a wait group", &c.prog->wg_names, &c.prog->nwgs, &c.wnames);
	if (rc == 0)
		rc = parse_sockets(&c, root);
	if (rc == 0)
		rc = parse_funcs(&c, root);
	if (rc == 0)
		rc = compile_all(&c, root);
	if (rc == 0)
		rc = check_cycles(&c, root);
	names_free(&c.fnames);
	names_free(&c.cnames);
	names_free(&c.mnames);
	names_free(&c.wnames);
	names_free(&c.snames);
	json_decref(c.params);
	json_decref(c.ovnames);
	json_decref(root);
	if (rc != 0) {
		if (!c.prog) {
			snprintf(err, errlen, "%s: out of memory", filename);
			c.nomem = 1;
		}
		program_free(c.prog);
		return c.nomem ? WORKLOAD_NOMEM : -1;
	}
	*out = c.prog;
	return 0;
}
