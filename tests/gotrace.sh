#!/bin/sh
# gotrace.sh GOSIM: --format=gotrace checked by the Go toolchain itself.
#
# 1. Go's own trace checker (internal/trace/testdata/cmd/gotracevalidate,
#    built offline from the installed GOROOT) validates the gotrace output
#    of every golden case, of the whole headless matrix (every built-in
#    workload x 1..8 Ps x steal on/off x every preemption mode x both
#    sysmon modes) and of a few large runs.
# 2. For the golden cases and the retake-heavy runs, `go tool trace -d=1`
#    must show the same number of goroutines, the same run time per
#    goroutine and the same makespan as gosim's own trace and summary, and
#    one ProcSteal on sysmon's M per P gosim retook from a syscall.
#
# Needs Go >= 1.23 (tools/setup.sh installs golang-1.23 from
# bookworm-backports); without one it says so and skips. GO=path picks one.
set -u
gosim=${1:?usage: tests/gotrace.sh GOSIM}
case $gosim in /*) ;; *) gosim=$(pwd)/$gosim ;; esac
root=$(pwd)
jobs=${JOBS:-2}

go=""
for g in ${GO:-} /usr/lib/go-1.23/bin/go /usr/lib/go-1.24/bin/go /usr/lib/go/bin/go $(command -v go 2>/dev/null); do
	[ -x "$g" ] || continue
	case $("$g" env GOVERSION 2>/dev/null) in
	go1.2[3-9]* | go1.[3-9][0-9]*) go=$g; break ;;
	esac
done
if [ -z "$go" ]; then
	echo "gotrace: SKIPPED: no Go >= 1.23 found (sh tools/setup.sh installs golang-1.23)"
	exit 0
fi

cache=$root/build/go
mkdir -p "$cache"
export GOCACHE="$cache/cache" GOTOOLCHAIN=local GOPROXY=off GOFLAGS=
validate=$cache/gotracevalidate
if [ ! -x "$validate" ] || [ "$validate" -ot "$go" ]; then
	(cd "$("$go" env GOROOT)/src" && "$go" build -o "$validate" ./internal/trace/testdata/cmd/gotracevalidate) || {
		echo "gotrace: FAIL: cannot build gotracevalidate with $go"
		exit 1
	}
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	echo "FAIL $*"
}

# ---- 1. the checker over many runs, $jobs at a time -----------------------
# One line per run: a name, then gosim's arguments.
{
	for dir in "$root"/golden/*/; do
		name=golden-$(basename "$dir")
		args=$(sed 's/--trace=[^ ]*//; s/--format=[^ ]*//; s/--scheddetail//; s/--schedtrace=[^ ]*//' "$dir/args")
		echo "$name $args"
	done
	for w in $("$gosim" --list-workloads | awk '/^[a-z]/ { print $1 }'); do
		for p in 1 2 3 4 5 6 7 8; do
			for st in on off; do
				for pr in async cooperative off; do
					for sm in fixed adaptive; do
						echo "m-$w-p$p-$st-$pr-$sm -w $w -p $p --steal=$st --preempt=$pr --sysmon=$sm"
					done
				done
			done
		done
	done
	# a G the netpoller readies and findRunnable runs at once (waiting -> running)
	for p in 1 2 4; do
		for sm in fixed adaptive; do
			echo "net-p$p-$sm -w $root/tests/data/net-servers.json -p $p --sysmon=$sm"
		done
	done
	# every workload of the fuzz corpus (the ones gosim refuses are skipped)
	for f in "$root"/tests/fuzz/corpus/*; do
		case $(head -c 1 "$f") in -* | "#") continue ;; esac
		echo "corpus-$(basename "$f") -w $f -p 3 --max-goroutines=20000"
	done
	echo "large-fanout -w fanout -p 8 -D n=20000 -D work=50us"
	echo "large-syscalls -w syscalls -p 8 -D n=3000 -D sys=1ms -D work=20us"
	echo "large-pingpong -w pingpong -p 3 -D rounds=50000 -D work=10us"
	echo "large-tightloop -w tightloop -p 2 -D n=64 -D spin=5ms"
} | sed 's/[[:space:]]*$//; s/[[:space:]][[:space:]]*/ /g' >"$tmp/runs" # xargs -L joins a line ending in a blank

