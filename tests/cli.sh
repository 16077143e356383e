#!/bin/sh
# Command-line checks: gosim as a user runs it. Usage: tests/cli.sh ./gosim
# Prints one line per check and "N passed, M failed" at the end.
set -u
GOSIM=${1:-./gosim}
case $GOSIM in /*) ;; *) GOSIM=$(pwd)/$GOSIM ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$T/err" ] && sed 's/^/     /' "$T/err" | head -5; }

# expect NAME CODE CMD...: runs CMD, checks its exit code.
expect() {
	name=$1 code=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -eq "$code" ]; then ok "$name"; else bad "$name (exit $rc, want $code)"; fi
}

# usage_error NAME PATTERN ARGS...: exit 2, one line on stderr matching PATTERN.
usage_error() {
	name=$1 pat=$2
	shift 2
	"$GOSIM" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	lines=$(wc -l <"$T/err")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$pat" "$T/err"; then
		ok "$name"
	else
		bad "$name (exit $rc, $lines lines)"
	fi
}

expect "help exits 0" 0 "$GOSIM" --help
grep -q -- "--workload" "$T/out" && ok "help lists the options" || bad "help lists the options"
expect "version exits 0" 0 "$GOSIM" --version
grep -q "^gosim 0" "$T/out" && ok "version names gosim" || bad "version names gosim"
expect "list-workloads exits 0" 0 "$GOSIM" --list-workloads
for w in fanout syscalls tightloop pingpong; do
	grep -q "^$w (procs" "$T/out" && ok "list-workloads describes $w" || bad "list-workloads describes $w"
done

expect "the default run works" 0 "$GOSIM"
grep -q "makespan" "$T/out" && ok "the summary goes to stdout" || bad "the summary goes to stdout"
expect "quiet prints nothing" 0 "$GOSIM" -q
[ ! -s "$T/out" ] && ok "quiet stdout is empty" || bad "quiet stdout is empty"

usage_error "an unknown flag" "unrecognized option" --bogus
usage_error "procs 0" "--procs=0: expected an integer in 1..256" --procs=0
usage_error "procs 257" "--procs=257" --procs=257
usage_error "a malformed seed" "--seed=-1x" --seed=-1x
usage_error "an unknown steal value" "--steal=maybe: expected off or on" --steal=maybe
usage_error "a misspelt workload" "did you mean 'fanout'" -w fanuot
usage_error "a missing workload file" "nope.json: No such file" -w nope.json
usage_error "a bad -D" "-D n: expected NAME=VALUE" -D n
usage_error "an unknown parameter" "no parameter \"zz\"" -D zz=1
usage_error "a bad parameter value" "set by -D n=lots" -D n=lots
usage_error "scheddetail without schedtrace" "needs --schedtrace" --scheddetail
usage_error "an unknown go version" "--go=1.12" --go=1.12
usage_error "a trace without a known extension" "cannot tell the format" --trace="$T/x.txt"
usage_error "a stray argument" "unexpected argument" fanout

# strict numbers: no space, no '+', no wrap-around
usage_error "a seed with a space and a minus" '--seed= -1: expected an integer' --seed=" -1"
usage_error "procs with a leading space" '--procs= 4: expected an integer in 1..256' --procs=" 4"
usage_error "procs with a plus" '--procs=+4: expected' --procs=+4
usage_error "a -D value with a space" '(set by -D n= 5)' -D "n= 5"
usage_error "a -D value that is not UTF-8 is refused, not ignored" '-D n=\\xff: the value is not UTF-8 text' -D n="$(printf '\377')"
"$GOSIM" -w pingpong -q -s 18446744073709551615 --trace "$T/seed.json" && grep -q '"seed":18446744073709551615,' "$T/seed.json" &&
	ok "a seed of 2^64-1 is written into the config as the number used" || bad "a seed >= 2^63 in the config"
"$GOSIM" -w pingpong -s 9223372036854775808 | grep -q "seed 9223372036854775808$" && ok "the summary names a seed >= 2^63" || bad "summary seed"

# one line means one line: control bytes are quoted wherever a message shows them
"$GOSIM" -D n="$(printf '\033[31m\nX')" >"$T/out" 2>"$T/err"
[ "$(wc -l <"$T/err")" -eq 1 ] && grep -qF 'n=\x1b[31m\nX)' "$T/err" && ! grep -q "$(printf '\033')" "$T/err" &&
	ok "escape and newline bytes in a message are quoted on one line" || bad "control bytes quoted"
printf '{"name": "a\\u001b[2Jb\\nc", "main": [{"run": 10}]}' >"$T/ctl.json"
"$GOSIM" -w "$T/ctl.json" >"$T/out" 2>"$T/err"
head -1 "$T/out" | grep -qF 'gosim: a\x1b[2Jb\nc, 1 P' && ! grep -q "$(printf '\033')" "$T/out" &&
	ok "a workload's name is quoted in the summary" || bad "name quoted in the summary"
printf '{"chans": {"c": 0}, "main": [{"go": "w\\u001bx\\ny"}, {"recv": "c"}], "funcs": {"w\\u001bx\\ny": [{"recv": "c"}]}}' >"$T/ctldead.json"
"$GOSIM" -w "$T/ctldead.json" -q 2>"$T/err"
grep -qxF 'main.w\x1bx\ny()' "$T/err" && ! grep -q "$(printf '\033')" "$T/err" &&
	ok "a function name in the deadlock report is quoted on its line" || bad "deadlock report quotes names"
long=$T
for i in 1 2 3 4; do long=$long/$(printf '%0250d' $i); done
mkdir -p "$long"
printf '{"main": [{"spin": 1}]}' >"$long/bad.json"
usage_error "a path longer than any fixed buffer does not cut off the problem" 'unknown operation "spin"' -w "$long/bad.json"

# option errors: gosim's own words, and a pointer to --help
for a in --bogus -x --s --quiet=1 --procs -p; do
	"$GOSIM" $a >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^gosim: .*(see gosim --help)$' "$T/err" && ! grep -q 'gosim: gosim\|/gosim:' "$T/err" ||
		bad "option error for $a: gosim: ... (see gosim --help)"
done
ok "option errors start with gosim: and point to gosim --help"
for a in --help --version --list-workloads; do
	"$GOSIM" $a >/dev/full 2>"$T/err"
	rc=$?
	[ $rc -ne 0 ] && grep -q '^gosim: writing .*No space left on device' "$T/err" && ok "$a to a full device fails and says so" ||
		bad "$a to /dev/full (exit $rc)"
done

# built-in names and local files
mkdir "$T/here" && printf '{"main": [{"run": 10}]}' >"$T/here/fanout"
(cd "$T/here" && "$GOSIM" -w ./fanout >"$T/out" 2>"$T/err") && grep -q '^gosim: fanout, 1 P,' "$T/out" &&
	ok "-w ./fanout reads the local file" || bad "-w ./fanout reads the file"
(cd "$T/here" && "$GOSIM" -w fanout >"$T/out" 2>"$T/err") && grep -q '^gosim: fanout, 4 Ps' "$T/out" &&
	[ "$(cat "$T/err")" = "gosim: -w fanout: the built-in workload; -w ./fanout reads the file fanout here" ] &&
	ok "a bare built-in name beside a file of that name takes the built-in and says how to get the file" ||
	bad "a bare name that is both"
mkdir -p "$T/here2/fanout"
(cd "$T/here2" && "$GOSIM" -w fanout -q 2>"$T/err") && [ ! -s "$T/err" ] &&
	ok "a directory named like a built-in is no file to choose: no note" || bad "a directory named like a built-in"
printf '{"main": [{"run": 10}]}' >"$T/unnamed.json"
"$GOSIM" -w "$T/unnamed.json" | head -1 | grep -q '^gosim: unnamed, 1 P,' && ok "a workload with no name is named after its file" ||
	bad "a workload with no name is named after its file"

printf '{\n  "main": [\n    {"run": "1ms"},\n    {"spin": 1}\n  ]\n}\n' >"$T/bad.json"
usage_error "a workload error names file:line:column" "bad.json:4:6: unknown operation \"spin\"" -w "$T/bad.json"
printf '{"main": [' >"$T/trunc.json"
usage_error "a truncated workload names its place" "trunc.json:1:" -w "$T/trunc.json"

printf '{"chans": {"c": 0}, "main": [{"recv": "c"}]}\n' >"$T/dead.json"
expect "a deadlock exits 3" 3 "$GOSIM" -w "$T/dead.json"
grep -q "fatal error: all goroutines are asleep - deadlock!" "$T/err" && ok "a deadlock prints the runtime's message" || bad "deadlock message"
printf 'fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\nmain.main()\n' >"$T/want"
cmp -s "$T/err" "$T/want" && ok "a deadlock lists the blocked goroutines as the runtime does" ||
	bad "a deadlock lists the blocked goroutines as the runtime does"
"$GOSIM" -w "$T/dead.json" --trace "$T/dead-trace.json" >"$T/out" 2>"$T/err"
grep -q '"summary":{"outcome":"deadlock",' "$T/dead-trace.json" && grep -q '^  outcome      deadlock$' "$T/out" &&
	ok "a deadlock's summary says outcome deadlock (JSON and human)" || bad "a deadlock's summary says outcome deadlock"
printf '{"sockets": ["s"], "main": [{"go": "r"}, {"run": 10}], "funcs": {"r": [{"read": "s"}]}}\n' >"$T/hang.json"
expect "a read that no write will end exits 3" 3 "$GOSIM" -w "$T/hang.json" --trace "$T/hang-trace.json"
head -1 "$T/err" | grep -q '^gosim: the program hangs: 1 goroutine waits in the network poller .*Go reports no deadlock here' &&
	! grep -q "fatal error" "$T/err" && grep -q '^goroutine 2 \[IO wait\]:$' "$T/err" &&
	ok "a hang says it is gosim's end, not Go's deadlock, and lists the goroutines" || bad "a hang's message: $(head -c 300 "$T/err")"
grep -q '"summary":{"outcome":"hang",' "$T/hang-trace.json" && grep -q '^  outcome      hang$' "$T/out" &&
	ok "a hang's summary says outcome hang (JSON and human)" || bad "a hang's summary says outcome hang"
"$GOSIM" -w pingpong --trace "$T/done-trace.json" >"$T/out" 2>"$T/err"
grep -q '"summary":{"outcome":"done",' "$T/done-trace.json" && grep -q '^  outcome      done$' "$T/out" &&
	ok "a finished run's summary says outcome done (JSON and human)" || bad "a finished run's summary says outcome done"
expect "the thread limit exits 3" 3 "$GOSIM" -w syscalls -D n=50 --max-threads=8
"$GOSIM" -w syscalls -D n=50 --max-threads=8 --trace "$T/tl-trace.json" >"$T/out" 2>"$T/err"
grep -q '"summary":{"outcome":"thread-limit",' "$T/tl-trace.json" && grep -q '^  outcome      thread-limit$' "$T/out" &&
	ok "the thread limit's summary says outcome thread-limit" || bad "the thread limit's summary says outcome thread-limit"
grep -q "runtime: program exceeds 8-thread limit" "$T/err" && grep -q "fatal error: thread exhaustion" "$T/err" &&
	ok "the thread limit prints the runtime's message" || bad "thread limit message"

# --until keeps what happened up to it: exit 4, outcome until, the trace
# is the full run's records up to that time, committed over the old file
"$GOSIM" -w pingpong -q --trace "$T/full.jsonl"
echo old >"$T/until.jsonl"
"$GOSIM" -w pingpong --until=7ms --trace "$T/until.jsonl" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 4 ] && grep -q '^gosim: stopped at --until=7000us of simulated time; the trace holds what happened up to then$' "$T/err" &&
	grep -q '^  outcome      until$' "$T/out" && grep -q '^  makespan     7.000 ms$' "$T/out" &&
	ok "--until stops at its time: exit 4, says so, outcome until" || bad "--until stops at its time (exit $rc)"
python3 -c '
import json, sys
full = [l for l in open(sys.argv[1]) if json.loads(l)["t"] <= 7000]
cut = open(sys.argv[2]).readlines()
sys.exit(0 if cut == full and len(full) > 100 and len(full) < len(open(sys.argv[1]).readlines()) else 1)
' "$T/full.jsonl" "$T/until.jsonl" && ok "--until's trace is the full run's records up to that time" ||
	bad "--until's trace is the full run's records up to that time"
"$GOSIM" -w pingpong -q --until=7ms --trace "$T/until.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["summary"]["outcome"] != "until")' "$T/until.json" &&
	ok "--until's JSON summary says outcome until" || bad "--until's JSON summary says outcome until"
expect "--until past the end changes nothing: exit 0" 0 "$GOSIM" -w pingpong -q --until=1000s

for f in json jsonl csv; do
	expect "a $f trace is written" 0 "$GOSIM" -w pingpong -q --trace "$T/t.$f"
	[ -s "$T/t.$f" ] && ok "the $f trace is not empty" || bad "the $f trace is not empty"
done
head -1 "$T/t.csv" | grep -q "^t,seq,ev,g,p,m," && ok "csv has its header" || bad "csv has its header"
ls "$T" | grep -q '\.tmp\.' && bad "no temporary files are left" || ok "no temporary files are left"

echo "old" >"$T/keep.json"
"$GOSIM" -w "$T/dead.json" --trace "$T/keep.json" -D x=1 >/dev/null 2>&1
[ "$(cat "$T/keep.json")" = "old" ] && ok "a failed run leaves the old trace as it was" || bad "a failed run leaves the old trace"

(ulimit -f 8; "$GOSIM" -w fanout -D n=5000 --trace "$T/keep.json" >/dev/null 2>"$T/err")
rc=$?
[ "$rc" -eq 2 ] && [ "$(cat "$T/keep.json")" = "old" ] && grep -q "keep.json: File too large" "$T/err" &&
	ok "a write failure (file-size limit) leaves the old trace and says why" || bad "a write failure leaves the old trace (exit $rc)"
ls "$T" | grep -q '\.tmp\.' && bad "no temporary file after a write failure" || ok "no temporary file after a write failure"

echo old >"$T/keep.json"
# a long run that emits almost nothing: a billion empty loop turns at t=0
printf '{"main": [{"repeat": 1000000000, "body": [{"repeat": 0, "body": [{"run": 10}]}]}]}' >"$T/long.json"
"$GOSIM" -w "$T/long.json" --trace "$T/keep.json" >/dev/null 2>"$T/err" &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
rc=$?
[ "$rc" -eq 143 ] && [ "$(cat "$T/keep.json")" = "old" ] && grep -q "interrupted" "$T/err" &&
	ok "an interrupted run leaves the old trace and says so" || bad "an interrupted run leaves the old trace (exit $rc)"
ls "$T" | grep -q '\.tmp\.' && bad "no temporary file after an interrupt" || ok "no temporary file after an interrupt"

# a zero-time loop that emits records (its clock stands still at 0): Ctrl-C ends it
printf '{"main": [{"repeat": 1000000000, "body": [{"gosched": true}]}]}' >"$T/spin.json"
"$GOSIM" -w "$T/spin.json" --trace /dev/null >/dev/null 2>"$T/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -eq 130 ] && grep -q "interrupted by SIGINT" "$T/err" &&
	ok "Ctrl-C ends a run whose clock stands still (gosched loop at t=0)" || bad "Ctrl-C in a gosched loop at t=0 (exit $rc)"

# out of memory is a resource error: exit 5, one line, the old trace kept
echo old >"$T/keep.json"
if (ulimit -v 200000 && "$GOSIM" -w pingpong -q) >/dev/null 2>&1; then
	(ulimit -v 200000 && "$GOSIM" -w fanout --cost-go=0 -D n=20000000 -D work=10us --trace "$T/keep.json" >/dev/null 2>"$T/err")
	rc=$?
	[ "$rc" -eq 5 ] && [ "$(cat "$T/keep.json")" = old ] && ! ls "$T" | grep -q '\.tmp\.' && [ "$(wc -l <"$T/err")" -eq 1 ] &&
		grep -q '^gosim: out of memory for goroutines at t=[0-9]*us; .*keep.json left as it was$' "$T/err" &&
		ok "out of memory (ulimit -v) exits 5, says so in one line, keeps the old trace" ||
		bad "out of memory (ulimit -v): exit $rc"
else
	echo "skip out of memory under ulimit -v: this build cannot start under a 200 MB address-space limit (AddressSanitizer reserves more)"
fi

# every signal that ends a run: old trace kept, no temporary file, 128+signal
for sig in HUP:129 QUIT:131 INT:130; do
	echo old >"$T/keep.json"
	"$GOSIM" -w "$T/long.json" --trace "$T/keep.json" >/dev/null 2>"$T/err" &
	pid=$!
	sleep 1
	kill -"${sig%:*}" $pid
	wait $pid
	rc=$?
	[ "$rc" -eq "${sig#*:}" ] && [ "$(cat "$T/keep.json")" = "old" ] && ! ls "$T" | grep -q '\.tmp\.' &&
		grep -q "^gosim: interrupted by SIG${sig%:*}; .*keep.json left as it was$" "$T/err" &&
		ok "SIG${sig%:*} leaves the old trace, no temporary file, exit ${sig#*:}" || bad "SIG${sig%:*} (exit $rc)"
done
mkfifo "$T/noreader"
"$GOSIM" -w pingpong -q --trace="$T/noreader" 2>"$T/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -eq 130 ] && grep -q "interrupted by SIGINT" "$T/err" && ok "Ctrl-C while a FIFO waits for its reader exits 130" ||
	bad "Ctrl-C while opening a FIFO (exit $rc)"
"$GOSIM" -w fanout -D n=20000 --trace - --format=jsonl 2>"$T/err" | head -1 >/dev/null
[ -s "$T/err" ] && bad "a trace pipe closed early says nothing" || ok "a trace pipe closed early says nothing"
sh -c '"$0" -w fanout -D n=20000 --trace - --format=jsonl 2>/dev/null; echo $? >"$1"' "$GOSIM" "$T/rc" | head -1 >/dev/null
[ "$(cat "$T/rc")" -eq 141 ] && ok "a trace pipe closed early exits 141, as SIGPIPE would" || bad "trace EPIPE exits 141 ($(cat "$T/rc"))"

# closed standard descriptors: nothing gosim opens takes their numbers
"$GOSIM" -w pingpong -q --schedtrace=1 --trace "$T/closed.json" 2>&-
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/closed.json" 2>/dev/null && ! grep -q SCHED "$T/closed.json" &&
	ok "with 2>&- no SCHED line lands in the trace" || bad "with 2>&- SCHED lines land in the trace"
"$GOSIM" -w "$T/dead.json" --trace "$T/closed2.json" >&- 2>&-
[ $? -eq 3 ] && ! grep -q "fatal error" "$T/closed2.json" && ok "with 1>&- 2>&- the deadlock message stays out of the trace" ||
	bad "closed stdout/stderr and the deadlock message"

# SCHED lines: a reader that leaves ends them and the run goes on; a full device is an error
printf '{"main": [{"run": "60s"}]}' >"$T/minute.json"
sh -c '"$0" -w "$1" -q --schedtrace=1 --trace "$2" 2>&1 >/dev/null; echo $? >"$3"' "$GOSIM" "$T/minute.json" "$T/st.json" "$T/rc" | head -1 >/dev/null
[ "$(cat "$T/rc")" -eq 0 ] && tail -c 1000 "$T/st.json" | grep -q '"summary"' &&
	ok "stderr closed by its reader ends SCHED lines quietly; the run and its trace go on" || bad "SCHED EPIPE (exit $(cat "$T/rc"))"
echo old >"$T/keep.json"
"$GOSIM" -w "$T/minute.json" -q --schedtrace=1 --trace "$T/keep.json" 2>/dev/full
rc=$?
[ $rc -eq 2 ] && [ "$(cat "$T/keep.json")" = old ] && ! ls "$T" | grep -q '\.tmp\.' &&
	ok "SCHED lines to a full device: exit 2, the old trace kept" || bad "SCHED lines to /dev/full (exit $rc)"
if command -v strace >/dev/null 2>&1; then
	n=$(strace -f -e trace=write -o "$T/strace" "$GOSIM" -w "$T/minute.json" -q --schedtrace=10 2>/dev/null; grep -c 'write(' "$T/strace")
	[ "$n" -lt 30 ] && ok "6000 SCHED lines (800 KB) take a few 64 KB writes ($n), not ten a line" || bad "SCHED lines are buffered ($n writes)"
else
	echo "skip SCHED-line buffering: strace is not installed (tools/setup.sh installs it)"
fi

"$GOSIM" -w fanout -q --trace "$T/mode.csv"
[ "$(stat -c %a "$T/mode.csv")" = "$(umask -S >/dev/null; printf '%o' $((0666 & ~$(umask))))" ] &&
	ok "a trace gets the usual file mode" || bad "a trace gets the usual file mode ($(stat -c %a "$T/mode.csv"))"

expect "a trace to /dev/null" 0 "$GOSIM" -w fanout -q --trace=/dev/null --format=csv
expect "a trace to /dev/null needs no --format" 0 "$GOSIM" -w fanout -q --trace=/dev/null
"$GOSIM" -w pingpong -q --trace="$T/UPPER.CSV" && head -1 "$T/UPPER.CSV" | grep -q "^t,seq,ev" &&
	ok "an extension in capitals names the format (T.CSV is CSV)" || bad "T.CSV is CSV"
mkfifo "$T/fifo2"
cat "$T/fifo2" >"$T/fromfifo2" &
"$GOSIM" -w pingpong -q --trace="$T/fifo2"
wait
head -c 1 "$T/fromfifo2" | grep -q "{" && ok "a FIFO with no extension gets JSON, as '-' does" || bad "a FIFO gets JSON"
expect "--schedtrace=0 is accepted" 0 "$GOSIM" -w tightloop -q --schedtrace=0
! grep -q "^SCHED" "$T/err" && ok "--schedtrace=0 means off, as in GODEBUG" || bad "--schedtrace=0 means off"
[ -c /dev/null ] && ok "/dev/null is still a device" || bad "/dev/null is still a device"
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fromfifo" &
"$GOSIM" -w fanout -q --trace="$T/fifo" --format=csv
wait
[ -p "$T/fifo" ] && head -1 "$T/fromfifo" | grep -q "^t,seq" && ok "a trace into a FIFO streams through it" || bad "a trace into a FIFO"

expect "a trace to stdout" 0 "$GOSIM" -w fanout --trace - --format=csv
grep -q "makespan" "$T/err" && ok "with the trace on stdout the summary goes to stderr" || bad "summary to stderr"
"$GOSIM" -w fanout -D n=20000 --trace - --format=jsonl 2>"$T/err" | head -1 >/dev/null
[ ! -s "$T/err" ] && ok "a pipe closed early ends quietly" || bad "a pipe closed early ends quietly"

expect "schedtrace goes to stderr" 0 "$GOSIM" -w tightloop -q --schedtrace=10 --go=1.19
grep -q "^SCHED 0ms: gomaxprocs=1 idleprocs=0 threads=4 .* idlethreads=2 " "$T/err" && ok "schedtrace prints SCHED lines" || bad "schedtrace prints SCHED lines"
expect "check mode passes" 0 "$GOSIM" -w syscalls --check -q

# --cpus without --procs: GOMAXPROCS is the release's defaultGOMAXPROCS (sim/release.h)
gomaxprocs() { "$GOSIM" -w fanout --model=runtime "$@" | sed -n 's/^gosim: fanout, \([0-9]*\) Ps.*/\1/p'; }
[ "$(gomaxprocs --cpus=8)" = 8 ] && [ "$(gomaxprocs --cpus=8 --go=1.19)" = 8 ] &&
	ok "--cpus=8 without --procs or a quota: GOMAXPROCS 8 in every release" || bad "--cpus=8 alone gives 8 Ps"
