#!/bin/sh
# make bench: what gosim costs, and how that compares with the real runtime
# doing the same scheduling work. For each case, gosim runs BENCH_RUNS times
# (default 5) with the trace off and with a CSV trace to /dev/null (the 1M
# fan-out also to .csv.zst and .csv.gz files); where a Go toolchain is
# installed, the case's Go twin (workloads/go) runs as many times,
# alternating with the untraced runs, and the table shows gosim's median
# wall time over Go's (gosim/Go) and each traced median over the untraced
# one (trace/off).
#
#   tools/bench.sh [GOSIM]        BENCH_RUNS=5 BENCH_CASES="fanout-1M ..." BENCH_CALLGRIND=0 BENCH_AGNICE=-20
#
# The work per goroutine is zero (fan-out, ping-pong) so both sides spend
# their time on scheduling alone: the runtime's own cost, not busy loops.
# Wall times are whole processes (start-up included) on both sides;
# events/s and trace MB/s come from gosim --stats (the simulation alone).
set -eu
GOSIM=${1:-./gosim}
RUNS=${BENCH_RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

GO=$(command -v go 2>/dev/null || ls /usr/lib/go-1.*/bin/go 2>/dev/null | sort -V | tail -n 1 || true)
if [ -n "$GO" ]; then
	for w in fanout pingpong syscalls; do
		(cd workloads/go && "$GO" build -o "$tmp/$w" "$w.go" twin.go) || GO=""
	done
fi

# name | goroutines | gosim arguments | Go twin and arguments | traces
# (besides off: csv to /dev/null, csv.zst and csv.gz to a file)
cat >"$tmp/cases" <<'CASES'
fanout-10k|10001|-w fanout -p 4 -D n=10000 -D work=0|fanout -procs 4 -n 10000 -work 0|csv
fanout-100k|100001|-w fanout -p 4 -D n=100000 -D work=0|fanout -procs 4 -n 100000 -work 0|csv
fanout-1M|1000001|-w fanout -p 4 -D n=1000000 -D work=0|fanout -procs 4 -n 1000000 -work 0|csv csv.zst csv.gz
fanout-10M|10000001|-w fanout -p 4 -D n=10000000 -D work=0||csv
pingpong-1M|3|-w pingpong -p 1 -D rounds=1000000 -D work=0 -D other=0|pingpong -procs 1 -rounds 1000000 -work 0 -other 0|csv
syscalls-100k|100001|-w syscalls -p 2 -D n=100000 -D work=10us -D sys=50us --max-threads=1000000|syscalls -procs 2 -n 100000 -work 10us -sys 50us -max-threads 1000000|csv
CASES

# stats FILE KEY: the median, min and max of KEY=value over the lines of FILE
stats() {
	grep -o "$2=[0-9.]*" "$1" | cut -d= -f2 | sort -g | awk '
		{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s %s %s", m, v[1], v[NR] }'
}

now_ns() { date +%s%N; }

# one_run FILE CMD...: one whole-process run of CMD, its wall time appended
# to FILE as process_s= (beside --stats lines, when CMD writes them to stderr)
# With BENCH_AGNICE=N (-20..19; root for N < 0) each measured run is in a
# session (autogroup) of its own with that nice, as tools/compare-real's
# --autogroup-nice: on a shared machine the other sessions' work then
# weighs less on both sides of a ratio.
one_run() {
	f=$1
	shift
	if [ -n "${BENCH_AGNICE:-}" ]; then
		set -- setsid -w sh -c 'echo "$1" >/proc/self/autogroup || exit 125; shift; exec "$@"' sh "$BENCH_AGNICE" "$@"
	fi
	t0=$(now_ns)
	"$@" 2>>"$f" >/dev/null || true
	t1=$(now_ns)
	echo "process_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')" >>"$f"
}

if [ -n "${BENCH_AGNICE:-}" ] && ! setsid -w sh -c 'echo "$1" >/proc/self/autogroup' sh "$BENCH_AGNICE" 2>/dev/null; then
	echo "bench: BENCH_AGNICE=$BENCH_AGNICE refused (/proc/self/autogroup; below 0 needs root)" >&2
	exit 2
fi

printf '%-14s %-7s %-22s %9s %7s %9s %10s %9s %8s %9s\n' workload trace "wall s: median (min-max)" "RSS MB" "B/gor" \
	"Mev/s" "trace MB/s" "Go s" "gosim/Go" "trace/off"
while IFS='|' read -r name gors args twin traces; do
	case " ${BENCH_CASES:-$name} " in *" $name "*) ;; *) continue ;; esac
	[ -n "$GO" ] || twin=""
	# The untraced runs and the Go twin's alternate, run by run, so that a
	# change in the machine's load falls on both sides of the ratio.
	: >"$tmp/go"
	: >"$tmp/off"
	for i in $(seq "$RUNS"); do
		# shellcheck disable=SC2086 # plain words
		[ -n "$twin" ] && one_run "$tmp/go" "$tmp"/$twin -q
		# shellcheck disable=SC2086
		one_run "$tmp/off" "$GOSIM" $args -q --stats
	done
	gomed=""
	[ -n "$twin" ] && gomed=$(stats "$tmp/go" process_s | cut -d' ' -f1)
	offmed=$(stats "$tmp/off" process_s | cut -d' ' -f1)
	for trace in off $traces; do
		if [ "$trace" != off ]; then
			: >"$tmp/$trace"
			out=/dev/null extra="--format=csv"
			# a compressed trace goes to a real file: the output path renames it into place
			[ "$trace" = csv ] || out="$tmp/t.$trace" extra=""
			for i in $(seq "$RUNS"); do
				# shellcheck disable=SC2086
				one_run "$tmp/$trace" "$GOSIM" $args --trace="$out" $extra -q --stats
			done
			rm -f "$tmp/t.$trace"
		fi
		set -- $(stats "$tmp/$trace" process_s)
		med=$1 lo=$2 hi=$3
		rss=$(stats "$tmp/$trace" peak_rss_kb | cut -d' ' -f1)
		evs=$(stats "$tmp/$trace" events_per_s | cut -d' ' -f1)
		tmb=$(stats "$tmp/$trace" trace_mb_per_s | cut -d' ' -f1)
		ratio="-" goshow="-" vsoff="-"
		if [ -n "$gomed" ] && [ "$trace" = off ]; then
			goshow=$gomed
			ratio=$(awk -v a="$med" -v b="$gomed" 'BEGIN { printf "%.2f", a / b }')
		fi
		[ "$trace" = off ] && tmb="-"
		[ "$trace" != off ] && vsoff=$(awk -v a="$med" -v b="$offmed" 'BEGIN { printf "%.2f", a / b }')
		printf '%-14s %-7s %-22s %9.1f %7s %9.1f %10s %9s %8s %9s\n' "$name" "$trace" "$med ($lo-$hi)" \
			"$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" \
			"$(awk -v k="$rss" -v g="$gors" 'BEGIN { if (g < 1000) print "-"; else printf "%.0f", k * 1024 / g }')" \
			"$(awk -v e="$evs" 'BEGIN { print e / 1e6 }')" "$tmb" "$goshow" "$ratio" "$vsoff"
	done
