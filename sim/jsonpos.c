/* jsonpos.c: find where a value sits in JSON text, for error messages.
 *
 * jansson parses workloads but keeps no positions for values, so when the
 * compiler rejects one it asks this small scanner for the line and column
 * of the value (or the key) at a path such as main[3].repeat. The text is
 * known to be valid JSON (jansson accepted it), which keeps this simple. */
#include "jsonpos.h"

#include <string.h>

struct scan {
	const char *s;
	size_t n, i;
	int line, col;
};

static void adv(struct scan *p)
{
	if (p->i >= p->n)
		return;
	if (p->s[p->i] == '\n') {
		p->line++;
		p->col = 1;
	} else if (((unsigned char)p->s[p->i] & 0xc0) != 0x80) {
		p->col++; /* count characters, not UTF-8 continuation bytes */
	}
	p->i++;
}

static int peek(const struct scan *p) { return p->i < p->n ? (unsigned char)p->s[p->i] : -1; }

static void ws(struct scan *p)
{
	while (peek(p) == ' ' || peek(p) == '\t' || peek(p) == '\n' || peek(p) == '\r' || peek(p) == 0)
		adv(p); /* jansson lets a NUL byte pass between tokens */
}

/* Skips a string; sets [*b, *e) to its raw contents. */
static void skip_string(struct scan *p, size_t *b, size_t *e)
{
	adv(p);
	*b = p->i;
	while (p->i < p->n && peek(p) != '"') {
		if (peek(p) == '\\')
			adv(p);
		if (p->i < p->n)
			adv(p);
	}
	*e = p->i;
	if (p->i < p->n)
		adv(p);
}

static void skip_value(struct scan *p);

/* Skips the rest of an item: its value, white space and a comma. */
static void next_item(struct scan *p)
{
	skip_value(p);
	ws(p);
	if (peek(p) == ',') {
		adv(p);
		ws(p);
	}
}

/* Skips a member's key and colon, noting where the key began. */
static int member_key(struct scan *p, const char *key, int *line, int *col)
{
	size_t b, e;
	*line = p->line;
	*col = p->col;
	skip_string(p, &b, &e);
	ws(p);
	adv(p); /* ':' */
	ws(p);
	return key && e - b == strlen(key) && memcmp(p->s + b, key, e - b) == 0;
}

static void skip_container(struct scan *p, int close)
{
	adv(p);
	ws(p);
	int line, col;
	while (p->i < p->n && peek(p) != close) {
		if (close == '}')
			member_key(p, NULL, &line, &col);
		next_item(p);
	}
	if (p->i < p->n)
		adv(p);
}

static void skip_value(struct scan *p)
{
	size_t b, e;
	switch (peek(p)) {
	case '"':
		skip_string(p, &b, &e);
		return;
	case '{':
		skip_container(p, '}');
		return;
	case '[':
		skip_container(p, ']');
		return;
	default:
		while (p->i < p->n && p->s[p->i] && !strchr(",]} \t\r\n", p->s[p->i]))
			adv(p);
	}
}

static int find(struct scan *p, const struct jsonpos_step *path, int n, int *line, int *col);

static int find_member(struct scan *p, const struct jsonpos_step *path, int n, int *line, int *col)
{
	adv(p);
	ws(p);
	while (p->i < p->n && peek(p) != '}') {
		int kl, kc;
		if (!member_key(p, path->key, &kl, &kc)) {
			next_item(p);
		} else if (path->want_key) {
			*line = kl;
			*col = kc;
			return 1;
		} else {
			return find(p, path + 1, n - 1, line, col);
		}
	}
	return 0;
}

static int find_element(struct scan *p, const struct jsonpos_step *path, int n, int *line, int *col)
{
	adv(p);
	ws(p);
	for (int k = 0; p->i < p->n && peek(p) != ']'; k++) {
		if (k == path->index)
			return find(p, path + 1, n - 1, line, col);
		next_item(p);
	}
	return 0;
}

static int find(struct scan *p, const struct jsonpos_step *path, int n, int *line, int *col)
{
	ws(p);
	*line = p->line;
	*col = p->col;
	if (n == 0)
		return 1;
	if (path->key && peek(p) == '{')
		return find_member(p, path, n, line, col);
	if (!path->key && peek(p) == '[')
		return find_element(p, path, n, line, col);
	return 1; /* the path ends early: the closest enclosing value */
}

void jsonpos_find(const char *text, size_t len, const struct jsonpos_step *path, int n, int *line, int *col)
{
	struct scan p = { .s = text, .n = len, .i = 0, .line = 1, .col = 1 };
	*line = 1;
	*col = 1;
	find(&p, path, n, line, col);
}