[ "$(gomaxprocs --cpus=8 --cpu-quota=2.5 --go=1.24)" = 8 ] && [ "$(gomaxprocs --cpus=8 --cpu-quota=2.5 --go=1.25)" = 3 ] &&
	ok "a CPU quota of 2.5 on 8 CPUs: GOMAXPROCS 8 in Go 1.24, 3 from Go 1.25" || bad "Go 1.25's cgroup-aware GOMAXPROCS"
[ "$(gomaxprocs --cpus=8 --cpu-quota=2.5 -p 6 --go=1.25)" = 6 ] &&
	ok "--procs wins over the default" || bad "--procs wins over the default"
# (the runtime model's thread and operation costs off: the figures are whole multiples)
ms() { "$GOSIM" -w fanout --cost-go=0 --cost-chan=0 --cost-switch=0 --cost-sysmon=0 --cost-futex-wake=0 --cost-futex-sleep=0 --cost-usleep=0 --cost-syscall=0 --cost-netpoll=0 --cost-clone=0 --cost-mstart=0 --thread-start=0 --thread-wake=0 "$@" |
	sed -n 's/^  makespan *\([0-9.]*\) ms/\1/p'; }
# (one shared run queue: with a queue per CPU, the default, the load balance leaves a CPU idle a while)
[ "$(ms --cpus=8 --go=1.24)" = 6.000 ] && [ "$(ms --cpus=8 --cpu-quota=2 --go=1.24 --cpu-place=shared)" = 24.000 ] &&
	ok "a quota of 2 CPUs: the 8 Ps of Go 1.24 share 2 CPUs (a CPU-bound fan-out takes 4 times as long)" ||
	bad "a CPU quota limits the threads' CPUs"

