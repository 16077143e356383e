/* names.h: a table from names to indices, for the compiler's look-ups of
 * function and channel names (one per go, send and recv), so compiling is
 * linear in the workload's size.
 *
 * Open addressing with linear probing over a power-of-two array at most
 * half full; each slot keeps the name's hash so a probe compares strings
 * only on a hash match. The table borrows the name strings (they must
 * outlive it) and holds no global state. */
#ifndef GOSIM_NAMES_H
#define GOSIM_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct name_slot {
	const char *name; /* NULL: empty */
	uint64_t hash;
	int32_t index;
};

struct names {
	struct name_slot *slots;
	size_t mask; /* slots - 1 */
};

/* Room for up to n names. Returns 0, or -1 when out of memory. */
int names_init(struct names *t, size_t n);
/* Adds name -> index; a name already present keeps its first index. At
 * most the n given to names_init. */
void names_add(struct names *t, const char *name, int32_t index);
/* The index of name, or -1. */
int32_t names_find(const struct names *t, const char *name);
void names_free(struct names *t);

#endif