cat >"$tmp/one.sh" <<'EOF'
# one.sh GOSIM VALIDATE DIR NAME ARGS...: run, validate, keep the trace only on failure
gosim=$1 validate=$2 dir=$3 name=$4
shift 4
f=$dir/$name.trace
"$gosim" "$@" -q --trace="$f" --format=gotrace 2>"$dir/$name.err"
rc=$?
case $name:$rc in
corpus-*:2) echo "ok $name (not a valid workload)"; exit 0 ;; # the fuzz corpus holds bad inputs on purpose
corpus-*:3 | *:0) ;; # 3: the program died (deadlock, thread limit): its trace is kept
*) echo "FAIL $name: gosim $* exited $rc: $(head -c 200 "$dir/$name.err")"; exit 0 ;;
esac
if [ ! -f "$f" ]; then
	echo "FAIL $name: gosim $* wrote no trace"
elif ! "$validate" <"$f" >"$dir/$name.err" 2>&1; then
	echo "FAIL $name: gotracevalidate: $(head -c 600 "$dir/$name.err") (gosim $*)"
else
	echo "ok $name"
	rm -f "$f"
fi
EOF
xargs -P "$jobs" -L 1 sh "$tmp/one.sh" "$gosim" "$validate" "$tmp" <"$tmp/runs" >"$tmp/results" 2>&1
nruns=$(wc -l <"$tmp/runs")
nok=$(grep -c '^ok ' "$tmp/results")
nbad=$(grep -c '(not a valid workload)' "$tmp/results")
grep -v '^ok ' "$tmp/results" | head -n 20
if [ "$nok" -eq "$nruns" ]; then
	ok
	echo "ok   gotracevalidate accepts all $((nruns - nbad)) traces (golden, matrix, net, fuzz corpus, large; $nbad corpus inputs are not workloads)"
else
	bad "gotracevalidate accepted $nok of $nruns runs"
fi

