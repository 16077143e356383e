// twin.go: what every Go twin shares: calibrated CPU work, a call-free
// loop, and the per-goroutine start/end record it prints. Build a twin
// together with this file: go run fanout.go twin.go
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"sync/atomic"
	"time"
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

// calibrate measures both loops for about 20 ms each, before the clock
// starts; a program with no work (used) skips it, and -run-rate/-loop-rate
// (from an earlier -calibrate) replace it, so that GODEBUG=schedtrace's
// clock and the workload start together.
func calibrate(used time.Duration) rate {
	if *calibrateOnly {
		r := measureRates()
		fmt.Printf("-run-rate %.3f -loop-rate %.3f\n", r.run, r.loop)
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

func measureRates() rate {
	measure := func(f func(int64)) float64 {
		n := int64(1 << 16)
		for {
			t := time.Now()
			f(n)
			if d := time.Since(t); d > 20*time.Millisecond {
				return float64(n) / float64(d.Microseconds())
			}
			n *= 2
		}
	}
	return rate{run: measure(runIters), loop: measure(loopIters)}
}

func run(d time.Duration, r rate)  { runIters(int64(float64(d.Microseconds()) * r.run)) }
func loop(d time.Duration, r rate) { loopIters(int64(float64(d.Microseconds()) * r.loop)) }

type span struct{ start, end int64 }

type recorder struct{ spans []span }

func newRecorder(n int) *recorder { return &recorder{spans: make([]span, n+2)} }

// start and end record, once, when goroutine id first ran and finished.
func (r *recorder) start(id int, t0 time.Time) {
	atomic.CompareAndSwapInt64(&r.spans[id].start, 0, time.Since(t0).Microseconds()+1)
}
func (r *recorder) end(id int, t0 time.Time) { r.spans[id].end = time.Since(t0).Microseconds() + 1 }

// report prints "makespan_us N", then "g ID start_us S end_us E" per
// goroutine in id order (times relative to the program's start).
func (r *recorder) report(makespan time.Duration, quiet bool) {
	fmt.Printf("makespan_us %d\n", makespan.Microseconds())
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
