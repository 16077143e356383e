#!/usr/bin/env python3
"""pairs.py OUT...: the start-ups of run.sh's logged runs, and the table of
sim/sysmon_slack.c's init_runs.

For each logged run: sysmon's head start (BEGIN minus its first sleep's
start, us), when its pass first saw P0's last schedtick before the
preemption (us before BEGIN; the pass that preempted reads the schedtick
after the switch, so the one before it counts), the preempting pass, the
mode (2 if the other goroutine first ran 13 ms or more after the start), and
whether retake retook a P from a syscall on the way. A start-up is prompt if
sysmon's first sleep began within 0.3 ms of runtimeInitTime and the workload
within 2 ms of it; the table keeps the prompt ones whose slice was seen
before the workload began and whose sysmon retook nothing (the model's
passes before the workload are idle ones). Prints every run, the counts,
and the kept rows as C."""
import sys

rows = []
counts = {'stock': [0, 0], 'patch': [0, 0]}
for fi, path in enumerate(sys.argv[1:]):
    runs, cur = {}, None
    for line in open(path):
        f = line.split()
        if f[0] == 'RUN':
            g2 = int(f[4].split('=')[1] or 0)
            counts[f[2]][0] += 1
            counts[f[2]][1] += g2 >= 13000
            cur = runs.setdefault(int(f[1]), {})[f[2]] = {'g2': g2, 'log': [], 'begin': None, 'init': None}
        elif f[1] == 'BEGIN':
            cur['begin'] = int(f[2])
        elif f[1] == 'SYSMONLOG' and f[2] == 'init':
            cur['init'] = int(f[3])
        elif f[1] == 'SYSMONLOG':
            cur['log'].append(tuple(map(int, f[2:9])))
    for i, R in sorted(runs.items()):
        p = R.get('patch')
        if not p or len(p['log']) < 2 or p['begin'] is None:
            continue
        L, begin = p['log'], p['begin'] - p['init']
        if L[-1][2] < begin:
            continue  # the logged preemption came before the workload: not its
        tick = L[-2][5]
        j = min(x[0] for x in L[:-1] if x[5] == tick)
        head, seen = (begin - L[0][1]) // 1000, (begin - L[j][2]) // 1000
        prompt = L[0][1] <= 300000 and head < 2000
        retook = sum(x[4] for x in L)
        keep = prompt and seen >= 0 and retook == 0
        rows.append((fi, i, head, seen, len(L) - 1, 2 if p['g2'] >= 13000 else 1, p['g2'], retook, int(prompt), int(keep)))
print('file run head_us seen_us pass mode g2_us retook prompt kept')
for r in rows:
    print(*r)
kept = [r for r in rows if r[9]]
for kind, (n, m) in counts.items():
    print('%s: %d runs, %d in the second mode' % (kind, n, m))
print('prompt: %d; kept: %d, %d in the second mode' % (sum(r[8] for r in rows), len(kept), sum(r[5] == 2 for r in kept)))
kept.sort(key=lambda r: (r[2], r[3]))
for k in range(0, len(kept), 6):
    print('\t' + ' '.join('{ %d, %d },' % (r[2], r[3]) for r in kept[k:k + 6]))
