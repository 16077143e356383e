// pingpong.go: the Go twin of gosim's pingpong workload: main and an echo
// goroutine hand a token back and forth over two unbuffered channels,
// `rounds` times with `work` of CPU work per hop, beside a goroutine with
// `other` of CPU work on the same P. Each wake-up puts the partner in the
// waker's runnext, so the pair shares one time slice.
//
//	go run pingpong.go twin.go -rounds 1000 -work 10us -other 5ms -procs 1
package main

import (
	"flag"
	"runtime"
	"sync"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 1000, "round trips")
	work := flag.Duration("work", 10*time.Microsecond, "CPU work per hop (0: none)")
	other := flag.Duration("other", 5*time.Millisecond, "the other goroutine's CPU work")
	procs := flag.Int("procs", 1, "GOMAXPROCS")
	quiet := flag.Bool("q", false, "print the makespan only")
	flag.Parse()
	runtime.GOMAXPROCS(*procs)
	r := calibrate(*work + *other)

	rec := newRecorder(3)
	ping, pong := make(chan int), make(chan int)
	var wg sync.WaitGroup
	wg.Add(2)
	start := rec.begin()
	rec.start(1, start)
	go func() { // G2: other work on the same P
		defer wg.Done()
		rec.start(2, start)
		run(*other, r)
		rec.end(2, start)
	}()
	go func() { // G3: echo
		defer wg.Done()
		rec.start(3, start)
		for i := 0; i < *rounds; i++ {
			v := <-ping
			if *work > 0 {
				run(*work, r)
			}
			pong <- v
		}
		rec.end(3, start)
	}()
	for i := 0; i < *rounds; i++ {
		if *work > 0 {
			run(*work, r)
		}
		ping <- i
		<-pong
	}
	rec.end(1, start)
	wg.Wait()
	rec.report(time.Since(start), *quiet)
}
