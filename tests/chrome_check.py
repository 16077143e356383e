#!/usr/bin/env python3
"""chrome_check.py CHROME_JSON GOSIM_JSON: checks a --format=chrome trace
against gosim's own JSON trace of the same run: required fields on every
event, a name for every lane (every P's included), no overlapping slices
on a lane, flows that pair up, and as many steal flows, handoff flows,
preemption and spill instants and G slices as gosim's summary and records
say. Prints one line per failure; exits 1 if any."""
import json
import sys
from collections import Counter, defaultdict

fails = []


def fail(msg):
    fails.append(msg)
    print("FAIL " + msg)


def main():
    chrome = json.load(open(sys.argv[1]))
    gosim = json.load(open(sys.argv[2]))
    summary = gosim["summary"]
    procs = gosim["config"]["procs"]
    for key in ("traceEvents", "displayTimeUnit"):
        if key not in chrome:
            fail("no top-level %r" % key)
    events = chrome["traceEvents"]
    need = {"X": ("pid", "tid", "ts", "dur", "name"), "C": ("pid", "ts", "name", "args"),
            "i": ("pid", "tid", "ts", "name", "s"), "s": ("pid", "tid", "ts", "name", "id"),
            "f": ("pid", "tid", "ts", "name", "id"), "M": ("pid", "name", "args")}
    lanes, named, pnamed = set(), set(), set()
    slices = defaultdict(list)
    flows = defaultdict(list)
    counts = Counter()
    for i, e in enumerate(events):
        ph = e.get("ph")
        if ph not in need:
            fail("event %d: unknown ph %r" % (i, ph))
            continue
        for k in need[ph]:
            if k not in e:
                fail("event %d (%s): no %r" % (i, ph, k))
        if ph == "M":
            if e["name"] == "thread_name":
                named.add((e["pid"], e["tid"]))
            if e["name"] == "process_name":
                pnamed.add(e["pid"])
            continue
        if not isinstance(e.get("ts"), int) or e["ts"] < 0:
            fail("event %d: bad ts %r" % (i, e.get("ts")))
        if "tid" in e:
            lanes.add((e["pid"], e["tid"]))
        if ph == "X":
            if e["dur"] < 0:
                fail("event %d: negative dur" % i)
            slices[(e["pid"], e["tid"])].append((e["ts"], e["dur"], e["name"]))
            if e.get("cat") == "g":
                counts["g slices"] += 1
        elif ph in "sf":
            flows[e["id"]].append(e)
        elif ph == "i":
            counts[e.get("cat")] += 1
        elif ph == "C":
            for v in e["args"].values():
                if not isinstance(v, int) or v < 0:
                    fail("event %d: counter %s = %r" % (i, e["name"], v))
    for lane in sorted(lanes - named):
        fail("lane %r has no thread_name" % (lane,))
    for pid in {l[0] for l in lanes} - pnamed:
        fail("process %d has no process_name" % pid)
    for p in range(procs):
        if (1, p) not in named:
            fail("P%d has no lane" % p)
    for lane, ss in slices.items():
        ss.sort()
        for (t0, d0, n0), (t1, d1, n1) in zip(ss, ss[1:]):
            if t1 < t0 + d0:
                fail("lane %r: %r at %d+%d overlaps %r at %d" % (lane, n0, t0, d0, n1, t1))
                break
    for fid, fs in flows.items():
        phs = sorted(f["ph"] for f in fs)
        if phs != ["f", "s"]:
            fail("flow %r has %r" % (fid, phs))
            continue
        s, f = (fs[0], fs[1]) if fs[0]["ph"] == "s" else (fs[1], fs[0])
        if s["ts"] > f["ts"] or s["cat"] != f["cat"]:
            fail("flow %r: %r then %r" % (fid, s, f))
        counts["flow " + s["cat"]] += 1
    runs = sum(1 for r in gosim["events"] if r["ev"] == "g" and r["to"] == "running")
    wakes = sum(1 for r in gosim["events"] if r["ev"] == "g" and r["from"] == "waiting")
    want = {"flow steal": summary["steals"], "flow handoff": summary["handoffs"],
            "preempt": summary["preemptions"], "spill": summary["spills"], "g slices": runs}
    for k, v in want.items():
        if counts[k] != v:
            fail("%s: %d in the chrome trace, %d in gosim's" % (k, counts[k], v))
    if counts["flow wakeup"] > wakes:
        fail("%d wake-up flows, %d wake-ups" % (counts["flow wakeup"], wakes))
    if not fails:
        print("ok   %s: %d events, %d lanes, %d G slices, %d steal / %d handoff / %d wake-up flows, %d preemptions"
              % (sys.argv[1].split("/")[-1], len(events), len(named), runs, counts["flow steal"],
                 counts["flow handoff"], counts["flow wakeup"], counts["preempt"]))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
