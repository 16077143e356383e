#!/bin/sh
# Every bad input, table-driven: exit status 2, one line on stderr that
# names the place (the flag, or file:line:column), and the trace file the
# command names is left exactly as it was, with no temporary file beside it.
# Usage: tests/errors.sh ./gosim
set -u
GOSIM=${1:-./gosim}
case $GOSIM in /*) ;; *) GOSIM=$(pwd)/$GOSIM ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
pass=0
fail=0

w() { printf '%s\n' "$2" >"$1"; } # w FILE JSON: write a workload file
w notjson.json 'this is not json'
w trunc.json '{"main": ['
w array.json '[1, 2]'
w types.json '{"procs": "four", "main": []}'
w unknownop.json '{"main": [
  {"run": 10},
  {"jump": 1}
]}'
w unknownfn.json '{"main": [{"go": "nope"}]}'
w unknownch.json '{"main": [{"recv": "c"}]}'
w nomain.json '{"name": "x"}'
w negdur.json '{"main": [{"run": -5}]}'
w strdur.json '{"main": [{"run": "fast"}]}'
w tickzero.json '{"main": [{"tick": 0}]}'
w tickrand.json '{"main": [{"tick": {"exp": "1ms"}}]}'
w tickstr.json '{"main": [{"run": 10}, {"tick": "often"}]}'
w bigdur.json '{"main": [{"run": "99999999999999999999s"}]}'
w bigcount.json '{"main": [{"repeat": 99999999999999999999, "body": []}]}'
w undefparam.json '{"main": [{"run": "$t"}]}'
w cycle.json '{"main": [{"go": "f"}], "funcs": {"f": [{"go": "f"}]}}'
w twoops.json '{"main": [{"run": 10, "loop": 10}]}'
w badkey.json '{"main": [], "mian": []}'
w badchan.json '{"chans": {"c": -1}, "main": []}'
w badparams.json '{"params": {"n": [1]}, "main": []}'
w sockover.json '{"sockets": [{"req": 2}], "main": [{"repeat": 3, "body": [{"go": "h"}]}],
 "funcs": {"h": [{"write": "req[#]"}]}}'
w sockwhole.json '{"sockets": [{"req": 2}], "main": [{"write": "req"}]}'
w hugework.json '{"main": [{"repeat": 1000000000, "body": [{"repeat": 1000000000, "body": [{"run": "1s"}]}]}]}'
w steps.json '{"main": [{"repeat": 1000000000, "body": [{"repeat": 1000000000, "body": [{"gosched": true}]}]}]}'
w fewsteps.json '{"main": [{"repeat": 10, "body": [{"gosched": true}]}]}'
w ovfgo.json '{"main": [{"repeat": 1000000000, "body": [{"repeat": 1000000000, "body": [{"repeat": 1000000000, "body": [{"go": "f"}]}]}]}], "funcs": {"f": []}}'
w ovfsteps.json '{"main": [{"repeat": 1000000000, "body": [{"repeat": 1000000000, "body": [{"repeat": 1000000000, "body": [{"gosched": true}]}]}]}]}'
w clockend.json '{"main": [{"repeat": 9300000, "body": [{"sleep": 999999999990}]}]}'
w rangesteps.json '{"chans": {"c": 1000}, "main": [{"go": "r"}, {"repeat": 1000, "body": [{"send": "c"}]}], "funcs": {"r": [{"range": "c", "body": [{"repeat": 1000000, "body": [{"gosched": true}]}]}]}}'
w rangego.json '{"chans": {"c": 100}, "main": [{"go": "r"}, {"repeat": 100, "body": [{"send": "c"}]}, {"close": "c"}], "funcs": {"r": [{"range": "c", "body": [{"go": "w"}]}], "w": [{"run": 10}]}}'
w many.json '{"params": {"n": 10}, "main": [{"repeat": "$n", "body": [{"go": "f"}]}], "funcs": {"f": []}}'
w emptysock.json '{"sockets": ["s", ""], "main": []}'
w emptyarr.json '{"sockets": [{"": 2}], "main": []}'
w emptychan.json '{"chans": {"": 1}, "main": []}'
w emptyfn.json '{"funcs": {"": []}, "main": []}'
w emptymu.json '{"mutexes": [""], "main": []}'
w emptywg.json '{"waitgroups": ["w", ""], "main": []}'
printf '\357\273\277{"main": []}\n' >bom.json
mkdir adir

# pattern | arguments (the trace file old.csv is added to every command)
cat >table <<'EOF2'
unrecognized option '--bogus'|--bogus
option '--procs' requires an argument|--procs
--procs=0: expected an integer in 1..256|--procs=0
--procs=257: expected an integer in 1..256|--procs=257
--procs=99999999999999999999: expected|--procs=99999999999999999999
--seed=-1x: expected an integer|--seed=-1x
--seed=-1: expected an integer|--seed=-1
--seed=+1: expected an integer|--seed=+1
--procs=+4: expected an integer in 1..256|--procs=+4
--trace=: expected a file name|--format=csv --trace=
--go=1.23.+1: expected a Go release|--go=1.23.+1
--go=1.23.-1: expected a Go release|--go=1.23.-1
--go=1.27: expected a Go release 1.19 to 1.26|--go=1.27
--cpu-quota=0: expected a number of CPUs|--model=runtime --cpus=4 --cpu-quota=0
--cpu-quota=1.5x: expected a number of CPUs|--model=runtime --cpus=4 --cpu-quota=1.5x
--cpu-quota=.5: expected a number of CPUs|--model=runtime --cpus=4 --cpu-quota=.5
--cpu-quota needs --cpus|--model=runtime --cpu-quota=2
--slice=+10ms: expected a duration|--slice=+10ms
--procs=04x: expected an integer in 1..256|--procs=04x
--max-threads=0x10: expected an integer|--max-threads=0x10
--schedtrace=1e3: expected a period|--schedtrace=1e3
--max-goroutines=-5: expected a positive integer|--max-goroutines=-5
(set by -D n=+5)|-D n=+5
(set by -D n=0x10)|-D n=0x10
invalid option -- 'x'|-x
option '--s' is ambiguous|--s=1
option '--quiet' doesn't allow an argument|--quiet=1
option requires an argument -- 'p'|-p
--seed=18446744073709551616: expected|--seed=18446744073709551616
--steal=maybe: expected off or on|--steal=maybe
--preempt=never: expected async, cooperative or off|--preempt=never
--slice=0: expected a duration|--slice=0
--sysmon-period=fast: expected a duration|--sysmon-period=fast
--max-threads=1: expected an integer|--max-threads=1
--schedtrace=-1: expected a period|--schedtrace=-1
--go=1.12: expected a Go release|--go=1.12
--format=xml: expected json, jsonl, csv, gotrace, html or chrome|--format=xml
--until=soon: expected a duration|--until=soon
--max-goroutines=0: expected a positive integer|--max-goroutines=0
--scheddetail needs --schedtrace|--scheddetail
unexpected argument 'extra'|extra
--workload=fanuot: no such workload or file; did you mean 'fanout'|-w fanuot
--workload=zzzzzz: no such workload or file|-w zzzzzz
missing.json: No such file or directory|-w missing.json
adir: Is a directory|-w adir
-D n: expected NAME=VALUE|-D n
-D =1: expected NAME=VALUE|-D =1
-D zz: the workload has no parameter "zz"|-D zz=1
(set by -D n=lots)|-D n=lots
(set by -D work=-1ms)|-D work=-1ms
notjson.json:1:4: '[' or '{' expected near 'this'|-w notjson.json
trunc.json:1:10: ']' expected near end of file|-w trunc.json
array.json:1:1: a workload is a JSON object|-w array.json
types.json:1:11: "procs" must be an integer|-w types.json
unknownop.json:3:4: unknown operation "jump"|-w unknownop.json
unknownfn.json:1:18: "go" names a function defined in "funcs"; there is no "nope"|-w unknownfn.json
unknownch.json:1:20: "recv" names a channel defined in "chans"|-w unknownch.json
nomain.json:1:1: the workload has no "main"|-w nomain.json
negdur.json:1:19: expected a duration|-w negdur.json
strdur.json:1:19: expected a duration|-w strdur.json
tickzero.json:1:20: "tick" takes a period above 0|-w tickzero.json
tickrand.json:1:20: "tick" takes a fixed duration|-w tickrand.json
tickstr.json:1:33: expected a duration|-w tickstr.json
bigdur.json:1:19: expected a duration|-w bigdur.json
bigcount.json:1:41: too big integer|-w bigcount.json
undefparam.json:1:19: unknown parameter "$t"|-w undefparam.json
cycle.json:1:48: "go": "f" in f starts f again|-w cycle.json
twoops.json:1:23: one operation per object|-w twoops.json
badkey.json:1:14: unknown key "mian"|-w badkey.json
badchan.json:1:17: a channel capacity must be|-w badchan.json
badparams.json:1:18: a parameter is an integer or a string|-w badparams.json
hugework.json: the program asks for more than|-w hugework.json
many.json: the program starts 11 goroutines, more than --max-goroutines=5|-w many.json --max-goroutines=5
steps.json: the program takes 1000000001000000001 steps, more than --max-steps=10000000000|-w steps.json
fewsteps.json: the program takes 11 steps, more than --max-steps=10|-w fewsteps.json --max-steps=10
ovfgo.json: the number of goroutines the program starts overflows|-w ovfgo.json
ovfsteps.json: the number of steps the program takes overflows|-w ovfsteps.json
--max-steps=0: expected a positive integer|--max-steps=0
rangesteps.json: the program executed more than 100000 steps by t=0us|-w rangesteps.json --max-steps=100000 --model=seed
rangego.json: the program started more than 50 goroutines by t=0us|-w rangego.json --max-goroutines=50 --model=seed
clockend.json: the program ran more than 2305843009213693951 us of simulated time|-w clockend.json --model=seed
sockover.json:2:28: "write": "req[#]": goroutine 4, the 3rd started running h, has no element: the array holds 2 (0..1), at t=|-w sockover.json
sockwhole.json:1:46: "write": "req" is an array of 2 sockets|-w sockwhole.json
emptysock.json:1:19: a socket's name is a non-empty string|-w emptysock.json
emptyarr.json:1:15: a socket's name is a non-empty string|-w emptyarr.json
emptychan.json:1:12: a channel's name is a non-empty string|-w emptychan.json
emptyfn.json:1:12: a function's name is a non-empty string|-w emptyfn.json
emptymu.json:1:14: a mutex's name is a non-empty string|-w emptymu.json
emptywg.json:1:22: a wait group's name is a non-empty string|-w emptywg.json
--runtime-init=measured needs --sysmon=adaptive|-w pingpong --sysmon=fixed --runtime-init=measured
--runtime-init=measured needs --sysmon=adaptive|-w pingpong --model=seed --runtime-init=measured
bom.json:1:1: the workload starts with a UTF-8 byte-order mark; remove it|-w bom.json
EOF2

while IFS='|' read -r pat args; do
	echo old >old.csv
	# shellcheck disable=SC2086 # the table's arguments are plain words
	"$GOSIM" --trace=old.csv $args >out 2>err
	rc=$?
	lines=$(wc -l <err)
	leftover=$(ls | grep -c '\.tmp\.')
	# every message starts with "gosim: "; an option's error points to --help
	case $args in -w*|-D\ *=*[!=]) help=0 ;; *) help=1 ;; esac
	case $pat in *.json*|*"set by"*|*"goroutines"*|*"until"*) help=0 ;; esac
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF -- "$pat" err && [ "$(cat old.csv)" = old ] && [ "$leftover" -eq 0 ] &&
	    grep -q '^gosim: ' err && { [ "$help" -eq 0 ] || grep -q '(see gosim --help)$' err; }; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL gosim $args: exit $rc, $lines lines, $leftover temporary files, want '$pat'"
		sed 's/^/     /' err | head -3
	fi
done <table

# Permissions do not stop root: check an unreadable file only as a user.
touch unreadable.json
chmod 000 unreadable.json
if [ "$(id -u)" -ne 0 ]; then
	"$GOSIM" -w unreadable.json 2>err
	[ $? -eq 2 ] && grep -q "unreadable.json: Permission denied" err && pass=$((pass + 1)) ||
		{ fail=$((fail + 1)); echo "FAIL an unreadable workload"; }
fi

# No trace file is created by a failing command either.
"$GOSIM" -w trunc.json --trace=new.csv 2>/dev/null
[ ! -e new.csv ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL a failed run created new.csv"; }

echo "errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
