/* gotrace_events.h: the Go execution trace v2 event table (Go 1.22+,
 * src/internal/trace/event/go122/event.go), shared by the writer
 * (gotrace.c) and the reader (gotrace_read.c).
 *
 * X(NAME, type byte, arguments): the arguments an event carries after its
 * type byte, each a uvarint; for timed events the first is the timestamp
 * delta ("dt"). EV_STACK and EV_STRING carry more after these (frames; a
 * length and bytes), EV_EXPERIMENTAL_BATCH is a batch header; the reader
 * handles them apart. Invariant: the numbers are go122's, in its order. */
#ifndef GOSIM_GOTRACE_EVENTS_H
#define GOSIM_GOTRACE_EVENTS_H

#define GOTRACE_EVENTS(X) \
	X(EVENT_BATCH, 1, 4) X(STACKS, 2, 0) X(STACK, 3, 2) X(STRINGS, 4, 0) X(STRING, 5, 1) \
	X(CPU_SAMPLES, 6, 0) X(CPU_SAMPLE, 7, 5) X(FREQUENCY, 8, 1) X(PROCS_CHANGE, 9, 3) \
	X(PROC_START, 10, 3) X(PROC_STOP, 11, 1) X(PROC_STEAL, 12, 4) X(PROC_STATUS, 13, 3) \
	X(GO_CREATE, 14, 4) X(GO_CREATE_SYSCALL, 15, 2) X(GO_START, 16, 3) X(GO_DESTROY, 17, 1) \
	X(GO_DESTROY_SYSCALL, 18, 1) X(GO_STOP, 19, 3) X(GO_BLOCK, 20, 3) X(GO_UNBLOCK, 21, 4) \
	X(GO_SYSCALL_BEGIN, 22, 3) X(GO_SYSCALL_END, 23, 1) X(GO_SYSCALL_END_BLOCKED, 24, 1) \
	X(GO_STATUS, 25, 4) X(STW_BEGIN, 26, 3) X(STW_END, 27, 1) X(GC_ACTIVE, 28, 2) \
	X(GC_BEGIN, 29, 3) X(GC_END, 30, 2) X(GC_SWEEP_ACTIVE, 31, 2) X(GC_SWEEP_BEGIN, 32, 2) \
	X(GC_SWEEP_END, 33, 3) X(GC_MARK_ASSIST_ACTIVE, 34, 2) X(GC_MARK_ASSIST_BEGIN, 35, 2) \
	X(GC_MARK_ASSIST_END, 36, 1) X(HEAP_ALLOC, 37, 2) X(HEAP_GOAL, 38, 2) X(GO_LABEL, 39, 2) \
	X(USER_TASK_BEGIN, 40, 5) X(USER_TASK_END, 41, 3) X(USER_REGION_BEGIN, 42, 4) \
	X(USER_REGION_END, 43, 4) X(USER_LOG, 44, 5) X(GO_SWITCH, 45, 3) \
	X(GO_SWITCH_DESTROY, 46, 3) X(GO_CREATE_BLOCKED, 47, 4) X(GO_STATUS_STACK, 48, 5) \
	X(EXPERIMENTAL_BATCH, 49, 4)

#define GOTRACE_ENUM(name, num, nargs) EV_##name = num,
enum gotrace_event { GOTRACE_EVENTS(GOTRACE_ENUM) EV__MAX };
#undef GOTRACE_ENUM

/* go122.ProcStatus and go122.GoStatus */
enum { PROC_RUNNING = 1, PROC_IDLE = 2, PROC_SYSCALL = 3 };
enum { GO_RUNNABLE = 1, GO_RUNNING = 2, GO_SYSCALL = 3, GO_WAITING = 4 };

#define GOTRACE_MAX_BATCH (64 << 10) /* go122.MaxBatchSize */
#define GOTRACE_MAX_STRING (1 << 10) /* go122.MaxStringSize */
#define GOTRACE_MAX_FRAMES 128       /* go122.MaxFramesPerStack */
#define GOTRACE_HEADER "go 1.22 trace\0\0\0" /* 16 bytes; 1.23 writes "go 1.23 trace" */

#endif
