// Package tw holds what the fidelity programs beside it share: a calibrated
// work loop (Spin), and starting and stopping the execution trace with the
// process's CPU time written beside it (Start, Stop).
package tw

import (
	"fmt"
	"os"
	"runtime/trace"
	"syscall"
)

var sink uint64

//go:noinline
func step(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

// Spin does about us microseconds of work that calls a function each time
// (gosim's run): 500 iterations a microsecond on this machine.
func Spin(us int) {
	x := sink
	for i := 0; i < us*500; i++ {
		x = step(x)
	}
	sink += x & 1
}

func Start() *os.File {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	return f
}

func Stop(f *os.File) {
	trace.Stop()
	f.Close()
	putCPU()
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
