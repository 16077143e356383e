#!/bin/sh
# Compressed traces (cmd/compress.h): a trace name ending in .zst is
# written through libzstd, one ending in .gz through zlib; decompressed,
# each is byte for byte the uncompressed trace of the same run, in every
# format; the format comes from the name under the suffix; a failed write
# leaves the old file as it was (the same safe path, cmd/out.h).
# Usage: tests/compress.sh ./gosim
set -u
GOSIM=${1:-./gosim}
case $GOSIM in /*) ;; *) GOSIM=$(pwd)/$GOSIM ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f err ] && sed 's/^/     /' err | head -3; }
no_tmp() { ! find . -name '*.tmp.*' | grep -q .; }
have_zstd=1
command -v zstd >/dev/null 2>&1 || { have_zstd=0; echo "skip the .zst checks: no zstd tool (tools/setup.sh installs it)"; }
run="-w fanout -p 4 -D n=3000 -D work=10us -q"

for ext in json jsonl csv trace html chrome.json; do
	# shellcheck disable=SC2086 # plain words
	"$GOSIM" $run --trace "plain.$ext" 2>err || { bad "$ext: the plain run"; continue; }
	for z in gz zst; do
		[ "$z" = zst ] && [ "$have_zstd" = 0 ] && continue
		# shellcheck disable=SC2086
		"$GOSIM" $run --trace "t.$ext.$z" 2>err || { bad "$ext.$z: the run"; continue; }
		if [ "$z" = gz ]; then gzip -dc "t.$ext.$z" >out 2>err; else zstd -qdc "t.$ext.$z" >out 2>err; fi
		cmp -s out "plain.$ext" && [ "$(wc -c <"t.$ext.$z")" -lt "$(wc -c <"plain.$ext")" ] &&
			ok "a .$ext.$z trace decompresses to the plain .$ext trace's bytes, and is smaller" ||
			bad "$ext.$z differs from the plain trace"
	done
done

# a trace of many of the compressing thread's 1 MB blocks (more than the
# four it holds at once), in a format with names on its records
big="-w fanout -p 4 -D n=100000 -D work=0 -q"
# shellcheck disable=SC2086
"$GOSIM" $big --trace big.csv 2>err || bad "the plain 37 MB run"
for z in gz zst; do
	[ "$z" = zst ] && [ "$have_zstd" = 0 ] && continue
	# shellcheck disable=SC2086
	"$GOSIM" $big --trace "big.csv.$z" 2>err || { bad "big.csv.$z: the run"; continue; }
	if [ "$z" = gz ]; then gzip -dc "big.csv.$z" >out 2>err; else zstd -qdc "big.csv.$z" >out 2>err; fi
	[ "$(wc -c <big.csv)" -gt 30000000 ] && cmp -s out big.csv &&
		ok "a $(($(wc -c <big.csv) / 1000000)) MB CSV trace through .$z decompresses to the plain trace's bytes" ||
		bad "big.csv.$z differs from the plain trace"
done
rm -f big.csv big.csv.gz big.csv.zst out

# the suffix in any case; --format over a bare .zst name
"$GOSIM" $run --trace T.CSV.GZ 2>err && gzip -dc T.CSV.GZ | cmp -s - plain.csv && ok "the suffixes are told in any case" ||
	bad "T.CSV.GZ"
"$GOSIM" $run --trace bare.gz 2>err
[ $? -eq 2 ] && grep -q "cannot tell the format" err && [ ! -e bare.gz ] &&
	ok "a name with nothing under .gz needs --format, and nothing is written" || bad "bare.gz"
"$GOSIM" $run --format=csv --trace bare.gz 2>err && gzip -dc bare.gz | cmp -s - plain.csv &&
	ok "--format=csv with a bare .gz name writes compressed CSV" || bad "--format with bare.gz"

# a failed write (the file-size limit) leaves the old file and no temporary
echo old >keep.csv.gz
(ulimit -f 8; "$GOSIM" -w fanout -D n=20000 -q --trace keep.csv.gz 2>err)
[ $? -ne 0 ] && [ "$(cat keep.csv.gz)" = old ] && no_tmp && [ "$(wc -l <err)" -eq 1 ] &&
	ok "a compressed trace that cannot be written leaves the old file as it was, and says why in one line" ||
	bad "a failed compressed write"

echo "compress: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
