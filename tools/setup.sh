#!/bin/sh
# Installs what building and testing gosim needs on Debian: a C compiler,
# make, jansson and Criterion; libzstd and zlib (.zst and .gz traces) and
# the zstd tool (their test); python3 (tests/report_check.py,
# tests/html_check.py), GNU parallel (tools/sweep), pandas (the CSV
# test), chromium (the replay page's browser test) and Go 1.23 (the
# gotrace tests: gotracevalidate and go tool trace), which bookworm has
# only in bookworm-backports: its suite is added to
# /etc/apt/sources.list.d/debian.sources when missing. Uses apt-get when
# run as root; otherwise prints the command to run.
set -eu
need=""
for pkg in gcc make pkg-config libjansson-dev libcriterion-dev libzstd-dev zlib1g-dev zstd strace python3 parallel python3-pandas chromium fonts-dejavu-core; do
	dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
backports=""
dpkg -s golang-1.23 >/dev/null 2>&1 || [ -x /usr/lib/go-1.23/bin/go ] || backports=golang-1.23
if [ -z "$need" ] && [ -z "$backports" ]; then
	echo "setup: everything gosim needs is installed"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "setup: missing Debian packages:$need $backports" >&2
	[ -z "$need" ] || echo "setup: run: sudo apt-get install -y$need" >&2
	[ -z "$backports" ] || echo "setup: run (bookworm-backports): sudo apt-get install -y -t bookworm-backports $backports" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
src=/etc/apt/sources.list.d/debian.sources
if [ -n "$backports" ] && [ -f "$src" ] && ! grep -q '^Suites:.*bookworm-backports' "$src"; then
	echo "setup: adding bookworm-backports to $src"
	sed -i '0,/^Suites:.*bookworm-updates/s//& bookworm-backports/' "$src"
	grep -q '^Suites:.*bookworm-backports' "$src" || sed -i '0,/^Suites: bookworm\b.*/s//& bookworm-backports/' "$src"
fi
echo "setup: installing$need $backports"
apt-get update -qq
[ -z "$need" ] || apt-get install -y -qq $need >/dev/null
[ -z "$backports" ] || apt-get install -y -qq -t bookworm-backports $backports >/dev/null
echo "setup: done"