if command -v gnuplot >/dev/null 2>&1; then
	"$GOSIM" -w syscalls -q --trace="$T/tl.csv"
	gnuplot -e "trace='$T/tl.csv'; out='$T/tl.png'" tools/timeline.gp 2>"$T/err"
	[ -s "$T/tl.png" ] && [ ! -s "$T/err" ] && head -c 4 "$T/tl.png" | grep -q PNG && ok "tools/timeline.gp draws a trace" || bad "tools/timeline.gp draws a trace"
	gnuplot -e "trace='$T/tl.csv'; out='$T/tl.svg'" tools/timeline.gp 2>"$T/err"
	grep -q "<svg" "$T/tl.svg" && grep -q ">M2 syscall<\|>G5<" "$T/tl.svg" && ok "tools/timeline.gp draws SVG with lanes and labels" || bad "timeline SVG"
	"$GOSIM" -w pingpong -p 4 -q --trace="$T/pp.csv"
	gnuplot -e "trace='$T/pp.csv'; out='$T/pp.svg'; procs=4" tools/timeline.gp 2>"$T/err"
	grep -q ">P3<" "$T/pp.svg" && ok "tools/timeline.gp gives a lane to a P that never ran (procs=4)" || bad "timeline: P3's lane"
	grep -q ">P2<" "$T/pp.svg" && ok "tools/timeline.gp gives a lane to a P that only spun" || bad "timeline: P2's lane"
	! grep -q "rgb(255, 255, 255)" "$T/pp.svg" && ok "tools/timeline.gp draws no white box borders over a busy lane of 10us stints" || bad "timeline: white borders"
	grep -q ">a goroutine running on the P" "$T/pp.svg" && grep -q ">a goroutine in a system call" "$T/pp.svg" &&
		ok "tools/timeline.gp has a legend" || bad "timeline legend"
