#!/usr/bin/env node
// npm run bench: milk's speed figures, measured on the built program.
// Each case prints its lines; `npm run bench -- --write` records a run in
// BENCHMARKS.md. `node scripts/bench.js CASE…` runs some. Flags: --json (the
// figures as JSON on stdout), --smoke (every case once at small sizes, to
// prove the bench still runs: part of npm test), --write, --repeat=N (the
// cases N times over, with a tally per check of how many runs passed; with --write, BENCHMARKS.md's stability
// section, which a plain --write keeps). Cases:
//   budgets     the budgets of issue 13 against baselines from the same run: start-up, first token,
//               CPU and bytes while streaming (CPU against a bare blessed client), idle CPU, Ctrl-C, RSS
//               (a table with ratios and pass/MISS)
//   nodes       start-up on each Node (this one, and those MILK_BENCH_NODES lists, colon-separated),
//               against a bare blessed screen on the same Node; Node >= 22.1 with its compile cache
// Each budget has a headroom: a figure past budget x (1 + headroom) is a failure, and the bench exits 1
// (the machine drifts by up to a third over a day; the headroom is what that drift cannot explain).
// A feature's case (mcp, skills, images, reach, unused, unboxed, mentions, firstpaint) also prints what the feature
// costs a session that does not use it, checked at zero: its packages and part not loaded, none of its processes
// started (scripts/bench-unused.js, one such session per run).
//   startup     spawn to the first painted status bar, in a real pty (10 runs)
//   resume      start-up with --continue on a 10,000-event conversation log, and keys typed after it
//   history     load, append and compaction of history files at 500 and 100,000 entries
//   submit      how long a submit blocks the event loop: 500 and 100,000 entries, a held lock, two 96 MB files
//   search      the search state machine and overlay, and key-to-match on screen, over 100,000 entries
//   turns       Ctrl-C to an idle screen; CPU while streaming a 1 MB answer
//   transcript  keystroke to screen with a 10-line and a 100,000-line transcript
//   payloads    keystroke echo while answers that once stalled the keyboard stream
//   markdown    issue 24's budgets: Markdown against plain text (a 4,000-token answer and its bytes, 1 MB mixed
//               fresh, and again as a report line, 1 MB in one fence), keystroke to screen while 1 MB of Markdown
// streams
//   agent       glob and grep over a 50,000-file tree, with ripgrep and with milk's own search (the same
//               answers, checked); the system prompt's build at the start of a turn
//   mentions    the @ picker over 50,000 files: a keystroke, a query's longest stall, @ to paths on screen
//   mcp         start-up with three MCP servers configured against none
//   skills      start-up with 50 Agent Skills installed against none (they are read after the first paint)
//   plugins     start-up with five plugins installed against none (read after the first paint)
//   statusline  start-up with a 1 s status line command against none; keys typed while it runs at each mode change
//   stats       milk stats over a gigabyte of conversation logs: the first look and the cached one
//   acp         `milk acp` as an editor drives it: spawn to initialize answered, a prompt to its first session/update
//               against the full screen's Enter to its first words (scripts/bench-acp.js)
//   images      a 4.9 MB screenshot's path pasted: to its chip, and keystrokes after it
//   long        keys typed while four subagents stream at once; idle CPU with a background command running
//   reach       start-up with a trusted project's settings and three hooks against none; keys typed while
//               web_fetch turns a 4.5 MB page into Markdown
//   unused      a chat turn that runs no command, with git on PATH and without: CPU of the process tree, Ctrl-C
//   unboxed     a turn running one command with --sandbox off, bwrap on PATH (its own pid namespace) and not: CPU
//   snapturn    a turn's end snapshot in a 1,000 x 50-file tree with one file changed; keys typed while it runs
//   race        the symlink flip race against restores, 30 s each way (bwrap, fds): nothing written outside
//   soak        1,000 turns of reads, edits, commands, background shells and subagents, compaction crossing many
//               times: RSS, fds, listeners, timers and processes flat after the warm-up, log and history whole
//   firstpaint  what start-up reads and compiles before the first paint, milk beside the bare screen; keys
//               typed in the 2 s after the first paint, while the agent's parts load (p99 16 ms)
//   against     with --against REF (alone, or named with other cases): this build against REF's, built in a git
//               worktree; start-up, first words, streaming CPU of the process tree, processes a chat turn starts
//               (scripts/spawn-count.js), idle CPU, RSS, Ctrl-C, keystroke p99 while streaming, 15 interleaved
//               samples each; worse than REF's median by more than max(a share, a floor) fails
//   gate        (only when named) the against gate's own test: this commit with 20 ms more before the first paint,
//               and with a process started at every turn, each must be called WORSE
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const pty = require('@lydell/node-pty');
const { stats, fmt, tmp, sleep, cpuNs, rssMb, spawnUntil, turnCpu, ctrlcToIdle } = require('./bench-lib');
const { unusedLine } = require('./bench-unused');

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');

/** --smoke: every case once, at small sizes, to prove the bench still runs (CI runs it). */
const SMOKE = process.argv.includes('--smoke');
/** --repeat N: the selected cases N times over, with a tally per check (see repeatedRuns). */
const REPEAT = Number(process.argv.find((a) => a.startsWith('--repeat='))?.slice(9) ?? 1);
/** --against REF (or --against=REF): this build measured against REF's, interleaved (scripts/bench-against.js). */
const AGAINST = (() => {
  const i = process.argv.indexOf('--against');
  return i > 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith('--against='))?.slice(10);
})();
/** The budget rows, for --json. */
const RESULTS = [];
/** Every budget checked in this run: { case, value, budget, headroom } (and a ratio against its own budget). */
const CHECKS = [];

/** The case running now, so a budget that misses can be measured again by its case. */
let currentCase = '';

function check(name, value, budget, headroom) {
  CHECKS.push({ case: name, value, budget, headroom, from: currentCase });
}

const beyond = (c) => c.value > c.budget * (1 + c.headroom);

/**
 * How much slower this machine is right now than on the quiet day the time
 * budgets were set: a bare blessed screen's start-up (scripts/bench-baseline.js)
 * against the 133 ms it took then on Node 20. The machine drifts by up to a
 * third over a day, and more when it is shared; a time budget is checked at
 * budget x factor (never less than the budget), so a slow hour does not fail
 * the bench while a regression against the same run's baseline still does.
 */
const REFERENCE_BASELINE_MS = 133;
/**
 * CPU while streaming, against a bare blessed client streaming the same answer in the same round: issue 55's goal.
 * 1.18x-1.28x before its second round stopped the typing warm-ups at a turn (a first answer sent 0.5 s after the
 * prompt was typed ran them beside it).
 */
const STREAM_CPU_RATIO = 1.1;
/**
 * Start-up over a bare blessed screen, the median of per-start ratios. 1.37x before issue 55 moved the agent after the
 * first paint and gave milk.js a cache made after start-up; 1.18x after that; 1.16x once neo-blessed's files had
 * caches too. The gate stays above issue 55's goal (STARTUP_GOAL), which the "nodes" case reports each Node against.
 */
const STARTUP_RATIO = 1.2;
/** Issue 55's goal for start-up against the bare screen, on Node 20, 22 and 24: reported, not a check. */
const STARTUP_GOAL = 1.15;
/** Enter to the first words on screen: at most this long after the server's first byte (issue 55's goal). */
const FIRST_WORDS_AFTER_BYTE_MS = 25;
/** The first start in a new data dir has no milk.js cache yet: 1.25x-1.27x in the runs of 2026-12-06. */
const FIRST_START_RATIO = 1.3;
const machine = { factor: 1, measured: false };

function setMachineFactor(baselineMs) {
  machine.factor = Math.max(1, baselineMs / REFERENCE_BASELINE_MS);
  machine.measured = true;
}

async function measureMachine() {
  if (machine.measured) return;
  const times = [];
  for (let i = 0; i < (SMOKE ? 1 : 3); i++) {
    const b = await spawnUntil([path.join(__dirname, 'bench-baseline.js')], 'baseline ready');
    times.push(b.ms);
    b.p.kill('SIGKILL');
  }
  setMachineFactor(stats(times).median);
}
/** A size for the full run, and a small one for --smoke. */
const scaled = (full, small) => (SMOKE ? small : full);

function startupOnce(
  args = ['--data-dir', tmp('milk-bench-')],
  cwd = tmp('milk-bench-cwd-'),
  ready = 'history: session',
) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const p = pty.spawn(process.execPath, [CLI, ...args], {
      cols: 80,
      rows: 24,
      cwd,
      env: { ...process.env, TERM: 'xterm-256color' },
    });
    let out = '';
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error('no first paint in 10 s'));
    }, 10000);
    p.onData((d) => {
      out += d;
      if (out.includes(ready)) {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        clearTimeout(timer);
        p.onExit(() => resolve(ms));
        p.write('\x04');
      }
    });
  });
}

async function benchStartup() {
  // A first start (a new data dir: no code cache yet) against later ones (the same data dir), alternating.
  const first = [];
  const later = [];
  const used = tmp('milk-bench-');
  await startupOnce(['--data-dir', used]);
  for (let i = 0; i < scaled(10, 1); i++) {
    first.push(await startupOnce());
    later.push(await startupOnce(['--data-dir', used]));
  }
  const a = stats(first);
  const b = stats(later);
  console.log(
    `startup to first paint, first start in a new data dir: median ${fmt(a.median)}, min ${fmt(a.min)}, max ` +
      `${fmt(a.max)}; later starts: median ${fmt(b.median)}, min ${fmt(b.min)}, max ${fmt(b.max)} (n=${a.n} each)`,
  );
}

/**
 * Start-up with a feature set up (`dir`, a data dir) against one without (`none`), alternating: what the feature reads
 * or starts comes after the first paint, so the two are the same within noise (budget: +15 %, and at least 10 ms, over
 * none); then what it costs a session that does not use it.
 */
async function startupBeside(feature, what, none, dir) {
  await startupOnce(['--data-dir', none]);
  await startupOnce(['--data-dir', dir]);
  const without = [];
  const withIt = [];
  for (let i = 0; i < scaled(10, 2); i++) {
    without.push(await startupOnce(['--data-dir', none]));
    withIt.push(await startupOnce(['--data-dir', dir]));
  }
  const a = stats(without);
  const b = stats(withIt);
  console.log(
    `startup to first paint with ${what}: median ${fmt(b.median)}; with none: median ` +
      `${fmt(a.median)} (n=${a.n} each; budget: the same +15 % or 10 ms, +10%)`,
  );
  check(`startup with ${what}`, b.median, Math.max(a.median * 1.15, a.median + 10), 0.1);
  await unusedLine(feature, check);
}

// Three MCP servers configured: they start after the first paint.
async function benchMcp() {
  const none = tmp('milk-bench-mcp-none-');
  const three = tmp('milk-bench-mcp-three-');
  const server = { command: process.execPath, args: [path.join(__dirname, 'mock-mcp-server.js')] };
  fs.writeFileSync(
    path.join(three, 'config.json'),
    JSON.stringify({ mcpServers: { a: server, b: server, c: server } }),
  );
  // Both read a config file: the difference is the servers alone.
  fs.writeFileSync(path.join(none, 'config.json'), JSON.stringify({ mcpServers: {} }));
  await startupBeside('mcp', 'three MCP servers configured', none, three);
}

// Five plugins installed (commands, agents, skills each): their files are read after the first paint.
async function benchPlugins() {
  const { writePluginFolder } = require('./bench-lib');
  const none = tmp('milk-bench-plugins-none-');
  const five = tmp('milk-bench-plugins-five-');
  for (let i = 0; i < 5; i++) {
    const src = writePluginFolder(tmp('milk-bench-plugin-src-'), `kit-${i}`);
    require('node:child_process').execFileSync(
      process.execPath,
      [CLI, '--data-dir', five, 'plugin', 'add', '--yes', src],
      {
        stdio: 'ignore',
      },
    );
  }
  await startupBeside('plugins', 'five plugins installed', none, five);
}

// A status line command that takes 1 s: start-up beside none (it runs after the first paint, in a process of its
// own), then keys typed beside none just after each of a few short turns (the offline agent's), whose end runs it
// again: the keys are typed while it runs.
async function benchStatusLine() {
  const none = tmp('milk-bench-status-none-');
  const slow = tmp('milk-bench-status-slow-');
  fs.writeFileSync(path.join(none, 'config.json'), JSON.stringify({ theme: 'dark' }));
  fs.writeFileSync(
    path.join(slow, 'config.json'),
    JSON.stringify({ theme: 'dark', statusLine: { command: 'cat >/dev/null; sleep 1; echo slow status' } }),
  );
  await startupBeside('statusline', 'a status line command', none, slow);
  const p99 = {};
  for (const [name, dir] of [
    ['none', none],
    ['slow', slow],
  ]) {
    const m = startMilk(['--data-dir', dir]);
    await m.until(() => m.status().includes('history: session'), 30000);
    const samples = [];
    // The rows on screen now (the buffer's first rows scroll away as turns come).
    const screenHas = (t) => {
      const buf = m.term.buffer.active;
      const rows = Array.from({ length: m.term.rows }, (_, y) => buf.getLine(buf.viewportY + y));
      return rows.some((l) => l?.translateToString(true).includes(t));
    };
    for (let round = 0; round < scaled(6, 2); round++) {
      m.p.write('\x15hi\r');
      // The turn's answer on screen and the bar idle again: its end has asked for the status line once more.
      const ended = () => screenHas(`(offline demo, turn ${round + 1})`) && !m.status().includes('working');
      // until() looks at each write: what is on screen already is looked at first.
      if (!ended()) await m.until(ended, 20000);
      samples.push(...(await keystrokes(m, 10)));
    }
    if (name === 'slow' && !m.status().includes('slow status'))
      await m.until(() => m.status().includes('slow status'), 10000);
    m.p.kill('SIGKILL');
    p99[name] = stats(samples);
  }
  console.log(
    `keystroke to screen with a 1 s status line command running again after each turn: median ` +
      `${fmt(p99.slow.median)}, p99 ${fmt(p99.slow.p99)}; without one: median ${fmt(p99.none.median)}, p99 ` +
      `${fmt(p99.none.p99)} (n=${p99.slow.n} each; budget: the same +25 % or 4 ms, +10%)`,
  );
  check(
    'keystroke p99 with a 1 s status line command',
    p99.slow.p99,
    Math.max(p99.none.p99 * 1.25, p99.none.p99 + 4),
    0.1,
  );
}

