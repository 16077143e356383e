#!/bin/sh
# Installs what building and testing gosim needs on Debian: a C compiler,
# make, jansson and Criterion; python3 (tests/report_check.py) and GNU
# parallel (tools/sweep). Uses apt-get when run as root; otherwise
# prints the command to run.
set -eu
need=""
for pkg in gcc make pkg-config libjansson-dev libcriterion-dev strace python3 parallel; do
	dpkg -s "$pkg" >/dev/null 2>&1 || need="$need $pkg"
done
if [ -z "$need" ]; then
	echo "setup: everything gosim needs is installed"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "setup: missing Debian packages:$need" >&2
	echo "setup: run: sudo apt-get install -y$need" >&2
	exit 1
fi
echo "setup: installing$need"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq $need >/dev/null
echo "setup: done"
