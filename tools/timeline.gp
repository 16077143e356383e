# timeline.gp: draw a gosim CSV trace as a timeline: one lane per P showing
# which goroutine ran when, and one lane per M while it was in a system call.
#
#   gnuplot -e "trace='out.csv'; out='timeline.png'" tools/timeline.gp
#   gnuplot -e "trace='out.csv'; out='timeline.svg'; procs=8" tools/timeline.gp
#
# Each box is a goroutine's stint on a P (or in a syscall on an M), filled
# with no border so that back-to-back stints read as a busy lane, labelled
# with the goroutine's id where it is wide enough; colours repeat by
# goroutine id (8 colours). Every P gets a lane, including one that never
# ran a goroutine: P0 .. the highest P any record names, or procs-1 when
# procs= is given (a P that never started appears in no record).
if (!exists("trace")) trace = "trace.csv"
if (!exists("out")) out = "timeline.png"
if (out[strlen(out)-3:] eq ".svg") {
	set terminal svg size 1000,460 dynamic font "sans,10"
} else {
	set terminal pngcairo size 1000,460 font "sans,9"
}
set output out

# Column numbers come from the header, so added columns change nothing.
cols = "NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } "

# The Ps: one more than the highest P id in the p, from_p and by_p columns.
np = int(system("awk -F, '" . cols . " { for (k = 0; k < 3; k++) { v = $c[k == 0 ? \"p\" : k == 1 ? \"from_p\" : \"by_p\"] + 0; if (v + 1 > np) np = v + 1 } } END { print np + 0 }' " . trace))
if (exists("procs") && procs > np) np = procs
if (np < 1) np = 1

# "lane y start_ms end_ms g kind": a stint runs from the goroutine's move to
# "running" (or "syscall") until it leaves; P lanes first (y = P id), then
# one lane per M seen in a syscall (y = np, np+1, ...).
spans = "< awk -F, -v np=" . np . " '" . cols . " $c[\"ev\"] == \"g\" { \
	g = $c[\"g\"]; t = $c[\"t\"]; from = $c[\"from\"]; to = $c[\"to\"]; \
	if (to == \"running\") { s[g] = t; sp[g] = $c[\"p\"] } \
	else if (from == \"running\" && (g in s)) { print \"P\" sp[g], sp[g], s[g] / 1000, t / 1000, g, 0; delete s[g] } \
	if (to == \"syscall\") { sc[g] = t; sm[g] = $c[\"m\"] } \
	else if (from == \"syscall\" && (g in sc)) { m = sm[g]; if (!(m in lane)) lane[m] = np + nm++; \
		print \"M\" m, lane[m], sc[g] / 1000, t / 1000, g, 1; delete sc[g] } }' " . trace

# The lanes' labels: every P, then the syscall Ms in the order they appear.
set ytics nomirror ("P0" 0)
if (np > 1) set for [i = 1:np - 1] ytics add (sprintf("P%d", i) i)
mlanes = system("awk -F, '" . cols . " $c[\"ev\"] == \"g\" && $c[\"to\"] == \"syscall\" && !($c[\"m\"] in seen) { seen[$c[\"m\"]] = 1; printf \"M%s \", $c[\"m\"] }' " . trace)
nmlanes = words(mlanes)
if (nmlanes > 0) set for [i = 1:nmlanes] ytics add (word(mlanes, i) . " syscall" np + i - 1)

stats spans using 4 nooutput
width = STATS_max

set xlabel "simulated time (ms)"
set xrange [0:width]
set yrange [-0.7:np + nmlanes - 0.3] reverse
set grid xtics
set style fill solid 1.0 noborder
set key below horizontal samplen 2 font ",8"
set title "gosim timeline: " . trace noenhanced
plot spans using ($6 > 0 ? NaN : ($3+$4)/2):2:(($4-$3)/2):(0.4):(int($5) % 8 + 1) with boxxyerror lc variable notitle, \
     spans using ($6 > 0 ? ($3+$4)/2 : NaN):2:(($4-$3)/2):(0.4):(int($5) % 8 + 1) with boxxyerror fs pattern 4 lc variable notitle, \
     spans using (($3+$4)/2):2:(($4-$3) > 0.04 * width && $6 == 0 ? sprintf("G%d", $5) : "") with labels font ",7" textcolor rgb "white" notitle, \
     spans using (($3+$4)/2):2:(($4-$3) > 0.04 * width && $6 > 0 ? sprintf("G%d", $5) : "") with labels font ",7" textcolor rgb "black" notitle, \
     NaN with boxes fs solid lc rgb "#4060c0" title "a goroutine running on the P (colour: its id mod 8)", \
     NaN with boxes fs pattern 4 lc rgb "#4060c0" title "a goroutine in a system call, on its M", \
     NaN with boxes fs empty lc rgb "#bbbbbb" title "blank: idle, or between goroutines"
