#!/usr/bin/env python3
"""replay_check.py TRACE...: replays gosim traces (csv, json or jsonl) record
by record in seq order and checks that every state it passes through is a
valid scheduler state:
- a G's record leaves the place (and P) the replay has it in;
- a runnext slot holds at most one G, and a ring at most 256;
- a P runs at most one G, only while it is running, on its own M;
- a G runs only on an M that is running (not spinning, idle or in a
  syscall) and holds its P;
- a steal's and a spill's G records follow their record, n of them, with
  nothing in between.
Prints the first problem per file; exits 1 if any."""
import csv
import json
import sys

RING = 256


def records(path):
    if path.endswith(".csv"):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                yield {k: (int(v) if v.lstrip("-").isdigit() else v) for k, v in r.items()}
    elif path.endswith(".jsonl"):
        with open(path) as f:
            for line in f:
                yield json.loads(line)
    else:
        yield from json.load(open(path))["events"]


def check(path):
    gplace, gp = {}, {}
    runnext, ring, running = {}, {}, {}  # per P
    mstate, mp, pstate, pm = {}, {}, {}, {}
    pending = None  # (kind, n left, P)
    last_seq = -1
    for r in records(path):
        seq, ev = r["seq"], r["ev"]
        where = "%s seq %d" % (path, seq)
        if seq != last_seq + 1:
            return "%s: seq jumps from %d" % (where, last_seq)
        last_seq = seq
        if pending and not (ev == "g" and r["reason"] == pending[0]):
            return "%s: %s record inside a %s's G records (%d still to come)" % (where, ev, pending[0], pending[1])
        if ev == "steal" or ev == "spill":
            pending = [ev, r["n"]]
            continue
        if ev == "m":
            m = r["m"]
            if r["from"] != "new" and mstate.get(m) != r["from"]:
                return "%s: M%d leaves %s but is %s" % (where, m, r["from"], mstate.get(m))
            mstate[m], mp[m] = r["to"], r["p"]
            if r["to"] in ("idle", "syscall") and r["p"] >= 0:
                return "%s: M%d %s with P%d" % (where, m, r["to"], r["p"])
            continue
        if ev == "p":
            p = r["p"]
            if pstate.get(p, "idle") != r["from"]:
                return "%s: P%d leaves %s but is %s" % (where, p, r["from"], pstate.get(p, "idle"))
            pstate[p], pm[p] = r["to"], r["m"]
            if r["to"] == "idle" and (runnext.get(p, -1) >= 0 or ring.get(p, 0) or running.get(p, -1) >= 0):
                return "%s: P%d idle with Gs" % (where, p)
            continue
        if ev != "g":
            continue
        g, frm, to = r["g"], r["from"], r["to"]
        if gplace.get(g, "new") != frm:
            return "%s: G%d leaves %s but is %s" % (where, g, frm, gplace.get(g, "new"))
        if frm in ("runnext", "local", "running") and gp.get(g) != r["from_p"]:
            return "%s: G%d leaves P%s but is on P%s" % (where, g, r["from_p"], gp.get(g))
        fp = r["from_p"]
        if frm == "runnext":
            runnext[fp] = -1
        elif frm == "local":
            ring[fp] -= 1
        elif frm == "running":
            running[fp] = -1
        p = r["p"]
        if to == "runnext":
            if runnext.get(p, -1) >= 0:
                return "%s: G%d into P%d's runnext, which holds G%d" % (where, g, p, runnext[p])
            runnext[p] = g
        elif to == "local":
            ring[p] = ring.get(p, 0) + 1
            if ring[p] > RING:
                return "%s: P%d's ring holds %d" % (where, p, ring[p])
        elif to == "running":
            if running.get(p, -1) >= 0:
                return "%s: G%d runs on P%d, which runs G%d" % (where, g, p, running[p])
            if pstate.get(p) != "running":
                return "%s: G%d runs on P%d, which is %s" % (where, g, p, pstate.get(p, "idle"))
            m = r["m"]
            if pm.get(p) != m or mstate.get(m) != "running" or mp.get(m) != p:
                return "%s: G%d runs on P%d/M%d: the M is %s with P%s" % (where, g, p, m, mstate.get(m), mp.get(m))
            running[p] = g
        gplace[g], gp[g] = to, p
        if pending:
            pending[1] -= 1
            if pending[1] == 0:
                pending = None
    if pending:
        return "%s: the trace ends inside a %s" % (path, pending[0])
    return None


def main():
    bad = 0
    for path in sys.argv[1:]:
        problem = check(path)
        if problem:
            bad += 1
            print("FAIL " + problem)
    print("replay: %d traces replayed, %d invalid" % (len(sys.argv) - 1, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
