#!/bin/sh
# real-report.sh: the fidelity table (docs/fidelity.md, "How close is gosim
# to the real runtime"): for every case below, the real medians of Go 1.19 and
# 1.23 beside gosim's runtime model and seed model. Every figure comes from
# tools/compare-real.
#
#   tools/real-report.sh measure [DIR]  the real side: each case's Go twin
#                      under Go 1.19 and 1.23 (those installed), RUNS runs
#                      each, saved in DIR/VERSION/CASE (compare-real --save)
#   tools/real-report.sh [table] [DIR]  the table, from DIR's saved runs
#                      (compare-real --real): no real program runs
#
# DIR defaults to tools/fidelity/real. Environment: RUNS (default 5),
# GOSIM (default ./gosim), and for measure: LOCK (a flock file taken
# around each case's runs), IDLE and IDLE_TIMEOUT (compare-real --idle,
# --idle-timeout; default 0.3 CPUs, 120 s), AGNICE (--autogroup-nice;
# default -20 as root, else unset). ONLY=KEY[,KEY...]: only those cases.
# OPTS: more gosim options for the runtime model in every case (table
# only; e.g. OPTS=--cpu-place=prev to see another placement).
# measure skips a case already saved in DIR unless FORCE=1.
set -eu
MODE=table
case ${1:-} in measure | table) MODE=$1; shift ;; esac
DIR=${1:-tools/fidelity/real}
RUNS=${RUNS:-5}
GOSIM=${GOSIM:-./gosim}
IDLE=${IDLE:-0.3}
IDLE_TIMEOUT=${IDLE_TIMEOUT:-120}
[ "$(id -u)" -eq 0 ] && AGNICE=${AGNICE--20} || AGNICE=${AGNICE:-}
VERSIONS="1.19 1.23"

# The cases: KEY|compare-real arguments|gosim-only options|figures.
# Figures: par (parallelism), norm (normalised makespan), mk (makespan),
# osw (the real threads' OS run-queue wait per unit of makespan), parc
# and normc (parallelism and normalised makespan over the runs the OS did
# not hold back: realstats.py),
# thr (threads peak, runtime-only threads removed), fo/co (first-run and
# completion order against creation order), foa/coa (gosim's orders
# against the real Go 1.23 runs'), Gn (when goroutine n first ran).
CASES='fanout|fanout|--cpus=2|par parc norm normc mk osw thr co
fanout-p2|-p 2 fanout|--cpus=2|par parc norm normc mk osw thr co
fanout1000-p2|-p 2 -D n=1000 -D work=20us fanout|--cpus=2|par parc norm normc mk osw thr fo co
fanout1000-p4|-p 4 -D n=1000 -D work=20us fanout|--cpus=2|par parc norm normc mk osw thr fo co
pipeline-p2|-p 2 tools/fidelity/pipeline.json|--cpus=2|par parc norm normc mk osw thr
pipeline-p4|-p 4 tools/fidelity/pipeline.json|--cpus=2|par parc norm normc mk osw thr
hogsys|tools/fidelity/hogsys.json|--cpus=2|par parc norm normc mk osw thr co
syscalls|syscalls|--cpus=2|par mk osw thr co
sleepers|sleepers|--cpus=2|par mk osw thr co
mutex|mutex|--cpus=2|par parc norm normc mk osw thr co
pingpong|pingpong|--cpus=2|par mk osw G2
tightloop|tightloop|--cpus=2|par mk osw G4
server|server|--cpus=2|par mk osw thr G15'

