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

const CASES = { startup: benchStartup };

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
