// netserver: a TCP server with network waits, a Go program for gosim
// import's fidelity table (tools/import-fidelity): a listener on loopback,
// an accept loop starting a handler per connection (~100 us of CPU per
// request), and 4 clients in the same program, each sending 40 requests
// of 64 bytes one after another (~30 us of CPU per reply).
//
//	tools/capture run netserver.trace 2 tests/data/importgo/twins/netserver
package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"runtime/trace"
	"sync"
	"syscall"
)

var sink uint64

//go:noinline
func step(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

// spin does about us microseconds of work that calls a function each time
// (gosim's run): 500 iterations a microsecond on this machine.
func spin(us int) {
	x := sink
	for i := 0; i < us*500; i++ {
		x = step(x)
	}
	sink += x & 1
}

func start() *os.File {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	return f
}

func stop(f *os.File) {
	trace.Stop()
	f.Close()
	putCPU()
}

func handle(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 64)
	for {
		if _, err := io.ReadFull(c, buf); err != nil {
			return
		}
		spin(100)
		if _, err := c.Write(buf); err != nil {
			return
		}
	}
}

func serve(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go handle(c)
	}
}

func client(addr string, wg *sync.WaitGroup) {
	defer wg.Done()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		panic(err)
	}
	defer c.Close()
	buf := make([]byte, 64)
	for i := 0; i < 40; i++ {
		if _, err := c.Write(buf); err != nil {
			panic(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			panic(err)
		}
		spin(30)
	}
}

func main() {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	f := start()
	go serve(l)
	var wg sync.WaitGroup
	wg.Add(4)
	for i := 0; i < 4; i++ {
		go client(l.Addr().String(), &wg)
	}
	wg.Wait()
	stop(f)
	l.Close()
}

// putCPU writes the process's CPU time so far (user + system, us) to the
// trace's path + ".cpu": tools/import-fidelity normalises for CPU speed by it.
func putCPU() {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	us := ru.Utime.Sec*1e6 + int64(ru.Utime.Usec) + ru.Stime.Sec*1e6 + int64(ru.Stime.Usec)
	if err := os.WriteFile(os.Args[1]+".cpu", []byte(fmt.Sprintf("%d\n", us)), 0o644); err != nil {
		panic(err)
	}
}
