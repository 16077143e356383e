#!/bin/sh
# Golden cases: golden/<case>/args holds a gosim command line (without the
# program name); the other files in the folder are what it printed:
# summary.txt (stdout), sched.txt (stderr), exit (the exit status) and the
# trace file the args name. The command runs inside an empty folder.
#
#   tools/golden.sh check GOSIM   compare every case byte for byte; on a
#                                 difference print a unified diff and fail
#   tools/golden.sh update GOSIM  regenerate every case's outputs
set -u
mode=${1:?usage: tools/golden.sh check|update GOSIM}
gosim=${2:?usage: tools/golden.sh check|update GOSIM}
case $gosim in /*) ;; *) gosim=$(pwd)/$gosim ;; esac
root=$(pwd)
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for dir in golden/*/; do
	name=$(basename "$dir")
	out="$tmp/$name"
	mkdir -p "$out"
	# shellcheck disable=SC2046 # args are plain words, split on purpose
	(cd "$out" && "$gosim" $(cat "$root/$dir/args") >summary.txt 2>sched.txt; echo $? >exit)
	if [ "$mode" = update ]; then
		find "$dir" -type f ! -name args -delete
		cp "$out"/* "$dir"
		echo "updated $name"
		continue
	fi
	bad=""
	for f in "$out"/* "$dir"*; do
		b=$(basename "$f")
		[ "$b" = args ] && continue
		if ! cmp -s "$dir$b" "$out/$b"; then
			bad=$b
			break
		fi
	done
	if [ -z "$bad" ]; then
		pass=$((pass + 1))
		continue
	fi
	fail=$((fail + 1))
	echo "FAIL golden/$name/$bad differs (gosim $(cat "$dir/args"))"
	diff -u "$dir$bad" "$out/$bad" 2>&1 | head -n 40
done
[ "$mode" = update ] && exit 0
echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
