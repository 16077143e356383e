#!/bin/sh
# real-report.sh: the README's "How close is gosim to the real runtime"
# table: for each built-in workload, real Go 1.19 and 1.23 (medians of
# RUNS runs, with min-max) beside gosim with the seed's fixed sysmon and
# with the runtime's adaptive sysmon plus the timer slack measured here.
# Every figure comes from tools/compare-real; the commands are printed.
#
#   tools/real-report.sh [RUNS]        (Go 1.19 and 1.23 must be installed)
set -eu
RUNS=${1:-5}
ADAPT="--sysmon=adaptive --sysmon-slack=67us"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fig FILE WHAT: one figure from a compare-real report; real or gosim side
fig() {
	awk -v what="$2" -v side="$3" '
	what == "makespan" && /^makespan us:/ { sub(/^makespan us: real /, ""); split($0, a, ", gosim "); print (side == "real" ? a[1] : a[2]); exit }
	what == "threads" && /^threads peak:/ {
		if (side == "real") { sub(/.*adjusted for those /, ""); sub(/; gosim.*/, "") } else sub(/.*; gosim /, "")
		print; exit
	}
	what ~ /^G[0-9]+$/ && $1 == what {
		split($0, a, "|"); n = split(a[2], b, " ")
		if (b[1] == "-") print (side == "real" ? "-" : b[2]); else print (side == "real" ? b[1] " " b[2] : b[3])
		exit
	}' "$1"
}

run() { # run NAME ARGS...: compare-real into $tmp/NAME
	name=$1
	shift
	tools/compare-real --runs="$RUNS" "$@" >"$tmp/$name" 2>&1 || { echo "real-report: compare-real $* failed" >&2; cat "$tmp/$name" >&2; exit 1; }
}

row() { # row LABEL WORKLOAD-ARGS FIGURE
	label=$1 wargs=$2 what=$3
	key=$(echo "$wargs" | tr ' =' '__')
	for v in 1.19 1.23; do
		[ -f "$tmp/$key-$v-fixed" ] || run "$key-$v-fixed" --go=$v $wargs
		[ -f "$tmp/$key-$v-adaptive" ] || run "$key-$v-adaptive" --go=$v $ADAPT $wargs
	done
	printf '| %s | %s | %s | %s | %s |\n' "$label" \
		"$(fig "$tmp/$key-1.19-fixed" "$what" real)" "$(fig "$tmp/$key-1.23-fixed" "$what" real)" \
		"$(fig "$tmp/$key-1.19-fixed" "$what" gosim)" "$(fig "$tmp/$key-1.19-adaptive" "$what" gosim)"
}

echo "| workload: figure (us) | Go 1.19 | Go 1.23 | gosim, fixed sysmon | gosim, adaptive + slack |"
echo "| --- | --- | --- | --- | --- |"
row "fanout -p 2: makespan" "-p 2 fanout" makespan
row "syscalls: makespan" "syscalls" makespan
row "syscalls: threads peak (runtime-only threads removed)" "syscalls" threads
row "tightloop: first short goroutine (G4) starts" "tightloop" G4
row "tightloop: makespan" "tightloop" makespan
row "pingpong: the other goroutine (G2) first runs" "pingpong" G2
row "pingpong: makespan" "pingpong" makespan
echo
echo "($RUNS runs of each real program, median [min-max]; $(nproc) CPUs; commands:"
echo "tools/compare-real --go=VERSION [$ADAPT] [-p 2] WORKLOAD)"
