#!/usr/bin/env python3
"""html_check.py: checks gosim's replay page (--format=html) against the
JSON trace of the same run.

For each built-in workload, and one with network waits: writes the run
(with --explain) as JSON and as HTML; checks
that the page references nothing outside itself and that the records it
embeds are the JSON trace's, field for field; then opens the page in
headless Chromium at several moments (#t=T, #e=SEQ, #g=G) and compares
every P card's data-status, data-running, data-runnext, data-runq and
data-schedtick, the global queue's data-globrunq and the blocked
goroutines with the state a replay of the JSON trace (below, written apart
from the page's own) gives at that moment. The replay's schedtick is
checked against the simulator's own (scheddetail). A screenshot of the
syscalls page goes to the build directory. A run past the page's record cap
keeps exactly the cap.

Usage: html_check.py GOSIM OUTDIR
Without Chromium the browser half is skipped with a message."""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

FAILS = []


def fail(msg):
    FAILS.append(msg)
    print('html: FAIL: ' + msg)


# ---- the reference replay: the JSON trace's records, in order ----

class State:
    """The scheduler's queues after some prefix of the records, kept as
    plain lists (the runtime's ring order: push at the tail)."""

    def __init__(self, procs):
        self.pstatus = ['idle'] * procs
        self.running = [None] * procs
        self.runnext = [None] * procs
        self.runq = [[] for _ in range(procs)]
        self.schedtick = [0] * procs
        self.globrunq = []
        self.waiting = set()

    def apply(self, e):
        if e['ev'] == 'p':
            self.pstatus[e['p']] = e['to']
        if e['ev'] != 'g':
            return
        g, fp, p = e['g'], e['from_p'], e['p']
        src, dst = e['from'], e['to']
        # Replayed in seq order the records are always a valid state
        # (docs/trace-format.md): a G leaves only the place it is in, and
        # enters only a free runnext slot or an idle P.
        if src == 'runnext':
            assert self.runnext[fp] == g, e
            self.runnext[fp] = None
        elif src == 'local':
            self.runq[fp].remove(g)
        elif src == 'global':
            self.globrunq.remove(g)
        elif src == 'running':
            assert self.running[fp] == g, e
            self.running[fp] = None
        elif src == 'waiting':
            self.waiting.discard(g)
        if dst == 'runnext':
            assert self.runnext[p] is None, e
            self.runnext[p] = g
        elif dst == 'local':
            self.runq[p].append(g)
        elif dst == 'global':
            self.globrunq.append(g)
        elif dst == 'waiting':
            self.waiting.add(g)
        elif dst == 'running':
            assert self.running[p] is None, e
            self.running[p] = g
            # execute(): a new slice unless taken from this P's own runnext;
            # exitsyscall's fast path does not call execute.
            if e['reason'] != 'exitsyscall' and not (src == 'runnext' and fp == p):
                self.schedtick[p] += 1


def replay(trace, upto):
    """State after the records with index <= upto."""
    s = State(trace['config']['procs'])
    for e in trace['events'][:upto + 1]:
        s.apply(e)
    return s


def record_at(events, t):
    """Index of the last record at or before time t."""
    i = -1
    for k, e in enumerate(events):
        if e['t'] > t:
            break
        i = k
    return i


# ---- the page ----

def data_blocks(text):
    out = {}
    for name in ('gosim-meta', 'gosim-events', 'gosim-end'):
        m = re.search(r'<script type="application/json" id="%s">(.*?)</script>' % name, text, re.S)
        if not m:
            fail('no %s block' % name)
            return None
        out[name] = json.loads(m.group(1))
    return out


def check_self_contained(path, text):
    for pat in (r'https?:', r'\bsrc\s*=', r'\bhref\s*=', r'url\(', r'@import', r'<link\b', r'<iframe\b',
                r'\bfetch\(', r'XMLHttpRequest', r'<img\b'):
        m = re.search(pat, text, re.I)
        if m:
            fail('%s refers outside itself: %r at byte %d' % (path, m.group(0), m.start()))


