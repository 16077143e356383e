#!/bin/sh
# tools/schedtrace.awk, the SCHED parser that compare-real uses, on real
# captures from Go 1.19 and 1.23 and on gosim's own output in every --go
# family: gosim's lines must parse exactly like the real ones.
# Usage: tests/parser.sh ./gosim
set -u
GOSIM=${1:-./gosim}
P="awk -f tools/schedtrace.awk"
D=tests/data/schedtrace
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }

for f in "$D"/*.txt; do
	name=$(basename "$f")
	$P "$f" >"$T/out"
	check "$name parses to its reviewed records" "cmp -s '$T/out' '$D/parsed/$name'"
	n=$(grep -c '^SCHED' "$f")
	check "$name: one record per SCHED line" "[ \$(wc -l <'$T/out') -eq $n ]"
	check "$name: every field is a number (needspinning and schedticks where printed)" \
		"! grep -Ev '^t_ms=[0-9]+ gomaxprocs=[0-9]+ idleprocs=[0-9]+ threads=[0-9]+ spinningthreads=[0-9]+ needspinning=([0-9]+|-) idlethreads=[0-9]+ runqueue=[0-9]+ runq=[0-9]+(,[0-9]+)* schedticks=([0-9]+(,[0-9]+)*|-)\$' '$T/out'"
done

# Hand-read records, independent of the reviewed files.
printf 'noise from the program\nSCHED 0ms: gomaxprocs=2 idleprocs=0 threads=3 spinningthreads=1 needspinning=0 idlethreads=0 runqueue=0 [0 0]\n' | $P >"$T/a"
check "a Go 1.23 line" "[ \"\$(cat '$T/a')\" = 't_ms=0 gomaxprocs=2 idleprocs=0 threads=3 spinningthreads=1 needspinning=0 idlethreads=0 runqueue=0 runq=0,0 schedticks=-' ]"
printf 'SCHED 109ms: gomaxprocs=2 idleprocs=0 threads=4 spinningthreads=0 idlethreads=1 runqueue=2 [2 0]\n' | $P >"$T/a"
check "a Go 1.19 line" "[ \"\$(cat '$T/a')\" = 't_ms=109 gomaxprocs=2 idleprocs=0 threads=4 spinningthreads=0 needspinning=- idlethreads=1 runqueue=2 runq=2,0 schedticks=-' ]"
printf 'SCHED 1004ms: gomaxprocs=4 idleprocs=0 threads=6 spinningthreads=0 needspinning=1 idlethreads=1 runqueue=12 [ 3 0 5 1 ] schedticks=[ 61 58 60 57 ]\n' | $P >"$T/a"
check "a Go 1.25 line" "[ \"\$(cat '$T/a')\" = 't_ms=1004 gomaxprocs=4 idleprocs=0 threads=6 spinningthreads=0 needspinning=1 idlethreads=1 runqueue=12 runq=3,0,5,1 schedticks=61,58,60,57' ]"

# gosim in every family, plain and detailed: the same numbers.
for go in 1.19 1.23 1.25; do
	"$GOSIM" -w syscalls -q --schedtrace=1 --go=$go 2>&1 | $P >"$T/plain-$go"
	"$GOSIM" -w syscalls -q --schedtrace=1 --go=$go --scheddetail 2>&1 | $P >"$T/detail-$go"
done
base() { sed 's/ needspinning=[^ ]*//; s/ schedticks=.*//' "$1"; }
base "$T/plain-1.19" >"$T/ref"
check "gosim's lines parse to records" "[ -s '$T/ref' ]"
for f in "$T"/plain-* "$T"/detail-*; do
	check "gosim --go=$(basename "$f") parses like the others" "base '$f' | cmp -s - '$T/ref'"
done
check "schedticks read from 1.25's list equal the P lines'" \
	"sed 's/.*schedticks=//' '$T/plain-1.25' | cmp -s - \"\$(sed 's/.*schedticks=//' '$T/detail-1.19' >'$T/t'; echo '$T/t')\""

# compare-real end to end, where a Go toolchain is installed (a check that
# it runs, not a measurement: no waiting for an idle machine).
for gover in 1.19 1.23; do
	[ -x /usr/lib/go-$gover/bin/go ] || continue
	tools/compare-real --gosim="$GOSIM" --go=$gover --runs=1 --idle=0 tightloop >"$T/cmp" 2>&1
	check "compare-real runs Go $gover beside gosim" "grep -q '^makespan us: real [0-9]' '$T/cmp' && grep -q '^G4 ' '$T/cmp'"
done

echo "parser: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
