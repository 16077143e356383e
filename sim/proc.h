/* proc.h: Ms and Ps changing hands: the idle P and idle M stacks, thread
 * creation and its limit, startm and handoffp (runtime/proc.go).
 *
 * sched.pidle and sched.midle are LIFO stacks (pidleput/pidleget,
 * mput/mget), which decides the P and M ids a trace shows. Ms are never
 * freed, so mcount() is the number created, sysmon's included; creating one
 * past cfg.max_threads kills the simulated program as checkmcount does. */
#ifndef GOSIM_PROC_H
#define GOSIM_PROC_H

#include "state.h"

void proc_pidleput(struct sim *s, int32_t pi);
int32_t proc_pidleget(struct sim *s);
void proc_mput(struct sim *s, int32_t mi);
/* mget: pop the idle M on top of the stack, or -1. */
int32_t proc_mget(struct sim *s);
int32_t proc_newm(struct sim *s);
int32_t proc_startm(struct sim *s, int32_t pi, int spinning);
void proc_acquirep(struct sim *s, int32_t mi, int32_t pi, int mstate);
void proc_releasep_stopm(struct sim *s, int32_t pi);
void proc_become_spinning(struct sim *s, int32_t mi);
/* pidlegetSpinning found no idle P: sched.needspinning = 1 (release.h:
 * NEEDSPINNING). proc_wakep_noidle: wakep's part before that, as the
 * newproc, ready and release-rule wakep sites call it: with no M spinning
 * (the nmspinning CAS succeeds) and no idle P. */
void proc_pidleget_spinning_failed(struct sim *s);
void proc_wakep_noidle(struct sim *s);
/* startm for the M that was blocked in netpoll and returns with work: it
 * is awake already (no --thread-wake). */
int32_t proc_startm_awake(struct sim *s, int32_t pi);
/* The runtime model: the M on P pi sleeps until t (its thread starting or
 * waking up, or runqgrab's usleep), holding the P; EVQ_MWAKE brings the
 * instant it runs findRunnable. */
void proc_m_sleep_until(struct sim *s, int32_t pi, int64_t t);
void sched_handoffp(struct sim *s, int32_t pi, int32_t from_m);

#endif
