// mutex.go: the Go twin of gosim's mutex workload: n goroutines each take
// one sync.Mutex `rounds` times, hold it for `hold` of CPU work and work
// `work` outside it; main waits for them.
//
//	go run mutex.go twin.go -n 8 -rounds 50 -hold 20us -work 30us -procs 4
package main

import (
	"flag"
	"runtime"
	"sync"
	"time"
)

func main() {
	n := flag.Int("n", 8, "goroutines")
	rounds := flag.Int("rounds", 50, "lock/unlock rounds per goroutine")
	hold := flag.Duration("hold", 20*time.Microsecond, "CPU work with the lock held")
	work := flag.Duration("work", 30*time.Microsecond, "CPU work outside the lock")
	procs := flag.Int("procs", 4, "GOMAXPROCS")
	quiet := flag.Bool("q", false, "print the makespan only")
	flag.Parse()
	runtime.GOMAXPROCS(*procs)
	r := calibrate(*hold + *work)

	rec := newRecorder(*n + 1)
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(*n)
	start := rec.begin()
	for i := 0; i < *n; i++ {
		id := i + 2 // goroutine ids as gosim numbers them: main is 1
		go func() {
			defer wg.Done()
			rec.start(id, start)
			for k := 0; k < *rounds; k++ {
				mu.Lock()
				run(*hold, r)
				mu.Unlock()
				run(*work, r)
			}
			rec.end(id, start)
		}()
	}
	wg.Wait()
	rec.report(time.Since(start), *quiet)
}
