// ticker5: a 5 ms time.Ticker beside CPU-bound work, for gosim import's
// tick rule (tests/import.sh): one goroutine receives 30 ticks, each
// followed by ~300 us of CPU, while another does 40 ms of CPU; main waits
// for both. tests/data/importgo/ticker5.trace was captured with
//
//	tools/capture run ticker5.trace 2 tests/data/importgo/ticker5
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
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for i := 0; i < 30; i++ {
			<-t.C
			spin(300)
		}
	}()
	go func() {
		defer wg.Done()
		spin(40000)
	}()
	wg.Wait()
	trace.Stop()
	f.Close()
}
