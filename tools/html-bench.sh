#!/bin/sh
# What the replay page costs on a big run: gosim writes the page of a
# fan-out of N goroutines (default 180000: about 1.08 million records), then
# headless Chromium opens it at a moment and jumps to 20 moments drawn by a
# fixed generator (the page's #bench=20 hook). Prints the page's own
# timings (ms since navigation start, or spent in a step):
#   parse_ms   JSON.parse of the embedded records
#   index_ms   the one pass that builds queue logs, lanes and snapshots
#   ready_ms   the first moment drawn (cards, queues, timeline)
#   painted_ms the next animation frame after it
#   first_paint_ms, first_contentful_paint_ms  the browser's own: the
#              header and the loading line, painted while the records load
#   jump_mean_ms, jump_max_ms  one jump: rebuild from a snapshot, redraw all
# Usage: tools/html-bench.sh GOSIM [N]
set -eu
gosim=$1 n=${2:-180000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 -c 'import subprocess, sys, time
t = time.monotonic()
subprocess.run(sys.argv[1:], check=True)
print("html-bench: page written in %.2f s" % (time.monotonic() - t))' "$gosim" -w fanout -D n="$n" -q --trace "$dir/big.html"
echo "html-bench: n=$n: $(wc -c < "$dir/big.html") bytes"
chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$dir/profile" --dump-dom \
	"file://$dir/big.html#t=20000000&bench=20" 2>/dev/null |
	grep -o 'data-timings="[^"]*"' | sed -e 's/&quot;/"/g' -e 's/^data-timings="//' -e 's/"$//' |
	python3 -c 'import json, sys
t = json.load(sys.stdin)
print("html-bench: " + " ".join("%s=%s" % (k, round(v, 1) if isinstance(v, float) else v) for k, v in t.items()))'
