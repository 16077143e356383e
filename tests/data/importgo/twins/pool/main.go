// pool: a worker pool, a Go program for gosim import's fidelity table
// (tools/import-fidelity): main hands 2,000 jobs over an unbuffered channel to
// 4 workers; each job is ~150 us of CPU, then ~30 us more under one shared
// sync.Mutex; main waits for the workers on a sync.WaitGroup.
//
//	tools/capture run pool.trace 2 tests/data/importgo/twins/pool
package main

import (
	"sync"

	"twins/tw"
)

var total int

func worker(jobs <-chan int, mu *sync.Mutex, wg *sync.WaitGroup) {
	defer wg.Done()
	for j := range jobs {
		tw.Spin(150)
		mu.Lock()
		tw.Spin(30)
		total += j
		mu.Unlock()
	}
}

func main() {
	f := tw.Start()
	jobs := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(4)
	for i := 0; i < 4; i++ {
		go worker(jobs, &mu, &wg)
	}
	for j := 0; j < 2000; j++ {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	tw.Stop(f)
}
