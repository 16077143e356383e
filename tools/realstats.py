#!/usr/bin/env python3
"""realstats.py: the totals of tools/compare-real, real runs beside gosim.

    python3 tools/realstats.py REAL.out GOSIM.out

REAL.out holds the Go twins' own output, each line prefixed "run=N ":
"makespan_us M", "cpu_us C" (the process's CPU time over the workload,
getrusage), "oswait_us W" (its threads' time runnable without a CPU,
from /proc/self/task/*/schedstat), "g ID start_us S end_us E" per goroutine, and the load
compare-real saw before the run, "load busy=B nice=N steal=S" (in CPUs).
GOSIM.out has the same lines, unprefixed, for gosim's one run (its cpu_us
is the time its Ms spent running Go code, plus its sysmon's sleeps' CPU
time, --cost-sysmon), and "work_us W": the time its goroutines ran, the
workload's own CPU work.

Prints, real figures as "median [min-max]" over the runs:

    makespan us: real ..., gosim ...
    cpu us: real ..., gosim ...; real/gosim ...
    parallelism (cpu/makespan): real ..., gosim ...
    makespan normalised by cpu (makespan x work / cpu): real ..., gosim ...
    os wait (threads runnable without a CPU) / makespan: real ..., gosim ...
    runs not held back (os wait / makespan within 0.25 of gosim's): K of N; parallelism ...; normalised makespan ...
    first-run order vs gosim (Spearman): real ...; vs creation order: real ..., gosim ...
    completion order vs gosim (Spearman): real ...; vs creation order: real ..., gosim ...
    load before the runs (CPUs): busy ..., nice ..., steal ...
    first-run order: real G.. G.. ... / gosim G.. G.. ...
    completion order: real ... / gosim ...
    goroutine | first ran us: real      gosim | finished us: real        gosim
    G2        | ...

The normalised makespan takes the CPU-speed noise of a shared machine out
of the real figure: it is the makespan scaled by the workload's work (W,
gosim's) over the run's CPU time, so a run whose CPU did the work 30%
slower has its makespan scaled down by as much; gosim's is scaled the same
way by its own CPU time (equal to W unless its Ms spin). It is W divided by
the parallelism. It assumes the run's CPU time is the work; for a program
that mostly waits (syscalls, sleeps) the raw makespan is the figure to read. The OS wait says how far the machine, not the Go scheduler, held the
program back: with as many CPUs as threads that want one it is near 0; a
run at 1 or more lost about a CPU to other work (or has more Ps than
CPUs); gosim's is the time its Ms waited for one of --cpus. A run is "held
back" when its OS wait per makespan exceeds gosim's by more than 0.25 (a
quarter of a CPU lost to other work); the medians over all runs are the
figures, those over the runs not held back are printed beside them. The
orders are compared with
Spearman's rank correlation (ties get their average rank): 1 the same
order, -1 the reverse; "creation order" is the goroutine ids' order. The
real orders shown are the goroutines sorted by their median time over runs.
"""
import sys


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    if n == 0:
        return None
    return xs[(n - 1) // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def num(x):
    """x printed as compare-real prints figures: integers without a point."""
    if x is None:
        return "-"
    if float(x).is_integer():
        return str(int(x))
    return "%.3g" % x if abs(x) < 10 else "%.0f" % x


def stat(xs):
    """median [min-max], or - when there is nothing."""
    xs = [x for x in xs if x is not None]
    if not xs:
        return "-"
    return "%s [%s-%s]" % (num(median(xs)), num(min(xs)), num(max(xs)))


def ranks(values):
    """Rank of each value (1-based), ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    """Spearman's rank correlation of two equal-length lists; None if
    either is constant or shorter than 2."""
    if len(a) < 2:
        return None
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    if va == 0 or vb == 0:
        return None
    return cov / (va * vb) ** 0.5


def parse(lines, prefixed):
    """runs: {run: {"makespan": M, "cpu": C, "g": {id: (start, end)}, "load": {...}}}"""
    runs = {}
    for line in lines:
        f = line.split()
        if not f:
            continue
        run = "gosim"
        if prefixed:
            if not f[0].startswith("run="):
                continue
            run, f = f[0][4:], f[1:]
        r = runs.setdefault(run, {"makespan": None, "cpu": None, "work": None, "oswait": None, "g": {}, "load": {}})
        if len(f) >= 2 and f[0] == "makespan_us":
            r["makespan"] = float(f[1])
        elif len(f) >= 2 and f[0] == "cpu_us":
            r["cpu"] = float(f[1])
        elif len(f) >= 2 and f[0] == "oswait_us":
            r["oswait"] = float(f[1])
        elif len(f) >= 2 and f[0] == "work_us":
            r["work"] = float(f[1])
        elif len(f) >= 6 and f[0] == "g" and f[2] == "start_us" and f[4] == "end_us":
            r["g"][int(f[1])] = (float(f[3]), float(f[5]))
        elif f and f[0] == "load":
            for kv in f[1:]:
                k, _, v = kv.partition("=")
                r["load"][k] = float(v)
    return runs


def parallelism(r):
    if r["cpu"] is None or not r["makespan"]:
        return None
    return r["cpu"] / r["makespan"]


def normalised(r, work):
    """r's makespan x work / r's CPU time."""
    if not r["cpu"] or r["makespan"] is None or not work:
        return None
    return r["makespan"] * work / r["cpu"]


def order_corr(g, other, which):
    """Spearman of goroutines' start (which=0) or end (1) times in g against
    other's (a dict id -> (start, end)), or against creation order when
    other is None; over the ids both have."""
    ids = sorted(i for i in g if other is None or i in other)
    a = [g[i][which] for i in ids]
    b = [float(i) if other is None else other[i][which] for i in ids]
    return spearman(a, b)


def consensus(runs, which):
    """Goroutine ids sorted by their median start/end time over the runs."""
    times = {}
    for r in runs.values():
        for i, se in r["g"].items():
            times.setdefault(i, []).append(se[which])
    return sorted(times, key=lambda i: (median(times[i]), i))


def short(ids, head=8, tail=4):
    s = ["G%d" % i for i in ids]
    if len(s) > head + tail + 1:
        s = s[:head] + ["..."] + s[-tail:]
    return " ".join(s)


def main(argv):
    if len(argv) != 3:
        print("usage: realstats.py REAL.out GOSIM.out", file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        real = parse(f, True)
    with open(argv[2]) as f:
        gosim = parse(f, False).get("gosim", {"makespan": None, "cpu": None, "work": None, "oswait": None, "g": {}, "load": {}})
    rs = list(real.values())
    gcpu = gosim["cpu"]
    out = []
    out.append("makespan us: real %s, gosim %s" % (stat([r["makespan"] for r in rs]), num(gosim["makespan"])))
    ratio = [r["cpu"] / gcpu if r["cpu"] is not None and gcpu else None for r in rs]
    out.append("cpu us: real %s, gosim %s; real/gosim %s" % (stat([r["cpu"] for r in rs]), num(gcpu), stat(ratio)))
    out.append("parallelism (cpu/makespan): real %s, gosim %s" % (stat([parallelism(r) for r in rs]), num(parallelism(gosim))))
    work = gosim["work"]
    out.append("makespan normalised by cpu (makespan x work / cpu; work %s): real %s, gosim %s" %
               (num(work), stat([normalised(r, work) for r in rs]), num(normalised(gosim, work))))
    osw = lambda r: r["oswait"] / r["makespan"] if r["oswait"] is not None and r["makespan"] else None
    out.append("os wait (threads runnable without a CPU) / makespan: real %s, gosim %s" % (
        stat([osw(r) for r in rs]), num(osw(gosim))))
    clean = [r for r in rs if osw(r) is not None and osw(r) <= (osw(gosim) or 0) + 0.25]
    out.append("runs not held back (os wait / makespan within 0.25 of gosim's): %d of %d; parallelism %s; normalised makespan %s" % (
        len(clean), len(rs), stat([parallelism(r) for r in clean]), stat([normalised(r, work) for r in clean])))
    for which, label in ((0, "first-run"), (1, "completion")):
        out.append("%s order vs gosim (Spearman): real %s; vs creation order: real %s, gosim %s" % (
            label, stat([order_corr(r["g"], gosim["g"], which) for r in rs]),
            stat([order_corr(r["g"], None, which) for r in rs]), num(order_corr(gosim["g"], None, which))))
    out.append("load before the runs (CPUs): busy %s, nice %s, steal %s" % tuple(
        stat([r["load"].get(k) for r in rs]) for k in ("busy", "nice", "steal")))
    gs = lambda which: sorted(gosim["g"], key=lambda i: (gosim["g"][i][which], i))
    out.append("first-run order: real %s / gosim %s" % (short(consensus(real, 0)), short(gs(0))))
    out.append("completion order: real %s / gosim %s" % (short(consensus(real, 1)), short(gs(1))))
    out.append("goroutine | first ran us: real      gosim | finished us: real        gosim")
    ids = sorted(set(gosim["g"]).union(*[r["g"].keys() for r in rs]))
    for n, i in enumerate(ids):
        if 12 <= n < len(ids) - 3:
            if n == 12:
                out.append("  ...")
            continue
        se = gosim["g"].get(i)
        out.append("G%-8d | %-22s %-6s | %-22s %s" % (
            i, stat([r["g"][i][0] for r in rs if i in r["g"]]), num(se[0]) if se else "-",
            stat([r["g"][i][1] for r in rs if i in r["g"]]), num(se[1]) if se else "-"))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
