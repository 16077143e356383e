/* sema.h: sync.Mutex and sync.WaitGroup over the runtime's semaphores
 * (sync/mutex.go, sync/waitgroup.go, runtime/sema.go).
 *
 * Mutex (Go 1.9+): Lock takes an unlocked, non-starving mutex at once
 * (the fast path, and lockSlow's CAS when nobody holds it: a new arrival
 * barges past woken waiters). Otherwise the G counts itself a waiter and
 * parks on the mutex's semaphore (runtime_SemacquireMutex:
 * waitReasonSyncMutexLock), at the tail the first time and at the head
 * when it requeues (queueLifo: it has waited before). Unlock in normal
 * mode wakes the first waiter (semrelease: goready into the unlocker's
 * runnext) and sets mutexWoken; the woken G competes again when it runs
 * and usually loses to the unlocker, which runs on. A waiter that has
 * waited more than 1 ms (starvationThresholdNs) switches the mutex to
 * starvation mode as it requeues: then Unlock hands the mutex straight
 * to the first waiter (semrelease with handoff: the ticket) and yields
 * its P to it (goyield), new arrivals queue at the tail, and the mode
 * ends when the waiter taking it is the last or waited under 1 ms.
 * Unlocking an unlocked mutex is fatal ("sync: unlock of unlocked
 * mutex").
 *
 * Active spinning (the runtime model): a Lock that finds the mutex held
 * and not starving first spins while sync_runtime_canSpin allows it (at
 * most active_spin = 4 times, on more than one CPU, with GOMAXPROCS >
 * npidle + nmspinning + 1, its P's run queue empty): it sets mutexWoken
 * if no waiter is woken and some wait (so Unlock wakes none), spends
 * sync_runtime_doSpin's procyield(30) (RUNTIME_SPIN_NS, measured) on its
 * P as an op cost, and tries again; a waiter back from the semaphore
 * spins the same way before it requeues.
 * Simplifications: the seed model, and a runtime model with every
 * --cost-* at 0 (no way to pay the spin's time), do not spin: a Lock that
 * finds the mutex held queues at once. A spin is paid in whole
 * microseconds as the op costs are (exec.c: pay_cost), so 4 spins last
 * 2-3 us instead of 2.96.
 *
 * WaitGroup: Add moves the counter (below zero it panics: "sync:
 * negative WaitGroup counter"); when it reaches zero every G in Wait is
 * released (one semrelease each, into the adder's runnext); Wait returns
 * at once at zero, else parks on the semaphore (waitReasonSemacquire in
 * Go 1.23, "sync.WaitGroup.Wait" from 1.24).
 *
 * Invariants (check.c): a mutex's semaphore queue holds at most `waiters`
 * sudogs, and at least waiters - 1 (a waiter woken but not yet run). */
#ifndef GOSIM_SEMA_H
#define GOSIM_SEMA_H

#include "state.h"

/* Lock / Unlock by the running G gi: 1 if it runs on, 0 if it parked,
 * yielded or the program died. */
int sema_lock(struct sim *s, int32_t gi, int32_t mi);
int sema_unlock(struct sim *s, int32_t gi, int32_t mi);
/* WaitGroup Add (Done: delta -1) and Wait by the running G gi. */
int sema_add(struct sim *s, int32_t gi, int32_t wi, int64_t delta);
int sema_wait(struct sim *s, int32_t gi, int32_t wi);

#endif
