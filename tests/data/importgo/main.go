// A tiny program captured with runtime/trace for gosim import's golden test
// (tests/import.sh): a producer sends 4 jobs over an unbuffered channel to
// two workers, which burn CPU and sleep in a trace region "job" and report
// back to main; GOMAXPROCS=2.
package main

import (
	"context"
	"os"
	"runtime/trace"
	"time"
)

var sink int

func spin(d time.Duration) {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		sink++
	}
}

func worker(jobs <-chan int, done chan<- int) {
	for j := range jobs {
		trace.WithRegion(context.Background(), "job", func() {
			spin(200 * time.Microsecond)
			time.Sleep(100 * time.Microsecond)
		})
		done <- j
	}
}

func producer(jobs chan<- int) {
	for j := 0; j < 4; j++ {
		jobs <- j
	}
	close(jobs)
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	jobs, done := make(chan int), make(chan int)
	for i := 0; i < 2; i++ {
		go worker(jobs, done)
	}
	go producer(jobs)
	for j := 0; j < 4; j++ {
		<-done
	}
	trace.Stop()
	f.Close()
}
