// pipeline: a three-stage pipeline, a Go program for gosim import's fidelity
// table (tools/import-fidelity): gen makes 1,500 items (~20 us of CPU each),
// two square goroutines take them (~100 us each) and pass them to sum
// (~40 us each), over unbuffered channels; main waits for sum's total.
//
//	tools/capture run pipeline.trace 2 tests/data/importgo/twins/pipeline
package main

import (
	"sync"

	"twins/tw"
)

func gen(out chan<- int) {
	for i := 0; i < 1500; i++ {
		tw.Spin(20)
		out <- i
	}
	close(out)
}

func square(in <-chan int, out chan<- int, wg *sync.WaitGroup) {
	defer wg.Done()
	for v := range in {
		tw.Spin(100)
		out <- v * v
	}
}

func sum(in <-chan int, done chan<- int) {
	t := 0
	for v := range in {
		tw.Spin(40)
		t += v
	}
	done <- t
}

func main() {
	f := tw.Start()
	nums, squares, done := make(chan int), make(chan int), make(chan int)
	var wg sync.WaitGroup
	wg.Add(2)
	go gen(nums)
	go square(nums, squares, &wg)
	go square(nums, squares, &wg)
	go sum(squares, done)
	go func() { wg.Wait(); close(squares) }()
	<-done
	tw.Stop(f)
}
