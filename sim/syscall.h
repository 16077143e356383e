/* syscall.h: blocking system calls (Go 1.19's entersyscall/exitsyscall).
 *
 * entersyscall: the G keeps its M; the P is detached and marked _Psyscall
 * (its queues stay and can be stolen); sysmon may retake it (sysmon.c).
 * exitsyscall: the G takes its old P back if it is still in _Psyscall
 * (exitsyscallfast), else the most recently idled P (exitsyscallfast_pidle),
 * and runs on in the same time slice; failing both (exitsyscall0) it goes
 * to the global queue's tail and its M parks (stopm).
 * Simplification: Go 1.26's variant (the P stays wired; sysmon freezes the
 * G with setBlockOnExitSyscall) is not modelled; --go only changes how
 * schedtrace prints. */
#ifndef GOSIM_SYSCALL_H
#define GOSIM_SYSCALL_H

#include "state.h"

void syscall_enter(struct sim *s, int32_t gi, int64_t dur);
/* exitsyscall for G gi: returns the P it now runs on (the caller, exec.c,
 * resumes it), or -1 if it went to the global queue. */
int32_t syscall_exit(struct sim *s, int32_t gi);

#endif
