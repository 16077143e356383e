// ticker1: a 1 ms time.Ticker beside a loop of <-time.After(1 ms), for gosim
// import's short-period tick rule (tests/import.sh, cmd/import_tick.h): each
// goroutine takes 100 wakes, each followed by ~150 us of CPU; main waits for
// both. The ticker's wakes keep to its grid (a late one is followed by a
// short wait to the next grid point); the loop's each start a new 1 ms wait.
// tests/data/importgo/ticker1.trace was captured with
//
//	tools/capture run ticker1.trace 2 tests/data/importgo/ticker1
package main

import (
	"os"
	"runtime/trace"
	"sync"
	"time"
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

func tick(wg *sync.WaitGroup) {
	defer wg.Done()
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for i := 0; i < 100; i++ {
		<-t.C
		spin(150)
	}
}

func after(wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 0; i < 100; i++ {
		<-time.After(time.Millisecond)
		spin(150)
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
	var wg sync.WaitGroup
	wg.Add(2)
	go tick(&wg)
	go after(&wg)
	wg.Wait()
	trace.Stop()
	f.Close()
}