// 50 Agent Skills in the data dir: read after the first paint.
async function benchSkills() {
  const fifty = tmp('milk-bench-skills-fifty-');
  for (let i = 0; i < 50; i++) {
    const name = `skill-${String(i).padStart(2, '0')}`;
    fs.mkdirSync(path.join(fifty, 'skills', name), { recursive: true });
    fs.writeFileSync(
      path.join(fifty, 'skills', name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${'Does one thing well for the bench. '.repeat(6)}\n---\n` +
        `${'Step by step, what to do.\n'.repeat(200)}`,
    );
  }
  await startupBeside('skills', '50 skills installed', tmp('milk-bench-skills-none-'), fifty);
}

function benchHistory() {
  const { HistoryFile } = require('../dist/history/store');
  const header = {
    format: 'milk-history',
    version: 1,
    scope: 'global',
    sessionId: null,
    workspace: null,
    displayName: 'global',
  };
  for (const n of [500, scaled(100000, 2000)]) {
    const file = path.join(tmp('milk-bench-hist-'), 'input_history');
    const store = new HistoryFile(file, header, n);
    seedHistory(file, 'global', n);
    const loads = [];
    const saves = [];
    for (let i = 0; i < scaled(10, 2); i++) {
      let t = process.hrtime.bigint();
      const { entries: got } = new HistoryFile(file, header, n).load();
      loads.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (got.length < n) throw new Error(`loaded ${got.length} of ${n}`);
      t = process.hrtime.bigint();
      store.append([{ ts: new Date().toISOString(), segments: [{ type: 'text', text: `new ${i}` }] }]);
      saves.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    // A file grown to 1.25 x its cap, as compaction finds it.
    seedHistory(file, 'global', Math.ceil(n * 1.25) + 1);
    const t = process.hrtime.bigint();
    store.compact();
    const compactMs = Number(process.hrtime.bigint() - t) / 1e6;
    const size = (fs.statSync(file).size / 1024).toFixed(0);
    console.log(
      `history ${n} entries (${size} KiB): load median ${fmt(stats(loads).median)}; append one entry (lock, ` +
        `O_APPEND write, fsync) median ${fmt(stats(saves).median)}; compaction from 1.25 x cap (lock, read, dedupe, ` +
        `cap, ` +
        `temp, fsync, rename) ${fmt(compactMs)}`,
    );
  }
}

/** Spawns milk in a pty with an emulated screen; resolves helpers once the first paint is in. */
function startMilk(args, cwd) {
  const { Terminal } = require('@xterm/headless');
  const term = new Terminal({ cols: 100, rows: 30, allowProposedApi: true });
  const p = pty.spawn(process.execPath, [CLI, ...args], {
    cols: 100,
    rows: 30,
    cwd: cwd ?? tmp('milk-bench-cwd-'),
    env: { ...process.env, TERM: 'xterm-256color', MILK_OFFLINE_DELAY_MS: '0' },
  });
  const waiters = [];
  const status = () => term.buffer.active.getLine(term.rows - 1).translateToString(true);
  p.onData((d) =>
    term.write(d, () => {
      for (let i = waiters.length - 1; i >= 0; i--) {
        if (waiters[i].check()) {
          waiters[i].resolve(process.hrtime.bigint());
          waiters.splice(i, 1);
        }
      }
    }),
  );
  const until = (check, ms = 20000) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('bench wait timed out; status: ' + status())), ms);
      waiters.push({
        check,
        resolve: (v) => {
          clearTimeout(t);
          resolve(v);
        },
      });
    });
  return { p, term, status, until };
}

async function benchSearch() {
  const search = require('../dist/search/search');
  const n = scaled(100000, 5000);
  const data = tmp('milk-bench-search-');
  fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ history: { maxEntries: 200000 } }));
  const entries = seedHistory(
    path.join(data, 'sessions', 'bench.history'),
    'session',
    n,
    (i) => `task ${i}: update module ${i % 1000} and check ${['lint', 'tests', 'types', 'docs'][i % 4]}`,
  );

  // In-process: the pure state machine, one keystroke at a time; first the
  await measureMachine();
  // one-off cost of indexing every entry (the app does this in idle slices).
  const { searchOverlay } = require('../dist/search/overlay');
  let t = process.hrtime.bigint();
  search.prepareSearch(entries, entries.length);
  console.log(
    `search index of ${n} entries (once, in idle slices after start-up): ` +
      `${fmt(Number(process.hrtime.bigint() - t) / 1e6)}`,
  );
  // Each keystroke as the app pays for it: the state machine, then the overlay's rows and count.
  const pure = [];
  const keys = [];
  // Eight passes of queries (different ones, so no pass finds the last one's matches cached): the p99
  // is then over some 600 keystrokes, not decided by the one that met a garbage collection.
  const passes = Array.from({ length: SMOKE ? 1 : 8 }, (_, p) => [
    `module ${99 - p}`,
    p % 2 ? 'check docs' : 'check doc',
    `zzz not there ${p}`,
    `task ${5 + p}`,
    p % 2 ? 'e' : 'a',
    `module ${1 + p} and`,
  ]).flat();
  for (const q of passes) {
    let st = search.startSearch('reverse');
    for (const ch of q) keys.push(() => (st = search.typeQuery(st, entries, ch)));
    keys.push(() => (st = search.searchAgain(st, entries, 'reverse', null)));
    keys.push(() => (st = search.searchAgain(st, entries, 'forward', null)));
    keys.push(() => (st = search.searchAgain(st, entries, 'forward', null)));
    keys.push(() => (st = search.searchAgain(st, entries, 'reverse', null)));
    for (let i = 0; i < keys.length; i++) {
      t = process.hrtime.bigint();
      keys[i]();
      searchOverlay(st, entries);
      pure.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    keys.length = 0;
  }
  const ps = stats(pure);
  console.log(
    `search keystroke, state machine and overlay over ${n} entries: median ${fmt(ps.median)}, p99 ${fmt(ps.p99)}, ` +
      `max ${fmt(ps.max)} (n=${ps.n}; budget p99 5 ms, +100%, times the machine factor ${machine.factor.toFixed(2)})`,
  );
  check('search keystroke p99', ps.p99, 5 * machine.factor, 1);

  // End to end: key into the pty until the status bar shows the new query.
  const m = startMilk(['--data-dir', data, '--session', 'bench']);
  await m.until(() => m.status().includes('history: session'), 30000);
  // As a person would: the first search comes after the index was built in idle slices (well under a second).
  await new Promise((r) => setTimeout(r, 1500));
  const samples = [];
  const queries = SMOKE
    ? ['module 9']
    : ['module 99', 'check docs', 'zzz not there', 'task 5', 'module 1 and', 'tests'];
  for (const q of queries) {
    m.p.write('\x12');
    await m.until(() => m.status().includes('i-search)`'));
    for (let i = 1; i <= q.length; i++) {
      const want = '`' + q.slice(0, i) + "'";
      const t0 = process.hrtime.bigint();
      const done = m.until(() => m.status().includes(want));
      m.p.write(q[i - 1]);
      samples.push(Number((await done) - t0) / 1e6);
    }
    m.p.write('\x07');
    await m.until(() => m.status().includes('history: session'));
  }
  m.p.kill('SIGKILL');
  if (process.env.BENCH_DEBUG) console.log(samples.map((x) => x.toFixed(0)).join(' '));
  const s = stats(samples);
  console.log(
    `search keystroke to match on screen, ${n} entries, in a pty: median ${fmt(s.median)}, p99 ${fmt(s.p99)} ` +
      `(n=${s.n})`,
  );
}

/** Writes a history file of `n` entries directly (no merge), as a long-used milk would have left it. */
function seedHistory(
  file,
  scope,
  n,
  text = (i) => `entry ${i}: refactor the module number ${i % 97} and run its tests`,
) {
  const { historyHeader, serializeHistory } = require('../dist/history/format');
  const header = historyHeader(scope, { sessionId: 'bench', workspace: null, displayName: 'bench' });
  const entries = Array.from({ length: n }, (_, i) => ({
    ts: new Date(1700000000000 + i * 1000).toISOString(),
    segments: [{ type: 'text', text: text(i) }],
  }));
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, serializeHistory(header, entries), { mode: 0o600 });
  return entries;
}

/** The longest the event loop went without running a 1 ms timer, over `ms`. */
function loopStall(ms) {
  const stop = stallWatch();
  return new Promise((resolve) => setTimeout(() => resolve(stop()), ms));
}

/** Watches the event loop for its longest gap between 1 ms ticks, until the function it returns is called. */
function stallWatch() {
  let last = process.hrtime.bigint();
  let worst = 0;
  const tick = setInterval(() => {
    const now = process.hrtime.bigint();
    worst = Math.max(worst, Number(now - last) / 1e6);
    last = now;
  }, 1);
  return () => {
    clearInterval(tick);
    return Math.max(worst, Number(process.hrtime.bigint() - last) / 1e6);
  };
}

// What a submit costs the keystroke: HistoryService.record() runs inside the
// Enter key's handler, so its duration is how long the event loop is blocked;
// then the loop is watched for stalls while any write it left finishes.
async function benchSubmit() {
  const { HistoryService, historyPaths } = require('../dist/history/service');
  // [label, entries in each file, cap, lock held]; the last is two ~96 MB files left by appends, cap 500.
  const cases = [
    ['500 entries', 500, 500, false],
    ['100,000 entries (cap raised)', scaled(100000, 2000), scaled(100000, 2000), false],
    ['500 entries, lock held by another process', 500, 500, true],
    ['two 96 MB files, cap 500', scaled(740000, 2000), 500, false],
  ];
  for (const [label, n, cap, held] of cases) {
    const dataDir = tmp('milk-bench-submit-');
    const paths = historyPaths(dataDir, 'bench');
    seedHistory(paths.session, 'session', n);
    seedHistory(paths.global, 'global', n);
    const service = new HistoryService({
      dataDir,
      sessionId: 'bench',
      workspace: null,
      displayName: 'bench',
      maxEntries: cap,
      warn: () => undefined,
    });
    const t0 = process.hrtime.bigint();
    service.load();
    const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
    let holder = null;
    if (held) {
      // A live process that holds both locks for the whole case.
      holder = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], {
        stdio: 'ignore',
      });
      for (const f of [paths.session, paths.global])
        fs.writeFileSync(f + '.lock', `${holder.pid} ${new Date().toISOString()}\n`);
    }
    const blocks = [];
    let stall = 0;
    for (let i = 0; i < scaled(20, 3); i++) {
      const watching = loopStall(60);
      const t = process.hrtime.bigint();
      service.record([{ type: 'text', text: `submitted ${i} at ${Date.now()}` }]);
      blocks.push(Number(process.hrtime.bigint() - t) / 1e6);
      stall = Math.max(stall, await watching);
    }
    if (holder) holder.kill('SIGKILL');
    const b = stats(blocks);
    const size = (fs.statSync(paths.global).size / 1048576).toFixed(0);
    console.log(
      `submit, ${label}: record() blocks the loop median ${fmt(b.median)}, max ${fmt(b.max)}; worst loop stall ` +
        `${fmt(stall)} (n=${b.n}); load at start ${fmt(loadMs)} (${size} MiB per file)`,
    );
    if (n > cap * 1.25) {
      // The idle compaction that follows: the longest the loop stalls while it runs.
      const stallDuring = await loopStall(scaled(4000, 1600));
      console.log(
        `  then compaction at idle (both files to ${cap} entries): worst loop stall ${fmt(stallDuring)}; files now ` +
          `${(fs.statSync(paths.global).size / 1024).toFixed(0)} KiB`,
      );
    }
  }
}

async function benchTurns() {
  const { startMockServer } = require('./mock-server');
  const mock = await startMockServer();
  try {
    // Ctrl-C to an idle screen, 50 times in one session.
    let m = startMilk([
      '--data-dir',
      tmp('milk-bench-turn-'),
      '--provider',
      'openai',
      '--base-url',
      `${mock.url}/v1`,
      '--model',
      'slow:20',
    ]);
    await m.until(() => m.status().includes('history: session'), 30000);
    const samples = [];
    for (let i = 0; i < scaled(50, 3); i++) {
      m.p.write(`turn ${i}\r`);
      await m.until(() => m.status().includes('working'));
      await new Promise((r) => setTimeout(r, 60));
      const t0 = process.hrtime.bigint();
      const idle = m.until(() => !m.status().includes('working'));
      m.p.write('\x03');
      samples.push(Number((await idle) - t0) / 1e6);
      // Let the Ctrl-C burst window pass so each cancel is a fresh press.
      await new Promise((r) => setTimeout(r, 550));
    }
    m.p.kill('SIGKILL');
    const s = stats(samples);
    console.log(
      `Ctrl-C to idle screen (pty, mock server streaming): median ${fmt(s.median)}, p99 ${fmt(s.p99)} (n=${s.n})`,
    );

    // CPU while streaming a 1 MB answer as fast as the server sends it.
    m = startMilk([
      '--data-dir',
      tmp('milk-bench-turn-'),
      '--provider',
      'openai',
      '--base-url',
      `${mock.url}/v1`,
      '--model',
      'long',
    ]);
    await m.until(() => m.status().includes('history: session'), 30000);
    const cpu0 = cpuNs(m.p.pid);
    const t0 = process.hrtime.bigint();
    m.p.write('a long one\r');
    await m.until(() => m.status().includes('working'));
    await m.until(() => !m.status().includes('working'), 60000);
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = cpuNs(m.p.pid) - cpu0;
    m.p.kill('SIGKILL');
    console.log(`streaming a 1 MB answer: ${cpu.toFixed(2)} CPU s over ${wall.toFixed(2)} s wall`);
  } finally {
    await mock.close();
  }
}

/**
 * Issue 24's budgets: Markdown against plain text of the same size, each answer in a fresh milk in
 * a 120x40 pty, typed as a person types (the prompt, a pause, Enter), rounds interleaved so the
 * machine's drift touches both alike; then keys typed while a 1 MB Markdown answer streams.
 */
