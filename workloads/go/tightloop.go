// tightloop.go: the Go twin of gosim's tightloop workload: on one P, main
// starts n short goroutines, then spins in a loop without function calls
// for `spin`. With asynchronous preemption (Go 1.14+) the short ones run
// after about one time slice; with GODEBUG=asyncpreemptoff=1 only after
// the loop.
//
//	go run tightloop.go twin.go -n 3 -spin 40ms -work 1ms
package main

import (
	"flag"
	"runtime"
	"sync"
	"time"
)

func main() {
	n := flag.Int("n", 3, "short goroutines")
	spin := flag.Duration("spin", 40*time.Millisecond, "main's call-free loop")
	work := flag.Duration("work", time.Millisecond, "CPU work per short goroutine")
	procs := flag.Int("procs", 1, "GOMAXPROCS")
	quiet := flag.Bool("q", false, "print the makespan only")
	flag.Parse()
	runtime.GOMAXPROCS(*procs)
	r := calibrate(*work + *spin)

	rec := newRecorder(*n + 1)
	var wg sync.WaitGroup
	wg.Add(*n)
	start := rec.begin()
	rec.start(1, start)
	for i := 0; i < *n; i++ {
		id := i + 2
		go func() {
			defer wg.Done()
			rec.start(id, start)
			run(*work, r)
			rec.end(id, start)
		}()
	}
	loop(*spin, r)
	rec.end(1, start)
	wg.Wait()
	rec.report(time.Since(start), *quiet)
}
