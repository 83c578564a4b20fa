// Issue 54's bench case `detector`: what the secret detector (secretlint's preset in a worker, app/secret-detector.ts)
// costs the first request, which waits for it to load. Full screen: the prompt typed and Enter pressed at once after
// the first paint (the worker is started by the first keystroke), timed from Enter to the request reaching the mock
// server, with maskSecrets on and off, alternated. milk run: start to exit of a short answer, on and off.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { stats, fmt, tmp, sleep, spawnUntil } = require('./bench-lib');

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');

function dataDir(mask) {
  const dir = tmp('milk-bench-detector-');
  if (!mask) fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ maskSecrets: false }));
  return dir;
}

/** Enter to the request's arrival, in ms, for a prompt typed at once after the first paint. */
async function firstRequest(mock, mask) {
  const argv = [CLI, '--data-dir', dataDir(mask), '--provider', 'openai', '--base-url', `${mock.url}/v1`];
  const run = await spawnUntil([...argv, '--model', 'short'], 'history: session');
  try {
    const before = mock.requests.length;
    run.p.write('hi');
    const t0 = Date.now();
    run.p.write('\r');
    const deadline = t0 + 20000;
    while (mock.requests.length === before) {
      if (Date.now() > deadline) throw new Error('the request never came');
      await sleep(1);
    }
    return mock.requests[before].startedAt - t0;
  } finally {
    run.p.kill('SIGKILL');
  }
}

/** milk run's wall time for a short answer, in ms. */
function runOnce(mock, mask) {
  const argv = [CLI, '--data-dir', dataDir(mask), 'run', '--provider', 'openai', '--base-url', `${mock.url}/v1`];
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [...argv, '--model', 'short', 'hi'], {
      stdio: 'ignore',
      cwd: tmp('milk-b-'),
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Number(process.hrtime.bigint() - t0) / 1e6) : reject(new Error(`milk run: ${code}`)),
    );
  });
}

async function benchDetector({ check, smoke, machine }) {
  const { startMockServer } = require('./mock-server');
  const mock = await startMockServer();
  const m = { screen: { on: [], off: [] }, run: { on: [], off: [] } };
  try {
    for (let round = 0; round < (smoke ? 1 : 10); round++) {
      const order = round % 2 === 0 ? [true, false] : [false, true];
      for (const mask of order) {
        m.screen[mask ? 'on' : 'off'].push(await firstRequest(mock, mask));
        m.run[mask ? 'on' : 'off'].push(await runOnce(mock, mask));
      }
    }
  } finally {
    await mock.close();
  }
  const med = (xs) => stats(xs).median;
  const waited = Math.max(0, med(m.screen.on) - med(m.screen.off));
  const runExtra = Math.max(0, med(m.run.on) - med(m.run.off));
  console.log(
    `first request, Enter at once after the first paint: Enter to the server ${fmt(med(m.screen.on))} with the ` +
      `secret detector, ${fmt(med(m.screen.off))} with maskSecrets off: it waited ${fmt(waited)} ` +
      `(budget 150 ms x the machine factor, +50%; n=${m.screen.on.length} each, alternated)`,
  );
  console.log(
    `  milk run, a short answer: ${fmt(med(m.run.on))} with the detector, ${fmt(med(m.run.off))} without: ` +
      `+${fmt(runExtra)} (budget 150 ms x the machine factor, +50%)`,
  );
  check('first request waits for the secret detector (ms)', waited, 150 * machine.factor, 0.5);
  check('milk run with the secret detector, extra (ms)', runExtra, 150 * machine.factor, 0.5);
}

module.exports = { benchDetector };
