/* grow.h: the trace side's one growable-array helper (the back ends and the
 * report keep per-G and per-M tables indexed by goid or M, grown on demand).
 *
 * grow_array(&a, &cap, need, size, fill) makes *a hold at least `need`
 * elements of `size` bytes, doubling from 16; new bytes are set to `fill`
 * (0, or 0xff so int32 fields read -1). Returns 0, or -1 when out of
 * memory (the array is then unchanged). */
#ifndef GOSIM_TRACE_GROW_H
#define GOSIM_TRACE_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline int grow_array(void **a, int64_t *cap, int64_t need, size_t size, int fill)
{
	if (need <= *cap)
		return 0;
	int64_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	void *p = realloc(*a, (size_t)n * size);
	if (!p)
		return -1;
	memset((char *)p + (size_t)*cap * size, fill, (size_t)(n - *cap) * size);
	*a = p;
	*cap = n;
	return 0;
}

#endif
