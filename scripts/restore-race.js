#!/usr/bin/env node
// The symlink flip race against milk's restores (issue "Snapshots you can trust"): while a background process flips
// a workspace folder between a real folder and a link to a marker folder outside, restores write every file of that
// folder back, again and again, for SECONDS; then the marker folder must be exactly what it was. Run on the built
// code: `node scripts/restore-race.js SECONDS bwrap|fds`. Prints one line of JSON; exits 1 if anything outside
// changed. The integration test runs it for 10 s per path, the bench for 30 s.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { restoreContained } = require('../dist/session/restore-contained.js');

const seconds = Number(process.argv[2] || 10);
const how = process.argv[3] === 'fds' ? 'fds' : 'bwrap';
const FILES = 20;

/** Every file under `dir` with its bytes, as one string (what "exactly what it was" compares). */
function listing(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(`${path.relative(dir, p)}:${e.isSymbolicLink() ? 'link' : fs.readFileSync(p, 'hex')}`);
    }
  };
  walk(dir);
  return out.join('\n');
}

async function main() {
  const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'milk-race-')));
  const ws = path.join(top, 'ws');
  const outside = path.join(top, 'outside');
  const copies = path.join(top, 'copies');
  for (const d of [ws, outside, copies, path.join(ws, 'a')]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(outside, 'marker.txt'), 'untouched\n');
  const ops = [];
  for (let i = 0; i < FILES; i++) {
    const copy = path.join(copies, `f${i}`);
    fs.writeFileSync(copy, `file ${i}\n`);
    ops.push({ kind: 'write', rel: `a/f${i}.txt`, mode: 0o644, from: { copy } });
  }
  const before = listing(outside);
  // The flipper: a/ a real folder, then a link to the marker folder, as fast as it can.
  const flipper = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs'); const [a, moved, out] = process.argv.slice(1);
       for (;;) {
         try { fs.renameSync(a, moved); fs.symlinkSync(out, a); fs.unlinkSync(a); fs.renameSync(moved, a); } catch {}
       }`,
      path.join(ws, 'a'),
      path.join(ws, 'a.moved'),
      outside,
    ],
    { stdio: 'ignore' },
  );
  const until = Date.now() + seconds * 1000;
  let restores = 0;
  let written = 0;
  let refused = 0;
  try {
    while (Date.now() < until) {
      const r = await restoreContained({ root: ws, repo: null, ops, how });
      if (r.how !== how) throw new Error(`ran as ${r.how}, not ${how}`);
      restores++;
      for (const e of r.errors) {
        if (e === null) written++;
        else refused++;
      }
    }
  } finally {
    flipper.kill('SIGKILL');
  }
  const after = listing(outside);
  const changed = after !== before;
  console.log(JSON.stringify({ how, seconds, restores, written, refused, outsideChanged: changed }));
  fs.rmSync(top, { recursive: true, force: true });
  process.exit(changed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
