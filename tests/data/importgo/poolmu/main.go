// poolmu: a worker pool whose shared sync.Mutex is taken in every pass, for
// gosim import's pass-shape inference (tests/import.sh): main hands 240 jobs
// over an unbuffered channel to 3 workers; each job is ~100 us of CPU, then
// ~40 us more under the mutex. tests/data/importgo/poolmu.trace was
// captured with
//
//	tools/capture run poolmu.trace 2 tests/data/importgo/poolmu
package main

import (
	"os"
	"runtime/trace"
	"sync"
)

var sink uint64

//go:noinline
func step(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

// spin does about us microseconds of work (500 iterations a microsecond here).
func spin(us int) {
	x := sink
	for i := 0; i < us*500; i++ {
		x = step(x)
	}
	sink += x & 1
}

func worker(jobs <-chan int, mu *sync.Mutex, wg *sync.WaitGroup) {
	defer wg.Done()
	for range jobs {
		spin(100)
		mu.Lock()
		spin(40)
		mu.Unlock()
	}
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	jobs := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(3)
	for i := 0; i < 3; i++ {
		go worker(jobs, &mu, &wg)
	}
	for j := 0; j < 240; j++ {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	trace.Stop()
	f.Close()
}
