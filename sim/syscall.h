/* syscall.h: blocking system calls (entersyscall/exitsyscall).
 *
 * entersyscall: the G keeps its M; up to Go 1.25 the P is detached and
 * marked _Psyscall, from 1.26 (release.h: SYSCALL_KEEPS_P) it stays
 * _Prunning and wired to the M; either way p.sysm names the M in the
 * syscall, the P's queues stay and can be stolen, and sysmon may retake it
 * (sysmon.c; 1.26: setBlockOnExitSyscall, then takeP before handoffp).
 * exitsyscall: the G takes its old P back if an M's syscall still holds it
 * (exitsyscallfast; 1.26: its own P still wired, or another M's taken with
 * takeP in exitsyscallTryGetP), else the most recently idled P
 * (exitsyscallfast_pidle), and runs on in the same time slice; failing
 * both (exitsyscall0, 1.26's exitsyscallNoP) it goes to the global queue's
 * tail and its M parks (stopm).
 * Simplification (1.26): setBlockOnExitSyscall's scan bit, which makes an
 * exiting G wait while sysmon works on its P, has nothing to order here:
 * sysmon's pass and the G's exit never overlap in the model. */
#ifndef GOSIM_SYSCALL_H
#define GOSIM_SYSCALL_H

#include "state.h"

void syscall_enter(struct sim *s, int32_t gi, int64_t dur);
/* exitsyscall for G gi: returns the P it now runs on (the caller, exec.c,
 * resumes it), or -1 if it went to the global queue. */
int32_t syscall_exit(struct sim *s, int32_t gi);
/* Go 1.26's takeP (syscallingThread.releaseP(_Pidle)): unwire P pi from
 * the M in its syscall (p.m = 0, m.p = 0), _Pidle, syscalltick++; the
 * caller hands it on (handoffp) or runs on it. The P is not on the idle
 * stack (npidle unchanged), as in the runtime. */
void syscall_take_p(struct sim *s, int32_t pi);

#endif
