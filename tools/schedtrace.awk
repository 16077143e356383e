# schedtrace.awk: parse GODEBUG=schedtrace output (any Go release, plain or
# scheddetail, real or gosim's) into one record per SCHED line:
#
#   t_ms=N gomaxprocs=N idleprocs=N threads=N spinningthreads=N
#   needspinning=N|- idlethreads=N runqueue=N runq=Q0,Q1,... schedticks=T0,...|-
#
# runq are the per-P local queue lengths (from "[...]", or from the P lines'
# runqsize= in detail mode), schedticks the per-P schedtick (Go 1.25's
# schedticks=[...], or the P lines' schedtick=); "-" marks a field the line
# does not carry.
# Other lines (the program's own output, M and G lines) are skipped.
#
#   awk -f tools/schedtrace.awk FILE...
function flush() {
	if (have)
		print rec " runq=" (q == "" ? "-" : q) " schedticks=" (ticks == "" ? "-" : ticks)
	have = 0
}
function field(line, key,    m) {
	if (match(line, " " key "=[0-9a-z-]+")) {
		m = substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2)
		return m == "true" ? 1 : m == "false" ? 0 : m
	}
	return "-"
}
function list(s,    out, n, i, a) {
	gsub(/[\[\]]/, "", s)
	n = split(s, a, " ")
	out = ""
	for (i = 1; i <= n; i++)
		out = out (i > 1 ? "," : "") a[i]
	return out
}
/^SCHED [0-9]+ms: / {
	flush()
	t = $2
	sub(/ms:$/, "", t)
	rec = "t_ms=" t
	n = split("gomaxprocs idleprocs threads spinningthreads needspinning idlethreads runqueue", keys, " ")
	for (i = 1; i <= n; i++)
		rec = rec " " keys[i] "=" field($0, keys[i])
	detail = index($0, " gcwaiting=") > 0
	q = ""
	ticks = ""
	line = $0
	if (!detail && match(line, / \[[ 0-9]*\]/)) {
		q = list(substr(line, RSTART + 1, RLENGTH - 1))
		rest = substr(line, RSTART + RLENGTH)
		if (match(rest, /schedticks=\[[ 0-9]*\]/))
			ticks = list(substr(rest, RSTART + 11, RLENGTH - 11))
	}
	have = 1
	next
}
/^  P[0-9]+: / && have && detail {
	v = field($0, "runqsize")
	q = q (q == "" ? "" : ",") v
	ticks = ticks (ticks == "" ? "" : ",") field($0, "schedtick")
}
END { flush() }
