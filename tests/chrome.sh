#!/bin/sh
# chrome.sh GOSIM: --format=chrome parsed and checked (tests/chrome_check.py)
# for every built-in workload at 1, 2, 4 and 8 Ps and a few variants.
set -u
gosim=${1:?usage: tests/chrome.sh GOSIM}
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || true)
if [ -z "$py" ]; then
	echo "chrome: SKIPPED: no python3 (sh tools/setup.sh installs it)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { # name args...
	name=$1
	shift
	if ! "$gosim" "$@" -q --trace="$tmp/$name.chrome.json" || ! "$gosim" "$@" -q --trace="$tmp/$name.json"; then
		fail=$((fail + 1))
		echo "FAIL $name: gosim $* failed"
	elif "$py" tests/chrome_check.py "$tmp/$name.chrome.json" "$tmp/$name.json"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name (gosim $*)"
	fi
}
for w in $("$gosim" --list-workloads | awk '/^[a-z]/ { print $1 }'); do
	for p in 1 2 4 8; do
		check "$w-p$p" -w "$w" -p "$p"
	done
done
check fanout-p4-nosteal -w fanout -p 4 --steal=off
check syscalls-p8-adaptive -w syscalls -p 8 -D n=64 --sysmon=adaptive
check tightloop-p2-coop -w tightloop -p 2 --preempt=cooperative
check fanout-spills -w fanout -p 1 -D n=600 -D work=10us
check net-p2 -w tests/data/net-servers.json -p 2
# The checker itself catches what it looks for: two slices overlapping on
# one lane, and a flow with no end.
printf '%s' '{"traceEvents":[{"ph":"M","pid":1,"tid":0,"name":"thread_name","args":{"name":"P0"}},{"ph":"M","pid":1,"name":"process_name","args":{"name":"Ps"}},{"ph":"X","pid":1,"tid":0,"ts":0,"dur":10,"name":"a"},{"ph":"X","pid":1,"tid":0,"ts":5,"dur":1,"name":"b"},{"ph":"s","pid":1,"tid":0,"ts":1,"name":"steal","cat":"steal","id":1}],"displayTimeUnit":"ms"}' >"$tmp/bad.json"
printf '%s' '{"config":{"procs":1},"events":[],"summary":{"steals":0,"handoffs":0,"preemptions":0,"spills":0}}' >"$tmp/bad-gosim.json"
out=$("$py" tests/chrome_check.py "$tmp/bad.json" "$tmp/bad-gosim.json")
if echo "$out" | grep -q overlaps && echo "$out" | grep -q "flow 1"; then
	pass=$((pass + 1))
	echo "ok   the checker finds overlapping slices and unpaired flows"
else
	fail=$((fail + 1))
	echo "FAIL the checker missed a planted overlap or unpaired flow: $out"
fi
echo "chrome: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
