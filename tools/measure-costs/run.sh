#!/bin/sh
# run.sh: measure this machine's thread and operation costs (threads.c,
# ops.go, newm.go) for gosim's runtime model defaults. Each of RUNS runs (default 5)
# waits until the machine is idle of other work (up to WAIT seconds; niced
# work does not count, tools/cpuload.awk) and prints the load, then runs
# both programs under
# flock /work/measure.lock at normal priority; the medians of the runs'
# medians are printed last, as gosim flags. Usage: sh run.sh [RUNS]
set -eu
runs=${1:-5}
dir=$(cd "$(dirname "$0")" && pwd)
go=${GO:-/usr/lib/go-1.23/bin/go}
lock=${MEASURE_LOCK:-/work/measure.lock}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nice -n 19 cc -O2 -Wall -pthread -o "$tmp/threads" "$dir/threads.c"
(cd "$tmp" && cp "$dir/ops.go" "$dir/newm.go" . && nice -n 19 "$go" build -o ops ops.go && nice -n 19 "$go" build -o newm newm.go)

# the machine's busy CPUs over one second, niced work not counted
# (tools/cpuload.awk): "busy=0.04 nice=1.85 steal=0.00"
root=$(cd "$dir/../.." && pwd)
load() {
	cat /proc/stat > "$tmp/a"; sleep 1; cat /proc/stat > "$tmp/b"
	awk -f "$root/tools/cpuload.awk" "$tmp/a" "$tmp/b"
}
# Wait (up to WAIT seconds, default 120) until under 0.3 CPUs are busy;
# then run anyway: the load is printed with each run.
wait_idle() {
	n=0
	while [ $n -lt "${WAIT:-120}" ]; do
		case $(load) in busy=0.[0-2]*) return 0 ;; esac
		n=$((n + 1))
	done
}

for i in $(seq "$runs"); do
	wait_idle
	echo "# run $i: load before: $(load)"
	flock "$lock" sh -c "'$tmp/threads' 200 && '$tmp/ops' 15 && '$tmp/newm' 9" | tee "$tmp/run$i"
done
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
tc=$(cat "$tmp"/run* | awk '$1=="thread-clone" {print $3}' | median)
ts=$(cat "$tmp"/run* | awk '$1=="thread-start" {print $3}' | median)
tw=$(cat "$tmp"/run* | awk '$1=="thread-wake" {print $3}' | median)
flag() { cat "$tmp"/run* | tr ' ' '\n' | sed -n "s/^--$1=\([0-9]*\)ns$/\1/p" | median; }
echo "# medians of $runs runs (thread-clone ${tc}ns; thread-start on a busy machine is the load's):"
py=$(cat "$tmp"/run* | awk '$1=="procyield30" {print $3}' | median)
echo "# sync.Mutex's spin, procyield(30): ${py:-n/a}ns (sim/policy.h RUNTIME_SPIN_NS; no flag)"
us=$(cat "$tmp"/run* | awk '$1=="usleep20" {print $3}' | median)
fig() { cat "$tmp"/run* | awk -v n="$1" '$1==n {print $3}' | median; }
echo "# thread operations' CPU (raw medians; README: the defaults are each run's figure x 15.1us / its usleep20, a loaded run's CPU inflation taken out):"
echo "--cost-futex-wake=$(fig futex-wake-cpu)ns --cost-futex-sleep=$(fig futex-sleep-cpu)ns --cost-usleep=$(fig nanosleep3)ns --cost-syscall=$(fig nanosleep1ms)ns --cost-netpoll=$(fig epoll1ms)ns --cost-write=$(fig write)ns"
# newm.go: a thread's creation beyond a wake, split as newm.go says
d() { awk -v a="$(fig "$1")" -v b="$(fig "$2")" 'BEGIN { print a - b }'; }
locker=$(d newm-locker wake-locker)
iter=$(d newm-iter wake-iter)
echo "# newm.go: newm+mstart - wake ${iter}ns, the creator's part ${locker}ns:"
echo "--cost-clone=$(awk -v w="$(fig futex-wake-cpu)" -v l="$locker" 'BEGIN { print w + l }')ns --cost-mstart=$(awk -v f="$(fig futex-sleep-cpu)" -v i="$iter" -v l="$locker" 'BEGIN { print f + i - l }')ns"
echo "--thread-start=${ts}ns --thread-wake=${tw}ns --cost-go=$(flag cost-go)ns --cost-chan=$(flag cost-chan)ns --cost-switch=$(flag cost-switch)ns --cost-gosched=$(flag cost-gosched)ns --cost-sysmon=${us}ns"
