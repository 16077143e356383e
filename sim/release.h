/* release.h: the runtime model's rules that differ between Go releases, in
 * one table (--go=VERSION, 1.19 to 1.26; default RELEASE_DEFAULT).
 *
 * Each row of SIM_RELEASE_RULES is one rule: its name, the first release
 * that follows it, the runtime function it lives in and what it does. A
 * release follows every rule whose first release it has reached
 * (release_rules); sim_new turns cfg.go_release into that set once
 * (s->rules), and the model asks sim_release_rule(s, RR_...) where the
 * rule applies. The seed model (--model=seed) follows none of them, so its
 * output is the same for every --go.
 *
 * Where each was read (proc.go at each release; cgroup_linux.go for 1.25):
 * - GOSCHED_WAKEP: goschedImpl has no wakep in 1.19, 1.20 (Go 1.20.2) and
 *   1.21 (1.21.13); 1.22 (1.22.12) calls it after globrunqput, "if
 *   mainStarted". gopreempt_m goes through goschedImpl, so a preempted G
 *   wakes a P too.
 * - INJECTGLIST_WAKEP: injectglist ends with wakep() from 1.23 (1.23.x;
 *   not in 1.22.12), on the path with a P only (without one it returns
 *   after startIdle), and only for a non-empty list (it returns at once
 *   on an empty one).
 * - CGROUP_GOMAXPROCS: defaultGOMAXPROCS (1.25, cgroup_linux.go): the
 *   minimum of the CPUs (sched_getaffinity) and the cgroup's CPU limit
 *   quota/period, rounded up, at least 2. Before 1.25 GOMAXPROCS defaults
 *   to the CPU count (NumCPU), quota or not.
 * - SYSCALL_KEEPS_P: Go 1.26 (golang/go at 00120edb): reentersyscall no
 *   longer detaches the P nor sets _Psyscall; the P stays _Prunning, wired
 *   to its M (m.p), and retake finds it through setBlockOnExitSyscall and
 *   takes it with takeP (p.m = 0, m.p = 0, _Pidle, syscalltick++) before
 *   handoffp; exitsyscall keeps running on m.p if it is still there, else
 *   exitsyscallTryGetP takes its old P back from another M in a syscall
 *   (setBlockOnExitSyscall(oldp) + takeP) or an idle P, else
 *   exitsyscallNoP. Up to 1.25 the P is detached and _Psyscall, and
 *   exitsyscallfast CASes it _Psyscall -> _Pidle to wire it again.
 *   The decisions are the same in both (same retake conditions, same
 *   handoffp, the old P taken back from whichever M's syscall holds it);
 *   what differs is the state: the P's status and M link while its M is
 *   in a syscall, and so the P records and scheddetail's status= and p=.
 *
 * - NEEDSPINNING: sched.needspinning is new in 1.20 (in 1.20.2's proc.go,
 *   printed by its schedtrace; absent from 1.19.8's). pidlegetSpinning sets it when wakep (after its nmspinning
 *   CAS) or findRunnable's netpoll return finds no idle P; findRunnable's
 *   drop-P path, finding it set in a non-spinning M, makes that M spinning
 *   (becomeSpinning, which clears it) and starts over; handoffp's
 *   spinning startm clears it too.
 *
 * Not rows, because no decision in the model can depend on them:
 * 1.25's sched.pollingNet (findRunnable lets one M at a time do the
 * non-blocking netpoll): a poll takes no time in the model and Ms run
 * findRunnable one after another, so no M ever finds another one polling.
 * (Read in 1.25.3's proc.go; absent in 1.23's. No 1.24 source was at
 * hand when this was written: 1.24 is taken to be without it.)
 *
 * Rows are never reordered (they are bit numbers). */
#ifndef GOSIM_RELEASE_H
#define GOSIM_RELEASE_H

#include <stdint.h>

#define RELEASE_OLDEST 19
#define RELEASE_NEWEST 26
#define RELEASE_DEFAULT 25 /* --go's default: the newest schedtrace format's release */

#define SIM_RELEASE_RULES(X) \
	X(GOSCHED_WAKEP, 22, "goschedImpl", "wakep after putting the G on the global queue (Gosched, preemption)") \
	X(INJECTGLIST_WAKEP, 23, "injectglist", "wakep at the end of a non-empty list injected with a P") \
	X(CGROUP_GOMAXPROCS, 25, "defaultGOMAXPROCS", "GOMAXPROCS defaults to min(CPUs, max(2, ceil(CPU quota)))") \
	X(SYSCALL_KEEPS_P, 26, "entersyscall", "the P stays _Prunning, wired to its M, during a syscall; retake takes it (takeP)") \
	X(NEEDSPINNING, 20, "pidlegetSpinning", "no idle P for a wakep or a netpoll return sets sched.needspinning; an M about to drop its P then spins instead")

#define SIM_ENUM_RR(K, since, fn, what) RR_##K,
enum release_rule { SIM_RELEASE_RULES(SIM_ENUM_RR) RR__N };

/* "1.22", "1.22.12" -> 22; -1 if not a release in RELEASE_OLDEST..NEWEST
 * (digits only, as --go takes them). */
int release_parse(const char *version);
/* The set of rules release 1.minor follows: bit RR_x set for each. */
uint32_t release_rules(int minor);
/* The first release of rule r, its runtime function, what it does. */
int release_rule_since(int r);
const char *release_rule_function(int r);
const char *release_rule_what(int r);
/* defaultGOMAXPROCS of release 1.minor on a machine of ncpu CPUs under a
 * cgroup CPU limit of quota_milli thousandths of a CPU (0: no limit). */
int release_default_gomaxprocs(int minor, int ncpu, int64_t quota_milli);

#endif
