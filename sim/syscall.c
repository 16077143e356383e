/* syscall.c: entersyscall and exitsyscall (see syscall.h). */
#include "syscall.h"

#include "cpu.h"
#include "proc.h"
#include "runq.h"

/* reentersyscall: save m.syscalltick and m.oldp; up to Go 1.25 detach P
 * (p.m = 0, m.p = 0) and mark it _Psyscall; from 1.26 (SYSCALL_KEEPS_P)
 * the P stays _Prunning and wired. Either way p.sysm names the M. */
void syscall_enter(struct sim *s, int32_t gi, int64_t dur)
{
	struct g *gp = &s->allg[gi];
	int32_t pi = gp->p, mi = g_running_m(s, gp);
	struct p *pp = &s->allp[pi];
	struct m *mp = &s->allm[mi];
	int keeps_p = sim_release_rule(s, RR_SYSCALL_KEEPS_P);
	mp->syscalltick = pp->syscalltick;
	mp->oldp = pi;
	if (!keeps_p) {
		mp->p = -1;
		pp->m = -1;
	}
	pp->sysm = mi;
	gp->u.left = dur;
	gp->schedlink = mi; /* g.m while in the syscall (g_m) */
	sim_move_g(s, gi, PL_SYSCALL, -1, R_SYSCALL);
	mp->state = MS_SYSCALL;
	sim_emit_m(s, mi, MS_RUNNING, MS_SYSCALL);
	/* the kernel's entry (and entersyscall): half of --cost-syscall, paid
	 * inside the syscall's duration (cpu.h). Simplification: the measured
	 * cost is a round trip, split evenly between entry and exit */
	cpu_thread_cost(s, mi, TOP_SYSCALL, s->cfg.cost_thread_ns[TOP_SYSCALL] / 2);
	if (!keeps_p) {
		p_set_status(s, pi, P_SYSCALL);
		sim_emit_p(s, pi, P_RUNNING, P_SYSCALL);
	}
	s->sysmon_dirty = 1;
	if (evq_push(&s->evq, s->now + dur, EVQ_SYSCALL_DONE, gi, 0) != 0)
		sim_oom(s, "events");
}

void syscall_take_p(struct sim *s, int32_t pi)
{
	struct p *pp = &s->allp[pi];
	s->allm[pp->sysm].p = -1;
	pp->m = -1;
	pp->sysm = -1;
	pp->syscalltick++;
	p_set_status(s, pi, P_IDLE);
	s->sysmon_dirty = 1;
	sim_emit_p(s, pi, P_RUNNING, P_IDLE);
}

/* exitsyscallfast (up to 1.25) or exitsyscall's fast path and
 * exitsyscallTryGetP (1.26): the old P if an M's syscall still holds it
 * (its own: 1.26 still has it wired; another's: taken back, _Psyscall ->
 * _Pidle up to 1.25, setBlockOnExitSyscall + takeP in 1.26), else an idle
 * P; -1 if the G must take the slow path. */
static int32_t exitsyscall_fast(struct sim *s, int32_t mi)
{
	struct m *mp = &s->allm[mi];
	int32_t oldp = mp->oldp;
	if (oldp >= 0 && s->allp[oldp].sysm >= 0) {
		struct p *pp = &s->allp[oldp];
		if (pp->status == P_RUNNING) { /* 1.26: wired to the M in the syscall */
			if (pp->sysm != mi)
				syscall_take_p(s, oldp);
			pp->sysm = -1;
			return oldp;
		}
		if (mp->syscalltick != pp->syscalltick) /* exitsyscallfast_reacquired */
			pp->syscalltick++;
		pp->sysm = -1;
		return oldp;
	}
	return proc_pidleget(s); /* exitsyscallfast_pidle */
}

int32_t syscall_exit(struct sim *s, int32_t gi)
{
	int32_t mi = g_m(s, &s->allg[gi]);
	int32_t oldp = s->allm[mi].oldp;
	int go126 = sim_release_rule(s, RR_SYSCALL_KEEPS_P);
	int rule = go126 ? RULE_EXITSYSCALL_TRYGETP_PIDLE : RULE_EXITSYSCALL_PIDLE;
	if (oldp >= 0 && s->allp[oldp].sysm >= 0)
		rule = s->allp[oldp].status != P_RUNNING ? RULE_EXITSYSCALL_OLDP
		       : s->allp[oldp].sysm == mi ? RULE_EXITSYSCALL_KEPTP : RULE_EXITSYSCALL_TAKEP;
	/* the kernel's exit (and exitsyscall): the other half, paid by the M
	 * before its G goes on (cpu.h) */
	int64_t exit_ns = s->cfg.cost_thread_ns[TOP_SYSCALL] - s->cfg.cost_thread_ns[TOP_SYSCALL] / 2;
	int32_t pi = exitsyscall_fast(s, mi);
	if (pi < 0) { /* exitsyscall0: no P; the G waits in the global queue */
		sim_dropg(s, mi); /* it holds no P */
		sim_rule(s, EV_G, go126 ? RULE_EXITSYSCALL_NOP : RULE_EXITSYSCALL0, 0);
		globrunq_put(s, gi, R_EXITSYSCALL);
		sim_rule_done(s);
		cpu_thread_cost(s, mi, TOP_SYSCALL, exit_ns);
		proc_mput(s, mi);
		return -1;
	}
	proc_acquirep(s, mi, pi, MS_RUNNING);
	cpu_thread_cost(s, mi, TOP_SYSCALL, exit_ns);
	s->allp[pi].syscalltick++;
	s->sysmon_dirty = 1;
	sim_rule(s, EV_G, rule, 0);
	s->allg[gi].schedlink = -1; /* the M is its P's now */
	sim_move_g(s, gi, PL_RUNNING, pi, R_EXITSYSCALL);
	sim_rule_done(s);
	return pi;
}
