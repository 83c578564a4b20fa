// Issue 54's soak (npm run bench: `soak`): 1,000 turns of the mock server's `soak` scenario (scripts/mock-soak.js:
// reads, edits, a command, a background shell read and ended, a subagent) in one full-screen milk, typed in a pty, with
// a context window small enough that compaction crosses many times. Every 100 turns, at rest: milk's RSS, open file
// descriptors and processes below it (/proc), and what scripts/soak-probe.js counts inside it after a full collection
// (event listeners, timers, Node's open resources). Budgets: after the warm-up (the first probe) RSS grows under 10 %,
// and descriptors, listeners, lasting timers and processes do not grow at all; keystroke p99 at the end is the
// warm-up's within the side-by-side gate's allowance (max(10 %, 2 ms)); the conversation log, the history file and
// the edited file are whole; a turn at the end takes what one took after the warm-up (max(10 %, 10 ms)); the run
// takes at most 6 minutes (times the machine factor). --smoke: 50 turns, probed every 10.
// To look into one: MILK_SOAK_TURNS=N (another length), BENCH_DEBUG=1 (live timers by kind, the slowest turns, turns
// by the hundred), SOAK_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' (flags for milk's node), SOAK_HEAP_DIR=DIR (a heap
// snapshot at each probe, to compare).
const fs = require('node:fs');
const path = require('node:path');
const { stats, fmt, tmp, sleep, spawnUntil, statusOf } = require('./bench-lib');

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const PROBE = path.join(__dirname, 'soak-probe.js');
/** What an answer's first words say each kind of turn did (scripts/mock-soak.js). */
const DONE = /soak (\d+) (read|edited|ran|background|helped):/;
/** Keystrokes typed at the warm-up and at the end. */
const KEYS = 150;

function workspace() {
  const ws = fs.realpathSync(tmp('milk-bench-soak-ws-'));
  fs.writeFileSync(path.join(ws, 'notes.txt'), 'line 1: the soak reads this file\nline 2\nline 3\n');
  fs.writeFileSync(path.join(ws, 'soak.txt'), 'value: 0\n');
  return ws;
}

function dataDir() {
  const data = tmp('milk-bench-soak-data-');
  // A window of 6,000 tokens: the system prompt and tools take most of it, so a few turns fill the rest.
  fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ models: { soak: { contextWindow: 6000 } } }));
  return data;
}

/** Every process below `pid` (the commands, the sandbox, git), from /proc. */
function descendants(pid) {
  const kids = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(name)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const all = [];
  for (let next = kids.get(pid) ?? []; next.length; next = next.flatMap((p) => kids.get(p) ?? [])) all.push(...next);
  return all;
}

/** One probe at rest: SIGUSR2 to milk, the probe's counts once written, then /proc's. */
async function probe(pid, file) {
  const before = fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0;
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 10000;
  while (!fs.existsSync(file) || fs.statSync(file).mtimeMs === before) {
    if (Date.now() > deadline) throw new Error('the soak probe did not answer in 10 s');
    await sleep(20);
  }
  const inside = JSON.parse(fs.readFileSync(file, 'utf8'));
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  return { ...inside, rss: rssKb * 1024, fds: fs.readdirSync(`/proc/${pid}/fd`).length, children: descendants(pid) };
}

/** Keys typed into the composer at rest, each timed to its echo on screen; the composer emptied after. */
async function keysAtRest(run, keystrokes) {
  const samples = await keystrokes(run, KEYS);
  run.p.write('\x15');
  await run.until(() => !run.screen().includes('│xx'));
  return stats(samples);
}

/** One turn: its number typed, then until its answer is on screen and the status bar is at rest. */
async function turn(run, n) {
  run.p.write(`soak ${n}\r`);
  await run.until(() => {
    const m = run.screen().match(new RegExp(DONE.source, 'g')) ?? [];
    return m.some((s) => s.startsWith(`soak ${n} `)) && !statusOf(run).includes('working');
  }, 60000);
}

/** The conversation log and the history file as milk left them: every line whole, every turn there. */
function intact(data, turns) {
  const { parseHistory } = require('../dist/history/format');
  const sessions = path.join(data, 'sessions');
  const history = parseHistory(fs.readFileSync(path.join(sessions, 'soak.history')));
  const texts = history.entries.map((e) => e.segments.map((s) => s.text).join(''));
  // The history keeps the newest entries up to its cap (500 by default, compacted past 1.25 x): a run of the last ones.
  const want = Array.from({ length: texts.length }, (_, i) => `soak ${turns - texts.length + i}`);
  const historyOk =
    history.badLines === 0 && texts.length >= Math.min(turns, 500) && texts.join('\n') === want.join('\n');
  const logs = fs.readdirSync(path.join(sessions, 'soak')).filter((f) => f.endsWith('.jsonl'));
  const lines = logs.flatMap((f) =>
    fs
      .readFileSync(path.join(sessions, 'soak', f), 'utf8')
      .split('\n')
      .slice(0, -1),
  );
  let bad = 0;
  const events = [];
  for (const line of lines) {
    try {
      events.push(JSON.parse(line));
    } catch {
      bad++;
    }
  }
  const users = events.filter((e) => e.t === 'user').map((e) => e.text ?? e.segments.map((s) => s.text).join(''));
  const logOk = bad === 0 && users.join('\n') === Array.from({ length: turns }, (_, i) => `soak ${i}`).join('\n');
  const failed = events.filter((e) => e.t === 'error' || e.t === 'interrupted').length;
  const compactions = events.filter((e) => e.t === 'compact').length;
  return { historyOk, historyEntries: texts.length, logOk, logLines: lines.length, bad, failed, compactions };
}