# ---- 2. go tool trace -d=1 agrees with gosim -----------------------------
# Per goroutine run time (us), goroutines and makespan, from gosim's CSV...
cat >"$tmp/csv.awk" <<'EOF'
BEGIN { FS = "," }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$col["ev"] != "g" { next }
{ g = $col["g"]; t = $col["t"] }
$col["from"] == "new" { n++ }
$col["to"] == "running" { start[g] = t }
$col["from"] == "running" { run[g] += t - start[g] }
$col["to"] == "dead" && t > last { last = t }
END { printf "goroutines %d\nmakespan %d\n", n, last; for (g in run) printf "run %d %d\n", g, run[g] }
EOF
# ... and from the events go tool trace parsed (times in ns).
cat >"$tmp/d1.awk" <<'EOF'
function us(s) { return int(substr(s, 6) / 1000) }
/ StateTransition / && /Resource=Goroutine\(/ {
	t = us($5); g = $6; sub(/.*\(/, "", g); sub(/\).*/, "", g); tr = $NF
	if (tr ~ /^NotExist->/) n++
	if (tr ~ /->Running$/) start[g] = t
	if (tr ~ /^Running->/) run[g] += t - start[g]
	if (tr ~ /->NotExist$/ && t > last) last = t
}
/^M=1 / && / StateTransition / && /Resource=Proc\(/ && /Running->Idle$/ { steals++ }
END { printf "goroutines %d\nmakespan %d\n", n, last; for (g in run) printf "run %d %d\n", g, run[g]; printf "sysmon-steals %d\n", steals }
EOF
# An instant holding more than 1000 trace events spreads over more than
# 1 us in the trace (the reader makes every timestamp distinct, 1 ns
# apart), so for the large runs only the counts and the makespan must agree.
compare() { # [--counts] name args...
	only=.
	[ "$1" = --counts ] && only='^[^r]' && shift
	name=$1
	shift
	"$gosim" "$@" -q --trace="$tmp/$name.csv" --format=csv 2>/dev/null
	"$gosim" "$@" -q --trace="$tmp/$name.trace" --format=gotrace 2>/dev/null
	"$gosim" "$@" --trace="$tmp/$name.summary.csv" --format=csv >"$tmp/$name.summary" 2>/dev/null
	if ! "$go" tool trace -d=1 "$tmp/$name.trace" >"$tmp/$name.d1" 2>&1; then
		bad "$name: go tool trace -d=1 failed: $(head -c 300 "$tmp/$name.d1")"
		return
	fi
	awk -f "$tmp/csv.awk" "$tmp/$name.csv" | grep "$only" | sort >"$tmp/$name.want"
	# a retake: a handoff, or a P put idle (syscall->idle; Go 1.26: sysmon's
	# takeP, running->idle by M1, which a handoff of that P may follow)
	retakes=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["ev"] == "p" && $c["to"] == "idle" && ($c["from"] == "syscall" || ($c["from"] == "running" && $c["by_m"] == 1)) {
			n++; taken[$c["p"]] = $c["t"]; next }
		$c["ev"] == "handoff" { if (taken[$c["p"]] != $c["t"]) n++ }
		$c["ev"] == "p" { delete taken[$c["p"]] }
		END { print n + 0 }' "$tmp/$name.csv")
	echo "sysmon-steals $retakes" >>"$tmp/$name.want"
	sort -o "$tmp/$name.want" "$tmp/$name.want"
	awk -f "$tmp/d1.awk" "$tmp/$name.d1" | grep "$only" | sort >"$tmp/$name.got"
	# the summary's own numbers
	sg=$(awk '$1 == "goroutines" { print $2 }' "$tmp/$name.summary")
	sm=$(awk '$1 == "makespan" { split($2, a, "."); print a[1] * 1000 + a[2] }' "$tmp/$name.summary")
	if ! grep -qx "goroutines $sg" "$tmp/$name.got" || ! grep -qx "makespan $sm" "$tmp/$name.got"; then
		bad "$name: go tool trace shows $(grep -E '^(goroutines|makespan)' "$tmp/$name.got" | tr '\n' ' '), the summary goroutines $sg makespan ${sm}us"
	elif ! diff -u "$tmp/$name.want" "$tmp/$name.got" >"$tmp/$name.diff"; then
		bad "$name: go tool trace -d=1 and gosim's trace differ (gosim $*):"
		head -n 20 "$tmp/$name.diff"
	else
		ok
		echo "ok   go tool trace -d=1 agrees with gosim: $name ($sg goroutines, makespan ${sm}us, $retakes retakes)"
	fi
}
for dir in "$root"/golden/*/; do
	# shellcheck disable=SC2046 # args are plain words
	compare "golden-$(basename "$dir")" $(sed 's/--trace=[^ ]*//; s/--format=[^ ]*//; s/--scheddetail//; s/--schedtrace=[^ ]*//; s/ -q//' "$dir/args")
done
compare syscalls-p8-handoffs -w syscalls -p 8 -D n=64
compare syscalls-p8-handoffs-go1.26 -w syscalls -p 8 -D n=64 --go=1.26
compare syscalls-p3-nosteal-go1.26 -w syscalls -p 3 --steal=off --go=1.26
compare syscalls-p3-nosteal -w syscalls -p 3 --steal=off --sysmon=adaptive
compare syscalls-p1-coop -w syscalls -p 1 --preempt=cooperative
compare net-p2 -w "$root/tests/data/net-servers.json" -p 2
compare --counts large-syscalls -w syscalls -p 8 -D n=3000 -D sys=1ms -D work=20us
compare --counts large-fanout -w fanout -p 8 -D n=20000 -D work=50us

retakes=$(awk '$1 == "sysmon-steals" { print $2 }' "$tmp/syscalls-p8-handoffs.want")
if [ "${retakes:-0}" -gt 0 ]; then ok; else bad "syscalls -p 8 retook no P: the ProcSteal path is not tested"; fi
# exitsyscallfast_reacquired: an M leaving its syscall takes its old P back
# from the syscall of the M it was handed to: ProcSteal then ProcStart of
# that P on the same M (not sysmon's).
reacquired=$(awk '/ StateTransition / && /Resource=Proc\(/ {
		cur = $1 " " $6 " " $NF
		if (prev != "" && $1 != "M=1" && cur == pm " " pr " Idle->Running" && pt == "Running->Idle") n++
		prev = cur; pm = $1; pr = $6; pt = $NF
	} END { print n + 0 }' "$tmp/syscalls-p3-nosteal.d1")
if [ "$reacquired" -gt 0 ]; then
	ok
	echo "ok   a P retaken, handed on and taken back from another M's syscall: $reacquired times (syscalls -p 3 --steal=off)"
else
	bad "syscalls -p 3 --steal=off: no P taken back from another M's syscall (exitsyscallfast_reacquired untested)"
fi

echo "gotrace: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
