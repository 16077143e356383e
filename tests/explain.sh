#!/bin/sh
# --explain: every record that runs a goroutine names the rule that picked
# it; the run itself is the same with and without (same fingerprint), and
# without --explain no record has a rule. Usage: tests/explain.sh ./gosim
set -u
GOSIM=${1:-./gosim}
case $GOSIM in /*) ;; *) GOSIM=$(pwd)/$GOSIM ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; sed 's/^/     /' "$T/err" | head -8; }

workloads=$("$GOSIM" --list-workloads | sed -n 's/^\([a-z0-9_-]*\) (procs.*/\1/p')
# Network waits: Gs come back through netpoll and an M blocked in it.
cat >"$T/net.json" <<'EOF2'
{"name": "nettest", "procs": 2, "main": [{"repeat": 4, "body": [{"go": "h"}]}, {"net": "3ms"}],
 "funcs": {"h": [{"net": "1ms"}, {"run": "200us"}, {"net": "2ms"}, {"run": "100us"}]}}
EOF2
workloads="$workloads $T/net.json"
for w in $workloads; do
	for args in "-p 1" "-p 2" "-p 4" "-p 3 --steal=off" "-p 2 --sysmon=adaptive --preempt=cooperative"; do
		# shellcheck disable=SC2086
		"$GOSIM" -w "$w" $args --explain --trace "$T/e.json" -q 2>"$T/err"
		# shellcheck disable=SC2086
		"$GOSIM" -w "$w" $args --trace "$T/p.json" -q 2>>"$T/err"
		if /usr/bin/python3 - "$T/e.json" "$T/p.json" >"$T/err" 2>&1 <<'PY'; then
import json, sys
e, p = (json.load(open(f)) for f in sys.argv[1:3])
bad = []
if e["summary"]["fingerprint"] != p["summary"]["fingerprint"]:
    bad.append("fingerprint differs")
run = [r for r in e["events"] if r["ev"] == "g" and r["to"] == "running"]
bad += [r for r in run if not r.get("rule")][:3]
if not run:
    bad.append("no goroutine ran")
bad += [r for r in p["events"] if "rule" in r][:3]
# rules that name a number carry it
for r in e["events"]:
    if "rule" in r and "rule_n" in r["rule"] and r["rule_n"] < 0:
        bad.append(r)
for r in e["events"]:
    if r["ev"] == "g" and r["to"] == "running" and r["reason"] == "steal" and not r["rule"].startswith("stealWork: runqsteal"):
        bad.append(r)
    if r["ev"] == "steal" and r["runnext"] and "stealRunNextG" not in r.get("rule", ""):
        bad.append(r)
    if r["ev"] in ("preempt", "handoff") and not r.get("rule"):
        bad.append(r)
print(bad[:5])
sys.exit(1 if bad else 0)
PY
			ok "$w $args: every to=running record carries a rule, same run"
		else
			bad "$w $args: every to=running record carries a rule, same run"
		fi
	done
done
"$GOSIM" -w syscalls -p 2 --explain --trace "$T/e.csv" -q 2>"$T/err"
head -1 "$T/e.csv" | grep -q ',rule,rule_n$' && grep -q '"retake: a P in a syscall with work in its runq",0$' "$T/e.csv" &&
	ok "csv: rule and rule_n columns with --explain" || bad "csv: rule and rule_n columns with --explain"
"$GOSIM" -w syscalls -p 2 --trace "$T/p.csv" -q 2>"$T/err"
! head -1 "$T/p.csv" | grep -q 'rule' && ok "csv: no rule column without --explain" || bad "csv: no rule column without --explain"
echo "explain: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
