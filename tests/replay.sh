#!/bin/sh
# replay.sh GOSIM: every golden trace, and fresh traces of every built-in
# workload at 1..8 Ps with and without stealing, replayed record by record
# (tests/replay_check.py): every state on the way must be valid.
set -u
gosim=${1:?usage: tests/replay.sh GOSIM}
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || true)
if [ -z "$py" ]; then
	echo "replay: SKIPPED: no python3 (sh tools/setup.sh installs it)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for w in $("$gosim" --list-workloads | awk '/^[a-z]/ { print $1 }'); do
	for p in 1 2 3 4 8; do
		for st in on off; do
			"$gosim" -w "$w" -p "$p" --steal=$st -q --trace="$tmp/$w-p$p-$st.csv" || echo "FAIL gosim -w $w -p $p --steal=$st"
		done
	done
done
"$gosim" -w fanout -p 1 -D n=600 -D work=10us -q --trace="$tmp/spills.jsonl"
"$gosim" -w tests/data/net-servers.json -p 2 -q --trace="$tmp/net.csv"
"$py" tests/replay_check.py golden/*/trace.* "$tmp"/*
