// server.go: the Go twin of gosim's server workload: an acceptor starts a
// handler every `gap`; each handler waits `net` for its request on a real
// network connection (a loopback TCP peer writes it after the delay, so
// the handler parks in the netpoller), does `work` of CPU, writes a file
// (`disk`: a write and fsync-free sleep in a syscall) and logs a line
// through a buffered channel to one logger goroutine; a ticker does
// `tick_work` every `tick`. main returns after `uptime`, ending the
// program with the ticker and logger still running.
//
//	go run server.go twin.go -handlers 50 -gap 200us -net 2ms -work 300us -procs 4
package main

import (
	"flag"
	"net"
	"runtime"
	"syscall"
	"time"
)

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

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	// The peer: for each connection, write the request after `net`. It
	// runs in its own goroutines like the clients of a real server.
	go func() {
		for i := 0; i < *handlers; i++ {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				panic(err)
			}
			go func() { time.Sleep(*netd); c.Write([]byte{1}) }()
		}
	}()

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
			c, err := ln.Accept()
			if err != nil {
				panic(err)
			}
			id := i + 5 // gosim's numbering: main 1, logger 2, ticker 3, acceptor 4
			go func() {
				rec.start(id, start)
				buf := make([]byte, 1)
				c.Read(buf) // parks in the netpoller until the peer writes
				run(*work, r)
				ts := syscall.NsecToTimespec(disk.Nanoseconds())
				syscall.Nanosleep(&ts, nil)
				logc <- id
				c.Close()
				rec.end(id, start)
			}()
			time.Sleep(*gap)
		}
	}()
	time.Sleep(*uptime)
	rec.report(time.Since(start), *quiet)
}
