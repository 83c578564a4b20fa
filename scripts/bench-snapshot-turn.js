// Issue 52's bench cases for the snapshots (npm run bench: `snapturn` and `race`).
// snapturn: a turn with one command in an unchanged tree of 1,000 folders x 50 files of 1 KB, one file changed: the
//   turn's end snapshot, timed in milk's own code on that tree (budget 300 ms wall, times the machine factor), and
//   keys typed into the real program while its end snapshot runs (p99 under 50 ms).
// race: the symlink flip race (scripts/restore-race.js) for 30 s against each way a restore is contained.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { stats, fmt, tmp, spawnUntil } = require('./bench-lib');

/** `dirs` folders of 50 files of 1 KB each. */
function tree(dirs) {
  const ws = fs.realpathSync(tmp('milk-bench-turn-ws-'));
  const body = 'x'.repeat(1023) + '\n';
  for (let d = 0; d < dirs; d++) {
    const dir = path.join(ws, `d${d}`);
    fs.mkdirSync(dir);
    for (let f = 0; f < 50; f++) fs.writeFileSync(path.join(dir, `f${f}.txt`), body);
  }
  return ws;
}

/** The end snapshot's work, in milk's code: after a snapshot of the tree, one file changed, then the next snapshot. */
async function endSnapshots(ws, rounds) {
  const { Snapshots } = require('../dist/session/snapshots');
  const s = new Snapshots({
    workspace: ws,
    store: path.join(tmp('milk-bench-turn-data-'), 'store.git'),
    leaveOut: [],
    maxFileBytes: 10 * 1048576,
    warn: () => undefined,
    order: () => 0,
  });
  const times = [];
  for (let i = 0; i <= rounds; i++) {
    // The turn's start (its snapshot and the ignored paths beside it), then its command's one change, then its end.
    await s.turnSnapshot(i);
    fs.appendFileSync(path.join(ws, `d${i}`, 'f1.txt'), 'changed\n');
    const t0 = process.hrtime.bigint();
    s.turnEnded(i);
    // The end's snapshot, as the runner starts it at the turn's end (its promise is the store's own).
    await s.ends.get(i);
    if (i > 0) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return times;
}

/** Keys typed into the real program as each turn's end snapshot runs (a command changing one file per turn). */
async function keysDuringEnds(ws, rounds, keystrokes) {
  const { startMockServer } = require('./mock-server');
  const mock = await startMockServer();
  const argv = [path.join(__dirname, '..', 'dist', 'cli.js'), '--data-dir', tmp('milk-bench-turn-data-')];
  argv.push('--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'run', '--approval', 'full-auto');
  const run = await spawnUntil([...argv, '--sandbox', 'off'], 'history: session', {}, process.execPath, false, ws);
  const samples = [];
  try {
    // The first turn's snapshots read the whole tree once; not measured.
    run.p.write('true\r');
    await run.until(() => run.screen().includes('ran: true'), 60000);
    for (let i = 0; i < rounds; i++) {
      const command = `echo x >> d${i + 20}/f2.txt`;
      run.p.write(`${command}\r`);
      await run.until(() => run.screen().includes(`ran: ${command}`), 20000);
      for (const ms of await keystrokes(run, 10)) samples.push(ms);
      run.p.write('\x15');
      await run.until(() => !run.screen().includes('│xxxxxxxxxx'));
    }
  } finally {
    run.p.kill('SIGKILL');
    await mock.close();
  }
  return samples;
}

async function benchSnapshotTurn({ check, machine, smoke, keystrokes }) {
  const dirs = smoke ? 40 : 1000;
  const ws = tree(dirs);
  try {
    const ends = stats(await endSnapshots(ws, smoke ? 3 : 10));
    const keys = stats(await keysDuringEnds(ws, smoke ? 2 : 20, keystrokes));
    console.log(
      `a turn's end snapshot in an unchanged ${dirs}x50-file tree, one file changed: median ${fmt(ends.median)}, ` +
        `max ${fmt(ends.max)} (n=${ends.n}; budget median 300 ms, +20%, times the machine factor ` +
        `${machine.factor.toFixed(2)}); keys typed while it runs: p99 ${fmt(keys.p99)}, median ${fmt(keys.median)} ` +
        `(n=${keys.n}; budget p99 50 ms, +20%)`,
    );
    check(`end snapshot, ${dirs}x50 files, one changed`, ends.median, 300 * machine.factor, 0.2);
    check('keystroke p99 during an end snapshot', keys.p99, 50, 0.2);
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

function benchRace({ check, smoke }) {
  const seconds = smoke ? 2 : 30;
  for (const how of ['bwrap', 'fds']) {
    let out;
    try {
      out = execFileSync(process.execPath, [path.join(__dirname, 'restore-race.js'), String(seconds), how], {
        encoding: 'utf8',
      });
    } catch (err) {
      out = err.stdout || '{"outsideChanged":true}';
    }
    const r = JSON.parse(out.trim().split('\n').pop());
    console.log(
      `the symlink flip race, ${seconds} s (${how}): ${r.restores} restores, ${r.written} files written, ` +
        `${r.refused} refused; outside the workspace ${r.outsideChanged ? 'CHANGED' : 'untouched'}`,
    );
    check(`files written outside the workspace in the flip race (${how})`, r.outsideChanged ? 1 : 0, 0, 0);
  }
}

module.exports = { benchSnapshotTurn, benchRace };
