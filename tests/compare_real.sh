#!/bin/sh
# tools/compare-real's arithmetic and parsing on fixed inputs (no real
# program is timed): the load from two /proc/stat snapshots
# (tools/cpuload.awk), the totals beside gosim (tools/realstats.py:
# medians, parallelism, the CPU-normalised makespan, order correlations),
# compare-real's refusals, the docs/fidelity.md table's figures from saved runs
# (tools/real-report.sh), and every Go twin building with twin.go.
# Usage: tests/compare_real.sh ./gosim
set -u
GOSIM=${1:-./gosim}
case $GOSIM in /*) ;; *) GOSIM=$(pwd)/$GOSIM ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$T/err" ] && sed 's/^/     /' "$T/err" | head -8; }
# check NAME WANT GOT
check() { if [ "$2" = "$3" ]; then ok "$1"; else echo "want: $2" >"$T/err"; echo "got:  $3" >>"$T/err"; bad "$1"; fi; }
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)

# cpuload.awk: user 100 + system 50 busy, nice 200 apart, of 450 jiffies
# on 2 CPUs; guest time (already in user) left out of the total.
printf 'cpu  100 50 100 1000 0 0 0 0 7 0\ncpu0 50 25 50 500 0 0 0 0 0 0\ncpu1 50 25 50 500 0 0 0 0 0 0\nintr 5\n' >"$T/a"
printf 'cpu  200 250 150 1100 0 0 0 0 9 0\ncpu0 100 125 75 550 0 0 0 0 0 0\ncpu1 100 125 75 550 0 0 0 0 0 0\nintr 9\n' >"$T/b"
check "load: busy counts user+system, not nice, in CPUs" "busy=0.67 nice=0.89 steal=0.00" "$(awk -f tools/cpuload.awk "$T/a" "$T/b")"
printf 'cpu  100 0 0 100 0 10 10 30 0 0\ncpu0 0 0 0 0\n' >"$T/a"
printf 'cpu  100 0 0 100 0 20 20 60 0 0\ncpu0 0 0 0 0\n' >"$T/b"
check "load: irq and softirq are busy, steal apart (1 CPU)" "busy=0.40 nice=0.00 steal=0.60" "$(awk -f tools/cpuload.awk "$T/a" "$T/b")"
awk -f tools/cpuload.awk "$T/b" "$T/a" >/dev/null 2>"$T/err"
check "load: snapshots in the wrong order are refused" 2 $?

# realstats.py: three runs. Parallelism 2, 2, 1; normalised makespan
# (makespan x work 20000 / cpu) 10000, 10000, 20000; run 3 finishes G3
# before G2 (the reverse of gosim and of creation order).
cat >"$T/real.out" <<'EOF'
run=1 load busy=0.10 nice=1.50 steal=0.00 waited=0
run=1 makespan_us 10000
run=1 cpu_us 20000
run=1 oswait_us 0
run=1 g 2 start_us 0 end_us 5000
run=1 g 3 start_us 10 end_us 10000
run=2 load busy=0.20 nice=1.00 steal=0.00 waited=3
run=2 makespan_us 12000
run=2 cpu_us 24000
run=2 g 2 start_us 0 end_us 6000
run=2 g 3 start_us 12 end_us 12000
run=3 load busy=0.30 nice=0.50 steal=0.00 waited=60
run=3 makespan_us 30000
run=3 cpu_us 30000
run=3 oswait_us 30000
run=3 g 2 start_us 20 end_us 30000
run=3 g 3 start_us 10 end_us 15000
noise that is not a run's line
EOF
printf 'makespan_us 10000\ncpu_us 20000\nwork_us 20000\noswait_us 0\ng 2 start_us 0 end_us 5000\ng 3 start_us 0 end_us 10000\n' >"$T/gosim.out"
$PY tools/realstats.py "$T/real.out" "$T/gosim.out" >"$T/stats" 2>"$T/err"
check "realstats: exits 0" 0 $?
line() { grep "^$1" "$T/stats"; }
check "realstats: makespan median [min-max] beside gosim" "makespan us: real 12000 [10000-30000], gosim 10000" "$(line "makespan us")"
check "realstats: CPU time and its ratio to gosim's" "cpu us: real 24000 [20000-30000], gosim 20000; real/gosim 1.2 [1-1.5]" "$(line "cpu us")"
check "realstats: parallelism is CPU time over makespan" "parallelism (cpu/makespan): real 2 [1-2], gosim 2" "$(line parallelism)"
check "realstats: the makespan scaled by work over CPU time" \
	"makespan normalised by cpu (makespan x work / cpu; work 20000): real 10000 [10000-20000], gosim 10000" "$(line "makespan normalised")"
check "realstats: the OS wait per makespan, over the runs that print it" \
	"os wait (threads runnable without a CPU) / makespan: real 0.5 [0-1], gosim 0" "$(line "os wait")"
check "realstats: a run with a CPU lost to the OS is held back; one with no OS wait printed is not counted" \
	"runs not held back (os wait / makespan within 0.25 of gosim's): 1 of 3; parallelism 2 [2-2]; normalised makespan 10000 [10000-10000]" \
	"$(line "runs not held back")"
check "realstats: a tie in gosim's start order leaves no correlation" \
	"first-run order vs gosim (Spearman): real -; vs creation order: real 1 [-1-1], gosim -" "$(line "first-run order vs")"
check "realstats: a reversed completion order correlates -1" \
	"completion order vs gosim (Spearman): real 1 [-1-1]; vs creation order: real 1 [-1-1], gosim 1" "$(line "completion order vs")"
check "realstats: the load before the runs" "load before the runs (CPUs): busy 0.2 [0.1-0.3], nice 1 [0.5-1.5], steal 0 [0-0]" "$(line "load before")"
check "realstats: the real order is by median time over runs" "completion order: real G2 G3 / gosim G2 G3" "$(line "completion order:")"
check "realstats: a goroutine's row" "G3        | 10 [10-12]             0      | 12000 [10000-15000]    10000" "$(line G3)"
# an even number of runs: the median is the mean of the middle two
grep -v '^run=3' "$T/real.out" >"$T/real2.out"
check "realstats: the median of two runs is their mean" "makespan us: real 11000 [10000-12000], gosim 10000" \
	"$($PY tools/realstats.py "$T/real2.out" "$T/gosim.out" | grep '^makespan us')"
# Spearman with ties: average ranks (1,2,3 against 1,2.5,2.5 = 0.866)
check "realstats: Spearman gives ties their average rank" "0.866" \
	"$($PY -c 'import sys; sys.path.insert(0, "tools"); import realstats; print("%.3f" % realstats.spearman([1, 2, 3], [5, 7, 7]))')"

# compare-real refuses what it cannot compare, before running anything.
refuse() { # refuse NAME ARGS...: exit 2 with one line
	tools/compare-real --gosim="$GOSIM" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^compare-real: ' "$T/err" && ok "compare-real refuses $1" ||
		{ echo "exit $rc" >>"$T/err"; bad "compare-real refuses $1"; }
}
echo '{"main": [{"run": "1ms"}]}' >"$T/lone.json"
refuse "a workload file with no twin" "$T/lone.json"
refuse "a built-in that does not exist" nosuch
refuse "a twin that is not there" --twin="$T/none.go" fanout
refuse "--runs=0" --runs=0 fanout
refuse "--idle that is not a number" --idle=x fanout
refuse "--autogroup-nice out of range" --autogroup-nice=-21 fanout
mkdir "$T/saved"
: >"$T/saved/real.out"
: >"$T/saved/real.rec"
echo "workload: fanout -p 2; twin: workloads/go/fanout.go -procs 2" >"$T/saved/real.txt"
refuse "saved runs of other arguments" --real="$T/saved" -p 4 fanout
refuse "a directory without saved runs" --real="$T" fanout

# real-report.sh: the table's figures, read back from saved runs.
mkdir -p "$T/real/1.23/pingpong"
cat >"$T/real/1.23/pingpong/real.out" <<'EOF'
run=1 load busy=0.10 nice=1.50 steal=0.00 waited=0
run=1 makespan_us 26000
run=1 cpu_us 26000
run=1 g 2 start_us 14000 end_us 19000
run=2 load busy=0.10 nice=1.50 steal=0.00 waited=0
run=2 makespan_us 28000
run=2 cpu_us 25000
run=2 g 2 start_us 11000 end_us 16000
EOF
printf 'run=1 t_ms=0 gomaxprocs=1 idleprocs=0 threads=4 spinningthreads=0 needspinning=0 idlethreads=2 runqueue=0 runq=0 schedticks=-\n' >"$T/real/1.23/pingpong/real.rec"
printf 'run=2 t_ms=0 gomaxprocs=1 idleprocs=0 threads=5 spinningthreads=0 needspinning=0 idlethreads=2 runqueue=0 runq=0 schedticks=-\n' >>"$T/real/1.23/pingpong/real.rec"
echo "go: go1.23.5" >"$T/real/1.23/pingpong/real.txt"
echo "workload: pingpong -p 1; twin: workloads/go/pingpong.go -procs 1" >>"$T/real/1.23/pingpong/real.txt"
ONLY=pingpong GOSIM="$GOSIM" sh tools/real-report.sh "$T/real" >"$T/table" 2>"$T/err"
check "real-report: exits 0 on saved runs" 0 $?
gm=$("$GOSIM" -w pingpong --model=seed | awk '$1 == "makespan" { print $2 * 1000 }')
check "real-report: the makespan row: 1.19 missing, 1.23's median, gosim's makespan" \
	"- / 27000 [26000-28000] / $gm" \
	"$(grep '^| pingpong: makespan' "$T/table" | awk -F' [|] ' '{ print $2 " / " $3 " / " $5 }')"
check "real-report: a goroutine's first run, real median [min-max]" "12500 [11000-14000]" \
	"$(grep '^| pingpong: G2' "$T/table" | awk -F' [|] ' '{ print $3 }')"
check "real-report: parallelism of the saved runs" "0.946 [0.893-1]" \
	"$(grep '^| pingpong: parallelism' "$T/table" | awk -F' [|] ' '{ print $3 }')"

# the same runs gzipped (as tools/fidelity/real keeps them) give the same table
cp -r "$T/real" "$T/realgz"
gzip "$T/realgz/1.23/pingpong/real.out" "$T/realgz/1.23/pingpong/real.rec"
ONLY=pingpong GOSIM="$GOSIM" sh tools/real-report.sh "$T/realgz" 2>"$T/err" | sed "s|$T/realgz|$T/real|g" >"$T/tablegz"
cmp -s "$T/table" "$T/tablegz" && ok "real-report: gzipped saved runs give the same table" || bad "real-report: gzipped saved runs give the same table"

# Every Go twin builds (vet) beside twin.go and prints what compare-real reads.
GO=/usr/lib/go-1.23/bin/go
[ -x "$GO" ] || GO=$(command -v go || true)
if [ -z "$GO" ]; then
	echo "compare_real: SKIPPED the twins' build: no Go (sh tools/setup.sh installs Go 1.23)"
else
	[ -n "${HOME:-}" ] || export GOCACHE="$T/gocache"
	for twin in workloads/go/*.go tools/fidelity/go/*.go; do
		case $twin in */twin.go) continue ;; esac
		rm -rf "$T/src"
		mkdir "$T/src"
		cp workloads/go/twin.go "$twin" "$T/src/"
		printf 'module twin\n\ngo 1.19\n' >"$T/src/go.mod"
		(cd "$T/src" && "$GO" vet . && "$GO" build -o ../twin .) >"$T/err" 2>&1 &&
			ok "twin $twin builds with twin.go" || bad "twin $twin builds with twin.go"
	done
	rm -rf "$T/src"
	mkdir "$T/src"
	cp workloads/go/twin.go workloads/go/fanout.go "$T/src/"
	printf 'module twin\n\ngo 1.19\n' >"$T/src/go.mod"
	(cd "$T/src" && "$GO" build -o ../twin . && ../twin -n 3 -work 10us -procs 1 -run-rate 1 -loop-rate 1) >"$T/out" 2>"$T/err"
	check "a twin prints makespan, CPU time, OS wait and one line per goroutine" "makespan_us cpu_us oswait_us g2 g3 g4" \
		"$(awk '$1 == "g" { printf " g%s", $2; next } { printf "%s%s", (NR > 1 ? " " : ""), $1 }' "$T/out")"
fi

echo "compare_real: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
