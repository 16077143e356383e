// server.go: the Go twin of gosim's server workload: an acceptor starts a
// handler every `gap`; each handler waits `net` for its request on a file
// descriptor in the netpoller (a timerfd armed for `net` when the read
// starts: the read finds no data, parks the goroutine in the netpoller,
// waitReasonIOWait, holding no thread, and the poller readies it when the
// fd turns readable, as a socket's data would), does `work` of CPU, writes
// a file (`disk`: a sleep in a syscall) and logs a line through a buffered
// channel to one logger goroutine; a ticker does `tick_work` every `tick`.
// main returns after `uptime`, ending the program with the ticker and
// logger still running.
//
// The request is a timerfd, not a TCP peer, so that the program is the
// workload and nothing else: a peer in the process (a dialer and a
// goroutine per connection sleeping until its write) added 51 goroutines,
// 50 timers and a loopback TCP path (connect, accept, write, read, close)
// whose CPU was most of the process's outside the work, and it wrote each
// request `net` after its connection was made rather than after the
// handler began to read, so most handlers found their request there.
//
//	go run server.go twin.go -handlers 50 -gap 200us -net 2ms -work 300us -procs 4
package main

import (
	"flag"
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// request waits d for a request: a read of a timerfd armed for d
// (CLOCK_MONOTONIC, TFD_NONBLOCK), through an os.File, whose Read meets
// EAGAIN and waits in the netpoller (internal/poll: pollDesc.waitRead ->
// netpollblock) until the timer makes the fd readable. d <= 0: the data
// is there, no wait.
func request(d time.Duration) {
	if d <= 0 {
		return
	}
	fd, _, e := syscall.Syscall(syscall.SYS_TIMERFD_CREATE, 1, syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if e != 0 {
		panic(e)
	}
	spec := [4]int64{0, 0, int64(d / time.Second), int64(d % time.Second)} // itimerspec: interval 0, value d
	if _, _, e := syscall.Syscall6(syscall.SYS_TIMERFD_SETTIME, fd, 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0); e != 0 {
		panic(e)
	}
	f := os.NewFile(fd, "request")
	var buf [8]byte
	if _, err := f.Read(buf[:]); err != nil {
		panic(err)
	}
	f.Close()
}

func main() {
	handlers := flag.Int("handlers", 50, "handlers the acceptor starts")
	gap := flag.Duration("gap", 200*time.Microsecond, "time between handlers")
	netd := flag.Duration("net", 2*time.Millisecond, "when each request arrives")
	work := flag.Duration("work", 300*time.Microsecond, "CPU work per request")
	disk := flag.Duration("disk", 100*time.Microsecond, "the file write (a blocking syscall)")
	tick := flag.Duration("tick", 5*time.Millisecond, "ticker period")
	tickWork := flag.Duration("tick_work", 50*time.Microsecond, "CPU work per tick")
	uptime := flag.Duration("uptime", 30*time.Millisecond, "when main returns")
	procs := flag.Int("procs", 4, "GOMAXPROCS")
	quiet := flag.Bool("q", false, "print the makespan only")
	flag.Parse()
	runtime.GOMAXPROCS(*procs)
	r := calibrate(*work)

	rec := newRecorder(*handlers + 4)
	logc := make(chan int, 64)
	start := rec.begin()
	go func() { // logger
		for range logc {
			run(10*time.Microsecond, r)
		}
	}()
	go func() { // ticker
		t := time.NewTicker(*tick)
		for range t.C {
			run(*tickWork, r)
		}
	}()
	go func() { // acceptor
		for i := 0; i < *handlers; i++ {
			id := i + 5 // gosim's numbering: main 1, logger 2, ticker 3, acceptor 4
			go func() {
				rec.start(id, start)
				request(*netd) // parks in the netpoller for net
				run(*work, r)
				ts := syscall.NsecToTimespec(disk.Nanoseconds())
				syscall.Nanosleep(&ts, nil)
				logc <- id
				rec.end(id, start)
			}()
			time.Sleep(*gap)
		}
	}()
	time.Sleep(*uptime)
	rec.report(time.Since(start), *quiet)
}
