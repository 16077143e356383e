#!/bin/sh
# Sweeps: gosim --procs/--seeds/-D lists, and tools/sweep (GNU parallel)
# against them. Usage: tests/sweep.sh ./gosim
set -u
GOSIM=${1:-./gosim}
case $GOSIM in /*) ;; *) GOSIM=$(pwd)/$GOSIM ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$T/err" ] && sed 's/^/     /' "$T/err" | head -8; }

SWEEP="-w fanout --procs=1,2,3 --seeds=1..5 -D n=20,45 -D work=100us"

# The table does not depend on how many workers ran it.
"$GOSIM" $SWEEP --report=csv --jobs=1 >"$T/one.csv" 2>"$T/err" &&
	"$GOSIM" $SWEEP --report=csv --jobs=2 >"$T/two.csv" 2>>"$T/err" &&
	cmp -s "$T/one.csv" "$T/two.csv" && ok "a sweep on 1 and on 2 workers prints the same table" ||
	bad "a sweep on 1 and on 2 workers prints the same table"
rows=$(($(wc -l <"$T/one.csv") - 1))
[ "$rows" -eq 6 ] && ok "one row per configuration (3 procs x 2 n)" || bad "one row per configuration (got $rows)"

# A sweep's row over one seed is that run's report.
"$GOSIM" -w syscalls -p 3 --seeds=7 --report=csv >"$T/row.csv" 2>"$T/err"
"$GOSIM" -w syscalls -p 3 -s 7 --report=json >"$T/run.json" 2>>"$T/err"
/usr/bin/python3 - "$T/row.csv" "$T/run.json" >"$T/err" 2>&1 <<'PY' && ok "a one-seed row equals the run's own report" || bad "a one-seed row equals the run's own report"
import csv, json, sys
row = next(csv.DictReader(open(sys.argv[1])))
r = json.load(open(sys.argv[2]))
want = {"makespan_us_median": r["report"]["makespan_us"], "latency_p50_us": r["latency"]["p50_us"],
        "latency_p99_us": r["latency"]["p99_us"], "threads_peak": r["peaks"]["threads"],
        "steals": r["counters"]["steals"], "handoffs": r["counters"]["handoffs"]}
bad = [(k, row[k], v) for k, v in want.items() if int(row[k]) != v]
print(bad)
sys.exit(1 if bad else 0)
PY

# tools/sweep: the same sweep through GNU parallel, merged, against gosim's table.
if command -v parallel >/dev/null; then
	if GOSIM=$GOSIM JOBS=2 sh "$ROOT/tools/sweep" run "$T/sw" $SWEEP >"$T/merged.csv" 2>"$T/err" &&
		/usr/bin/python3 - "$T/merged.csv" "$T/one.csv" >"$T/err" 2>&1 <<'PY'; then
import csv, sys
from collections import defaultdict
runs = defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    runs[(r["procs"], r["D_n"], r["D_work"])].append(r)
def lower_median(v):
    v = sorted(int(x) for x in v if x != "")
    return v[(len(v) + 1) // 2 - 1] if v else ""
bad = []
table = list(csv.DictReader(open(sys.argv[2])))
if len(table) != len(runs):
    bad.append(("rows", len(table), len(runs)))
for row in table:
    rs = runs[(row["procs"], row["D_n"], row["D_work"])]
    ms = [int(r["makespan_us"]) for r in rs]
    want = {"runs": len(rs), "makespan_us_median": lower_median(ms), "makespan_us_min": min(ms),
            "makespan_us_max": max(ms)}
    for k in ("latency_p50_us", "latency_p99_us", "threads_peak", "steals", "handoffs"):
        want[k] = lower_median(r[k] for r in rs)
    for k, v in want.items():
        if str(row[k]) != str(v):
            bad.append((row["procs"], row["D_n"], k, row[k], v))
print(bad)
sys.exit(1 if bad else 0)
PY
		ok "tools/sweep (GNU parallel) merged CSV agrees with gosim --seeds"
	else
		bad "tools/sweep (GNU parallel) merged CSV agrees with gosim --seeds"
	fi
	n=$(wc -l <"$T/sw/jobs.txt")
	[ "$n" -eq 30 ] && ok "tools/sweep writes one command per run" || bad "tools/sweep writes one command per run ($n)"
else
	echo "skip tools/sweep: GNU parallel is not installed (tools/setup.sh installs it)"
fi

# A job line runs its row's configuration whatever the defaults: the model
# and the runtime model's own settings travel with it.
for model in "--model=seed" "--model=runtime --cpus=1 --thread-wake=20us --cost-go=2us"; do
	# shellcheck disable=SC2086 # $model and the job line are words, as tools/sweep uses them
	line=$("$GOSIM" -w pingpong $model --procs=1,2 --sweep-jobs 2>"$T/err" | tail -1)
	# shellcheck disable=SC2086
	a=$("$GOSIM" $line 2>/dev/null | grep fingerprint)
	# shellcheck disable=SC2086
	b=$("$GOSIM" -w pingpong $model -p 2 2>/dev/null | grep fingerprint)
	[ -n "$a" ] && [ "$a" = "$b" ] && ok "a sweep's job line reproduces its run ($model)" ||
		bad "a sweep's job line reproduces its run ($model; $line: $a vs $b)"
done

# Lists that are not lists, and what cannot go with a sweep.
for args in "--seeds=5..1" "--seeds=x" "--procs=0,1" "--procs=1,,2" "--seeds=1..20 --trace=$T/x.json" \
	"--procs=1,2 --why=3" "--seeds=0..100000"; do
	# shellcheck disable=SC2086
	"$GOSIM" -w fanout $args >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && ok "refused: $args" || bad "refused: $args (exit $rc)"
done
"$GOSIM" -w fanout --procs=1..4 >"$T/out" 2>"$T/err" && grep -q "^sweep: fanout, 4 configurations" "$T/out" &&
	ok "a range of procs is a sweep" || bad "a range of procs is a sweep"

# gosim compare: two reports side by side with B/A.
"$GOSIM" -w fanout -p 1 --model=seed --report=json >"$T/a.json" 2>"$T/err"
"$GOSIM" -w fanout -p 4 --model=seed --report=json >"$T/b.json" 2>>"$T/err"
"$GOSIM" compare "$T/a.json" "$T/b.json" >"$T/cmp" 2>>"$T/err"
grep -Eq "^  report.makespan_us +48000 +12000  0.25x  -75.0%$" "$T/cmp" && ok "compare gives each figure's ratio" ||
	bad "compare gives each figure's ratio"
"$GOSIM" compare "$T/a.json" "$T/a.json" >"$T/cmp" 2>"$T/err"
n=$(grep -c "^  [a-z].*  ~$" "$T/cmp")
diff=$(grep -c "x  [+-][0-9]" "$T/cmp")
[ "$n" -gt 50 ] && [ "$diff" -eq 0 ] && ok "a report compared with itself is all equal ($n figures)" ||
	bad "a report compared with itself is all equal ($n equal, $diff different)"
"$GOSIM" -w syscalls --procs=1,2 --seeds=1..3 --report=json >"$T/s.json" 2>"$T/err"
"$GOSIM" compare "$T/s.json" "$T/s.json" >"$T/cmp" 2>>"$T/err" && grep -q "^  procs=2.steals .*~$" "$T/cmp" &&
	ok "compare takes sweep tables, row by configuration" || bad "compare takes sweep tables, row by configuration"
"$GOSIM" compare "$T/a.json" /etc/hostname >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && ok "compare refuses a file that is not a report" ||
	bad "compare refuses a file that is not a report"

echo "sweep: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
