// Issue 54's bench case `denyparse`: a command judged by a command deny rule is read by mvdan/sh
// (tools/shell-parse.ts), on the main thread. Its load is timed once, then each of a few hundred distinct commands
// (none read before: nothing kept helps) is parsed and judged. Budget: p99 under 50 ms; past it, the parser belongs in
// a worker.
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { stats, fmt } = require('./bench-lib');

const SHAPES = [
  (i) => `npm test -- --grep case${i}`,
  (i) => `git log --oneline -n ${i} && git status --short`,
  (i) => `find src -name '*.ts' -newer f${i} | xargs grep -l TODO`,
  (i) => `for f in a${i} b c; do echo "$f"; cat "$f" | wc -l; done`,
  (i) => `sudo -u build make -j4 target${i} 2>&1 | tee log${i}.txt`,
  (i) => `bash -c 'cd /tmp/w${i} && ls -la && rm -f stale'`,
  (i) => `X=$(printf '%s' v${i}); echo "$X" > out${i}`,
  (i) => `python3 -c "import sys; print(${i})" && node -e 'console.log(${i})'`,
];

function benchDenyParse({ check, smoke }) {
  const dist = path.join(__dirname, '..', 'dist');
  const t0 = performance.now();
  const { readShell } = require(path.join(dist, 'tools', 'shell-parse'));
  const { denyingRule } = require(path.join(dist, 'settings', 'deny-match'));
  readShell('true');
  const load = performance.now() - t0;
  const deny = [{ tool: 'shell', prefix: 'rm' }];
  const times = [];
  const n = smoke ? 40 : 400;
  for (let i = 0; i < n; i++) {
    const command = SHAPES[i % SHAPES.length](i);
    const t = performance.now();
    denyingRule(deny, { tool: 'shell', text: command, shell: readShell(command) });
    times.push(performance.now() - t);
  }
  const s = stats(times);
  console.log(
    `a command read by the shell parser for a deny rule: median ${fmt(s.median)}, p99 ${fmt(s.p99)} (n=${s.n}; ` +
      `budget p99 50 ms, +20%); the parser's load ${fmt(load)}, once, only where a command deny rule is in force`,
  );
  check('a command read by the shell parser for a deny rule, p99', s.p99, 50, 0.2);
}

module.exports = { benchDenyParse };
