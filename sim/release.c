/* release.c: the rules each Go release follows (see release.h). */
#include "release.h"

#include <stdlib.h>
#include <string.h>

#define RR_SINCE(K, since, fn, what) since,
#define RR_FN(K, since, fn, what) fn,
#define RR_WHAT(K, since, fn, what) what,
static const uint8_t rule_since[RR__N] = { SIM_RELEASE_RULES(RR_SINCE) };
static const char *const rule_fn[RR__N] = { SIM_RELEASE_RULES(RR_FN) };
static const char *const rule_what[RR__N] = { SIM_RELEASE_RULES(RR_WHAT) };
_Static_assert(RR__N <= 32, "release_rules() is a 32-bit set");

/* Digits only after "1." and after an optional ".": strtol alone would
 * take " 1" and "+1". */
static int digits(const char *p, const char **end)
{
	if (*p < '0' || *p > '9')
		return -1;
	long v = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((v = v * 10 + (*p - '0')) > 1000000)
			return -1;
	*end = p;
	return (int)v;
}

int release_parse(const char *version)
{
	const char *end;
	if (strncmp(version, "1.", 2) != 0)
		return -1;
	int minor = digits(version + 2, &end);
	if (minor < 0 || (*end == '.' && digits(end + 1, &end) < 0) || *end)
		return -1;
	return minor >= RELEASE_OLDEST && minor <= RELEASE_NEWEST ? minor : -1;
}

uint32_t release_rules(int minor)
{
	uint32_t set = 0;
	for (int r = 0; r < RR__N; r++)
		if (minor >= rule_since[r])
			set |= 1u << r;
	return set;
}

int release_rule_since(int r) { return r >= 0 && r < RR__N ? rule_since[r] : -1; }
const char *release_rule_function(int r) { return r >= 0 && r < RR__N ? rule_fn[r] : ""; }
const char *release_rule_what(int r) { return r >= 0 && r < RR__N ? rule_what[r] : ""; }

/* defaultGOMAXPROCS (1.25, cgroup_linux.go): procs = the CPU count, lowered
 * to the CPU limit rounded up (adjustCgroupGOMAXPROCS: limit = ceil(limit);
 * limit = max(limit, 2); if limit < procs, procs = limit). Before 1.25:
 * the CPU count (schedinit: procs = ncpu). */
int release_default_gomaxprocs(int minor, int ncpu, int64_t quota_milli)
{
	if (!(release_rules(minor) & (1u << RR_CGROUP_GOMAXPROCS)) || quota_milli <= 0)
		return ncpu;
	int64_t limit = (quota_milli + 999) / 1000; /* ceil */
	if (limit < 2)
		limit = 2;
	return limit < ncpu ? (int)limit : ncpu;
}