fi

a=$("$GOSIM" -w fanout -p 8 -s 5 --trace - --format=csv 2>/dev/null | cksum)
b=$("$GOSIM" -w fanout -p 8 -s 5 --trace - --format=csv 2>/dev/null | cksum)
[ "$a" = "$b" ] && ok "the same seed gives the same bytes" || bad "the same seed gives the same bytes"

# The default model is the runtime model, with its own defaults; the seed
# model is one flag away and an explicit option wins in either order.
"$GOSIM" -w tightloop -p 1 >"$T/def.txt" 2>/dev/null
head -2 "$T/def.txt" | grep -q "sysmon adaptive" && grep -q "^  model        runtime$" "$T/def.txt" &&
	ok "the default is the runtime model, with adaptive sysmon" || bad "the default model"
"$GOSIM" -w tightloop -p 1 --trace="$T/def.json" -q
grep -q '"sysmon_slack_us":70,' "$T/def.json" && grep -q '"model":"runtime"' "$T/def.json" &&
	grep -q '"sysmon_slack":"measured"' "$T/def.json" &&
	ok "the runtime model's sleeps draw their overshoot, runqgrab's keeps the measured 70us" || bad "the runtime model's slack"
grep -q '"init_threads":2,' "$T/def.json" && ok "the runtime model starts with runtime init's two idle Ms" || bad "init_threads"
"$GOSIM" -w tightloop -p 1 --cost-sysmon=7us --cost-futex-wake=1us --cost-netpoll=0 --trace="$T/costs.json" -q
grep -q '"cost_sysmon_ns":7000,"cost_futex_wake_ns":1000,"cost_futex_sleep_ns":[0-9]*,"cost_usleep_ns":[0-9]*,"cost_syscall_ns":[0-9]*,"cost_netpoll_ns":0,' "$T/costs.json" &&
	ok "the json header lists sysmon's and the thread operations' costs as run" || bad "the json header's thread costs"
