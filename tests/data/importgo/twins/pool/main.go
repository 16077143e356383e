// pool: a worker pool, a Go program for gosim import's fidelity table
// (tools/import-fidelity): main hands 400 jobs over an unbuffered channel to
// 4 workers; each job is ~150 us of CPU, then ~30 us more under one shared
// sync.Mutex; main waits for the workers on a sync.WaitGroup.
//
//	tools/capture run pool.trace 2 tests/data/importgo/twins/pool
package main

import (
	"os"
	"runtime/trace"
	"sync"
)

var sink uint64

//go:noinline
func step(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

// spin does n iterations of work that calls a function each time (gosim's run).
func spin(n int) {
	x := sink
	for i := 0; i < n; i++ {
		x = step(x)
	}
	sink += x & 1
}

var total int

func worker(jobs <-chan int, mu *sync.Mutex, wg *sync.WaitGroup) {
	defer wg.Done()
	for j := range jobs {
		spin(150 * 300)
		mu.Lock()
		spin(30 * 300)
		total += j
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
	wg.Add(4)
	for i := 0; i < 4; i++ {
		go worker(jobs, &mu, &wg)
	}
	for j := 0; j < 400; j++ {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	trace.Stop()
	f.Close()
}
