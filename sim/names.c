/* names.c: the compiler's name table (see names.h). */
#include "names.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_name(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

int names_init(struct names *t, size_t n)
{
	size_t cap = 8;
	while (cap < 2 * n) {
		if (cap > SIZE_MAX / 4 / sizeof *t->slots)
			return -1;
		cap *= 2;
	}
	t->slots = calloc(cap, sizeof *t->slots);
	t->mask = cap - 1;
	return t->slots ? 0 : -1;
}

/* The slot holding name, or the empty slot where it would go. */
static struct name_slot *probe(const struct names *t, const char *name, uint64_t h)
{
	for (size_t i = (size_t)h & t->mask;; i = (i + 1) & t->mask) {
		struct name_slot *sl = &t->slots[i];
		if (!sl->name || (sl->hash == h && strcmp(sl->name, name) == 0))
			return sl;
	}
}

void names_add(struct names *t, const char *name, int32_t index)
{
	uint64_t h = hash_name(name);
	struct name_slot *sl = probe(t, name, h);
	if (!sl->name)
		*sl = (struct name_slot){ .name = name, .hash = h, .index = index };
}

int32_t names_find(const struct names *t, const char *name)
{
	if (!t->slots) /* never initialised: no names */
		return -1;
	const struct name_slot *sl = probe(t, name, hash_name(name));
	return sl->name ? sl->index : -1;
}

void names_free(struct names *t)
{
	free(t->slots);
	t->slots = NULL;
}
