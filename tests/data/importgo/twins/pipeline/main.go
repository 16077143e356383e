// pipeline: a three-stage pipeline, a Go program for gosim import's fidelity
// table (tools/import-fidelity): gen makes 300 items (~20 us of CPU each),
// two square goroutines take them (~100 us each) and pass them to sum
// (~40 us each), over unbuffered channels; main waits for sum's total.
//
//	tools/capture run pipeline.trace 2 tests/data/importgo/twins/pipeline
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

func gen(out chan<- int) {
	for i := 0; i < 300; i++ {
		spin(20)
		out <- i
	}
	close(out)
}

func square(in <-chan int, out chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	for v := range in {
		spin(100)
		out <- v * v
	}
}

func sum(in <-chan int, done chan<- int) {
	t := 0
	for v := range in {
		spin(40)
		t += v
	}
	done <- t
}

func main() {
	f := start()
	nums, squares, done := make(chan int), make(chan int), make(chan int)
	var wg sync.WaitGroup
	wg.Add(2)
	go gen(nums)
	go square(nums, squares, &wg)
	go square(nums, squares, &wg)
	go sum(squares, done)
	go func() { wg.Wait(); close(squares) }()
	<-done
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
