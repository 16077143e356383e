#!/bin/sh
# sysmon-log/run.sh [RUNS] [OUT]: when the real pingpong twin (1 P, Go 1.23)
# is preempted, and why: RUNS (default 40) pairs of runs, the unmodified twin
# and one built with a runtime that logs every sysmon pass (patch.py), each
# under GODEBUG=schedtrace=1 in an autogroup of nice -20 (root) after waiting
# up to 30 s for the machine's non-niced busy time to fall below 0.3 CPUs.
# OUT (default sysmon-log.txt) gets, per run, "RUN i stock|patch busy=B/T
# g2=US makespan=US" (B: non-niced busy CPUs, T: with niced; g2: when the
# other goroutine first ran, us after the workload's start) and the logged
# twin's BEGIN and SYSMONLOG lines prefixed "Ri". Read it with pairs.py.
# PROG=NAME (default pingpong) takes workloads/go/NAME.go's twin instead,
# PROCS="N..." (default 1) its GOMAXPROCS (-procs N): several values run
# in turn in each slot, so that they see the same machine (the RUN line
# ends "procs=N"; pairs.py --procs=N picks them), STOCK=0 leaves the
# unmodified twin out. The log is printed at the 1-P preemption (pingpong
# at 1 P) or AFTER_US (default 2000) after the workload began; read the
# latter with pairs.py --begin.
# Take the measurement lock around it: flock /work/measure.lock tools/sysmon-log/run.sh
set -eu
RUNS=${1:-40} OUT=${2:-sysmon-log.txt}
PROG=${PROG:-pingpong} PROCS=${PROCS:-1} STOCK=${STOCK:-1}
KINDS="stock patch"
[ "$STOCK" = 0 ] && KINDS=patch
AFTER_US=${AFTER_US:-2000}
GO=/usr/lib/go-1.23
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -rL "$GO" "$tmp/go" # the runtime's source, dereferenced (Debian links src into /usr/share)
mkdir "$tmp/stock" "$tmp/patch"
cp "$root/workloads/go/$PROG.go" "$root/workloads/go/twin.go" "$tmp/stock/"
cp "$root/workloads/go/$PROG.go" "$root/workloads/go/twin.go" "$tmp/patch/"
python3 "$here/patch.py" "$tmp/go" "$tmp/patch"
(cd "$tmp/stock" && "$GO/bin/go" build -o twin "$PROG.go" twin.go)
(cd "$tmp/patch" && GOROOT="$tmp/go" "$tmp/go/bin/go" build -o twin "$PROG.go" twin.go hook.go)
RATES=$("$tmp/stock/twin" -calibrate 2>/dev/null) # once, as compare-real does
busy() { # non-niced busy CPUs over 0.5 s, then with niced
	a=$(awk '/^cpu /{print $2+$4+$7+$8, $3}' /proc/stat); sleep 0.5; b=$(awk '/^cpu /{print $2+$4+$7+$8, $3}' /proc/stat)
	echo "$a $b" | awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f/%.2f", ($3-$1)/hz/0.5, ($3-$1+$4-$2)/hz/0.5}'
}
: >"$OUT"
for i in $(seq "$RUNS"); do
	for procs in $PROCS; do
	after=$AFTER_US
	[ "$PROG.$procs" = pingpong.1 ] && after=0
	for kind in $KINDS; do
		w=0
		while :; do
			b=$(busy)
			awk -v b="${b%/*}" 'BEGIN { exit !(b < 0.3) }' && break
			w=$((w + 1))
			[ $w -gt 60 ] && break
		done
		# shellcheck disable=SC2086 # RATES: plain words
		SYSMONLOG_AFTER_US=$after GODEBUG=schedtrace=1 setsid -w sh -c 'echo -20 >/proc/self/autogroup 2>/dev/null; exec "$@"' sh \
			"$tmp/$kind/twin" -procs "$procs" $RATES >"$tmp/o" 2>"$tmp/e"
		g2=$(awk '$1 == "g" && $2 == 2 { print $4 }' "$tmp/o")
		ms=$(awk '$1 == "makespan_us" { print $2 }' "$tmp/o")
		echo "RUN $i $kind busy=$b g2=$g2 makespan=$ms procs=$procs" >>"$OUT"
		grep -E '^(SYSMONLOG|BEGIN)' "$tmp/e" | sed "s/^/R$i /" >>"$OUT" || true
	done
	done
done