async function benchMarkdown() {
  await measureMachine();
  const { startMockServer } = require('./mock-server');
  const mock = await startMockServer();
  const doc = fs.readFileSync(path.join(__dirname, 'bench-answer.md'), 'utf8');
  /** Milk's arguments for a fresh data dir whose config lets a 1 MB answer through whole. */
  const args = (model) => {
    const data = tmp('milk-bench-md-');
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ maxAnswerChars: 10000000 }));
    return ['--data-dir', data, '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', model];
  };
  const start = (model) => spawnUntil([CLI, ...args(model)], 'history: session');
  /** One answer: its CPU seconds and the bytes written to the terminal, from Enter to the end of the turn. */
  const answer = async (run) => {
    run.p.write('go');
    await run.until(() => run.screen().includes('│go '));
    await sleep(500);
    const c0 = cpuNs(run.p.pid);
    const b0 = run.bytes;
    run.p.write('\r');
    await run.until(() => run.screen().split('\n').pop().includes('working'), 20000).catch(() => undefined);
    await run.until(() => !run.screen().split('\n').pop().includes('working'), 120000);
    // A burst still being drawn a window a frame after the turn's end is part of the answer's cost.
    for (let seen = -1; seen !== run.bytes;) {
      seen = run.bytes;
      await sleep(400);
    }
    return { cpu: cpuNs(run.p.pid) - c0, bytes: run.bytes - b0 };
  };
  const m = { md: [], plain: [], bytes: [], big: [], big2: [], long: [], long2: [], fence: [] };
  try {
    // Five rounds: with three, one slow answer moved a median by a tenth or more.
    for (let round = 0; round < scaled(5, 1); round++) {
      for (const [model, into] of [
        ['mdrate', 'md'],
        ['rate:4000', 'plain'],
      ]) {
        const run = await start(model);
        const a = await answer(run);
        m[into].push(a.cpu);
        if (into === 'md') m.bytes.push(a.bytes);
        run.p.kill('SIGKILL');
      }
      for (const [model, first, second] of [
        ['markdown', 'big', 'big2'],
        ['long', 'long', 'long2'],
        ['fence', 'fence', null],
      ]) {
        const run = await start(model);
        m[first].push((await answer(run)).cpu);
        if (second) m[second].push((await answer(run)).cpu);
        run.p.kill('SIGKILL');
      }
    }
    const med = (xs) => stats(xs).median;
    const ratio = (a, b) => med(a) / med(b);
    const n = m.md.length;
    console.log(
      `markdown: a mixed answer of 4,000 tokens (scripts/bench-answer.md, ${(doc.length / 1024).toFixed(0)} KB): ` +
        `median ${med(m.md).toFixed(3)} CPU s; 4,000 plain tokens: ${med(m.plain).toFixed(3)} CPU s; ratio ` +
        `${ratio(m.md, m.plain).toFixed(2)} (budget 1.25, +10%; n=${n})`,
    );
    check('markdown 4,000 tokens against plain, CPU', ratio(m.md, m.plain), 1.25, 0.1);
    const bytes = med(m.bytes) / Buffer.byteLength(doc);
    console.log(
      `  bytes written for it: ${(med(m.bytes) / 1024).toFixed(1)} KB, ${bytes.toFixed(2)}x the answer's own (DEC ` +
        `2026 brackets counted; budget 1.5x, +10%)`,
    );
    check('markdown 4,000 tokens, bytes against the answer', bytes, 1.5, 0.1);
    console.log(
      `  1 MB of mixed Markdown: median ${med(m.big).toFixed(2)} CPU s in a fresh process, ` +
        `${med(m.big2).toFixed(2)} s for a second answer; 1 MB of plain prose: ${med(m.long).toFixed(2)} s, then ` +
        `${med(m.long2).toFixed(2)} s; ratios ${ratio(m.big, m.long).toFixed(2)} (budget 3, +10%) and ` +
        `${ratio(m.big2, m.long2).toFixed(2)} (goal 2, reported, not a check)`,
    );
    check('1 MB of Markdown against plain, fresh process, CPU', ratio(m.big, m.long), 3, 0.1);
    // Not a check: its denominator, a second plain answer, is ~0.09 CPU s, and the ratio read 1.83 to 2.42 over
    // six runs of one build (1.98 and 2.00 for the build before), five rounds each: no headroom holds that steady.
    console.log(
      `  1 MB in one fenced code block: median ${med(m.fence).toFixed(2)} CPU s; ratio to plain ` +
        `${ratio(m.fence, m.long).toFixed(2)} (budget 3, +10%)`,
    );
    check('1 MB fenced code block against plain, CPU', ratio(m.fence, m.long), 3, 0.1);

    // Keys while a 1 MB Markdown answer streams (4 KB every 10 ms: about 3 s of answer), in three fresh milks, 60
    // keys each. The check is the p90 of all 180: a p99 (one stream's slowest key but one, or the median of three
    // such) is set by one late wake-up or one major collection on a shared 2-core machine, and read 22 to 45 ms
    // over runs of one build where this p90 read 16 to 22 ms; the p99 is reported against its goal, not checked.
    const all = [];
    let streaming = true;
    for (let round = 0; round < scaled(3, 1); round++) {
      const k = startMilk(args('markdown:10'));
      await k.until(() => k.status().includes('history: session'), 30000);
      // Typed and paused over as a person types a prompt: the warm-up between keys is done by Enter.
      k.p.write('go');
      await sleep(2000);
      k.p.write('\r');
      await k.until(() => k.status().includes('working'), 10000);
      all.push(...(await keystrokes(k, scaled(60, 5))));
      streaming &&= k.status().includes('working');
      k.p.kill('SIGKILL');
    }
    const keys = stats(all);
    const p90 = keys.p90;
    console.log(
      `  keystroke to screen while 1 MB of Markdown streams: median ${fmt(keys.median)}, p90 ${fmt(p90)} (budget 16 ` +
        `ms, +50%, times the machine factor ${machine.factor.toFixed(2)}), p99 ${fmt(keys.p99)} (goal 16 ms, ` +
        `reported, not ` +
        `a check) (n=${keys.n}${streaming ? '' : '; an answer ended before the last key'})`,
    );
    check('keystroke to screen while 1 MB of Markdown streams, p90', p90, 16 * machine.factor, 0.5);
  } finally {
    await mock.close();
  }
}

async function benchLongTranscript() {
  for (const n of [10, scaled(100000, 2000)]) await keystrokesWithTranscript(n);
}

/** Types `count` keys into the composer, 20 ms apart, timing each until it shows (the line is cleared every 30). */
async function keystrokes(m, count) {
  const composerRow = () => m.term.buffer.active.getLine(m.term.rows - 3).translateToString(true);
  const samples = [];
  for (let i = 0; i < count; i++) {
    if (i % 30 === 0 && i > 0) {
      m.p.write('\x15');
      await m.until(() => !composerRow().includes('x'));
    }
    const want = 'x'.repeat((i % 30) + 1);
    const t0 = process.hrtime.bigint();
    const done = m.until(() => composerRow().includes('│' + want + ' '));
    m.p.write('x');
    samples.push(Number((await done) - t0) / 1e6);
    await new Promise((r) => setTimeout(r, 20));
  }
  return samples;
}

async function keystrokesWithTranscript(n) {
  // An n-line answer in the transcript, then keys typed into the composer.
  const dir = tmp('milk-bench-long-');
  const file = path.join(dir, 'script.json');
  const lines = Array.from({ length: n }, (_, i) => `line ${i} of a very long answer`).join('\n');
  fs.writeFileSync(file, JSON.stringify({ turns: [[{ text: lines }]] }));
  const data = tmp('milk-bench-long-data-');
  // 100,000 lines are 3 MB: past the default cap on one answer.
  fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ maxAnswerChars: 10000000 }));
  const m = startMilk(['--data-dir', data, '--script', file]);
  await m.until(() => m.status().includes('history: session'), 30000);
  m.p.write('fill\r');
  const screenHas = (t) =>
    Array.from({ length: m.term.rows }, (_, y) => m.term.buffer.active.getLine(y).translateToString(true)).some((l) =>
      l.includes(t),
    );
  await m.until(() => screenHas(`line ${n - 1} `) && !m.status().includes('working'), 60000);
  const s = stats(await keystrokes(m, scaled(60, 5)));
  m.p.kill('SIGKILL');
  console.log(`keystroke to screen with a ${n}-line transcript: median ${fmt(s.median)}, p99 ${fmt(s.p99)} (n=${s.n})`);
}

/** A session log of `events` events (five per turn), as a long conversation leaves it. */
function seedConversation(dataDir, cwd, events) {
  const { sessionIdForWorkspace } = require('../dist/config/paths');
  const conv = 'cbench0000';
  const file = path.join(dataDir, 'sessions', sessionIdForWorkspace(fs.realpathSync(cwd)), `${conv}.jsonl`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const ts = new Date(1700000000000).toISOString();
  const lines = [JSON.stringify({ t: 'start', conv, ts, provider: 'offline', model: 'offline', workspace: cwd })];
  for (let turn = 0; lines.length < events; turn++) {
    const text = `question ${turn}: how does module ${turn % 50} handle errors?`;
    lines.push(JSON.stringify({ t: 'user', conv, ts, text, segments: [{ type: 'text', text }] }));
    lines.push(
      JSON.stringify({
        t: 'delta',
        conv,
        msg: turn,
        text: `Module ${turn % 50} catches errors at its edge and reports them in one line. `,
      }),
    );
    lines.push(
      JSON.stringify({
        t: 'delta',
        conv,
        msg: turn,
        text: 'It keeps what it had and lets the next call try again.\n\nThat is the whole story for this one.',
      }),
    );
    lines.push(JSON.stringify({ t: 'assistant', conv, msg: turn }));
    lines.push(JSON.stringify({ t: 'end', conv, ts }));
  }
  fs.writeFileSync(file, lines.slice(0, events).join('\n') + '\n', { mode: 0o600 });
}

// Resuming a long conversation: start-up to the first paint with --continue on a
// 10,000-event log, beside a plain start in the same run, then keys typed after it.
async function benchResume() {
  const data = tmp('milk-bench-resume-');
  const cwd = tmp('milk-bench-resume-cwd-');
  seedConversation(data, cwd, scaled(10000, 500));
  const plain = [];
  const resumed = [];
  for (let i = 0; i < scaled(10, 1); i++) {
    plain.push(await startupOnce());
    resumed.push(await startupOnce(['--data-dir', data, '--continue'], cwd, 'resumed ·'));
  }
  const a = stats(plain);
  const b = stats(resumed);
  console.log(
    `start-up with --continue on a 10,000-event log: median ${fmt(b.median)} (max ${fmt(b.max)}); plain start in ` +
      `the same run: median ${fmt(a.median)} (n=${b.n})`,
  );
  const m = startMilk(['--data-dir', data, '--continue'], cwd);
  await m.until(() => m.status().includes('history: session'), 30000);
  const s = stats(await keystrokes(m, scaled(30, 3)));
  m.p.kill('SIGKILL');
  console.log(`keystroke to screen after resuming it: median ${fmt(s.median)}, p99 ${fmt(s.p99)} (n=${s.n})`);
}

// ---------------------------------------------------------------- budgets

/**
 * CPU seconds a bare blessed client (scripts/bench-stream-baseline.js) spends showing `model`'s streamed answer, from
 * Enter to its end, as milk's are measured.
 */
async function bareStreamCpu(url, model) {
  const bare = await spawnUntil([path.join(__dirname, 'bench-stream-baseline.js'), url, model], 'stream baseline');
  try {
    await sleep(500);
    const cpu0 = cpuNs(bare.p.pid);
    bare.p.write('\r');
    await bare.until(() => bare.screen().includes('streamed'), 60000);
    return cpuNs(bare.p.pid) - cpu0;
  } finally {
    bare.p.kill('SIGKILL');
  }
}

/**
 * A first answer as a person asks for it (the prompt typed, a pause, then Enter; the clock starts at Enter): the time
 * to its first words on screen, the CPU of milk and its children until it ends, and the kilobytes written.
 */
async function firstAnswer(run) {
  run.p.write('go');
  await run.until(() => run.screen().includes('│go '));
  await sleep(500);
  const cpu0 = cpuNs(run.p.pid);
  const bytes0 = run.bytes;
  const t0 = process.hrtime.bigint();
  run.p.write('\r');
  const first = await run.until(() => /the quick/.test(run.screen()));
  await run.until(() => run.screen().includes('working'), 20000).catch(() => undefined);
  await run.until(() => !run.screen().split('\n').pop().includes('working'), 60000);
  const cpu = cpuNs(run.p.pid) - cpu0;
  return { firstToken: Number(first - t0) / 1e6, cpu, bytes: (run.bytes - bytes0) / 1024 };
}

/** The CPU of a first answer in a milk started for it, once its start-up has settled. */
async function anotherFirstAnswer(argv) {
  const run = await spawnUntil(argv, 'history: session');
  try {
    await sleep(1000);
    return (await firstAnswer(run)).cpu;
  } finally {
    run.p.kill('SIGKILL');
  }
}

/** Time from sending a request to the mock server to its first content byte: the floor for first-token latency. */
function firstByteMs(url, model) {
  const http = require('node:http');
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.request(
      `${url}/v1/chat/completions`,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        res.on('data', (d) => {
          if (String(d).includes('"content":"t')) {
            resolve(Number(process.hrtime.bigint() - t0) / 1e6);
            req.destroy();
          }
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'go' }] }));
  });
}

/**
 * The budgets of issue 13, each against a baseline measured in the same run,
 * rounds interleaved so the machine's drift touches both alike.
 */