"$GOSIM" -w tightloop -p 2 --cpus=1 --cpu-place=prev --cpu-migration-cost=300us --trace="$T/place.json" -q
"$GOSIM" -w tightloop -p 2 --cpus=1 --cpu-place=shared --trace="$T/shared.json" -q
grep -q '"cpus":1,"cpu_place":"prev","cpu_migration_cost_us":300' "$T/place.json" && grep -q '"cpus":1' "$T/shared.json" &&
	! grep -q '"cpu_place"' "$T/shared.json" &&
	ok "the json header names a --cpu-place other than shared, and its migration cost" || bad "the json header's cpu placement"
"$GOSIM" -w tightloop --init-threads=65 -q 2>/dev/null; [ $? -eq 2 ] && ok "--init-threads above 64 is refused" || bad "--init-threads=65"
"$GOSIM" -w tightloop --model=seed --init-threads=1 -q 2>/dev/null; [ $? -eq 2 ] && ok "--init-threads needs the runtime model" || bad "--init-threads in the seed model"
"$GOSIM" -w tightloop -p 1 --sysmon-slack=70us --trace="$T/fixed.json" -q
grep -q '"sysmon_slack_us":70,' "$T/fixed.json" && ! grep -q '"sysmon_slack"' "$T/fixed.json" &&
	ok "--sysmon-slack=DUR fixes every sleep's overshoot" || bad "--sysmon-slack=DUR"