# The fields the page embeds under the JSON trace's own names.
CORE = {'t', 'seq', 'ev', 'g', 'p', 'm', 'from', 'to', 'from_p', 'reason', 'victim', 'n', 'runnext', 'from_m',
        'ran_us', 'by_m', 'by_p', 'rule', 'rule_n'}


def check_records(wl, trace, blocks):
    """The embedded records are the JSON trace's, field for field."""
    meta, recs, end = blocks['gosim-meta'], blocks['gosim-events'], blocks['gosim-end']
    names = meta['names']
    events = trace['events']
    if end['kept'] != len(events) or end['total'] != len(events) or len(recs) != len(events):
        fail('%s: page keeps %d of %d records, trace has %d' % (wl, end['kept'], end['total'], len(events)))
        return
    if end['summary'] != trace['summary']:
        fail('%s: summary differs' % wl)
    if meta['config'] != trace['config']:
        fail('%s: config differs' % wl)
    tables = {'g': 'place', 'm': 'mstate', 'p': 'pstate', 'cpu': 'cpustate'}
    for i, (r, e) in enumerate(zip(recs, events)):
        kind = names['ev'][r[1]]
        got = dict(zip(meta['fields'][kind], r))
        got['ev'] = kind
        got.setdefault('seq', i)
        for f in ('from', 'to'):
            if f in got:
                got[f] = names[tables[kind]][got[f]]
        if 'reason' in got:
            got['reason'] = names['reason'][got['reason']]
        if got.get('rule'):
            got['rule'] = names['rule'][got['rule']]
        for f, v in e.items():
            if f in CORE and got.get(f) != v:
                fail('%s: record %d field %s: page %r, trace %r' % (wl, i, f, got.get(f), v))
                return


class Cards(html.parser.HTMLParser):
    """The data- attributes of the P cards, the queues, the timeline and the
    body; the highlighted goroutines; the rule shown."""

    def __init__(self):
        super().__init__()
        self.ps, self.glob, self.body, self.hi, self.blocked, self.waits = {}, None, None, [], None, []
        self.timeline = None
        self.in_rule, self.rule = False, ''

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'body':
            self.body = a
        if 'data-p' in a and 'p' in (a.get('class') or '').split():
            self.ps[int(a['data-p'])] = a
        if a.get('id') == 'globrunq':
            self.glob = a
        if a.get('id') == 'blocked':
            self.blocked = a
        if 'data-wait' in a:
            self.waits.append(a['data-wait'])
        if a.get('id') == 'timeline':
            self.timeline = a
        if 'data-g' in a and 'hi' in (a.get('class') or '').split():
            self.hi.append(int(a['data-g']))
        self.in_rule = a.get('id') == 'event-rule'

    def handle_data(self, data):
        if self.in_rule:
            self.rule += data


def ids(s):
    return [int(x) for x in s.split()] if s else []


def lanes(trace):
    """The timeline's lanes and slice counts: one slice per run on a P,
    one per system call on an M (the Ms in M id order)."""
    procs = trace['config']['procs']
    runs, calls = [0] * procs, {}
    for e in trace['events']:
        if e['ev'] == 'g' and e['to'] == 'running':
            runs[e['p']] += 1
        elif e['ev'] == 'g' and e['to'] == 'syscall':
            calls[e['m']] = calls.get(e['m'], 0) + 1
    ms = sorted(calls)
    return (' '.join(['P%d' % p for p in range(procs)] + ['M%d' % m for m in ms]),
            ' '.join(str(n) for n in runs + [calls[m] for m in ms]))


def rule_words(e):
    """--explain's rule of record e as the page words it."""
    if not e.get('rule'):
        return ''
    r = re.sub(r'\brule_n\b', str(e['rule_n']), e['rule'])
    return 'Rule: ' + re.sub(r'\bP from_p\b', 'P%d' % e.get('from_p', -1), r)


