/* schedtrace.c: the runtime's schedtrace() output (see schedtrace.h). */
#include "schedtrace.h"

#include <stdlib.h>
#include <string.h>

#include "../sim/state.h"

int schedtrace_family(const char *version, enum schedtrace_family *out)
{
	char *end;
	if (strncmp(version, "1.", 2) != 0 || version[2] < '0' || version[2] > '9')
		return -1;
	long minor = strtol(version + 2, &end, 10);
	if (*end == '.') {
		char *end2;
		if (end[1] < '0' || end[1] > '9')
			return -1; /* digits only: strtol would take " 1" and "+1" */
		long patch = strtol(end + 1, &end2, 10);
		if (end2 == end + 1 || *end2 || patch < 0)
			return -1;
	} else if (*end) {
		return -1;
	}
	if (minor < 19 || minor > 99)
		return -1;
	*out = minor >= 25 ? SCHEDTRACE_GO125 : minor >= 21 ? SCHEDTRACE_GO121 : SCHEDTRACE_GO119;
	return 0;
}

static const char *id_or_none(char *buf, size_t n, int32_t id, enum schedtrace_family fam)
{
	if (id >= 0)
		snprintf(buf, n, "%d", id);
	else
		snprintf(buf, n, "%s", fam == SCHEDTRACE_GO119 ? "-1" : "nil");
	return buf;
}

static const char *flag(int v, enum schedtrace_family fam)
{
	if (fam == SCHEDTRACE_GO119)
		return v ? "1" : "0";
	return v ? "true" : "false";
}

static void print_ps(FILE *f, const struct sim *s, enum schedtrace_family fam, int detail)
{
	char b[16];
	for (int32_t i = 0; i < s->nprocs; i++) {
		const struct p *pp = &s->allp[i];
		if (detail) {
			fprintf(f, "  P%d: status=%d schedtick=%u syscalltick=%u m=%s runqsize=%u gfreecnt=0 timerslen=%d\n",
				i, pp->status, pp->schedtick, pp->syscalltick, id_or_none(b, sizeof b, pp->m, fam),
				pp->runqtail - pp->runqhead, pp->timers.len);
			continue;
		}
		if (i == 0)
			fputs(fam == SCHEDTRACE_GO125 ? " [ " : " [", f);
		fprintf(f, fam == SCHEDTRACE_GO125 ? "%u " : "%u", pp->runqtail - pp->runqhead);
		if (i < s->nprocs - 1 && fam != SCHEDTRACE_GO125)
			fputc(' ', f);
	}
	if (detail)
		return;
	fputs("]", f);
	if (fam == SCHEDTRACE_GO125) {
		fputs(" schedticks=[ ", f);
		for (int32_t i = 0; i < s->nprocs; i++)
			fprintf(f, "%u ", s->allp[i].schedtick);
		fputs("]", f);
	}
	fputc('\n', f);
}

static void print_ms(FILE *f, const struct sim *s, enum schedtrace_family fam)
{
	char b1[16], b2[16], b3[16];
	for (int32_t i = s->nm - 1; i >= 0; i--) { /* allm: newest first */
		const struct m *mp = &s->allm[i];
		fprintf(f, "  M%d: p=%s curg=%s mallocing=0 throwing=0 preemptoff= locks=%d dying=0 spinning=%s blocked=%s lockedg=%s\n",
			i, id_or_none(b1, sizeof b1, mp->p, fam), id_or_none(b2, sizeof b2, goid(s, mp->curg), fam),
			i == s->sysmon_m ? 2 : 0, mp->state == MS_SPINNING ? "true" : "false",
			mp->state == MS_IDLE ? "true" : "false", id_or_none(b3, sizeof b3, -1, fam));
	}
}

/* Go 1.23 parks WaitGroup.Wait as "semacquire"; 1.24 and later say
 * "sync.WaitGroup.Wait". Simplification: --go=1.24 prints as 1.21-1.23. */
static const char *wait_name(int wr, enum schedtrace_family fam)
{
	if (wr == WR_WAITGROUP && fam != SCHEDTRACE_GO125)
		return "semacquire";
	return sim_waitreason_name(wr);
}

static void print_gs(FILE *f, const struct sim *s, enum schedtrace_family fam)
{
	char b1[16], b2[16];
	for (int32_t i = 0; i < s->ng; i++) {
		const struct g *gp = &s->allg[i];
		fprintf(f, "  G%d: status=%d(%s) m=%s lockedm=%s\n", gp->goid, g_status(gp), wait_name(gp->waitreason, fam),
			id_or_none(b1, sizeof b1, g_m(s, gp), fam), id_or_none(b2, sizeof b2, -1, fam));
	}
}

int schedtrace_print(FILE *f, const struct sim *s, enum schedtrace_family fam, int detail)
{
	int nmspinning = 0;
	for (int32_t i = 0; i < s->nm; i++)
		nmspinning += s->allm[i].state == MS_SPINNING;
	fprintf(f, "SCHED %lldms: gomaxprocs=%d idleprocs=%d threads=%d spinningthreads=%d",
		(long long)((s->now - s->starttime) / 1000), s->nprocs, s->npidle, s->nm, nmspinning);
	if (fam != SCHEDTRACE_GO119 || s->cfg.go_release == 20) /* 1.20 prints it too (1.20.2's schedtrace) */
		fprintf(f, " needspinning=%d", s->needspinning);
	fprintf(f, " idlethreads=%d runqueue=%lld", s->nmidle, (long long)s->runq.size);
	if (detail)
		fprintf(f, " gcwaiting=%s nmidlelocked=0 stopwait=0 sysmonwait=%s\n", flag(0, fam), flag(0, fam));
	print_ps(f, s, fam, detail);
	if (detail) {
		print_ms(f, s, fam);
		print_gs(f, s, fam);
	}
	return ferror(f) ? -1 : 0;
}
