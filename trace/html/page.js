/* page.js: gosim's replay page (trace/html.c embeds it with the run's records).
 *
 * The run arrives as three JSON blocks in the page: gosim-meta (config, the
 * name tables, the fields of each record kind, function and channel names),
 * gosim-events (one array per record, the fields its kind lists in
 * meta.fields) and gosim-end (how many records were kept of how many, the
 * summary). Nothing is fetched: the page works from disk, offline.
 *
 * The moment shown is a cursor on the records: "after record i". The state
 * there is rebuilt from the nearest snapshot (one every K records) by
 * replaying at most K records. Queues are append logs with each entry's
 * push and removal record, so a snapshot stores only each queue's head, tail
 * and length, never its contents: memory is O(records), not O(records x
 * queue length). The timeline is drawn on a canvas, at most one slice per
 * pixel column per lane. */
'use strict';
(function () {
const NOW = () => performance.now();
const tStart = NOW();
const $ = (id) => document.getElementById(id);
const timings = {};

const meta = JSON.parse($('gosim-meta').textContent);
const recs = JSON.parse($('gosim-events').textContent);
const end = JSON.parse($('gosim-end').textContent);
timings.parse_ms = NOW() - tStart;
/* The text is in the columns below from here on: drop it from the DOM
 * (tens of MB for a big run). */
$('gosim-events').textContent = '';

const names = meta.names;
const NP = meta.procs;
const N = recs.length;
const evIndex = (n) => names.ev.indexOf(n);
const EV_G = evIndex('g'), EV_STEAL = evIndex('steal'), EV_SPILL = evIndex('spill'),
	EV_HANDOFF = evIndex('handoff'), EV_PREEMPT = evIndex('preempt'), EV_M = evIndex('m'),
	EV_P = evIndex('p');
const PL = {};
names.place.forEach((n, i) => { PL[n] = i; });
const RS = {};
names.reason.forEach((n, i) => { RS[n] = i; });
const MS = {};
names.mstate.forEach((n, i) => { MS[n] = i; });
const PS = {};
names.pstate.forEach((n, i) => { PS[n] = i; });

/* ---- strings: function, channel and rule names, interned ---- */
const strs = [], strIndex = new Map();
function intern(s) {
	if (typeof s !== 'string')
		return -1;
	let i = strIndex.get(s);
	if (i === undefined) {
		i = strs.length;
		strs.push(s);
		strIndex.set(s, i);
	}
	return i;
}
/* A string field may be a string or an index into one of meta's tables. */
function strField(v, table) {
	if (typeof v === 'number')
		return table && v >= 0 && v < table.length ? intern(table[v]) : -1;
	return intern(v);
}

/* ---- decode the records into columns ---- */
const T = new Float64Array(N), EV = new Uint8Array(N), G = new Int32Array(N), P = new Int32Array(N),
	M = new Int32Array(N), FR = new Uint8Array(N), TO = new Uint8Array(N), A = new Int32Array(N),
	B = new Int32Array(N), C = new Float64Array(N);
const FUNC = new Int32Array(N).fill(-1), WAIT = new Int32Array(N).fill(-1), RULE = new Int32Array(N).fill(-1);
const WR = new Uint8Array(N), BYM = new Int32Array(N), BYP = new Int32Array(N), RULEN = new Int32Array(N);
const COL = { t: T, g: G, p: P, m: M, from_p: A, victim: A, from_m: A, n: B, runnext: C, ran_us: C, wait: WR,
	by_m: BYM, by_p: BYP, rule_n: RULEN };
const FUNC_FIELDS = ['func', 'fn'], WAIT_FIELDS = ['chan', 'obj', 'object'],
	RULE_FIELDS = ['explain', 'rule', 'why'];
const extra = {}; /* other fields, by name: sparse arrays */
const layouts = names.ev.map((k) => {
	const f = (meta.fields && meta.fields[k]) || [];
	return f.map((name) => {
		if (name === 'ev')
			return null;
		if (name === 'from')
			return (j, v) => { FR[j] = v; };
		if (name === 'to')
			return (j, v) => { TO[j] = v; };
		if (name === 'reason')
			return (j, v) => { B[j] = v; };
		if (COL[name]) {
			const col = COL[name];
			return (j, v) => { col[j] = v; };
		}
		if (FUNC_FIELDS.includes(name))
			return (j, v) => { FUNC[j] = strField(v, meta.funcs); };
		if (WAIT_FIELDS.includes(name))
			return (j, v) => { WAIT[j] = strField(v, meta.chans); };
		if (RULE_FIELDS.includes(name)) /* an index into names.rule (0: none) or the text */
			return (j, v) => { RULE[j] = v === 0 || v === '' ? -1 : strField(v, names.rule); };
		const col = extra[name] || (extra[name] = []);
		return (j, v) => { col[j] = v; };
	});
});
let maxG = 0, maxM = 0;
for (let j = 0; j < N; j++) {
	const r = recs[j], k = r[1], lay = layouts[k];
	EV[j] = k;
	P[j] = M[j] = G[j] = A[j] = BYM[j] = BYP[j] = -1;
	if (lay)
		for (let f = 0; f < lay.length && f < r.length; f++)
			if (lay[f])
				lay[f](j, r[f]);
	if (G[j] > maxG)
		maxG = G[j];
	if (M[j] > maxM)
		maxM = M[j];
	if (A[j] > maxM && k === EV_HANDOFF)
		maxM = A[j];
}
recs.length = 0; /* the columns hold everything now */
const NG = maxG + 1, NM = maxM + 1;
const tEnd = N ? T[N - 1] : 0;

/* ---- the replay: state after the first `applied` records ---- */
const K = Math.max(256, Math.min(4096, Math.ceil(N / 512)));
const st = {
	pStatus: new Int32Array(NP), pM: new Int32Array(NP).fill(-1), pRun: new Int32Array(NP).fill(-1),
	pNext: new Int32Array(NP).fill(-1), pTick: new Int32Array(NP),
	mState: new Int32Array(NM).fill(-1), mP: new Int32Array(NM).fill(-1), mG: new Int32Array(NM).fill(-1),
	nM: 0, qHead: [], qTail: [], qLen: [], applied: 0,
};
/* Queues: 0 the global queue, 1+p P p's ring, then one per wait group. */
const qG = [], qPush = [], qRem = [], qName = [];
function newQueue(name) {
	qG.push([]); qPush.push([]); qRem.push([]); qName.push(name);
	st.qHead.push(0); st.qTail.push(0); st.qLen.push(0);
	return qG.length - 1;
}
newQueue('global');
for (let p = 0; p < NP; p++)
	newQueue('P' + p);
const waitQueue = new Map();
const LQ = new Int32Array(N).fill(-1), EQ = new Int32Array(N).fill(-1); /* queue left, entered */
const gFunc = new Int32Array(NG).fill(-1);

/* Lanes: one per P, one per M that ever made a system call. */
const lanes = [];
for (let p = 0; p < NP; p++)
	lanes.push({ name: 'P' + p, t0: [], t1: [], g: [], mk: [], mkT: [], mkJ: [] });
const mLane = new Int32Array(NM).fill(-1);
function laneOfM(m) {
	if (mLane[m] < 0) {
		mLane[m] = lanes.length;
		lanes.push({ name: 'M' + m + ' syscall', m, t0: [], t1: [], g: [], mk: [], mkT: [], mkJ: [] });
	}
	return mLane[m];
}

/* The group a parked G is shown in: its wait reason and object
 * ("chan receive: pong"), else the reason it moved, else its place. */
function placeOfWait(j) {
	const why = (names.wait && names.wait[WR[j]]) || '';
	if (WAIT[j] >= 0)
		return (why || 'waiting') + ': ' + strs[WAIT[j]];
	if (why)
		return why;
	const pl = names.place[TO[j]];
	return pl === 'waiting' ? (names.reason[B[j]] || 'waiting') : pl;
}

/* A place that is a wait: not a queue of the scheduler's, not a slot,
 * not running (waiting, and whatever place a later gosim adds). */
function isWait(pl) {
	return pl !== PL.new && pl !== PL.runnext && pl !== PL.local && pl !== PL.global && pl !== PL.running &&
		pl !== PL.syscall && pl !== PL.dead;
}

/* The index pass: the one walk that fills the queue logs, lanes and
 * snapshots. Later walks (rebuild) only move heads, tails and counters. */
function buildIndex() {
	const ix = { gQ: new Int32Array(NG).fill(-1), gE: new Int32Array(NG), gLane: new Int32Array(NG).fill(-1),
		gStart: new Float64Array(NG) };
	const snaps = [];
	for (let j = 0; j < N; j++) {
		if (j % K === 0)
			snaps.push(snapshot());
		const ev = EV[j];
		if (ev === EV_G)
			indexG(ix, j);
		else if ((ev === EV_STEAL || ev === EV_SPILL || ev === EV_HANDOFF || ev === EV_PREEMPT) && P[j] >= 0 &&
			 P[j] < NP) {
			const L = lanes[P[j]];
			L.mk.push(ev); L.mkT.push(T[j]); L.mkJ.push(j);
		}
		apply(j);
	}
	for (let g = 0; g < NG; g++)
		if (ix.gLane[g] >= 0)
			addSlice(ix.gLane[g], ix.gStart[g], tEnd, g);
	if (N % K === 0)
		snaps.push(snapshot());
	for (let q = 0; q < qG.length; q++) {
		qG[q] = Int32Array.from(qG[q]); qPush[q] = Int32Array.from(qPush[q]); qRem[q] = Int32Array.from(qRem[q]);
	}
	for (const L of lanes) {
		L.t0 = Float64Array.from(L.t0); L.t1 = Float64Array.from(L.t1); L.g = Int32Array.from(L.g);
		L.mkT = Float64Array.from(L.mkT);
	}
	return snaps;
}

function addSlice(lane, t0, t1, g) {
	lanes[lane].t0.push(t0);
	lanes[lane].t1.push(t1);
	lanes[lane].g.push(g);
}

/* A g record in the index pass: close the slice it ends, log its leaving
 * one queue (LQ) and entering another (EQ), open the slice it starts. */
function indexG(ix, j) {
	const g = G[j], from = FR[j], to = TO[j];
	if (FUNC[j] >= 0)
		gFunc[g] = FUNC[j];
	if ((from === PL.running || from === PL.syscall) && ix.gLane[g] >= 0) {
		addSlice(ix.gLane[g], ix.gStart[g], T[j], g);
		ix.gLane[g] = -1;
	}
	let q = from === PL.local ? 1 + A[j] : from === PL.global ? 0 : isWait(from) ? ix.gQ[g] : -1;
	if (q >= 0) {
		LQ[j] = q;
		qRem[q][ix.gE[g]] = j;
		ix.gQ[g] = -1;
	}
	q = to === PL.local ? 1 + P[j] : to === PL.global ? 0 : isWait(to) ? waitGroup(placeOfWait(j)) : -1;
	if (q >= 0) {
		EQ[j] = q;
		ix.gQ[g] = q;
		ix.gE[g] = qG[q].length;
		qG[q].push(g); qPush[q].push(j); qRem[q].push(N);
	}
	if (to === PL.running || (to === PL.syscall && M[j] >= 0)) {
		ix.gLane[g] = to === PL.running ? P[j] : laneOfM(M[j]);
		ix.gStart[g] = T[j];
	}
}

/* The queue of one wait group, made on first use. */
function waitGroup(key) {
	let q = waitQueue.get(key);
	if (q === undefined) {
		q = newQueue(key);
		waitQueue.set(key, q);
	}
	return q;
}

function snapshot() {
	return {
		p: [st.pStatus.slice(), st.pM.slice(), st.pRun.slice(), st.pNext.slice(), st.pTick.slice()],
		m: [st.mState.slice(0, st.nM), st.mP.slice(0, st.nM), st.mG.slice(0, st.nM)], nM: st.nM,
		q: [Int32Array.from(st.qHead), Int32Array.from(st.qTail), Int32Array.from(st.qLen)],
	};
}

function restore(s, k) {
	st.pStatus.set(s.p[0]); st.pM.set(s.p[1]); st.pRun.set(s.p[2]); st.pNext.set(s.p[3]); st.pTick.set(s.p[4]);
	st.mState.fill(-1); st.mP.fill(-1); st.mG.fill(-1);
	st.mState.set(s.m[0]); st.mP.set(s.m[1]); st.mG.set(s.m[2]);
	st.nM = s.nM;
	for (let q = 0; q < st.qHead.length; q++) {
		const have = q < s.q[0].length;
		st.qHead[q] = have ? s.q[0][q] : 0;
		st.qTail[q] = have ? s.q[1][q] : 0;
		st.qLen[q] = have ? s.q[2][q] : 0;
	}
	st.applied = k;
}

/* One record's effect on the state (both walks). */
function apply(j) {
	const ev = EV[j];
	if (ev === EV_G) {
		const g = G[j], from = FR[j], to = TO[j], fp = A[j], p = P[j];
		if (from === PL.runnext && fp >= 0 && st.pNext[fp] === g)
			st.pNext[fp] = -1;
		else if (from === PL.running && fp >= 0 && st.pRun[fp] === g)
			st.pRun[fp] = -1;
		const lq = LQ[j];
		if (lq >= 0) {
			st.qLen[lq]--;
			const rem = qRem[lq], tail = st.qTail[lq];
			let h = st.qHead[lq];
			while (h < tail && rem[h] <= j)
				h++;
			st.qHead[lq] = h;
		}
		const eq = EQ[j];
		if (eq >= 0) {
			st.qTail[eq]++;
			st.qLen[eq]++;
			if (st.qLen[eq] === 1)
				st.qHead[eq] = st.qTail[eq] - 1;
		}
		if (to === PL.runnext && p >= 0)
			st.pNext[p] = g;
		else if (to === PL.running && p >= 0) {
			st.pRun[p] = g;
			/* execute(): schedtick++ unless the G inherits the slice (taken
			 * from this P's runnext); exitsyscall's fast path keeps it. */
			if (B[j] !== RS.exitsyscall && !(from === PL.runnext && fp === p))
				st.pTick[p]++;
		}
	} else if (ev === EV_M) {
		const m = M[j];
		st.mState[m] = TO[j];
		st.mP[m] = P[j];
		st.mG[m] = G[j];
		if (m >= st.nM)
			st.nM = m + 1;
	} else if (ev === EV_P) {
		st.pStatus[P[j]] = TO[j];
		st.pM[P[j]] = M[j];
	}
	st.applied = j + 1;
}

const tIndex0 = NOW();
const snaps = buildIndex();
timings.index_ms = NOW() - tIndex0;
timings.records = N;
timings.snapshot_every = K;

/* State after record i (i = -1: before any). */
function seek(i) {
	const target = i + 1;
	if (target < st.applied || target - st.applied > K) {
		const k = Math.min(Math.floor(target / K), snaps.length - 1);
		restore(snaps[k], k * K);
	}
	while (st.applied < target)
		apply(st.applied);
}

/* The G ids in queue q now, in order: at most max of them. */
function queueList(q, max) {
	const out = [], rem = qRem[q], gs = qG[q], tail = st.qTail[q], at = st.applied - 1;
	for (let e = st.qHead[q]; e < tail && out.length < max; e++)
		if (rem[e] > at)
			out.push(gs[e]);
	return out;
}

/* ---- time and records ---- */
/* The last record at or before time t (-1 if none). */
function recordAt(t) {
	let lo = 0, hi = N;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (T[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}
function fmtT(us) {
	if (Math.abs(us) < 1000)
		return us + ' µs';
	if (Math.abs(us) < 1e6)
		return +(us / 1000).toFixed(3) + ' ms';
	return +(us / 1e6).toFixed(4) + ' s';
}
const grp = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/* ---- words ---- */
const funcName = (g) => (gFunc[g] >= 0 ? strs[gFunc[g]] : g === 1 ? 'main' : '');
const gName = (g) => { const f = funcName(g); return 'G' + g + (f ? ' (' + f + ')' : ''); };
function placeWords(pl, p, m, j) {
	switch (names.place[pl]) {
	case 'runnext': return "P" + p + "'s runnext";
	case 'local': return "P" + p + "'s local queue";
	case 'global': return 'the global queue';
	case 'running': return 'running on P' + p + (m >= 0 ? ' (M' + m + ')' : '');
	case 'syscall': return 'a system call' + (m >= 0 ? ' on M' + m : '');
	case 'waiting': return 'waiting (' + (j >= 0 ? placeOfWait(j) : '?') + ')';
	default: return names.place[pl] || '?';
	}
}
function describeG(j) {
	const g = gName(G[j]), from = names.place[FR[j]], to = names.place[TO[j]], r = names.reason[B[j]];
	const p = P[j], fp = A[j], m = M[j];
	const fromW = placeWords(FR[j], fp, -1, -1), toW = placeWords(TO[j], p, m, j);
	switch (r) {
	case 'go': return g + ' created by a go statement, put in ' + toW;
	case 'kick': return g + " pushed out of P" + fp + "'s runnext to the tail of its local queue by a newer goroutine";
	case 'spill': return g + ' moved from ' + fromW + ' to the global queue (P' + fp + "'s ring was full)";
	case 'steal': {
		const pass = RULE[j] >= 0 && RULEN[j] > 0 ? ' (pass ' + RULEN[j] + ')' : '';
		return to === 'running' ? 'P' + p + ' stole ' + g + ' from ' + fromW + ' and runs it' + pass
			: 'P' + p + ' stole ' + g + ' from ' + fromW + pass;
	}
	case 'globrunqget':
		return to === 'running' ? 'P' + p + ' took ' + g + ' from the global queue and runs it'
			: 'P' + p + ' took ' + g + ' from the global queue into its local queue (a batch)';
	case 'schedule':
		if (from === 'global')
			return 'P' + p + ' (M' + m + ') picked ' + g + ' from the global queue' +
				(st.pTick[p] % 61 === 0 ? ' (every 61st schedtick)' : '');
		return 'P' + p + ' (M' + m + ') picked ' + g + ' from ' + fromW +
			(from === 'runnext' && fp === p ? ' (it inherits the time slice)' : '');
	case 'preempt': return g + ' preempted on P' + fp + ', put at the back of ' + toW;
	case 'gosched': return g + ' yielded (Gosched) on P' + fp + ', to ' + toW;
	case 'chan':
		return to === 'waiting' ? g + ' blocked: ' + toW.replace(/^waiting \((.*)\)$/, 'on $1')
			: g + ' woken by a channel operation, put in ' + toW;
	case 'syscall': return g + ' entered a system call on M' + m + '; P' + fp + ' stays with it, in syscall state';
	case 'exitsyscall':
		return to === 'running' ? g + ' returned from its system call and runs on P' + p + ' (M' + m + ')'
			: g + ' returned from its system call, found no P and went to ' + toW + '; its M sleeps';
	case 'exit': return g + ' finished';
	case 'sleep': return g + ' went to sleep (a timer will wake it)';
	case 'timer': return g + "'s timer fired: woken, put in " + toW;
	default:
		if (to === 'waiting')
			return g + ' parked: ' + placeOfWait(j) + (r && r !== placeOfWait(j) ? ' (' + r + ')' : '');
		if (from === 'waiting')
			return g + ' woken' + (r ? ' (' + r + ')' : '') + ', put in ' + toW;
		return g + ': ' + fromW + ' → ' + toW + (r ? ' (' + r + ')' : '');
	}
}
/* --explain's rule, with the numbers it names filled in. */
function ruleWords(j) {
	return strs[RULE[j]].replace(/\brule_n\b/g, RULEN[j]).replace(/\bP from_p\b/g, 'P' + A[j])
		.replace(/\bfrom_p\b/g, A[j]);
}
function stateName(j, v) {
	return (EV[j] === EV_M ? names.mstate : names.pstate)[v] || '?';
}
function describe(j) {
	if (j < 0)
		return 'Before the first record.';
	const ev = EV[j], p = P[j], m = M[j];
	if (ev === EV_G)
		return describeG(j);
	if (ev === EV_STEAL) {
		const n = B[j];
		const pass = RULE[j] >= 0 && RULEN[j] > 0 ? ' (pass ' + RULEN[j] + ')' : '';
		return 'P' + p + ' stole ' + n + ' goroutine' + (n === 1 ? '' : 's') + ' from P' + A[j] + "'s local queue" +
			(C[j] ? ' (including its runnext)' : '') + pass;
	}
	if (ev === EV_SPILL)
		return 'P' + p + "'s local queue was full: " + B[j] + ' goroutines (the oldest half and the new one) move to the global queue';
	if (ev === EV_HANDOFF)
		return 'sysmon retook P' + p + ' from M' + A[j] + ', blocked in a system call, and handed it to M' + m;
	if (ev === EV_PREEMPT)
		return 'sysmon preempted ' + gName(G[j]) + ' on P' + p + ' (M' + m + '): its time slice had lasted ' + grp(C[j]) + ' µs';
	if (ev === EV_M) {
		const from = stateName(j, FR[j]), to = stateName(j, TO[j]);
		if (from === 'new' && to === 'new')
			return 'M' + m + ' created' + (m === 1 ? ' (sysmon)' : m === 0 ? ' (the main thread)' : '');
		return 'M' + m + ': ' + from + ' → ' + to + (p >= 0 ? ' with P' + p : '') + (G[j] >= 0 ? ', G' + G[j] : '');
	}
	if (names.ev[ev] === 'cpu')
		return 'M' + m + ' CPU: ' + (names.cpustate[FR[j]] || '?') + ' → ' + (names.cpustate[TO[j]] || '?') +
			(G[j] >= 0 ? ', G' + G[j] + (TO[j] === names.cpustate.indexOf('wait') ? ' stalls' : ' goes on') : '');
	if (ev === EV_P)
		return 'P' + p + ': ' + stateName(j, FR[j]) + ' → ' + stateName(j, TO[j]) + (m >= 0 ? ' on M' + m : '');
	return (names.ev[ev] || 'record') + ' on P' + p;
}

/* ---- colours: by function (by G when the trace names no functions) ---- */
const hue = (i) => (i * 137.508) % 360;
function gColour(g) {
	const f = gFunc[g];
	/* the function's hue; the goroutine's shade, so that neighbours differ */
	return f >= 0 ? 'hsl(' + hue(f + 1) + ',55%,' + (34 + (g * 7) % 20) + '%)' : 'hsl(' + hue(g) + ',50%,45%)';
}

/* ---- view state ---- */
let cursor = -1, moment = 0, follow = -1, playing = false, playT = 0, lastFrame = 0;
let viewT0 = 0, viewT1 = Math.max(1, tEnd);

/* ---- cards ---- */
function chip(g, big) {
	if (g < 0)
		return '<span class="none">—</span>';
	const f = funcName(g);
	return '<span class="g' + (big ? ' big' : '') + (g === follow ? ' hi' : '') + '" data-g="' + g +
		'" style="background:' + gColour(g) + '" title="' + esc(gName(g)) + '">G' + g +
		(big && f ? ' ' + esc(f) : '') + '</span>';
}
function chips(list, total, show) {
	if (!total)
		return '<span class="none">empty</span>';
	let h = '';
	for (let i = 0; i < list.length && i < show; i++)
		h += chip(list[i]);
	if (total > show)
		h += '<span class="more">+' + grp(total - show) + ' more (' + grp(total) + ')</span>';
	return h;
}
function esc(s) {
	return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
const RING_SHOW = 12, GLOB_SHOW = 24, GLOB_ATTR_MAX = 4096;
const pCards = [];
function buildCards() {
	const box = $('ps');
	for (let p = 0; p < NP; p++) {
		const d = document.createElement('div');
		d.className = 'p';
		d.dataset.p = p;
		box.appendChild(d);
		pCards.push(d);
	}
}
function renderCards() {
	for (let p = 0; p < NP; p++) {
		const d = pCards[p], status = names.pstate[st.pStatus[p]] || '?', run = st.pRun[p], next = st.pNext[p];
		const q = 1 + p, ring = queueList(q, 256), m = st.pM[p];
		d.dataset.status = status;
		d.dataset.running = run >= 0 ? run : '';
		d.dataset.runnext = next >= 0 ? next : '';
		d.dataset.runq = ring.join(' ');
		d.dataset.schedtick = st.pTick[p];
		d.innerHTML = '<h3>P' + p + ' <span class="st">' + status + (m >= 0 ? ' on M' + m : '') + '</span></h3>' +
			'<div class="row"><b>running</b>' + chip(run, true) + '</div>' +
			'<div class="row"><b>runnext</b>' + chip(next) + '</div>' +
			'<div class="row"><b>local ' + st.qLen[q] + '</b><div class="gs">' + chips(ring, st.qLen[q], RING_SHOW) + '</div></div>' +
			'<div class="row" title="runs begun on this P that did not inherit a time slice, counted from the records (execute: schedtick++)"><b>schedtick</b>' +
			st.pTick[p] + '</div>';
	}
}
function renderQueues() {
	const gl = queueList(0, GLOB_ATTR_MAX), n = st.qLen[0], box = $('globrunq');
	box.dataset.globrunq = gl.join(' ');
	box.dataset.len = n;
	$('globrunq-n').textContent = n + (n === 1 ? ' goroutine' : ' goroutines');
	box.innerHTML = chips(gl, n, GLOB_SHOW);
	let sys = '', idle = [], spin = [], running = [], other = [];
	for (let m = 0; m < st.nM; m++) {
		const s = names.mstate[st.mState[m]];
		if (s === 'syscall')
			sys += '<div class="row"><b>M' + m + ' syscall</b>' + chip(st.mG[m], true) + '</div>';
		else if (s === 'idle')
			idle.push('M' + m);
		else if (s === 'spinning')
			spin.push('M' + m + (st.mP[m] >= 0 ? ' (P' + st.mP[m] + ')' : ''));
		else if (s === 'running')
			running.push('M' + m + (st.mP[m] >= 0 ? '·P' + st.mP[m] : ''));
		else if (s && s !== 'new')
			other.push('M' + m + ' ' + s + (st.mG[m] >= 0 ? ' G' + st.mG[m] : ''));
	}
	const list = (a) => (a.length ? esc(a.join(', ')) : '<span class="none">none</span>');
	$('threads').textContent = st.nM + (st.nM === 1 ? ' M' : ' Ms') + ' (' + GOMAX + ')';
	$('ms').innerHTML = sys + '<div class="row"><b>running</b>' + list(running) + '</div>' +
		'<div class="row"><b>spinning</b>' + list(spin) + '</div>' +
		'<div class="row"><b>idle</b>' + list(idle) + '</div>' +
		(other.length ? '<div class="row"><b>other</b>' + list(other) + '</div>' : '') +
		(st.nM > 1 ? '<div class="row"><b>sysmon</b>M1 (no P)</div>' : '');
	let bl = '', nb = 0, all = [];
	for (const [key, q] of waitQueue) {
		const len = st.qLen[q];
		if (!len)
			continue;
		nb += len;
		const list = queueList(q, GLOB_ATTR_MAX);
		if (all.length < GLOB_ATTR_MAX)
			all.push(...list);
		bl += '<div class="row" data-wait="' + esc(key) + '" data-gs="' + list.join(' ') + '"><b>' + esc(key) +
			'</b><div class="gs">' + chips(list, len, 16) + '</div></div>';
	}
	const bx = $('blocked');
	bx.dataset.blocked = all.sort((x, y) => x - y).join(' ');
	bx.innerHTML = bl || '<span class="none">none</span>';
	$('blocked-n').textContent = nb ? nb + '' : '';
}
const GOMAX = 'GOMAXPROCS ' + NP;

/* ---- the followed goroutine ---- */
let gEvOff = null, gEvList = null;
function gEvents() {
	if (gEvOff)
		return;
	gEvOff = new Int32Array(NG + 1);
	for (let j = 0; j < N; j++)
		if (EV[j] === EV_G)
			gEvOff[G[j] + 1]++;
	for (let g = 0; g < NG; g++)
		gEvOff[g + 1] += gEvOff[g];
	gEvList = new Int32Array(gEvOff[NG]);
	const fill = gEvOff.slice(0, NG);
	for (let j = 0; j < N; j++)
		if (EV[j] === EV_G)
			gEvList[fill[G[j]]++] = j;
}
function renderFollow() {
	$('follow').hidden = follow < 0;
	$('g-box').hidden = follow < 0;
	if (follow < 0)
		return;
	gEvents();
	$('follow-g').textContent = gName(follow);
	$('g-title').textContent = gName(follow);
	const lo = gEvOff[follow], hi = gEvOff[follow + 1];
	let k = lo;
	while (k < hi && gEvList[k] <= cursor)
		k++;
	const last = k > lo ? gEvList[k - 1] : -1;
	let h = '<div>now: <b>' + (last < 0 ? 'not created yet' : esc(placeWords(TO[last], P[last], M[last], last))) + '</b></div>';
	for (let x = Math.max(lo, k - 6); x < Math.min(hi, k + 3); x++) {
		const j = gEvList[x];
		h += '<div class="gev' + (j === last ? ' cur' : '') + '" data-j="' + j + '">' + fmtT(T[j]) + ': ' + esc(describe(j)) + '</div>';
	}
	$('g-info').innerHTML = h;
}

/* ---- the event panel ---- */
function renderEvent() {
	$('event-text').textContent = describe(cursor);
	$('event-rule').textContent = cursor >= 0 && RULE[cursor] >= 0 ? 'Rule: ' + ruleWords(cursor) : '';
	let h = '';
	for (let j = Math.max(0, cursor - 2); j < Math.min(N, cursor + 4); j++)
		h += '<li data-j="' + j + '"' + (j === cursor ? ' class="cur"' : '') + '><span>' + fmtT(T[j]) + ' #' + j + '</span>' + esc(describe(j)) + '</li>';
	$('event-near').innerHTML = h;
	$('clock').textContent = 't = ' + fmtT(moment) + (cursor >= 0 && T[cursor] !== moment ? ' (last record at ' + fmtT(T[cursor]) + ')' : '') +
		' · record ' + grp(cursor + 1) + ' of ' + grp(N);
	const sc = $('scrub');
	if (document.activeElement !== sc)
		sc.value = moment;
}

/* ---- the timeline ---- */
const cv = $('timeline'), ctx = cv.getContext('2d');
const LANE_H = 16, TOP = 18, LEFT = 92;
/* P lanes, then syscall lanes by M id: at most MAX_M_LANES of those (the
 * Ms that spent longest in system calls), so that a run with thousands of
 * threads keeps a readable timeline; the legend says how many are left out. */
const MAX_M_LANES = 24;
const laneOrder = [];
let mLanesHidden = 0;
function sortLanes() {
	const ms = [];
	for (let L = NP; L < lanes.length; L++) {
		let busy = 0;
		for (let k = 0; k < lanes[L].t0.length; k++)
			busy += lanes[L].t1[k] - lanes[L].t0[k];
		ms.push([L, busy]);
	}
	ms.sort((a, b) => b[1] - a[1] || lanes[a[0]].m - lanes[b[0]].m);
	mLanesHidden = Math.max(0, ms.length - MAX_M_LANES);
	const shown = ms.slice(0, MAX_M_LANES).map((x) => x[0]).sort((a, b) => lanes[a].m - lanes[b].m);
	for (let p = 0; p < NP; p++)
		laneOrder.push(p);
	laneOrder.push(...shown);
	/* for tests: the lanes drawn, and how many slices each has */
	cv.dataset.lanes = laneOrder.map((L) => lanes[L].name.replace(' syscall', '')).join(' ');
	cv.dataset.slices = laneOrder.map((L) => lanes[L].t0.length).join(' ');
}
function lowerBound(arr, v) {
	let lo = 0, hi = arr.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (arr[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
let followStints = null;
function drawTimeline() {
	const dpr = window.devicePixelRatio || 1, w = cv.clientWidth || 800;
	const h = TOP + laneOrder.length * LANE_H + 6;
	if (cv.width !== Math.round(w * dpr) || cv.height !== Math.round(h * dpr)) {
		cv.width = Math.round(w * dpr);
		cv.height = Math.round(h * dpr);
		cv.style.height = h + 'px';
	}
	ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
	ctx.clearRect(0, 0, w, h);
	const W = w - LEFT - 4, span = Math.max(1e-9, viewT1 - viewT0);
	const X = (t) => LEFT + (t - viewT0) / span * W;
	drawAxis(W, span, h);
	ctx.font = '11px system-ui, sans-serif';
	ctx.textBaseline = 'middle';
	for (let row = 0; row < laneOrder.length; row++) {
		const L = lanes[laneOrder[row]], y = TOP + row * LANE_H;
		ctx.fillStyle = '#555';
		ctx.fillText(L.name, 4, y + LANE_H / 2);
		ctx.fillStyle = row % 2 ? '#f3f4f6' : '#fbfbfc';
		ctx.fillRect(LEFT, y, W, LANE_H - 1);
		ctx.globalAlpha = follow >= 0 ? 0.35 : 1;
		drawStints(L, y, X, span / W);
		ctx.globalAlpha = 1;
	}
	if (follow >= 0)
		drawFollow(X);
	if (cursor >= 0) {
		const x = X(moment);
		ctx.fillStyle = 'rgba(211,47,47,0.8)';
		ctx.fillRect(Math.round(x), TOP - 4, 1, h - TOP);
	}
	for (let row = 0; row < laneOrder.length; row++)
		drawMarkers(lanes[laneOrder[row]], TOP + row * LANE_H, X);
}
/* Slices wider than a pixel are drawn whole; below that, one per pixel
 * column (the first in it), and a binary search skips the rest. */
function drawStints(L, y, X, usPerPx) {
	const n = L.t0.length;
	let k = lowerBound(L.t1, viewT0);
	while (k < n && L.t0[k] <= viewT1) {
		const x0 = X(L.t0[k]), x1 = X(L.t1[k]);
		ctx.fillStyle = gColour(L.g[k]);
		if (x1 - x0 >= 1) {
			ctx.fillRect(x0, y + 1, x1 - x0 > 4 ? x1 - x0 - 1 : x1 - x0, LANE_H - 3);
			k++;
		} else {
			const px = Math.floor(x0);
			ctx.fillRect(px, y + 1, 1, LANE_H - 3);
			const next = lowerBound(L.t1, viewT0 + (px + 1 - LEFT) * usPerPx);
			k = Math.max(k + 1, next);
		}
	}
}
const MK_COLOUR = {};
MK_COLOUR[EV_STEAL] = '#1565c0'; MK_COLOUR[EV_PREEMPT] = '#c62828'; MK_COLOUR[EV_HANDOFF] = '#ef6c00';
MK_COLOUR[EV_SPILL] = '#6a1b9a';
function drawMarkers(L, y, X) {
	let k = lowerBound(L.mkT, viewT0), lastPx = -1, lastKind = -1;
	while (k < L.mkT.length && L.mkT[k] <= viewT1) {
		const px = Math.round(X(L.mkT[k])), kind = L.mk[k];
		if (px !== lastPx || kind !== lastKind) {
			ctx.fillStyle = MK_COLOUR[kind] || '#000';
			ctx.beginPath();
			ctx.moveTo(px - 4, y - 1);
			ctx.lineTo(px + 4, y - 1);
			ctx.lineTo(px, y + 7);
			ctx.fill();
			lastPx = px;
			lastKind = kind;
		}
		k++;
	}
}
function drawFollow(X) {
	if (!followStints) {
		followStints = [];
		for (let row = 0; row < laneOrder.length; row++) {
			const L = lanes[laneOrder[row]];
			for (let k = 0; k < L.g.length; k++)
				if (L.g[k] === follow)
					followStints.push(row, L.t0[k], L.t1[k]);
		}
	}
	for (let i = 0; i < followStints.length; i += 3) {
		const y = TOP + followStints[i] * LANE_H, x0 = X(followStints[i + 1]), x1 = X(followStints[i + 2]);
		if (x1 < LEFT || x0 > cv.clientWidth)
			continue;
		ctx.fillStyle = gColour(follow);
		ctx.fillRect(x0, y + 1, Math.max(2, x1 - x0), LANE_H - 3);
		ctx.strokeStyle = '#f9a825';
		ctx.lineWidth = 2;
		ctx.strokeRect(x0, y + 1, Math.max(2, x1 - x0), LANE_H - 3);
	}
}
function drawAxis(W, span, h) {
	const raw = span / Math.max(1, W / 90);
	const pow = Math.pow(10, Math.floor(Math.log10(raw)));
	const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) || pow * 10;
	ctx.font = '10px system-ui, sans-serif';
	ctx.textBaseline = 'top';
	ctx.fillStyle = '#888';
	for (let t = Math.ceil(viewT0 / step) * step; t <= viewT1; t += step) {
		const x = LEFT + (t - viewT0) / span * W;
		ctx.fillRect(x, TOP - 4, 1, h - TOP);
		ctx.fillText(fmtT(+t.toFixed(3)), x + 2, 2);
	}
}
function timeAtX(x) {
	const W = cv.clientWidth - LEFT - 4;
	return viewT0 + (x - LEFT) / W * (viewT1 - viewT0);
}
function zoom(f, at) {
	const t = at === undefined ? moment : at;
	let span = Math.max(2, (viewT1 - viewT0) * f);
	span = Math.min(span, Math.max(1, tEnd) * 1.02);
	const frac = (t - viewT0) / (viewT1 - viewT0 || 1);
	viewT0 = t - frac * span;
	viewT1 = viewT0 + span;
	drawTimeline();
}
function legend() {
	const seen = new Map();
	for (let g = 0; g < NG && seen.size < 10; g++)
		if (gFunc[g] >= 0 && !seen.has(gFunc[g]))
			seen.set(gFunc[g], g);
	let h = seen.size ? 'colour = function:' : 'colour = goroutine';
	for (const [f, g] of seen)
		h += '<i style="background:hsl(' + hue(f + 1) + ',55%,42%)"></i>' + esc(strs[f]);
	h += ' &nbsp; markers: <i style="background:' + MK_COLOUR[EV_STEAL] + '"></i>steal<i style="background:' +
		MK_COLOUR[EV_PREEMPT] + '"></i>preempt<i style="background:' + MK_COLOUR[EV_HANDOFF] +
		'"></i>handoff<i style="background:' + MK_COLOUR[EV_SPILL] + '"></i>spill' +
		(mLanesHidden ? ' &nbsp; (' + mLanesHidden + ' more syscall lanes not drawn: the ' + MAX_M_LANES +
		 ' Ms longest in system calls are)' : '');
	$('legend').innerHTML = h;
}

/* ---- moving the cursor ---- */
let hashTimer = 0;
function render() {
	seek(cursor);
	renderCards();
	renderQueues();
	renderEvent();
	renderFollow();
	drawTimeline();
	document.body.dataset.cursor = cursor;
	document.body.dataset.t = moment;
}
/* To the state after record i; the moment shown is t (by default the
 * record's own time). */
function go(i, keepHash, t) {
	cursor = Math.max(-1, Math.min(N - 1, i));
	moment = t !== undefined ? t : cursor >= 0 ? T[cursor] : 0;
	if (moment < viewT0 || moment > viewT1) {
		const span = viewT1 - viewT0;
		viewT0 = Math.max(0, moment - span / 2);
		viewT1 = viewT0 + span;
	}
	render();
	if (!keepHash) {
		clearTimeout(hashTimer);
		hashTimer = setTimeout(writeHash, playing ? 400 : 50);
	}
}
const goTime = (t, keepHash) => go(recordAt(t), keepHash, t);
function writeHash() {
	let h = '#t=' + moment;
	if (cursor >= 0 && T[cursor] === moment && cursor + 1 < N && T[cursor + 1] === T[cursor])
		h += '&e=' + cursor;
	if (follow >= 0)
		h += '&g=' + follow;
	if (location.hash !== h)
		history.replaceState(null, '', h);
}
function readHash() {
	const q = {};
	location.hash.replace(/^#/, '').split('&').forEach((kv) => {
		const [k, v] = kv.split('=');
		if (k)
			q[k] = v;
	});
	const g = q.g !== undefined ? parseInt(q.g, 10) : -1;
	follow = g >= 0 && g < NG ? g : -1;
	followStints = null;
	if (q.e !== undefined && /^-?\d+$/.test(q.e))
		return { i: parseInt(q.e, 10), q };
	if (q.t !== undefined && q.t !== '' && !isNaN(+q.t))
		return { i: recordAt(+q.t), t: +q.t, q };
	return { i: recordAt(0), t: 0, q };
}
function setFollow(g) {
	follow = follow === g ? -1 : g;
	followStints = null;
	render();
	writeHash();
}

/* ---- play ---- */
function speed() {
	return $('speed').value;
}
/* Play steps on a timer, not on animation frames, so that it runs at the
 * same pace in a background tab and in a headless browser's virtual time. */
const FRAME_MS = 33;
let playTimer = 0;
function frame() {
	if (!playing)
		return;
	const now = NOW(), dt = Math.max(0, Math.min(0.25, (now - lastFrame) / 1000));
	lastFrame = now;
	const s = speed();
	let i;
	if (s.startsWith('ev')) {
		playT += dt * parseInt(s.slice(2), 10);
		i = Math.floor(playT);
	} else {
		playT = Math.min(tEnd, playT + dt * parseFloat(s));
		i = recordAt(playT);
	}
	if (i >= N - 1) {
		go(N - 1);
		togglePlay(false);
		return;
	}
	if (s.startsWith('ev')) {
		if (i !== cursor)
			go(i);
	} else
		go(i, false, Math.round(playT));
	playTimer = setTimeout(frame, FRAME_MS);
}
function togglePlay(on) {
	playing = on === undefined ? !playing : on;
	$('play').innerHTML = playing ? '&#10074;&#10074;' : '&#9654;';
	clearTimeout(playTimer);
	if (playing) {
		if (cursor >= N - 1)
			cursor = -1;
		playT = speed().startsWith('ev') ? cursor : moment;
		lastFrame = NOW();
		playTimer = setTimeout(frame, FRAME_MS);
	}
}

/* ---- wiring ---- */
function wire() {
	$('prev').onclick = () => go(cursor - 1);
	$('next').onclick = () => go(cursor + 1);
	$('play').onclick = () => togglePlay();
	$('speed').onchange = () => { if (playing) togglePlay(true); };
	const sc = $('scrub');
	sc.max = tEnd;
	sc.oninput = () => goTime(+sc.value);
	$('zin').onclick = () => zoom(0.5);
	$('zout').onclick = () => zoom(2);
	$('zfit').onclick = () => { viewT0 = 0; viewT1 = Math.max(1, tEnd); drawTimeline(); };
	$('unfollow').onclick = () => setFollow(follow);
	document.addEventListener('click', (e) => {
		const gEl = e.target.closest && e.target.closest('[data-g]');
		if (gEl)
			return setFollow(parseInt(gEl.dataset.g, 10));
		const jEl = e.target.closest && e.target.closest('[data-j]');
		if (jEl)
			go(parseInt(jEl.dataset.j, 10));
	});
	document.addEventListener('keydown', (e) => {
		if (e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT' && e.target.type !== 'range')
			return;
		if (e.key === 'ArrowLeft') { go(cursor - 1); e.preventDefault(); }
		else if (e.key === 'ArrowRight') { go(cursor + 1); e.preventDefault(); }
		else if (e.key === ' ') { togglePlay(); e.preventDefault(); }
	});
	let drag = null;
	cv.addEventListener('mousedown', (e) => { drag = { x: e.offsetX, t0: viewT0, t1: viewT1, moved: false }; });
	cv.addEventListener('mousemove', (e) => {
		if (drag && Math.abs(e.offsetX - drag.x) > 3) {
			drag.moved = true;
			const W = cv.clientWidth - LEFT - 4, dt = (e.offsetX - drag.x) / W * (drag.t1 - drag.t0);
			viewT0 = drag.t0 - dt;
			viewT1 = drag.t1 - dt;
			drawTimeline();
		}
		tip(e);
	});
	window.addEventListener('mouseup', (e) => {
		if (drag && !drag.moved && e.target === cv && e.offsetX >= LEFT)
			goTime(Math.max(0, Math.round(timeAtX(e.offsetX))));
		drag = null;
	});
	cv.addEventListener('dblclick', (e) => {
		const hit = laneHit(e);
		if (hit)
			setFollow(hit.g);
	});
	cv.addEventListener('mouseleave', () => { $('tl-tip').hidden = true; });
	cv.addEventListener('wheel', (e) => {
		e.preventDefault();
		zoom(e.deltaY > 0 ? 1.25 : 0.8, timeAtX(e.offsetX));
	}, { passive: false });
	window.addEventListener('hashchange', () => { const r = readHash(); go(r.i, true, r.t); });
	window.addEventListener('resize', () => drawTimeline());
}
/* The lane and slice under the mouse: { L, t, g (-1: none), k }, or null. */
function laneHit(e) {
	const row = Math.floor((e.offsetY - TOP) / LANE_H), t = timeAtX(e.offsetX);
	if (row < 0 || row >= laneOrder.length || e.offsetX < LEFT)
		return null;
	const L = lanes[laneOrder[row]], k = lowerBound(L.t1, t);
	const inside = k < L.t0.length && L.t0[k] <= t;
	return { L, t, k, g: inside ? L.g[k] : -1 };
}
function tip(e) {
	const hit = laneHit(e), el = $('tl-tip');
	if (!hit) {
		el.hidden = true;
		return;
	}
	const L = hit.L, k = hit.k;
	let s = L.name + ' · ' + fmtT(Math.round(hit.t));
	if (hit.g >= 0)
		s += ' · ' + gName(L.g[k]) + ' ran ' + fmtT(L.t0[k]) + '–' + fmtT(L.t1[k]) + ' (double-click: follow)';
	el.textContent = s;
	el.style.left = (e.offsetX + 12) + 'px';
	el.style.top = (e.offsetY + 28) + 'px';
	el.hidden = false;
}

/* ---- the header ---- */
function header() {
	const c = meta.config || {};
	$('title').textContent = 'gosim replay: ' + (meta.workload || c.workload || 'run');
	const parts = ['GOMAXPROCS=' + NP];
	for (const k of ['steal', 'preempt', 'seed', 'slice_us', 'sysmon', 'go'])
		if (c[k] !== undefined)
			parts.push(k + '=' + c[k]);
	if (c.defines && Object.keys(c.defines).length)
		parts.push('-D ' + Object.entries(c.defines).map(([k, v]) => k + '=' + v).join(' -D '));
	$('config').textContent = parts.join(' · ') + ' · ' + grp(N) + ' records, ' + fmtT(tEnd);
	if (end.kept < end.total) {
		$('kept').hidden = false;
		$('kept').textContent = 'This run wrote ' + grp(end.total) + ' records; the page keeps the first ' + grp(end.kept) +
			' (up to t = ' + fmtT(tEnd) + '), the most an HTML trace embeds (' + grp(end.cap) +
			'). Write a JSON or CSV trace for the rest.';
	} else if (!end.summary) {
		$('kept').hidden = false;
		$('kept').textContent = 'The run did not finish normally; the page shows the records written until it stopped.';
	} else if (end.summary.outcome && end.summary.outcome !== 'done') {
		$('kept').hidden = false;
		$('kept').textContent = 'The run ended: ' + end.summary.outcome +
			(end.summary.outcome === 'until' ? ' (stopped at --until; the records go up to there)' : '') + '.';
	}
	const s = end.summary;
	$('about').textContent = (s ? 'makespan ' + fmtT(s.makespan_us) + ' · ' + s.goroutines + ' goroutines · threads peak ' +
		s.threads_peak + ' · steals ' + s.steals + ' · handoffs ' + s.handoffs + ' · preemptions ' + s.preemptions +
		' · spills ' + s.spills + ' · ' : '') + 'gosim ' + ((meta.gosim && meta.gosim.version) || '') +
		' · state rebuilt from a snapshot every ' + K + ' records · keys: ← → step, space play; click a goroutine (or double-click its slice) to follow it, the timeline to jump; wheel zooms, drag pans.';
}

/* ---- start ---- */
function bench(n) {
	/* Jumps to n moments drawn by a fixed LCG; times each full render. */
	let x = 12345, worst = 0, sum = 0;
	for (let k = 0; k < n; k++) {
		x = (x * 1103515245 + 12345) % 2147483648;
		const t0 = NOW();
		go(Math.floor(x / 2147483648 * N), true);
		const d = NOW() - t0;
		sum += d;
		worst = Math.max(worst, d);
	}
	timings.jump_mean_ms = sum / Math.max(1, n);
	timings.jump_max_ms = worst;
	timings.jumps = n;
}
header();
buildCards();
sortLanes();
legend();
wire();
$('loading').hidden = true;
const r = readHash();
const tRender0 = NOW();
go(r.i, true, r.t);
timings.first_render_ms = NOW() - tRender0;
timings.ready_ms = NOW(); /* since navigation start */
timings.script_ms = NOW() - tStart;
if (r.q.play !== undefined) {
	const sp = [...$('speed').options].find((o) => o.value === r.q.play);
	if (sp)
		$('speed').value = sp.value;
	togglePlay(true);
}
if (r.q.bench) {
	const back = cursor, backT = moment;
	bench(parseInt(r.q.bench, 10) || 20);
	go(back, true, backT);
}
document.body.dataset.timings = JSON.stringify(timings);
document.body.dataset.state = 'ready';
requestAnimationFrame(() => {
	timings.painted_ms = NOW();
	for (const e of performance.getEntriesByType('paint')) /* the loading line, painted while parsing */
		timings[e.name.replace(/-/g, '_') + '_ms'] = e.startTime;
	document.body.dataset.timings = JSON.stringify(timings);
});
})();
