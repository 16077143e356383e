// fanout.go: the Go twin of gosim's fanout workload: main starts n
// goroutines that each do `work` of CPU work (a calibrated busy loop that
// makes function calls), then waits for them.
//
//	go run fanout.go twin.go -n 48 -work 1ms -procs 4
package main

import (
	"flag"
	"runtime"
	"sync"
	"time"
)

func main() {
	n := flag.Int("n", 48, "goroutines to start")
	work := flag.Duration("work", time.Millisecond, "CPU work per goroutine")
	procs := flag.Int("procs", 4, "GOMAXPROCS")
	quiet := flag.Bool("q", false, "print the makespan only")
	flag.Parse()
	runtime.GOMAXPROCS(*procs)
	r := calibrate(*work)

	rec := newRecorder(*n + 1)
	var wg sync.WaitGroup
	wg.Add(*n)
	start := rec.begin()
	for i := 0; i < *n; i++ {
		id := i + 2 // goroutine ids as gosim numbers them: main is 1
		go func() {
			defer wg.Done()
			rec.start(id, start)
			run(*work, r)
			rec.end(id, start)
		}()
	}
	wg.Wait()
	rec.report(time.Since(start), *quiet)
}
