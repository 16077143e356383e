// sleepers.go: the Go twin of gosim's sleepers workload: main starts n
// goroutines that each, `rounds` times, do `work` of CPU work and then
// time.Sleep(nap), and waits for them. A sleeping goroutine holds no
// thread: the process keeps about GOMAXPROCS+2 threads.
//
//	go run sleepers.go twin.go -n 50 -rounds 10 -work 100us -nap 2ms -procs 2
package main

import (
	"flag"
	"runtime"
	"sync"
	"time"
)

func main() {
	n := flag.Int("n", 50, "goroutines to start")
	rounds := flag.Int("rounds", 10, "work-then-sleep rounds per goroutine")
	work := flag.Duration("work", 100*time.Microsecond, "CPU work per round")
	nap := flag.Duration("nap", 2*time.Millisecond, "time.Sleep per round")
	procs := flag.Int("procs", 2, "GOMAXPROCS")
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
			for k := 0; k < *rounds; k++ {
				run(*work, r)
				time.Sleep(*nap)
			}
			rec.end(id, start)
		}()
	}
	wg.Wait()
	rec.report(time.Since(start), *quiet)
}
