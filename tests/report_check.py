#!/usr/bin/python3
"""Checks every figure of a --report=json output against the same figure
computed here, independently, from the run's JSON trace.

Usage: tests/report_check.py TRACE.json REPORT.json [REPORT.csv]
With REPORT.csv (--report=csv of the same run), every CSV row is checked
against the JSON report's figure.
Prints one line per failed figure and exits 1 if any failed.

A G's function comes from its `new` record's `fn`, a parked G's wait key
from its `waiting` record's `wait` and `chan` ("chan receive:pong"); where a
trace lacks them (an older schema), the mapping is taken from the report and
only the sums are checked.
"""
import json
import sys
from collections import defaultdict

RUNNABLE = ("runnext", "local", "global")
KINDS = ("running", "runnext", "local", "global", "syscall", "cpuwait")


def nearest_rank(samples):
    if not samples:
        return {"count": 0, "p50_us": None, "p90_us": None, "p99_us": None, "max_us": None}
    s = sorted(samples)
    n = len(s)

    def pct(q):
        k = max(1, -(-n * q // 100))
        return s[k - 1]

    return {"count": n, "p50_us": pct(50), "p90_us": pct(90), "p99_us": pct(99), "max_us": s[-1]}


class Interval:
    """Durations of a state machine over time: state -> total."""

    def __init__(self, state, t):
        self.state, self.since, self.tot = state, t, defaultdict(int)

    def set(self, state, t):
        self.tot[self.state] += t - self.since
        self.state, self.since = state, t

    def close(self, t):
        self.set(self.state, t)


def analyse(trace, rep):
    ev = trace["events"]
    end = max([trace["summary"]["makespan_us"]] + [e["t"] for e in ev])
    procs = trace["config"]["procs"]
    sysmon = 1
    g_place, g_since, g_born, g_died = {}, {}, {}, {}
    g_time = defaultdict(lambda: defaultdict(int))
    g_fn, g_key = {}, {}
    g_cw, m_wait = {}, {}  # --cpus: a running G whose M waits for a CPU; the Ms waiting

    def gplace(g):
        return "cpuwait" if g_place.get(g) == "running" and g_cw.get(g) else g_place[g]
    g_block = defaultdict(lambda: defaultdict(int))
    g_wait_start = {}
    samples = defaultdict(list)  # goid -> latencies
    waits = []  # (g, start, end) for runnable intervals
    # Ps
    p_status = ["idle"] * procs
    p_curg = [0] * procs
    p_spin = [0] * procs
    p_insys = [0] * procs  # Go 1.26: the P stays running while its M is in a syscall
    p_taken = [0] * procs  # Go 1.26: sysmon's takeP, not (yet) followed by a handoff
    p_seg_start = [0] * procs
    p_segs = [[] for _ in range(procs)]  # (g, start, end)

    def p_cat(p):
        if p_status[p] == "idle":
            return "idle"
        if p_status[p] == "syscall" or p_insys[p]:
            return "syscall"
        if p_curg[p]:
            return "busy"
        return "spinning" if p_spin[p] else "between_gs"

    p_iv = [Interval("idle", 0) for _ in range(procs)]
    m_iv, m_state, m_p = {}, {}, {}
    cnt = defaultdict(int)
    peak = defaultdict(int)
    qlen = defaultdict(int)
    live = nrunnable = 0

    def mcat(m, st):
        if m == sysmon:
            return "sysmon"
        if m_wait.get(m):
            return "cpuwait"
        return {"running": "running", "spinning": "spinning", "syscall": "syscall", "idle": "parked"}.get(st, "starting")

    def qkey(place, p):
        if place == "global":
            return ("global", -1)
        if place in ("runnext", "local"):
            return (place, p)
        return None

    for e in ev:
        t, kind = e["t"], e["ev"]
        cnt["events"] += 1
        if kind == "g":
            g, fr, to = e["g"], e["from"], e["to"]
            if fr == "waiting" and g in g_key:
                g_block[g][g_key[g]] += t - g_since[g]
            if to == "waiting" and "wait" in e:
                g_key[g] = e["wait"] + (":" + e["chan"] if "chan" in e else
                                        ":#%d" % e["obj"] if "obj" in e else "")
            if fr == "new":
                if "fn" in e:
                    g_fn[g] = e["fn"]
                g_born[g], g_since[g] = t, t
                live += 1
                peak["goroutines_live"] = max(peak["goroutines_live"], live)
            else:
                g_time[g][gplace(g)] += t - g_since[g]
                g_since[g] = t
            kf, kt = qkey(fr, e["from_p"]), qkey(to, e["p"])
            if kf:
                qlen[kf] -= 1
            if kt:
                qlen[kt] += 1
            peak["global_queue"] = max(peak["global_queue"], qlen[("global", -1)])
            if to == "local":
                peak["local_queue"] = max(peak["local_queue"], qlen[("local", e["p"])])
            if fr == "running":
                p = e["from_p"]
                if t > p_seg_start[p]:
                    p_segs[p].append((g, p_seg_start[p], t))
                p_curg[p] = 0
                p_insys[p] = 1 if to == "syscall" else 0
                p_iv[p].set(p_cat(p), t)
            if to == "running":
                p = e["p"]
                p_curg[p], p_seg_start[p], p_insys[p] = g, t, 0
                p_iv[p].set(p_cat(p), t)
                peak["procs_busy"] = max(peak["procs_busy"], sum(1 for x in p_curg if x))
            if e["reason"] == "spill" and to == "global":
                cnt["goroutines_spilled"] += 1
            if e["reason"] == "gosched" and fr == "running":
                cnt["yields"] += 1
            if e["reason"] == "globrunqget" and fr == "global":
                cnt["global_to_local"] += 1
            if fr == "global" and to == "running":
                cnt["global_gets"] += 1
            was, now = fr in RUNNABLE, to in RUNNABLE
            if not was and now:
                g_wait_start[g] = t
                nrunnable += 1
                peak["runnable"] = max(peak["runnable"], nrunnable)
            elif was and not now:
                nrunnable -= 1
                if to == "running":
                    samples[g].append(t - g_wait_start[g])
                waits.append((g, g_wait_start[g], t))
            elif fr == "waiting" and to == "running":  # findRunnable's netpoll ran it at once
                samples[g].append(0)
            if to == "dead":
                g_died[g] = t
                live -= 1
            g_place[g] = to
            g_cw[g] = to == "running" and m_wait.get(e["m"], False)
        elif kind == "m":
            m = e["m"]
            if e["from"] == "new" and e["to"] == "new":
                m_iv[m], m_state[m], m_p[m] = Interval(mcat(m, "new"), t), "new", -1
                cnt["threads_created"] += 1
                peak["threads"] = max(peak["threads"], len(m_iv))
                continue
            if m_state[m] == "spinning" and m_p[m] >= 0:
                p_spin[m_p[m]] = 0
                p_iv[m_p[m]].set(p_cat(m_p[m]), t)
            if e["to"] == "spinning" and e["p"] >= 0:
                p_spin[e["p"]] = 1
                p_iv[e["p"]].set(p_cat(e["p"]), t)
            if e["from"] == "spinning" and e["to"] == "idle":
                cnt["futile_wakeups"] += 1
            m_state[m], m_p[m] = e["to"], e["p"]
            m_iv[m].set(mcat(m, e["to"]), t)
            peak["threads_in_syscall"] = max(peak["threads_in_syscall"], sum(1 for s in m_state.values() if s == "syscall"))
        elif kind == "p":
            p = e["p"]
            p_status[p] = e["to"]
            p_insys[p] = 0
            p_taken[p] = 0
            if e["from"] == "syscall" and e["to"] == "idle":
                cnt["retakes_idle"] += 1
            if e["from"] == "running" and e["to"] == "idle" and e["by_m"] == 1:  # sysmon's takeP (Go 1.26)
                cnt["retakes_idle"] += 1
                p_taken[p] = 1
            p_iv[p].set(p_cat(p), t)
        elif kind == "steal":
            cnt["steals"] += 1
            cnt["goroutines_stolen"] += e["n"]
            cnt["runnext_steals"] += 1 if e["runnext"] else 0
        elif kind == "spill":
            cnt["spills"] += 1
        elif kind == "handoff":
            cnt["handoffs"] += 1
            if p_taken[e["p"]]:  # takeP then handoffp's startm: a handoff, not a retake to idle
                cnt["retakes_idle"] -= 1
                p_taken[e["p"]] = 0
        elif kind == "preempt":
            cnt["preemptions_slice"] += 1
        elif kind == "cpu":  # --cpus: M m starts or stops waiting for a CPU
            m, g = e["m"], e["g"]
            m_wait[m] = e["to"] == "wait"
            m_iv[m].set(mcat(m, m_state[m]), t)
            if g > 0 and g_place.get(g) == "running":
                g_time[g][gplace(g)] += t - g_since[g]
                g_since[g] = t
                g_cw[g] = m_wait[m]
    for g in g_since:
        if g not in g_died:
            g_time[g][gplace(g)] += end - g_since[g]
            if g_place[g] == "waiting" and g in g_key:
                g_block[g][g_key[g]] += end - g_since[g]
    for p in range(procs):
        p_iv[p].close(end)
        if p_curg[p]:
            p_segs[p].append((p_curg[p], p_seg_start[p], end))
    for m in m_iv:
        m_iv[m].close(end)
    cnt["syscall_retakes"] = cnt["handoffs"] + cnt["retakes_idle"]
    return dict(g_fn=g_fn, g_block=g_block, end=end, g_born=g_born, g_died=g_died, g_time=g_time, samples=samples, waits=waits,
                p_iv=p_iv, p_segs=p_segs, m_iv=m_iv, cnt=cnt, peak=peak)


def check_regions(trace, rep, eq):
    """Region latency from the trace's region records: per G, a begin
    (n 1) opens a region, an end (n 0) closes the innermost one. The trace
    names a region by index (obj), in the workload's order; the report lists
    every region in that order, so the i-th name is region i."""
    open_, samples = defaultdict(list), defaultdict(list)
    for e in trace["events"]:
        if e.get("ev") != "region":
            continue
        if e["n"]:
            open_[e["g"]].append((e["obj"], e["t"]))
        elif open_[e["g"]]:
            obj, t = open_[e["g"]].pop()
            samples[obj].append(e["t"] - t)
    names = list(rep.get("latency_by_region", {}))
    if samples:
        eq("regions listed", len(names) > max(samples), True)
    for i, name in enumerate(names):
        eq(f"region latency {name}", rep["latency_by_region"][name], nearest_rank(samples.get(i, [])))


def check_csv(path, rep, eq):
    import csv
    rows = list(csv.reader(open(path)))
    eq("csv header", rows[0], ["section", "name", "metric", "value"])
    g_by_id = {str(g["g"]): g for g in rep["goroutines"]}
    n = 0
    for sec, name, metric, value in rows[1:]:
        v = int(value)
        n += 1
        if sec == "run" and metric == "makespan_us":
            want = rep["report"]["makespan_us"]
        elif sec == "run":
            want = rep["report"][metric]
        elif sec == "latency":
            want = (rep["latency"] if name == "all" else rep["latency_by_function"][name])[metric]
        elif sec == "region_latency":
            want = rep["latency_by_region"][name][metric]
        elif sec == "function":
            want = rep["time_by_function"][name][metric]
        elif sec == "function_time_us":
            want = rep["time_by_function"][name]["time_us"][metric]
        elif sec == "goroutine" and metric == "lifetime_us":
            want = g_by_id[name]["lifetime_us"]
        elif sec == "goroutine":
            continue  # function_index: the JSON names the function
        elif sec == "goroutine_time_us":
            want = g_by_id[name]["time_us"][metric]
        elif sec == "proc":
            want = rep["procs"][name][metric]
        elif sec == "thread":
            want = rep["threads"][name][metric]
        elif sec == "peak":
            want = rep["peaks"][metric]
        elif sec == "counter":
            want = rep["counters"][metric]
        elif sec == "long_waits":
            want = rep["long_waits"][metric]
        else:
            want = None
        eq(f"csv {sec},{name},{metric}", v, want)
    want_rows = 1 + sum(len(g["time_us"]) + 2 for g in rep["goroutines"])
    if n < want_rows:
        eq("csv rows", n, f">= {want_rows}")


def main():
    trace = json.load(open(sys.argv[1]))
    rep = json.load(open(sys.argv[2]))
    a = analyse(trace, rep)
    bad = []

    def eq(what, got, want):
        if got != want:
            bad.append(f"{what}: report {got!r}, trace {want!r}")

    eq("makespan", rep["report"]["makespan_us"], trace["summary"]["makespan_us"])
    eq("goroutine count", len(rep["goroutines"]), len(a["g_born"]))
    fn_of, by_fn = {}, defaultdict(list)
    for gr in rep["goroutines"]:
        g = gr["g"]
        fn_of[g] = a["g_fn"].get(g, gr["function"])
        life = a["g_died"].get(g, a["end"]) - a["g_born"][g]
        eq(f"G{g} lifetime", gr["lifetime_us"], life)
        eq(f"G{g} split sums to lifetime", sum(gr["time_us"].values()), gr["lifetime_us"])
        tt = a["g_time"][g]
        for k in KINDS:
            eq(f"G{g} {k}", gr["time_us"][k], tt.get(k, 0))
        blocked = sum(v for k, v in gr["time_us"].items() if k not in KINDS)
        eq(f"G{g} blocked (all keys)", blocked, tt.get("waiting", 0))
        if a["g_fn"]:
            eq(f"G{g} function", gr["function"], a["g_fn"].get(g))
            keys = {k: v for k, v in gr["time_us"].items() if k not in KINDS}
            eq(f"G{g} blocked by key", keys, dict(a["g_block"].get(g, {})))
    samples_all = []
    lat_fn = defaultdict(list)
    for g, s in a["samples"].items():
        samples_all += s
        lat_fn[fn_of[g]] += s
    eq("latency", rep["latency"], nearest_rank(samples_all))
    eq("latency functions", sorted(rep["latency_by_function"]), sorted(lat_fn))
    for fn, s in lat_fn.items():
        eq(f"latency {fn}", rep["latency_by_function"].get(fn), nearest_rank(s))  # noqa
    check_regions(trace, rep, eq)
    for gr in rep["goroutines"]:
        by_fn[fn_of[gr["g"]]].append(gr)
    eq("functions", sorted(rep["time_by_function"]), sorted(by_fn))
    for fn, grs in by_fn.items():
        f = rep["time_by_function"].get(fn)
        if f is None:
            continue  # reported above: the function lists differ
        eq(f"{fn} goroutines", f["goroutines"], len(grs))
        eq(f"{fn} lifetime", f["lifetime_us"], sum(x["lifetime_us"] for x in grs))
        keys = set(k for x in grs for k in x["time_us"])
        eq(f"{fn} keys", sorted(f["time_us"]), sorted(keys))
        for k in keys:
            eq(f"{fn} {k}", f["time_us"].get(k), sum(x["time_us"].get(k, 0) for x in grs))
    for p, iv in enumerate(a["p_iv"]):
        for k in ("busy", "spinning", "idle", "syscall", "between_gs"):
            eq(f"P{p} {k}", rep["procs"][f"P{p}"][f"{k}_us"], iv.tot.get(k, 0))
        if not 0 < trace["config"].get("cpus", 0) < trace["config"]["procs"]:  # a P whose M waits for a CPU is busy, not in busy_us
            eq(f"P{p} busy == summary busy_us", rep["procs"][f"P{p}"]["busy_us"], trace["summary"]["busy_us"][p])
    eq("threads", sorted(rep["threads"]), sorted(f"M{m}" for m in a["m_iv"]))
    for m, iv in a["m_iv"].items():
        for k in ("running", "spinning", "syscall", "parked", "starting", "sysmon", "cpuwait"):
            eq(f"M{m} {k}", rep["threads"][f"M{m}"][f"{k}_us"], iv.tot.get(k, 0))
    for k, v in rep["peaks"].items():
        eq(f"peak {k}", v, a["peak"].get(k, 0))
    eq("threads peak == summary", rep["peaks"]["threads"], trace["summary"]["threads_peak"])
    for k, v in rep["counters"].items():
        if v is not None:
            eq(f"counter {k}", v, a["cnt"].get(k, 0))
    eq("steals == summary", rep["counters"]["steals"], trace["summary"]["steals"])
    eq("handoffs == summary", rep["counters"]["handoffs"], trace["summary"]["handoffs"])
    eq("spills == summary", rep["counters"]["spills"], trace["summary"]["spills"])
    eq("events == summary", rep["counters"]["events"], trace["summary"]["events"])
    lw = rep["long_waits"]
    want = [w for w in a["waits"] if w[2] - w[1] > lw["threshold_us"]]
    eq("long waits", [(w["g"], w["start_us"], w["end_us"]) for w in lw["list"]], want)
    eq("long wait count", lw["count"], len(want))
    for w in lw["list"]:
        per_p = defaultdict(int)
        for x in w["ran_meanwhile"]:
            per_p[x["p"]] += x["us"]
        for p, segs in enumerate(a["p_segs"]):
            tot = sum(max(0, min(e, w["end_us"]) - max(s, w["start_us"])) for _, s, e in segs)
            eq(f"long wait G{w['g']}@{w['start_us']} P{p} ran", per_p.get(p, 0), tot)
        for x in w["ran_meanwhile"]:
            if x["g"] is None:
                continue
            tot = sum(max(0, min(e, w["end_us"]) - max(s, w["start_us"]))
                      for g, s, e in a["p_segs"][x["p"]] if g == x["g"])
            eq(f"long wait G{w['g']}@{w['start_us']} P{x['p']} G{x['g']}", x["us"], tot)
    if len(sys.argv) > 3:
        check_csv(sys.argv[3], rep, eq)
    for b in bad[:40]:
        print("FAIL", b)
    if len(bad) > 40:
        print(f"... {len(bad) - 40} more")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
