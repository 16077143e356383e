#!/bin/sh
# records.sh GOSIM: every field gosim writes is documented, and CSV reads
# as typed data (tests/records_check.py), over every built-in workload.
set -u
gosim=${1:?usage: tests/records.sh GOSIM}
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || true)
if [ -z "$py" ]; then
	echo "records: SKIPPED: no python3 (sh tools/setup.sh installs it)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for w in $("$gosim" --list-workloads | awk '/^[a-z]/ { print $1 }'); do
	"$gosim" -w "$w" -p 4 -q --trace="$tmp/$w.json" || echo "FAIL gosim -w $w (json)"
	"$gosim" -w "$w" -p 4 -q --trace="$tmp/$w.csv" || echo "FAIL gosim -w $w (csv)"
done
# --cpus below --procs: the ev=cpu records.
"$gosim" -w fanout -p 4 --cpus=2 -q --trace="$tmp/fanout-cpus.json" || echo "FAIL gosim --cpus (json)"
"$gosim" -w fanout -p 4 --cpus=2 -q --trace="$tmp/fanout-cpus.csv" || echo "FAIL gosim --cpus (csv)"
# A name that needs quoting in CSV.
mkdir "$tmp/w"
printf '%s\n' '{"name": "quoting", "chans": {"a,\"b\"": 0}, "main": [{"go": "x, \"y\""}, {"recv": "a,\"b\""}],' \
	'"funcs": {"x, \"y\"": [{"send": "a,\"b\""}]}}' >"$tmp/w/q.json"
"$gosim" -w "$tmp/w/q.json" -q --trace="$tmp/quoting.csv" || echo "FAIL gosim quoting workload"
"$py" tests/records_check.py docs/trace-format.md "$tmp"/*.json -- "$tmp"/*.csv || exit 1
"$py" -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
fn = [r["fn"] for r in rows if r["fn"]]
ch = [r["chan"] for r in rows if r["chan"]]
ok = "x, \"y\"" in fn and ch and all(c == "a,\"b\"" for c in ch) and all(len(r) == 20 for r in rows)
print("ok   names with commas and quotes round-trip through CSV" if ok else "FAIL quoted names: %r %r" % (fn, ch))
sys.exit(0 if ok else 1)' "$tmp/quoting.csv"
