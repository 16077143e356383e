// newm.go: what creating an M (thread) costs the Go runtime here beyond
// waking a parked one, the runtime model's --cost-clone and --cost-mstart
// (proc.go: startm -> newm -> allocm (the M, its g0 and gsignal stacks) ->
// newm1 -> newosproc (clone, with signals blocked around it) on the
// creator's thread; mstart -> mstart1 -> minit (the signal stack and mask)
// -> schedule on the new one).
//
// Method, at GOMAXPROCS=1 with the GC off. A round is K iterations of:
// main starts a goroutine that locks the thread it runs on
// (runtime.LockOSThread), tells main, and parks; main waits for it. The
// locker runs on main's M (main parked, runnext), so when it parks its M
// stays with it (stoplockedm), and handoffp -> startm gives the P, with
// main in its queue, to another M: a new one (newm) while none is idle,
// a parked one (mget, notewakeup) once the lockers of earlier rounds have
// unlocked and exited. So "fresh" rounds create one thread per iteration
// and "reuse" rounds wake one; everything else is the same.
//
//	iter    the process's CPU time (CLOCK_PROCESS_CPUTIME_ID) per
//	        iteration, sysmon's thread's (its /proc/self/task schedstat,
//	        the lowest thread id after the main thread's: runtime.main's
//	        first newm) taken out; fresh - reuse = (newm + the new M's
//	        start) - (notewakeup + the woken M's futexsleep return)
//	locker  the locker's thread CPU (CLOCK_THREAD_CPUTIME_ID) from just
//	        before it parks to just after it is let go: its park, handoffp
//	        -> startm (newm or notewakeup) and its sleep; fresh - reuse =
//	        newm - notewakeup, the creator's part
//
// so, with threads.c's futex-wake-cpu (W) and futex-sleep-cpu (F), the
// runtime model's figures that keep its creation minus its wake equal to
// the measured difference: clone = W + locker difference (the creator's),
// mstart = F + iter difference - locker difference (the new thread's).
// Prints the medians over ROUNDS rounds of each kind (ns).
// Usage: go run newm.go [ROUNDS]
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

const perRound = 40

func clock(id uintptr) int64 {
	var ts syscall.Timespec
	syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

func processCPU() int64 { return clock(2) } // CLOCK_PROCESS_CPUTIME_ID
func threadCPU() int64  { return clock(3) } // CLOCK_THREAD_CPUTIME_ID

// taskCPU: thread tid's time on a CPU (ns), schedstat's first field.
func taskCPU(tid int) int64 {
	b, err := os.ReadFile("/proc/self/task/" + strconv.Itoa(tid) + "/schedstat")
	if err != nil {
		return 0
	}
	v, _ := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
	return v
}

// sysmonTid: the first thread runtime.main created (newm(sysmon)).
func sysmonTid() int {
	ents, _ := os.ReadDir("/proc/self/task")
	pid, best := os.Getpid(), 0
	for _, e := range ents {
		if t, _ := strconv.Atoi(e.Name()); t != pid && (best == 0 || t < best) {
			best = t
		}
	}
	return best
}

var lockerCPU = make(chan int64, 1<<16)

// round: perRound lockers, parked until release is closed. Returns the
// process's CPU per iteration, sysmon's out.
func round(release chan struct{}, sysmon int) float64 {
	ready := make(chan struct{})
	c0, s0 := processCPU(), taskCPU(sysmon)
	for i := 0; i < perRound; i++ {
		go func() {
			runtime.LockOSThread()
			ready <- struct{}{}
			t0 := threadCPU()
			<-release
			lockerCPU <- threadCPU() - t0
			runtime.UnlockOSThread()
		}()
		<-ready
	}
	return float64(processCPU()-c0-(taskCPU(sysmon)-s0)) / perRound
}

// letGo releases the lockers and waits until each has reported: their Ms
// go idle (stopm). Returns their figures.
func letGo(release []chan struct{}) []float64 {
	for _, r := range release {
		close(r)
	}
	v := make([]float64, 0, len(release)*perRound)
	for len(v) < cap(v) {
		v = append(v, float64(<-lockerCPU))
	}
	return v
}

func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}

// rounds: n rounds; returns their per-iteration figures and the lockers'.
func rounds(n, sysmon int) ([]float64, []float64) {
	var iter []float64
	var release []chan struct{}
	for r := 0; r < n; r++ {
		release = append(release, make(chan struct{}))
		iter = append(iter, round(release[r], sysmon))
	}
	return iter, letGo(release)
}

func main() {
	n := 9
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	runtime.GOMAXPROCS(1)
	debug.SetGCPercent(-1)
	sysmon := sysmonTid()
	freshIter, freshLocker := rounds(n, sysmon) // no M idle: newm each time
	reuseIter, reuseLocker := rounds(n, sysmon) // the first rounds' Ms, idle now
	fmt.Printf("newm-iter      median %8.0f ns\n", median(freshIter))
	fmt.Printf("wake-iter      median %8.0f ns\n", median(reuseIter))
	fmt.Printf("newm-locker    median %8.0f ns\n", median(freshLocker))
	fmt.Printf("wake-locker    median %8.0f ns\n", median(reuseLocker))
}
