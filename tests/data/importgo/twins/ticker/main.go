// ticker: tickers beside CPU-bound work, a Go program for gosim import's
// fidelity table (tools/import-fidelity): two tick goroutines, on 1 ms and
// 2 ms tickers, do ~150 us of CPU per tick (80 and 40 ticks), while two
// crunch goroutines each do 40 ms of CPU in 1 ms pieces; main waits for all.
//
//	tools/capture run ticker.trace 2 tests/data/importgo/twins/ticker
package main

import (
	"fmt"
	"os"
	"runtime/trace"
	"sync"
	"syscall"
	"time"
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

func tick(every time.Duration, n int, wg *sync.WaitGroup) {
	defer wg.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for i := 0; i < n; i++ {
		<-t.C
		spin(150)
	}
}

func crunch(wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 0; i < 40; i++ {
		spin(1000)
	}
}

func main() {
	f := start()
	var wg sync.WaitGroup
	wg.Add(4)
	go tick(time.Millisecond, 80, &wg)
	go tick(2*time.Millisecond, 40, &wg)
	go crunch(&wg)
	go crunch(&wg)
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
