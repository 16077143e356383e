// pool: a worker pool, a Go program for gosim import's fidelity table
// (tools/import-fidelity): main hands 400 jobs over an unbuffered channel to
// 4 workers; each job is ~150 us of CPU, then ~30 us more under one shared
// sync.Mutex; main waits for the workers on a sync.WaitGroup.
//
//	tools/capture run pool.trace 2 tests/data/importgo/twins/pool
package main

import (
	"fmt"
	"os"
	"runtime/trace"
	"sync"
	"syscall"
)

var sink uint64

//go:noinline
func step(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

// spin does about us microseconds of work that calls a function each time
// (gosim's run): 500 iterations a microsecond on this machine.
func spin(us int) {
	x := sink
	for i := 0; i < us*500; i++ {
		x = step(x)
	}
	sink += x & 1
}

func start() *os.File {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	return f
}

func stop(f *os.File) {
	trace.Stop()
	f.Close()
	putCPU()
}

var total int

func worker(jobs <-chan int, mu *sync.Mutex, wg *sync.WaitGroup) {
	defer wg.Done()
	for j := range jobs {
		spin(150)
		mu.Lock()
		spin(30)
		total += j
		mu.Unlock()
	}
}

func main() {
	f := start()
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
	stop(f)
}

// putCPU writes the process's CPU time so far (user + system, us) to the
// trace's path + ".cpu": tools/import-fidelity normalises for CPU speed by it.
func putCPU() {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	us := ru.Utime.Sec*1e6 + int64(ru.Utime.Usec) + ru.Stime.Sec*1e6 + int64(ru.Stime.Usec)
	if err := os.WriteFile(os.Args[1]+".cpu", []byte(fmt.Sprintf("%d\n", us)), 0o644); err != nil {
		panic(err)
	}
}
