// Package tw holds what the fidelity programs beside it share: a calibrated
// work loop (Spin), and starting and stopping the execution trace with the
// process's CPU time and its threads' wait for a CPU written beside it
// (Start, Stop).
package tw

import (
	"fmt"
	"os"
	"runtime/trace"
	"syscall"
)

var wait0 int64 // osWait at Start

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
	wait0 = osWait()
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
	put(".oswait", (osWait()-wait0)/1000)
}

// osWait is the time (ns) the process's threads have spent runnable but
// waiting for a CPU (the second field of /proc/self/task/*/schedstat, the
// run-queue delay), summed: time the OS, not the Go scheduler, kept them
// off the CPUs (a goroutine "running" in the trace meanwhile). As twin.go's.
func osWait() int64 {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return 0
	}
	var sum int64
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/schedstat")
		if err != nil {
			continue
		}
		var run, wait int64
		if _, err := fmt.Sscan(string(b), &run, &wait); err == nil {
			sum += wait
		}
	}
	return sum
}

// put writes v and a newline to the trace's path + ext.
func put(ext string, v int64) {
	if err := os.WriteFile(os.Args[1]+ext, []byte(fmt.Sprintf("%d\n", v)), 0o644); err != nil {
		panic(err)
	}
}

// putCPU writes the process's CPU time so far (user + system, us) to the
// trace's path + ".cpu": tools/import-fidelity normalises for CPU speed by it.
// Stop also writes the threads' wait for a CPU over the trace (us) to
// ".oswait", which tools/import-fidelity shows beside each row.
func putCPU() {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	put(".cpu", ru.Utime.Sec*1e6+int64(ru.Utime.Usec)+ru.Stime.Sec*1e6+int64(ru.Stime.Usec))
}