def compare(wl, moment, page, want, follow, tl, rule):
    where = '%s #%s' % (wl, moment)
    if not page.body or page.body.get('data-state') != 'ready':
        fail('%s: page not ready (state %r)' % (where, page.body and page.body.get('data-state')))
        return
    procs = len(want.pstatus)
    if sorted(page.ps) != list(range(procs)):
        fail('%s: cards for Ps %s, want 0..%d' % (where, sorted(page.ps), procs - 1))
        return
    for p in range(procs):
        c = page.ps[p]
        got = (c.get('data-status'), c.get('data-running'), c.get('data-runnext'), ids(c.get('data-runq')),
               c.get('data-schedtick'))
        exp = (want.pstatus[p], '' if want.running[p] is None else str(want.running[p]),
               '' if want.runnext[p] is None else str(want.runnext[p]), want.runq[p], str(want.schedtick[p]))
        if got != exp:
            fail('%s: P%d card %r, trace says %r' % (where, p, got, exp))
    if page.glob is None or ids(page.glob.get('data-globrunq')) != want.globrunq:
        fail('%s: global queue %r, trace says %r' % (where, page.glob and page.glob.get('data-globrunq'),
                                                    want.globrunq))
    if page.blocked is None or ids(page.blocked.get('data-blocked')) != sorted(want.waiting):
        fail('%s: blocked %r, trace says %r' % (where, page.blocked and page.blocked.get('data-blocked'),
                                               sorted(want.waiting)))
    got = page.timeline and (page.timeline.get('data-lanes'), page.timeline.get('data-slices'))
    if got != tl:
        fail('%s: timeline lanes and slices %r, trace says %r' % (where, got, tl))
    if page.rule != rule:
        fail('%s: the rule shown %r, the record has %r' % (where, page.rule, rule))
    if follow is not None and (not page.hi or set(page.hi) != {follow}):
        fail('%s: highlighted %r, want only G%d' % (where, page.hi, follow))


def moments(trace):
    """A few moments worth looking at: the first steal, spill, handoff or
    preemption; a record from the middle on, by its seq (inside an instant);
    three quarters in, following a running goroutine."""
    ev = trace['events']
    out = []
    for kind in ('steal', 'spill', 'handoff', 'preempt'):
        k = next((i for i, e in enumerate(ev) if e['ev'] == kind), None)
        if k is not None:
            out.append(('t=%d' % ev[k]['t'], record_at(ev, ev[k]['t'])))
            break
    mid = len(ev) // 2  # the first record from the middle on that names a rule (--explain), if any
    mid = next((k for k in range(mid, len(ev)) if ev[k].get('rule')), mid)
    out.append(('e=%d' % mid, mid))
    t = ev[-1]['t'] * 3 // 4
    k = record_at(ev, t)
    g = next((x for x in replay(trace, k).running if x is not None), None)
    out.append(('t=%d&g=%d' % (t, g) if g else 't=%d' % t, k))
    return out


CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
                '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
                '--hide-scrollbars', '--enable-logging=stderr', '--v=0']


