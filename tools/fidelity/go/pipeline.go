// pipeline.go: the Go twin of tools/fidelity/pipeline.json: main sends
// `items` tokens through four stages over unbuffered channels; each stage
// receives a token, does `work` of CPU and sends it on; a sink receives
// them.
//
//	tools/compare-real tools/fidelity/pipeline.json   (builds it with workloads/go/twin.go)
//	twin flags: -items 200 -work 50us -procs 2
package main

import (
	"flag"
	"runtime"
	"sync"
	"time"
)

func main() {
	items := flag.Int("items", 200, "tokens through the pipeline")
	work := flag.Duration("work", 50*time.Microsecond, "CPU work per stage per token")
	procs := flag.Int("procs", 2, "GOMAXPROCS")
	quiet := flag.Bool("q", false, "print the makespan only")
	flag.Parse()
	runtime.GOMAXPROCS(*procs)
	r := calibrate(*work)

	const stages = 4
	rec := newRecorder(stages + 2)
	c := make([]chan int, stages+1)
	for i := range c {
		c[i] = make(chan int)
	}
	var wg sync.WaitGroup
	wg.Add(stages + 1)
	start := rec.begin()
	rec.start(1, start)
	for s := 0; s < stages; s++ {
		id, in, out := s+2, c[s], c[s+1] // goroutine ids as gosim numbers them: main is 1
		go func() {
			defer wg.Done()
			rec.start(id, start)
			for k := 0; k < *items; k++ {
				v := <-in
				run(*work, r)
				out <- v
			}
			rec.end(id, start)
		}()
	}
	go func() { // G6: the sink
		defer wg.Done()
		rec.start(stages+2, start)
		for k := 0; k < *items; k++ {
			<-c[stages]
		}
		rec.end(stages+2, start)
	}()
	for k := 0; k < *items; k++ {
		c[0] <- k
	}
	rec.end(1, start)
	wg.Wait()
	rec.report(time.Since(start), *quiet)
}
