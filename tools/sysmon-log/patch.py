#!/usr/bin/env python3
"""patch.py GOROOT TWINDIR: make GOROOT's runtime log sysmon's passes and the
twin in TWINDIR print its clock's start in the runtime's nanotime.

runtime/proc.go sysmon(): around usleep(delay), nanotime() before and after;
after retake, one record per pass (the sleep's start and end, its delay,
retake's result, P0's schedtick and status, 0x100 if retake preempted a P,
then the schedticks of P1-P3, 0 where there is no such P, read under
allpLock as retake reads them), up to 400. At 1
P, the first time retake preempts more than 5 ms after runtimeInitTime (the
first passes preempt runtime.main's G, whose slice is schedtick 0), or
at the first pass SYSMONLOG_AFTER_US after the workload began (the twin's
environment; 0 or unset: never); every record is then
printed to stderr as "SYSMONLOG k start end delay retook schedtick status
t1 t2 t3" (ns since runtimeInitTime), after "SYSMONLOG init T n N". Nothing
else changes: the records are stores of values sysmon has, the print comes
after the last pass it reports.
twin.go's recorder.begin calls runtime.SysmonLogBegin (added to the patched
runtime; hook.go) just before it starts the clock, which prints "BEGIN
<nanotime> <P> <schedtick>": the P the workload's main runs on, and that
P's schedtick (its slice), and gives sysmon the time."""
import sys

root, twin = sys.argv[1], sys.argv[2]


def sub(path, old, new):
    s = open(path).read()
    if s.count(old) != 1:
        sys.exit('patch.py: %s: expected one %r' % (path, old[:60]))
    open(path, 'w').write(s.replace(old, new))


proc = root + '/src/runtime/proc.go'
sub(proc, """		usleep(delay)

		// sysmon should not enter deep sleep if schedtrace""", """		sysmonLogBefore := nanotime()
		usleep(delay)
		sysmonLogAfter := nanotime()

		// sysmon should not enter deep sleep if schedtrace""")
sub(proc, """		if retake(now) != 0 {
			idle = 0
		} else {
			idle++
		}""", """		rn := retake(now)
		if rn != 0 {
			idle = 0
		} else {
			idle++
		}
		if k := sysmonLogN; k < len(sysmonLogB) {
			sysmonLogB[k] = sysmonLogBefore
			sysmonLogA[k] = sysmonLogAfter
			sysmonLogD[k] = delay
			sysmonLogR[k] = rn
			if len(allp) > 0 {
				sysmonLogT[k] = allp[0].schedtick
				sysmonLogS[k] = uint32(allp[0].status)
			}
			lock(&allpLock) // as retake: procresize grows allp, then fills it
			for i := 1; i < 4; i++ {
				sysmonLogU[k][i-1] = 0
				if i < len(allp) && allp[i] != nil {
					sysmonLogU[k][i-1] = allp[i].schedtick
				}
			}
			unlock(&allpLock)
			if sysmonPreempted {
				sysmonLogS[k] |= 0x100
			}
			sysmonLogN = k + 1
		}
		if !sysmonLogDone && (gomaxprocs == 1 && sysmonPreempted && now-runtimeInitTime > 5000000 ||
			sysmonLogBeginT != 0 && sysmonLogAfterNs > 0 && now-sysmonLogBeginT > sysmonLogAfterNs) {
			sysmonLogDone = true
			print("SYSMONLOG init ", runtimeInitTime, " n ", sysmonLogN, "\\n")
			for k := 0; k < sysmonLogN; k++ {
				print("SYSMONLOG ", k, " ", sysmonLogB[k]-runtimeInitTime, " ", sysmonLogA[k]-runtimeInitTime, " ", sysmonLogD[k], " ", sysmonLogR[k], " ", sysmonLogT[k], " ", sysmonLogS[k], " ", sysmonLogU[k][0], " ", sysmonLogU[k][1], " ", sysmonLogU[k][2], "\\n")
			}
		}
		sysmonPreempted = false""")
sub(proc, """				preemptone(pp)
				// In case of syscall, preemptone() doesn't""", """				preemptone(pp)
				sysmonPreempted = true
				// In case of syscall, preemptone() doesn't""")
sub(proc, """type sysmontick struct {""", """var (
	sysmonLogB, sysmonLogA [400]int64
	sysmonLogD, sysmonLogR, sysmonLogT, sysmonLogS [400]uint32
	sysmonLogN                                     int
	sysmonLogU                                     [400][3]uint32
	sysmonPreempted, sysmonLogDone                 bool
	sysmonLogBeginT, sysmonLogAfterNs              int64
)

// SysmonLogBegin: the workload's clock starts (patch.py); sysmon prints
// its log after ns more (0: at the preemption only).
func SysmonLogBegin(after int64) {
	mp := acquirem()
	pp := mp.p.ptr()
	t := nanotime()
	print("BEGIN ", t, " ", pp.id, " ", pp.schedtick, "\\n")
	sysmonLogAfterNs = after
	sysmonLogBeginT = t
	releasem(mp)
}

type sysmontick struct {""")
tw = twin + '/twin.go'
s = open(tw).read()
i = s.index('func (r *recorder) begin() time.Time {')
j = s.index('\n}\n', i)
body = s[i:j]
if body.count('\treturn time.Now()') != 1:
    sys.exit('patch.py: twin.go: begin() has changed')
s = s[:i] + body.replace('\treturn time.Now()', '\tsysmonLogBegin()\n\treturn time.Now()') + s[j:]
open(tw, 'w').write(s)
open(twin + '/hook.go', 'w').write("""package main

import (
	"os"
	"runtime"
	"strconv"
)

func sysmonLogBegin() {
	us, _ := strconv.Atoi(os.Getenv("SYSMONLOG_AFTER_US"))
	runtime.SysmonLogBegin(int64(us) * 1000)
}
""")
