/* number.c: strict integers (see number.h). */
#include "number.h"

int number_parse_u64(const char *s, uint64_t hi, uint64_t *out)
{
	uint64_t v = 0;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (*s || v > hi)
		return -1;
	*out = v;
	return 0;
}

int number_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
	int neg = *s == '-' && lo < 0;
	uint64_t mag;
	/* a negative's magnitude may be one more than INT64_MAX */
	if (number_parse_u64(s + neg, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, &mag) != 0)
		return -1;
	int64_t v = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}
