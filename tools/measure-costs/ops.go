// ops.go: what the Go runtime's own operations cost on this machine, the
// per-operation costs gosim's runtime model charges (--cost-go,
// --cost-chan, --cost-switch, --cost-gosched).
//
// Everything runs at GOMAXPROCS=1 with the GC off, so that each loop is
// one thread doing nothing but the operation; each loop is timed by wall
// clock and by the process's CPU time (CLOCK_PROCESS_CPUTIME_ID), and the
// figure used is the CPU time (what the thread spent; time the machine gave
// to others does not count). Each loop runs a batch small enough to finish
// well inside sysmon's 10 ms slice (no preemption in the batch).
//
//	go      a batch of `go f()` creating new Gs (f blocks, so no G is reused):
//	        newproc (malg, a new stack; runqput, runqputslow every 128); and
//	        the same with Gs reused (gfget), printed for comparison
//	chan    a buffered (cap 1) send then receive in one G: one channel op
//	        with no wait, per op
//	handoff two Gs ping-pong over two unbuffered channels: per one-way trip
//	        a send that readies the partner, a receive that parks, and the
//	        switch to the partner
//	gosched two Gs each calling runtime.Gosched: per call
//
// and the model's costs from them: switch = the Gosched call (gosched_m,
// schedule, execute: a G switch with no wait queue); chan = (handoff -
// switch) / 2 (a channel op as a hand-off does it, gopark or goready
// included); gosched = 0 (goschedImpl's own globrunqput cannot be told
// from the switch by this method); go = the fresh-G figure.
//
// Prints one line per figure (ns per op, median over ROUNDS batches, and
// the CPU/wall ratio of the worst batch). Usage: go run ops.go [ROUNDS].
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

func cpuNow() int64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 2 /* CLOCK_PROCESS_CPUTIME_ID */, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

type sample struct{ cpu, wall float64 }

// timeit runs f(n) and returns CPU and wall ns per op (ops ops per call).
func timeit(n, ops int, f func(int)) sample {
	c0, w0 := cpuNow(), time.Now()
	f(n)
	c, w := cpuNow()-c0, time.Since(w0).Nanoseconds()
	return sample{float64(c) / float64(ops), float64(w) / float64(ops)}
}

func median(rounds int, n, ops int, f func(int)) (float64, float64) {
	cpu := make([]float64, rounds)
	worst := 1.0
	for i := range cpu {
		s := timeit(n, ops, f)
		cpu[i] = s.cpu
		if r := s.cpu / s.wall; r < worst {
			worst = r
		}
	}
	sort.Float64s(cpu)
	return cpu[rounds/2], worst
}

// goStatements times a batch of n go statements, the creating loop only.
// fresh: the new Gs block until release closes, so every G of every batch
// is a new one (malg: a new stack), as in a fan-out; else they exit at
// once and the next batch reuses their Gs (gfget).
func goStatements(n int, fresh bool) float64 {
	var wg sync.WaitGroup
	wg.Add(n)
	c0 := cpuNow()
	for i := 0; i < n; i++ {
		if fresh {
			go func() { wg.Done(); <-release }()
		} else {
			go wg.Done()
		}
	}
	c := cpuNow() - c0
	wg.Wait()
	return float64(c) / float64(n)
}

var release = make(chan struct{})

func goMedian(rounds int, fresh bool) float64 {
	v := make([]float64, rounds)
	for i := range v {
		v[i] = goStatements(2000, fresh)
	}
	sort.Float64s(v)
	return v[rounds/2]
}

func chanOps(n int) {
	c := make(chan int, 1)
	for i := 0; i < n; i++ {
		c <- i
		<-c
	}
}

func handoff(n int) {
	a, b := make(chan int), make(chan int)
	go func() {
		for i := 0; i < n; i++ {
			b <- <-a
		}
	}()
	for i := 0; i < n; i++ {
		a <- i
		<-b
	}
}

func gosched(n int) {
	var wg sync.WaitGroup
	wg.Add(2)
	for k := 0; k < 2; k++ {
		go func() {
			for i := 0; i < n; i++ {
				runtime.Gosched()
			}
			wg.Done()
		}()
	}
	wg.Wait()
}

func main() {
	rounds := 15
	if len(os.Args) > 1 {
		rounds, _ = strconv.Atoi(os.Args[1])
	}
	runtime.GOMAXPROCS(1)
	debug.SetGCPercent(-1)

	goFresh := goMedian(rounds, true)
	close(release)
	goReused := goMedian(rounds, false)
	ch, chw := median(rounds, 200000, 400000, chanOps)
	ho, how := median(rounds, 20000, 40000, handoff)
	gs, gsw := median(rounds, 20000, 40000, gosched)
	sw := gs             // a Gosched is a switch (schedule, execute) and little else
	hch := (ho - sw) / 2 // a channel op of a hand-off: with its gopark or goready
	fmt.Printf("measured: go statement %.0f ns (fresh G), %.0f ns (reused G); buffered chan op %.0f ns;"+
		" unbuffered hand-off %.0f ns one way; Gosched %.0f ns (worst batch CPU/wall %.2f %.2f %.2f)\n",
		goFresh, goReused, ch, ho, gs, chw, how, gsw)
	fmt.Printf("--cost-go=%.0fns --cost-chan=%.0fns --cost-switch=%.0fns --cost-gosched=0ns\n", goFresh, hch, sw)
}
