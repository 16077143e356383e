// ticker: tickers beside CPU-bound work, a Go program for gosim import's
// fidelity table (tools/import-fidelity): two tick goroutines, on 1 ms and
// 2 ms tickers, do ~150 us of CPU per tick (400 and 200 ticks), while two
// crunch goroutines each do 200 ms of CPU in 1 ms pieces; main waits for all.
//
//	tools/capture run ticker.trace 2 tests/data/importgo/twins/ticker
package main

import (
	"sync"
	"time"

	"twins/tw"
)

func tick(every time.Duration, n int, wg *sync.WaitGroup) {
	defer wg.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for i := 0; i < n; i++ {
		<-t.C
		tw.Spin(150)
	}
}

func crunch(wg *sync.WaitGroup) {
	defer wg.Done()
	for i := 0; i < 200; i++ {
		tw.Spin(1000)
	}
}

func main() {
	f := tw.Start()
	var wg sync.WaitGroup
	wg.Add(4)
	go tick(time.Millisecond, 400, &wg)
	go tick(2*time.Millisecond, 200, &wg)
	go crunch(&wg)
	go crunch(&wg)
	wg.Wait()
	tw.Stop(f)
}
