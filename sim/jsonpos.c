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

/* Skips one value. A container is skipped by counting its brackets (the
 * strings inside skipped whole), not by recursion: jansson accepts nesting
 * up to JSON_PARSER_MAX_DEPTH, and nothing here recurses on the input. */
static void skip_value(struct scan *p)
{
	size_t b, e;
	int depth = 0;
	do {
		int ch = peek(p);
		if (ch == '"') {
			skip_string(p, &b, &e);
		} else if (ch == '{' || ch == '[') {
			depth++;
			adv(p);
		} else if (ch == '}' || ch == ']') {
			depth--;
			adv(p);
		} else if (depth > 0) {
			adv(p);
		} else {
			while (p->i < p->n && p->s[p->i] && !strchr(",]} \t\r\n", p->s[p->i]))
				adv(p);
		}
	} while (depth > 0 && p->i < p->n);
}

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

enum { NOT_FOUND, FOUND, DESCEND };

/* In an object, finds the member step names: its key (FOUND, at the key),
 * or DESCEND with p at its value. */
static int find_member(struct scan *p, const struct jsonpos_step *step, int *line, int *col)
{
	adv(p);
	ws(p);
	while (p->i < p->n && peek(p) != '}') {
		int kl, kc;
		if (!member_key(p, step->key, &kl, &kc)) {
			next_item(p);
		} else if (step->want_key) {
			*line = kl;
			*col = kc;
			return FOUND;
		} else {
			return DESCEND;
		}
	}
	return NOT_FOUND;
}

/* In an array, DESCEND with p at element step->index. */
static int find_element(struct scan *p, const struct jsonpos_step *step)
{
	adv(p);
	ws(p);
	for (int k = 0; p->i < p->n && peek(p) != ']'; k++) {
		if (k == step->index)
			return DESCEND;
		next_item(p);
	}
	return NOT_FOUND;
}

/* Follows the path one step at a time (a loop: the path is the input's). */
static void find(struct scan *p, const struct jsonpos_step *path, int n, int *line, int *col)
{
	for (int k = 0;; k++) {
		ws(p);
		*line = p->line;
		*col = p->col;
		int r = NOT_FOUND;
		if (k == n)
			return;
		if (path[k].key && peek(p) == '{')
			r = find_member(p, &path[k], line, col);
		else if (!path[k].key && peek(p) == '[')
			r = find_element(p, &path[k]);
		else
			return; /* the path ends early: the closest enclosing value */
		if (r != DESCEND)
			return;
	}
}

void jsonpos_find(const char *text, size_t len, const struct jsonpos_step *path, int n, int *line, int *col)
{
	struct scan p = { .s = text, .n = len, .i = 0, .line = 1, .col = 1 };
	*line = 1;
	*col = 1;
	find(&p, path, n, line, col);
}
