// netserver: a TCP server with network waits, a Go program for gosim
// import's fidelity table (tools/import-fidelity): a listener on loopback,
// an accept loop starting a handler per connection (~100 us of CPU per
// request), and 4 clients in the same program, each sending 200 requests
// of 64 bytes one after another (~30 us of CPU per reply).
//
//	tools/capture run netserver.trace 2 tests/data/importgo/twins/netserver
package main

import (
	"io"
	"net"
	"sync"

	"twins/tw"
)

func handle(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 64)
	for {
		if _, err := io.ReadFull(c, buf); err != nil {
			return
		}
		tw.Spin(100)
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
	for i := 0; i < 200; i++ {
		if _, err := c.Write(buf); err != nil {
			panic(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			panic(err)
		}
		tw.Spin(30)
	}
}

func main() {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	f := tw.Start()
	go serve(l)
	var wg sync.WaitGroup
	wg.Add(4)
	for i := 0; i < 4; i++ {
		go client(l.Addr().String(), &wg)
	}
	wg.Wait()
	tw.Stop(f)
	l.Close()
}
