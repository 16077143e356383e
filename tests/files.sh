#!/bin/sh
# Output files keep their identity (cmd/out.h): symbolic links, modes,
# owners, hard links, write protection, inputs of the run, directories,
# devices and descriptors named through /proc, long names.
# Usage: tests/files.sh ./gosim
set -u
GOSIM=${1:-./gosim}
case $GOSIM in /*) ;; *) GOSIM=$(pwd)/$GOSIM ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T" # a user other than root runs in it below
cd "$T" || exit 1
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f err ] && sed 's/^/     /' err | head -3; }
is_trace() { head -c 10 "$1" | grep -q '^{"gosim":'; }
no_tmp() { ! find . -name '*.tmp.*' | grep -q .; }
# as_user CMD...: runs CMD as nobody, where that is possible
as_user() {
	if [ "$(id -u)" -ne 0 ]; then "$@"; else setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; fi
}
can_user=1
[ "$(id -u)" -eq 0 ] && ! command -v setpriv >/dev/null 2>&1 && can_user=0
# The other user runs a copy in $T: the checkout may sit in a directory
# only its owner can enter (a clone under mktemp -d).
UGOSIM=$T/gosim-for-user
cp "$GOSIM" "$UGOSIM" && chmod 755 "$UGOSIM"

# a symbolic link: the target gets the trace, the link stays a link
mkdir other
echo old >other/real.json
ln -s other/real.json link.json
"$GOSIM" -w pingpong -q --trace link.json 2>err
[ -L link.json ] && is_trace other/real.json && no_tmp && ok "a trace through a symbolic link replaces its target, the link stays" ||
	bad "a symbolic link"

# dangling and looping links are refused, and nothing is created
ln -s nowhere.json dangling.json
"$GOSIM" -w pingpong -q --trace dangling.json 2>err
[ $? -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "dangling" err && [ -L dangling.json ] && [ ! -e nowhere.json ] &&
	ok "a dangling link is refused in one line, as cp refuses it" || bad "a dangling link"
ln -s loop2.json loop1.json
ln -s loop1.json loop2.json
"$GOSIM" -w pingpong -q --trace loop1.json 2>err
[ $? -eq 2 ] && grep -q "Too many levels of symbolic links" err && [ -L loop1.json ] && [ -L loop2.json ] &&
	ok "a looping link is refused" || bad "a looping link"

# mode, owner and group are kept
echo old >private.json
chmod 600 private.json
"$GOSIM" -w pingpong -q --trace private.json 2>err
[ "$(stat -c %a private.json)" = 600 ] && is_trace private.json && ok "a 0600 file stays 0600" || bad "mode kept ($(stat -c %a private.json))"
if [ "$(id -u)" -eq 0 ]; then
	echo old >owned.json
	chown 65534:65534 owned.json
	"$GOSIM" -w pingpong -q --trace owned.json 2>err
	[ "$(stat -c %u:%g owned.json)" = 65534:65534 ] && is_trace owned.json && ok "the owner and group are kept" ||
		bad "owner kept ($(stat -c %u:%g owned.json))"
fi

# a hard link stays one: both names show the new trace; a failed run keeps the old content
echo old >hard.json
ln hard.json hard2.json
"$GOSIM" -w pingpong -q --trace hard.json 2>err
[ "$(stat -c %h hard.json)" -eq 2 ] && is_trace hard2.json && no_tmp && ok "a hard-linked trace keeps its links" || bad "hard links"
echo old >hard.json
(ulimit -f 8; "$GOSIM" -w fanout -D n=5000 -q --trace hard.json 2>err)
[ "$(cat hard2.json)" = old ] && [ "$(stat -c %h hard.json)" -eq 2 ] && no_tmp &&
	ok "a failed run leaves a hard-linked trace as it was" || bad "hard link and a failed run"

# write-protected: refused for a user (root may, as with cp)
echo old >protected.json
chmod 444 protected.json
if [ $can_user -eq 1 ]; then
	as_user "$UGOSIM" -w pingpong -q --trace protected.json 2>err
	[ $? -eq 2 ] && [ "$(cat protected.json)" = old ] && grep -q "protected.json: Permission denied" err &&
		ok "a write-protected file is refused for a user, as cp refuses it" || bad "write-protected"
else
	echo "skip write protection: running as root without setpriv"
fi

# a file in a directory the user may not write, but writable itself: written, same inode
if [ $can_user -eq 1 ] && [ "$(id -u)" -eq 0 ]; then
	mkdir locked
	echo old >locked/mine.json
	chown 65534:65534 locked/mine.json
	ino=$(stat -c %i locked/mine.json)
	as_user "$UGOSIM" -w pingpong -q --trace locked/mine.json 2>err
	[ $? -eq 0 ] && [ "$(stat -c %i locked/mine.json)" = "$ino" ] && is_trace locked/mine.json &&
		ok "a writable file in a read-only directory is written in place, as cp does" || bad "read-only directory"
fi

# an input of this run is never the trace: by name, through a link, through a hard link
cp "$OLDPWD/workloads/pingpong.json" w.json 2>/dev/null || printf '{"main": [{"run": 10}]}' >w.json
cp w.json w.orig
ln -s w.json wlink.json
ln w.json whard.json
for t in w.json wlink.json whard.json; do
	"$GOSIM" -w w.json -q --trace $t 2>err
	[ $? -eq 2 ] && cmp -s w.json w.orig && grep -q "input of this run" err && ok "--trace=$t, the -w file itself, is refused" ||
		bad "--trace=$t is the workload"
done

# a directory is refused
mkdir adir
"$GOSIM" -w pingpong -q --trace adir --format=csv 2>err
[ $? -eq 2 ] && grep -q "adir: Is a directory" err && [ -d adir ] && ok "a directory is refused" || bad "a directory"

# descriptors: /dev/stdout, /proc/self/fd/1, /dev/fd/3 are written in place
"$GOSIM" -w pingpong -q --trace=/dev/stdout >viastdout 2>err
[ $? -eq 0 ] && is_trace viastdout && [ -L /dev/stdout ] && ok "--trace=/dev/stdout into a file writes the file, /dev/stdout stays" ||
	bad "/dev/stdout"
"$GOSIM" -w pingpong --trace=/dev/stdout >viastdout2 2>err
grep -q "^gosim: pingpong" err && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' viastdout2 &&
	ok "with --trace=/dev/stdout the summary goes to stderr, as with -" || bad "/dev/stdout and the summary"
"$GOSIM" -w pingpong --trace=same.json >same.json 2>err
grep -q "^gosim: pingpong" err && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' same.json &&
	ok "--trace=same.json >same.json: the trace is written through stdout, the summary to stderr" || bad "trace and stdout the same file"
"$GOSIM" -w pingpong --report --trace=/dev/stdout >both 2>err
[ $? -eq 2 ] && grep -q "so does --trace=/dev/stdout" err && ok "--report with --trace=/dev/stdout is refused as with -" ||
	bad "--report and /dev/stdout"
"$GOSIM" -w pingpong -q --trace=/proc/self/fd/1 >viaproc 2>err
[ $? -eq 0 ] && is_trace viaproc && ok "--trace=/proc/self/fd/1 writes in place" || bad "/proc/self/fd/1"
"$GOSIM" -w pingpong -q --trace=/dev/fd/3 3>viafd3 2>err
[ $? -eq 0 ] && is_trace viafd3 && ok "--trace=/dev/fd/3 writes in place" || bad "/dev/fd/3"
if [ $can_user -eq 1 ]; then
	mkdir open && chmod 777 open
	as_user sh -c '"$0" -w pingpong -q --trace=/dev/stdout >open/user.json' "$UGOSIM" 2>err
	[ $? -eq 0 ] && is_trace open/user.json && ok "--trace=/dev/stdout works for a user too" || bad "/dev/stdout as a user"
fi

# a 249-character name: the temporary name still fits NAME_MAX
long=$(printf '%0244d' 0).json
"$GOSIM" -w pingpong -q --trace "$long" 2>err
[ $? -eq 0 ] && is_trace "$long" && no_tmp && ok "a 249-character file name works" || bad "a 249-character name"
echo old >"$long"
(ulimit -f 8; "$GOSIM" -w fanout -D n=5000 -q --trace "$long" 2>err)
[ "$(cat "$long")" = old ] && no_tmp && ok "a failed run over a 249-character name leaves it and no temporary file" ||
	bad "a 249-character name and a failed run"

echo "files: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
