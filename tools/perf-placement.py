#!/usr/bin/env python3
"""perf-placement.py: where Linux put a program's woken threads, from
`perf sched record` (docs/fidelity.md, "pipeline-p4"):

   perf sched record -o P.data -- taskset -c 0-1 ./twin -procs 4 ...
   perf script -i P.data | python3 tools/perf-placement.py COMM

Busy intervals per CPU come from sched_stat_runtime (each reports the run
time that ends at its timestamp), not from sched_switch, whose switch-ins
from idle this kernel does not always record; each is put on the CPU its
task last switched in on, since a wake-up updates the remote CPU's
current task from the waker's CPU (the event's CPU is the waker's). For every wake-up of a COMM
thread by a COMM thread (or an interrupt on a CPU running one): the CPU it
ran on next (sched_migrate_task moves it; else its previous CPU), and
whether another CPU was idle at that instant; for those woken onto their
waker's CPU, whether the waker's CPU went to the woken thread at once. Then the same
wake-ups by where the waker ran: on the woken thread's previous CPU, or on
another (where upstream wake_affine may pull the thread to the waker's CPU:
kernel/sched/fair.c select_task_rq_fair), and what the other CPUs did
(idle: nothing ran; other work: a task not COMM's, e.g. another session's
niced build, which a measurement at autogroup nice -20 outweighs)."""
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
whose = collections.defaultdict(list)  # cpu -> the comm of each busy interval
mine = collections.defaultdict(float)
ncpu = 1 + max(e[1] for e in evs)
on = {}  # pid -> the CPU it last switched in on
for t, cpu, cm, pid, name, d in evs:
    if name == 'sched_switch':
        on[int(d['next_pid'])] = cpu
    if name == 'sched_stat_runtime':
        # a wake-up's check_preempt updates the remote CPU's current task
        # from the waker's CPU: the time is the CPU the task runs on
        c = on.get(int(d['pid']), cpu)
        r = int(d['runtime']) / 1e9
        busy[c].append((t - r, t, d.get('comm')))
        if d.get('comm') == comm:
            mine[c] += r
for c in busy:
    busy[c].sort()
starts = {c: [a for a, b, w in busy[c]] for c in busy}
def running(c, t):
    """The comm running on CPU c at t, or None (idle)."""
    i = bisect.bisect_right(starts.get(c, []), t) - 1
    return None if i < 0 or busy[c][i][1] < t else busy[c][i][2]
def idle(c, t):
    return running(c, t) is None
t0 = min(t for t, cpu, cm, pid, name, d in evs if name == 'sched_stat_runtime' and d.get('comm') == comm)
t1 = max(t for t, cpu, cm, pid, name, d in evs if name == 'sched_stat_runtime' and d.get('comm') == comm)
print("window %.1f ms; %s's CPU time per CPU: %s" % ((t1 - t0) * 1e3, comm, ", ".join("cpu%d %.1f ms" % (c, mine[c] * 1e3) for c in sorted(mine))))
tab = collections.Counter()
moved = {}
for i, (t, cpu, cm, pid, name, d) in enumerate(evs):
    if name == 'sched_migrate_task' and d.get('comm') == comm:
        moved[int(d['pid'])] = (t, int(d['orig_cpu']), int(d['dest_cpu']))
tab2 = collections.Counter()
by_waker = collections.Counter()
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
    def doing(c):
        r = running(c, t)
        return "idle" if r is None else comm if r == comm else "other work"
    others = ",".join(sorted(set(doing(c) for c in range(ncpu) if c not in (prev, cpu)))) or "-"
    if cpu == prev:
        by_waker[("waker on its previous CPU", "stays" if dest == prev else "moves", "the other CPU: " + others)] += 1
    else:
        by_waker[("waker on another CPU", "stays on its previous CPU" if dest == prev else "to the waker's CPU" if dest == cpu else "elsewhere",
                  "previous CPU: " + ("idle" if idle(prev, t) else doing(prev)))] += 1
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
print("by the waker's CPU:")
for k, v in sorted(by_waker.items(), key=lambda kv: -kv[1]):
    print("  %4d  %s; %s; %s" % ((v,) + k))
print("woken onto the waker's own CPU: %d; the woken thread preempted the waker at once in %d" % (tab2['preempted'] + tab2['not'], tab2['preempted']))