done <"$tmp/cases"
echo "($RUNS runs each; $(nproc) CPUs; autogroup nice: ${BENCH_AGNICE:-not set}; Go: ${GO:-not installed}$( [ -n "$GO" ] && "$GO" version | sed 's/^go version / /'))"

# Instructions per event, from callgrind: deterministic, so a change's
# effect shows in one run whatever else the machine is doing. Whole
# process (start-up is ~0.3M instructions, under one per event here) over
# the events the run emitted (--stats). BENCH_CALLGRIND=0 skips it.
if [ "${BENCH_CALLGRIND:-1}" != 0 ] && command -v valgrind >/dev/null; then
	cat >"$tmp/cgcases" <<'CASES'
fanout-100k-p4|off|-w fanout -p 4 -D n=100000 -D work=0
fanout-100k-p256|off|-w fanout -p 256 -D n=100000 -D work=0
pingpong-100k|off|-w pingpong -p 1 -D rounds=100000 -D work=0 -D other=0
fanout-100k-p4|csv|-w fanout -p 4 -D n=100000 -D work=0 --trace=/dev/null --format=csv
fanout-100k-p4|json|-w fanout -p 4 -D n=100000 -D work=0 --trace=/dev/null --format=json
pingpong-100k|csv|-w pingpong -p 1 -D rounds=100000 -D work=0 -D other=0 --trace=/dev/null --format=csv
CASES
	printf '\n%-18s %-6s %12s %9s %10s\n' workload trace instructions events "instr/ev"
	while IFS='|' read -r name trace args; do
		# shellcheck disable=SC2086 # plain words
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$GOSIM" $args -q --stats \
			>/dev/null 2>"$tmp/cg.err" || true
		ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/cg.err")
		ev=$(grep -o 'events=[0-9]*' "$tmp/cg.err" | cut -d= -f2)
		printf '%-18s %-6s %12s %9s %10s\n' "$name" "$trace" "$ir" "$ev" \
			"$(awk -v i="$ir" -v e="$ev" 'BEGIN { if (e > 0) printf "%.0f", i / e; else print "-" }')"
	done <"$tmp/cgcases"
	echo "(callgrind: $(valgrind --version); instructions of the whole process over its events)"
