// twin.go: what every Go twin shares: calibrated CPU work, a call-free
// loop, and the per-goroutine start/end record it prints, with the
// process's CPU time over the workload. Build a twin together with this
// file: go run fanout.go twin.go
//
// With GOSIM_TRACE=FILE in the environment (tools/capture sets it; so does
// tools/import-fidelity) the workload runs under an execution trace
// (runtime/trace) written to FILE, from begin to report, and the process's
// CPU time over that span (us, getrusage) is written to FILE.cpu, as the
// import fidelity programs' twins/tw package does.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/trace"
	"sort"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

var sink uint64

//go:noinline
func step(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

// runIters does n iterations of work that makes a function call each time:
// cooperative preemption can stop it (gosim's `run`).
func runIters(n int64) {
	x := sink
	for i := int64(0); i < n; i++ {
		x = step(x)
	}
	atomic.AddUint64(&sink, x)
}

// loopIters does n iterations without calls: only asynchronous
// preemption can stop it (gosim's `loop`).
func loopIters(n int64) {
	x := sink
	for i := int64(0); i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	atomic.AddUint64(&sink, x)
}

type rate struct{ run, loop float64 } // iterations per microsecond

var (
	calibrateOnly = flag.Bool("calibrate", false, "measure the busy loops, print their rates and exit")
	runRate       = flag.Float64("run-rate", 0, "iterations per us of run work (0: measure)")
	loopRate      = flag.Float64("loop-rate", 0, "iterations per us of loop work (0: measure)")
)

// calibrate measures both loops, before the clock starts; a program with
// no work (used) skips it, and -run-rate/-loop-rate (from an earlier
// -calibrate) replace it, so that GODEBUG=schedtrace's clock and the
// workload start together.
func calibrate(used time.Duration) rate {
	if *calibrateOnly {
		r := measureRates()
		fmt.Printf("-run-rate %.3f -loop-rate %.3f\n", r.run, r.loop)
		checkRate(r)
		os.Exit(0)
	}
	if *runRate > 0 && *loopRate > 0 {
		return rate{run: *runRate, loop: *loopRate}
	}
	if used == 0 {
		return rate{}
	}
	return measureRates()
}

// threadCPU is the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID):
// what the loops cost, however long the OS kept the thread off its CPU.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// measureRates times each loop against the thread's CPU time, not the
// wall clock: on a shared machine a wall-clock calibration counts the time
// the thread waited for a CPU as work, and 20 ms of work then takes 26-30
// ms. Each rate is the median of three measurements of at least 20 ms.
func measureRates() rate {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	once := func(f func(int64)) float64 {
		n := int64(1 << 16)
		for {
			t := threadCPU()
			f(n)
			if d := threadCPU() - t; d > 20*time.Millisecond {
				return float64(n) / float64(d.Nanoseconds()) * 1e3
			}
			n *= 2
		}
	}
	measure := func(f func(int64)) float64 {
		a := []float64{once(f), once(f), once(f)}
		sort.Float64s(a)
		return a[1]
	}
	return rate{run: measure(runIters), loop: measure(loopIters)}
}

// checkRate prints to stderr what 20 ms of each kind of work costs at the
// rates just measured, in thread CPU time and on the wall clock.
func checkRate(r rate) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, k := range []struct {
		name string
		f    func(time.Duration, rate)
	}{{"run", run}, {"loop", loop}} {
		t, c := time.Now(), threadCPU()
		k.f(20*time.Millisecond, r)
		fmt.Fprintf(os.Stderr, "check: 20ms of %s work took %.2fms CPU, %.2fms wall\n", k.name,
			float64((threadCPU()-c).Microseconds())/1e3, float64(time.Since(t).Microseconds())/1e3)
	}
}

func run(d time.Duration, r rate)  { runIters(int64(float64(d.Microseconds()) * r.run)) }
func loop(d time.Duration, r rate) { loopIters(int64(float64(d.Microseconds()) * r.loop)) }

type span struct{ start, end int64 }

type recorder struct {
	spans []span
	cpu0  time.Duration // the process's CPU time at begin
	wait0 time.Duration // its threads' time runnable without a CPU at begin
	trace *os.File      // the execution trace being written (GOSIM_TRACE), or nil
}

func newRecorder(n int) *recorder { return &recorder{spans: make([]span, n+2)} }

// processCPU is the CPU time of every thread of the process so far
// (getrusage RUSAGE_SELF: user plus system).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// osWait is the time the process's threads have spent runnable but
// waiting for a CPU (the second field of /proc/self/task/*/schedstat,
// Linux's run-queue delay), summed: what the OS, not the Go scheduler,
// kept them off the CPUs. Threads that exited are not counted; the Go
// runtime's threads do not exit.
func osWait() time.Duration {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return 0
	}
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/schedstat")
		if err != nil {
			continue
		}
		var run, wait int64
		if _, err := fmt.Sscan(string(b), &run, &wait); err == nil {
			sum += time.Duration(wait)
		}
	}
	return sum
}

// begin starts the workload's clock: it returns the time the others are
// measured from and notes the CPU time and the OS wait so far.
func (r *recorder) begin() time.Time {
	r.cpu0 = processCPU()
	r.wait0 = osWait()
	if path := os.Getenv("GOSIM_TRACE"); path != "" { // after osWait's reads: not in the trace
		f, err := os.Create(path)
		if err != nil {
			panic(err)
		}
		if err := trace.Start(f); err != nil {
			panic(err)
		}
		r.trace = f
	}
	return time.Now()
}

// start and end record, once, when goroutine id first ran and finished.
func (r *recorder) start(id int, t0 time.Time) {
	atomic.CompareAndSwapInt64(&r.spans[id].start, 0, time.Since(t0).Microseconds()+1)
}
func (r *recorder) end(id int, t0 time.Time) { r.spans[id].end = time.Since(t0).Microseconds() + 1 }

// report prints "makespan_us N", "cpu_us C" (the process's CPU time, all
// threads, user and system, from begin to now), "oswait_us W" (its
// threads' time runnable without a CPU, from begin to now), then "g ID
// start_us S end_us E" per goroutine in id order (times relative to begin).
func (r *recorder) report(makespan time.Duration, quiet bool) {
	if r.trace != nil {
		trace.Stop()
	}
	cpu, wait := processCPU()-r.cpu0, osWait()-r.wait0
	if r.trace != nil {
		r.trace.Close()
		cpuFile := r.trace.Name() + ".cpu"
		if err := os.WriteFile(cpuFile, []byte(fmt.Sprintf("%d\n", cpu.Microseconds())), 0o644); err != nil {
			panic(err)
		}
	}
	fmt.Printf("makespan_us %d\n", makespan.Microseconds())
	fmt.Printf("cpu_us %d\n", cpu.Microseconds())
	fmt.Printf("oswait_us %d\n", wait.Microseconds())
	if quiet {
		return
	}
	ids := make([]int, 0, len(r.spans))
	for id, s := range r.spans {
		if s.start != 0 {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	for _, id := range ids {
		s := r.spans[id]
		fmt.Printf("g %d start_us %d end_us %d\n", id, s.start-1, s.end-1)
	}
	os.Stdout.Sync()
}
