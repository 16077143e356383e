/* mem.c: see mem.h. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, madvise's MADV_HUGEPAGE, mremap (Linux) */
#include "mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* From this size an array lives in its own mapping (a huge page is 2 MB). */
#define BIG_FROM ((size_t)4 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

static int is_mapped(size_t bytes) { return bytes >= BIG_FROM; }
/* A mapping's length: its bytes rounded up to whole huge pages. */
static size_t map_len(size_t bytes) { return (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1); }

/* A mapping of len bytes aligned to HUGE_PAGE: map one huge page more,
 * unmap the ends. */
static void *map_aligned(size_t len)
{
	char *raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	uintptr_t a = ((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	size_t head = a - (uintptr_t)raw;
	if (head)
		munmap(raw, head);
	if (HUGE_PAGE - head)
		munmap((char *)a + len, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
	(void)madvise((void *)a, len, MADV_HUGEPAGE);
#endif
	return (void *)a;
}

/* A mapped array's pages moved, not copied, to the head of the new
 * mapping a (mremap over it), so that growing never holds the array
 * twice: a copy would make the peak the old array plus its copy (with a
 * million goroutines, as much as the grown array's final use). Returns 0
 * where it cannot (the old array is on the heap, or no mremap). */
static int move_pages(void *p, size_t old_bytes, void *a)
{
#ifdef MREMAP_FIXED
	if (p && is_mapped(old_bytes) &&
	    mremap(p, map_len(old_bytes), map_len(old_bytes), MREMAP_MAYMOVE | MREMAP_FIXED, a) == a)
		return 1;
#else
	(void)p, (void)old_bytes, (void)a;
#endif
	return 0;
}

void *sim_big_grow(void *p, size_t old_bytes, size_t new_bytes)
{
	if (!is_mapped(new_bytes))
		return realloc(p, new_bytes);
	if (is_mapped(old_bytes) && map_len(old_bytes) >= new_bytes)
		return p; /* the mapping has room already */
	void *a = map_aligned(map_len(new_bytes));
	if (!a)
		return NULL;
	if (move_pages(p, old_bytes, a))
		return a;
	if (p)
		memcpy(a, p, old_bytes);
	sim_big_free(p, old_bytes);
	return a;
}

void sim_big_free(void *p, size_t bytes)
{
	if (!p)
		return;
	if (is_mapped(bytes))
		munmap(p, map_len(bytes));
	else
		free(p);
}

void *sim_grow(void *p, int32_t *cap, int32_t first, size_t size)
{
	if (*cap > INT32_MAX / 2)
		return NULL;
	int32_t n = *cap ? *cap * 2 : first;
	void *a = realloc(p, (size_t)n * size);
	if (a)
		*cap = n;
	return a;
}