else
	echo "(callgrind skipped: BENCH_CALLGRIND=0 or valgrind not installed)"
fi

# Input size and run length: compiling is linear in the workload's size
# (names through a hash table, walks without recursion) and memory follows
# the program's state, not simulated time (one pending CPU deadline per P).
# Generated inputs; whole-process wall time (compile and run), peak RSS.
awk 'BEGIN { n = 120000; printf "{\"main\": [{\"go\": \"f0\"}], \"funcs\": {";
	for (i = 0; i < n - 1; i++) printf "\"f%d\": [{\"go\": \"f%d\"}],\n", i, i + 1;
	printf "\"f%d\": [{\"run\": 10}]}}\n", n - 1 }' >"$tmp/chain-120k.json"
awk 'BEGIN { n = 100000; printf "{\"main\": [";
	for (i = 0; i < n; i++) printf "%s{\"go\": \"f%d\"}", i ? ", " : "", i;
	printf "],\n\"funcs\": {"; for (i = 0; i < n; i++) printf "%s\"f%d\": [{\"run\": 10}]", i ? ",\n" : "", i;
	printf "}}\n" }' >"$tmp/funcs-100k.json"
awk 'BEGIN { n = 100000; printf "{\"chans\": {";
	for (i = 0; i < n; i++) printf "%s\"c%d\": 1", i ? ", " : "", i;
	printf "},\n\"main\": ["; for (i = 0; i < n; i++) printf "%s{\"send\": \"c%d\"}", i ? ", " : "", i;
	printf "]}\n" }' >"$tmp/chans-100k.json"
echo '{"main": [{"run": "99999s"}]}' >"$tmp/run-99999s.json"
printf '\n%-16s %-22s %9s\n' input "wall s: median (min-max)" "RSS MB"
for name in chain-120k funcs-100k chans-100k run-99999s; do
	: >"$tmp/runs"
	n=$RUNS
	[ "$name" = run-99999s ] && n=1 # ten million preemptions: one run is enough
	for i in $(seq "$n"); do
		t0=$(now_ns)
		"$GOSIM" -w "$tmp/$name.json" -q --stats 2>>"$tmp/runs" >/dev/null || true
		t1=$(now_ns)
		echo "process_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')" >>"$tmp/runs"
	done
	set -- $(stats "$tmp/runs" process_s)
	rss=$(stats "$tmp/runs" peak_rss_kb | cut -d' ' -f1)
	printf '%-16s %-22s %9.1f\n' "$name" "$1 ($2-$3)" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
done
