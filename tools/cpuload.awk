# cpuload.awk: how busy the machine was between two /proc/stat snapshots,
# in CPUs (0 .. the number of CPUs), from their aggregate "cpu" lines.
#
#   cat /proc/stat >a; sleep 1; cat /proc/stat >b; awk -f tools/cpuload.awk a b
#   -> busy=0.04 nice=1.85 steal=0.00
#
# busy is user + system + irq + softirq: the work that competes with a
# measurement at normal priority. nice (work at a positive nice value, all
# the other helpers' builds) is printed apart and not counted as busy: the
# kernel gives a nice-0 program nearly all of a CPU against nice-19 work.
# steal is time the hypervisor gave to someone else. /proc/stat's fields:
# user nice system idle iowait irq softirq steal guest guest_nice; guest
# time is already inside user and nice, so the total leaves it out.
$1 == "cpu" {
	t = 0
	for (i = 2; i <= 9 && i <= NF; i++) t += $i
	k = FNR == NR ? "a" : "b"
	tot[k] = t; busy[k] = $2 + $4 + $7 + $8; nice[k] = $3; steal[k] = ($9 == "" ? 0 : $9)
	next
}
FNR != NR && /^cpu[0-9]+ / { ncpu++ }
END {
	d = tot["b"] - tot["a"]
	if (d <= 0 || ncpu == 0) { print "cpuload.awk: need two /proc/stat snapshots, the second later" > "/dev/stderr"; exit 2 }
	printf "busy=%.2f nice=%.2f steal=%.2f\n", (busy["b"] - busy["a"]) / d * ncpu, (nice["b"] - nice["a"]) / d * ncpu, (steal["b"] - steal["a"]) / d * ncpu
}
