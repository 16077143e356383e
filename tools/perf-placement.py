#!/usr/bin/env python3
"""perf-placement.py: where Linux put a program's woken threads, from
`perf sched record` (docs/fidelity.md, "pipeline-p4"):

   perf sched record -o P.data -- taskset -c 0-1 ./twin -procs 4 ...
   perf script -i P.data | python3 tools/perf-placement.py COMM

Busy intervals per CPU come from sched_stat_runtime (each reports the run
time that ends at its timestamp), not from sched_switch, whose switch-ins
from idle this kernel does not always record. For every wake-up of a COMM
thread by a COMM thread (or an interrupt on a CPU running one): the CPU it
ran on next (sched_migrate_task moves it; else its previous CPU), and
whether another CPU was idle at that instant; for those woken onto their
waker's CPU, whether the waker's CPU went to the woken thread at once."""
import bisect, collections, re, sys
EV = re.compile(r'^\s*(.+?)\s+(-?\d+)\s+\[(\d+)\]\s+([\d.]+):\s+sched:(\w+):\s*(.*)$')
KV = re.compile(r'(\w+)=(\S+)')
comm = sys.argv[1]
evs = []
for line in sys.stdin:
    m = EV.match(line)
    if m:
        evs.append((float(m.group(4)), int(m.group(3)), m.group(1).strip(), int(m.group(2)), m.group(5), dict(KV.findall(m.group(6)))))
busy = collections.defaultdict(list)  # cpu -> [(start, end)] of any task but idle
mine = collections.defaultdict(float)
ncpu = 1 + max(e[1] for e in evs)
for t, cpu, cm, pid, name, d in evs:
    if name == 'sched_stat_runtime':
        r = int(d['runtime']) / 1e9
        busy[cpu].append((t - r, t))
        if d.get('comm') == comm:
            mine[cpu] += r
for c in busy:
    busy[c].sort()
starts = {c: [a for a, b in busy[c]] for c in busy}
def idle(c, t):
    i = bisect.bisect_right(starts.get(c, []), t) - 1
    return i < 0 or busy[c][i][1] < t
t0 = min(t for t, cpu, cm, pid, name, d in evs if name == 'sched_stat_runtime' and d.get('comm') == comm)
t1 = max(t for t, cpu, cm, pid, name, d in evs if name == 'sched_stat_runtime' and d.get('comm') == comm)
print("window %.1f ms; %s's CPU time per CPU: %s" % ((t1 - t0) * 1e3, comm, ", ".join("cpu%d %.1f ms" % (c, mine[c] * 1e3) for c in sorted(mine))))
tab = collections.Counter()
moved = {}
for i, (t, cpu, cm, pid, name, d) in enumerate(evs):
    if name == 'sched_migrate_task' and d.get('comm') == comm:
        moved[int(d['pid'])] = (t, int(d['orig_cpu']), int(d['dest_cpu']))
tab2 = collections.Counter()
for i, (t, cpu, cm, pid, name, d) in enumerate(evs):
    if name != 'sched_waking' or d.get('comm') != comm:
        continue
    w, prev = int(d['pid']), int(d['target_cpu'])  # sched_waking's target_cpu is the task's CPU before selection
    dest = prev
    for j in range(i + 1, min(i + 6, len(evs))):  # the migration, if any, follows within the same wake-up
        e = evs[j]
        if e[4] == 'sched_migrate_task' and int(e[5]['pid']) == w:
            dest = int(e[5]['dest_cpu'])
            break
    others_idle = [c for c in range(ncpu) if c != prev and idle(c, t)]
    key = ("stays on its previous CPU" if dest == prev else "moves to another CPU",
           "another CPU idle" if others_idle else "no other CPU idle",
           "previous CPU busy" if not idle(prev, t) or prev == cpu else "previous CPU idle")
    tab[key] += 1
    if cm == comm and dest == cpu:  # woken onto its waker's CPU: did it take the CPU at once?
        for e in evs[i + 1:i + 40]:
            if e[4] == 'sched_switch' and e[1] == cpu:
                pre = int(e[5]['prev_pid']) == pid and e[5]['prev_state'].startswith('R') and int(e[5]['next_pid']) == w
                tab2['preempted' if pre else 'not'] += 1
                break
n = sum(tab.values())
print("wake-ups of %s threads: %d" % (comm, n))
for k, v in sorted(tab.items(), key=lambda kv: -kv[1]):
    print("  %4d  %s; %s; %s" % ((v,) + k))
print("woken onto the waker's own CPU: %d; the woken thread preempted the waker at once in %d" % (tab2['preempted'] + tab2['not'], tab2['preempted']))
