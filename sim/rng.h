/* rng.h: seeded random streams. One seed derives one stream per consumer
 * (splitmix64 over seed and stream id), so a new random draw in one place
 * never shifts the decisions made in another. The runtime's fastrand() is
 * a 32-bit draw; rng_next32 plays it. */
#ifndef GOSIM_RNG_H
#define GOSIM_RNG_H

#include <stdint.h>

enum rng_stream { RNG_STEAL = 1, RNG_SELECT = 2, RNG_SLACK = 3, RNG_INIT = 4 };

struct rng {
	uint64_t state;
};

void rng_init(struct rng *r, uint64_t seed, enum rng_stream stream);
uint32_t rng_next32(struct rng *r);
/* Draw number i of a stream, without a state: the same (seed, stream, i)
 * always gives the same 32 bits (for draws that may be peeked at ahead). */
uint32_t rng_at(uint64_t seed, enum rng_stream stream, uint64_t i);
/* cheaprandn: a draw in [0, n) by multiply-shift, as the runtime does. */
static inline uint32_t rng_n(struct rng *r, uint32_t n) { return (uint32_t)(((uint64_t)rng_next32(r) * n) >> 32); }

#endif
