/* rng.c: splitmix64 (Steele, Lea, Flood 2014): tiny, fast, full period. */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_init(struct rng *r, uint64_t seed, enum rng_stream stream)
{
	uint64_t x = seed ^ ((uint64_t)stream * 0xd1b54a32d192ed03ULL);
	r->state = splitmix64(&x);
}

uint32_t rng_next32(struct rng *r)
{
	return (uint32_t)(splitmix64(&r->state) >> 32);
}

uint32_t rng_at(uint64_t seed, enum rng_stream stream, uint64_t i)
{
	struct rng r;
	rng_init(&r, seed ^ (i * 0xbf58476d1ce4e5b9ULL), stream);
	return rng_next32(&r);
}
