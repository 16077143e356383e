#!/bin/sh
# Prints the names in one of the model's X-macro tables, one per line, in
# table order: the lists the docs give are generated from (and checked
# against, by tests/docs.sh) the same rows the code is.
#
#   tools/names.sh ops|places|reasons|events|mstates|pstates|cpustates|waitreasons|rules
set -eu
root=$(dirname "$0")/..
case ${1:-} in
ops) file=sim/workload.h macro=WORKLOAD_OPS ;;
places) file=sim/sim.h macro=SIM_PLACES ;;
reasons) file=sim/sim.h macro=SIM_REASONS ;;
events) file=sim/sim.h macro=SIM_EVENTS ;;
mstates) file=sim/sim.h macro=SIM_MSTATES ;;
pstates) file=sim/sim.h macro=SIM_PSTATES ;;
cpustates) file=sim/sim.h macro=SIM_CPUSTATES ;;
waitreasons) file=sim/sim.h macro=SIM_WAITREASONS ;;
rules) file=sim/sim.h macro=SIM_RULES ;;
*) echo "usage: tools/names.sh ops|places|reasons|events|mstates|pstates|cpustates|waitreasons|rules" >&2; exit 2 ;;
esac
# The macro's rows run from "#define MACRO(X)" to the first line without a
# trailing backslash; each X(...) names its string in double quotes.
awk -v m="$macro" '
	$0 ~ "^#define " m "\\(X\\)" { on = 1 }
	on {
		line = $0
		while (match(line, /X\([^)]*\)/)) {
			row = substr(line, RSTART, RLENGTH)
			line = substr(line, RSTART + RLENGTH)
			if (match(row, /"[^"]*"/))
				print substr(row, RSTART + 1, RLENGTH - 2)
		}
		if ($0 !~ /\\$/) exit
	}' "$root/$file"
