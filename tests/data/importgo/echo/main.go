// echo: a loopback TCP echo server and two clients in one program, for
// gosim import's socket pairing (tests/import.sh, import_net.h): each
// client sends 40 requests of 32 bytes one after another and waits for the
// reply (~20 us of CPU each); the server's handler does ~100 us of CPU per
// request. tests/data/importgo/echo.trace was captured with
//
//	tools/capture run echo.trace 2 tests/data/importgo/echo
package main

import (
	"io"
	"net"
	"os"
	"runtime/trace"
	"sync"
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

func handle(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 32)
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

func client(addr string, wg *sync.WaitGroup) {
	defer wg.Done()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		panic(err)
	}
	defer c.Close()
	buf := make([]byte, 32)
	for i := 0; i < 40; i++ {
		if _, err := c.Write(buf); err != nil {
			panic(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			panic(err)
		}
		spin(20)
	}
}

func main() {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go handle(c)
		}
	}()
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go client(l.Addr().String(), &wg)
	}
	wg.Wait()
	trace.Stop()
	f.Close()
	l.Close()
}
