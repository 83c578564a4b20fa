#!/usr/bin/env node
// npm run bench: milk's speed figures, measured on the built program.
// Each case prints one line; BENCHMARKS.md records a run. Cases:
//   startup   time from spawn to the first painted status bar, in a real pty (median of 10)
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const pty = require('@lydell/node-pty');

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: at(0.5), p99: at(0.99), min: s[0], max: s[s.length - 1], n: s.length };
}

function fmt(ms) {
  return `${ms.toFixed(1)} ms`;
}

function tmp(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function startupOnce() {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const p = pty.spawn(process.execPath, [CLI, '--data-dir', tmp('milk-bench-')], {
      cols: 80, rows: 24, cwd: tmp('milk-bench-cwd-'), env: { ...process.env, TERM: 'xterm-256color' },
    });
    let out = '';
    const timer = setTimeout(() => { p.kill('SIGKILL'); reject(new Error('no first paint in 10 s')); }, 10000);
    p.onData((d) => {
      out += d;
      if (out.includes('history: session')) {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        clearTimeout(timer);
        p.onExit(() => resolve(ms));
        p.write('\x04');
      }
    });
  });
}

async function benchStartup() {
  const samples = [];
  for (let i = 0; i < 10; i++) samples.push(await startupOnce());
  const s = stats(samples);
  console.log(`startup to first paint: median ${fmt(s.median)}, min ${fmt(s.min)}, max ${fmt(s.max)} (n=${s.n})`);
}

function benchHistory() {
  const { HistoryFile } = require('../dist/history/store');
  const header = { format: 'milk-history', version: 1, scope: 'global', sessionId: null, workspace: null, displayName: 'global' };
  for (const n of [500, 100000]) {
    const file = path.join(tmp('milk-bench-hist-'), 'input_history');
    const store = new HistoryFile(file, header, n);
    const entries = Array.from({ length: n }, (_, i) => ({
      ts: new Date(1700000000000 + i * 1000).toISOString(),
      segments: [{ type: 'text', text: `entry ${i}: refactor the module number ${i % 97} and run its tests` }],
    }));
    store.append(entries);
    const loads = [];
    const saves = [];
    for (let i = 0; i < 10; i++) {
      let t = process.hrtime.bigint();
      const { entries: got } = new HistoryFile(file, header, n).load();
      loads.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (got.length !== n) throw new Error(`loaded ${got.length} of ${n}`);
      t = process.hrtime.bigint();
      store.append([{ ts: new Date().toISOString(), segments: [{ type: 'text', text: `new ${i}` }] }]);
      saves.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const size = (fs.statSync(file).size / 1024).toFixed(0);
    console.log(`history ${n} entries (${size} KiB): load median ${fmt(stats(loads).median)}, save (locked merge + fsync + rename) median ${fmt(stats(saves).median)}`);
  }
}

const CASES = { startup: benchStartup, history: benchHistory };

async function main() {
  const only = process.argv.slice(2);
  console.log(`milk bench: node ${process.version}, ${os.cpus().length} cpus, ${os.cpus()[0]?.model ?? ''}`);
  for (const [name, run] of Object.entries(CASES)) {
    if (only.length && !only.includes(name)) continue;
    await run();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
