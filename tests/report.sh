#!/bin/sh
# The report (--report) against the trace: for every built-in workload at
# 1, 2 and 4 Ps (and a second seed), tests/report_check.py recomputes every
# figure of --report=json from the same run's JSON trace and checks the CSV
# rows against the JSON. Usage: tests/report.sh ./gosim
set -u
GOSIM=${1:-./gosim}
case $GOSIM in /*) ;; *) GOSIM=$(pwd)/$GOSIM ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; sed 's/^/     /' "$T/err" | head -8; }

workloads=$("$GOSIM" --list-workloads | sed -n 's/^\([a-z0-9_-]*\) (procs.*/\1/p')
[ -n "$workloads" ] || { echo "FAIL no built-in workloads listed"; exit 1; }
for w in $workloads; do
	for args in "-p 1" "-p 2" "-p 4" "-p 3 -s 7 --report-threshold=100us" "-p 2 --go=1.26" "-p 4 --cpus=2"; do
		# shellcheck disable=SC2086 # args are words
		if "$GOSIM" -w "$w" $args --trace "$T/t.json" --report=json >"$T/r.json" 2>"$T/err" &&
			"$GOSIM" -w "$w" $args --report=csv >"$T/r.csv" 2>>"$T/err" &&
			/usr/bin/python3 "$HERE/report_check.py" "$T/t.json" "$T/r.json" "$T/r.csv" >"$T/err" 2>&1; then
			ok "report of $w $args matches its trace"
		else
			bad "report of $w $args matches its trace"
		fi
	done
done

# --cpus below --procs: a G whose M waits for a CPU is in cpuwait, not
# running, so fanout's 48 workers (1ms of work each) ran exactly 48ms; the
# rest of the time they were in place running is cpuwait (76ms before the
# ev=cpu records existed, all counted as running). One shared run queue
# keeps the figure exact: with a queue per CPU (the default) a worker also
# pays 1us of the switch costs its P had summed (README "Costs").
if "$GOSIM" -w fanout -p 4 --cpus=2 --cpu-place=shared --report=json >"$T/r.json" 2>"$T/err" &&
	/usr/bin/python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))["time_by_function"]["worker"]["time_us"]
ok = w["running"] == 48000 and w["cpuwait"] > 0
print(w["running"], w["cpuwait"])
sys.exit(0 if ok else 1)' "$T/r.json" >"$T/err" 2>&1; then
	ok "fanout -p 4 --cpus=2: workers ran 48ms (their CPU work), the rest of running is cpuwait"
else
	bad "fanout -p 4 --cpus=2: workers ran 48ms (their CPU work), the rest of running is cpuwait"
fi
# Without CPU sharing nothing waits: cpuwait is 0 and the text has no such column.
if "$GOSIM" -w fanout -p 4 --report=json >"$T/r.json" 2>"$T/err" &&
	"$GOSIM" -w fanout -p 4 --report >"$T/r.txt" 2>>"$T/err" && ! grep -q cpuwait "$T/r.txt" &&
	/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
ok = all(g["time_us"]["cpuwait"] == 0 for g in r["goroutines"]) and all(m["cpuwait_us"] == 0 for m in r["threads"].values())
sys.exit(0 if ok else 1)' "$T/r.json" >"$T/err" 2>&1; then
	ok "with a CPU per P no goroutine or thread is in cpuwait"
else
	bad "with a CPU per P no goroutine or thread is in cpuwait"
fi

# Regions: nested, entered by several goroutines, with random lengths; the
# small case's figures are also known by hand (req: 3 x 300us, inner 200us;
# the seed model: threads and operations free).
cat >"$T/reg.json" <<'EOF2'
{"name":"reg","procs":2,"chans":{"c":0},"main":[{"go":"w"},{"go":"w"},{"region":"req","body":[{"run":"100us"},{"region":"inner","body":[{"recv":"c"}]}]},{"recv":"c"}],
 "funcs":{"w":[{"region":"req","body":[{"run":"300us"},{"send":"c"}]}]}}
EOF2
if "$GOSIM" -w "$T/reg.json" --model=seed --trace "$T/t.json" --report=json >"$T/r.json" 2>"$T/err" &&
	"$GOSIM" -w "$T/reg.json" --model=seed --report=csv >"$T/r.csv" 2>>"$T/err" &&
	/usr/bin/python3 "$HERE/report_check.py" "$T/t.json" "$T/r.json" "$T/r.csv" >"$T/err" 2>&1 &&
	grep -q '"req":{"count":3,"p50_us":300,"p90_us":300,"p99_us":300,"max_us":300}' "$T/r.json" &&
	grep -q '"inner":{"count":1,"p50_us":200,' "$T/r.json"; then
	ok "region latency is each region's begin to end, innermost first"
