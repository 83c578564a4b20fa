#!/usr/bin/env node
// Part of `npm run build`: starts the built milk twice in a pseudo-terminal
// with a throwaway data dir (a start, then a start with one answer), and
// keeps the V8 code cache those runs wrote as dist/code-cache, the seed a
// first start reads (src/code-cache.ts). Without it the build still works:
// this only prints why there is no seed.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const DIST = path.join(__dirname, '..', 'dist');
const SEED = path.join(DIST, 'code-cache');

function run(pty, data, withAnswer) {
  return new Promise((resolve, reject) => {
    const p = pty.spawn(process.execPath, [path.join(DIST, 'cli.js'), '--data-dir', data, '--provider', 'offline'], {
      cols: 100, rows: 30, cwd: data, env: { ...process.env, TERM: 'xterm-256color', MILK_CODE_CACHE: 'no-seed', MILK_OFFLINE_DELAY_MS: '0' },
    });
    let out = '';
    let step = 0;
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error('milk did not start and quit within 20 s'));
    }, 20000);
    p.onData((d) => {
      out += d;
      if (step === 0 && out.includes('history: session')) {
        step = 1;
        // A short answer with some Markdown in it, so a first answer's functions are in the seed too.
        if (withAnswer) p.write('show **bold**, a list and `code`\r');
        setTimeout(() => p.write('/quit\r'), withAnswer ? 1500 : 200);
      }
    });
    p.onExit(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function main() {
  let pty;
  try {
    pty = require('@lydell/node-pty');
  } catch {
    console.log('seed-code-cache: no pseudo-terminal package (a production install); no seed');
    return;
  }
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'milk-seed-'));
  try {
    await run(pty, data, false);
    await run(pty, data, true);
    const cache = path.join(data, 'cache');
    fs.rmSync(SEED, { recursive: true, force: true });
    fs.mkdirSync(SEED);
    for (const name of fs.readdirSync(cache)) if (name.endsWith('.bin')) fs.copyFileSync(path.join(cache, name), path.join(SEED, name));
  } finally {
    fs.rmSync(data, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.log(`seed-code-cache: no seed (${err.message})`);
});
