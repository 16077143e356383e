/* number.h: the one strict parser of integers written as text: every
 * integer option of the command line and every -D value goes through it.
 *
 * Digits only, with a '-' in front only where the range has negatives: no
 * leading space, no '+', no hex or octal, no trailing bytes, and a range
 * check without wrapping (a seed of " -1" is not 2^64-1). */
#ifndef GOSIM_NUMBER_H
#define GOSIM_NUMBER_H

#include <stdint.h>

/* 0 and *out set if s is an integer in lo..hi, else -1. */
int number_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out);
int number_parse_u64(const char *s, uint64_t hi, uint64_t *out);

#endif
