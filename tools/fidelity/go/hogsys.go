// hogsys.go: the Go twin of tools/fidelity/hogsys.json: main starts `hogs`
// goroutines of `hog` CPU work each, then n callers that each, `rounds`
// times, block in a nanosleep system call for `sys` and compute `work`.
// syscall.Nanosleep goes through entersyscall, so the thread keeps the
// goroutine and sysmon can retake its P. Linux lets a nanosleep overshoot
// by the thread's timer slack (50 us by default), which would make a 100
// us call take 150 us; the twin measures the overshoot before the clock
// starts and asks for that much less.
//
//	tools/compare-real tools/fidelity/hogsys.json   (builds it with workloads/go/twin.go)
//	twin flags: -hogs 2 -hog 20ms -n 10 -rounds 50 -sys 100us -work 20us -procs 2
package main

import (
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"syscall"
	"time"
)

// overshoot is the median amount by which a nanosleep of d outlasts d.
func overshoot(d time.Duration) time.Duration {
	var o []time.Duration
	for i := 0; i < 21; i++ {
		ts := syscall.NsecToTimespec(d.Nanoseconds())
		t := time.Now()
		syscall.Nanosleep(&ts, nil)
		o = append(o, time.Since(t)-d)
	}
	sort.Slice(o, func(i, j int) bool { return o[i] < o[j] })
	return o[len(o)/2]
}

func main() {
	hogs := flag.Int("hogs", 2, "CPU hogs")
	hog := flag.Duration("hog", 20*time.Millisecond, "CPU work per hog")
	n := flag.Int("n", 10, "callers")
	rounds := flag.Int("rounds", 50, "syscall-then-work rounds per caller")
	sys := flag.Duration("sys", 100*time.Microsecond, "time blocked in each system call")
	work := flag.Duration("work", 20*time.Microsecond, "CPU work after each system call")
	procs := flag.Int("procs", 2, "GOMAXPROCS")
	maxThreads := flag.Int("max-threads", 10000, "debug.SetMaxThreads")
	quiet := flag.Bool("q", false, "print the makespan only")
	flag.Parse()
	runtime.GOMAXPROCS(*procs)
	debug.SetMaxThreads(*maxThreads)
	r := calibrate(*hog + *work)

	over := overshoot(*sys)
	ask := *sys - over
	if ask < 0 {
		ask = 0
	}
	rec := newRecorder(*hogs + *n + 1)
	var wg sync.WaitGroup
	wg.Add(*hogs + *n)
	ts := syscall.NsecToTimespec(ask.Nanoseconds())
	start := rec.begin()
	rec.start(1, start)
	for i := 0; i < *hogs; i++ {
		id := i + 2 // goroutine ids as gosim numbers them: main is 1
		go func() {
			defer wg.Done()
			rec.start(id, start)
			run(*hog, r)
			rec.end(id, start)
		}()
	}
	for i := 0; i < *n; i++ {
		id := *hogs + i + 2
		go func() {
			defer wg.Done()
			rec.start(id, start)
			for k := 0; k < *rounds; k++ {
				req := ts
				syscall.Nanosleep(&req, nil)
				run(*work, r)
			}
			rec.end(id, start)
		}()
	}
	rec.end(1, start)
	wg.Wait()
	rec.report(time.Since(start), *quiet)
	fmt.Printf("sys_overshoot_us %d\n", over.Microseconds())
}