async function benchBudgets() {
  const { startMockServer } = require('./mock-server');
  const mock = await startMockServer();
  // Seven rounds: with three, one slow start moved the median of "the first start" from 1.17x to 1.47x; with five,
  // start-up and CPU while streaming still missed on a first measure in some runs and passed on the next.
  const rounds = SMOKE ? 1 : 7;
  const tokens = SMOKE ? 400 : 4000;
  const m = {
    baseline: [],
    startup: [],
    firstStart: [],
    firstByte: [],
    firstToken: [],
    cpu: [],
    bareCpu: [],
    bytes: [],
    answer: [],
    idle: [],
    rss: [],
    ctrlc: [],
    // Each start over a bare screen started just before it: the ratio a start-up row is gated by is the median of
    // these, so a drift of the machine's load between rounds (a third over a day, minutes apart here) cancels.
    startupRatio: [],
    // Each turn's CPU over the bare client's streaming the same answer right after it: the row's ratio is their
    // median, as the start-up rows' is, so the machine's drift between rounds cancels (a ratio of the two medians
    // read 1.25x and 1.38x for one build on one afternoon).
    cpuRatio: [],
    firstStartRatio: [],
    afterPaint: [],
  };
  const bare = async () => {
    const b = await spawnUntil([path.join(__dirname, 'bench-baseline.js')], 'baseline ready');
    b.p.kill('SIGKILL');
    m.baseline.push(b.ms);
    return b.ms;
  };
  const argv = (data) => [
    CLI,
    '--data-dir',
    data,
    '--provider',
    'openai',
    '--base-url',
    `${mock.url}/v1`,
    '--model',
    `rate:${tokens}`,
  ];
  try {
    for (let round = 0; round < rounds; round++) {
      const firstBase = await bare();
      // As a person meets it on every start but the very first: the data dir was used once
      // before (one start, one short answer, /quit), so the code cache is there.
      const data = tmp('milk-bench-budget-');
      const beganAt = Date.now();
      const before = await spawnUntil(argv(data), 'history: session');
      m.firstStart.push(before.ms);
      m.firstStartRatio.push(before.ms / firstBase);
      before.p.write('/model rate:40\r');
      await before.until(() => before.screen().includes('model: rate:40'), 5000).catch(() => undefined);
      before.p.write('hello\r');
      // The turn's usage shows in the status bar once it has ended. A 40-token answer may start and end before a
      // wait begins, and nothing is written after it (a wait sees only new output): looked at first, then waited for.
      const ended = () => before.screen().split('\n').pop().includes('Σ');
      if (!ended()) await before.until(ended, 20000);
      // The bundles' caches are written once start-up has settled (2 s after it), and again a second after the first
      // turn (src/code-cache.ts).
      await sleep(Math.max(1500, 2500 - (Date.now() - beganAt)));
      const exited = new Promise((resolve) => before.p.onExit(resolve));
      before.p.write('/quit\r');
      await exited;

      // More starts than rounds, each after its own bare screen: the start-up rows' noise is their samples'. With 21
      // the median ratio moved 1.25x–1.33x between runs of the same commit on one machine; 35 hold it steadier. The
      // first start in a new data dir, whose median sat on its gate (1.30x) in runs of one commit, takes three times as
      // many (with twice as many it still read 1.27x and 1.32x in two runs of one day).
      for (let extra = 0; extra < (SMOKE ? 0 : 12); extra++) {
        if (extra < 4) {
          const b = await bare();
          const start = await spawnUntil(argv(data), 'history: session');
          start.p.kill('SIGKILL');
          m.startup.push(start.ms);
          m.startupRatio.push(start.ms / b);
        }
        const fb = await bare();
        const fresh = await spawnUntil(argv(tmp('milk-bench-budget-')), 'history: session');
        fresh.p.kill('SIGKILL');
        m.firstStart.push(fresh.ms);
        m.firstStartRatio.push(fresh.ms / fb);
      }
      const runBase = await bare();
      const run = await spawnUntil(argv(data), 'history: session');
      m.startup.push(run.ms);
      m.startupRatio.push(run.ms / runBase);
      // What start-up still does after the first paint (the agent's parts, the agent made: app/parts.ts), then idle:
      // two seconds once that has settled, and the memory held then.
      const rest0 = cpuNs(run.p.pid);
      await sleep(1000);
      const idle0 = cpuNs(run.p.pid);
      m.afterPaint.push((idle0 - rest0) * 1000);
      await sleep(2000);
      m.idle.push(((cpuNs(run.p.pid) - idle0) / 2) * 100);
      m.rss.push(rssMb(run.p.pid));

      m.firstByte.push(await firstByteMs(mock.url, `rate:${tokens}`));
      const answer = mock.planText ? mock.planText(`rate:${tokens}`) : null;
      const streamed = await firstAnswer(run);
      m.firstToken.push(streamed.firstToken);
      m.bytes.push(streamed.bytes);
      m.answer.push(answer ? answer.length / 1024 : (tokens * 4.6) / 1024);
      // The CPU ratio read 1.24x-1.28x over runs with one pair a round: a second milk's first answer, each with its
      // own bare client right after it, doubles its samples.
      for (const cpu of [streamed.cpu, await anotherFirstAnswer(argv(data))]) {
        m.cpu.push(cpu);
        m.bareCpu.push(await bareStreamCpu(mock.url, `rate:${tokens}`));
        m.cpuRatio.push(cpu / m.bareCpu[m.bareCpu.length - 1]);
      }

      // Ctrl-C while a slow answer streams, a few times.
      for (let i = 0; i < (SMOKE ? 2 : 10); i++) {
        run.p.write(`/model slow:20\r`);
        // Taken (the composer empty again) before the next input: typed at once, the two would be one paste.
        await run
          .until(() => run.screen().includes('model: slow:20') && !run.screen().includes('│/model'), 5000)
          .catch(() => undefined);
        m.ctrlc.push(await ctrlcToIdle(run, `turn ${i}`));
        await sleep(550);
      }
      run.p.kill('SIGKILL');
    }
  } finally {
    await mock.close();
  }
  const med = (xs) => stats(xs).median;
  const spread = (xs, f) => `${f(stats(xs).min)}–${f(stats(xs).max)}`;
  const ms = (x) => `${x.toFixed(0)} ms`;
  setMachineFactor(med(m.baseline));
  const rows = [
    {
      // Start-up is gated by its ratio to the bare screen of the same round: the milliseconds budget times the machine
      // factor was 1.13x that screen, a tighter gate than the ratio's own and one the first start in a new data dir
      // crossed by noise alone (its spread is 75 ms). The milliseconds are reported against their budget.
      case: 'start-up to ready screen',
      value: med(m.startup),
      unit: 'ms',
      spread: spread(m.startup, ms),
      budget: 150,
      headroom: 0.2,
      time: true,
      baseline: med(m.baseline),
      baselineName: 'bare blessed screen',
      ratio: med(m.startupRatio),
      ratioBudget: STARTUP_RATIO,
      gate: 'ratio',
    },
    {
      case: '  the first start, new data dir',
      value: med(m.firstStart),
      unit: 'ms',
      spread: spread(m.firstStart, ms),
      budget: 150,
      headroom: 0.2,
      time: true,
      baseline: med(m.baseline),
      baselineName: 'bare blessed screen',
      ratio: med(m.firstStartRatio),
      ratioBudget: FIRST_START_RATIO,
      gate: 'ratio',
    },
    {
      case: 'Enter to first token visible',
      value: med(m.firstToken),
      unit: 'ms',
      spread: spread(m.firstToken, ms),
      budget: Math.round(med(m.firstByte) + FIRST_WORDS_AFTER_BYTE_MS),
      headroom: 0.3,
      time: true,
      baseline: med(m.firstByte),
      baselineName: "server's first byte",
    },
    {
      // Gated by its ratio to a bare blessed client streaming the same answer in the same round: CPU seconds drift
      // with the machine's load far more than a start-up's wall time does (0.46-0.73 s for one build in a day), and
      // the machine factor, from start-up, did not follow them. The seconds are reported against their budget.
      case: `CPU while streaming ${tokens} tokens`,
      value: med(m.cpu),
      unit: 's',
      spread: spread(m.cpu, (x) => `${x.toFixed(2)} s`),
      budget: 0.3,
      headroom: 0.2,
      time: true,
      baseline: med(m.bareCpu),
      baselineName: 'bare blessed client',
      ratio: med(m.cpuRatio),
      ratioBudget: STREAM_CPU_RATIO,
      gate: 'ratio',
    },
    {
      case: 'bytes written for that answer',
      value: med(m.bytes),
      unit: 'KB',
      spread: spread(m.bytes, (x) => `${x.toFixed(0)} KB`),
      budget: 100,
      headroom: 0.2,
      baseline: med(m.answer),
      baselineName: "the answer's own size",
    },
    {
      case: 'idle CPU, 2 s once start-up settled',
      value: med(m.idle),
      unit: '%',
      spread: spread(m.idle, (x) => `${x.toFixed(2)} %`),
      budget: 0.5,
      headroom: 1,
      time: true,
    },
    {
      case: 'Ctrl-C to idle screen',
      value: med(m.ctrlc),
      unit: 'ms',
      spread: `p99 ${stats(m.ctrlc).p99.toFixed(1)} ms`,
      budget: 12,
      headroom: 0.5,
      time: true,
    },
    {
      case: 'RSS after start-up',
      value: med(m.rss),
      unit: 'MB',
      spread: spread(m.rss, (x) => `${x.toFixed(0)} MB`),
      budget: 75,
      headroom: 0.15,
    },
  ];
  for (const r of rows) {
    r.ratio ??= r.baseline ? r.value / r.baseline : null;
    const budget = r.time ? r.budget * machine.factor : r.budget;
    const valueGates = r.gate !== 'ratio';
    const within = (!valueGates || r.value <= budget) && (r.ratioBudget === undefined || r.ratio <= r.ratioBudget);
    const inHeadroom =
      (!valueGates || r.value <= budget * (1 + r.headroom)) &&
      (r.ratioBudget === undefined || r.ratio <= r.ratioBudget * (1 + r.headroom));
    r.pass = within;
    r.verdict = within ? 'pass' : inHeadroom ? 'over, within headroom' : 'MISS';
    if (!valueGates && r.value > budget)
      r.verdict += ` (${r.value.toFixed(2)} ${r.unit} over ${budget.toFixed(2)}: reported)`;
    if (valueGates) check(r.case.trim(), r.value, budget, r.headroom);
    if (r.ratioBudget !== undefined)
      check(`${r.case.trim()} (ratio to ${r.baselineName})`, r.ratio, r.ratioBudget, r.headroom);
  }
  const num = (r) =>
    (r.unit === 's'
      ? r.value.toFixed(2)
      : r.unit === '%'
        ? r.value.toFixed(2)
        : r.value.toFixed(r.value < 10 ? 1 : 0)) +
    ' ' +
    r.unit;
  console.log(
    `budgets (${rounds} interleaved round${rounds === 1 ? '' : 's'}, 120x40 pty, loopback mock server; machine ` +
      `factor ${machine.factor.toFixed(2)}: time budgets are checked at budget x factor):`,
  );
  const table = [
    ['case', 'median', 'spread', 'budget (headroom)', 'baseline', 'ratio', ''],
    ...rows.map((r) => [
      r.case,
      num(r),
      r.spread,
      `${r.budget} ${r.unit}${r.ratioBudget ? ` and ${r.ratioBudget}x` : ''} (+${Math.round(r.headroom * 100)}%)`,
      r.baseline ? `${r.baseline.toFixed(r.baseline < 10 ? 1 : 0)} ${r.unit} (${r.baselineName})` : '',
      r.ratio ? `${r.ratio.toFixed(2)}x` : '',
      r.verdict,
    ]),
  ];
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
  for (const row of table)
    console.log(
      '  ' +
        row
          .map((cell, c) => cell.padEnd(widths[c]))
          .join('  ')
          .trimEnd(),
    );
  console.log(
    `  start-up's rest after the first paint (the agent's parts loaded, its modules evaluated, the agent made, a ` +
      `tick each): median ${med(m.afterPaint).toFixed(0)} ms of CPU in the first second (reported)`,
  );
  RESULTS.push(...rows);
}

/** Start-up on each Node against a bare blessed screen on that Node, rounds interleaved. */
async function benchNodes() {
  const nodes = [process.execPath, ...(process.env.MILK_BENCH_NODES ?? '').split(':').filter(Boolean)];
  const { execFileSync } = require('node:child_process');
  const rounds = scaled(5, 1);
  const rows = [];
  for (const node of nodes) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    // Node's own compile cache (Node >= 22.1) beside milk.js's, which every Node has.
    const hasCache =
      execFileSync(node, ['-p', "typeof require('node:module').enableCompileCache === 'function'"], {
        encoding: 'utf8',
      }).trim() === 'true';
    const data = tmp('milk-bench-node-');
    // The data dir used once before, so a cache (where this Node has one) is there.
    const once = await spawnUntil([CLI, '--data-dir', data], 'history: session', {}, node);
    // The bundles' caches are written once start-up has settled (2 s).
    await sleep(2500);
    const gone = new Promise((resolve) => once.p.onExit(resolve));
    once.p.write('/quit\r');
    await gone;
    const base = [];
    const milk = [];
    for (let i = 0; i < rounds; i++) {
      const b = await spawnUntil([path.join(__dirname, 'bench-baseline.js')], 'baseline ready', {}, node);
      base.push(b.ms);
      b.p.kill('SIGKILL');
      const m = await spawnUntil([CLI, '--data-dir', data], 'history: session', {}, node);
      milk.push(m.ms);
      m.p.kill('SIGKILL');
    }
    const cached =
      fs.existsSync(path.join(data, 'cache')) &&
      fs.readdirSync(path.join(data, 'cache'), { recursive: true }).length > 0;
    rows.push({
      version,
      milk: stats(milk).median,
      base: stats(base).median,
      cache: !cached ? 'no cache' : hasCache ? "milk's, Node's" : "milk's caches",
    });
  }
  console.log(
    `start-up by Node (${rounds} interleaved round${rounds === 1 ? '' : 's'} each, 120x40 pty, data dir used once ` +
      `before):`,
  );
  for (const r of rows)
    console.log(
      `  ${r.version.padEnd(9)} ${r.cache.padEnd(13)} milk ${fmt(r.milk)}, bare blessed screen ${fmt(r.base)}, ` +
        `ratio ${(r.milk / r.base).toFixed(2)}x (goal ${STARTUP_GOAL}x, reported, not a check)`,
    );
}

/** What issue 19 streamed to stall the keyboard: each is streamed while keys are typed, and each key's echo timed. */
const HOSTILE_PAYLOADS = {
  'a 100 KB ```markdown fence of [': '```markdown\n' + '['.repeat(100_000) + '\n```\n',
  'zalgo (1,500 letters x 500 marks)': ('z' + '\u0301'.repeat(500) + ' ').repeat(1500),
  'a table with a 1 MB cell': `| a | b |\n|---|---|\n| ${'c'.repeat(1_000_000)} | d |\n`,
  'a 999,000-character word': 'y'.repeat(999_000),
};

async function benchPayloads() {
  for (const [name, payload] of Object.entries(HOSTILE_PAYLOADS)) {
    const dir = tmp('milk-bench-payload-');
    const file = path.join(dir, 'script.json');
    // 16 KB chunks 40 ms apart: the answer streams for as long as the keys are typed.
    const steps = [];
    for (let at = 0; at < payload.length; at += 16384)
      steps.push({ text: payload.slice(at, at + 16384) }, { delay: 40 });
    fs.writeFileSync(file, JSON.stringify({ turns: [steps] }));
    const data = tmp('milk-bench-payload-data-');
    fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ maxAnswerChars: 10000000 }));
    const m = startMilk(['--data-dir', data, '--script', file]);
    await m.until(() => m.status().includes('history: session'), 30000);
    m.p.write('go\r');
    await m.until(() => m.status().includes('working'), 10000);
    const s = stats(await keystrokes(m, scaled(30, 5)));
    const streaming = m.status().includes('working');
    m.p.kill('SIGKILL');
    console.log(
      `keystroke echo while streaming ${name}: median ${fmt(s.median)}, p99 ${fmt(s.p99)}, max ${fmt(s.max)} ` +
        `(n=${s.n}${streaming ? '' : '; the answer ended before the last key'}; ` +
        `budget p99 100 ms, +50%, times the machine factor ${machine.factor.toFixed(2)})`,
    );
    check(`keystroke echo while streaming ${name} p99`, s.p99, 100 * machine.factor, 0.5);
  }
}

/** A tree like a repository's: folders of 100 source files each, and an ignored node_modules. */
function sourceTree(files) {
  const root = tmp('milk-bench-tree-');
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n*.log\n');
  const body = (i) =>
    Array.from({ length: 30 }, (_, l) =>
      l === 7 && i % 1000 === 0
        ? `  // TODO(bench): item ${i}`
        : `  const value${l} = compute(${i}, ${l}); // function body line`,
    ).join('\n');
  for (let i = 0; i < files; i++) {
    const dir = path.join(
      root,
      i % 10 === 9 ? 'node_modules' : 'src',
      `pkg${Math.floor(i / 1000)}`,
      `mod${Math.floor(i / 100) % 10}`,
    );
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, `file${i}.${i % 3 === 0 ? 'js' : 'ts'}`),
      `export function f${i}() {\n${body(i)}\n}\n`,
    );
  }
  return root;
}