"$GOSIM" -w tightloop -p 1 --model=seed >"$T/seed.txt" 2>/dev/null
head -1 "$T/seed.txt" | grep -q "sysmon fixed" && ! grep -q "model" "$T/seed.txt" &&
	ok "--model=seed gives the seed's fixed sysmon and its summary as it was" || bad "--model=seed"
"$GOSIM" -w tightloop -p 1 --sysmon=fixed --model=runtime >"$T/o1.txt" 2>/dev/null
"$GOSIM" -w tightloop -p 1 --model=runtime --sysmon=fixed >"$T/o2.txt" 2>/dev/null
head -1 "$T/o1.txt" | grep -q "sysmon fixed" && cmp -s "$T/o1.txt" "$T/o2.txt" &&
	ok "an explicit --sysmon wins over the model's default, before or after --model" || bad "option order"
! cmp -s "$T/def.txt" "$T/seed.txt" && ok "the two models give different runs of tightloop" || bad "models differ"
usage_error "--thread-wake in the seed model is refused" "runtime model" -w pingpong --model=seed --thread-wake=10us
usage_error "--runtime-init takes none or measured" "runtime-init=later: expected none or measured" -w pingpong --runtime-init=later
"$GOSIM" -w tightloop -p 1 --trace="$T/init.json" -q && "$GOSIM" -w tightloop -p 1 --runtime-init=none --trace="$T/noinit.json" -q
grep -q '"runtime_init":"measured"' "$T/init.json" && ! grep -q '"runtime_init"' "$T/noinit.json" &&
	ok "the json header says when the start-up is drawn (--runtime-init=measured, the runtime model's default)" || bad "runtime_init in the header"
"$GOSIM" -w tightloop -p 1 --sysmon=fixed --trace="$T/fixinit.json" -q && ! grep -q '"runtime_init"' "$T/fixinit.json" &&
	ok "with --sysmon=fixed the header says no start-up is drawn (the head start is adaptive sysmon's)" || bad "runtime_init in the header under --sysmon=fixed"
"$GOSIM" -w tightloop -p 1 -q -t - -f csv | awk -F, '$3 == "preempt" { print $1; exit }' >"$T/p1.txt"
"$GOSIM" -w tightloop -p 1 --runtime-init=none -q -t - -f csv | awk -F, '$3 == "preempt" { print $1; exit }' >"$T/p2.txt"
[ -s "$T/p1.txt" ] && [ "$(cat "$T/p1.txt")" -lt "$(cat "$T/p2.txt")" ] &&
	ok "with sysmon's head start tightloop is preempted earlier than with --runtime-init=none ($(cat "$T/p1.txt") against $(cat "$T/p2.txt") us)" || bad "--runtime-init=none: preemption at $(cat "$T/p1.txt") and $(cat "$T/p2.txt") us"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
