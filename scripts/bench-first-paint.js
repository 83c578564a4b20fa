// `npm run bench` case `firstpaint` (issue 55): what start-up compiles and reads before the first paint, milk beside
// the bare blessed screen (the start-up budget's baseline), item by item; and keys typed in the 2 s after the first
// paint, while the agent's parts load a tick each (app/parts.ts): their echo's p99 (budget 16 ms).
const path = require('node:path');
const fs = require('node:fs');
const { stats, fmt, tmp, sleep, spawnUntil } = require('./bench-lib');
const { unusedLine } = require('./bench-unused');

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const BARE = path.join(__dirname, 'bench-baseline.js');

/**
 * A preload that writes, at the first write that holds `ready`, the JavaScript files loaded by then (each one read
 * and compiled) to `out`.
 */
function loadedAtPaint(dir, ready, out, afterMs = 0) {
  const preload = path.join(dir, 'paint-preload.js');
  fs.writeFileSync(
    preload,
    `const fs = require('node:fs');
    const write = process.stdout.write;
    let done = false;
    const list = () => fs.writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache)));
    process.stdout.write = function (chunk, ...rest) {
      if (!done && String(chunk).includes(${JSON.stringify(ready)})) {
        done = true;
        if (${afterMs} === 0) list();
        else setTimeout(list, ${afterMs});
      }
      return write.call(this, chunk, ...rest);
    };`,
  );
  return preload;
}

/** The parts a session loaded by 3 s after its first paint (start-up settled) when nothing was typed. */
async function partsOfIdle(data) {
  const dir = tmp('milk-bench-idle-parts-');
  const out = path.join(dir, 'loaded.json');
  const run = await spawnUntil(
    ['-r', loadedAtPaint(dir, 'history: session', out, 3000), CLI, '--data-dir', data],
    'history: session',
  );
  try {
    // Nothing is drawn meanwhile, so the file is looked for rather than waited on with the screen.
    for (const end = Date.now() + 10000; !fs.existsSync(out); await sleep(100))
      if (Date.now() > end) throw new Error('no list of the loaded files 10 s after the first paint');
  } finally {
    run.p.kill('SIGKILL');
  }
  const parts = path.join(__dirname, '..', 'dist', 'parts');
  return JSON.parse(fs.readFileSync(out, 'utf8'))
    .filter((f) => path.dirname(f) === parts)
    .map((f) => path.basename(f, '.js'));
}

/** What a start loaded before its first paint: files and bytes, milk's own (dist/) and its packages'. */
async function loadedBy(argv, ready) {
  const dir = tmp('milk-bench-paint-');
  const out = path.join(dir, 'loaded.json');
  const run = await spawnUntil(['-r', loadedAtPaint(dir, ready, out), ...argv], ready);
  run.p.kill('SIGKILL');
  const files = JSON.parse(fs.readFileSync(out, 'utf8')).filter((f) => !f.endsWith('paint-preload.js'));
  const size = (list) => list.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  const own = files.filter((f) => !f.includes(`${path.sep}node_modules${path.sep}`));
  const packages = files.filter((f) => f.includes(`${path.sep}node_modules${path.sep}`));
  return {
    files: files.length,
    bytes: size(files),
    own: own.length,
    ownBytes: size(own),
    packageBytes: size(packages),
  };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;

/** Keys typed every 40 ms from the first paint for 2 s: each one's echo, in milliseconds. */
async function keysAfterPaint(data) {
  const run = await spawnUntil([CLI, '--data-dir', data], 'history: session');
  const times = [];
  try {
    const end = Date.now() + 2000;
    for (let i = 1; Date.now() < end; i++) {
      const want = `│${'x'.repeat(i)} `;
      const t0 = process.hrtime.bigint();
      const echoed = run.until(() => run.screen().includes(want), 5000);
      run.p.write('x');
      times.push(Number((await echoed) - t0) / 1e6);
      await sleep(40);
    }
  } finally {
    run.p.kill('SIGKILL');
  }
  return times;
}

async function benchFirstPaint({ check, machine, smoke }) {
  const data = tmp('milk-bench-paint-data-');
  (await spawnUntil([CLI, '--data-dir', data], 'history: session')).p.kill('SIGKILL');
  const milk = await loadedBy([CLI, '--data-dir', data], 'history: session');
  const bare = await loadedBy([BARE], 'baseline');
  console.log(
    `before the first paint, JavaScript read and compiled: milk ${kb(milk.bytes)} in ${milk.files} files (its own ` +
      `${kb(milk.ownBytes)} in ${milk.own}, packages ${kb(milk.packageBytes)}); bare blessed screen ` +
      `${kb(bare.bytes)} in ${bare.files} files (blessed's index loads every widget; milk loads the screen and box)`,
  );
  const index = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'dist', 'parts', 'index.json'), 'utf8'));
  const partBytes = (list) =>
    list.reduce((sum, p) => sum + fs.statSync(path.join(__dirname, '..', 'dist', 'parts', `${p}.js`)).size, 0);
  const { afterPaint } = index;
  console.log(
    `  after it, a tick each: ${afterPaint.length} parts of the agent, ${kb(partBytes(afterPaint))} ` +
      `(${afterPaint.join(', ')})`,
  );
  // Unused costs nothing: the features outside the agent's parts are not compiled by a session that does not use them.
  const unused = index.parts.filter((p) => !afterPaint.includes(p));
  const loaded = (await partsOfIdle(data)).filter((p) => unused.includes(p));
  console.log(
    `  not used, not loaded: ${unused.map((p) => `${p} ${kb(partBytes([p]))}`).join(', ')}; an idle session ` +
      `loaded ${loaded.length ? loaded.join(', ') : 'none of them'} in 3 s after its first paint (each loads where ` +
      'first used)',
  );
  check('parts an idle session loaded that it did not use', loaded.length, 0, 0);
  await unusedLine('commands', check);
  const keys = [];
  for (let i = 0; i < (smoke ? 1 : 5); i++) keys.push(...(await keysAfterPaint(data)));
  const s = stats(keys);
  console.log(
    `keys typed in the 2 s after the first paint (the parts loading meanwhile): median ${fmt(s.median)}, p99 ` +
      `${fmt(s.p99)}, max ${fmt(s.max)} (n=${s.n}; budget p99 16 ms, +50%, times the machine factor ` +
      `${machine.factor.toFixed(2)})`,
  );
  check('keystroke p99 in the 2 s after the first paint', s.p99, 16 * machine.factor, 0.5);
}

module.exports = { benchFirstPaint };