else
	bad "region latency is each region's begin to end, innermost first"
fi
cat >"$T/reg2.json" <<'EOF2'
{"name":"reg2","procs":2,"chans":{"c":4},"main":[{"repeat":40,"body":[{"go":"h"}]},{"repeat":40,"body":[{"recv":"c"}]}],
 "funcs":{"h":[{"region":"request","body":[{"run":{"uniform":["50us","400us"]}},{"region":"db","body":[{"syscall":{"exp":"200us"}}]},{"send":"c"}]}]}}
EOF2
if "$GOSIM" -w "$T/reg2.json" -s 3 --trace "$T/t.json" --report=json >"$T/r.json" 2>"$T/err" &&
	"$GOSIM" -w "$T/reg2.json" -s 3 --report=csv >"$T/r.csv" 2>>"$T/err" &&
	/usr/bin/python3 "$HERE/report_check.py" "$T/t.json" "$T/r.json" "$T/r.csv" >"$T/err" 2>&1 &&
	grep -q '"request":{"count":40,' "$T/r.json" && grep -q '"db":{"count":40,' "$T/r.json"; then
	ok "region latency of 40 requests with random lengths matches the trace"
else
	bad "region latency of 40 requests with random lengths matches the trace"
fi

# A channel and a mutex share object index 0: each wait is named by its own kind.
cat >"$T/mix.json" <<'EOF2'
{"name":"mix","procs":2,"chans":{"c":1},"mutexes":["mu"],"main":[{"repeat":3,"body":[{"go":"w"}]},{"recv":"c"},{"recv":"c"},{"recv":"c"}],
 "funcs":{"w":[{"lock":"mu"},{"run":"1ms"},{"unlock":"mu"},{"send":"c"}]}}
EOF2
if "$GOSIM" -w "$T/mix.json" --trace "$T/t.json" --report=json >"$T/r.json" 2>"$T/err" &&
	/usr/bin/python3 "$HERE/report_check.py" "$T/t.json" "$T/r.json" >"$T/err" 2>&1 &&
	grep -q '"sync.Mutex.Lock:#0"' "$T/r.json" && grep -q '"chan receive:c"' "$T/r.json" &&
	! grep -q 'Lock:c"' "$T/r.json"; then
	ok "a mutex wait is not named after the channel with its index"
else
	bad "a mutex wait is not named after the channel with its index"
fi

# The text report follows the summary; JSON and CSV replace it.
"$GOSIM" -w fanout --report >"$T/out" 2>"$T/err"
grep -q "^  makespan" "$T/out" && grep -q "^scheduler latency" "$T/out" && ok "text report follows the summary" ||
	bad "text report follows the summary"
"$GOSIM" -w fanout --report=json 2>"$T/err" | /usr/bin/python3 -c 'import json,sys; json.load(sys.stdin)' &&
	ok "json report is one JSON document" || bad "json report is one JSON document"
"$GOSIM" -w fanout --report=xml >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "expected text, json or csv" "$T/err" && ok "an unknown report format is refused" ||
	bad "an unknown report format is refused"
"$GOSIM" -w fanout --report --trace=- >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && ok "--report with --trace=- is refused (both on stdout)" || bad "--report with --trace=- is refused"

# --why: every runnable interval of one G, from the trace.
"$GOSIM" -w pingpong -q --why=2 --trace "$T/t.json" >"$T/why" 2>"$T/err"
want=$(/usr/bin/python3 -c '
import json,sys
ev=json.load(open(sys.argv[1]))["events"]
n=sum(1 for e in ev if e["ev"]=="g" and e["g"]==2 and e["to"] in ("runnext","local","global") and e["from"] not in ("runnext","local","global"))
print(n)' "$T/t.json")
got=$(grep -c "^  G2 other: runnable" "$T/why")
[ "$got" = "$want" ] && [ "$got" -gt 0 ] && ok "--why lists each runnable interval ($got)" || bad "--why lists each runnable interval (got $got, want $want)"
grep -q "P0 ran: G1 main" "$T/why" && ok "--why names who ran meanwhile" || bad "--why names who ran meanwhile"

echo "report: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