def chromium(browser, args, url, budget_ms=5000):
    profile = tempfile.mkdtemp(prefix='gosim-chromium-')
    try:
        r = subprocess.run([browser] + CHROME_FLAGS + ['--virtual-time-budget=%d' % budget_ms,
                                                       '--user-data-dir=' + profile] + args + [url],
                           capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    errs = [l for l in r.stderr.splitlines() if 'Uncaught' in l or 'CONSOLE' in l and 'rror' in l]
    return r.stdout, errs


def check_schedtick(gosim, wl, out):
    """The replay's schedtick against the simulator's own counter:
    scheddetail's P lines, and the records of the same run (in the runtime
    model schedtrace's writes delay sysmon's next sleep, so a run with
    --schedtrace is not the run without it). A SCHED line labelled X ms is
    printed at a sysmon pass in [X, X+1) ms after the first pass, which
    comes within 0.5 ms of the start (one 20us sleep and its overshoot), so
    each P's printed schedtick must lie between the replay's at X ms and at
    X+1.5 ms."""
    path = os.path.join(out, os.path.basename(wl) + '.sched.json')
    err = subprocess.run([gosim, '-w', wl, '-q', '--schedtrace=1', '--scheddetail', '--trace', path],
                         capture_output=True, text=True).stderr
    with open(path) as f:
        trace = json.load(f)
    lines = re.split(r'^SCHED ', err, flags=re.M)[1:]
    want = {int(re.match(r'(\d+)ms', b).group(1)):
            {int(p): int(t) for p, t in re.findall(r'^  P(\d+): status=\d+ schedtick=(\d+)', b, re.M)}
            for b in lines}
    s, ev, k, at, hi = State(trace['config']['procs']), trace['events'], 0, {}, {}
    for ms in range(0, max(want, default=-1) + 2):
        while k < len(ev) and ev[k]['t'] < ms * 1000:
            s.apply(ev[k])
            k += 1
        at[ms] = list(s.schedtick)
        while k < len(ev) and ev[k]['t'] < ms * 1000 + 500:
            s.apply(ev[k])
            k += 1
        hi[ms - 1] = list(s.schedtick)
    if not want:
        fail('%s: no SCHED lines' % wl)
    for ms, ticks in want.items():
        for p, t in ticks.items():
            if not at[ms][p] <= t <= hi[ms][p]:
                fail('%s: SCHED %dms P%d schedtick=%d, the records give %d..%d' % (wl, ms, p, t, at[ms][p],
                                                                                hi[ms][p]))


# Network waits: goroutines parked in IO wait come back through netpoll.
NET_WORKLOAD = {
    'name': 'net', 'procs': 2, 'main': [{'repeat': 4, 'body': [{'go': 'h'}]}, {'net': '3ms'}],
    'funcs': {'h': [{'net': '1ms'}, {'run': '200us'}, {'net': '2ms'}, {'run': '100us'}]},
}

HOSTILE = '</script><!--<script>'
HOSTILE_WORKLOAD = {
    'name': 'names' + HOSTILE, 'procs': 2, 'chans': {'c' + HOSTILE: 0},
    'main': [{'go': 'f' + HOSTILE}, {'recv': 'c' + HOSTILE}],
    'funcs': {'f' + HOSTILE: [{'run': '1ms'}, {'send': 'c' + HOSTILE}]},
}


def check_hostile_names(gosim, out, browser):
    """Names that would end or derail a script block stay data: the page
    loads, and shows them as text."""
    wpath, hpath = os.path.join(out, 'names.json'), os.path.join(out, 'names.html')
    with open(wpath, 'w') as f:
        json.dump(HOSTILE_WORKLOAD, f)
    subprocess.run([gosim, '-w', wpath, '-q', '--trace', hpath], check=True)
    with open(hpath, encoding='utf-8') as f:
        text = f.read()
    check_self_contained(hpath, text)
    blocks = data_blocks(text)
    if blocks and blocks['gosim-meta']['chans'] != ['c' + HOSTILE]:
        fail('names: chans %r' % blocks['gosim-meta']['chans'])
    if not browser:
        return
    dom, errs = chromium(browser, ['--dump-dom'], 'file://' + os.path.abspath(hpath) + '#t=500')
    page = Cards()
    page.feed(dom)
    if errs or not page.body or page.body.get('data-state') != 'ready':
        fail('names: page not ready: %r' % errs)
    elif page.waits != ['chan receive: c' + HOSTILE]:
        fail('names: blocked groups %r, want the channel by name' % page.waits)


def check_play(browser, path):
    """#play=SPEED starts playing: after 3 s of the browser's virtual time
    at 1 ms per second, the moment is about 3 ms in (play steps on a timer,
    which virtual time drives)."""
    dom, errs = chromium(browser, ['--dump-dom'], 'file://' + os.path.abspath(path) + '#t=0&play=1000', 3000)
    page = Cards()
    page.feed(dom)
    t = page.body and page.body.get('data-t')
    if errs or not t or not 1500 <= float(t) <= 3600:
        fail('play: the moment is at %r after 3 s at 1 ms/s, want about 3000 (%r)' % (t, errs))


def check_cap(gosim, out):
    """A run past the cap: the page keeps the first HTML_MAX_EVENTS records
    (trace/html.c), counts the rest, and the summary still comes."""
    path = os.path.join(out, 'cap.html')
    subprocess.run([gosim, '-w', 'fanout', '-D', 'n=350000', '-q', '--trace', path], check=True)
    with open(path, 'rb') as f:
        data = f.read()
    os.unlink(path)
    k = data.rfind(b'<script type="application/json" id="gosim-end">')
    m = re.match(rb'<script type="application/json" id="gosim-end">(.*?)</script>', data[k:], re.S) if k >= 0 else None
    if not m:
        fail('cap: no gosim-end block')
        return
    end = json.loads(m.group(1))
    a = data.index(b'id="gosim-events">[') + len(b'id="gosim-events">[')
    b = data.index(b']</script>', a)
    records = data.count(b'\n[', a, b) + 1
    if end['cap'] != 2000000 or end['kept'] != end['cap'] or records != end['cap']:
        fail('cap: kept %d, cap %d, %d records in the page' % (end['kept'], end['cap'], records))
    if not end['summary'] or end['total'] != end['summary']['events'] or end['total'] <= end['cap']:
        fail('cap: total %d, summary %r' % (end['total'], end['summary'] and end['summary']['events']))


def main():
    gosim, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    browser = shutil.which('chromium') or shutil.which('chromium-browser')
    if not browser:
        print('html: chromium not installed (tools/setup.sh installs it): browser checks skipped')
    jobs = []
    listing = subprocess.run([gosim, '--list-workloads'], capture_output=True, text=True, check=True).stdout
    workloads = re.findall(r'^(\S+) \(procs', listing, re.M)
    if len(workloads) < 4:
        fail('only %r in gosim --list-workloads' % workloads)
    net = os.path.join(out, 'net-workload.json')
    with open(net, 'w') as f:
        json.dump(NET_WORKLOAD, f)
    workloads.append('net')
    workloads.append('fanout-cpus')  # --cpus below --procs: the ev=cpu records
    extra = {'net': ['-w', net], 'fanout-cpus': ['-w', 'fanout', '-p', '4', '--cpus=2']}
    for wl in workloads:
        jpath, hpath = os.path.join(out, wl + '.json'), os.path.join(out, wl + '.html')
        for path in (jpath, hpath):
            subprocess.run([gosim] + extra.get(wl, ['-w', wl]) + ['-q', '--explain', '--trace', path],
                           check=True)
        with open(jpath) as f:
            trace = json.load(f)
        with open(hpath, encoding='utf-8') as f:
            text = f.read()
        check_self_contained(hpath, text)
        if wl != 'fanout-cpus':  # its scheddetail run would need the same --cpus
            check_schedtick(gosim, net if wl == 'net' else wl, out)
        blocks = data_blocks(text)
        if blocks:
            check_records(wl, trace, blocks)
        url = 'file://' + os.path.abspath(hpath)
        for moment, upto in moments(trace):
            follow = re.search(r'g=(\d+)', moment)
            jobs.append((wl, moment, url, replay(trace, upto), int(follow.group(1)) if follow else None,
                         lanes(trace), rule_words(trace['events'][upto]) if upto >= 0 else ''))
        if wl == 'syscalls':  # one screenshot: the README's workload
            jobs.append((wl, None, url, None, None, None, None))
    check_cap(gosim, out)
    check_hostile_names(gosim, out, browser)
    if browser:
        def run(job):
            wl, moment, url, want, follow, tl, rule = job
            if moment is None:
                png = os.path.join(out, wl + '.png')
                _, errs = chromium(browser, ['--window-size=1200,800', '--screenshot=' + png], url)
                if not os.path.exists(png) or os.path.getsize(png) < 10000:
                    fail('%s: no screenshot' % wl)
                return job, None, errs
            dom, errs = chromium(browser, ['--dump-dom'], url + '#' + moment)
            page = Cards()
            page.feed(dom)
            return job, page, errs

        with ThreadPoolExecutor(2) as pool:
            for (wl, moment, url, want, follow, tl, rule), page, errs in pool.map(run, jobs):
                for e in errs:
                    fail('%s: browser console: %s' % (wl, e))
                if page is not None:
                    compare(wl, moment, page, want, follow, tl, rule)
        check_play(browser, os.path.join(out, 'fanout.html'))
        checked = sum(1 for j in jobs if j[1])
        print('html: %d pages, %d moments checked in %s, screenshot in %s' % (len(workloads), checked, browser, out))
    if FAILS:
        sys.exit(1)
    print('html: ok')


if __name__ == '__main__':
    main()