if [ -n "${ONLY:-}" ]; then
	CASES=$(echo "$CASES" | awk -F'|' -v only=",$ONLY," 'index(only, "," $1 ",")')
	[ -n "$CASES" ] || { echo "real-report: no case named in ONLY=$ONLY" >&2; exit 2; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# installed VERSION: is Go VERSION there?
installed() { [ -x "/usr/lib/go-$1/bin/go" ] || { command -v go >/dev/null && go version | grep -q "go$1[. ]"; }; }

if [ "$MODE" = measure ]; then
	for v in 1.23 1.19; do # the table's reference first
		echo "$CASES" | while IFS='|' read -r key args _ _; do
			installed "$v" || { echo "real-report: Go $v is not installed; skipped" >&2; continue; }
			[ -n "${FORCE:-}" ] || [ ! -f "$DIR/$v/$key/real.txt" ] || { echo "real-report: $key, Go $v: saved already (FORCE=1 retakes it)" >&2; continue; }
			echo "real-report: $key, Go $v" >&2
			# shellcheck disable=SC2086 # plain words
			tools/compare-real --go="$v" --runs="$RUNS" --gosim="$GOSIM" --idle="$IDLE" --idle-timeout="$IDLE_TIMEOUT" \
				${LOCK:+--lock="$LOCK"} ${AGNICE:+--autogroup-nice="$AGNICE"} --save="$DIR/$v/$key" $args >"$tmp/out" 2>"$tmp/err" ||
				{ cat "$tmp/err" >&2; exit 1; }
			grep -h "not idle" "$tmp/err" >&2 || true
		done || exit 1
	done
	exit 0
fi

# fig FILE FIGURE SIDE: one figure (real: "median [min-max]"; gosim: one
# number) from a compare-real report
fig() {
	awk -v what="$2" -v side="$3" '
	function pick(s) { # s = "real M [a-b], gosim G" (or "...; ...")
		if (side == "gosim") { sub(/.*gosim /, "", s); sub(/[;,].*/, "", s); return s }
		sub(/^.*real /, "", s); sub(/, gosim.*|;.*/, "", s); return s
	}
	what == "par" && /^parallelism/ { print pick($0); exit }
	what == "norm" && /^makespan normalised/ { sub(/.*\): /, ""); print pick($0); exit }
	what == "mk" && /^makespan us:/ { print pick($0); exit }
	(what == "parc" || what == "normc") && /^runs not held back/ {
		if (side == "gosim") { print "-"; exit }
		split($0, a, "; "); k = a[1]; sub(/.*: /, "", k); sub(/ of .*/, "", k)
		v = (what == "parc" ? a[2] : a[3]); sub(/^[a-z ]* /, "", v)
		print v " (" k " runs)"; exit
	}
	what == "osw" && /^os wait/ { sub(/.*makespan: /, ""); print pick($0); exit }
	what == "thr" && /^threads peak:/ {
		if (side == "real") { sub(/.*adjusted for those /, ""); sub(/; gosim.*/, "") } else sub(/.*; gosim /, "")
		print; exit
	}
	(what == "fo" || what == "foa") && /^first-run order vs gosim/ { o = $0 }
	(what == "co" || what == "coa") && /^completion order vs gosim/ { o = $0 }
	o != "" && (what == "fo" || what == "co") {
		sub(/.*vs creation order: /, "", o); print pick(o); exit
	}
	o != "" && (what == "foa" || what == "coa") {
		sub(/; vs creation.*/, "", o); sub(/.*\(Spearman\): real /, "", o); sub(/ \[.*/, "", o); print o; exit
	}
	what ~ /^G[0-9]+$/ && $1 == what {
		split($0, a, "|"); n = split(a[2], b, " ")
		if (b[1] == "-") print (side == "real" ? "-" : b[2]); else print (side == "real" ? b[1] " " b[2] : b[3])
		exit
	}' "$1"
}

# ratio A B: A/B - 1 as a signed percentage (A, B: numbers, B's median
# first); with DIFF=1, A - B instead (for correlations)
ratio() {
	awk -v a="$1" -v b="${2%% *}" -v diff="${DIFF:-0}" 'BEGIN { if (a == "" || a == "-" || b == "" || b == "-") { print "-"; exit }
		if (diff) { printf "%+.2f\n", a - b; exit }
		if (b + 0 == 0) { print "-"; exit }
		printf "%+.0f%%\n", (a / b - 1) * 100 }'
}

# cpus_ok: does this gosim model fewer CPUs than Ps (--cpus=2 at 4 Ps)?
cpus_ok() { "$GOSIM" -w fanout -p 4 --cpus=2 --model=runtime -q >/dev/null 2>&1; }