async function benchAgent() {
  const { globTool, grepTool } = require('../dist/tools/search');
  try {
    require('node:child_process').execFileSync('rg', ['--version']);
  } catch {
    throw new Error(
      "ripgrep (rg) is not on PATH: the agent case compares it with milk's own search (apt-get install ripgrep)",
    );
  }
  const files = scaled(50000, 500);
  const t0 = Date.now();
  const ws = sourceTree(files);
  console.log(
    `agent: a tree of ${files.toLocaleString('en-US')} files (a tenth of them in an ignored node_modules), made in ` +
      `${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  const ops = [
    ['glob **/*.ts', () => globTool(ws, { pattern: '**/*.ts' })],
    ['grep a rare word (TODO)', () => grepTool(ws, { pattern: 'TODO\\(bench\\)', context: 2 })],
    ['grep a word on every line, files mode', () => grepTool(ws, { pattern: 'function body', output: 'files' })],
  ];
  // Once before timing: the first call loads the search modules (milk loads them with the first tool call).
  const first = stallWatch();
  await globTool(ws, { pattern: 'none' });
  console.log(`  a first glob, loading the search modules: worst event-loop stall ${fmt(first())}`);
  for (const [label, op] of ops) {
    const answers = {};
    for (const [engine, env] of [
      ['ripgrep', undefined],
      ["milk's own", 'js'],
    ]) {
      if (env) process.env.MILK_SEARCH = env;
      else delete process.env.MILK_SEARCH;
      const times = [];
      let stall = 0;
      for (let i = 0; i < scaled(3, 1); i++) {
        const watching = stallWatch();
        const t = process.hrtime.bigint();
        answers[engine] = (await op()).text;
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
        stall = Math.max(stall, watching());
      }
      const m = stats(times).median;
      console.log(
        `  ${label}, ${engine}: median ${fmt(m)} (n=${times.length}); worst event-loop stall meanwhile ${fmt(stall)}`,
      );
      if (engine === 'ripgrep') check(`${label} over ${files} files with ripgrep`, m, 1000 * machine.factor, 0.3);
    }
    delete process.env.MILK_SEARCH;
    if (answers.ripgrep !== answers["milk's own"])
      throw new Error(`agent: ${label}: ripgrep and milk's own search answered differently`);
    console.log(`  ${label}: the same answer both ways (${answers.ripgrep.split('\n').length} lines)`);
  }
  fs.rmSync(ws, { recursive: true, force: true });

  // The system prompt: read once off the keystroke (after the first paint), built at each turn's start.
  const { AgentContext } = require('../dist/agent/context');
  const { Settings } = require('../dist/settings/store');
  const repo = tmp('milk-bench-prompt-');
  fs.mkdirSync(path.join(repo, '.git'));
  fs.writeFileSync(path.join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(path.join(repo, 'AGENTS.md'), '- Run the tests before saying a change is done.\n'.repeat(700));
  fs.mkdirSync(path.join(repo, 'pkg'));
  fs.writeFileSync(path.join(repo, 'pkg', 'AGENTS.md'), '- This package is pure: no I/O.\n'.repeat(50));
  const ctx = new AgentContext(
    path.join(repo, 'pkg'),
    tmp('milk-bench-prompt-data-'),
    new Settings({ provider: 'openai', model: null }),
    new Set(),
  );
  const loads = [];
  const builds = [];
  for (let i = 0; i < scaled(200, 5); i++) {
    let t = process.hrtime.bigint();
    ctx.load();
    loads.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    ctx.text();
    builds.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const size = ctx.text().length;
  console.log(
    `system prompt (${(size / 1024).toFixed(0)} KB, two AGENTS.md files): read at start-up and /new ` +
      `${fmt(stats(loads).median)}, built at a turn's start median ${fmt(stats(builds).median)}, p99 ` +
      `${fmt(stats(builds).p99)} (budget 2 ms, +50%, times the machine factor)`,
  );
  check("system prompt built at a turn's start", stats(builds).median, 2 * machine.factor, 0.5);
}

// The @-mention picker in a 50,000-file workspace: what a keystroke in it
// costs (the view and the composer, in-process; the matching runs in slices
// after it), the longest the loop stalls while a query runs over every path,
// and, in a pty, the time from @ to the first paths on screen.
async function benchMentions() {
  const n = scaled(50000, 5000);
  const ws = tmp('milk-bench-mentions-');
  let t = process.hrtime.bigint();
  for (let d = 0; d < n / 50; d++) {
    const dir = path.join(ws, `pkg${d % 40}`, `mod${d}`);
    fs.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 50; f++) fs.writeFileSync(path.join(dir, `file_${d}_${f}.ts`), '');
  }
  fs.writeFileSync(path.join(ws, 'main.ts'), '');
  console.log(
    `mentions: a workspace of ${n} files, made in ${(Number(process.hrtime.bigint() - t) / 1e9).toFixed(1)} s`,
  );

  const { FileIndex } = require('../dist/tools/file-index');
  const index = new FileIndex(ws);
  t = process.hrtime.bigint();
  const stopBuild = stallWatch();
  index.refresh();
  await index.ready();
  console.log(
    `  the index, listed and prepared off the keystroke: ${fmt(Number(process.hrtime.bigint() - t) / 1e6)}; worst ` +
      `event-loop stall meanwhile ${fmt(stopBuild())}`,
  );

  // A keystroke in the picker as the app pays for it: the view and the composer take the key and ask for the query.
  const { dispatch, initialUi } = require('../dist/composer/stack');
  const { CLUSTERING } = require('../dist/editor/width');
  const ctx = { history: [], busy: false, force: false, now: 0, lastKeyAt: -Infinity, emoji: CLUSTERING };
  const keys = [];
  const queries = SMOKE ? ['pkg1mod'] : ['pkg1mod', 'file_3_4', 'main', 'zzzz', 'p7m12f3', 'mod99'];
  for (const q of queries) {
    let ui = dispatch(initialUi, { kind: 'text', text: '@' }, ctx).ui;
    for (const ch of q) {
      const t0 = process.hrtime.bigint();
      const r = dispatch(ui, { kind: 'text', text: ch }, ctx);
      for (const e of r.effects) if (e.type === 'mentionQuery') index.search(e.query, 50, () => {});
      keys.push(Number(process.hrtime.bigint() - t0) / 1e6);
      ui = r.ui;
    }
  }
  const k = stats(keys);
  console.log(
    `  a keystroke in the picker (the view, the composer, the query asked for): median ${fmt(k.median)}, p99 ` +
      `${fmt(k.p99)} (n=${k.n}; budget p99 5 ms, +100%, times the machine factor ${machine.factor.toFixed(2)})`,
  );
  check('mention keystroke p99', k.p99, 5 * machine.factor, 1);
  // A query over every path, in slices: how long until its answer, and the longest the loop went without a turn
  // meanwhile.
  const answers = [];
  const stalls = [];
  for (const q of queries) {
    const stop = stallWatch();
    t = process.hrtime.bigint();
    await new Promise((resolve) => index.search(q, 50, resolve));
    answers.push(Number(process.hrtime.bigint() - t) / 1e6);
    stalls.push(stop());
  }
  const a = stats(answers);
  const st = stats(stalls);
  console.log(
    `  a query's answer over ${n} paths, in slices: median ${fmt(a.median)}, max ${fmt(a.max)}; worst event-loop ` +
      `stall meanwhile ${fmt(st.max)} (budget 16 ms, +100%, times the machine factor)`,
  );
  check('mention query loop stall', st.max, 16 * machine.factor, 1);

  // In a pty: @ typed once the index is made, until the first paths are on screen.
  const m = startMilk(['--data-dir', tmp('milk-bench-mentions-data-')], ws);
  await m.until(() => m.status().includes('history: session'), 30000);
  const screen = () =>
    Array.from({ length: m.term.rows }, (_, y) => m.term.buffer.active.getLine(y).translateToString(true)).join('\n');
  // As a person would: some words typed first (the list is made from the first key, in the background), then the @.
  m.p.write('x');
  await m.until(() => screen().includes('│x'), 5000);
  m.p.write('\x15');
  await m.until(() => false, 4000).catch(() => undefined);
  const firsts = [];
  for (let i = 0; i < (SMOKE ? 1 : 5); i++) {
    const t0 = process.hrtime.bigint();
    const shown = m.until(() => /› pkg0\//.test(screen()), 5000);
    m.p.write('@');
    firsts.push(Number((await shown) - t0) / 1e6);
    m.p.write('\x1b');
    await m.until(() => !/› pkg0\//.test(screen()), 5000);
    m.p.write('\x15');
    await m.until(() => !screen().includes('│@'), 5000);
  }
  m.p.kill('SIGKILL');
  const f = stats(firsts);
  console.log(
    `  @ to the first paths on screen, in a pty: median ${fmt(f.median)}, max ${fmt(f.max)} (n=${f.n}; budget 50 ` +
      `ms, +100%, times the machine factor)`,
  );
  check('mention first results', f.median, 50 * machine.factor, 1);
  await unusedLine('mentions', check);
}

/** The slash menu with 200 commands: a keystroke as the app pays for it (the view filters, its rows are made). */
function benchSlashMenu() {
  const { dispatch, initialUi } = require('../dist/composer/stack');
  const { CLUSTERING } = require('../dist/editor/width');
  const { SLASH_COMMANDS } = require('../dist/composer/slash-commands');
  const own = SLASH_COMMANDS.map((c) => ({ name: c.name, args: c.args, description: c.description }));
  const prompts = Array.from({ length: 200 - own.length }, (_, i) => ({
    name: `team:prompt-${i}-${['review', 'deploy', 'triage', 'release'][i % 4]}`,
    args: '',
    description: `A prompt command of the team's, number ${i}, with a description of some length (project)`,
  }));
  const commands = () => [...own, ...prompts];
  const ctx = { history: [], busy: false, force: false, now: 0, lastKeyAt: -Infinity, emoji: CLUSTERING, commands };
  const at = { width: 120, height: 9, emoji: CLUSTERING, keys: null, now: 0, historyMode: 'session' };
  const keys = [];
  const queries = SMOKE ? ['rev'] : ['rev', 'team:prompt-1', 'cmp', 'zzzz', 'status', 'deploy', 'h'];
  // Round 0 warms the code up and is not counted.
  for (let round = 0; round <= (SMOKE ? 1 : 5); round++)
    for (const q of queries) {
      let ui = dispatch(initialUi, { kind: 'text', text: '/' }, ctx).ui;
      for (const ch of q) {
        const t0 = process.hrtime.bigint();
        ui = dispatch(ui, { kind: 'text', text: ch }, ctx).ui;
        ui.views.at(-1).paint().rows(at);
        if (round > 0) keys.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }
  const k = stats(keys);
  console.log(
    `slash menu over ${own.length + prompts.length} commands: a keystroke (the list filtered, its rows made): median ` +
      `${fmt(k.median)}, p99 ${fmt(k.p99)} (n=${k.n}; budget p99 5 ms, +100%, times the machine factor)`,
  );
  check('slash menu keystroke p99', k.p99, 5 * machine.factor, 1);
}

/**
 * Issue 35: an image in the composer costs the keystroke nothing. A 4.9 MB PNG's path is pasted (as a dropped file
 * is): the file is read and measured after the paste, off the keystroke, and its chip takes the text's place. Then
 * keys are typed into two milks in blocks of ten, in turns, one with the chip and one without, each key timed until
 * it shows: the gate is the difference of their medians (a pty keystroke's p99 here is its noise, tens of ms either
 * way, so neither a p99 nor one process alone measures the chip). The bytes are read and encoded only at send.
 */
async function benchImages() {
  const file = path.join(tmp('milk-bench-images-'), 'screenshot.png');
  fs.writeFileSync(file, require('./png').png(64, 64, Math.round(4.9 * 1024 * 1024)));
  const start = async () => {
    const m = startMilk(['--data-dir', tmp('milk-bench-images-data-')]);
    await m.until(() => m.status().includes('history: session'), 30000);
    return { m, row: () => m.term.buffer.active.getLine(m.term.rows - 3).translateToString(true) };
  };
  const [chip, plain] = [await start(), await start()];
  const t0 = process.hrtime.bigint();
  const shown = chip.m.until(() => chip.row().includes('[image screenshot.png 64×64]'), 10000);
  chip.m.p.write(`\x1b[200~${file}\x1b[201~`);
  const chipMs = Number((await shown) - t0) / 1e6;
  const samples = { chip: [], plain: [] };
  const blocks = scaled(12, 1);
  for (let b = 0; b < blocks; b++)
    for (const [name, one] of [
      ['chip', chip],
      ['plain', plain],
    ])
      for (const ms of await typeTen(one.m, one.row)) samples[name].push(ms);
  for (const one of [chip, plain]) one.m.p.kill('SIGKILL');
  const c = stats(samples.chip);
  const p = stats(samples.plain);
  console.log(
    `images: a 4.9 MB screenshot's path pasted to its chip in the composer ${fmt(chipMs)} (read after the paste); ` +
      `keystroke to screen with the chip: median ${fmt(c.median)}, p99 ${fmt(c.p99)}; without: median ` +
      `${fmt(p.median)}, p99 ${fmt(p.p99)} (n=${c.n} each, interleaved; budget: the chip's median within 2 ms of ` +
      `the plain one's, +50%, times the machine factor)`,
  );
  check('keystroke with an image chip, median over one without', c.median - p.median, 2 * machine.factor, 0.5);
  await unusedLine('images', check);
}

/**
 * Issue 36: keys typed while four subagents stream their answers at once (their words are not drawn, but four
 * streams are read, sanitized and kept); then the idle CPU with a command left running quietly in the background.
 */
async function benchLongTasks() {
  const { startMockServer } = require('./mock-server');
  const mock = await startMockServer();
  try {
    const words = scaled(400, 40);
    const args = (model) => [
      '--data-dir',
      tmp('milk-bench-long-tasks-'),
      '--provider',
      'openai',
      '--base-url',
      `${mock.url}/v1`,
      '--model',
      model,
      '--approval',
      'full-auto',
    ];
    const m = startMilk(args(`tasks4:${words}`));
    await m.until(() => m.status().includes('history: session'), 30000);
    m.p.write('split it four ways\r');
    await m.until(() => m.status().includes('working'), 10000);
    // Until all four are answering (each has its system prompt and no tool result yet): then type.
    const streaming = () => mock.requests.filter((r) => r.scenario === 'tasks4' && r.completedAt === null).length;
    const deadline = Date.now() + 10000;
    while (streaming() < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const s = stats(await keystrokes(m, scaled(60, 5)));
    const during = streaming();
    await m.until(() => !m.status().includes('working'), 60000);
    m.p.kill('SIGKILL');
    console.log(
      `keystroke echo while four subagents stream at once: median ${fmt(s.median)}, p99 ${fmt(s.p99)}, max ` +
        `${fmt(s.max)} (n=${s.n}; ${during} streams still open at the last key; budget p99 50 ms, +50%, times the ` +
        `machine factor ${machine.factor.toFixed(2)})`,
    );
    check('keystroke echo while four subagents stream, p99', s.p99, 50 * machine.factor, 0.5);

    const b = startMilk(args('background-keep'));
    await b.until(() => b.status().includes('history: session'), 30000);
    b.p.write('start 4242\r');
    await b.until(() => !b.status().includes('working') && b.status().includes('↑'), 20000);
    // Past the turn's own after-work (the price table settles 2 s after it): then two quiet seconds.
    await new Promise((r) => setTimeout(r, 3000));
    const cpu0 = cpuNs(b.p.pid);
    await new Promise((r) => setTimeout(r, 2000));
    const idle = ((cpuNs(b.p.pid) - cpu0) / 2) * 100;
    b.p.kill('SIGKILL');
    console.log(`idle CPU with a background command running quietly (2 s): ${idle.toFixed(2)} % (budget 0.5 %, +100%)`);
    check('idle CPU with a background command running', idle, 0.5, 1);
  } finally {
    await mock.close();
  }
}

/**
 * Reach: a workspace whose trusted .milk/settings.json brings hooks and rules, and three hooks in config.json, start
 * as fast as none (the hooks run after the first paint: budget +15 % or 10 ms, as MCP servers'); and web_fetch's
 * request, body and HTML-to-Markdown of a 4.5 MB page run in a worker, off the keystroke path (keys typed meanwhile:
 * p99 50 ms).
 */
async function benchReach() {
  const none = tmp('milk-bench-reach-none-');
  const hooked = tmp('milk-bench-reach-hooks-');
  const plainWs = tmp('milk-bench-reach-ws-');
  const ws = fs.realpathSync(tmp('milk-bench-reach-project-'));
  const hook = { command: 'true' };
  fs.writeFileSync(path.join(none, 'config.json'), JSON.stringify({}));
  fs.writeFileSync(
    path.join(hooked, 'config.json'),
    JSON.stringify({ hooks: { session_start: [hook], before_tool: [{ match: 'shell', ...hook }], turn_end: [hook] } }),
  );
  fs.mkdirSync(path.join(ws, '.milk'));
  const settings = JSON.stringify({
    hooks: { after_tool: [hook] },
    allow: [{ tool: 'shell', prefix: 'npm test' }],
    deny: [{ path: 'secrets/**' }],
    approval: 'auto-edit',
  });
  fs.writeFileSync(path.join(ws, '.milk', 'settings.json'), settings);
  const { TrustStore } = require('../dist/config/trust');
  const { sha256Hex } = require('../dist/kernel/sha256');
  new TrustStore(hooked).set(ws, 'trusted', sha256Hex(settings));
  await startupOnce(['--data-dir', none], plainWs);
  await startupOnce(['--data-dir', hooked], ws);
  const without = [];
  const withAll = [];
  for (let i = 0; i < scaled(10, 2); i++) {
    without.push(await startupOnce(['--data-dir', none], plainWs));
    withAll.push(await startupOnce(['--data-dir', hooked], ws));
  }
  const a = stats(without);
  const b = stats(withAll);
  console.log(
    `startup to first paint with a trusted project's settings and three hooks: median ${fmt(b.median)}; with none: ` +
      `median ${fmt(a.median)} (n=${a.n} each; budget: the same +15 % or 10 ms, +10%)`,
  );
  check(
    "startup with a trusted project's settings and three hooks",
    b.median,
    Math.max(a.median * 1.15, a.median + 10),
    0.1,
  );
  await keysWhileFetching();
}

/**
 * Keys typed while web_fetch's worker turns a 4.5 MB article into Markdown. A first turn fetches a small page, as
 * a person's earlier turns would have: what any first turn loads (the tools' checks, the HTTP client, web_fetch's
 * module and the warm-ups typing starts) is not what this case measures, and it held keys for 100-150 ms here.
 */
async function keysWhileFetching() {
  const http = require('node:http');
  const para = '<p>' + 'A widget turns left when its lever is pulled, as the makers say. '.repeat(20) + '</p>\n';
  const body = para.repeat(Math.ceil((4.5 * 1024 * 1024) / para.length));
  const page = Buffer.from(`<html><head><title>Big</title></head><body><article>${body}</article></body></html>`);
  const small = `<html><head><title>Small</title></head><body><article>${para.repeat(3)}</article></body></html>`;
  const site = http.createServer((req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/small' ? small : page),
  );
  await new Promise((r) => site.listen(0, '127.0.0.1', r));
  const { startMockServer } = require('./mock-server');
  const mock = await startMockServer();
  try {
    const data = tmp('milk-bench-fetch-');
    const cwd = fs.realpathSync(tmp('milk-bench-fetch-ws-'));
    // A loopback address is fetched only from a host allowed by name (issue 54).
    const rules = [{ tool: 'web_fetch', prefix: '127.0.0.1' }];
    fs.writeFileSync(
      path.join(data, 'permissions.json'),
      JSON.stringify({ version: 1, workspaces: { [cwd]: { rules, deny: [] } } }),
    );
    const args = ['--data-dir', data, '--provider', 'openai', '--base-url', `${mock.url}/v1`];
    const m = startMilk([...args, '--model', 'fetch', '--approval', 'full-auto'], cwd);
    await m.until(() => m.status().includes('history: session'), 30000);
    const screen = () =>
      Array.from({ length: m.term.rows }, (_, y) => m.term.buffer.active.getLine(y).translateToString(true)).join('\n');
    const done = () => screen().includes('fetched: # Small') && !m.status().includes('working');
    m.p.write(`http://127.0.0.1:${site.address().port}/small\r`);
    await m.until(done, 30000);
    await sleep(1500);
    m.p.write(`http://127.0.0.1:${site.address().port}/big\r`);
    await m.until(() => m.status().includes('working'), 10000);
    // Keys in fives while the call runs (the page fetched, then parsed in its worker), up to 60.
    const samples = [];
    const composerRow = () => m.term.buffer.active.getLine(m.term.rows - 3).translateToString(true);
    while (samples.length < scaled(60, 5) && (samples.length < 5 || m.status().includes('working'))) {
      for (const x of await keystrokes(m, 5)) samples.push(x);
      m.p.write('\x15');
      await m.until(() => !composerRow().includes('x'));
    }
    const s = stats(samples);
    const still = m.status().includes('working') ? 'still fetching at the last key' : 'done before the last key';
    await m.until(() => !m.status().includes('working'), 60000);
    m.p.kill('SIGKILL');
    console.log(
      `keystroke echo while web_fetch parses a 4.5 MB page: median ${fmt(s.median)}, p99 ${fmt(s.p99)} ` +
        `(n=${s.n}, ${still}; ` +
        `budget p99 50 ms, +50%, times the machine factor ${machine.factor.toFixed(2)})`,
    );
    check('keystroke echo while web_fetch parses a 4.5 MB page, p99', s.p99, 50 * machine.factor, 0.5);
  } finally {
    await mock.close();
    site.close();
  }
  await unusedLine('hooks', check);
  await unusedLine('web', check);
}

/** Ten keys typed 20 ms apart, each timed until the composer shows it; then rubbed out again. */
async function typeTen(m, composer) {
  // The composer's text, its borders and the padding after it left out.
  const row = () =>
    composer()
      .replace(/^│/, '')
      .replace(/[│\s]+$/, '');
  const samples = [];
  const before = row();
  for (let i = 1; i <= 10; i++) {
    const shows = () => row().endsWith('x'.repeat(i)) && !row().endsWith('x'.repeat(i + 1));
    const t = process.hrtime.bigint();
    const done = m.until(shows);
    m.p.write('x');
    samples.push(Number((await done) - t) / 1e6);
    await new Promise((r) => setTimeout(r, 20));
  }
  for (let k = 0; k < 10; k++) m.p.write('\x7f');
  await m.until(() => row() === before);
  return samples;
}

/**
 * Issue 38: the transcript search and the mouse. In-process first, as the keystroke path pays for it: a transcript of
 * 100,000 lines (tool outputs folded and answers in Markdown, half each) searched a character at a time: the view's
 * matching, the view moved to the match (an output unfolded), and the frame's transcript rows with every match in
 * view lit. The corpus (every line joined once) is made when the search opens: reported. Then a drag's motion event
 * (the selection moved, the frame's rows lit) against that keystroke budget. Then in a pty: keys to the count on
 * the status bar over a 100,000-line answer, and drag motions against typed keys, interleaved.
 */
async function benchFind() {
  await measureMachine();
  const { TranscriptModel } = require('../dist/tui/transcript-model');
  const { transcriptRows } = require('../dist/tui/views');
  const { TranscriptSelect } = require('../dist/tui/transcript-select');
  const { TranscriptFindView } = require('../dist/composer/views/transcript-find');
  const { buildCorpus } = require('../dist/search/transcript-search');
  const { sanitize } = require('../dist/protocol/inert');
  const { CLUSTERING } = require('../dist/editor/width');
  const n = scaled(100000, 4000);
  const height = 38;
  const model = new TranscriptModel(120);
  model.setHeight(height);
  const words = ['module', 'check', 'render', 'flaky', 'test', 'parser', 'cache', 'error', 'value', 'screen'];
  for (let e = 0, lines = 0; lines < n; e++) {
    const size = Math.min(1000, n - lines);
    const text = Array.from({ length: size }, (_, i) => {
      const k = lines + i;
      return `${words[k % 10]} ${k} of the ${words[(k * 7) % 10]} step, ${words[(k * 3) % 10]} at ${k % 977}`;
    });
    if (e % 2 === 0) model.add('output', sanitize(text.join('\n')));
    else {
      const i = model.add('assistant', sanitize(''));
      // Paragraphs of a line, apart: a Markdown answer that renders to about as many rows as it has lines.
      model.append(i, sanitize(text.join('\n\n')));
      model.settle(i);
    }
    lines += size;
  }
  model.visible(height);
  let t = process.hrtime.bigint();
  const { lines, refs } = model.searchLines();
  const corpus = buildCorpus(lines, refs);
  const opened = Number(process.hrtime.bigint() - t) / 1e6;
  console.log(
    `transcript search over ${n} lines: opening it (every line laid out and joined once; then kept until the ` +
      `transcript changes) ${fmt(opened)}`,
  );
  const select = new TranscriptSelect({
    model,
    emoji: () => CLUSTERING,
    area: () => ({ top: 0, left: 0, height }),
    copy: () => '',
    hint: () => {},
    render: () => {},
  });
  const frame = () => transcriptRows(model, height, select.marks(), CLUSTERING);
  const apply = (effects) => {
    for (const e of effects ?? []) {
      if (e.type !== 'showMatch') continue;
      const serial = e.match ? model.showLine(e.match.entry, e.match.line, height) : null;
      select.setFound(e.query ? { query: e.query, serial, nth: e.match?.nth ?? 0 } : null);
    }
  };
  const saved = model.saveView();
  const samples = [];
  const queries = SMOKE
    ? ['flaky 3']
    : ['flaky 9', 'error 42', 'zzz none', 'e', 'render 99 of', 'Module', 'cache at 97', 'step, value'];
  // Round 0 warms the code up and is not counted.
  for (let round = 0; round < (SMOKE ? 2 : 3); round++)
    for (const q of queries) {
      let view = TranscriptFindView.open(corpus, corpus.text.length);
      const step = (input) => {
        const t0 = process.hrtime.bigint();
        const h = view.handle(input, null, null);
        apply(h.effects);
        if (h.view) view = h.view;
        frame();
        if (round > 0) samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
      };
      for (const ch of q) step({ kind: 'text', text: ch });
      step({ kind: 'command', name: 'find.done' });
      for (let i = 0; i < 6; i++) step({ kind: 'command', name: i % 3 === 2 ? 'found.prev' : 'found.next' });
      if (process.env.BENCH_DEBUG) console.log(q, view.count);
      model.restoreView(saved);
      select.setFound(null);
    }
  const k = stats(samples);
  console.log(
    `  a search keystroke (match, the view moved, the frame's rows lit): median ${fmt(k.median)}, p99 ` +
      `${fmt(k.p99)}, max ${fmt(k.max)} (n=${k.n}; budget p99 16 ms, +50%, times the machine factor ` +
      `${machine.factor.toFixed(2)})`,
  );
  check('transcript search keystroke p99', k.p99, 16 * machine.factor, 0.5);

  // A drag across the view: press, then a motion event a cell at a time over rows, each with its frame.
  const drags = [];
  for (let round = 0; round < (SMOKE ? 1 : 4); round++) {
    select.mouse('press', 10, 5, round * 1000);
    for (let i = 0; i < 200; i++) {
      const t0 = process.hrtime.bigint();
      select.mouse('drag', 10 + (i % 80), 5 + (Math.floor(i / 8) % 30), round * 1000);
      frame();
      drags.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    select.mouse('release', 10, 30, round * 1000);
  }
  const d = stats(drags);
  console.log(
    `  a drag's motion event (the selection moved, the frame's rows lit): median ${fmt(d.median)}, p99 ` +
      `${fmt(d.p99)} (n=${d.n}; budget: a keystroke's, p99 16 ms, +50%, times the machine factor)`,
  );
  check("drag motion p99 (a keystroke's budget)", d.p99, 16 * machine.factor, 0.5);
  await findInPty(n);
}

/** In a pty: a 100,000-line answer; search keys to the count on screen; drag motions against typed keys. */
async function findInPty(n) {
  const dir = tmp('milk-bench-find-');
  const file = path.join(dir, 'script.json');
  const text = Array.from({ length: n }, (_, i) => `line ${i} of a very long answer`).join('\n');
  fs.writeFileSync(file, JSON.stringify({ turns: [[{ text }]] }));
  const data = tmp('milk-bench-find-data-');
  fs.writeFileSync(path.join(data, 'config.json'), JSON.stringify({ maxAnswerChars: 10000000 }));
  const m = startMilk(['--data-dir', data, '--script', file]);
  await m.until(() => m.status().includes('history: session'), 30000);
  m.p.write('fill\r');
  const row = (y) => m.term.buffer.active.getLine(y).translateToString(true);
  await m.until(() => row(5).length > 0 && !m.status().includes('working') && m.status().includes('history'), 60000);
  await new Promise((r) => setTimeout(r, 500));
  const searchKeys = [];
  for (const q of SMOKE ? ['line 77'] : ['line 12345', 'line 99 ', 'answer', 'line 5000 of']) {
    m.p.write('\x18\x06');
    await m.until(() => m.status().includes('find: '));
    for (let i = 1; i <= q.length; i++) {
      const want = `find: ${q.slice(0, i)} [`;
      const t0 = process.hrtime.bigint();
      const done = m.until(() => m.status().includes(want));
      m.p.write(q[i - 1]);
      searchKeys.push(Number((await done) - t0) / 1e6);
      await new Promise((r) => setTimeout(r, 10));
    }
    m.p.write('\x1b');
    await m.until(() => m.status().includes('history'));
  }
  const s = stats(searchKeys);
  console.log(
    `  in a pty over a ${n}-line answer: a search key to its count on screen: median ${fmt(s.median)}, p99 ` +
      `${fmt(s.p99)} (n=${s.n}; the first opened the search: every line laid out and joined)`,
  );
  // Drag motions (until the head's cell is drawn selected) interleaved with typed keys (until echoed).
  const inverse = (x, y) => Boolean(m.term.buffer.active.getLine(y)?.getCell(x)?.isInverse());
  const composerRow = () => m.term.buffer.active.getLine(m.term.rows - 3).translateToString(true);
  const motions = [];
  const typed = [];
  m.p.write('\x1b[<0;3;6M');
  for (let i = 0; i < scaled(40, 5); i++) {
    // Along a row and on to the next, within their text (the selection lights text, not the blank after it).
    const x = 4 + (i % 20);
    const y = 6 + Math.floor(i / 20);
    let t0 = process.hrtime.bigint();
    let done = m.until(() => inverse(x, y));
    m.p.write(`\x1b[<32;${x + 1};${y + 1}M`);
    motions.push(Number((await done) - t0) / 1e6);
    await new Promise((r) => setTimeout(r, 20));
    const want = 'x'.repeat(i + 1);
    t0 = process.hrtime.bigint();
    done = m.until(() => composerRow().includes('│' + want + ' '));
    m.p.write('x');
    typed.push(Number((await done) - t0) / 1e6);
    await new Promise((r) => setTimeout(r, 20));
  }
  m.p.kill('SIGKILL');
  const mo = stats(motions);
  const ty = stats(typed);
  console.log(
    `  in a pty: a drag motion to its cell drawn selected: median ${fmt(mo.median)}, p99 ${fmt(mo.p99)}; a typed ` +
      `key to its echo: median ${fmt(ty.median)}, p99 ${fmt(ty.p99)} (n=${mo.n} each, interleaved)`,
  );
}

/** A PATH with every program of this one but git: each of its folders' entries linked into one folder, git left out. */
function pathWithoutGit() {
  return pathWithout((name) => name === 'git' || name.startsWith('git-'));
}

/** A PATH with every program of this one but those `left` names: each folder's entries linked into one folder. */
function pathWithout(left) {
  const farm = tmp('milk-bench-without-');
  for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean)) {
    let names;
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (left(name) || fs.existsSync(path.join(farm, name))) continue;
      fs.symlinkSync(path.join(dir, name), path.join(farm, name));
    }
  }
  return farm;
}

/**
 * Issue 53: with --sandbox off the model's commands run in a process namespace of their own (bwrap --unshare-pid),
 * probed once per milk. A turn that runs one command, CPU of the process tree (milk, bwrap, the command, git for the
 * snapshot), with bwrap on PATH against a PATH without it (the plain process group); three turns per milk, the first
 * paying for the probe, alternating which goes first.
 */
async function benchUnsandboxedCommand() {
  const { startMockServer } = require('./mock-server');
  const mock = await startMockServer();
  const noBwrap = pathWithout((name) => name === 'bwrap');
  const m = { bwrap: [], none: [] };
  const one = async (which) => {
    const env = which === 'none' ? { PATH: noBwrap } : {};
    const argv = [CLI, '--data-dir', tmp('milk-bench-box-'), '--provider', 'openai', '--base-url', `${mock.url}/v1`];
    const flags = ['--model', 'run', '--sandbox', 'off', '--approval', 'full-auto'];
    const run = await spawnUntil([...argv, ...flags], 'history: session', env, process.execPath, false, tmp('ws-'));
    for (let turn = 0; turn < 3; turn++) {
      run.p.write(`echo ${turn}`);
      await run.until(() => run.screen().includes(`│echo ${turn} `));
      await sleep(200);
      m[which].push(await turnCpu(run));
    }
    run.p.kill('SIGKILL');
  };
  try {
    for (let round = 0; round < (SMOKE ? 1 : 10); round++)
      for (const which of round % 2 === 0 ? ['bwrap', 'none'] : ['none', 'bwrap']) await one(which);
  } finally {
    await mock.close();
    fs.rmSync(noBwrap, { recursive: true, force: true });
  }
  const med = (xs) => stats(xs).median;
  const ratio = med(m.bwrap) / med(m.none);
  console.log(
    `a turn running one command with --sandbox off, CPU of milk and its children: in its own process namespace ` +
      `(bwrap) ${med(m.bwrap).toFixed(3)} s, a plain process group (no bwrap on PATH) ${med(m.none).toFixed(3)} s; ` +
      `ratio ${ratio.toFixed(3)} (budget 1.25, +10%; n=${m.bwrap.length} each, the first turn of each milk probing)`,
  );
  check('command turn CPU with --sandbox off, pid namespace against none', ratio, 1.25, 0.1);
  await unusedLine('sandbox', check);
}

/**
 * Issue 49: a turn that runs no command costs the same whether git is on PATH or not (the snapshots are taken only in
 * turns that run a command). The same 4,000-token chat answer and Ctrl-C to idle, alternating between a milk whose
 * PATH has git and one whose PATH has everything else; CPU of the process tree (milk and its children).
 */
async function benchChatWithoutCommands() {
  const { startMockServer } = require('./mock-server');
  const mock = await startMockServer();
  const tokens = SMOKE ? 400 : 4000;
  const noGit = pathWithoutGit();
  const m = { git: { cpu: [], ctrlc: [] }, none: { cpu: [], ctrlc: [] } };
  const one = async (which) => {
    const env = which === 'none' ? { PATH: noGit } : {};
    const argv = [CLI, '--data-dir', tmp('milk-bench-git-'), '--provider', 'openai', '--base-url', `${mock.url}/v1`];
    const run = await spawnUntil([...argv, '--model', `rate:${tokens}`], 'history: session', env);
    run.p.write('go');
    await run.until(() => run.screen().includes('│go '));
    await sleep(300);
    m[which].cpu.push(await turnCpu(run));
    run.p.write('/model slow:20\r');
    await run.until(() => run.screen().includes('model: slow:20') && !run.screen().includes('│/model'), 5000);
    for (let i = 0; i < 3; i++) {
      m[which].ctrlc.push(await ctrlcToIdle(run, `turn ${i}`));
      await sleep(300);
    }
    run.p.kill('SIGKILL');
  };
  try {
    for (let round = 0; round < (SMOKE ? 1 : 15); round++) {
      const order = round % 2 === 0 ? ['git', 'none'] : ['none', 'git'];
      for (const which of order) await one(which);
    }
  } finally {
    await mock.close();
    fs.rmSync(noGit, { recursive: true, force: true });
  }
  const med = (xs) => stats(xs).median;
  const cpuRatio = med(m.git.cpu) / med(m.none.cpu);
  console.log(
    `a ${tokens}-token chat turn (no command), CPU of milk and its children: git on PATH ` +
      `${med(m.git.cpu).toFixed(3)} s, git not on PATH ${med(m.none.cpu).toFixed(3)} s; ratio ${cpuRatio.toFixed(3)} ` +
      `(budget 1.05, +10%; n=${m.git.cpu.length} each, alternated)`,
  );
  console.log(
    `  Ctrl-C to idle: git on PATH median ${fmt(med(m.git.ctrlc))}, git not on PATH ${fmt(med(m.none.ctrlc))} ` +
      `(n=${m.git.ctrlc.length} each; budget: within 2 ms, +100%)`,
  );
  check('chat turn CPU, git on PATH against not', cpuRatio, 1.05, 0.1);
  check('Ctrl-C to idle, git on PATH minus not (ms)', Math.max(0, med(m.git.ctrlc) - med(m.none.ctrlc)), 2, 1);
  await unusedLine('snapshots', check);
  await unusedLine('proxy', check);
}

/**
 * Issue 39: the workspace's snapshots (session/snapshots.ts, real git). A tree of 50,000 files is snapshotted
 * the first time (reported: every file read and stored), then again unchanged (the budget: a stat walk of the tree,
 * under 300 ms on this machine, off the keystroke path: a turn's request is on its way meanwhile), then with one file
 * changed.
 */
async function benchSnapshots() {
  await measureMachine();
  const { Snapshots } = require('../dist/session/snapshots');
  const n = scaled(50000, 2000);
  const ws = tmp('milk-bench-snap-ws-');
  for (let d = 0; d < n / 100; d++) {
    const dir = path.join(ws, `pkg${d}`, 'src');
    fs.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++)
      fs.writeFileSync(
        path.join(dir, `file${f}.ts`),
        `export const v${d}_${f} = ${d * 100 + f}; // ${'x'.repeat(120)}\n`,
      );
  }
  fs.writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n');
  const store = path.join(tmp('milk-bench-snap-data-'), 'store.git');
  const warned = [];
  const s = new Snapshots({
    workspace: ws,
    store,
    leaveOut: [],
    maxFileBytes: 10 * 1048576,
    warn: (t) => warned.push(t),
    order: () => 0,
  });
  const timed = async (seq) => {
    const t0 = process.hrtime.bigint();
    await s.turnSnapshot(seq);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const first = await timed(0);
  const unchanged = [];
  for (let i = 1; i <= (SMOKE ? 3 : 10); i++) unchanged.push(await timed(i));
  fs.appendFileSync(path.join(ws, 'pkg7', 'src', 'file3.ts'), '// changed\n');
  const changed = await timed(100);
  if (warned.length) console.log(`  (said: ${warned.join('; ')})`);
  const u = stats(unchanged);
  console.log(
    `snapshot of a ${n}-file workspace: the first ${fmt(first)} (every file read and stored); unchanged: median ` +
      `${fmt(u.median)}, max ${fmt(u.max)} (n=${u.n}; budget median 300 ms, +20%, times the machine factor ` +
      `${machine.factor.toFixed(2)}); one file changed ${fmt(changed)}`,
  );
  check(`snapshot of an unchanged ${n}-file workspace`, u.median, 300 * machine.factor, 0.2);
  fs.rmSync(ws, { recursive: true, force: true });
}

/**
 * Issue 39: every conversation searched (session/search.ts): 256 MB of conversation logs in 40 sessions (1 GB scaled
 * from it: the search is a linear scan), a word said in a few answers, a word said nowhere, and a common one (its
 * matches capped). Budget: 1 GB in under 2 s on this machine.
 */
async function benchSessionsSearch() {
  await measureMachine();
  const { searchSessions } = require('../dist/session/search');
  const data = tmp('milk-bench-logs-');
  const target = scaled(256, 16) * 1024 * 1024;
  const words = ['render', 'module', 'cache', 'timer', 'parser', 'retry', 'socket', 'buffer', 'schema', 'token'];
  let written = 0;
  for (let s = 0; written < target; s++) {
    const dir = path.join(data, 'sessions', `ws-${s % 40}-abcdef12`);
    fs.mkdirSync(dir, { recursive: true });
    const lines = [
      JSON.stringify({
        t: 'start',
        conv: `c${s}`,
        ts: '2026-11-01T10:00:00Z',
        provider: 'x',
        model: 'm',
        workspace: `/w/${s}`,
      }),
    ];
    for (let i = 0; i < 200; i++) {
      const text = Array.from({ length: 60 }, (_, k) => words[(s * 7 + i * 3 + k) % 10]).join(' ');
      const said = i === 100 && s % 97 === 0 ? ' the kingfisher test is flaky ' : '';
      lines.push(
        JSON.stringify({ t: 'user', conv: `c${s}`, ts: '2026-11-01T10:00:01Z', segments: [{ type: 'text', text }] }),
      );
      lines.push(JSON.stringify({ t: 'delta', conv: `c${s}`, msg: i, text: text + said + text }));
      lines.push(
        JSON.stringify({ t: 'tool', conv: `c${s}`, callId: `x${i}`, name: 'shell', content: `${text}\n${text}` }),
      );
    }
    const body = lines.join('\n') + '\n';
    fs.writeFileSync(path.join(dir, `c${s}.jsonl`), body);
    written += body.length;
  }
  const scale = (1024 * 1024 * 1024) / written;
  const rows = [];
  for (const q of ['kingfisher', 'nowhere-said-word', 'schema token']) {
    const times = [];
    let found = null;
    for (let i = 0; i < (SMOKE ? 1 : 3); i++) {
      const t0 = process.hrtime.bigint();
      found = await searchSessions(data, q);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const t = stats(times).median;
    rows.push(`"${q}" ${fmt(t)} (${found.hits.length}${found.more ? `+${found.more}` : ''} matches, by ${found.by})`);
    check(`sessions search "${q}" over 1 GB (scaled)`, t * scale, 2000 * machine.factor, 0.2);
  }
  console.log(
    `sessions search over ${(written / 1048576).toFixed(0)} MB of logs: ${rows.join('; ')}; scaled to 1 GB ` +
      `(x${scale.toFixed(1)}; budget 2 s, +20%, times the machine factor ${machine.factor.toFixed(2)})`,
  );
  fs.rmSync(data, { recursive: true, force: true });
}

const CASES = {
  budgets: benchBudgets,
  nodes: benchNodes,
  startup: benchStartup,
  firstpaint: async () => {
    await measureMachine();
    await require('./bench-first-paint').benchFirstPaint({ check, machine, smoke: SMOKE });
  },
  resume: benchResume,
  history: benchHistory,
  submit: benchSubmit,
  search: benchSearch,
  turns: benchTurns,
  transcript: benchLongTranscript,
  payloads: benchPayloads,
  markdown: benchMarkdown,
  agent: benchAgent,
  mentions: benchMentions,
  slash: benchSlashMenu,
  images: benchImages,
  long: benchLongTasks,
  reach: benchReach,
  find: benchFind,
  snapshots: benchSnapshots,
  unused: benchChatWithoutCommands,
  unboxed: benchUnsandboxedCommand,
  snapturn: async () => {
    await measureMachine();
    await require('./bench-snapshot-turn').benchSnapshotTurn({ check, machine, smoke: SMOKE, keystrokes });
  },
  race: () => require('./bench-snapshot-turn').benchRace({ check, smoke: SMOKE }),
  denyparse: () => require('./bench-deny').benchDenyParse({ check, smoke: SMOKE }),
  detector: async () => {
    await measureMachine();
    await require('./bench-detector').benchDetector({ check, smoke: SMOKE, machine });
  },
  acp: async () => {
    await measureMachine();
    const screenFirstWords = async (args) => {
      const run = await spawnUntil([CLI, '--data-dir', tmp('milk-bench-acp-screen-'), ...args], 'history: session');
      try {
        await sleep(1000);
        return (await firstAnswer(run)).firstToken;
      } finally {
        run.p.kill('SIGKILL');
      }
    };
    await require('./bench-acp').benchAcp({ check, smoke: SMOKE, machine, screenFirstWords });
  },
  soak: async () => {
    await measureMachine();
    await require('./bench-soak').benchSoak({ check, smoke: SMOKE, machine, keystrokes });
  },
  // Not among the cases run by default: only with --against REF.
  against: () => require('./bench-against').benchAgainst(AGAINST, { check, smoke: SMOKE }),
  gate: () => require('./bench-against').benchGateSelfTest({ check, smoke: SMOKE }),
  sessions: benchSessionsSearch,
  mcp: benchMcp,
  skills: benchSkills,
  plugins: benchPlugins,
  statusline: benchStatusLine,
  stats: async () => {
    await measureMachine();
    await require('./bench-stats').benchStats({ check, smoke: SMOKE, machine });
  },
};

const NOTES = `Notes on reading these figures:

- Timings on this shared 2-core machine drift by up to a third over a day; compare figures from one run. The
  budgets table puts each figure beside a baseline measured in the same run, rounds interleaved.
- Budgets (issue 13): start-up is timed to the first painted status bar in a 120x40 pty, against a program
  that only creates a blessed screen and draws one box (scripts/bench-baseline.js). "Start-up" is a start in
  a data dir used once before (one start, one short answer, /quit), as every start but a person's first;
  the first start, in a new data dir, is the row under it. The first is started 35 times, the second 63, each
  just after a bare screen, and gated by the median of those ratios (1.2x and 1.3x); their milliseconds are reported
  beside the 150 ms
  budget times the machine factor. First token is Enter to the answer's first words
  on screen, the prompt typed and paused over first as a person does, against the mock server's own first
  byte. Streaming is a 4,000-token answer at 2,000 tokens/s; bytes are everything written to the terminal
  meanwhile, against the answer's size. CPU is that of milk's process tree (milk and the processes it starts, each
  with all its threads, the compiler's included, from /proc); its
  gate is the ratio to a bare blessed client streaming the same answer in the same round, painting at most once a
  frame (scripts/bench-stream-baseline.js), as CPU seconds drift with the machine's load more than a start-up's
  time does; the seconds are reported beside their budget.
- What the profiles (node --cpu-prof on the built program in a pty, per-thread schedstat) showed, and what
  was done:
  - bytes while streaming: every new row moved the whole transcript up a row and blessed rewrote every cell
    (620 KB for an 18 KB answer). The transcript now scrolls with the terminal's scroll region (blessed's
    deleteLine shifts its own record with it), so a frame writes only the new rows.
  - first token: the OpenAI SDK (about 60 ms to load), undici's first use (about 25 ms) and markdown-it were
    all loaded by the Enter key. The SDKs are gone (below); the HTTP client and markdown-it load in small
    steps once typing starts.
  - start-up: blessed's index loads its forty widgets (an image decoder among them); milk loads the screen
    and box only. fs-extra (20 ms) is gone, valibot loads only for a config file, tools and the shell
    subcommands load when first used, and dist/milk.js is one esbuild bundle of milk's own modules (since
    issue 32 made from the TypeScript sources, in one scope, without blanks or comments). Then
    compiling JavaScript was the largest part left (wrapSafe, about 16 ms of profile, blessed's files most
    of it): milk turns on Node's own compile cache (module.enableCompileCache, Node >= 22.1) in the data
    dir; Node 20 has none and compiles at every start (the "nodes" case shows both). An earlier hook that
    fed every package file through vm.Script with cached data on Node 20 is gone: it patched Node's private
    Module.prototype._compile and broke require() of ES-module-only packages. Blessed also compiled all ~170 string
    capabilities of the terminal with new Function (no cache helps) on every start, about 10 ms; each now
    compiles when first used (src/tui/screen.ts), to the same output (__tests__/component/tput.test.ts).
    Since issue 55 the bundle is split (scripts/bundle.js): dist/milk.js holds only what the first paint runs and
    the agent's parts (dist/parts/) load a tick each after it; milk.js is compiled with V8's cache of it, made in
    the data dir once start-up has run (Node's compile cache, made as a file is compiled, never held the functions
    start-up ran); the "firstpaint" case shows what is still compiled before the first paint. Every bundle has such
    a cache now (src/code-cache.ts), made again after the first turn, so a later first turn does not compile the
    request, the stream and the answer's first frames again; and the parts no session needs (the shell commands,
    snapshots) load only where they are used.
  - idle: after the width probe the whole screen was repainted; now only the probe's row is.
  - streaming CPU: split by thread, a first answer cost 0.27 s on the main thread and 0.24 s on V8's
    compiler and GC threads. The OpenAI SDK's path (undici's fetch, web streams, its SSE decoder) cost
    0.23 s of that for 4,000 tokens against 0.06 s for node:http with eventsource-parser, so both providers
    now stream over node:http (one retry, retry-after, the watchdog and every error message kept; tested
    against the mock server). The rest is per frame: the growing paragraph parsed and wrapped again, the
    rows painted, blessed's diff. Wrapping now scans a row at a time, blessed no longer fills the cells milk
    paints anyway, and streamed text paints at 20 frames a second (first words and keys at 60). Functions a
    first answer runs are in the code cache too, which trims what the first answer compiles. Issue 55's profile of
    a first answer sent 0.5 s after the prompt was typed found the typing warm-ups (Markdown, the highlighter's
    grammars, a sample answer streamed into a throwaway transcript) still running beside the real answer: work
    done twice, 1.25x-1.3x the bare client. They stop when a turn starts, a grammar is registered when a fence
    first names it, and the idle watchdog notes a time per chunk instead of re-arming a timer.
- Markdown against plain text (the markdown case): a long answer's complete blocks are rendered only when
  the view reaches them. While the view follows the bottom, the part of a burst that scrolls past costs a
  line scan for where its blocks start (src/markdown/cuts.ts), not markdown-it's parse and milk's layout;
  paging back renders each part as it comes into view. Before that, the 1 MB mixed answer cost 4.2-6.4x the
  plain one: markdown-it alone parses a megabyte in about 0.09 s once warm (0.49 s the first time in a
  process), and holding 55,000 rendered rows made every collection slower.
  A second 1 MB Markdown answer against a second plain one is reported, not checked: the plain one costs
  about 0.09 CPU s, and the ratio read 1.83 to 2.42 over six runs of one build, five rounds each.
- Keys typed while 1 MB of Markdown streams: 180 keys in three fresh milks, checked at their p90. Their p99
  (one stream's slowest key but one) is set by one late wake-up or one major collection on this 2-core
  machine, and read 22 to 45 ms over runs of one build (the median of three streams' p99s too) while the
  p90 read 16 to 22 ms. A trace of those keys in milk showed the slow ones waiting 10-14 ms between
  their arrival and their frame with the event loop busy (the stream's chunks, collections): a scheduler
  that painted such a key at once instead of on the next 16 ms frame changed nothing. The p99 is reported.
- The search keystroke p99 is taken over 75 keystrokes, so it is in effect the slowest one: a single
  garbage collection decides whether it reads 4 ms or 8.
- "record() blocks the loop" is the time HistoryService.record() runs inside the Enter key's handler: the
  event loop can do nothing else meanwhile. "Worst loop stall" is the longest gap between 1 ms timer ticks
  while 20 submits and any retries ran, so it also catches garbage collection and scheduler jitter.
- A submit appends one line per history file (lock, one O_APPEND write); the fsync runs off the event loop.
  Compaction (dedupe and cap, temp file and rename) runs only when a file passes 1.25 x its cap, after a
  pause in submits or at exit; at 100,000 entries it takes the figure shown, once per 25,000 submits.
- The on-screen search median is the frame scheduler: the bench sends each key right after the previous
  paint, so it waits for the next 16 ms frame.
`;

/** Cases run only when named. */
const ON_REQUEST = ['against', 'gate'];

/** The selected cases once; a budget missed beyond its headroom is measured once more. Returns what missed twice. */
async function oneRun(only) {
  CHECKS.length = 0;
  for (const [name, run] of Object.entries(CASES)) {
    // The comparisons with other builds run only when named: each builds those first.
    if ((only.length && !only.includes(name)) || (ON_REQUEST.includes(name) && !only.includes(name))) continue;
    if (name === 'against' && !AGAINST)
      throw new Error('the against case needs --against REF (a commit to compare with)');
    currentCase = name;
    await run();
  }
  // A miss must happen twice: a case with a budget past its headroom is measured once more, and only a
  // budget that misses again fails the bench (one noisy minute on a shared machine is not a regression).
  const first = SMOKE ? [] : CHECKS.filter(beyond);
  FIRST_MISSES.push(first.map((c) => c.case));
  const again = [...new Set(first.map((c) => c.from))];
  for (const name of again) {
    console.log(
      `measuring ${name} again: ${first
        .filter((c) => c.from === name)
        .map((c) => c.case)
        .join(', ')} missed beyond headroom`,
    );
    const before = CHECKS.length;
    currentCase = name;
    await CASES[name]();
    const retried = CHECKS.splice(before);
    for (let i = CHECKS.length - 1; i >= 0; i--) if (CHECKS[i].from === name) CHECKS.splice(i, 1);
    CHECKS.push(...retried);
  }
  return SMOKE ? [] : CHECKS.filter(beyond);
}

/** For each run of --repeat N, the checks that missed beyond headroom on their first measure. */
const FIRST_MISSES = [];

/**
 * --repeat N (item 11 of issue 32: a gate must pass 20 runs in a row): the selected cases N times, then
 * for every check how many runs passed it on the first measure and how many in the end, and its worst figure.
 */
async function repeatedRuns(only) {
  const runs = [];
  /** name -> { first, final, worst, budget } */
  const seen = new Map();
  for (let i = 1; i <= REPEAT; i++) {
    console.log(`== run ${i} of ${REPEAT}`);
    const missed = await oneRun(only);
    runs.push(missed);
    for (const c of CHECKS) {
      const s = seen.get(c.case) ?? { first: 0, final: 0, worst: -Infinity, budget: 0, headroom: c.headroom };
      if (!FIRST_MISSES.at(-1).includes(c.case)) s.first++;
      if (!beyond(c)) s.final++;
      // How far past its budget a figure went: a ratio, or the difference where the budget is 0 (processes).
      const over = (value, budget) => (budget > 0 ? value / budget : value - budget);
      if (s.worst === -Infinity || over(c.value, c.budget) > over(s.worst, s.budget))
        Object.assign(s, { worst: c.value, budget: c.budget });
      seen.set(c.case, s);
    }
    console.log(`== run ${i}: ${missed.length === 0 ? 'pass' : `MISS: ${missed.map((c) => c.case).join(', ')}`}`);
  }
  console.log(`repeat: ${runs.filter((r) => r.length === 0).length} of ${REPEAT} runs passed`);
  for (const [name, s] of seen) {
    console.log(
      `  ${name}: first measure passed ${s.first}/${REPEAT}, in the end ${s.final}/${REPEAT}; worst ` +
        `${s.worst.toFixed(2)} against ${s.budget.toFixed(2)} (+${Math.round(s.headroom * 100)}%)`,
    );
  }
  return runs;
}

/** BENCHMARKS.md's section for a --repeat run, kept by the plain runs that rewrite the rest. */
const STABILITY_START = '<!-- stability:start -->';
const STABILITY_END = '<!-- stability:end -->';

/** The stability section of BENCHMARKS.md's text, or '' where it has none. */
function stabilitySection(text) {
  const a = text.indexOf(STABILITY_START);
  const b = text.indexOf(STABILITY_END);
  return a === -1 || b < a ? '' : text.slice(a, b + STABILITY_END.length);
}

/** BENCHMARKS.md for a run: its figures and the notes, with the stability section the file had kept after them. */
function withRun(before, stamp, lines) {
  const kept = stabilitySection(before);
  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench -- --write` (scripts/bench.js); do not edit by hand.',
    stamp,
    '',
    '```',
    ...lines,
    '```',
    '',
    NOTES,
    ...(kept ? ['', kept, ''] : []),
  ].join('\n');
}

/** BENCHMARKS.md with a --repeat run as its stability section (the rest as it was). */
function withStability(before, stamp, lines) {
  const section = [
    STABILITY_START,
    '## Stability',
    '',
    `Written by \`npm run bench -- --write --repeat=${REPEAT} CASE…\`: the same cases run ${REPEAT} times in a row ` +
      'on one commit, with how many runs each check passed. Not run in CI.',
    stamp,
    '',
    '```',
    ...lines,
    '```',
    STABILITY_END,
  ].join('\n');
  const old = stabilitySection(before);
  if (old) return before.replace(old, () => section);
  return `${before.trimEnd()}\n\n${section}\n`;
}

async function main() {
  const args = process.argv.slice(2);
  const write = args.includes('--write');
  const json = args.includes('--json');
  if (write && SMOKE) throw new Error('--smoke figures are not worth writing down: run without --smoke to --write');
  const only = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--against');
  // --against REF alone is the comparison alone; with cases named, it runs with them.
  if (AGAINST && only.length === 0) only.push('against');
  const lines = [];
  const log = console.log;
  // With --json, standard output is the JSON alone; the running commentary goes to standard error.
  const say = json ? (...parts) => process.stderr.write(parts.join(' ') + '\n') : log;
  console.log = (...parts) => {
    lines.push(parts.join(' '));
    say(...parts);
  };
  console.log(`milk bench: node ${process.version}, ${os.cpus().length} cpus, ${os.cpus()[0]?.model ?? ''}`);
  const runs = REPEAT > 1 ? await repeatedRuns(only) : [await oneRun(only)];
  const missed = runs.at(-1);
  for (const c of missed)
    console.log(
      `MISS beyond headroom (twice): ${c.case}: ${c.value.toFixed(2)} against ${c.budget.toFixed(2)} ` +
        `(+${Math.round(c.headroom * 100)}%)`,
    );
  console.log = log;
  if (runs.some((r) => r.length > 0)) process.exitCode = 1;
  if (json)
    log(
      JSON.stringify(
        {
          node: process.version,
          cpus: os.cpus().length,
          cpu: os.cpus()[0]?.model ?? '',
          smoke: SMOKE,
          budgets: RESULTS,
          lines,
        },
        null,
        2,
      ),
    );
  if (write) {
    const { execFileSync } = require('node:child_process');
    let commit = 'unknown';
    try {
      commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
        cwd: path.join(__dirname, '..'),
        encoding: 'utf8',
      }).trim();
    } catch {
      // not a git checkout
    }
    const stamp =
      `Commit ${commit}, ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} × ` +
      `${os.cpus()[0]?.model ?? 'cpu'}${only.length ? `; cases: ${only.join(', ')}` : ''}.`;
    const file = path.join(__dirname, '..', 'BENCHMARKS.md');
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    fs.writeFileSync(file, REPEAT > 1 ? withStability(before, stamp, lines) : withRun(before, stamp, lines));
    log(`BENCHMARKS.md written${REPEAT > 1 ? ' (its stability section)' : ''}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
