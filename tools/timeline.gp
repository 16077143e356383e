# timeline.gp: draw a gosim CSV trace as a timeline: one lane per P showing
# which goroutine ran when, and one lane per M while it was in a system call.
#
#   gnuplot -e "trace='out.csv'; out='timeline.png'" tools/timeline.gp
#   gnuplot -e "trace='out.csv'; out='timeline.svg'" tools/timeline.gp
#
# Each box is a goroutine's stint on a P (or in a syscall on an M),
# labelled with the goroutine's id where it is wide enough; colours repeat
# by goroutine id.
if (!exists("trace")) trace = "trace.csv"
if (!exists("out")) out = "timeline.png"
if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 1000,420 dynamic font "sans,10"
} else {
	set terminal pngcairo size 1000,420 font "sans,9"
}
set output out

# "lane y start_ms end_ms g": a stint runs from the goroutine's move to
# "running" (or "syscall") until it leaves; P lanes first, then M lanes.
spans = "< awk -F, 'NR > 1 && $3 == \"g\" { \
	if ($8 == \"running\") { s[$4] = $1; sp[$4] = $5 } \
	else if ($7 == \"running\" && ($4 in s)) { n++; L[n] = \"P\" sp[$4]; Y[n] = sp[$4]; S[n] = s[$4]; E[n] = $1; G[n] = $4; delete s[$4] } \
	if ($8 == \"syscall\") { c[$4] = $1; cm[$4] = $6 } \
	else if ($7 == \"syscall\" && ($4 in c)) { n++; L[n] = \"M\" cm[$4]; Y[n] = -1; M[n] = cm[$4]; S[n] = c[$4]; E[n] = $1; G[n] = $4; delete c[$4] } } \
	NR > 1 && $5 + 1 > np { np = $5 + 1 } \
	END { for (i = 1; i <= n; i++) if (Y[i] < 0 && !(M[i] in lane)) lane[M[i]] = np + nm++; \
	      for (i = 1; i <= n; i++) print L[i], (Y[i] >= 0 ? Y[i] : lane[M[i]]), S[i] / 1000, E[i] / 1000, G[i] }' " . trace

stats spans using 4 nooutput
width = STATS_max

set xlabel "simulated time (ms)"
set xrange [0:width]
set yrange [-0.7:*] reverse
set grid xtics
unset key
set style fill solid 0.9 border lc rgb "white"
set title "gosim timeline: " . trace noenhanced
plot spans using (($3+$4)/2):2:(($4-$3)/2):(0.4):(int($5) % 8 + 1):ytic(1) with boxxyerror lc variable, \
     spans using (($3+$4)/2):2:(($4-$3) > 0.04 * width ? sprintf("G%d", $5) : "") with labels font ",7" textcolor rgb "white"
