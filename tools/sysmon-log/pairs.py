#!/usr/bin/env python3
"""pairs.py [--begin] [--procs=N] OUT...: the start-ups of run.sh's logged runs, and the
table of sim/sysmon_slack.c's init_runs.

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
and the kept rows as C.

The last two columns: the P the workload's main ran on at BEGIN, and when
sysmon's pass first saw that P's slice at BEGIN (us before BEGIN, negative:
after it, '-': never), from the schedtick BEGIN printed; at 1 P it is the
seen_us above unless main's slice changed between BEGIN and the preemption.
--begin (for GOMAXPROCS above 1, where nothing is preempted) takes that
one for seen_us, keeps the runs whose slice at BEGIN was seen before it,
and ignores the preemption (pass: the last logged, mode: 0). --procs=N
takes only the runs at GOMAXPROCS N (run.sh PROCS="1 2 4")."""
import sys

args = sys.argv[1:]
by_begin, only = False, None
while args and args[0].startswith('--'):
    if args[0] == '--begin':
        by_begin = True
    elif args[0].startswith('--procs='):
        only = args[0][len('--procs='):]
    else:
        sys.exit('pairs.py: unknown option ' + args[0])
    args = args[1:]

rows = []
counts = {'stock': [0, 0], 'patch': [0, 0]}
for fi, path in enumerate(args):
    runs, cur = {}, None
    for line in open(path):
        f = line.split()
        if f[0] == 'RUN':
            procs = ([x[6:] for x in f if x.startswith('procs=')] or ['1'])[0]
            if only is not None and procs != only:
                cur = None
                continue
            g2 = int(f[4].split('=')[1] or 0)
            counts[f[2]][0] += 1
            counts[f[2]][1] += g2 >= 13000
            cur = runs.setdefault(int(f[1]), {})[f[2]] = {'g2': g2, 'log': [], 'begin': None, 'init': None, 'p': None}
        elif cur is None:
            continue  # a run of another GOMAXPROCS
        elif f[1] == 'BEGIN':
            cur['begin'] = int(f[2])
            if len(f) >= 5:
                cur['p'] = (int(f[3]), int(f[4]))
        elif f[1] == 'SYSMONLOG' and f[2] == 'init':
            cur['init'] = int(f[3])
        elif f[1] == 'SYSMONLOG':
            cur['log'].append(tuple(map(int, f[2:12])) + (0,) * (12 - len(f)))
    for i, R in sorted(runs.items()):
        p = R.get('patch')
        if not p or len(p['log']) < 2 or p['begin'] is None:
            continue
        L, begin = p['log'], p['begin'] - p['init']
        if L[-1][2] < begin:
            continue  # the logged preemption came before the workload: not its
        head = (begin - L[0][1]) // 1000
        bp, bseen = '-', '-'
        if p['p'] is not None:
            bp, btick = p['p']
            col = 5 if bp == 0 else 6 + bp
            js = [x[0] for x in L if x[col] == btick]
            if js:
                bseen = (begin - L[js[0]][2]) // 1000
        if by_begin:
            if bseen == '-':
                continue
            seen, mode = bseen, 0
        else:
            tick = L[-2][5]
            j = min(x[0] for x in L[:-1] if x[5] == tick)
            seen, mode = (begin - L[j][2]) // 1000, 2 if p['g2'] >= 13000 else 1
        prompt = L[0][1] <= 300000 and head < 2000
        retook = sum(x[4] for x in L if x[2] < begin) if by_begin else sum(x[4] for x in L)
        keep = prompt and seen >= 0 and retook == 0
        rows.append((fi, i, head, seen, len(L) - 1, mode, p['g2'], retook, int(prompt), int(keep), bp, bseen))
print('file run head_us seen_us pass mode g2_us retook prompt kept p begin_seen_us')
for r in rows:
    print(*r)
kept = [r for r in rows if r[9]]
for kind, (n, m) in counts.items():
    print('%s: %d runs, %d in the second mode' % (kind, n, m))
print('prompt: %d; kept: %d, %d in the second mode' % (sum(r[8] for r in rows), len(kept), sum(r[5] == 2 for r in kept)))
kept.sort(key=lambda r: (r[2], r[3]))
for k in range(0, len(kept), 6):
    print('\t' + ' '.join('{ %d, %d },' % (r[2], r[3]) for r in kept[k:k + 6]))