async function soakRun(turns, every, keystrokes) {
  const { startMockServer } = require('./mock-server');
  const mock = await startMockServer();
  const ws = workspace();
  const data = dataDir();
  const file = path.join(tmp('milk-bench-soak-probe-'), 'probe.json');
  const flags = process.env.SOAK_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const argv = [
    ...flags,
    '--expose-gc',
    '-r',
    PROBE,
    CLI,
    '--data-dir',
    data,
    '--session',
    'soak',
    '--provider',
    'openai',
  ];
  argv.push('--base-url', `${mock.url}/v1`, '--model', 'soak', '--approval', 'full-auto');
  const run = await spawnUntil(argv, 'history: session', { MILK_SOAK_PROBE: file }, process.execPath, false, ws);
  const probes = [];
  const turnMs = [];
  let warmKeys;
  const t0 = Date.now();
  try {
    for (let n = 0; n < turns; n++) {
      const s = Date.now();
      await turn(run, n);
      turnMs.push(Date.now() - s);
      if ((n + 1) % every === 0) {
        probes.push({ turn: n + 1, ...(await probe(run.p.pid, file)) });
        if (probes.length === 1) warmKeys = await keysAtRest(run, keystrokes);
      }
    }
    const wallS = (Date.now() - t0) / 1000;
    const endKeys = await keysAtRest(run, keystrokes);
    const exited = new Promise((resolve) => run.p.onExit(resolve));
    run.p.write('\x04');
    await Promise.race([exited, sleep(10000)]);
    const edits = fs.readFileSync(path.join(ws, 'soak.txt'), 'utf8');
    const editsOk = edits === `value: ${Math.ceil((turns - 1) / 5)}\n`;
    return { probes, turnMs, warmKeys, endKeys, wallS, editsOk, ...intact(data, turns) };
  } finally {
    run.p.kill('SIGKILL');
    await mock.close();
    for (const dir of [ws, data, path.dirname(file)]) fs.rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;

function report(r, turns) {
  for (const p of r.probes)
    console.log(
      `  soak at turn ${p.turn}: RSS ${mb(p.rss)}, heap ${mb(p.heapUsed)} of ${mb(p.heapTotal)}, external ` +
        `${mb(p.external)}, ${p.fds} fds, ${p.listeners} listeners on ${p.emitters} emitters, ` +
        `${p.timers} timers (${p.lasting} lasting), ` +
        `${p.children.length} processes below milk; Node holds ` +
        Object.entries(p.resources)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ') +
        (process.env.BENCH_DEBUG ? `; timers: ${JSON.stringify(p.timerKinds)}` : ''),
    );
  const t = stats(r.turnMs);
  if (process.env.BENCH_DEBUG) {
    const slow = r.turnMs
      .map((ms, n) => [ms, n])
      .sort((a, b) => b[0] - a[0])
      .slice(0, 12);
    console.log(`  slowest turns: ${slow.map(([ms, n]) => `${n}: ${ms} ms`).join(', ')}`);
    for (let i = 0; i < r.turnMs.length; i += 100)
      console.log(`  turns ${i}-: median ${stats(r.turnMs.slice(i, i + 100)).median} ms`);
  }
  console.log(
    `soak of ${turns} turns in ${r.wallS.toFixed(0)} s (a turn: median ${fmt(t.median)}, p99 ${fmt(t.p99)}); ` +
      `${r.compactions} compactions; keystroke p99 at the warm-up ${fmt(r.warmKeys.p99)}, at the end ` +
      `${fmt(r.endKeys.p99)} (n=${r.endKeys.n} each); log ${r.logOk ? 'whole' : 'BROKEN'} (${r.logLines} lines, ` +
      `${r.bad} bad, ${r.failed} turns failed), history ${r.historyOk ? 'whole' : 'BROKEN'} (${r.historyEntries} ` +
      `entries), edits ${r.editsOk ? 'all landed' : 'LOST'}`,
  );
}

async function benchSoak({ check, smoke, machine, keystrokes }) {
  const turns = Number(process.env.MILK_SOAK_TURNS) || (smoke ? 50 : 1000);
  const r = await soakRun(turns, smoke ? 10 : 100, keystrokes);
  report(r, turns);
  const warm = r.probes[0];
  const end = r.probes.at(-1);
  check('soak: RSS growth after the warm-up (share)', end.rss / warm.rss - 1, 0.1, 0);
  for (const key of ['fds', 'listeners', 'lasting'])
    check(`soak: ${key} grown after the warm-up`, end[key] - warm[key], 0, 0);
  check('soak: processes below milk at rest, grown', end.children.length - warm.children.length, 0, 0);
  const allowance = Math.max(0.1 * r.warmKeys.p99, 2);
  check('soak: keystroke p99 at the end (ms)', r.endKeys.p99, r.warmKeys.p99 + allowance, 0);
  check(
    'soak: log, history and edits whole (failures)',
    [r.logOk, r.historyOk, r.editsOk].filter((ok) => !ok).length,
    0,
    0,
  );
  check('soak: turns that failed', r.failed, 0, 0);
  // A turn as long at the end as after the warm-up: the median of the last `every` turns against the first after it.
  const every = r.turnMs.length / r.probes.length;
  const early = stats(r.turnMs.slice(every, 2 * every)).median;
  const late = stats(r.turnMs.slice(-every)).median;
  check('soak: a turn at the end, median (ms)', late, early + Math.max(0.1 * early, 10), 0);
  if (!smoke) {
    check('soak: compactions (fewer than 3 fails)', 3 - Math.min(3, r.compactions), 0, 0);
    check('soak: wall time (s)', r.wallS, 360 * machine.factor, 0);
  }
}

module.exports = { benchSoak };
