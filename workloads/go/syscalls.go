// syscalls.go: the Go twin of gosim's syscalls workload: main starts n
// goroutines that each compute for `work`, block in a nanosleep system
// call for `sys` (syscall.Nanosleep goes through entersyscall, so the
// thread keeps the goroutine and sysmon can retake its P), and compute
// again.
//
//	go run syscalls.go twin.go -n 8 -work 100us -sys 10ms -procs 2
package main

import (
	"flag"
	"runtime"
	"runtime/debug"
	"sync"
	"syscall"
	"time"
)

func main() {
	n := flag.Int("n", 8, "goroutines to start")
	work := flag.Duration("work", 100*time.Microsecond, "CPU work before and after the syscall")
	sys := flag.Duration("sys", 10*time.Millisecond, "time blocked in the system call")
	procs := flag.Int("procs", 2, "GOMAXPROCS")
	maxThreads := flag.Int("max-threads", 10000, "debug.SetMaxThreads")
	quiet := flag.Bool("q", false, "print the makespan only")
	flag.Parse()
	runtime.GOMAXPROCS(*procs)
	debug.SetMaxThreads(*maxThreads)
	r := calibrate(*work)

	rec := newRecorder(*n + 1)
	var wg sync.WaitGroup
	wg.Add(*n)
	ts := syscall.NsecToTimespec(sys.Nanoseconds())
	start := rec.begin()
	for i := 0; i < *n; i++ {
		id := i + 2
		go func() {
			defer wg.Done()
			rec.start(id, start)
			run(*work, r)
			req := ts
			syscall.Nanosleep(&req, nil)
			run(*work, r)
			rec.end(id, start)
		}()
	}
	wg.Wait()
	rec.report(time.Since(start), *quiet)
}
