/* mem.h: the allocation helper for the model's big arrays (allg, the
 * sudogs). Small arrays come from malloc; once an array grows past a few
 * MB it moves to its own anonymous mapping, aligned to 2 MB and hinted
 * with madvise(MADV_HUGEPAGE) where the system has it, so that a million
 * goroutines cost a few dozen page faults rather than thousands. The hint
 * is advice only: no I/O, no state, the same bytes either way.
 *
 * The caller keeps the array's size in bytes: it says which kind of
 * memory the array is in. */
#ifndef GOSIM_MEM_H
#define GOSIM_MEM_H

#include <stddef.h>
#include <stdint.h>

/* The array p of old_bytes grown to new_bytes (contents kept); NULL, p
 * untouched, when out of memory. */
void *sim_big_grow(void *p, size_t old_bytes, size_t new_bytes);
/* Frees an array of bytes from sim_big_grow. */
void sim_big_free(void *p, size_t bytes);

/* A small array p of *cap elements of `size` bytes doubled (to `first`
 * when empty), contents kept: the new array, *cap updated; NULL, p and
 * *cap untouched, when out of memory or the count would pass INT32_MAX. */
void *sim_grow(void *p, int32_t *cap, int32_t first, size_t size);

#endif