label() {
	case $1 in
	par) echo "parallelism (CPU time / makespan)" ;;
	norm) echo "makespan normalised by CPU time (us)" ;;
	parc) echo "parallelism, runs not held back by the OS" ;;
	normc) echo "normalised makespan, runs not held back by the OS (us)" ;;
	mk) echo "makespan (us)" ;;
	osw) echo "threads waiting for a CPU (OS run-queue wait / makespan)" ;;
	thr) echo "threads peak (runtime-only threads removed)" ;;
	fo) echo "first-run order vs creation order (Spearman)" ;;
	co) echo "completion order vs creation order (Spearman)" ;;
	foa) echo "first-run order vs the real Go 1.23 runs' (Spearman)" ;;
	coa) echo "completion order vs the real Go 1.23 runs' (Spearman)" ;;
	G*) echo "$1 first runs (us)" ;;
	esac
}

for v in $VERSIONS; do
	[ -d "$DIR/$v" ] || echo "real-report: no saved Go $v runs in $DIR/$v (tools/real-report.sh measure)" >&2
done
echo "| case: figure | Go 1.19 | Go 1.23 | gosim runtime | gosim seed | runtime vs 1.23 |"
echo "| --- | --- | --- | --- | --- | --- |"
CPUS_OK=0
cpus_ok && CPUS_OK=1
echo "$CASES" | while IFS='|' read -r key args gopts figs; do
	[ -d "$DIR/1.23/$key" ] || [ -d "$DIR/1.19/$key" ] || continue
	for v in $VERSIONS; do
		for m in runtime seed; do
			out="$tmp/$key-$v-$m"
			: >"$out"
			[ -d "$DIR/$v/$key" ] || continue
			o="--model=$m"
			# --cpus only where this gosim has it, and only for the runtime model
			[ "$m" = runtime ] && [ "$CPUS_OK" = 1 ] && o="$o $gopts"
			[ "$m" = runtime ] && o="$o ${OPTS:-}"
			# shellcheck disable=SC2086 # plain words
			tools/compare-real --go="$v" --gosim="$GOSIM" --real="$DIR/$v/$key" $o $args >"$out" 2>"$tmp/err" ||
				{ echo "real-report: compare-real --real=$DIR/$v/$key $o $args failed:" >&2; cat "$tmp/err" >&2; exit 1; }
		done
	done
	for f in $figs; do
		r19=$(fig "$tmp/$key-1.19-runtime" "$f" real)
		r23=$(fig "$tmp/$key-1.23-runtime" "$f" real)
		case $f in foa | coa) r19=- r23=- ;; esac
		case $f in
		foa | coa)
			grt=$(fig "$tmp/$key-1.23-runtime" "$f" gosim)
			gsd=$(fig "$tmp/$key-1.23-seed" "$f" gosim)
			vs=- ;;
		*)
			g=$f
			case $f in parc) g=par ;; normc) g=norm ;; esac
			grt=$(fig "$tmp/$key-1.23-runtime" "$g" gosim)
			gsd=$(fig "$tmp/$key-1.23-seed" "$g" gosim)
			case $f in fo | co | osw) vs=$(DIFF=1 ratio "$grt" "$r23") ;; *) vs=$(ratio "$grt" "$r23") ;; esac ;;
		esac
		printf '| %s: %s | %s | %s | %s | %s | %s |\n' "$key" "$(label "$f")" "${r19:--}" "${r23:--}" "${grt:--}" "${gsd:--}" "$vs"
	done
done
echo
echo "Cases (compare-real arguments; gosim-only options for the runtime model$(cpus_ok || echo ', not given: this gosim cannot model fewer CPUs than Ps yet'); the last column is the runtime model's difference from the Go 1.23 median, in points for the order correlations):"
echo "$CASES" | while IFS='|' read -r key args gopts _; do echo "- $key: \`$args\`${gopts:+ ($gopts)}"; done
echo
echo "(real: median [min-max] of the runs saved in $DIR; gosim --go=1.23, --model=runtime$(cpus_ok && echo ', with the options in brackets,') and --model=seed;"
echo "each row: tools/compare-real --real=$DIR/1.23/CASE [--model=M] ARGS)"
