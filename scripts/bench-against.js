// `npm run bench -- --against REF`: this build against REF's, in one run, so that a change costing a few per cent is
// seen against the build before it and not only against a budget with headroom. REF is built in a temporary git
// worktree (its own lock's packages: npm ci, unless the lock is the same as this tree's, when this tree's packages
// are the same packages; then its own build); both run against one mock server, alternating, 15 samples each of four
// figures. A figure fails when this build's median is worse than REF's by more than max(10 %, its floor).
const path = require('node:path');
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const { stats, fmt, tmp, sleep, spawnUntil, statusOf, turnCpu } = require('./bench-lib');

const ROOT = path.join(__dirname, '..');

/** The four figures, each with the floor under which a difference is noise on this machine. */
const FIGURES = [
  { key: 'startup', name: 'start-up to the first paint', floor: 5, show: fmt },
  {
    key: 'cpu',
    name: 'CPU while streaming 4,000 tokens (milk and its children)',
    floor: 0.03,
    show: (s) => `${s.toFixed(3)} s`,
  },
  { key: 'ctrlc', name: 'Ctrl-C to idle', floor: 2, show: fmt },
  { key: 'keys', name: 'keystroke p99 while an answer streams', floor: 2, show: fmt },
];

/** How much worse than REF's a figure may be: 10 %, or its floor where that is more. */
const allowance = (figure, ref) => Math.max(0.1 * ref, figure.floor);

/** REF checked out and built beside this tree; `remove` takes the worktree away again. */
function buildRef(ref) {
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = tmp('milk-bench-against-');
  git('worktree', 'add', '--detach', '--force', dir, commit);
  const remove = () => {
    try {
      git('worktree', 'remove', '--force', dir);
    } catch {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    const lock = (d) => fs.readFileSync(path.join(d, 'package-lock.json'), 'utf8');
    if (lock(dir) === lock(ROOT) && fs.existsSync(path.join(ROOT, 'node_modules')))
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    else execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, stdio: 'ignore' });
    execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'ignore' });
  } catch (err) {
    remove();
    throw err;
  }
  return { commit: commit.slice(0, 8), cli: path.join(dir, 'dist', 'cli.js'), remove };
}

/** One sample of each figure from the build at `cli`, whose data dir was used once before (as on every later start). */
async function sample(cli, data, url, into) {
  const argv = [cli, '--data-dir', data, '--provider', 'openai', '--base-url', `${url}/v1`, '--model', 'rate:4000'];
  const start = await spawnUntil(argv, 'history: session');
  start.p.kill('SIGKILL');
  into.startup.push(start.ms);

  const run = await spawnUntil(argv, 'history: session');
  const status = () => statusOf(run);
  try {
    run.p.write('go');
    await run.until(() => run.screen().includes('│go '));
    await sleep(300);
    into.cpu.push(await turnCpu(run));

    run.p.write('/model slow:20\r');
    await run.until(() => run.screen().includes('model: slow:20') && !run.screen().includes('│/model'), 5000);
    run.p.write('a slow one\r');
    await run.until(() => status().includes('working'));
    const keys = [];
    for (let i = 1; i <= 20; i++) {
      const want = `│${'x'.repeat(i)} `;
      const t0 = process.hrtime.bigint();
      const echoed = run.until(() => run.screen().includes(want));
      run.p.write('x');
      keys.push(Number((await echoed) - t0) / 1e6);
      await sleep(20);
    }
    into.keys.push(stats(keys).p99);
    run.p.write('\x15');
    await run.until(() => !run.screen().includes('│x'));
    await sleep(60);
    const c0 = process.hrtime.bigint();
    const idle = run.until(() => !status().includes('working'));
    run.p.write('\x03');
    into.ctrlc.push(Number((await idle) - c0) / 1e6);
  } finally {
    run.p.kill('SIGKILL');
  }
}

/**
 * Measures this build against REF's (`samples` of each, alternating which goes first) and registers a check per
 * figure with `check(name, value, budget, headroom)`: the budget is REF's median plus what it may be worse by.
 */
async function benchAgainst(ref, { check, smoke }) {
  const { startMockServer } = require('./mock-server');
  const samples = smoke ? 1 : 15;
  const built = buildRef(ref);
  const mock = await startMockServer();
  const empty = () => ({ startup: [], cpu: [], ctrlc: [], keys: [] });
  const builds = [
    { name: 'this build', cli: path.join(ROOT, 'dist', 'cli.js'), data: tmp('milk-bench-now-'), m: empty() },
    { name: `${ref} (${built.commit})`, cli: built.cli, data: tmp('milk-bench-ref-'), m: empty() },
  ];
  try {
    for (const b of builds) (await spawnUntil([b.cli, '--data-dir', b.data], 'history: session')).p.kill('SIGKILL');
    for (let i = 0; i < samples; i++)
      for (const b of i % 2 === 0 ? builds : [...builds].reverse()) await sample(b.cli, b.data, mock.url, b.m);
  } finally {
    await mock.close();
    built.remove();
  }
  const [now, before] = builds;
  console.log(
    `against ${before.name}: ${samples} samples of each figure, interleaved (median; allowed: +max(10 %, floor))`,
  );
  for (const f of FIGURES) {
    const a = stats(now.m[f.key]).median;
    const b = stats(before.m[f.key]).median;
    const limit = b + allowance(f, b);
    const change = b > 0 ? `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)} %` : 'n/a';
    console.log(
      `  ${f.name}: this build ${f.show(a)}, ${ref} ${f.show(b)} (${change}; allowed up to ${f.show(limit)}) ` +
        `${a > limit ? 'WORSE' : 'pass'}`,
    );
    check(`${f.name}, against ${ref}`, a, limit, 0);
  }
}

module.exports = { benchAgainst, allowance, FIGURES };
