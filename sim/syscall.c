/* syscall.c: entersyscall and exitsyscall (see syscall.h). */
#include "syscall.h"

#include "proc.h"
#include "runq.h"

/* reentersyscall: save m.syscalltick, detach P (p.m = 0, m.oldp = p,
 * m.p = 0) and mark it _Psyscall. */
void syscall_enter(struct sim *s, int32_t gi, int64_t dur)
{
	struct g *gp = &s->allg[gi];
	int32_t pi = gp->p, mi = gp->m;
	struct p *pp = &s->allp[pi];
	struct m *mp = &s->allm[mi];
	mp->syscalltick = pp->syscalltick;
	mp->oldp = pi;
	mp->p = -1;
	pp->m = -1;
	pp->sysm = mi;
	gp->u.left = dur;
	sim_move_g(s, gi, PL_SYSCALL, -1, R_SYSCALL);
	mp->state = MS_SYSCALL;
	sim_emit_m(s, mi, MS_RUNNING, MS_SYSCALL);
	pp->status = P_SYSCALL;
	sim_emit_p(s, pi, P_RUNNING, P_SYSCALL);
	s->sysmon_dirty = 1;
	if (evq_push(&s->evq, s->now + dur, EVQ_SYSCALL_DONE, gi, 0) != 0)
		sim_oom(s, "events");
}

/* exitsyscallfast: P pi, or -1 if the G must take the slow path. */
static int32_t exitsyscall_fast(struct sim *s, struct m *mp)
{
	int32_t oldp = mp->oldp;
	if (oldp >= 0 && s->allp[oldp].status == P_SYSCALL) {
		struct p *pp = &s->allp[oldp];
		if (mp->syscalltick != pp->syscalltick) /* exitsyscallfast_reacquired */
			pp->syscalltick++;
		pp->sysm = -1;
		return oldp;
	}
	return proc_pidleget(s); /* exitsyscallfast_pidle */
}

int32_t syscall_exit(struct sim *s, int32_t gi)
{
	int32_t mi = s->allg[gi].m;
	int32_t oldp = s->allm[mi].oldp;
	int reacquired = oldp >= 0 && s->allp[oldp].status == P_SYSCALL;
	int32_t pi = exitsyscall_fast(s, &s->allm[mi]);
	if (pi < 0) { /* exitsyscall0: no P; the G waits in the global queue */
		s->allm[mi].curg = -1;
		sim_rule(s, EV_G, RULE_EXITSYSCALL0, 0);
		globrunq_put(s, gi, R_EXITSYSCALL);
		sim_rule_done(s);
		proc_mput(s, mi);
		return -1;
	}
	proc_acquirep(s, mi, pi, MS_RUNNING);
	s->allp[pi].syscalltick++;
	s->sysmon_dirty = 1;
	sim_rule(s, EV_G, reacquired ? RULE_EXITSYSCALL_OLDP : RULE_EXITSYSCALL_PIDLE, 0);
	sim_move_g(s, gi, PL_RUNNING, pi, R_EXITSYSCALL);
	sim_rule_done(s);
	return pi;
}
